"""Local stack of real servers for tests, CI and people: see infra/stack.py."""
