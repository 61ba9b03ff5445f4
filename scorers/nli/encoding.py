"""Pre-processing: (premise, claim) text pairs -> model inputs, each text tokenized once.

The batcher owns this stage (TEI's router / infinity's `encode_pre`): it encodes
every pair once, takes the token lengths from those encodings, and hands the
same encodings to the backend's `infer`. Each distinct text of a call is
tokenized once (a passage checked against five claims is tokenized once, not
five times); pair inputs are assembled from the token ids with the tokenizer's
own special-token template. A premise longer than the model window becomes
overlapping token windows cut from its ids, each window one encoding.

Truncation of a pair that does not fit (only when windows are off, or when the
claim alone leaves less than MIN_WINDOW tokens for the premise) follows the
tokenizers library's `longest_first` exactly, so an encoding equals what
transformers' `tokenizer(premise, claim, truncation="longest_first", max_length=...)`
gave (tests/unit/test_nli_encoding.py checks this). The tokenizer is the model's
tokenizer.json read by the `tokenizers` library (scorers/nli/tokenizer.py).
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass

import numpy as np

from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.tokenizer import ModelTokenizer

Pair = tuple[str, str]  # (premise, hypothesis)

MIN_WINDOW = 16      # below this many premise tokens per window, truncate instead of windowing
WINDOW_SPARE = 4     # tokens kept free beside the claim in a window (special tokens + 1)


@dataclass(frozen=True, slots=True)
class PairEncoding:
    """One model input: token ids and segment ids of (premise or premise window, claim), unpadded."""

    input_ids: tuple[int, ...]
    token_type_ids: tuple[int, ...]
    pair: Pair  # the text it encodes (premise window as a slice of the premise); never logged

    def __len__(self) -> int:
        return len(self.input_ids)


def longest_first(n_first: int, n_second: int, limit: int) -> tuple[int, int]:
    """Lengths kept of two sequences so that they fit `limit`: the tokenizers library's
    `longest_first` (the shorter one stays whole when it fits in half, else each gets half)."""
    if n_first + n_second <= limit:
        return n_first, n_second
    swap = n_first > n_second
    a, b = (n_second, n_first) if swap else (n_first, n_second)
    b = a if a > limit else max(a, limit - a)
    if a + b > limit:
        a = limit // 2
        b = a + limit % 2
    return (b, a) if swap else (a, b)


class PairEncoder:
    """Turns text pairs into PairEncodings for one tokenizer and model window."""

    def __init__(self, model_tokenizer: ModelTokenizer, max_length: int, window_overlap: float = 0.2):
        self._tokenizer = model_tokenizer.tokenizer
        self._local = threading.local()
        self.template = model_tokenizer.template
        self.max_length = max_length
        self.overlap = window_overlap
        self.specials = self.template.specials
        self.pad_id = model_tokenizer.pad_id
        self.input_names = model_tokenizer.input_names
        self._check_template(model_tokenizer)

    @property
    def tokenizer(self):
        # One copy per thread (a tokenizers.Tokenizer): one object used from two threads at once
        # (the batcher's and the submitter's) can fail with "RuntimeError: Already borrowed".
        tok = getattr(self._local, "tokenizer", None)
        if tok is None:
            tok = self._local.tokenizer = copy.deepcopy(self._tokenizer)
        return tok

    def _check_template(self, model_tokenizer: ModelTokenizer) -> None:
        """Assembling ids must give what the tokenizer gives for the pair (or for the joined text of a
        model's input template), or we refuse the model."""
        probe = ("Refunds are available within 30 days.", "You can get a refund.")
        [[built]] = self.encode([probe], windows=False)
        direct = copy.deepcopy(self._tokenizer)
        direct.enable_truncation(self.max_length, strategy="longest_first")
        enc = model_tokenizer.reference(direct, *probe)
        if list(built.input_ids) != enc.ids or list(built.token_type_ids) != enc.type_ids:
            what = f"input template {model_tokenizer.joined!r}" if model_tokenizer.joined else "pair template"
            raise ModelLoadError(f"tokenizer.json: {what} cannot be rebuilt from token ids")

    def _tokens(self, texts: list[str]) -> dict[str, tuple[list[int], list[tuple[int, int]]]]:
        """Token ids and character offsets of each distinct text, from one batched tokenizer call."""
        unique = list(dict.fromkeys(texts))
        encs = self.tokenizer.encode_batch(unique, add_special_tokens=False)
        return {t: (e.ids, e.offsets) for t, e in zip(unique, encs)}

    def _assemble(self, first: list[int], second: list[int], pair: Pair) -> PairEncoding:
        keep_a, keep_b = longest_first(len(first), len(second), self.max_length - self.specials)
        ids, types = self.template.build(first[:keep_a], second[:keep_b])
        return PairEncoding(tuple(ids), tuple(types), pair)

    @property
    def claim_room(self) -> int:
        """The most claim tokens read whole beside a premise window; a longer claim is cut (`longest_first`)."""
        return self.max_length - max(WINDOW_SPARE, self.specials + 1) - MIN_WINDOW

    def claim_tokens(self, claim: str) -> tuple[int, int]:
        """(tokens, unknown tokens) of a claim: a word the vocabulary cannot spell, or one longer than the
        tokenizer reads (WordPiece: 100 characters), is one unknown token, whatever it says."""
        enc = self.tokenizer.encode(claim, add_special_tokens=False)
        unknown = getattr(self.tokenizer.model, "unk_token", None)
        return len(enc.ids), sum(t == unknown for t in enc.tokens) if unknown else 0

    def window_starts(self, n_premise: int, n_claim: int) -> tuple[list[int], int]:
        """Start token of each premise window and the window size; one window (start 0) when it fits."""
        # An input template's prefix and separator tokens (MiniCheck's "predict:") take room like specials.
        budget = self.max_length - n_claim - max(WINDOW_SPARE, self.specials + 1)
        if n_premise <= budget or budget < MIN_WINDOW:
            return [0], n_premise
        stride = max(8, int(budget * (1 - self.overlap)))
        starts = []
        for start in range(0, n_premise, stride):
            starts.append(start)
            if start + budget >= n_premise:
                break
        return starts, budget

    def encode(self, pairs: list[Pair], windows: bool = True) -> list[list[PairEncoding]]:
        """One list of encodings per pair: the pair itself, or one per premise window."""
        if not pairs:
            return []
        tokens = self._tokens([p for p, _ in pairs] + [c for _, c in pairs])
        out = []
        for premise, claim in pairs:
            p_ids, p_offs = tokens[premise]
            c_ids, _ = tokens[claim]
            starts, size = self.window_starts(len(p_ids), len(c_ids)) if windows else ([0], len(p_ids))
            if len(starts) == 1:
                out.append([self._assemble(p_ids, c_ids, (premise, claim))])
                continue
            encs = []
            for start in starts:
                piece = p_offs[start:start + size]
                text = premise[piece[0][0]:piece[-1][1]]
                encs.append(self._assemble(p_ids[start:start + size], c_ids, (text, claim)))
            out.append(encs)
        return out

    def collate(self, batch: list[PairEncoding]) -> dict[str, np.ndarray]:
        """Pad to the longest encoding of the batch; padding is masked out (attention_mask 0)."""
        width = max(len(e) for e in batch)
        ids = np.full((len(batch), width), self.pad_id, dtype=np.int64)
        types = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, e in enumerate(batch):
            n = len(e)
            ids[row, :n] = e.input_ids
            types[row, :n] = e.token_type_ids
            mask[row, :n] = 1
        features = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        return {k: v for k, v in features.items() if k in self.input_names}
