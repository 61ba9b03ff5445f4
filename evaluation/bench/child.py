"""Run one benchmark path in this process and print its result as JSON on the last line.

Input: a JSON spec on stdin with `path` naming an entry of PATHS.
"""

from __future__ import annotations

import json
import sys

from groundwatch.evaluation.bench.memory import peak_rss_mb

MARKER = "BENCH_RESULT "


def main() -> int:
    from groundwatch.evaluation.bench.paths import PATHS

    spec = json.loads(sys.stdin.read())
    if spec.get("threads"):
        import torch

        torch.set_num_threads(spec["threads"])  # ONNX Runtime sessions get the same number (paths.py)
    result = PATHS[spec["path"]](spec)
    result["peak_rss_mb"] = peak_rss_mb()
    print(MARKER + json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
