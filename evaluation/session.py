"""One `groundwatch eval` run: score once, then report, compare, sweep and calibrate."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from config.scorer import ScorerConfig
from evaluation.calibrate import Target, choose, settings_document, write_settings
from evaluation.conditions import conditions_table, seed_conditions
from evaluation.dataset import Labelled
from evaluation.probe_report import probe_report, probe_table
from evaluation.report import evaluation_report, headline_table, strata_table, three_way_table
from evaluation.scored import Scored, Variant, load_scored, score_all
from evaluation.sweep import evaluate, grid, sweep, table
from scorers.thresholds import Thresholds


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


def _question_run(config: ScorerConfig, scorer, items: list[Labelled], options: Options) -> list[Scored]:
    from scorers.pipeline import Scorer

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
    variant = Variant(base, free_checks=config.free_checks)
    report = evaluation_report(scored, variant, options.resamples, options.seed)
    parts = [f"== {options.dataset}: thresholds {base.mode} tau_e {base.tau_entailment} "
             f"tau_c {base.tau_contradiction} ==", headline_table(report)]
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
        best = choose(rows, options.target, base)
        achieved = evaluation_report(scored, Variant(best.thresholds, free_checks=config.free_checks),
                                     options.resamples, options.seed)["headline"]
        metrics = {k: achieved[k] for k in ("balanced_accuracy", "recall", "precision", "f1", "auroc")}
        document = settings_document(best, options.target, options.dataset, report["n_scored"], metrics)
        write_settings(document, options.calibration_out)
        report["calibration"] = document
        parts.append(f"calibrated for {options.target} on {report['n_scored']} responses -> "
                     f"{options.calibration_out}\n" + table([evaluate(scored, best.thresholds,
                                                                      free_checks=config.free_checks)]))
    return report, "\n\n".join(parts)


def probe_section(config: ScorerConfig, scorer, probes: list[Labelled], options: Options) -> tuple[dict, str]:
    scored = score_all(scorer, probes, options.batch, options.progress)
    report = probe_report(scored, Variant(Thresholds.from_config(config)), checks_ran=config.free_checks,
                          pairs_ran=config.pair_top >= 2)
    return report, "== probes ==\n" + probe_table(report)
