"""A model directory's tokenizer, from its tokenizer.json by the `tokenizers` library alone.

transformers is not needed to score: its fast tokenizers are this same Rust tokenizer plus
Python around it (6-7 s to import). What transformers added is read here from the model
directory: the pad token (tokenizer_config.json) and the pair template ([CLS] a [SEP] b [SEP]
and its segment ids), which is taken from the tokenizer's own post-processor, so encodings
are what `AutoTokenizer` gave (tests/unit/test_nli_encoding.py compares them).
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


@dataclass
class ModelTokenizer:
    tokenizer: object  # tokenizers.Tokenizer, no truncation or padding set
    template: PairTemplate
    pad_id: int
    input_names: tuple[str, ...]


def load_tokenizer(model_dir: Path) -> ModelTokenizer:
    """The tokenizer of `model_dir` (tokenizer.json, tokenizer_config.json); ModelLoadError if unusable."""
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
    return ModelTokenizer(tokenizer, pair_template(tokenizer), pad_id if pad_id is not None else 0, names)


def _config(model_dir: Path) -> dict:
    path = model_dir / "tokenizer_config.json"
    try:
        return json.loads(path.read_text()) if path.exists() else {}
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelLoadError(f"{path} unreadable: {exc}") from exc
