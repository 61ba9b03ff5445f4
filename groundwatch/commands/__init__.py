"""One module per subcommand: register(subparsers) adds its arguments, run(args) calls the library."""
