"""Run one benchmark path in this process and print its result as JSON on the last line.

Input: a JSON spec on stdin with `path` naming an entry of PATHS.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MARKER = "BENCH_RESULT "


def peak_rss_mb() -> float:
    """VmHWM: this process's RSS high-water mark, imports and model included.

    Not getrusage's ru_maxrss, which survives exec and so would report the
    parent's size at fork when the parent is the larger process.
    """
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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
