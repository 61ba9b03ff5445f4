"""A model directory's tokenizer, from its tokenizer.json by the `tokenizers` library alone.

transformers is not needed to score: its fast tokenizers are this same Rust tokenizer plus
Python around it (6-7 s to import). What transformers added is read here from the model
directory: the pad token (tokenizer_config.json) and the pair template ([CLS] a [SEP] b [SEP]
and its segment ids), which is taken from the tokenizer's own post-processor, so encodings
are what `AutoTokenizer` gave (tests/unit/test_nli_encoding.py compares them).

A model trained on one joined text instead of a pair (MiniCheck: "predict: {premise}</s>{claim}")
records that input template at export (scorers/nli/kinds.py); its slots are the tokenizer's
single-sequence template around the prefix, premise, separator, claim and suffix, each piece
tokenized alone, and the encoder checks that this equals tokenizing the joined text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from groundwatch.scorers.errors import ModelLoadError

DEFAULT_INPUT_NAMES = ("input_ids", "token_type_ids", "attention_mask")


@dataclass(frozen=True)
class PairTemplate:
    """Where the special tokens go around two sequences: slots of (token id or sequence 0/1, segment id)."""

    slots: tuple[tuple[str, int, int], ...]  # ("special", token id, type id) or ("sequence", 0 or 1, type id)

    @property
    def specials(self) -> int:
        return sum(kind == "special" for kind, _, _ in self.slots)

    def build(self, first: list[int], second: list[int]) -> tuple[list[int], list[int]]:
        """Token ids and segment ids of the pair (first, second) with its special tokens."""
        ids: list[int] = []
        types: list[int] = []
        for kind, value, type_id in self.slots:
            piece = [value] if kind == "special" else (first if value == 0 else second)
            ids.extend(piece)
            types.extend([type_id] * len(piece))
        return ids, types


def pair_template(tokenizer) -> PairTemplate:
    """The pair template of a `tokenizers.Tokenizer` (no truncation set), read off a probe pair."""
    both = tokenizer.encode("a", "b")  # sequence_ids: None on special tokens, else 0 or 1
    slots, seen = [], set()
    for token, type_id, seq in zip(both.ids, both.type_ids, both.sequence_ids):
        if seq is None:
            slots.append(("special", token, type_id))
        elif seq not in seen:
            seen.add(seq)
            slots.append(("sequence", seq, type_id))
    if seen != {0, 1}:
        raise ModelLoadError("tokenizer.json: its post-processor does not keep both sequences of a pair")
    return PairTemplate(tuple(slots))


def text_template(tokenizer, template: str) -> PairTemplate:
    """The slots of a joined-text input template ("predict: {premise}</s>{claim}") for a
    `tokenizers.Tokenizer`: its single-sequence special tokens around the template's pieces."""
    prefix, rest = _split(template, "{premise}")
    separator, suffix = _split(rest, "{claim}")
    one = tokenizer.encode("a")
    at = one.sequence_ids.index(0) if 0 in one.sequence_ids else None
    if at is None or one.sequence_ids.count(0) != 1:
        raise ModelLoadError("tokenizer.json: its post-processor does not keep a single sequence")
    specials = list(zip(one.ids, one.type_ids))

    def words(text: str, type_id: int) -> list[tuple[str, int, int]]:
        text = text.strip()  # whitespace next to a piece belongs to the text beside it
        return [("special", i, type_id) for i in tokenizer.encode(text, add_special_tokens=False).ids] if text else []

    type_id = one.type_ids[at]
    slots = [("special", i, t) for i, t in specials[:at]] + words(prefix, type_id) + [("sequence", 0, type_id)]
    slots += words(separator, type_id) + [("sequence", 1, type_id)] + words(suffix, type_id)
    slots += [("special", i, t) for i, t in specials[at + 1:]]
    return PairTemplate(tuple(slots))


def _split(text: str, marker: str) -> tuple[str, str]:
    if text.count(marker) != 1:
        raise ModelLoadError(f"input template {text!r} must hold {marker} once, {{premise}} before {{claim}}")
    before, after = text.split(marker)
    return before, after


@dataclass
class ModelTokenizer:
    tokenizer: object  # tokenizers.Tokenizer, no truncation or padding set
    template: PairTemplate
    pad_id: int
    input_names: tuple[str, ...]
    joined: str | None = None  # the input template of a model that reads one joined text; None: pairs

    def reference(self, tokenizer, premise: str, claim: str):
        """What the tokenizer itself gives for the pair (a `tokenizers.Encoding`): what the slots must rebuild."""
        if self.joined is None:
            return tokenizer.encode(premise, claim)
        return tokenizer.encode(self.joined.replace("{premise}", premise).replace("{claim}", claim))


def load_tokenizer(model_dir: Path, template: str | None = None) -> ModelTokenizer:
    """The tokenizer of `model_dir` (tokenizer.json, tokenizer_config.json); ModelLoadError if unusable.
    `template`: the joined-text input template the model was trained on (None: the pair template)."""
    from tokenizers import Tokenizer

    path = model_dir / "tokenizer.json"
    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:  # noqa: BLE001 - a missing file or tokenizers' own error: one message
        raise ModelLoadError(f"{path} unreadable: {exc}") from exc
    if tokenizer.get_vocab_size() < 1000:
        raise ModelLoadError(f"{path}: tokenizer has {tokenizer.get_vocab_size()} tokens; files missing")
    # A saved tokenizer.json may carry the truncation and padding of its last use: encodings here are raw.
    tokenizer.no_truncation()
    tokenizer.no_padding()
    config = _config(model_dir)
    pad = config.get("pad_token")
    pad = pad.get("content") if isinstance(pad, dict) else pad
    pad_id = tokenizer.token_to_id(pad) if pad else None
    names = tuple(config.get("model_input_names") or DEFAULT_INPUT_NAMES)
    slots = text_template(tokenizer, template) if template else pair_template(tokenizer)
    return ModelTokenizer(tokenizer, slots, pad_id if pad_id is not None else 0, names, template)


def _config(model_dir: Path) -> dict:
    path = model_dir / "tokenizer_config.json"
    try:
        return json.loads(path.read_text()) if path.exists() else {}
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelLoadError(f"{path} unreadable: {exc}") from exc
