"""Tools beside the pipeline that the commands run: the figures builder and the streaming benchmark. Nothing in the runtime stages imports them."""
