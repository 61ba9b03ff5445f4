"""Compare `groundwatch score` verdicts on the examples with what a careful reader expects.

    python examples/compare.py build/verdicts.jsonl
    python examples/compare.py /tmp/gp_verdicts.jsonl --expected examples/guards/expected.jsonl

NOT_SUPPORTED in expected.jsonl accepts CONTRADICTED or NOT_ENOUGH_INFO.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def matches(expected: str, got: str) -> bool:
    if expected == "NOT_SUPPORTED":
        return got in ("CONTRADICTED", "NOT_ENOUGH_INFO")
    return expected == got


def main(path: str, expected_path: Path = HERE / "expected.jsonl", json_out: Path | None = None) -> int:
    verdicts = {}
    for line in open(path, encoding="utf-8"):
        record = json.loads(line)
        verdicts[record["request_id"]] = record
    agree, total, by_case, misses = 0, 0, Counter(), []
    responses_ok = 0
    for line in Path(expected_path).open(encoding="utf-8"):
        exp = json.loads(line)
        record = verdicts.get(exp["request_id"])
        if record is None:
            continue
        responses_ok += record["response"]["all_supported"] == exp["all_supported"]
        for entry in exp["claims"]:
            claim = next(c for c in record["claims"] if entry["contains"].lower() in c["text"].lower())
            total += 1
            ok = matches(entry["expected"], claim["verdict"])
            agree += ok
            by_case[(exp["case"], ok)] += 1
            if not ok:
                misses.append(f"{exp['request_id']} [{exp['case']}] expected {entry['expected']}, got "
                              f"{claim['verdict']} (e={claim['entailment']:.2f} c={claim['contradiction']:.2f}): "
                              f"{claim['text'][:90]}")
    print(f"claims agreeing with the expected verdict: {agree}/{total} ({100 * agree / max(total, 1):.0f}%)")
    print(f"responses with the expected all_supported: {responses_ok}/{len(verdicts)}")
    for case in sorted({c for c, _ in by_case}):
        print(f"  {case:<28} {by_case[(case, True)]:>3} agree  {by_case[(case, False)]:>3} differ")
    if misses:
        print("differences:")
        print("\n".join("  " + m for m in misses))
    if json_out:  # the figure source of the README's agreement line (python -m reports.figures)
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps({
            "verdicts": str(path), "expected": os.path.relpath(expected_path), "claims": total, "claims_agree": agree,
            "responses": len(verdicts), "responses_agree": responses_ok,
            "by_case": {case: {"agree": by_case[(case, True)], "differ": by_case[(case, False)]}
                        for case in sorted({c for c, _ in by_case})}}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("verdicts", nargs="?", default="build/verdicts.jsonl", help="groundwatch score output")
    parser.add_argument("--expected", type=Path, default=HERE / "expected.jsonl",
                        help="expectations JSONL (default: examples/expected.jsonl)")
    parser.add_argument("--json", type=Path, dest="json_out", help="also write the counts as JSON here")
    args = parser.parse_args()
    sys.exit(main(args.verdicts, args.expected, args.json_out))
