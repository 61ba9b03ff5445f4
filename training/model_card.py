"""Write MODEL_CARD.md for the shipped model from the recorded measurements.

    python -m groundwatch.training.model_card            # the card from the committed report files
    python -m groundwatch.training.model_card --check    # exit 1 when MODEL_CARD.md differs from them
    python -m groundwatch.training.model_card --rerun    # re-measure everything in it first (hours on 2 cores)

Reads the training manifest and parity report shipped beside the model and
report files committed under docs/figures/: the pair-level evaluation
(nli-eval.json from training.evaluate_nli), the inference options measured side
by side (nli-options.json from `groundwatch bench`, nli-dev-*.json from
`groundwatch eval`) and the threshold rule against the verdict combiner on the
report half (verdict-rule-report.json from infra/measure_verdict_rule.sh), so
every number in the card comes from a command, and `commands()` lists them all.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
from groundwatch.training.ship import SHIPPED_PRECISION

FIGURES = Path(__file__).resolve().parents[1] / "docs" / "figures"
OPTIONS_COMMAND = ("groundwatch bench --paths nli_options,tokenize_once --threads 1 --repeats 5 --no-progress "
                   "--json docs/figures/nli-options.json")
# Seeded groundedness-dev samples (groundwatch convert --limit n); the nli-dev-options figure of the README.
DEV_SETS = {"wice": 200, "begin": 400, "halueval": 400, "qags": 400}
DEV_OPTIONS = {"fp32": "build/nli/fp32", SHIPPED_PRECISION: str(DEFAULT_MODEL_DIR.relative_to(FIGURES.parents[1]))}


def dev_command(option: str, name: str) -> str:
    export = (f"python -m groundwatch.training.ship --from-compact --precision {option} --output {DEV_OPTIONS[option]} && "
              if option != SHIPPED_PRECISION else "")
    return (f"{export}groundwatch convert --set {name} --limit {DEV_SETS[name]} --output build/dev-nli/{name}.jsonl "
            f"--no-progress && groundwatch eval --input build/dev-nli/{name}.jsonl --model {DEV_OPTIONS[option]} "
            f"--no-question-mode --no-progress --output docs/figures/nli-dev-{option}-{name}.json")


NLI_EVAL_COMMAND = "python -m groundwatch.training.evaluate_nli --limit 1000 --output docs/figures/nli-eval.json"
# Scores the four dev sets and reports both verdict rules on the report half at the shipped thresholds and
# combiner (`final` fits them on the calibration half and ships the combiner beside the model).
VERDICT_RULE_COMMAND = "FIGURES_DIR=docs/figures infra/measure_verdict_rule.sh report"
# Issue 12's targets on the report half: balanced accuracy, with recall on unsupported claims >= 0.75.
# Where verdict-rule-report.json's scores and decisions come from: update with a new run of the command.
VERDICT_RULE_MEASURED = ("Scored at top_k 4 / pair_top 3; thresholds calibrated and combiner fitted at commit "
                         "24c2229 with int8 compute `blocks` (`infra/measure_verdict_rule.sh final`); the report "
                         "halves scored again with the default compute (`rows`) and decided at those thresholds "
                         "and that combiner")
TARGETS = {"set:wice": 0.70, "set:begin": 0.76, "set:qags": 0.66, "set:halueval": 0.82, "pooled": 0.76}


# The bases a model here is trained from: licence (the base's own, credited in NOTICE) and size.
BASE_FACTS = {
    "all-MiniLM-L6-v2": "Apache-2.0, 22.7M parameters; 6 layers, 384 hidden, 512 positions",
    "all-mpnet-base-v2": "Apache-2.0 (sentence-transformers; credited in NOTICE), 109.5M parameters; 12 layers, "
                         "768 hidden, 514 positions",
}


def base_facts(base: str) -> str:
    """Licence and size of the base a manifest names."""
    return next((facts for name, facts in BASE_FACTS.items() if name in base), "licence: see the base's own card")


def commands() -> list[str]:
    """Every command behind the card's figures, in the order `--rerun` runs them."""
    return [NLI_EVAL_COMMAND, OPTIONS_COMMAND, *(dev_command(o, n) for o in DEV_OPTIONS for n in DEV_SETS),
            VERDICT_RULE_COMMAND]

LICENCES = {
    "vitaminc_real": "CC BY-SA 3.0", "vitaminc_synthetic": "CC BY-SA 3.0",
    "esnli_snli": "SNLI CC BY-SA 4.0, e-SNLI MIT", "cad_snli": "Apache-2.0 (SNLI text CC BY-SA 4.0)",
    "taxinli": "C-UDA 1.0 (MNLI text)", "breaking_nli": "CC BY-SA 4.0", "climate_fever": "none stated",
    "healthver": "none stated", "med": "CC BY-SA 4.0", "rte": "GLUE/RTE research-use terms",
    "covidfact": "none stated", "rte_fever": "none stated (FEVER text: CC BY-SA 3.0)",
    "rte_scifact": "none stated", "fever_symmetric": "CC BY-SA 3.0", "fever_adv": "CC BY-SA 3.0 (Wikipedia terms)",
    "fm2": "Apache-2.0 (Wikipedia text)",
}
RECIPES = {
    "synthetic_negation": "negation flip of an entailed hypothesis or a premise sentence → contradiction",
    "synthetic_number": "one number, month or unit changed (years ±1–10, values ×0.25–10, days→weeks …) → contradiction",
    "synthetic_condition": "condition/qualifier dropped (if, unless, subject to, with approval, for Enterprise customers …) → neutral; policy-style templates with a conditional window beside a standard one",
    "synthetic_swap": "two named entities swapped → not-entailment (partial label: only p(entailment) is pushed down)",
    "synthetic_padding": "premise buried among 1–3 unrelated premises, label kept (RAG chunks look like this)",
    "synthetic_split": "conjunction of two hypotheses: both premises → entailment; one premise → neutral",
    "synthetic_copy": "a premise sentence verbatim → entailment (so edits, not copying, carry the signal)",
    "counter_antonym": "an adjective rewritten as its negated antonym ('is open' → 'is not closed') → entailment; "
                       "the bare antonym and the negated adjective → contradiction (training/counter_shortcuts.py)",
    "counter_quantity": "the same amount in another unit or in words → entailment; a wrong conversion → contradiction; "
                        "bounds the amount meets → entailment, bounds it misses → contradiction",
    "counter_conjunction": "'X and Y are' → 'both X and Y are' (entailment), 'only X is' (contradiction)",
    "counter_computed": "templates: parts and their total, a change and its percentage, a time range and its "
                        "duration, 12- and 24-hour clock times → entailment, each beside a wrong value → contradiction",
    "counter_copy": "a sentence of a labelled premise, word for word, → entailment (one with a negation or a number "
                    "where the premise has one; a one-sentence premise set among 1–3 others); with --copy-details, "
                    "the copy with one detail from another premise added → not-entailment; with --copies-alone, "
                    "that share of the copies against the sentence alone, as the scorer's sentence premise",
    "counter_synonym": "a sentence of a labelled premise with one or two words swapped for a WordNet synonym (the "
                       "first sense of both words) → entailment",
}
COUNTER_LEXICON = ("The antonym and synonym pairs of the counter-shortcut recipes are WordNet 3.0's adjective "
                   "antonyms and first-sense synonyms "
                   "(Princeton University, the BSD-style WordNet 3.0 licence, kept in `training/lexicon/WORDNET_LICENSE`), "
                   "extracted from Debian's `wordnet-base` by `training/wordnet_lexicon.py`. None of them, and none "
                   "of the unit or number-word pairs, is a pair of the hand-written control set (a test checks it).")


def _stages(hp: dict) -> str:
    """What the training stages were, the last one's command following."""
    if hp.get("copies"):
        return ("three stages, exact commands in `training/README.md` (stage 1: epoch 1 of the full mix; stage 2: from "
                "the stage-1 checkpoint, adds 10,000 unrelated→neutral pairs and caps SNLI-derived sets; stage 3: six "
                "runs of at most an hour, each from the one before, starting from stage 2: counter-shortcut pairs so a "
                "negation, an antonym or a rewritten number appears under every label, on pairs in the scorer's "
                "polarity form; premise sentences copied word for word as entailment, and copies with a detail of "
                "another premise as not-entailment; negated claims in natural wording; the last run, below, scores "
                "half of the copies against their sentence alone, as the scorer's sentence premise does). Last run:")
    if hp.get("counter_shortcuts"):
        return ("three stages, exact commands in `training/README.md` (stage 1: epoch 1 of the full mix; stage 2: from "
                "the stage-1 checkpoint, adds 10,000 unrelated→neutral pairs and caps SNLI-derived sets; stage 3, below: "
                "from stage 2's compact copy, adds counter-shortcut pairs so a negation, an antonym or a rewritten "
                "number appears under every label). Stage 3:")
    return ("two stages, exact commands in `training/README.md` (stage 1: epoch 1 of the full mix; stage 2 below, from "
            "the stage-1 checkpoint, adds 10,000 unrelated→neutral pairs and caps SNLI-derived sets). Stage 2:")


LIMITATIONS = """## Known limitations

- Misses the dropped-condition refund example in `examples/` (ex-003: "Refunds are available for up to 60
  days" scores entailment 0.96 against a 30-day policy with a 60-day Enterprise extension; the
  dropped-condition check caps it). Deploy a DeBERTa-v3 NLI checkpoint through `groundwatch export-model`
  where these matter.
- Trained to read a passage's own sentence as entailed, it also entails that sentence with two names
  swapped ("Leeds beat Hull" for "Hull beat Leeds").
- Paraphrases across vocabulary ("within 30 days" → "you have 30 days") often score neutral, so
  NOT_ENOUGH_INFO is over-reported relative to a large model.
- Some training sources state no licence (table above).
"""


FORMATS = {
    "int8-weights": "int8 weights with one scale per output channel behind DequantizeLinear; ONNX Runtime runs "
                    "the matrix products as 8-bit MatMulNBits, activations quantised per row and block of 32 "
                    "(row-local: a pair scores the same alone or in any batch)",
    "int8-static": "static int8 (QDQ, per-channel weights, activation ranges calibrated on training pairs)",
    "int8": "dynamic int8 quantisation (per-channel weights; activation scales per batch, so scores depend on "
            "the batch)",
    "fp32": "fp32",
}


def _table(rows: list[tuple], head: tuple) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def options_section(options_file: Path, figures: Path = FIGURES) -> list[str]:
    """The inference options table (bench) and the groundedness-dev check, with their commands."""
    if not options_file.exists():
        return []
    bench = json.loads(options_file.read_text())
    o = bench["paths"]["nli_options"]
    rows = [(name, p["precision"], p["size_mb"] if p["size_mb"] is not None else "-", f"{p['pairs_per_s']:.1f}",
             f"{p['argmax_agreement']:.4f}", f"{p['max_abs_prob_diff']:.1e}", f"{p['batch_invariance_max_dp']:.1e}",
             "yes" if p["deterministic"] else "**no**") for name, p in o["options"].items()]
    cpu = bench["machine"]["cpu"]
    parts = ["## Inference options (deterministic inference)", "",
             "The same weights (the compact PyTorch copy, dequantised: the fp32 reference) run every way the CPU offers. "
             f"pairs/s: {o['pairs']} pairs of `examples/`, one thread, options interleaved, median of {o['repeats']}; "
             f"agreement with ONNX fp32 on {o['validation_pairs']} held-out validation pairs (premise-hash split of "
             "the training data, never calibrated on); batch invariance: a pair alone vs inside batches of other "
             "pairs (other padding), largest |Δp|; deterministic means at most 1e-5.", "",
             _table(rows, ("option", "precision", "MB", "pairs/s", "argmax agreement vs fp32", "max \\|Δp\\| vs fp32",
                           "batch-invariance max \\|Δp\\|", "deterministic")), "",
             f"Machine: {cpu['model']}, {cpu['usable_cores']} cores, {', '.join(cpu['flags'])}. "
             f"Command: `{OPTIONS_COMMAND}`."]
    dev = {(opt, name): figures / f"nli-dev-{opt}-{name}.json" for opt in DEV_OPTIONS for name in DEV_SETS}
    if all(path.exists() for path in dev.values()):
        others = [opt for opt in DEV_OPTIONS if opt != "fp32"]
        rows = []
        for name in DEV_SETS:
            acc = {opt: _balanced_accuracy(json.loads(dev[(opt, name)].read_text())) for opt in DEV_OPTIONS}
            ref = acc["fp32"][0]
            rows.append((name, acc["fp32"][1], f"{ref:.3f}",
                         *(f"{acc[o][0]:.3f} ({acc[o][0] - ref:+.3f}{'' if abs(acc[o][0] - ref) <= 0.01 else ', **out**'})"
                           for o in others)))
        parts += ["", "Balanced accuracy through the whole pipeline (default settings) on seeded groundedness-dev "
                      "samples; in brackets the difference from fp32, **out** where it is more than 0.01:", "",
                  _table(rows, ("set", "n", "fp32", *(f"{o} (shipped)" if o == SHIPPED_PRECISION else o
                                                      for o in others))), "",
                  "Commands, per set and option:", ""]
        parts += [f"- `{dev_command(opt, name)}`" for opt in DEV_OPTIONS for name in DEV_SETS]
    return parts


def _balanced_accuracy(report: dict) -> tuple[float, int]:
    headline = report["labelled"]["headline"]
    return headline["balanced_accuracy"], headline["n"]


def _ci(row: dict, metric: str) -> str:
    low, high = row["interval_95"][metric]
    return f"{row[metric]:.3f} [{low:.3f}, {high:.3f}]"


def verdict_rule_section(report_file: Path) -> list[str]:
    """The threshold rule and the combiner side by side on the report half (groundwatch eval --output)."""
    if not report_file.exists():
        return []
    report = json.loads(report_file.read_text())
    by: dict[str, dict] = {}
    for row in report["labelled"]["verdict_rules"]:
        by.setdefault(row["group"], {})[row["rule"]] = row
    rows = []
    for group, rules in by.items():
        t, c = rules["threshold"], rules["combiner"]
        target = TARGETS.get(group)
        met = "-" if target is None else " / ".join(
            "met" if r["balanced_accuracy"] >= target and r["recall"] >= 0.75 else "**missed**" for r in (t, c))
        rows.append((group.removeprefix("set:"), f"{t['n']} ({t['unsupported']})", _ci(t, "balanced_accuracy"),
                     _ci(c, "balanced_accuracy"), _ci(t, "recall"), _ci(c, "recall"),
                     f"{t['auroc']:.3f} / {c['auroc']:.3f}", "-" if target is None else f"≥ {target:.2f}", met))
    s = report["scorer"]
    better = [g.removeprefix("set:") for g, r in by.items()
              if r["combiner"]["balanced_accuracy"] > r["threshold"]["balanced_accuracy"]]
    worse = [g.removeprefix("set:") for g in by if g.removeprefix("set:") not in better]
    return ["## Through the pipeline: threshold rule and verdict combiner", "",
            "The four groundedness-dev sets (HaluEval: its first 1,000 answers) scored once with the default "
            "settings; both rules' verdicts decided from the same saved scores. The "
            "combiner (`combiner.json` beside this model, used when `scorer.verdict_rule` is `combiner`) was "
            "fitted (and any threshold chosen) on the calibration half; the figures are the other half, with 95% "
            "bootstrap intervals. \"met\" needs the balanced accuracy target and recall on unsupported claims "
            "≥ 0.75. WiCE's report half is small (about ±0.07).", "",
            _table(rows, ("set (report half)", "n (unsup.)", "threshold rule: bal. acc. [95%]",
                          "combiner: bal. acc. [95%]", "threshold: recall (unsup.)", "combiner: recall (unsup.)",
                          "AUROC threshold / combiner", "target", "threshold / combiner")), "",
            f"Model `{report['model']}`; threshold rule {s['threshold_mode']} τe {s['tau_entailment']}, "
            f"τc {s['tau_contradiction']}; evidence windows {s['chunk_sentences']} sentences, overlap "
            f"{s['chunk_overlap']}, top_k {s['top_k']}, pair_top {s['pair_top']}. The combiner beats the threshold "
            f"rule on {', '.join(better) or 'no set'}"
            + (f", not on {', '.join(worse)}: the default stays the threshold rule (the combiner "
               "becomes the default only if it beats the threshold rule on every set)." if worse else ".")
            + f" {VERDICT_RULE_MEASURED}. Command (scores, decides, writes "
              f"`{report_file.name}`): `{VERDICT_RULE_COMMAND}`."]


def render(model: Path = DEFAULT_MODEL_DIR, options: Path = FIGURES / "nli-options.json",
           nli_eval: Path = FIGURES / "nli-eval.json",
           verdict_rule: Path = FIGURES / "verdict-rule-report.json") -> str:
    """MODEL_CARD.md's text from the files beside the model and the report files."""
    manifest = json.loads((model / "training_manifest.json").read_text())
    parity = json.loads((model / "parity.json").read_text())
    nli = json.loads(nli_eval.read_text())["results"] if nli_eval.exists() else {}
    hp = manifest["hyper_parameters"]
    mix = manifest["train_mix"]
    marker = model / "precision.txt"
    precision = marker.read_text().strip() if marker.exists() else "fp32"
    export = json.loads((model / "export.json").read_text()) if (model / "export.json").exists() else {}
    ship_command = ("python -m groundwatch.training.ship --from-compact" if "torch-checkpoints" in export.get("source", "")
                    else "python -m groundwatch.training.ship")  # re-exported from the compact copy's weights
    parts = [
        f"# groundwatch default NLI cross-encoder ({model.name})",
        "",
        "Three-way NLI (entailment / neutral / contradiction; order in `config.json` `id2label`) "
        "cross-encoder that groundwatch loads when no model is configured. Runs on a laptop CPU; production "
        "deployments export their own DeBERTa-v3 checkpoint with `groundwatch export-model`.",
        "",
        f"- **Base:** {manifest['base']}, {base_facts(manifest['base'])}.",
        f"- **Format:** ONNX opset 17, {FORMATS.get(precision, precision)}; "
        f"{parity['model_mb']} MB. Parity with the PyTorch fp32 checkpoint on {parity['pairs']} pairs: "
        f"max |Δp| = {parity['max_abs_prob_diff']}, argmax agreement = {parity['argmax_agreement']}.",
        f"- **Training:** {_stages(hp)} `python -m groundwatch.training.train` ({manifest['device']}, "
        f"{manifest.get('precision', 'bf16 autocast')}, torch {manifest['torch']}, "
        f"{manifest['train_seconds'] // 60} min, {manifest['steps']} steps"
        f"{', stopped at the time budget' if manifest.get('stopped_early') else ''}); "
        f"export: `{ship_command}`; this card: `python -m groundwatch.training.model_card` (`--rerun` first re-measures every "
        "figure in it with the commands named beside each).",
        "",
        "## Hyper-parameters",
        "",
        _table([(k, v) for k, v in hp.items() if k not in ("data", "output")], ("parameter", "value")),
        "",
        "Loss: cross-entropy; for two-way 'not entailment' labels (RTE, MED, RTE-FEVER, RTE-SciFact, swaps) "
        "−log(1 − p(entailment)). Length-bucketed batches, AdamW, linear warm-up/decay.",
        "",
        "## Data mix (training pairs after caps; 5% of every set held out by premise hash)",
        "",
        _table([(k, n, LICENCES.get(k, RECIPES.get(k, ""))) for k, n in mix.items()],
               ("source", "pairs", "licence / recipe")),
        "",
        "Never trained on `nli-eval-noncommercial/` (licences forbid a shipped model) nor on "
        "`groundedness-dev/` (tuning and evaluation only). Breaking NLI and MED (template-like) are capped at "
        "2,000 pairs; VitaminC real at 26,000. Some sources state no licence (see table): review before "
        "redistributing the weights commercially.",
        "",
        "## Synthetic hard cases (training/synthetic.py, from training premises only)",
        "",
        "\n".join(f"- **{k}** ({mix[k]} pairs): {v}" for k, v in RECIPES.items() if mix.get(k)),
        *(["", COUNTER_LEXICON] if any(k.startswith("counter_") for k in mix) else []),
        "",
        "## Accuracy",
        "",
        f"Pair level, `{NLI_EVAL_COMMAND}` (argmax of the three classes; for two-way sets, "
        "'not entailment' counts as right when the argmax is not entailment):",
        "",
        _table([(f"validation/{k}", v["n"], v["accuracy"]) for k, v in manifest.get("validation", {}).items()]
               + [(k, v["n"], v["accuracy"]) for k, v in nli.items()], ("set", "n", "accuracy")),
        "",
        "Validation rows are the held-out 5% of each training source (and of each synthetic recipe, built from "
        "held-out premises) after stage 2; the others are evaluation-only sets, first 1,000 pairs each. "
        "ANLI is adversarial for much larger models: a 22M-parameter cross-encoder is near chance there.",
    ]
    parts += [""] + verdict_rule_section(verdict_rule)
    parts += [""] + options_section(options)
    parts += ["", LIMITATIONS]
    return "\n".join(parts) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL_DIR)
    ap.add_argument("--options", type=Path, default=FIGURES / "nli-options.json")
    ap.add_argument("--nli-eval", type=Path, default=FIGURES / "nli-eval.json")
    ap.add_argument("--verdict-rule", type=Path, default=FIGURES / "verdict-rule-report.json")
    ap.add_argument("--check", action="store_true", help="exit 1 when MODEL_CARD.md differs from what the files give")
    ap.add_argument("--rerun", action="store_true", help="run every measuring command first (see commands())")
    args = ap.parse_args(argv)
    if args.rerun:
        # `groundwatch` and `python` resolve to this interpreter's environment, activated or not.
        env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
        for command in commands():
            print(f"model card: {command}", file=sys.stderr)
            subprocess.run(command, shell=True, cwd=FIGURES.parents[1], check=True, env=env)
    card = args.model / "MODEL_CARD.md"
    text = render(args.model, args.options, args.nli_eval, args.verdict_rule)
    if args.check:
        if card.exists() and card.read_text() == text:
            return 0
        print(f"{card} differs from its sources: run python -m groundwatch.training.model_card", file=sys.stderr)
        return 1
    card.write_text(text)
    print(f"wrote {card}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
