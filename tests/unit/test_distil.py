"""Distillation (training/distil.py, train.py --distil): the loss moves towards the teacher's probabilities by the
weight asked, unlabelled pairs learn from the teacher alone, and the near-miss pairs put a hypothesis against
another training premise that shares its rare words, never its own."""

from __future__ import annotations

import json

import pytest

from groundwatch.training import distil
from groundwatch.training.nli_data import Pair

torch = pytest.importorskip("torch")
from groundwatch.training.train import nli_loss  # noqa: E402

LOGITS = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 0.0, 3.0]])
TEACHER = torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.1, 0.1, 0.8]])


def _soft() -> torch.Tensor:
    return -(TEACHER * torch.log_softmax(LOGITS, dim=-1)).sum(dim=1)


def test_the_teacher_weight_mixes_the_two_losses():
    labels = torch.tensor([0, 1, 2])
    hard = nli_loss(LOGITS, labels)
    assert nli_loss(LOGITS, labels, TEACHER, 0.0) == pytest.approx(hard.item())
    assert nli_loss(LOGITS, labels, TEACHER, 1.0) == pytest.approx(_soft().mean().item())
    assert nli_loss(LOGITS, labels, TEACHER, 0.7) == pytest.approx(0.7 * _soft().mean().item() + 0.3 * hard.item())


def test_a_pair_without_a_label_learns_from_the_teacher_alone():
    labels = torch.tensor([distil.NO_LABEL] * 3)
    assert nli_loss(LOGITS, labels, TEACHER, 0.2) == pytest.approx(_soft().mean().item())


def test_the_two_way_label_still_counts_beside_the_teacher():
    labels = torch.tensor([-1, -1, -1])  # not entailment
    logp = torch.log_softmax(LOGITS, dim=-1)
    hard = -torch.logsumexp(logp[:, 1:], dim=1)
    expected = (0.5 * _soft() + 0.5 * hard).mean().item()
    assert nli_loss(LOGITS, labels, TEACHER, 0.5) == pytest.approx(expected)


def test_neighbours_pair_a_hypothesis_with_another_premise_sharing_its_rare_words():
    train = [
        Pair("The Velmora bridge opened in 1931 after a decade of building.", "Velmora bridge opened 1931.", 0, "a"),
        Pair("Engineers inspected the Velmora bridge again in 1931.", "Engineers inspected it.", 0, "a"),
        Pair("A cat sleeps on the warm windowsill.", "An animal sleeps.", 0, "b"),
    ]
    pairs = distil.neighbour_pairs(train, 10, seed=0)
    assert [(p.premise, p.hypothesis) for p in pairs] == [(train[1].premise, train[0].hypothesis)]
    assert pairs[0].label == distil.NO_LABEL and pairs[0].source == "neighbour"


def test_the_teacher_file_reads_back(tmp_path):
    path = tmp_path / "teacher.jsonl"
    rows = [{**Pair("p", "h", distil.NO_LABEL, "neighbour").to_json(), "teacher": [0.1, 0.8, 0.1]}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    [(pair, probs)] = distil.read_distil(path)
    assert pair == Pair("p", "h", distil.NO_LABEL, "neighbour") and probs == (0.1, 0.8, 0.1)
