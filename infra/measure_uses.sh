#!/usr/bin/env bash
# Which use of the larger model pays: score the controls, the examples and the guard probe with one use and
# write one JSON of their measures (the model-uses figure's rows); with `dev`, score the report half of the
# four groundedness dev sets instead and write `groundwatch eval`'s report (the figure's dev rows).
#
#   LARGER=DIR infra/measure_uses.sh small|second-opinion|larger OUT.json [dev]
#   DISTILLED=DIR infra/measure_uses.sh distilled OUT.json [dev]
#   infra/measure_uses.sh torch OUT.json [dev]
#
# small: the shipped model alone; torch: its compact copy on the torch backend (bf16 with fixed shapes on AMX); second-opinion: the shipped model with LARGER as scorer.second_opinion
# (MARGIN sets scorer.second_opinion_margin, default the setting's); larger: LARGER alone, at the same
# thresholds; distilled: DISTILLED, the small model trained towards the larger one's probabilities
# (training/distil.py), alone at the same thresholds. LARGER and DISTILLED are servable ONNX directories
# (groundwatch export-model) or PyTorch checkpoints (the torch backend). Verdicts and per-set reports go to
# VERDICTS (default build/uses/USE); the dev sets are converted once into DEV (default build/dev), DEV_LIMIT
# keeps the first N records of each set's report half (default: all). One intra-op thread (THREADS), under nice: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
use=${1:?usage: LARGER=DIR infra/measure_uses.sh small|torch|second-opinion|larger|distilled OUT.json}
out=${2:?usage: LARGER=DIR infra/measure_uses.sh small|torch|second-opinion|larger|distilled OUT.json}
part=${3:-controls}
dir=${VERDICTS:-build/uses/$use}
mkdir -p "$dir"
export GROUNDWATCH_SCORER__THREADS=${THREADS:-1} OMP_NUM_THREADS=${THREADS:-1}
model=()
case "$use" in
    small) ;;
    second-opinion)
        export GROUNDWATCH_SCORER__SECOND_OPINION=${LARGER:?LARGER=DIR: the larger model}
        [ -z "${MARGIN:-}" ] || export GROUNDWATCH_SCORER__SECOND_OPINION_MARGIN=$MARGIN ;;
    larger) model=(--model "${LARGER:?LARGER=DIR: the larger model}") ;;
    distilled) model=(--model "${DISTILLED:?DISTILLED=DIR: the distilled small model}") ;;
    torch) model=(--model scorers/models/nli-minilm-torch) ;;
    *) echo "measure_uses.sh: error: use $use: expected small, torch, second-opinion, larger or distilled" >&2; exit 2 ;;
esac
# A checkpoint or compact copy (no model.onnx) runs on the torch backend (bf16 with fixed shapes on AMX).
if [ ${#model[@]} -gt 0 ] && [ ! -f "${model[1]}/model.onnx" ]; then model+=(--backend torch); fi
gw() { nice -n 5 .venv/bin/groundwatch "$@"; }
if [ "$part" = dev ]; then
    # The report half of the dev sets at the shipped thresholds, converted as the verdict-rule figures' are.
    dev=${DEV:-build/dev}
    OUT="$dev" infra/measure_verdict_rule.sh convert
    # The report half, or its first DEV_LIMIT records of each set (the larger model reads about five times
    # slower than the small one).
    .venv/bin/python - "$dev" "${DEV_LIMIT:-0}" <<'EOF'
import json, sys
from groundwatch.evaluation.dataset import half_of
dev, limit = sys.argv[1], int(sys.argv[2])
with open(f"{dev}/dev-report.jsonl", "w") as out:
    for name in ("wice", "begin", "qags", "halueval"):
        kept = [l for l in open(f"{dev}/{name}.jsonl") if half_of(json.loads(l)["request_id"]) == "report"]
        out.writelines(kept[:limit] if limit else kept)
EOF
    gw eval --no-progress --input "$dev/dev-report.jsonl" --half report --no-question-mode "${model[@]}" \
        --save-verdicts "$dir/dev-verdicts.jsonl" --output "$out" > "$dir/dev.txt"
    echo "measure_uses.sh: $use on the dev report half: $out (the tables: $dir/dev.txt)"
    exit 0
fi
[ "$part" = controls ] || { echo "measure_uses.sh: error: part $part: expected controls or dev" >&2; exit 2; }
for set in controls:examples/controls guards:examples/guards examples:examples; do
    name=${set%%:*} folder=${set#*:}
    gw score -i "$folder/responses.jsonl" -o "$dir/$name.jsonl" --no-progress -q "${model[@]}"
done
.venv/bin/python -m groundwatch.evaluation.probing.controls "$dir/controls.jsonl" -o "$dir/controls.json" > /dev/null
.venv/bin/python examples/compare.py "$dir/examples.jsonl" --json "$dir/examples.json" > /dev/null
.venv/bin/python - "$use" "$dir" "$out" <<'EOF'
import json, os, sys
from pathlib import Path

from groundwatch.config.scorer import ScorerConfig

use, folder, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
read = lambda name: json.loads((folder / name).read_text())


def probe(path: Path, expected: Path) -> dict:
    """Guard-probe agreement of the saved verdicts (not re-decided from the small model's evidence, which a
    second opinion overrules), per family; NOT_SUPPORTED accepts CONTRADICTED or NOT_ENOUGH_INFO."""
    records = {r["request_id"]: r for r in map(json.loads, path.read_text().splitlines())}
    out = {"claims": 0, "agree": 0, "by_family": {}}
    for exp in map(json.loads, expected.read_text().splitlines()):
        for entry in exp["claims"]:
            claim = next(c for c in records[exp["request_id"]]["claims"] if entry["contains"].lower() in c["text"].lower())
            want, got = entry["expected"], claim["verdict"]
            ok = got in ("CONTRADICTED", "NOT_ENOUGH_INFO") if want == "NOT_SUPPORTED" else got == want
            family = out["by_family"].setdefault(exp["case"], {"claims": 0, "agree": 0, "verdicts": {}})
            for row in (out, family):
                row["claims"] += 1
                row["agree"] += ok
            family["verdicts"][got] = family["verdicts"].get(got, 0) + 1
    return out


claims = [c for name in ("controls", "guards", "examples")
          for line in (folder / f"{name}.jsonl").read_text().splitlines() if line.strip()
          for c in json.loads(line)["claims"] if c["verdict"] != "SKIPPED"]
second = [c["second_opinion"] for c in claims if c.get("second_opinion")]
models = sorted({json.loads(line)["model"] for line in (folder / "controls.jsonl").read_text().splitlines()})
result = {"use": use, "model": models, "controls": read("controls.json"), "examples": read("examples.json"),
          "guard_probe": probe(folder / "guards.jsonl", Path("examples/guards/expected.jsonl")),
          "second_opinion": {"model": second[0]["model"] if second else None, "claims": len(claims),
                             "margin": float(os.environ.get("GROUNDWATCH_SCORER__SECOND_OPINION_MARGIN",
                                                            ScorerConfig().second_opinion_margin)),
                             "escalated": len(second),
                             "by_reason_outcome": {k: sum(1 for s in second if f"{s['reason']}_{s['outcome']}" == k)
                                                   for k in sorted({f"{s['reason']}_{s['outcome']}" for s in second})},
                             "changed": sum(1 for s in second if s["outcome"] == "rescored"
                                            and s["verdict"] != s["small_model_verdict"])} if use == "second-opinion"
          else None}
out.write_text(json.dumps(result, indent=2) + "\n")
r, p = result["controls"]["rewordings"], result["controls"]["pairs"]
print(f"{use}: rewordings SUPPORTED {r['supported']}/{r['claims']}, CONTRADICTED {r['contradicted']}, weakest "
      f"{r['worst_family']}; pairs not SUPPORTED {p['not_supported']}/{p['claims']}; examples "
      f"{result['examples']['claims_agree']}/{result['examples']['claims']}; guard probe "
      f"{result['guard_probe']['agree']}/{result['guard_probe']['claims']}")
EOF
