"""The phenomena recipes (training/phenomena.py) share no name, relation or property with the hand-written
controls, which are never trained on, and give each phenomenon faithful and wrong pairs."""

from __future__ import annotations

import json
import re
from pathlib import Path

from groundwatch.training import phenomena

CONTROLS = Path(__file__).resolve().parents[2] / "examples" / "controls" / "responses.jsonl"


def _control_text() -> str:
    records = [json.loads(line) for line in CONTROLS.read_text().splitlines() if line.strip()]
    return " ".join([r["answer"] for r in records] + [p["text"] for r in records for p in r["passages"]]).lower()


def test_no_template_word_of_the_recipes_is_in_the_controls():
    text = _control_text()
    words = (phenomena.ORGS + phenomena.PEOPLE + [r.removeprefix("the ") for r in phenomena.ROLES]
             + [v for pair in phenomena.RELATIONS for v in pair] + [p for pair in phenomena.PROPERTIES for p in pair]
             + [d[0] for d in phenomena.DUTIES] + [d[1].format(x='').strip() for d in phenomena.DUTIES]
             + [re.sub(r"\{[ab]\} ?", "", c).strip() for pair in phenomena.CONVERSES for c in pair])
    found = [w for w in words if re.search(rf"\b{re.escape(w.lower())}\b", text)]
    assert found == []


def test_no_generated_sentence_is_a_control_sentence():
    text = _control_text()
    pairs = phenomena.build(0, 300)
    assert not [p for p in pairs if p.hypothesis.lower().rstrip(".") in text]


def test_each_phenomenon_has_faithful_and_wrong_pairs():
    pairs = phenomena.build(0, 200)
    for source in ("phenomenon_roles", "phenomenon_exception", "phenomenon_some_all", "phenomenon_duties"):
        labels = [p.label for p in pairs if p.source == source]
        assert len(labels) == 200
        assert labels.count(phenomena.ENT) >= 90 and len(labels) - labels.count(phenomena.ENT) >= 90
    assert len({(p.premise, p.hypothesis) for p in pairs}) == len(pairs)
