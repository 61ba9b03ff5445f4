"""Compare `groundwatch score` verdicts on the examples with what a careful reader expects.

    python examples/compare.py build/verdicts.jsonl
    python examples/compare.py /tmp/gp_verdicts.jsonl --expected examples/guards/expected.jsonl
    python examples/compare.py /tmp/gp_verdicts.jsonl --expected examples/guards/expected.jsonl --guards both

`--guards both` re-decides the saved verdicts with the guards off and on (evaluation/redecide/guard_variants.py:
the record keeps each guard check, so "off" is the same evidence decided without them; no model run)
and counts agreement per family for each. NOT_SUPPORTED in expected.jsonl accepts CONTRADICTED or NOT_ENOUGH_INFO.
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


def main(path: str, expected_path: Path = HERE / "expected.jsonl", json_out: Path | None = None,
         guards: str | None = None) -> int:
    if guards:
        return guard_columns(path, expected_path, json_out, guards)
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
    if json_out:  # the figure source of the README's agreement line (python -m groundwatch.reports.figures)
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps({
            "verdicts": str(path), "expected": os.path.relpath(expected_path), "claims": total, "claims_agree": agree,
            "responses": len(verdicts), "responses_agree": responses_ok,
            "by_case": {case: {"agree": by_case[(case, True)], "differ": by_case[(case, False)]}
                        for case in sorted({c for c, _ in by_case})}}, indent=2) + "\n")
    return 0


def _claims(path: str, expected_path: Path):
    """(record, expectation, family, index of the expected claim in the record) for every expected claim."""
    verdicts = {}
    for line in open(path, encoding="utf-8"):
        record = json.loads(line)
        verdicts[record["request_id"]] = record
    for line in Path(expected_path).open(encoding="utf-8"):
        exp = json.loads(line)
        record = verdicts.get(exp["request_id"])
        if record is None:
            continue
        for entry in exp["claims"]:
            index = next(i for i, c in enumerate(record["claims"]) if entry["contains"].lower() in c["text"].lower())
            yield record, entry, exp["case"], index


def guard_columns(path: str, expected_path: Path, json_out: Path | None, guards: str) -> int:
    """Agreement per family with the saved verdicts re-decided with the guards off and on."""
    from groundwatch.config.settings import load_settings
    from groundwatch.evaluation.redecide.guard_variants import GUARD_STATES, parse_guards, record_verdicts
    from groundwatch.evaluation.scored import Variant
    from groundwatch.scorers.verdicts.thresholds import Thresholds

    config = load_settings().scorer
    names = parse_guards(guards)
    base = Variant(Thresholds.from_config(config), free_checks=config.free_checks)
    cache: dict[tuple[str, str], list[str]] = {}
    families: dict[str, dict] = {}
    saved_differs = 0
    for record, entry, family, index in _claims(path, expected_path):
        row = families.setdefault(family, {"cases": set(), "claims": 0, **{n: {"agree": 0, "verdicts": Counter()}
                                                                           for n in names}})
        row["cases"].add(record["request_id"])
        row["claims"] += 1
        for name in names:
            key = (record["request_id"], name)
            if key not in cache:
                cache[key] = record_verdicts(record, Variant(base.thresholds, base.free_checks,
                                                             guards=GUARD_STATES[name]))
            got = cache[key][index]
            row[name]["agree"] += matches(entry["expected"], got)
            row[name]["verdicts"][got] += 1
            if GUARD_STATES[name] and got != record["claims"][index]["verdict"]:
                saved_differs += 1
    total = {"claims": sum(r["claims"] for r in families.values()),
             **{n: sum(r[n]["agree"] for r in families.values()) for n in names}}
    head = "".join(f"{n:>12}" for n in names)
    print(f"{'family':<26}{'cases':>6}{'claims':>7}{head}")
    for family, r in sorted(families.items()):
        print(f"{family:<26}{len(r['cases']):>6}{r['claims']:>7}" + "".join(f"{r[n]['agree']:>12}" for n in names))
    print(f"{'all':<26}{'':>6}{total['claims']:>7}" + "".join(f"{total[n]:>12}" for n in names))
    if saved_differs:
        print(f"note: {saved_differs} expected claims re-decided with guards on differ from the saved verdict "
              "(other thresholds or settings than the scoring run?)")
    if json_out:  # the figure source of the README's guard probe table (python -m groundwatch.reports.figures)
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps({
            "verdicts": str(path), "expected": os.path.relpath(expected_path),
            "model": next((json.loads(line).get("model") for line in open(path, encoding="utf-8")), None),
            "thresholds": {"tau_entailment": config.tau_entailment, "tau_contradiction": config.tau_contradiction,
                           "mode": config.threshold_mode},
            "variants": names, "saved_differs_from_guards_on": saved_differs, "claims": total["claims"],
            "agree": {n: total[n] for n in names},
            "by_family": {family: {"cases": len(r["cases"]), "claims": r["claims"],
                                   **{n: {"agree": r[n]["agree"], "verdicts": dict(sorted(r[n]["verdicts"].items()))}
                                      for n in names}}
                          for family, r in sorted(families.items())}}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("verdicts", nargs="?", default="build/verdicts.jsonl", help="groundwatch score output")
    parser.add_argument("--expected", type=Path, default=HERE / "expected.jsonl",
                        help="expectations JSONL (default: examples/expected.jsonl)")
    parser.add_argument("--json", type=Path, dest="json_out", help="also write the counts as JSON here")
    parser.add_argument("--guards", metavar="off|on|both",
                        help="re-decide the saved verdicts with the guards off and/or on; agreement per family")
    args = parser.parse_args()
    sys.exit(main(args.verdicts, args.expected, args.json_out, args.guards))
