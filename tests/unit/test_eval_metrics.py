"""Metrics of `groundwatch eval`: confusion, balanced accuracy, AUROC, bootstrap, 3-way."""

import numpy as np
import pytest

from groundwatch.evaluation.metrics import auroc, binary_metrics, bootstrap, confusion, rankdata, rates, three_way


def test_confusion_counts_unsupported_as_positive():
    c = confusion([True, True, False, False, True], [True, False, True, False, True])
    assert (c.tp, c.fn, c.fp, c.tn) == (2, 1, 1, 1)


def test_balanced_accuracy_is_mean_of_recall_and_specificity():
    # 3 unsupported (2 caught), 5 supported (4 passed): (2/3 + 4/5) / 2
    y = [True] * 3 + [False] * 5
    p = [True, True, False] + [False] * 4 + [True]
    r = rates(confusion(y, p))
    assert r["recall"] == pytest.approx(2 / 3)
    assert r["specificity"] == pytest.approx(4 / 5)
    assert r["balanced_accuracy"] == pytest.approx((2 / 3 + 4 / 5) / 2)
    assert r["precision"] == pytest.approx(2 / 3)
    assert r["f1"] == pytest.approx(2 / 3)


def test_precision_is_undefined_without_positive_predictions():
    r = rates(confusion([True, False], [False, False]))
    assert r["precision"] is None and r["recall"] == 0.0 and r["balanced_accuracy"] == 0.5


def test_rankdata_averages_ties():
    assert rankdata(np.array([0.1, 0.5, 0.5, 0.9])).tolist() == [1.0, 2.5, 2.5, 4.0]


def test_auroc_known_values():
    y = [False, False, True, True]
    assert auroc(y, [0.1, 0.2, 0.8, 0.9]) == 1.0
    assert auroc(y, [0.9, 0.8, 0.2, 0.1]) == 0.0
    assert auroc(y, [0.5, 0.5, 0.5, 0.5]) == 0.5
    # positives 0.8, 0.3; negatives 0.5, 0.1: pairs won 0.8>0.5, 0.8>0.1, 0.3>0.1, lost 0.3<0.5 -> 3/4
    assert auroc([True, True, False, False], [0.8, 0.3, 0.5, 0.1]) == 0.75
    assert auroc([True, True], [0.2, 0.4]) is None


def test_auroc_matches_pairwise_definition_on_random_data():
    rng = np.random.default_rng(3)
    y = rng.random(200) < 0.4
    s = np.round(rng.random(200), 1)  # many ties
    pos, neg = s[y], s[~y]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    assert auroc(y, s) == pytest.approx(wins / (len(pos) * len(neg)))


def test_bootstrap_interval_contains_point_estimate_and_is_reproducible():
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.5
    s = rng.random(300) + 0.6 * y
    p = s > 0.8
    point = binary_metrics(y, p, s)
    first = bootstrap(y, p, s, resamples=1000, seed=7)
    assert first == bootstrap(y, p, s, resamples=1000, seed=7)
    for name, (lo, hi) in first.items():
        assert lo <= point[name] <= hi, name
        assert lo < hi


def test_three_way_matrix_rows_are_gold():
    labels = ("supported", "contradicted", "not_enough_info")
    t = three_way(["supported", "contradicted", "contradicted"], ["supported", "not_enough_info", "contradicted"],
                  labels)
    assert t["matrix"] == [[1, 0, 0], [0, 1, 1], [0, 0, 0]]
    assert t["accuracy"] == pytest.approx(2 / 3)
