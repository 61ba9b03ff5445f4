"""The Python API (groundwatch/api.py): typed results equal to `groundwatch score`'s records, settings
as keywords, batch and async forms on one shared collector, and the lazy top-level import."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from groundwatch import Checker, InvalidResponse, Result, ScoringError
from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.schema import parse_response

ROOT = Path(__file__).resolve().parents[2]
PASSAGE = ("Refunds are available within 30 days of purchase. Approved refunds are returned to the original "
           "payment method. Contact support@acme.example for help.")
ANSWER = "You can get a refund within 60 days. Refunds go back to your original payment method."


def _record(i: int) -> dict:
    return {"request_id": f"r-{i}", "question": "How long is the refund window?", "answer": ANSWER,
            "passages": [{"id": "kb-7", "text": PASSAGE}], "metadata": {"app": "help"}}


def _without_time(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "scored_at"}


@pytest.fixture(scope="module")
def checker(tiny_onnx):
    with Checker(model_dir=str(tiny_onnx), use_embeddings=False) as c:
        yield c


def test_check_gives_the_record_the_scorer_gives(checker, tiny_onnx):
    result = checker.check(request_id="r-1", question="How long is the refund window?", answer=ANSWER,
                           passages=[{"id": "kb-7", "text": PASSAGE}], metadata={"app": "help"})
    scorer = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False),
                                policy=checker._scorer.policy)
    try:
        [verdict] = scorer.score([parse_response(_record(1))])
    finally:
        scorer.close()
    expected = json.loads(json.dumps(verdict.to_dict()))  # what `groundwatch score` writes for the line
    assert _without_time(result.to_dict()) == _without_time(expected)
    assert [c.text for c in result.claims] == ["You can get a refund within 60 days.",
                                               "Refunds go back to your original payment method."]
    first = result.claims[0]
    assert first.verdict == expected["claims"][0]["verdict"] and first.span == (0, 36)
    assert first.evidence[0].passage_ids == ("kb-7",)
    assert "failed_numbers" in first.flags  # 60 is in no passage, whatever the model says
    assert result.action is not None and result.action.action == expected["action"]["action"]
    assert result.counts == expected["response"]["counts"]


def test_results_are_frozen_and_to_dict_is_a_copy(checker):
    result = checker.check(answer=ANSWER, passages=[PASSAGE])
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.score = 1.0
    record = result.to_dict()
    record["claims"].clear()
    assert result.to_dict()["claims"], "to_dict() must not hand out the result's own record"
    assert result.to_dict()["passages"] == [{"id": "p1", "text": PASSAGE}]  # plain strings get ids p1, p2, ...
    assert len(result.request_id) == 32  # a generated id when none is given


def test_check_many_keeps_the_order_and_scores_together(checker):
    calls = checker._collector.calls
    results = checker.check_many([_record(i) for i in range(8)])
    assert [r.request_id for r in results] == [f"r-{i}" for i in range(8)]
    assert all(isinstance(r, Result) for r in results)
    assert checker._collector.calls - calls < 8, "the records should share scorer calls"


def test_acheck_shares_the_collector_with_concurrent_callers(checker):
    async def many():
        return await asyncio.gather(*(checker.acheck(request_id=f"a-{i}", answer=ANSWER, passages=[PASSAGE])
                                      for i in range(6)))

    calls = checker._collector.calls
    results = asyncio.run(many())
    assert [r.request_id for r in results] == [f"a-{i}" for i in range(6)]
    assert checker._collector.calls - calls < 6
    alone = checker.check(request_id="a-0", answer=ANSWER, passages=[PASSAGE])
    assert _without_time(alone.to_dict()) == _without_time(results[0].to_dict())  # batch mates change nothing


def test_invalid_input_names_the_record_and_field_before_anything_is_scored(checker):
    with pytest.raises(InvalidResponse, match=r"check\(\): passages\.0\.text"):
        checker.check(answer=ANSWER, passages=[{"id": "kb-7"}])
    with pytest.raises(TypeError, match="a list of passages"):
        checker.check(answer=ANSWER, passages=PASSAGE)  # one string would be a passage per character
    with pytest.raises(TypeError, match="a list of passages .*, not NoneType"):
        checker.check(answer=ANSWER, passages=None)
    for odd in (5, None, ["a", "list"]):  # neither text nor a dict: validation names the position
        with pytest.raises(InvalidResponse, match=r"check\(\): passages\.1: Input should be a valid dictionary"):
            checker.check(answer=ANSWER, passages=[PASSAGE, odd])
    calls = checker._collector.calls
    with pytest.raises(InvalidResponse, match=r"records\[1\]: answer"):
        checker.check_many([_record(0), {"request_id": "x", "passages": [{"id": "a", "text": "t"}]}])
    assert checker._collector.calls == calls


def test_a_failed_response_raises_or_stands_in_its_place(tiny_onnx):
    with Checker(model_dir=str(tiny_onnx), use_embeddings=False, max_claims=1) as c:
        with pytest.raises(ScoringError) as failed:
            c.check(answer=ANSWER, passages=[PASSAGE])
        assert failed.value.reason == "too_many_claims"
        one = {"request_id": "one", "answer": "Refunds are available within 30 days.",
               "passages": [{"id": "kb-7", "text": PASSAGE}]}
        results = c.check_many([_record(0), one], return_exceptions=True)
    assert isinstance(results[0], ScoringError) and isinstance(results[1], Result)


def test_settings_as_keywords_sections_or_an_object(tiny_onnx, tmp_path):
    from groundwatch.config.settings import Settings

    with Checker(model_dir=str(tiny_onnx), use_embeddings=False, tau_entailment=0.3,
                 policy={"enabled": False}, redaction={"enabled": True}) as c:
        assert c.settings.scorer.tau_entailment == 0.3 and c.settings.scorer.top_k == 4
        result = c.check(answer="Write to support@acme.example for a refund.", passages=[PASSAGE])
        version = c.scorer_version
    assert result.action is None  # the policy is off
    assert "support@acme.example" not in json.dumps(result.to_dict())  # redacted as in score's file
    assert "support@acme.example" not in result.claims[0].text
    settings = Settings().model_copy(update={"scorer": ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False)})
    with Checker(settings) as c:
        assert c.scorer_version != version  # another tau_entailment is another scorer version
    config = tmp_path / "settings.json"
    config.write_text(json.dumps({"scorer": {"model_dir": str(tiny_onnx), "use_embeddings": False,
                                             "tau_contradiction": 0.8}}))
    with Checker(config=config) as c:
        assert c.settings.scorer.tau_contradiction == 0.8


def test_unknown_or_invalid_settings_are_refused_before_the_model_loads():
    with pytest.raises(TypeError, match="unknown setting 'tau_entailmen'; did you mean 'tau_entailment'"):
        Checker(tau_entailmen=0.6)
    with pytest.raises(ValueError, match="tau_entailment"):
        Checker(tau_entailment=2)
    with pytest.raises(TypeError, match="not both"):
        Checker(settings=object(), config="x.json")


def test_the_top_level_import_stays_light():
    code = ("import sys, groundwatch, groundwatch.config.settings; "
            "heavy = [m for m in ('groundwatch.api', 'groundwatch.scorers.pipeline', 'onnxruntime', 'torch') "
            "if m in sys.modules]; assert not heavy, heavy; "
            "assert 'Checker' in dir(groundwatch) and groundwatch.Checker.__module__ == 'groundwatch.api'; "
            "assert 'groundwatch.api' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    import groundwatch

    with pytest.raises(AttributeError, match="no attribute 'Chekcer'"):
        groundwatch.Chekcer  # noqa: B018


@pytest.fixture(scope="module")
def shipped():
    with Checker() as c:
        yield c


def test_the_shipped_model_on_example_responses(shipped, tmp_path):
    """Three example responses: the API's records are `groundwatch score`'s records for the same lines."""
    lines = [json.loads(line) for line in (ROOT / "examples/responses.jsonl").read_text().splitlines()[:3]]
    results = shipped.check_many(lines)
    source = tmp_path / "three.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "verdicts.jsonl"
    subprocess.run([sys.executable, "-m", "groundwatch.cli", "score", "--input", str(source), "--output", str(out),
                    "--no-progress"], check=True, cwd=ROOT, capture_output=True)
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [_without_time(r.to_dict()) for r in results] == [_without_time(w) for w in written]
    expected = [json.loads(line) for line in (ROOT / "examples/expected.jsonl").read_text().splitlines()[:3]]
    assert [r.request_id for r in results] == [e["request_id"] for e in expected]
    # ex-003 says 60 days against a 30-day policy (60 only for Enterprise with approval): never SUPPORTED
    assert results[2].claims[0].verdict in ("CONTRADICTED", "NOT_ENOUGH_INFO") and not results[2].all_supported
    # (how many example claims the shipped model gets right is a figure: docs/figures/examples-agreement.json)


def test_every_exported_name_resolves():
    import groundwatch

    for name in groundwatch.__all__:
        assert getattr(groundwatch, name) is not None, name
    assert groundwatch.Result.__module__ == "groundwatch.results"
