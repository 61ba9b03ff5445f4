"""Model kinds: what a model's outputs mean, read from its directory.

- `nli3`: entailment / neutral / contradiction (the shipped model; DeBERTa MNLI/FEVER/ANLI checkpoints).
  The logit columns come from config.json `id2label`.
- `grounding2`: supported / unsupported (MiniCheck's RoBERTa and DeBERTa checkers, HHEM-style
  classifiers): two logits (softmax) or one (sigmoid of the supported score).
- `seq2seq`: an encoder-decoder scored by its first generated token (MiniCheck-Flan-T5: P("1") against
  P("0")). Its export returns the two label tokens' logits of the first decoding step, so at run time
  it is served like a two-way classifier.

A two-way kind has no contradiction class: its P(unsupported) is reported as neutral and its
contradiction is 0, and the verdict rule takes CONTRADICTED from a verified mismatch only
(scorers/verdicts/decide.py). The record is export.json's `kind`, `labels`, `input` and `max_length`, written by
`groundwatch export-model`; a directory without it (the shipped model, earlier exports, a plain Hugging
Face checkpoint for the torch backend) is read from config.json.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.records import NLIScores

KINDS = ("nli3", "grounding2", "seq2seq")
NLI_LABELS = ("entailment", "neutral", "contradiction")
# Label names that mean "the claim is supported" / "it is not", as checkpoints spell them (normalised).
SUPPORTED_NAMES = frozenset({"supported", "support", "entailment", "entailed", "consistent", "factual", "faithful",
                             "grounded", "true", "yes"})
UNSUPPORTED_NAMES = frozenset({"unsupported", "not_supported", "not_entailment", "non_entailment", "inconsistent",
                               "hallucinated", "hallucination", "unfaithful", "not_grounded", "false", "no"})
REMOTE_CODE = ("needs trust_remote_code (its config.json names custom code in auto_map, as HHEM-2.1 does); "
               "groundwatch never runs a checkpoint's own code: use a standard transformers architecture")


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


def read_config(model_dir: Path) -> dict:
    try:
        return json.loads((Path(model_dir) / "config.json").read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelLoadError(f"{model_dir}/config.json unreadable: {exc}") from exc


def _id2label(config: dict) -> dict[int, str]:
    return {int(k): str(v) for k, v in (config.get("id2label") or {}).items()}


def _normal(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def nli_labels(config: dict, where: str) -> dict[str, int]:
    """Index of entailment / neutral / contradiction in the logits, from `id2label`."""
    id2label = {i: v.lower() for i, v in _id2label(config).items()}
    order = {}
    for index, label in id2label.items():
        for name in NLI_LABELS:
            if label.startswith(name[:5]):
                order[name] = index
    if set(order) != set(NLI_LABELS):
        raise ModelLoadError(f"{where} id2label {id2label} lacks entailment/neutral/contradiction")
    return order


def read_label_order(model_dir: Path) -> dict[str, int]:
    """Index of entailment / neutral / contradiction in a three-way model's logits."""
    return nli_labels(read_config(model_dir), f"{model_dir}/config.json")


def grounding_labels(config: dict, supported: str | int | None, where: str) -> dict[str, int]:
    """{"supported": i, "unsupported": j} (or {"supported": 0} for one logit) from `id2label`, or from
    `supported` (a label name or index) where the names do not say which class is supported."""
    id2label = _id2label(config) or {i: f"LABEL_{i}" for i in range(int(config.get("num_labels", 2)))}
    if len(id2label) not in (1, 2):
        raise ModelLoadError(f"{where} has {len(id2label)} labels; a grounding2 model has one or two")
    if supported is not None:
        hits = [i for i, name in id2label.items() if str(supported) in (str(i), name)]
        if len(hits) != 1:
            raise ModelLoadError(f"--supported-label {supported!r} names none of {where} id2label {id2label}")
        index = hits[0]
    else:
        hits = [i for i, name in id2label.items() if _normal(name) in SUPPORTED_NAMES]
        if len(hits) != 1:
            raise ModelLoadError(f"{where} id2label {id2label} does not say which label means supported: "
                                 "pass --supported-label NAME or INDEX")
        index = hits[0]
    labels = {"supported": index}
    others = [i for i in id2label if i != index]
    if others:
        labels["unsupported"] = others[0]
    return labels


@dataclass(frozen=True)
class ModelKind:
    name: str = "nli3"
    labels: dict[str, int] = field(default_factory=lambda: {"entailment": 0, "neutral": 1, "contradiction": 2})
    # How a pair becomes one input: "predict: {premise}</s>{claim}"; None: the tokenizer's own pair template.
    template: str | None = None
    max_length: int | None = None  # the model's input window in tokens; None: not recorded
    # The languages it reads ("en"): a claim in another is never SUPPORTED (the readable check). None: not
    # recorded, any language is read.
    languages: tuple[str, ...] | None = None

    def __post_init__(self):
        if self.name not in KINDS:
            raise ModelLoadError(f"model kind {self.name!r}: expected one of {', '.join(KINDS)}")
        wanted = set(NLI_LABELS) if self.name == "nli3" else {"supported"}
        if not wanted <= set(self.labels):
            raise ModelLoadError(f"model kind {self.name}: labels {self.labels} lack {sorted(wanted)}")

    @property
    def two_way(self) -> bool:
        """No contradiction class: the model can say unsupported, never contradicted."""
        return self.name != "nli3"

    def window(self, max_length: int) -> int:
        """The encoder window: `max_length`, never past what the model takes."""
        return min(max_length, self.max_length) if self.max_length else max_length

    def probabilities(self, logits: np.ndarray) -> np.ndarray:
        """Class probabilities in the model's column order (one logit: [P(supported)])."""
        logits = np.asarray(logits, dtype=np.float64)
        if logits.ndim == 1 or logits.shape[-1] == 1:
            return 1.0 / (1.0 + np.exp(-logits.reshape(-1, 1)))
        return softmax(logits)

    def scores(self, logits: np.ndarray) -> list[NLIScores]:
        probs = self.probabilities(logits)
        if self.name == "nli3":
            e, n, c = (self.labels[k] for k in NLI_LABELS)
            return [NLIScores(float(row[e]), float(row[n]), float(row[c])) for row in probs]
        s = self.labels["supported"]
        # P(unsupported) reads as neutral: "not supported" is all a two-way model can say.
        return [NLIScores(float(row[s]), float(1.0 - row[s]), 0.0) for row in probs]

    def to_record(self) -> dict:
        record = {"kind": self.name, "labels": self.labels, "input": self.template, "max_length": self.max_length}
        return record if self.languages is None else {**record, "languages": list(self.languages)}


def read_kind(model_dir: Path) -> ModelKind:
    """The kind of a model directory: export.json's record, else what config.json says."""
    model_dir = Path(model_dir)
    config = read_config(model_dir)
    if config.get("auto_map"):
        raise ModelLoadError(f"{model_dir} {REMOTE_CODE}")
    record = _export_record(model_dir)
    if record.get("kind") is None:  # the shipped model, earlier exports, a checkpoint for the torch backend
        if config.get("is_encoder_decoder"):
            raise ModelLoadError(f"{model_dir} is an encoder-decoder checkpoint: export it with "
                                 "`groundwatch export-model --kind seq2seq` and load the export")
        if len(_id2label(config)) in (1, 2):  # a two-way classifier whose label names say which is supported
            return ModelKind("grounding2", grounding_labels(config, None, f"{model_dir}/config.json"))
        return ModelKind("nli3", read_label_order(model_dir))
    kind = record["kind"]
    max_length = record.get("max_length")
    languages = tuple(record["languages"]) if record.get("languages") else None
    if kind == "nli3":  # the label order stays config.json's, as for every three-way model
        return ModelKind("nli3", read_label_order(model_dir), record.get("input"), max_length, languages)
    labels = {str(k): int(v) for k, v in (record.get("labels") or {}).items()}
    return ModelKind(kind, labels, record.get("input"), max_length, languages)


def _export_record(model_dir: Path) -> dict:
    path = model_dir / "export.json"
    if not path.exists():
        return {}
    try:
        record = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelLoadError(f"{path} unreadable: {exc}") from exc
    return record if isinstance(record, dict) else {}
