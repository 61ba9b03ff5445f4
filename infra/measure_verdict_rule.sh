#!/usr/bin/env bash
# Issue 12: evidence windows chosen on the calibration half, then the threshold rule and the combiner
# side by side on the report half. Every model run saves its verdicts; everything after is re-decided.
#
#   infra/measure_verdict_rule.sh sweep    # chunkings x (top_k, pair_top) on a calibration subset
#   infra/measure_verdict_rule.sh final    # score the four dev sets, calibrate, fit the combiner, report
#   infra/measure_verdict_rule.sh report   # score the four dev sets, report at the shipped thresholds and combiner
#
# Env: OUT (build/eval12), SWEEP ("wice=60 qags=100 halueval=100": calibration-half records per set),
# CHUNKINGS (names below), CHUNKING (the one `final` scores), TOP_K / PAIR_TOP (the window `final`
# scores and decides with, default the shipped 4 / 3),
# HALUEVAL (answers, default 1000), RESAMPLES (1000), FIGURES_DIR (copy the reports there for
# python -m groundwatch.reports.figures; `final` then also ships the combiner beside the default model).
# Runs under nice: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
out=${OUT:-build/eval12}
mkdir -p "$out"
gw() { nice -n 5 groundwatch "$@"; }
resamples=${RESAMPLES:-1000}

# name -> GROUNDWATCH_SCORER__* settings (sentences or words per window, overlap in sentences)
chunk_env() {
    case "$1" in
        s2o0) echo "CHUNK_SENTENCES=2 CHUNK_OVERLAP=0" ;;
        s4o0) echo "CHUNK_SENTENCES=4 CHUNK_OVERLAP=0" ;;
        s4o1) echo "CHUNK_SENTENCES=4 CHUNK_OVERLAP=1" ;;   # the shipped default
        s6o1) echo "CHUNK_SENTENCES=6 CHUNK_OVERLAP=1" ;;
        s6o2) echo "CHUNK_SENTENCES=6 CHUNK_OVERLAP=2" ;;
        w60o1) echo "CHUNK_WORDS=60 CHUNK_OVERLAP=1" ;;
        w120o1) echo "CHUNK_WORDS=120 CHUNK_OVERLAP=1" ;;
        *) echo "unknown chunking $1" >&2; exit 2 ;;
    esac
}
with_chunking() {  # with_chunking NAME command...
    local name=$1; shift
    env $(chunk_env "$name" | sed 's/\([A-Z_]*=\)/GROUNDWATCH_SCORER__\1/g') "$@"
}

convert() {
    [ -s "$out/wice.jsonl" ] || gw convert --no-progress --dataset wice --output "$out/wice.jsonl"
    [ -s "$out/begin.jsonl" ] || gw convert --no-progress --dataset begin --output "$out/begin.jsonl"
    [ -s "$out/qags.jsonl" ] || gw convert --no-progress --dataset qags --output "$out/qags.jsonl"
    [ -s "$out/halueval.jsonl" ] || gw convert --no-progress --dataset halueval --limit "${HALUEVAL:-1000}" \
        --output "$out/halueval.jsonl"
}

sweep() {
    convert
    # The first N calibration-half records of each set (BEGIN's one short snippet is one window whatever the size).
    python - "$out" ${SWEEP:-wice=60 qags=100 halueval=100} <<'EOF'
import json, sys
from evaluation.dataset import half_of
out, limits = sys.argv[1], dict(a.split("=") for a in sys.argv[2:])
with open(f"{out}/sweep.jsonl", "w") as f:
    for name, n in limits.items():
        kept = [l for l in open(f"{out}/{name}.jsonl") if half_of(json.loads(l)["request_id"]) == "calibration"]
        f.writelines(kept[:int(n)])
EOF
    for c in ${CHUNKINGS:-s4o1 s2o0 s4o0 s6o1 w60o1 w120o1}; do
        if [ ! -s "$out/sweep-$c-verdicts.jsonl" ] && [ -s "$out/dev-$c-verdicts.jsonl" ]; then
            # `final` already scored every record with this chunking: keep the sweep's records of it.
            python -c 'import json, sys
ids = {json.loads(l)["request_id"] for l in open(sys.argv[1])}
sys.stdout.writelines(l for l in open(sys.argv[2]) if json.loads(l)["request_id"] in ids)' \
                "$out/sweep.jsonl" "$out/dev-$c-verdicts.jsonl" > "$out/sweep-$c-verdicts.jsonl"
        fi
        if [ ! -s "$out/sweep-$c-verdicts.jsonl" ]; then
            with_chunking "$c" nice -n 5 groundwatch eval --no-progress --input "$out/sweep.jsonl" --top-k 8 \
                --pair-top 4 --no-question-mode --resamples 100 --save-verdicts "$out/sweep-$c-verdicts.jsonl" \
                > "$out/sweep-$c.txt"
        fi
        with_chunking "$c" nice -n 5 groundwatch eval --input "$out/sweep.jsonl" \
            --from-verdicts "$out/sweep-$c-verdicts.jsonl" --half calibration --window-grid 2,4,6,8:0,2,3,4 \
            --resamples 100 --output "$out/sweep-$c-grid.json" > "$out/sweep-$c-grid.txt"
        [ -z "${FIGURES_DIR:-}" ] || cp "$out/sweep-$c-grid.json" "$FIGURES_DIR/windows-$c.json"
        echo "== $c"; sed -n '/evidence windows re-decided/,$p' "$out/sweep-$c-grid.txt"
    done
}

score_dev() {
    # Every record of the four dev sets scored once with the window CHUNKING, TOP_K, PAIR_TOP; saved verdicts are kept.
    convert
    local c=${CHUNKING:-s4o1} k=${TOP_K:-4} p=${PAIR_TOP:-3} tag=${CHUNKING:-s4o1}-k${TOP_K:-4}-p${PAIR_TOP:-3}
    for set in wice begin qags halueval; do
        [ -s "$out/$set-$tag-verdicts.jsonl" ] || with_chunking "$c" nice -n 5 groundwatch eval --no-progress \
            --input "$out/$set.jsonl" --top-k "$k" --pair-top "$p" --no-question-mode --resamples 100 \
            --save-verdicts "$out/$set-$tag-verdicts.jsonl" > "$out/$set-$tag.txt"
    done
    cat "$out"/{wice,begin,qags,halueval}.jsonl > "$out/dev.jsonl"
    cat "$out"/{wice,begin,qags,halueval}-"$tag"-verdicts.jsonl > "$out/dev-$tag-verdicts.jsonl"
}

report() {
    # The shipped thresholds (scorers/calibration.json) and combiner as they are, on the report half: what a
    # change of model arithmetic does to the dev sets, without refitting anything.
    score_dev
    local c=${CHUNKING:-s4o1} k=${TOP_K:-4} p=${PAIR_TOP:-3} tag=${CHUNKING:-s4o1}-k${TOP_K:-4}-p${PAIR_TOP:-3}
    local combiner
    combiner="$(python -c 'from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR as d; print(d)')/combiner.json"
    local shipped=(--config scorers/calibration.json --input "$out/dev.jsonl" --from-verdicts "$out/dev-$tag-verdicts.jsonl"
                   --top-k "$k" --pair-top "$p" --half report --combiner "$combiner" --resamples "$resamples")
    with_chunking "$c" nice -n 5 groundwatch eval "${shipped[@]}" --output "$out/report-shipped-$tag.json" \
        > "$out/report-shipped-$tag.txt"
    with_chunking "$c" nice -n 5 groundwatch eval "${shipped[@]}" --guards both --output "$out/guards-shipped-$tag.json" \
        > "$out/guards-shipped-$tag.txt"
    sed -n '/verdict rule: threshold vs combiner/,$p' "$out/report-shipped-$tag.txt"
    if [ -n "${FIGURES_DIR:-}" ]; then
        cp "$out/report-shipped-$tag.json" "$FIGURES_DIR/verdict-rule-report.json"
        cp "$out/guards-shipped-$tag.json" "$FIGURES_DIR/guards-dev-report.json"
    fi
}

final() {
    # Score every record once with the shipped window (the sentence premise is chosen among the
    # top_k chunks, so a smaller window re-decided from a larger one would only approximate it);
    # pick the threshold rule's thresholds and fit the combiner on the calibration half; report
    # both, and the guards off vs on, on the report half.
    score_dev
    local c=${CHUNKING:-s4o1} k=${TOP_K:-4} p=${PAIR_TOP:-3} tag=${CHUNKING:-s4o1}-k${TOP_K:-4}-p${PAIR_TOP:-3}
    local redecide=(--input "$out/dev.jsonl" --from-verdicts "$out/dev-$tag-verdicts.jsonl" --top-k "$k" --pair-top "$p")
    # Thresholds of the threshold rule: best pooled balanced accuracy on the calibration half. The choice rests
    # on the bootstrap standard error of that accuracy, so it gets the full resamples (100 move it by ~7%).
    with_chunking "$c" nice -n 5 groundwatch eval "${redecide[@]}" --half calibration --sweep \
        --calibrate balanced-accuracy --calibration-out "$out/calibration-$tag.json" --resamples "$resamples" \
        > "$out/calibrate-$tag.txt"
    # The combiner, fitted on the calibration half (forced by --fit-combiner) under those thresholds.
    with_chunking "$c" nice -n 5 groundwatch eval --config "$out/calibration-$tag.json" "${redecide[@]}" \
        --fit-combiner "$out/combiner-$tag.json" --resamples "$resamples" > "$out/fit-$tag.txt"
    with_chunking "$c" nice -n 5 groundwatch eval --config "$out/calibration-$tag.json" "${redecide[@]}" \
        --half report --combiner "$out/combiner-$tag.json" --resamples "$resamples" \
        --output "$out/report-$tag.json" > "$out/report-$tag.txt"
    with_chunking "$c" nice -n 5 groundwatch eval --config "$out/calibration-$tag.json" "${redecide[@]}" \
        --half report --combiner "$out/combiner-$tag.json" --guards both --resamples "$resamples" \
        --output "$out/guards-$tag.json" > "$out/guards-$tag.txt"
    sed -n '/verdict rule: threshold vs combiner/,$p' "$out/report-$tag.txt"
    if [ -n "${FIGURES_DIR:-}" ]; then
        cp "$out/report-$tag.json" "$FIGURES_DIR/verdict-rule-report.json"
        cp "$out/guards-$tag.json" "$FIGURES_DIR/guards-dev-report.json"
        cp "$out/calibration-$tag.json" scorers/calibration.json
        cp "$out/combiner-$tag.json" "$(python -c 'from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR as d; print(d)')/combiner.json"
    fi
}

"${1:-final}"
