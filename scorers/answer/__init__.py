"""An answer into its claims: splitting, the decorative filter, bare yes/no answers."""
