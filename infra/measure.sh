#!/usr/bin/env bash
# Reproduces every accuracy and speed figure in README.md and the model card
# (about 20 minutes on 2 cores). Outputs go to build/eval/ and build/nli_eval.json.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
out=build/eval
mkdir -p "$out"

# Pair level: validation splits, ANLI R1-R3 dev, SICK test, ConTRoL dev (evaluation only).
python -m groundwatch.training.evaluate_nli --output build/nli_eval.json

# Labelled dev sets in the traffic schema (label mapping: evaluation/README.md).
groundwatch convert --dataset halueval --limit 400 --output "$out/halueval.jsonl"
groundwatch convert --dataset begin --output "$out/begin.jsonl"
groundwatch convert --dataset wice-oracle --output "$out/wice-oracle.jsonl"
groundwatch convert --dataset qags --limit 400 --output "$out/qags.jsonl"
groundwatch probes --output "$out/probes.jsonl"

# Score each set once (seed conditions side by side; the question-order condition re-scores, so
# only HaluEval runs it), keep the verdicts for re-deciding.
groundwatch eval --input "$out/halueval.jsonl" --save-verdicts "$out/halueval-verdicts.jsonl" \
    --output "$out/halueval-report.json" > "$out/halueval.txt"
for set in begin wice-oracle qags; do
    groundwatch eval --input "$out/$set.jsonl" --no-question-mode --save-verdicts "$out/$set-verdicts.jsonl" \
        --output "$out/$set-report.json" > "$out/$set.txt"
done
groundwatch eval --probes "$out/probes.jsonl" --output "$out/probes-report.json" > "$out/probes.txt"

# Calibrate on one half of all dev sets together, report on the other half (no model run).
cat "$out"/{halueval,begin,wice-oracle,qags}.jsonl > "$out/dev.jsonl"
cat "$out"/{halueval,begin,wice-oracle,qags}-verdicts.jsonl > "$out/dev-verdicts.jsonl"
groundwatch eval --input "$out/dev.jsonl" --from-verdicts "$out/dev-verdicts.jsonl" --half calibration \
    --sweep --calibrate balanced-accuracy --calibration-out "$out/calibrated.json" > "$out/calibration.txt"
groundwatch eval --input "$out/dev.jsonl" --from-verdicts "$out/dev-verdicts.jsonl" --half report \
    --config "$out/calibrated.json" --output "$out/dev-report-half.json" > "$out/dev-report-half.txt"

# Speed: groundwatch's path against the transformers pipeline loop and CrossEncoder.predict.
groundwatch bench --threads 1 --output "$out/bench.json" > "$out/bench.txt"
echo "measurements written to $out/"
