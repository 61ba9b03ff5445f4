"""The recall@k probe: labelled probe questions, retrievers, probe metrics."""
