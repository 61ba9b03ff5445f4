"""Readers for the NLI training mix in shared/data/nli-train.

Every reader yields Pair records; `load_mix` applies the caps that keep
skewed, template-like sets from dominating and splits a validation set off
every source by premise hash (so no premise is in both train and validation).
"""

from __future__ import annotations

import csv
import hashlib
import random
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterator

from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.training.labels import to_label

csv.field_size_limit(10**8)


@dataclass(frozen=True)
class Pair:
    premise: str
    hypothesis: str
    label: int
    source: str

    def to_json(self) -> dict:
        return asdict(self)


RECIPE_PREFIXES = ("synthetic_", "counter_")  # synthetic.py's recipes, counter_shortcuts.py's


def is_recipe(source: str) -> bool:
    """A source written by a recipe, not labelled data."""
    return source.startswith(RECIPE_PREFIXES)


def _jsonl(path: Path) -> Iterator[dict]:
    return (record for _, record in read_jsonl(path))


def _tsv(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as f:
        yield from csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)


def _pair(premise, hypothesis, raw_label, source) -> Pair | None:
    label = to_label(str(raw_label or ""))
    if label is None or not premise or not hypothesis:
        return None
    return Pair(" ".join(str(premise).split()), " ".join(str(hypothesis).split()), label, source)


def vitaminc(root: Path, kind: str) -> Iterator[Pair]:
    for d in _jsonl(root / "vitaminc" / f"vitaminc_{kind}" / "test.jsonl"):
        yield _pair(d["evidence"], d["claim"], d["label"], f"vitaminc_{kind}")


def esnli(root: Path) -> Iterator[Pair]:
    base = root / "esnli_snli_devtest"
    for split in ("dev", "test"):
        s1 = (base / f"s1.{split}").read_text(encoding="utf-8").splitlines()
        s2 = (base / f"s2.{split}").read_text(encoding="utf-8").splitlines()
        labels = (base / f"labels.{split}").read_text(encoding="utf-8").splitlines()
        for p, h, y in zip(s1, s2, labels):
            yield _pair(p, h, y, "esnli_snli")


def cad_snli(root: Path) -> Iterator[Pair]:
    for split in ("train", "dev", "test"):
        for r in _tsv(root / "cad_snli" / "all_combined" / f"{split}.tsv"):
            yield _pair(r["sentence1"], r["sentence2"], r["gold_label"], "cad_snli")


def taxinli(root: Path) -> Iterator[Pair]:
    for r in _tsv(root / "taxinli" / "taxinli10k.tsv"):
        yield _pair(r["prem"], r["hyp"], r["label"], "taxinli")


def breaking_nli(root: Path) -> Iterator[Pair]:
    for d in _jsonl(root / "breaking_nli" / "data" / "dataset.jsonl"):
        yield _pair(d["sentence1"], d["sentence2"], d["gold_label"], "breaking_nli")


def climate_fever(root: Path) -> Iterator[Pair]:
    for d in _jsonl(root / "climate_fever" / "climate-fever.jsonl"):
        for ev in d["evidences"]:
            yield _pair(ev["evidence"], d["claim"], ev["evidence_label"], "climate_fever")


def healthver(root: Path) -> Iterator[Pair]:
    for split in ("dev", "test"):
        with (root / "healthver" / f"healthver_{split}.csv").open(encoding="utf-8") as f:
            for r in csv.DictReader(f):
                yield _pair(r["evidence"], r["claim"], r["label"], "healthver")


def med(root: Path) -> Iterator[Pair]:
    # MED's "neutral" means neutral or contradiction: a two-way set.
    for r in _tsv(root / "med" / "MED.tsv"):
        label = "entailment" if r["gold_label"] == "entailment" else "not_entailment"
        yield _pair(r["sentence1"], r["sentence2"], label, "med")


def rte(root: Path) -> Iterator[Pair]:
    for split in ("train", "dev"):
        for r in _tsv(root / "rte" / f"{split}.tsv"):
            yield _pair(r["sentence1"], r["sentence2"], r["label"], "rte")


def covidfact(root: Path) -> Iterator[Pair]:
    base = root / "covidfact"
    for d in _jsonl(base / "COVIDFACT_dataset.jsonl"):
        yield _pair(" ".join(d["evidence"]), d["claim"], d["label"], "covidfact")
    fever = base / "RTE-Fever"
    premises = (fever / "dev.raw.input0").read_text(encoding="utf-8").splitlines()
    hyps = (fever / "dev.raw.input1").read_text(encoding="utf-8").splitlines()
    labels = (fever / "dev.label").read_text(encoding="utf-8").splitlines()
    for p, h, y in zip(premises, hyps, labels):
        yield _pair(p, h, y, "rte_fever")
    for split in ("train", "dev"):
        for r in _tsv(base / "RTE-scifact" / f"{split}.tsv"):
            yield _pair(r["sentence1"], r["sentence2"], r["entailment"], "rte_scifact")


def fever_symmetric(root: Path) -> Iterator[Pair]:
    for split in ("dev", "test"):
        for d in _jsonl(root / "fever_symmetric" / f"fever_symmetric_{split}.jsonl"):
            yield _pair(d["evidence"], d["claim"], d["label"], "fever_symmetric")


def fever_adversarial(root: Path) -> Iterator[Pair]:
    for name in ("fever_adversarial", "fever_triggers"):
        for d in _jsonl(root / "fever_adv_vitc" / name / "test.jsonl"):
            yield _pair(d["evidence"], d["claim"], d["label"], "fever_adv")


def fm2(root: Path) -> Iterator[Pair]:
    for split in ("dev", "test"):
        for d in _jsonl(root / "fm2" / f"{split}.jsonl"):
            premise = " ".join(e["text"] for e in d["gold_evidence"])
            yield _pair(premise, d["text"], d["label"], "fm2")


# source -> (reader, cap on pairs); caps keep template-like and huge sets in proportion.
READERS: dict[str, tuple[Callable[[Path], Iterator[Pair]], int]] = {
    "vitaminc_real": (lambda r: vitaminc(r, "real"), 26000),
    "vitaminc_synthetic": (lambda r: vitaminc(r, "synthetic"), 8000),
    "esnli_snli": (esnli, 16000),
    "cad_snli": (cad_snli, 11330),
    "taxinli": (taxinli, 10071),
    "breaking_nli": (breaking_nli, 2000),
    "climate_fever": (climate_fever, 7675),
    "healthver": (healthver, 3740),
    "med": (med, 2000),
    "rte": (rte, 2769),
    "covidfact": (covidfact, 12000),
    "fever_symmetric": (fever_symmetric, 1420),
    "fever_adv": (fever_adversarial, 952),
    "fm2": (fm2, 6000),
}


def is_validation(premise: str, fraction: float) -> bool:
    digest = hashlib.sha1(premise.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") / 2**32 < fraction


def load_mix(root: Path, seed: int, val_fraction: float = 0.05, max_val_per_source: int = 600,
             caps: dict[str, int] | None = None) -> tuple[list[Pair], dict[str, list[Pair]]]:
    """Return (train pairs, validation pairs per source); `caps` overrides READERS' caps."""
    caps = caps or {}
    rng = random.Random(seed)
    train: list[Pair] = []
    val: dict[str, list[Pair]] = {}
    for name, (reader, cap) in READERS.items():
        pairs = [p for p in reader(root) if p is not None]
        rng.shuffle(pairs)
        held = [p for p in pairs if is_validation(p.premise, val_fraction)]
        rest = [p for p in pairs if not is_validation(p.premise, val_fraction)]
        by_source: dict[str, list[Pair]] = {}
        for p in held:
            by_source.setdefault(p.source, []).append(p)
        for source, items in by_source.items():
            val.setdefault(source, []).extend(items[:max_val_per_source])
        train.extend(rest[:caps.get(name, cap)])
    return train, val


def held_out_pairs(root: Path, n_validation: int, n_calibration: int = 512,
                   seed: int = 0) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(premise, hypothesis) pairs of the shipped model's validation split (never trained on), and
    of its training split (for calibrating quantisation ranges), each shuffled; seed 13 is the
    training run's, so the split is the one in the training manifest."""
    train, held = load_mix(root, seed=13)
    validation = [p for source in sorted(held) for p in held[source]]
    rng = random.Random(seed)
    rng.shuffle(validation)
    rng.shuffle(train)
    return ([(p.premise, p.hypothesis) for p in validation[:n_validation]],
            [(p.premise, p.hypothesis) for p in train[:n_calibration]])
