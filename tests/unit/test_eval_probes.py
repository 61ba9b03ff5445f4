"""Probe generators make the intended edits, and only those."""

import random
import re

from groundwatch.evaluation.probing.probes import (
    EDITS,
    build_probes,
    conjoin,
    is_statement,
    split_support_probes,
    swap_changing_meaning,
)


def record(i, answer, passage, set_name="begin"):
    return {"request_id": f"r{i}", "answer": answer, "passages": [{"id": "p1", "text": passage}],
            "label": "supported", "set": set_name, "stratum": [], "question": "q?"}


SUPPORTED = [
    record(0, "The bridge was opened in 1932 by the mayor.", "The bridge was opened in 1932 by the mayor."),
    record(1, "Refunds are available within 30 days if the invoice is paid.",
           "Refunds are available within 30 days if the invoice is paid."),
    record(2, "Marie Curie worked with Pierre Curie in Paris.", "Marie Curie worked with Pierre Curie in Paris.",
           "qags"),
    record(3, "The museum does not open on Mondays.", "The museum does not open on Mondays.", "qags"),
    record(4, "The river flows north through three countries.", "The river flows north through three countries."),
    record(5, "Water boils at 100 degrees at sea level.", "Water boils at 100 degrees at sea level.", "qags"),
]


def by_family(probes):
    out = {}
    for p in probes:
        out.setdefault(p["probe"], []).append(p)
    return out


def test_negation_adds_or_removes_not():
    rng = random.Random(0)
    assert EDITS["negation"]("The bridge was opened in 1932.", rng) == "The bridge was not opened in 1932."
    assert EDITS["negation"]("The museum does not open on Mondays.", rng) == "The museum does open on Mondays."


def test_number_edit_changes_exactly_one_quantity():
    rng = random.Random(0)
    for _ in range(20):
        edited = EDITS["number"]("Refunds take 30 days and cost 12 dollars.", rng)
        assert edited != "Refunds take 30 days and cost 12 dollars."
        changed = [a for a, b in zip("Refunds take 30 days and cost 12 dollars.".split(), edited.split()) if a != b]
        assert len(changed) == 1


def test_condition_is_dropped():
    assert EDITS["condition"]("Refunds are available within 30 days if the invoice is paid.",
                              random.Random(0)) == "Refunds are available within 30 days."


def test_swap_exchanges_entities_but_not_list_items():
    swapped = swap_changing_meaning("Yesterday Marie Curie met Pierre Curie in Paris.", random.Random(1))
    assert swapped is not None and swapped != "Yesterday Marie Curie met Pierre Curie in Paris."
    words = lambda text: sorted(re.findall(r"\w+", text))  # noqa: E731
    assert words(swapped) == words("Yesterday Marie Curie met Pierre Curie in Paris.")
    listed = "The label owns imprints including Verve Records, Impulse Records and Decca Records."
    assert all(swap_changing_meaning(listed, random.Random(seed)) is None for seed in range(10))


def test_split_support_is_one_given_claim_over_two_passages():
    probes = split_support_probes([SUPPORTED[0], SUPPORTED[4]], 5, seed=0)
    assert len(probes) == 1
    p = probes[0]
    assert p["claims"] == [p["answer"]] and p["label"] == "supported"
    assert {x["text"] for x in p["passages"]} == {SUPPORTED[0]["passages"][0]["text"],
                                                  SUPPORTED[4]["passages"][0]["text"]}
    assert "question" not in p
    assert conjoin("The bridge opened.", "It carries cars.") == "The bridge opened, and it carries cars."


def test_split_support_skips_two_answers_from_the_same_passage():
    twin = record(9, "Another answer is based on it.", SUPPORTED[0]["passages"][0]["text"])
    assert split_support_probes([SUPPORTED[0], twin], 5, seed=0) == []


def test_build_probes_labels_every_family():
    probes = build_probes(SUPPORTED, per_family=10, seed=0)
    families = by_family(probes)
    assert set(families) == {"original", "negation", "number", "condition", "swap", "split_support"}
    originals = {p["source_request_id"]: p["answer"] for p in families["original"]}
    for family, items in families.items():
        expected = "supported" if family in ("original", "split_support") else "unsupported"
        assert all(p["label"] == expected for p in items), family
    for p in families["negation"] + families["number"] + families["condition"] + families["swap"]:
        source = next(r for r in SUPPORTED if r["request_id"] == p["source_request_id"])
        assert p["answer"] != source["answer"]
        assert p["passages"] == source["passages"]
    assert originals == {r["request_id"]: r["answer"] for r in SUPPORTED}
    assert len({p["request_id"] for p in probes}) == len(probes)


def test_bare_names_are_not_statements():
    assert not is_statement("The Truth According to Wikipedia")
    assert is_statement("The bridge was opened in 1932.")


def test_eval_probes_reports_every_family(tiny_onnx, tmp_path):
    import json

    from groundwatch.cli import main

    path, report = tmp_path / "probes.jsonl", tmp_path / "report.json"
    probes = build_probes(SUPPORTED, per_family=10, seed=0)
    path.write_text("".join(json.dumps(p) + "\n" for p in probes))
    config = tmp_path / "low.json"  # the random model's entailments sit near 1/3: let some pass
    config.write_text(json.dumps({"scorer": {"tau_entailment": 0.33}}))
    assert main(["eval", "--probes", str(path), "--model", str(tiny_onnx), "--output", str(report),
                 "--config", str(config)]) == 0
    result = json.loads(report.read_text())["probes"]
    counts = {family: f["n"] for family, f in result["families"].items()}
    expected = {}
    for p in probes:
        expected[p["probe"]] = expected.get(p["probe"], 0) + 1
    assert result["split_support"]["n"] == expected.pop("split_support")
    assert counts == expected
    assert result["families"]["negation"]["published_mnli"] == 0.41
    for f in result["families"].values():
        assert 0.0 <= f["supported_with_checks"] <= f["supported_without_checks"] <= 1.0
        assert f["n_original_supported"] <= f["n"]
    original = result["families"]["original"]
    assert original["n_original_supported"] > 0
    assert original["supported_when_original_supported"] == 1.0
