"""Reports over stored verdicts: rates with intervals, report data, HTML and SVG charts, evidence traces, summaries."""

# Installed as groundwatch.reports; from the repository root the bare folder name would load every
# module a second time (two ScoringError classes, two caches), so it is refused.
if __name__ != "groundwatch.reports":
    raise ModuleNotFoundError(f"No module named {__name__!r}: import groundwatch.reports", name=__name__)
