"""Tools beside the pipeline that the commands run: the streaming benchmark. Nothing in the runtime stages imports them."""
