"""`groundwatch bench`: groundwatch's scoring path against the plain ways of running the same model.

Each path runs in its own child process (`python -m groundwatch.evaluation.bench.child`)
so its peak RSS is its own; every path scores the same pairs.
"""
