"""The cheap gate for a retraining run: the control set pair by pair, in the form the scorer gives the model."""

from groundwatch.training.control_gate import control_families, control_pairs, gate, verbatim_pairs


def test_control_pairs_are_every_control_answer_in_the_scorers_form():
    pairs = control_pairs()
    assert len(pairs) == 341 and sum(supported for _, _, supported in pairs) == 168
    written = control_pairs(as_written=True)
    assert any("optional" in p for p, _, _ in written) and not any(" optional" in p for p, _, _ in pairs)


def test_gate_counts_the_models_most_likely_labels(tiny_onnx):
    pairs = control_pairs()[:20]
    verbatim = verbatim_pairs()[:5]
    counts = gate(tiny_onnx, "onnx", pairs, verbatim)
    assert counts["rewordings"] + counts["pairs"] == 20 and counts["verbatim"] == 5
    assert counts["rewordings_entailment"] + counts["rewordings_contradiction"] <= counts["rewordings"]
    assert counts["pairs_entailment"] <= counts["pairs"]


def test_verbatim_pairs_are_each_passage_sentence_against_its_passage():
    pairs = verbatim_pairs(as_written=True)
    assert len(pairs) > 293 and all(sentence in passage for passage, sentence in pairs)
    assert len({passage for passage, _ in pairs}) < len(pairs)  # several sentences per passage


def test_gate_counts_each_family_apart(tiny_onnx):
    pairs, families = control_pairs(), control_families()
    assert len(families) == len(pairs) and families.count("swapped_roles") == 8
    assert all(f.endswith("_pair") != supported for f, (_, _, supported) in zip(families, pairs))
    picked = [i for i, f in enumerate(families) if f.startswith(("some_all", "calendar"))]
    counts = gate(tiny_onnx, "onnx", [pairs[i] for i in picked], [], [families[i] for i in picked])
    assert set(counts["families"]) == {"some_all", "some_all_pair", "calendar", "calendar_pair"}
    for row in counts["families"].values():
        assert row["entailment"] + row["neutral"] + row["contradiction"] == row["claims"]
    assert sum(r["claims"] for f, r in counts["families"].items() if not f.endswith("_pair")) == counts["rewordings"]
