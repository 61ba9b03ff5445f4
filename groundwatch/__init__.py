"""groundwatch: a production monitor for RAG that checks answers by entailment."""

__version__ = "0.1.0"
