"""Identity check for a change meant to leave behaviour alone (a move, a rename, a merge of copies).

Rescores the examples, the controls and the guard probe with this checkout and compares the verdict
records with a run made before the change: every field equal but the code version and the scoring time.

    python -m tests.verdict_identity score build/identity-before     # on the commit before the change
    python -m tests.verdict_identity score build/identity-after      # on the commit after it
    python -m tests.verdict_identity compare build/identity-before build/identity-after

`make identity BEFORE=DIR` does the last two. Scoring the three sets takes a few minutes on a laptop's
CPU, so it is a make target and not part of `make test`; the comparison itself is unit-tested.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The three sets, each scored into DIR/<name>.jsonl.
SETS = {
    "examples": ROOT / "examples" / "responses.jsonl",
    "controls": ROOT / "examples" / "controls" / "responses.jsonl",
    "guard_probe": ROOT / "examples" / "guards" / "responses.jsonl",
}
# What may differ between two runs of the same behaviour: the code version and the time of scoring.
VOLATILE = ("scorer_version", "scored_at")


def score(out: Path) -> None:
    from groundwatch.cli import main

    out.mkdir(parents=True, exist_ok=True)
    for name, responses in SETS.items():
        code = main(["score", "-i", str(responses), "-o", str(out / f"{name}.jsonl"), "--no-progress", "-q"])
        if code:
            raise SystemExit(f"scoring {responses} failed with exit status {code}")


def _records(path: Path) -> dict[str, dict]:
    records = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            records[record["request_id"]] = {k: v for k, v in record.items() if k not in VOLATILE}
    return records


def _first_difference(before, after, where: str = "") -> str:
    """Where two JSON values first differ, as a path (claims[2].verdict), for the report."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after)):
            if before.get(key, ...) != after.get(key, ...):
                return _first_difference(before.get(key), after.get(key), f"{where}.{key}" if where else key)
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after)):
            if b != a:
                return _first_difference(b, a, f"{where}[{i}]")
    return where or "(record)"


def compare(before: Path, after: Path) -> list[str]:
    """One line per difference; empty when every set's records are equal but for VOLATILE."""
    found = []
    for name in SETS:
        old_path, new_path = before / f"{name}.jsonl", after / f"{name}.jsonl"
        missing = [p for p in (old_path, new_path) if not p.exists()]
        if missing:
            found.append(f"{name}: no {', '.join(map(str, missing))}")
            continue
        old, new = _records(old_path), _records(new_path)
        for request_id in sorted(set(old) ^ set(new)):
            found.append(f"{name}: {request_id} only in {'before' if request_id in old else 'after'}")
        for request_id in sorted(set(old) & set(new)):
            if old[request_id] != new[request_id]:
                found.append(f"{name}: {request_id} differs at {_first_difference(old[request_id], new[request_id])}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.verdict_identity", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    scoring = commands.add_parser("score", help="score the examples, controls and guard probe into DIR")
    scoring.add_argument("dir", type=Path)
    comparing = commands.add_parser("compare", help="compare two scored directories; exit 1 on any difference")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "score":
        score(args.dir)
        return 0
    differences = compare(args.before, args.after)
    for line in differences:
        print(line)
    counts = {name: len(_records(args.after / f"{name}.jsonl")) for name in SETS if (args.after / f"{name}.jsonl").exists()}
    print(f"{'identical' if not differences else f'{len(differences)} difference(s)'}: "
          + ", ".join(f"{n} {name}" for name, n in counts.items()), file=sys.stderr)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
