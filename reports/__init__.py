"""Reports over stored verdicts: rates with intervals, report data, HTML and SVG charts, evidence traces, summaries."""
