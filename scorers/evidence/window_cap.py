"""The cap on NLI model inputs per response (scorer.max_windows), counted before inference.

A premise longer than the model window becomes one model input per token window
(scorers/nli/encoding.py), so the pair count alone does not bound the work: a 1 MB passage of one
sentence is one chunk, and over a thousand windows for every claim read against it. Windows are
counted with the model's own tokenizer and window rule. Most responses never reach the tokenizer
here: an upper bound (a token spans at least one UTF-8 byte, plus one word-start marker per word for
SentencePiece-style vocabularies) is computed first, and only when even the bound passes the cap are
the premises tokenized to count exactly.
"""

from __future__ import annotations

from groundwatch.scorers.nli.encoding import Pair, PairEncoder


def _lengths(encoder: PairEncoder, texts: list[str]) -> dict[str, int]:
    unique = list(dict.fromkeys(texts))
    return {t: len(e.ids) for t, e in zip(unique, encoder.tokenizer.encode_batch(unique, add_special_tokens=False))}


def _windows(encoder: PairEncoder, pairs: list[Pair], premise_tokens, claim_tokens: dict[str, int]) -> int:
    # window_starts grows with the premise's length, so an upper bound on tokens bounds the windows
    return sum(len(encoder.window_starts(premise_tokens(p), claim_tokens[c])[0]) for p, c in pairs)


def windows_over(encoder: PairEncoder, pairs: list[Pair], cap: int) -> int | None:
    """The number of model inputs `pairs` make when it is more than `cap`, else None."""
    claims = _lengths(encoder, [c for _, c in pairs])
    if _windows(encoder, pairs, lambda p: len(p.encode("utf-8")) + len(p.split()), claims) <= cap:
        return None
    n = _windows(encoder, pairs, _lengths(encoder, [p for p, _ in pairs]).__getitem__, claims)
    return n if n > cap else None
