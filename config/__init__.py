"""Bottom layer: typed settings (incl. the scorer section) and structlog set-up; imports nothing of groundwatch's."""
