"""recall@k and reciprocal rank, offline and for one stored verdict."""

from __future__ import annotations

import pytest

from groundwatch.scorers.evidence.recall import mean_recall_at_k, mrr, online_recall, recall_at_k, reciprocal_rank


def test_recall_at_k_counts_gold_within_the_cut():
    ranked = ["a", "b", "c", "d"]
    assert recall_at_k(ranked, ["c", "x"], 2) == 0.0
    assert recall_at_k(ranked, ["c", "x"], 3) == 0.5
    assert recall_at_k(ranked, ["a"], 10) == 1.0
    assert recall_at_k(ranked, [], 3) is None
    with pytest.raises(ValueError):
        recall_at_k(ranked, ["a"], 0)


def test_reciprocal_rank_and_mrr():
    assert reciprocal_rank(["a", "b", "c"], ["c", "b"]) == 0.5
    assert reciprocal_rank(["a", "b"], ["z"]) == 0.0
    pairs = [(["a", "b"], ["a"]), (["a", "b"], ["b"]), (["a"], ["z"]), (["a"], [])]
    assert mrr(pairs) == pytest.approx((1 + 0.5 + 0) / 3)
    assert mean_recall_at_k(pairs, 1) == pytest.approx(1 / 3)


def test_online_recall_uses_the_passage_order_as_the_ranking():
    record = {"gold_passage_ids": ["p3"], "passage_ids": ["p1", "p2", "p3"]}
    assert online_recall(record, ks=(2, 3)) == {2: 0.0, 3: 1.0}
    assert online_recall({"gold_passage_ids": None, "passage_ids": ["p1"]}) is None
    assert online_recall({"gold_passage_ids": ["p2"], "passages": [{"id": "p2"}]}, ks=(1,)) == {1: 1.0}


def test_online_recall_averages_over_a_window_of_responses_with_gold():
    from groundwatch.scorers.evidence.recall import ONLINE_KS, OnlineRecall

    assert ONLINE_KS == (1, 3, 5)  # what groundwatch_recall_at_k{source="online"} exports
    online = OnlineRecall(ks=(1, 3), window=2)
    assert online.add(["p1", "p2"], None) is None and online.add(["p1"], []) is None
    assert online.add(["p1", "p2", "p3"], ["p1", "p2"]) == {1: 0.5, 3: 1.0}
    assert online.add(["x", "p2"], ["p2"]) == {1: 0.25, 3: 1.0}
    assert online.add(["x", "y", "z"], ["p9"]) == {1: 0.0, 3: 0.5}  # the first response left the window
