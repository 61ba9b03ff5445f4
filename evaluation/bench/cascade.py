"""The evidence cascade measured: the same responses scored with every premise, then with the cascade.

    python -m groundwatch.evaluation.bench.cascade -i examples/responses.jsonl \\
        --expected examples/expected.jsonl -o docs/figures/cascade-examples.json
    python -m groundwatch.evaluation.bench.cascade -i build/dev/wice.jsonl --half report --limit 100 \\
        -o build/dev/cascade-wice.json

One process and one model: a fresh Scorer per setting (an empty pair cache), the embedder shared (its
vectors do not depend on the setting), the scorer's defaults otherwise (context conflicts on). Per
setting: model inputs (premise windows, context-conflict pairs included) and their tokens per response,
premises scored per claim; then every claim whose verdict differs between the two, and with
`--expected` (examples/expected.jsonl) how many claims agree with the expected verdict under each and
which got worse. No times: the second setting finds the embeddings cached, and speed is the bench's job
(`groundwatch bench --paths whole_path`); the counts are exact on any machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.files import output_path
from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.scorers.schema import Response, parse_response

SETTINGS = {"all_premises": {"evidence_cascade": False}, "cascade": {"evidence_cascade": True}}


def read_responses(path: Path, half: str | None, limit: int | None, skip: int = 0) -> list[Response]:
    """Responses in file order (a labelled file's extra fields are ignored); `skip` and `limit` after the half."""
    from groundwatch.evaluation.dataset import half_of

    out = []
    for _, raw in read_jsonl(path):
        if half and half_of(raw["request_id"]) != half:
            continue
        if skip:
            skip -= 1
            continue
        out.append(parse_response(raw))
        if limit is not None and len(out) >= limit:
            break
    return out


def score_both(responses: list[Response], config: ScorerConfig, batch_size: int = 32) -> dict:
    """{setting: (verdict records, measured counts)} for each entry of SETTINGS, on one loaded model."""
    from groundwatch.scorers.evidence.embedder import Embedder
    from groundwatch.scorers.nli.factory import backend_for
    from groundwatch.scorers.pipeline import Scorer

    backend = backend_for(config)
    embedder = Embedder() if config.use_embeddings else None
    out = {}
    for name, update in SETTINGS.items():
        scorer = Scorer(config.model_copy(update=update), backend, embedder)
        records = []
        for i in range(0, len(responses), batch_size):
            records += [v.to_dict() if hasattr(v, "to_dict") else {"error": v.reason}
                        for v in scorer.score(responses[i:i + batch_size])]
        scorer.close()  # joins the batcher, which counts a batch after handing out its results
        stats = scorer.batcher.stats
        out[name] = (records, {"model_inputs": stats.pairs,
                               "tokens": stats.real_tokens, "padded_tokens": stats.padded_tokens})
    return out


def _claims(records: list[dict]) -> dict[tuple[str, int], dict]:
    return {(r["request_id"], c["index"]): c for r in records if "claims" in r for c in r["claims"]}


def _per_response(records: list[dict], counts: dict) -> dict:
    n = max(1, len(records))
    claims = [c for c in _claims(records).values() if c["verdict"] != "SKIPPED"]
    premises = sum(len(c.get("evidence") or []) for c in claims)
    joined = sum(1 for c in claims for e in c.get("evidence") or [] if e["kind"] == "pair")
    return {**counts, "model_inputs_per_response": round(counts["model_inputs"] / n, 2),
            "tokens_per_response": round(counts["tokens"] / n, 1),
            "premises_per_claim": round(premises / max(1, len(claims)), 3),
            "joined_pairs_per_claim": round(joined / max(1, len(claims)), 3),
            "claims_with_joined_pairs": sum(1 for c in claims if any(e["kind"] == "pair" for e in c.get("evidence") or []))}


def _matches(expected: str, got: str) -> bool:  # as examples/compare.py: NOT_SUPPORTED takes either
    return got in ("CONTRADICTED", "NOT_ENOUGH_INFO") if expected == "NOT_SUPPORTED" else expected == got


def against_expected(before: list[dict], after: list[dict], expected_path: Path) -> dict:
    """Claims agreeing with examples/expected.jsonl before and after; the ones that got worse or better."""
    by_id = {name: {r["request_id"]: r for r in records} for name, records in (("before", before), ("after", after))}
    agree = {"before": 0, "after": 0}
    worse, better, total = [], [], 0
    for _, exp in read_jsonl(expected_path):
        for entry in exp["claims"]:
            ok = {}
            for name in agree:
                record = by_id[name].get(exp["request_id"])
                claim = next((c for c in (record or {}).get("claims", [])
                              if entry["contains"].lower() in c["text"].lower()), None)
                ok[name] = claim is not None and _matches(entry["expected"], claim["verdict"])
                agree[name] += ok[name]
            total += 1
            where = {"request_id": exp["request_id"], "expected": entry["expected"]}
            if ok["before"] and not ok["after"]:
                worse.append(where)
            elif ok["after"] and not ok["before"]:
                better.append(where)
    return {"claims": total, "agree_all_premises": agree["before"], "agree_cascade": agree["after"],
            "worse": worse, "better": better}


def compare(responses: list[Response], config: ScorerConfig, expected: Path | None = None,
            batch_size: int = 32) -> tuple[dict, dict]:
    """The report, and the verdict records of each setting."""
    scored = score_both(responses, config, batch_size)
    (before, counts_before), (after, counts_after) = scored["all_premises"], scored["cascade"]
    old, new = _claims(before), _claims(after)
    changed = [{"request_id": rid, "claim": index, "all_premises": old[(rid, index)]["verdict"],
                "cascade": new[(rid, index)]["verdict"]}
               for rid, index in old if (rid, index) in new and old[(rid, index)]["verdict"] != new[(rid, index)]["verdict"]]
    judged = sum(1 for c in old.values() if c["verdict"] != "SKIPPED")
    report = {"responses": len(responses), "claims": judged,
              "all_premises": _per_response(before, counts_before), "cascade": _per_response(after, counts_after),
              "changed": changed, "changed_share": round(len(changed) / max(1, judged), 5),
              "errors": {"all_premises": sum("error" in r for r in before), "cascade": sum("error" in r for r in after)}}
    if expected is not None:
        report["expected"] = against_expected(before, after, expected)
    return report, {"all_premises": before, "cascade": after}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-i", "--input", type=Path, required=True, help="responses or labelled JSONL")
    p.add_argument("--half", choices=("calibration", "report"), help="keep one stable half (default: all)")
    p.add_argument("--skip", type=int, default=0, metavar="N", help="leave out the first N records (after the half)")
    p.add_argument("--limit", type=int, metavar="N", help="first N records (after the half and --skip; default: all)")
    p.add_argument("--expected", type=Path, help="expected verdicts (examples/expected.jsonl)")
    p.add_argument("--batch-size", type=int, default=32, metavar="N", help="responses per scorer call (default 32)")
    p.add_argument("--save-verdicts", type=Path, metavar="PREFIX",
                   help="also write PREFIX-all_premises.jsonl and PREFIX-cascade.jsonl")
    p.add_argument("-o", "--output", type=Path, help="JSON report (default: stdout only)")
    args = p.parse_args(argv)
    responses = read_responses(args.input, args.half, args.limit, args.skip)
    report, records = compare(responses, ScorerConfig(), args.expected, args.batch_size)
    report = {"input": str(args.input), "half": args.half, "skip": args.skip, "limit": args.limit, **report}
    if args.save_verdicts:
        for name, rows in records.items():
            output_path(f"{args.save_verdicts}-{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    text = json.dumps(report, indent=2) + "\n"
    if args.output:
        output_path(args.output).write_text(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
