"""Corpus audit: conflicts, superseded versions and quality problems in a document collection.

documents -> statements (+ facts) -> grouping (keys, embedding neighbours)
-> conflicts (value mismatch, NLI both ways) / versions / quality -> score -> report.
"""
