"""Document identity per app: the id, and the readers that find a request's verdicts by it."""

from __future__ import annotations

import json

import pytest
import structlog

from groundwatch.cli import main
from groundwatch.reports.data import latest_per_request
from groundwatch.reports.review import review_item
from groundwatch.scorers.identity import ID_BYTES, document_id
from groundwatch.scorers.records import Verdict
from tests.unit.verdicts import claim, verdict


def test_two_apps_reusing_a_request_id_get_two_ids_and_a_replay_the_same_one():
    ids = {document_id(app, tenant, "42", "1.0") for app in ("shop", "help", None) for tenant in ("acme", None)}
    assert len(ids) == 6
    assert document_id("shop", "acme", "42", "1.0") == document_id("shop", "acme", "42", "1.0")
    assert document_id("shop", None, "42", "1.0") == document_id("shop", "", "42", "1.0")


def test_parts_cannot_run_into_each_other():
    assert document_id("a:b", "", "c", "v") != document_id("a", "b", "c", "v")
    assert document_id("a", "", "b:c", "v") != document_id("a", "", "b", "c:v")


def test_the_id_is_bounded_in_bytes_whatever_the_inputs():
    longest = "\U0001f600" * 512  # the schema's 512 characters, 4 bytes each in UTF-8
    doc_id = document_id(longest, longest, longest, "0.1.0+" + "x" * 100)
    assert len(doc_id.encode("utf-8")) == ID_BYTES < 512
    v = verdict([claim(0, Verdict.SUPPORTED)], request_id=longest, metadata={"app": longest, "tenant": 7})
    assert len(v.doc_id.encode()) == ID_BYTES and v.doc_id == document_id(longest, "7", longest, "0.1.0")


def test_latest_per_request_keeps_one_verdict_per_app():
    records = [verdict([claim(0, Verdict.SUPPORTED)], request_id="42", metadata={"app": app}).to_dict()
               for app in ("shop", "help", "shop")]
    records[2]["scored_at"] = "2026-05-01T00:00:00+00:00"  # a rescore of shop's
    kept = latest_per_request(records)
    assert sorted((r["metadata"]["app"], r["scored_at"][:7]) for r in kept) == [("help", "2026-04"),
                                                                                 ("shop", "2026-05")]


def test_review_ids_include_the_app():
    ids = [review_item(verdict([claim(0, Verdict.SUPPORTED)], request_id="42", metadata=m).to_dict(),
                       {"index": 0, "verdict": "SUPPORTED"})["review_id"] for m in ({"app": "shop"}, {})]
    assert ids == ["shop:42:0.1.0:0", "42:0.1.0:0"]


def _file(tmp_path, apps) -> str:
    path = tmp_path / "verdicts.jsonl"
    path.write_text("".join(json.dumps(verdict([claim(0, Verdict.SUPPORTED)], request_id="42",
                                               metadata={"app": a} if a else {}).to_dict()) + "\n" for a in apps))
    return str(path)


@pytest.fixture
def cli_logging():
    yield
    structlog.reset_defaults()  # the CLI binds logging to the test's captured stderr


def test_explain_lists_each_apps_verdict_and_app_picks_one(tmp_path, capsys, cli_logging):
    path = _file(tmp_path, ["shop", "help"])
    assert main(["explain", "42", "--input", path]) == 0
    out = capsys.readouterr().out
    assert out.startswith("request 42 is stored for 2 apps or tenants (help, shop)")
    assert "== app shop ==" in out and "== app help ==" in out and out.count("request 42  (scorer") == 2
    assert main(["explain", "42", "--input", path, "--app", "help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("request 42  (scorer") and "== app" not in out
    assert main(["explain", "42", "--input", path, "--app", "other"]) == 2
    assert "request_id '42' of app 'other' not found" in capsys.readouterr().err
