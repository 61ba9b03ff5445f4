"""Calibration: targets, the choice of thresholds, and a settings file `groundwatch --config` loads."""

import json

import pytest

from groundwatch.config.settings import load_settings
from groundwatch.evaluation.redecide.calibrate import Target, choose, parse_target, standard_error
from groundwatch.evaluation.redecide.sweep import Row
from groundwatch.cli import main
from groundwatch.scorers.verdicts.thresholds import Thresholds

RECORDS = [
    {"request_id": f"r{i}", "answer": answer, "label": label, "passages": [{"id": "p1", "text": passage}]}
    for i, (answer, passage, label) in enumerate([
        ("Refunds are available within 30 days.", "Refunds are available within 30 days of purchase.", "supported"),
        ("Refunds are available within 90 days.", "Refunds are available within 30 days of purchase.", "unsupported"),
        ("The office is open on Sundays.", "The office is closed on Sundays.", "unsupported"),
        ("The office is closed on Sundays.", "The office is closed on Sundays and holidays.", "supported"),
        ("The bridge opened in 1932.", "The bridge opened in 1932 and has eight lanes.", "supported"),
        ("The bridge has ten lanes.", "The bridge opened in 1932 and has eight lanes.", "unsupported"),
    ])
]


def row(mode="static", tau_e=0.75, tau_c=0.7, bal=0.5, recall=0.5, precision=0.5, flagged=0.5):
    return Row(mode, tau_e, tau_c, 0.5, bal, recall, precision, None, flagged)


def test_parse_target():
    assert parse_target("balanced-accuracy") == Target("balanced_accuracy")
    assert parse_target("recall>=0.9") == Target("recall", 0.9)
    assert parse_target("precision >= 0.8") == Target("precision", 0.8)
    with pytest.raises(ValueError):
        parse_target("accuracy")


def test_choose_meets_the_floor_then_maximises_the_other_metric():
    rows = [row(tau_e=0.5, recall=0.95, precision=0.4), row(tau_e=0.6, recall=0.92, precision=0.6),
            row(tau_e=0.9, recall=0.80, precision=0.9)]
    assert choose(rows, Target("recall", 0.9), Thresholds()).tau_entailment == 0.6
    with pytest.raises(ValueError, match="no thresholds reach"):
        choose(rows, Target("recall", 0.99), Thresholds())


def test_ties_go_to_static_and_the_default_thresholds():
    rows = [row("sqrt", 0.75, bal=0.8), row("static", 0.6, bal=0.8), row("static", 0.7, bal=0.8)]
    best = choose(rows, Target("balanced_accuracy"), Thresholds())
    assert (best.mode, best.tau_entailment) == ("static", 0.7)


def test_within_one_standard_error_the_quietest_row_wins():
    rows = [row(tau_e=0.8, bal=0.770, flagged=0.48), row(tau_e=0.7, tau_c=0.5, bal=0.762, flagged=0.44),
            row(tau_e=0.7, tau_c=0.9, bal=0.761, flagged=0.44), row(tau_e=0.6, bal=0.749, flagged=0.40)]
    assert choose(rows, Target("balanced_accuracy"), Thresholds()).tau_entailment == 0.8  # no noise: the best
    quiet = choose(rows, Target("balanced_accuracy"), Thresholds(), noise=0.011)
    assert (quiet.tau_entailment, quiet.tau_contradiction) == (0.7, 0.9)  # 0.749 is beyond one error


def test_standard_error_shrinks_with_more_responses():
    small = standard_error([True, False] * 50, [True, True, False, False] * 25, resamples=200)
    large = standard_error([True, False] * 2000, [True, True, False, False] * 1000, resamples=200)
    assert 0.03 < small < 0.07          # sqrt(0.25 / 50) per class, halved, summed in quadrature: 0.05
    assert large < small / 5


def test_calibrate_writes_a_config_that_groundwatch_loads(tiny_onnx, tmp_path):
    labelled = tmp_path / "labelled.jsonl"
    labelled.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    settings_path, report_path = tmp_path / "calibrated.json", tmp_path / "report.json"
    code = main(["eval", "--input", str(labelled), "--model", str(tiny_onnx), "--calibrate", "balanced-accuracy",
                 "--calibration-out", str(settings_path), "--output", str(report_path), "--no-question-mode",
                 "--resamples", "50"])
    assert code == 0
    document = json.loads(settings_path.read_text())
    settings = load_settings(settings_path)
    assert settings.scorer.tau_entailment == document["scorer"]["tau_entailment"]
    assert settings.scorer.threshold_mode == document["scorer"]["threshold_mode"]
    assert settings.scorer.threshold_pivot == document["scorer"]["threshold_pivot"]
    assert document["calibration"]["n"] == len(RECORDS)
    assert document["calibration"]["rule"] == "one standard error, fewest flagged"
    assert document["calibration"]["dataset"] == str(labelled)
    report = json.loads(report_path.read_text())["labelled"]
    # The chosen thresholds are within one standard error of the defaults or better on the calibration data.
    default = report["headline"]["balanced_accuracy"]
    error = document["calibration"]["standard_error"]
    assert document["calibration"]["metrics"]["balanced_accuracy"] >= default - error


def test_the_shipped_thresholds_stay_when_the_choice_is_within_noise_of_them():
    shipped = Thresholds(0.7, 0.95, "tiered", pivot=0.5)
    rows = [row("static", 0.8, 0.95, bal=0.781, flagged=0.46), row("tiered", 0.7, 0.7, bal=0.7714, flagged=0.410),
            Row("tiered", 0.7, 0.95, 0.5, 0.7704, 0.5, 0.5, None, 0.404)]
    assert choose(rows, Target("balanced_accuracy"), shipped, noise=0.0101).thresholds == shipped
    # a louder shipped row, or one further than the noise from the choice, gives way
    louder = rows[:2] + [Row("tiered", 0.7, 0.95, 0.5, 0.7704, 0.5, 0.5, None, 0.43)]
    assert choose(louder, Target("balanced_accuracy"), shipped, noise=0.0101).tau_contradiction == 0.7
    worse = rows[:2] + [Row("tiered", 0.7, 0.95, 0.5, 0.760, 0.5, 0.5, None, 0.40)]
    assert choose(worse, Target("balanced_accuracy"), shipped, noise=0.0101).tau_contradiction == 0.7
