"""One `groundwatch eval` run: score once, then report, compare, sweep and calibrate."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from groundwatch.config.scorer import ScorerConfig
from groundwatch.evaluation.redecide.calibrate import Target, choose, settings_document, standard_error, write_settings
from groundwatch.evaluation.redecide.combiner_fit import DEFAULT_FEATURES, describe, fit_combiner
from groundwatch.evaluation.redecide.conditions import conditions_table, seed_conditions
from groundwatch.evaluation.dataset import Labelled
from groundwatch.evaluation.probing.probe_report import probe_report, probe_table
from groundwatch.evaluation.report import evaluation_report, headline_table, strata_table, three_way_table
from groundwatch.evaluation.redecide.rules import rule_rows, rules_table
from groundwatch.evaluation.scored import Scored, Variant, load_scored, score_all
from groundwatch.evaluation.redecide.sweep import decisions, evaluate, grid, sweep, table
from groundwatch.evaluation.redecide.windows import window_rows, window_table
from groundwatch.scorers.verdicts.combiner import Combiner
from groundwatch.scorers.verdicts.thresholds import Thresholds


@dataclass
class Options:
    dataset: str = ""
    sweep: bool = False
    target: Target | None = None
    calibration_out: Path | None = None
    question_mode: bool = True
    save_verdicts: Path | None = None
    from_verdicts: Path | None = None
    resamples: int = 1000
    seed: int = 0
    batch: int = 32
    progress: bool = True
    combiner: Combiner | None = None   # compare (or, under verdict_rule combiner, decide) with it
    fit_combiner: Path | None = None   # fit a combiner on these responses and write it here
    model: str | None = None           # the NLI model of the scores (name@digest), for the combiner file
    top_k: int | None = None           # re-decide saved scores keeping the first top_k chunks
    pair_top: int | None = None        # ... and pairs of the first pair_top chunks
    window_grid: tuple[list[int], list[int]] | None = None  # top_k values x pair_top values to re-decide
    combiner_features: tuple[str, ...] = DEFAULT_FEATURES    # what --fit-combiner fits on
    guards: list[str] | None = None    # re-decide with guards off and/or on (evaluation/redecide/guard_variants.py)


def _question_run(config: ScorerConfig, scorer, items: list[Labelled], options: Options) -> list[Scored]:
    from groundwatch.scorers.pipeline import Scorer

    other = Scorer(config.model_copy(update={"evidence_mode": "question"}), scorer.backend, scorer.embedder)
    try:
        return score_all(other, items, options.batch, options.progress)
    finally:
        other.close()


def labelled_section(config: ScorerConfig, scorer, items: list[Labelled], options: Options) -> tuple[dict, str]:
    if options.from_verdicts:
        scored = load_scored(items, options.from_verdicts)
    else:
        scored = score_all(scorer, items, options.batch, options.progress, options.save_verdicts)
    base = Thresholds.from_config(config)
    decides = options.combiner if config.verdict_rule == "combiner" else None
    variant = Variant(base, free_checks=config.free_checks, combiner=decides, top_k=options.top_k,
                      pair_top=options.pair_top)
    report = evaluation_report(scored, variant, options.resamples, options.seed)
    rule = "combiner" if decides else f"thresholds {base.mode} tau_e {base.tau_entailment}"
    parts = [f"== {options.dataset}: {rule} tau_c {base.tau_contradiction} ==", headline_table(report)]
    if "three_way" in report:
        parts.append(three_way_table(report))
    parts.append(strata_table(report))
    question = None
    if options.question_mode and scorer is not None and config.evidence_mode == "claim":
        question = _question_run(config, scorer, items, options)
    report["conditions"] = seed_conditions(scored, base, question)
    parts.append("seed conditions\n" + conditions_table(report["conditions"]))
    if options.sweep:
        rows = sweep(scored, grid(base), free_checks=config.free_checks)
        report["sweep"] = [r.as_dict() for r in rows]
        parts.append("threshold sweep\n" + table(rows))
    if options.target:
        rows = sweep(scored, grid(base, fine=True), free_checks=config.free_checks)
        noise = 0.0
        if options.target.floor is None:
            top = choose(rows, options.target, base)
            noise = standard_error(*decisions(scored, top.thresholds, config.free_checks), options.resamples,
                                   options.seed)
        best = choose(rows, options.target, base, noise)
        achieved = evaluation_report(scored, Variant(best.thresholds, free_checks=config.free_checks),
                                     options.resamples, options.seed)["headline"]
        metrics = {k: achieved[k] for k in ("balanced_accuracy", "recall", "precision", "f1", "auroc")}
        document = settings_document(best, options.target, options.dataset, report["n_scored"], metrics, noise)
        write_settings(document, options.calibration_out)
        report["calibration"] = document
        parts.append(f"calibrated for {options.target} on {report['n_scored']} responses -> "
                     f"{options.calibration_out}\n" + table([evaluate(scored, best.thresholds,
                                                                      free_checks=config.free_checks)]))
    if options.window_grid:
        report["window_grid"] = window_rows(scored, base, *options.window_grid, free_checks=config.free_checks)
        parts.append("evidence windows re-decided (top_k x pair_top)\n" + window_table(report["window_grid"]))
    if options.fit_combiner:
        fitted = fit_combiner(scored, replace(variant, combiner=None), options.model or "unknown",
                              {"input": Path(options.dataset).name, "half": "calibration",
                               "settings": _window_settings(config)}, features=options.combiner_features)
        fitted.save(options.fit_combiner)
        report["combiner_fit"] = fitted.to_dict()
        parts.append(f"combiner fitted -> {options.fit_combiner}\n" + describe(fitted))
    if options.guards:
        from groundwatch.evaluation.redecide.guard_variants import drop_check, guard_rows, guards_table

        report["guards"] = guard_rows(scored, variant, options.guards, options.resamples, options.seed)
        report["guards_check"] = drop_check(report["guards"])
        parts.append("guards re-decided (off vs on) from the same scores\n" + guards_table(report["guards"]))
    if options.combiner is not None:
        report["verdict_rules"] = rule_rows(scored, variant, options.combiner, options.resamples, options.seed)
        parts.append("verdict rule: threshold vs combiner\n" + rules_table(report["verdict_rules"]))
    return report, "\n\n".join(parts)


def _window_settings(config: ScorerConfig) -> dict:
    """The evidence settings the features were computed under (a combiner fits them)."""
    keys = ("chunk_sentences", "chunk_overlap", "chunk_words", "top_k", "pair_top", "rrf_k", "use_embeddings",
            "max_length",
            "evidence_mode", "free_checks")
    return {k: getattr(config, k) for k in keys if hasattr(config, k)}


def probe_section(config: ScorerConfig, scorer, probes: list[Labelled], options: Options) -> tuple[dict, str]:
    scored = score_all(scorer, probes, options.batch, options.progress)
    report = probe_report(scored, Variant(Thresholds.from_config(config)), checks_ran=config.free_checks,
                          pairs_ran=config.pair_top >= 2)
    return report, "== probes ==\n" + probe_table(report)
