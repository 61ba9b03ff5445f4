"""Each converter on the real dev files under ../shared/data/groundedness-dev."""

import json
import os
from pathlib import Path

import pytest

from groundwatch.evaluation.converters import CONVERTERS, convert, repo_data_dir
from groundwatch.evaluation.passages import pack, unglue
from groundwatch.cli import main
from groundwatch.scorers.schema import parse_response

DATA = Path(os.environ.get("GROUNDWATCH_DATA_DIR") or repo_data_dir())

if not DATA.is_dir():
    # The dev sets live outside the repository (../shared/data); a clone without them skips these.
    pytest.skip(f"dev data not found at {DATA} (set GROUNDWATCH_DATA_DIR)", allow_module_level=True)


def first(name, limit=None, seed=0):
    return list(convert(name, DATA, limit, seed))


def first_row(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:  # closed here: no ResourceWarning at garbage collection
        return json.loads(f.readline())


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_records_parse_as_traffic_and_carry_a_binary_label(name):
    records = first(name, limit=12)
    assert 0 < len(records) <= 12
    for r in records:
        response = parse_response(r)
        assert response.passages and response.answer.strip()
        assert r["label"] in ("supported", "unsupported")
        assert r["set"] == name
        assert isinstance(r["stratum"], list)


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_sampling_is_deterministic(name):
    a = [r["request_id"] for r in first(name, limit=10, seed=1)]
    assert a == [r["request_id"] for r in first(name, limit=10, seed=1)]
    assert a != [r["request_id"] for r in first(name, limit=10, seed=2)]


def test_wice_maps_partial_support_to_unsupported_and_marks_gold_passages():
    lines = (DATA / "wice" / "claim" / "dev.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    by_id = {r["request_id"]: r for r in first("wice")}
    for row in rows[:20]:
        record = by_id[f"wice-{row['meta']['id']}"]
        assert record["answer"] == row["claim"]
        assert record["label"] == ("supported" if row["label"] == "supported" else "unsupported")
        assert len(record["passages"]) <= 100
        gold_sentences = {i for s in row["supporting_sentences"] for i in s}
        gold_text = " ".join(p["text"] for p in record["passages"] if p["id"] in record.get("gold_passage_ids", []))
        for i in gold_sentences:
            assert row["evidence"][i].strip() in gold_text


def test_wice_oracle_uses_the_oracle_chunk():
    record = first("wice-oracle")[0]
    row = first_row(DATA / "wice" / "oracle_chunks_claim" / "dev.jsonl")
    assert record["request_id"] == f"wice-oracle-{row['meta']['id']}"
    assert " ".join(p["text"] for p in record["passages"]) == " ".join(s.strip() for s in row["evidence"])


def test_begin_three_way_labels_and_question():
    records = first("begin")
    assert len(records) == 836
    r = records[0]  # first row: "early skiers used one long pole or spear." / entailment
    assert r["passages"] == [{"id": "p1", "text": "early skiers used one long pole or spear."}]
    assert r["question"].startswith("i imagine it makes travel on snow")
    assert (r["label"], r["label_3way"]) == ("supported", "supported")
    mapping = {(x["source_label"], x["label"], x["label_3way"]) for x in records}
    assert mapping == {("entailment", "supported", "supported"), ("neutral", "unsupported", "not_enough_info"),
                       ("contradiction", "unsupported", "contradicted")}


def test_halueval_gives_both_answers_of_a_row_with_split_knowledge():
    records = first("halueval", limit=6)
    assert len(records) == 6
    by_row = {}
    for r in records:
        by_row.setdefault(r["request_id"].rsplit("-", 1)[0], []).append(r)
    for pair in by_row.values():
        assert sorted(x["label"] for x in pair) == ["supported", "unsupported"]
        assert pair[0]["passages"] == pair[1]["passages"] and pair[0]["question"]
    row0 = first_row(DATA / "halueval" / "dataset_halueval_qa.jsonl")
    assert unglue(row0["knowledge"])[1].startswith("First for Women is")


def test_qags_majority_vote():
    records = {r["request_id"]: r for r in first("qags")}
    article = first_row(DATA / "qags" / "mturk_cnndm.jsonl")
    for s, summary in enumerate(article["summary_sentences"]):
        yes = sum(v["response"] == "yes" for v in summary["responses"])
        assert records[f"qags-cnndm-0-{s}"]["label"] == ("supported" if yes >= 2 else "unsupported")
    assert len(records) == 953


def test_pack_respects_the_passage_limit():
    sentences = [f"Sentence number {i} has exactly seven words." for i in range(2000)]
    packed = pack(sentences, words=20, max_passages=100)
    assert len(packed) <= 100
    assert [i for p in packed for i in p.sentences] == list(range(2000))


def test_convert_command_writes_jsonl(tmp_path):
    out = tmp_path / "begin.jsonl"
    assert main(["convert", "--set", "begin", "--limit", "5", "--output", str(out), "--data-dir", str(DATA)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 5 and all(parse_response(x) for x in lines)
