"""Per-claim features for the verdict combiner, from what the pipeline already computes.

Everything here is model-agnostic: the NLI probabilities of each premise (any
3-way model), the premises' retrieval scores and texts, the free checks and
guards recorded on the claim, and the claim itself. The same function runs in
the live pipeline and on stored verdict records, so a combiner fitted on saved
verdicts sees exactly the numbers the pipeline will compute.

"Top evidence" is the premise with the highest entailment (ties: higher retrieval score, a single
chunk before a pair, then passage id and offsets).
Coverage of a claim with nothing to cover (no entities, no numbers) is 1.
"""

from __future__ import annotations

import math
import re
from typing import Mapping, Sequence

from groundwatch.scorers.english.quantities import passage_quantities, quantities
from groundwatch.scorers.records import Check, Evidence
from groundwatch.scorers.english.text import content_words, tokens

# Free checks (scorers/guards/checks.py) and guards (scorers/guards/): failed_<name> is 1 when the check ran and
# failed, passed_<name> when it ran and passed; both 0 when it did not apply.
CHECK_NAMES = ("quote", "numbers", "citation", "polarity", "dropped_condition", "arithmetic")

FEATURES: tuple[str, ...] = (
    "ent_max", "ent_mean", "ent_top2", "ent_max_logit",
    "con_max", "con_mean", "con_top2",
    "neu_max", "neu_mean", "neu_top2",
    "ent_chunk_max", "ent_pair_max", "ent_pair_gain",
    "con_of_top", "neu_of_top",
    "lex_cov_top", "lex_cov_all", "ent_cov_top", "ent_cov_all", "num_cov_top", "num_cov_all",
    "claim_has_number", "claim_has_entity",
    *(f"failed_{name}" for name in CHECK_NAMES), *(f"passed_{name}" for name in CHECK_NAMES),
    "rs_max", "rs_mean", "rs_of_top",
    "claim_words_log", "top_words_log", "n_premises", "context_words_log",
)

_ENTITY = re.compile(r"\b[A-Z][\w'’.-]*[A-Za-z]")
_LOGIT_CLIP = 1e-4


def evidence_text(e: Evidence, passages: Mapping[str, str]) -> str:
    """The premise as scored: its chunk, or two chunks joined by a space."""
    parts = []
    for pid, (start, end) in zip(e.passage_ids, e.offsets):
        text = passages.get(pid)
        if text is not None:
            parts.append(text[start:end])
    return " ".join(parts)


def entities(text: str) -> set[str]:
    """Capitalised words that do not open a sentence, lower-cased (a crude, model-free name finder)."""
    out = set()
    for m in _ENTITY.finditer(text):
        before = text[:m.start()].rstrip()
        if not before or before[-1] in ".!?:\"“":
            continue
        out.add(m.group(0).lower().rstrip("."))
    return out


def _stats(values: Sequence[float]) -> tuple[float, float, float]:
    if not values:
        return 0.0, 0.0, 0.0
    ordered = sorted(values, reverse=True)
    return ordered[0], sum(values) / len(values), ordered[1] if len(ordered) > 1 else 0.0


def _share(wanted: set, found) -> float:
    if not wanted:
        return 1.0
    return sum(1 for w in wanted if found(w)) / len(wanted)


def _logit(p: float) -> float:
    p = min(1.0 - _LOGIT_CLIP, max(_LOGIT_CLIP, p))
    return math.log(p / (1.0 - p))


def claim_features(claim: str, evidence: Sequence[Evidence], checks: Sequence[Check],
                   passages: Mapping[str, str]) -> dict[str, float]:
    """The feature vector of one claim, by name (order: FEATURES)."""
    ent = [e.entailment for e in evidence]
    con = [e.contradiction for e in evidence]
    neu = [e.neutral for e in evidence]
    f: dict[str, float] = {}
    f["ent_max"], f["ent_mean"], f["ent_top2"] = _stats(ent)
    f["ent_max_logit"] = _logit(f["ent_max"])
    f["con_max"], f["con_mean"], f["con_top2"] = _stats(con)
    f["neu_max"], f["neu_mean"], f["neu_top2"] = _stats(neu)
    f["ent_chunk_max"] = max((e.entailment for e in evidence if e.kind == "chunk"), default=0.0)
    f["ent_pair_max"] = max((e.entailment for e in evidence if e.kind == "pair"), default=0.0)
    f["ent_pair_gain"] = max(0.0, f["ent_pair_max"] - f["ent_chunk_max"])

    # Ties broken on fields, not list order: stored records keep evidence in another order than the pipeline.
    top = min(evidence, key=lambda e: (-e.entailment, -e.retrieval_score, e.kind, tuple(e.passage_ids),
                                       tuple(map(tuple, e.offsets)))) if evidence else None
    f["con_of_top"] = top.contradiction if top else 0.0
    f["neu_of_top"] = top.neutral if top else 0.0
    top_text = evidence_text(top, passages) if top else ""
    all_text = " ".join(evidence_text(e, passages) for e in evidence if e.kind == "chunk")

    words = content_words(claim)
    top_words, all_words = set(tokens(top_text)), set(tokens(all_text))
    f["lex_cov_top"] = _share(words, top_words.__contains__) if evidence else 0.0
    f["lex_cov_all"] = _share(words, all_words.__contains__) if evidence else 0.0
    names = entities(claim)
    f["ent_cov_top"] = _share(names, lambda n: all(t in top_words for t in tokens(n))) if evidence else 0.0
    f["ent_cov_all"] = _share(names, lambda n: all(t in all_words for t in tokens(n))) if evidence else 0.0
    numbers = set(quantities(claim))
    top_q, all_q = passage_quantities([top_text]), passage_quantities([all_text])
    f["num_cov_top"] = _share(numbers, top_q.__contains__) if evidence else 0.0
    f["num_cov_all"] = _share(numbers, all_q.__contains__) if evidence else 0.0
    f["claim_has_number"] = float(bool(numbers))
    f["claim_has_entity"] = float(bool(names))

    failed = {c.name for c in checks if not c.passed}
    passed = {c.name for c in checks if c.passed} - failed
    for name in CHECK_NAMES:
        f[f"failed_{name}"] = float(name in failed)
        f[f"passed_{name}"] = float(name in passed)

    rs = [e.retrieval_score for e in evidence]
    f["rs_max"] = max(rs, default=0.0)
    f["rs_mean"] = sum(rs) / len(rs) if rs else 0.0
    f["rs_of_top"] = top.retrieval_score if top else 0.0
    f["claim_words_log"] = math.log1p(len(claim.split()))
    f["top_words_log"] = math.log1p(len(top_text.split()))
    f["n_premises"] = float(len(evidence))
    f["context_words_log"] = math.log1p(sum(len(text.split()) for text in passages.values()))
    return f


def feature_vector(features: Mapping[str, float], names: Sequence[str] = FEATURES) -> list[float]:
    return [float(features[n]) for n in names]
