"""How many threads a model session may use: the CPUs this process may actually run on.

`os.cpu_count()` is the host's core count; in a container limited to 2 CPUs on a 64-core node
it would start 64 threads per pool and be throttled by the quota. The count here is the
smaller of the CPU affinity (os.sched_getaffinity, e.g. taskset or a cpuset) and the cgroup
CPU quota, rounded down (a 1.5-CPU quota gets 1 thread): cgroup v2 `cpu.max`, else v1
`cpu.cfs_quota_us` / `cpu.cfs_period_us`. The ONNX Runtime session and the embedder take it
unless scorer.threads says otherwise, and log it at start. On the CPU both spend those threads on
pieces of each batch run at once (Parts), not on one run's intra-op threads.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

CGROUP = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class CpuBudget:
    threads: int            # what a session gets
    affinity: int           # CPUs the process may run on
    quota: float | None     # CPUs the cgroup allows (None: no limit found)
    source: str             # affinity | cgroup_v2 | cgroup_v1 | cpu_count

    def log_fields(self) -> dict:
        return {"threads": self.threads, "cpu_affinity": self.affinity, "cpu_quota": self.quota,
                "threads_source": self.source}


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def cgroup_quota(root: Path = CGROUP) -> tuple[float | None, str | None]:
    """(CPUs the cgroup allows, which file said so); (None, None) without a limit."""
    v2 = _read(root / "cpu.max")
    if v2 is not None:
        quota, _, period = v2.partition(" ")
        if quota != "max" and quota.isdigit() and period.isdigit() and int(period) > 0:
            return int(quota) / int(period), "cgroup_v2"
        return None, None
    for folder in (root / "cpu", root / "cpu,cpuacct", root):
        quota, period = _read(folder / "cpu.cfs_quota_us"), _read(folder / "cpu.cfs_period_us")
        if quota is None or period is None:
            continue
        if quota.lstrip("-").isdigit() and int(quota) > 0 and period.isdigit() and int(period) > 0:
            return int(quota) / int(period), "cgroup_v1"
        return None, None
    return None, None


def cpu_budget(root: Path = CGROUP) -> CpuBudget:
    if hasattr(os, "sched_getaffinity"):
        affinity, source = len(os.sched_getaffinity(0)), "affinity"
    else:  # not on Linux
        affinity, source = os.cpu_count() or 1, "cpu_count"
    quota, quota_source = cgroup_quota(root)
    threads = affinity
    if quota is not None and max(1, math.floor(quota)) < threads:
        threads, source = max(1, math.floor(quota)), quota_source
    return CpuBudget(max(1, threads), affinity, quota, source)


def deterministic_session_options(threads: int | None = None):
    """ONNX Runtime options both models use: full graph optimisation, one inter-op thread, intra-op
    threads from `threads` or the CPU budget (not the host's core count), deterministic kernels.
    Returns (options, the budget they were sized from)."""
    import onnxruntime as ort

    budget = cpu_budget()
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads or budget.threads
    options.inter_op_num_threads = 1
    options.use_deterministic_compute = True  # batch invariance comes from the model, see quantize.py
    return options, budget


# Padded tokens a piece aims at: a transformer layer's activations for this many tokens stay in a core's cache.
# One thread on the EPYC, the shipped model: pieces of 256-512 tokens 1.2-1.3 times the pairs/s of 2,048.
PIECE_TOKENS = 512


class Parts:
    """A batch cut into consecutive pieces run single-threaded, at least one per thread and all at once.

    ONNX Runtime's intra-op threads share a batch's small matrices poorly: on 2 cores two threads score about
    1.2 times what one does, two pieces at once about 1.6 times. A batch larger than PIECE_TOKENS padded
    tokens is cut into more pieces than threads, each near that size. The pieces are cut where their padded
    sizes (rows x longest row) are most even, not at equal row counts: rows come sorted by length, so equal
    counts would leave the last piece with the longest rows and every other thread waiting for it. A row's
    result does not depend on the rows beside it in either model, so the cut changes no value."""

    def __init__(self, options, name: str, cpu: bool = True, piece_tokens: int = PIECE_TOKENS):
        self.count = options.intra_op_num_threads if cpu else 1
        self.piece_tokens = piece_tokens if cpu else 0  # 0: no cut by size (a GPU wants whole batches)
        self._pool = None
        if self.count > 1:
            from concurrent.futures import ThreadPoolExecutor

            options.intra_op_num_threads = 1
            self._pool = ThreadPoolExecutor(self.count, thread_name_prefix=name)

    def run(self, forward, batch: list):
        """forward(batch) as the concatenation (numpy) of forward over consecutive pieces, run at once; the rows
        of `batch` are sorted by length (len of each)."""
        import numpy as np

        lengths = [len(row) for row in batch]
        wanted = len(greedy_cuts(lengths, self.piece_tokens)) - 1 if self.piece_tokens and batch else 1
        count = min(len(batch), max(self.count, wanted))
        if count < 2:
            return forward(batch)
        bounds = even_cuts(lengths, count)
        pieces = [batch[a:b] for a, b in zip(bounds, bounds[1:])]
        return np.concatenate(list(self._pool.map(forward, pieces) if self._pool else map(forward, pieces)))


def greedy_cuts(lengths: list[int], budget: int, limit: int | None = None) -> list[int] | None:
    """Bounds of consecutive pieces of rows sorted by length, each of at most `budget` padded tokens (rows x
    longest row) or one row, filled from the longest rows down; None when more than `limit` pieces are needed.
    A larger last piece only leaves shorter rows to the others, so this needs the fewest pieces."""
    bounds, end = [len(lengths)], len(lengths)
    while end > 0 and (limit is None or len(bounds) <= limit):
        end -= max(1, min(end, budget // max(lengths[end - 1], 1)))
        bounds.append(end)
    return bounds[::-1] if end == 0 else None


def even_cuts(lengths: list[int], count: int) -> list[int]:
    """Bounds [0, ..., len(lengths)] of at most `count` non-empty consecutive pieces of rows sorted by length,
    whose largest padded size (rows x longest row) is as small as it can be."""
    low, high = max(max(lengths), 1), max(max(lengths), 1) * len(lengths)
    while low < high:  # the smallest budget that some cut into `count` pieces meets
        middle = (low + high) // 2
        low, high = (low, middle) if greedy_cuts(lengths, middle, count) else (middle + 1, high)
    return greedy_cuts(lengths, low, count)
