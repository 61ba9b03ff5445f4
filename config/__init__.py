"""Settings (one frozen object, including the scorer section) and logging set-up; imports nothing of groundwatch's."""
