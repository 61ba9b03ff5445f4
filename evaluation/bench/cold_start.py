"""The groundwatch CLI in this process, reporting its peak RSS on stderr at exit (the bench's cold start).

    python -m groundwatch.evaluation.bench.cold_start score -i FILE -o -

Exactly what `groundwatch ARGS` runs, plus one stderr line `RSS_MARKER<MiB>` when the process exits
normally; nothing is imported before the CLI but this module's own few lines.
"""

from __future__ import annotations

import atexit
import sys

RSS_MARKER = "BENCH_PEAK_RSS_MB "


def _report() -> None:
    from groundwatch.evaluation.bench.child import peak_rss_mb

    print(f"{RSS_MARKER}{peak_rss_mb():.1f}", file=sys.stderr, flush=True)


def main() -> int:
    atexit.register(_report)
    from groundwatch.cli import main as cli

    return cli(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
