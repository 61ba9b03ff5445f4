"""Verdict counts per family on the hand-written control set (examples/controls/), against its targets.

    groundwatch score --input examples/controls/responses.jsonl --output build/controls.jsonl
    python -m groundwatch.evaluation.probing.controls build/controls.jsonl --output docs/figures/controls.json

Families without the `_pair` suffix are supported rewordings (the verdict should be SUPPORTED); `_pair`
families are their minimal pairs (anything but SUPPORTED). Targets: at least 85% of the rewordings
SUPPORTED pooled, no family below 70%, at most 2% CONTRADICTED; at least 85% of the pairs not SUPPORTED.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from groundwatch.scorers.files import output_path

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = ROOT / "examples" / "controls" / "expected.jsonl"
VERDICTS = ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO")


def _claim_verdicts(verdicts_path: Path, expected_path: Path):
    records = {}
    for line in verdicts_path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records[record["request_id"]] = record
    for line in expected_path.read_text(encoding="utf-8").splitlines():
        expected = json.loads(line)
        record = records.get(expected["request_id"])
        if record is None:
            raise SystemExit(f"{verdicts_path}: no verdict for {expected['request_id']}")
        for entry in expected["claims"]:
            claim = next(c for c in record["claims"] if entry["contains"].lower() in c["text"].lower())
            yield expected["case"], claim["verdict"], record.get("model")


def report(verdicts_path: Path, expected_path: Path = EXPECTED) -> dict:
    families: dict[str, Counter] = {}
    models = set()
    for family, verdict, model in _claim_verdicts(verdicts_path, expected_path):
        families.setdefault(family, Counter())[verdict] += 1
        models.add(model)
    supported = {f: c for f, c in families.items() if not f.endswith("_pair")}
    pairs = {f: c for f, c in families.items() if f.endswith("_pair")}
    n_rewordings = sum(sum(c.values()) for c in supported.values())
    n_pairs = sum(sum(c.values()) for c in pairs.values())
    rewordings_supported = sum(c["SUPPORTED"] for c in supported.values())
    rewordings_contradicted = sum(c["CONTRADICTED"] for c in supported.values())
    pairs_not_supported = n_pairs - sum(c["SUPPORTED"] for c in pairs.values())
    worst = min(supported, key=lambda f: supported[f]["SUPPORTED"] / sum(supported[f].values()))
    worst_share = supported[worst]["SUPPORTED"] / sum(supported[worst].values())
    return {
        "verdicts": str(verdicts_path), "model": sorted(m for m in models if m),
        "families": {f: {v: c[v] for v in VERDICTS} | {"claims": sum(c.values())} for f, c in sorted(families.items())},
        "rewordings": {"claims": n_rewordings, "supported": rewordings_supported,
                       "contradicted": rewordings_contradicted, "worst_family": worst,
                       "worst_family_supported_share": round(worst_share, 4)},
        "pairs": {"claims": n_pairs, "not_supported": pairs_not_supported},
        "targets": {
            "rewordings_supported_85": rewordings_supported >= 0.85 * n_rewordings,
            "no_family_below_70": worst_share >= 0.70,
            "rewordings_contradicted_at_most_2": rewordings_contradicted <= 0.02 * n_rewordings,
            "pairs_not_supported_85": pairs_not_supported >= 0.85 * n_pairs,
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m groundwatch.evaluation.probing.controls",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("verdicts", type=Path, help="verdict records of examples/controls/responses.jsonl")
    parser.add_argument("--expected", type=Path, default=EXPECTED, help="expectations (default: the control set's)")
    parser.add_argument("-o", "--output", type=Path, help="write the report as JSON here")
    args = parser.parse_args(argv)
    result = report(args.verdicts, args.expected)
    print(f"{'family':<24}{'claims':>7}{'SUPP':>6}{'CONTR':>7}{'NEI':>6}")
    for family, row in result["families"].items():
        print(f"{family:<24}{row['claims']:>7}{row['SUPPORTED']:>6}{row['CONTRADICTED']:>7}{row['NOT_ENOUGH_INFO']:>6}")
    r, p = result["rewordings"], result["pairs"]
    print(f"rewordings SUPPORTED {r['supported']}/{r['claims']}, CONTRADICTED {r['contradicted']}; "
          f"pairs not SUPPORTED {p['not_supported']}/{p['claims']}; targets met: "
          f"{sum(result['targets'].values())} of {len(result['targets'])}")
    if args.output:
        output_path(args.output).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
