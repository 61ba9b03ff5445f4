"""Where the consumer's resident memory goes: a measurement, not a test.

Builds the scorer as `groundwatch consume` does (default settings, the shipped model, the
embedder) and prints the process's RSS after each step: the imports, the scorer (models,
tokenizers, English tables), the warm-up, then scoring --responses fresh copies of
examples/responses.jsonl in batches of kafka.batch_size, with the scorer's caches' sizes at the
end. Run it under different environments (MALLOC_ARENA_MAX, GROUNDWATCH_SCORER__MAX_BATCH_TOKENS) to
compare; --output saves the RSS of each step and the peak (docs/performance.md renders it).

    python -m infra.consumer_memory [--responses 2000] [--output FILE]
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import sys
import time
from pathlib import Path

from groundwatch.evaluation.bench.memory import peak_rss_mb, rss_mb

ROOT = Path(__file__).resolve().parents[1]


def anon_mb() -> float:
    """Anonymous (heap, arenas) resident memory; the rest is mapped files (libraries, model weights)."""
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        if line.startswith("Anonymous:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def step(name: str, started: float, steps: dict | None = None) -> None:
    rss = round(rss_mb(), 1)
    if steps is not None:
        steps[name] = rss
    print(json.dumps({"step": name, "rss_mb": rss, "anon_mb": round(anon_mb(), 1),
                      "s": round(time.monotonic() - started, 1), "cpu_s": round(time.process_time(), 1)}), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--responses", type=int, default=2000)
    parser.add_argument("--no-ort-arena", action="store_true",
                        help="ONNX Runtime sessions without the CPU memory arena (an experiment)")
    parser.add_argument("--with-torch", action="store_true",
                        help="import torch first, as a process that also uses it would (the commands keep it "
                             "out on the ONNX backend)")
    parser.add_argument("--output", metavar="FILE", help="also write each step's RSS and the peak as JSON")
    args = parser.parse_args(argv)
    if args.with_torch:
        import torch  # noqa: F401 - its memory is what this measures
    if args.no_ort_arena:
        _without_ort_arena()
    started, steps = time.monotonic(), {}
    step("python", started)
    from groundwatch.commands.common import build_scorer
    from groundwatch.config.settings import Settings
    from groundwatch.tools.stream_bench import traffic
    from groundwatch.consumer.wiring import build_job  # noqa: F401 - what consume imports
    from groundwatch.scorers.byte_cache import CACHES, MB, total_budget, total_bytes
    from groundwatch.scorers.schema import parse_response

    step("imports", started)
    settings = Settings()
    scorer = build_scorer(settings)  # as the commands build it: torch kept out on the ONNX backend
    step("scorer_built", started, steps)
    scorer.backend.warmup()
    step("warmed_up", started, steps)
    values = traffic(ROOT / "examples" / "responses.jsonl", args.responses, "mem")
    batch = settings.kafka.batch_size
    for start in range(0, len(values), batch):
        scorer.score([parse_response(v) for v in values[start:start + batch]])
        step(f"scored_{min(start + batch, len(values))}", started, steps)
    if args.output:
        write_report(args.output, settings, steps, args.with_torch, len(values))
    print(json.dumps({"env": {k: os.environ[k] for k in ("MALLOC_ARENA_MAX",) if k in os.environ},
                      "pair_cache_entries": len(scorer.pairs._cache),
                      "byte_caches_estimated_mb": round(total_bytes() / MB, 1),
                      "byte_caches_budget_mb": round(total_budget() / MB, 1)}), flush=True)
    # What each holds for real: the RSS given back when it is emptied (freed memory returned by malloc_trim).
    trim()
    step("trimmed", started)
    scorer.pairs.clear()
    trim()
    step("pair_cache_cleared", started)
    for cache in sorted(CACHES, key=lambda c: -c.nbytes):
        if len(cache):
            estimated = cache.nbytes
            cache.clear()
            trim()
            step(f"cleared {cache.name or 'cache'} ({estimated / MB:.1f} MB estimated)", started)
    scorer.close()
    return 0


def write_report(path: str, settings, steps: dict, with_torch: bool, responses: int) -> None:
    """The figure's source: RSS after each step, the peak so far (VmHWM, never below a step's
    VmRSS), and what it depends on."""
    report = {"responses": responses, "kafka_batch_size": settings.kafka.batch_size,
              "max_batch_tokens": settings.scorer.max_batch_tokens, "max_batch_size": settings.scorer.max_batch_size,
              "backend": settings.scorer.backend, "torch_imported": "torch" in sys.modules,
              "torch_imported_first": with_torch, "rss_mb": steps,
              "peak_rss_mb": round(max(peak_rss_mb(), *steps.values()), 1)}
    Path(path).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


def _without_ort_arena() -> None:
    from groundwatch.scorers.evidence import embedder
    from groundwatch.scorers.nli import onnx_backend, threads

    def options(threads_: int | None = None):
        opts, budget = threads.deterministic_session_options(threads_)
        opts.enable_cpu_mem_arena = False
        return opts, budget

    embedder.deterministic_session_options = onnx_backend.deterministic_session_options = options


def trim() -> None:
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)


if __name__ == "__main__":
    raise SystemExit(main())
