"""The `groundwatch` command line: argument parsing only; the work is done by the packages it calls."""

__version__ = "0.1.0"
