"""Score the examples several times, each in a different input order, and compare every run.

    python examples/repeat_runs.py --runs 5 --json docs/figures/examples-repeat.json

Run 1 keeps the file order, run 2 reverses it, the others shuffle it (seeded by the run number).
Each run is a plain `groundwatch score`; each verdict file is compared with `expected.jsonl` by
compare.py, and the verdict files are compared with each other record by record (by request_id),
ignoring `scored_at`. Issue 11: the agreement must be the same on every run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VOLATILE = ("scored_at",)


def order(lines: list[str], run: int) -> tuple[str, list[str]]:
    if run == 1:
        return "file order", list(lines)
    if run == 2:
        return "reversed", list(reversed(lines))
    shuffled = list(lines)
    random.Random(run).shuffle(shuffled)
    return f"shuffled (seed {run})", shuffled


def stable(path: Path) -> dict[str, dict]:
    """request_id -> the verdict record without its volatile fields."""
    out = {}
    for line in path.open(encoding="utf-8"):
        if line.strip():
            record = json.loads(line)
            out[record["request_id"]] = {k: v for k, v in record.items() if k not in VOLATILE}
    return out


def claim_verdicts(records: dict[str, dict]) -> dict[tuple[str, int], str]:
    return {(rid, i): c["verdict"] for rid, r in records.items() for i, c in enumerate(r["claims"])}


def main(inputs: Path, expected: Path, runs: int, json_out: Path | None, keep: Path | None) -> int:
    lines = [line for line in inputs.read_text(encoding="utf-8").splitlines() if line.strip()]
    work = Path(keep or tempfile.mkdtemp(prefix="gw-repeat-"))
    work.mkdir(parents=True, exist_ok=True)
    results, stables = [], []
    for run in range(1, runs + 1):
        name, ordered = order(lines, run)
        source, verdicts, counts = work / f"input-{run}.jsonl", work / f"verdicts-{run}.jsonl", work / f"agree-{run}.json"
        source.write_text("\n".join(ordered) + "\n", encoding="utf-8")
        subprocess.run([str(Path(sys.executable).parent / "groundwatch"), "score", "--input", str(source), "--output", str(verdicts), "--no-progress"],
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        subprocess.run([sys.executable, str(HERE / "compare.py"), str(verdicts), "--expected", str(expected),
                        "--json", str(counts)], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        c = json.loads(counts.read_text())
        records = stable(verdicts)
        stables.append(records)
        results.append({"run": run, "order": name, "claims": c["claims"], "claims_agree": c["claims_agree"],
                        "responses": c["responses"], "responses_agree": c["responses_agree"]})
        print(f"run {run} ({name}): {c['claims_agree']}/{c['claims']} claims agree, "
              f"{c['responses_agree']}/{c['responses']} responses", flush=True)
    first = stables[0]
    differing = sorted({rid for other in stables[1:] for rid in set(first) | set(other)
                        if first.get(rid) != other.get(rid)})
    verdicts = [claim_verdicts(s) for s in stables]
    claims_moving = sorted({k for v in verdicts[1:] for k in set(verdicts[0]) | set(v) if verdicts[0].get(k) != v.get(k)})
    agree = [r["claims_agree"] for r in results]
    summary = {"input": os.path.relpath(inputs, ROOT), "expected": os.path.relpath(expected, ROOT),
               "model": next(iter(first.values()), {}).get("model"), "runs": results,
               "claims_agree_min": min(agree), "claims_agree_max": max(agree),
               "identical_except": list(VOLATILE), "identical": not differing,
               "responses_differing": len(differing), "claim_verdicts_differing": len(claims_moving)}
    print(f"claims agreeing: min {min(agree)}, max {max(agree)} over {runs} runs; verdict files identical except "
          f"{', '.join(VOLATILE)}: {'yes' if not differing else f'no ({len(differing)} responses differ)'}")
    if json_out:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=Path, default=HERE / "responses.jsonl")
    parser.add_argument("--expected", type=Path, default=HERE / "expected.jsonl")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, dest="json_out", help="write the summary as JSON here")
    parser.add_argument("--keep", type=Path, help="folder for the inputs and verdict files (default: a temp dir)")
    args = parser.parse_args()
    sys.exit(main(args.input, args.expected, args.runs, args.json_out, args.keep))
