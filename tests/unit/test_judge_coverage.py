"""The risk-coverage table that sizes a judge: deferred shares, accuracy on the sure responses, band choice."""

from __future__ import annotations

import json

from groundwatch.evaluation.judge_coverage import Response, choose, measure, responses
from groundwatch.scorers.guards.mismatch import RECORD_KEY
from groundwatch.scorers.verdicts.thresholds import Thresholds


def _r(unsupported: bool, predicted: bool, *supports: float, half: str = "calibration") -> Response:
    return Response("s", half, unsupported, predicted, supports, len(supports))


ROWS = [
    _r(False, False, 0.9),        # sure and right
    _r(True, True, 0.1),          # sure and right
    _r(True, False, 0.7),         # wrong, near the threshold
    _r(False, True, 0.55, 0.95),  # wrong, one claim near the threshold
]


def test_measure_counts_deferred_claims_and_responses_and_scores_only_the_sure_ones():
    none = measure(ROWS, 0, 0)
    assert none["claims_deferred"] == 0 and none["sure"] == 4 and none["balanced_accuracy"] == 0.5
    band = measure(ROWS, 0.5, 0.8)
    assert band["claims_deferred"] == 0.4     # 2 of 5 claims
    assert band["responses_deferred"] == 0.5  # 2 of 4 responses
    assert band["sure"] == 2 and band["balanced_accuracy"] == 1.0


def test_choose_keeps_within_the_target_and_around_the_threshold():
    assert choose(ROWS, 0.4, 0.625) == (0.55, 0.75)    # the narrowest band around 0.625 holding 0.55 and 0.7
    lower, upper = choose(ROWS, 0.2, 0.625)             # one claim at most: only 0.55 or 0.7 can go
    assert lower <= 0.625 < upper and measure(ROWS, lower, upper)["claims_deferred"] <= 0.2


def test_responses_re_decide_saved_records_and_leave_out_convicted_claims(tmp_path):
    labelled = {"request_id": "r1", "answer": "A. B.", "passages": [{"id": "p", "text": "A."}], "label": "unsupported",
                "set": "s"}
    evidence = {"passage_ids": ["p"], "offsets": [[0, 2]], "entailment": 0.6, "neutral": 0.3,
                "contradiction": 0.1, "retrieval_score": 0.9, "kind": "chunk", "rank": 0}
    claim = {"index": 0, "text": "A.", "span": [0, 2], "severity": "low", "verdict": "NOT_ENOUGH_INFO",
             "evidence": [evidence], "checks": [], "flags": []}
    convicted = dict(claim, index=1, text="B.", checks=[{"name": "numbers", "passed": False,
                                                       "found": {RECORD_KEY: {"claim": "2", "passage": "3"}}}])
    (tmp_path / "s.jsonl").write_text(json.dumps(labelled) + "\n")
    (tmp_path / "s-verdicts.jsonl").write_text(json.dumps({"request_id": "r1", "claims": [claim, convicted]}) + "\n")
    rows = responses(tmp_path, ["s"], Thresholds(0.625, 0.9, "static"))
    assert len(rows) == 1 and rows[0].unsupported and rows[0].predicted_unsupported and rows[0].checked == 2
    assert 0.6 in rows[0].supports
