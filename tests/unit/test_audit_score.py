"""The consistency score: arithmetic, per-document caps, decomposition and weights."""

import pytest

from groundwatch.audit.score import Charge, consistency, parse_weights

DOCS = [f"d{i}" for i in range(10)]


def test_no_problems_scores_one():
    s = consistency(DOCS, [])
    assert s.score == 1.0 and s.parts == {"intra": 1.0, "inter": 1.0} and s.lowered_by == []


def test_parts_are_one_minus_mean_penalty():
    s = consistency(DOCS, [Charge("empty", "d0", 1.0), Charge("conflict", "d1", 0.5), Charge("conflict", "d2", 0.5)])
    assert s.parts == {"intra": 0.9, "inter": 0.9}
    assert s.score == pytest.approx(0.9)


def test_a_document_loses_at_most_one():
    s = consistency(DOCS, [Charge("empty", "d0", 1.0), Charge("truncated", "d0", 0.5)])
    assert s.parts["intra"] == pytest.approx(0.9)
    lost = {i["reason"]: i["lost"] for i in s.lowered_by}
    assert lost == pytest.approx({"empty": 0.1 / 1.5, "truncated": 0.05 / 1.5}, abs=1e-4)


def test_weights_shift_the_score_and_the_blame():
    charges = [Charge("empty", "d0", 1.0)]
    intra_heavy = consistency(DOCS, charges, parse_weights("intra=3,inter=1"))
    inter_only = consistency(DOCS, charges, parse_weights("inter=1"))
    assert intra_heavy.score == pytest.approx(1 - 0.75 * 0.1)
    assert inter_only.score == 1.0 and inter_only.lowered_by[0]["lost_score"] == 0.0


@pytest.mark.parametrize("text, message", [("intra=0.5,outer=0.5", "expected intra"), ("intra=x", "not a number"),
                                           ("intra=-1,inter=1", "negative"), ("intra=0,inter=0", "positive")])
def test_bad_weights_are_named(text, message):
    with pytest.raises(ValueError, match=message):
        parse_weights(text)


def test_default_weights_are_equal():
    assert parse_weights(None) == parse_weights("intra=1,inter=1") == {"intra": 0.5, "inter": 0.5}
