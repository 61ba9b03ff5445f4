"""Pick thresholds on a calibration split and write them as a loadable settings file.

Targets: `balanced-accuracy` (maximise it) or `recall>=X` / `precision>=X` on
the unsupported class (meet the floor, then maximise the other one).

Balanced accuracy follows the one-standard-error rule: every row within one
bootstrap standard error of the best is as good as the best on this much data,
and among those the row that flags the fewest responses wins (then the higher
tau_c: fewer CONTRADICTED). A monitor that cries wolf is switched off, so when
the data cannot tell two settings apart, the quieter one is chosen. Remaining
ties go to the row closest to the shipped defaults, static mode first. The
shipped thresholds stay when they are within one standard error of that choice
and flag no more than it: new scores that move the best row by less than the
noise do not move the defaults (every move is a new scorer version).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from groundwatch.evaluation.metrics import bootstrap_draws
from groundwatch.evaluation.redecide.sweep import Row
from groundwatch.scorers.files import output_path
from groundwatch.scorers.verdicts.thresholds import MODES, Thresholds

_FLOOR = re.compile(r"^(recall|precision)\s*>=\s*([01](?:\.\d+)?)$")


@dataclass(frozen=True)
class Target:
    metric: str             # balanced_accuracy | recall | precision
    floor: float | None = None

    def __str__(self) -> str:
        return "balanced-accuracy" if self.floor is None else f"{self.metric}>={self.floor}"


def parse_target(text: str) -> Target:
    text = text.strip().lower()
    if text in ("balanced-accuracy", "balanced_accuracy"):
        return Target("balanced_accuracy")
    m = _FLOOR.match(text)
    if not m:
        raise ValueError(f"calibration target {text!r}: expected balanced-accuracy, recall>=X or precision>=X")
    return Target(m.group(1), float(m.group(2)))


def _closeness(row: Row, default: Thresholds) -> tuple:
    return (MODES.index(row.mode), abs(row.tau_entailment - default.tau_entailment),
            abs(row.tau_contradiction - default.tau_contradiction), abs(row.pivot - default.pivot))


def choose(rows: list[Row], target: Target, default: Thresholds, noise: float = 0.0) -> Row:
    """The best row for the target; raises ValueError when no row meets a floor.

    `noise`: the bootstrap standard error of the best balanced accuracy (`standard_error`)."""
    value = lambda r, m: -1.0 if getattr(r, m) is None else getattr(r, m)  # noqa: E731
    if target.floor is None:
        best = max(value(r, "balanced_accuracy") for r in rows)
        near = [r for r in rows if value(r, "balanced_accuracy") >= best - noise]
        chosen = min(near, key=lambda r: (r.flagged, -r.tau_contradiction, -value(r, "balanced_accuracy"),
                                          _closeness(r, default)))
        shipped = next((r for r in rows if r.thresholds == default), None)
        if (noise and shipped is not None and shipped.flagged <= chosen.flagged
                and value(shipped, "balanced_accuracy") >= value(chosen, "balanced_accuracy") - noise):
            return shipped
        return chosen
    other = "precision" if target.metric == "recall" else "recall"
    meeting = [r for r in rows if value(r, target.metric) >= target.floor]
    if not meeting:
        best = max(value(r, target.metric) for r in rows)
        raise ValueError(f"no thresholds reach {target}; the best {target.metric} on this split is {best:.3f}")
    return min(meeting, key=lambda r: (-value(r, other), -value(r, "balanced_accuracy"), _closeness(r, default)))


def standard_error(y_true, y_pred, resamples: int, seed: int = 0) -> float:
    """The bootstrap standard deviation of balanced accuracy over resamples of the responses."""
    draws = bootstrap_draws(y_true, y_pred, resamples=resamples, seed=seed)["balanced_accuracy"]
    return float(np.std(draws)) if len(draws) > 1 else 0.0


def settings_document(row: Row, target: Target, dataset: str, n: int, metrics: dict, noise: float = 0.0) -> dict:
    """`{"scorer": {...}}` for `groundwatch --config`; the `calibration` section is ignored when loading."""
    calibration = {"target": str(target), "dataset": dataset, "n": n, "metrics": metrics}
    if target.floor is None:
        calibration["rule"] = "one standard error, fewest flagged"
        calibration["standard_error"] = round(noise, 4)
    return {
        "scorer": {"tau_entailment": row.tau_entailment, "tau_contradiction": row.tau_contradiction,
                   "threshold_mode": row.mode, "threshold_pivot": row.pivot},
        "calibration": calibration,
    }


def write_settings(document: dict, path: str | Path) -> None:
    output_path(path).write_text(json.dumps(document, indent=2) + "\n")
