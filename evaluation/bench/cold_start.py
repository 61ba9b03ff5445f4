"""The groundwatch CLI in this process, reporting its peak RSS on stderr at exit (the bench's cold start).

    python -m groundwatch.evaluation.bench.cold_start score -i FILE -o -

Exactly what `groundwatch ARGS` runs, plus one stderr line `RSS_MARKER<MiB>` when the process exits
normally; nothing is imported before the CLI but this module's own few lines.
"""

from __future__ import annotations

import atexit
import runpy
import sys

RSS_MARKER = "BENCH_PEAK_RSS_MB "


def _report() -> None:
    from groundwatch.evaluation.bench.memory import peak_rss_mb

    print(f"{RSS_MARKER}{peak_rss_mb():.1f}", file=sys.stderr, flush=True)


def main() -> int:
    atexit.register(_report)
    # The command runs as `python -m groundwatch.cli` would: this wrapper is a process of its own, above
    # every layer, so it names the entry point instead of importing the CLI downhill of it.
    sys.argv[0] = "groundwatch"
    runpy.run_module("groundwatch.cli", run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
