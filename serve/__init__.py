"""groundwatch serve: the inline check over HTTP, beside the streaming job."""
