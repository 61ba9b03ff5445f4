"""Response signals added after the verdicts: corpus lookups, stale evidence, off-topic answers.

`add_signals` runs once per scorer call, after every claim has its verdict and before
the action policy (so policy rules can match the new flags):
1. corpus lookups (scorers/evidence/corpus_check.py) for NOT_ENOUGH_INFO claims, when configured;
2. stale evidence (scorers/evidence/stale.py) against the other retrieved passages and the
   corpus documents found in step 1;
3. question<->answer relevance (scorers/verdicts/relevance.py), when the response has a question,
   the answer has at least `off_topic_min_words` words and the scorer has embeddings.
A signal that fails is left out for that response and logged; it never fails the response.
"""

from __future__ import annotations

from typing import Sequence

from groundwatch.config.logs import get_logger
from groundwatch.scorers.verdicts import relevance
from groundwatch.scorers.evidence import stale
from groundwatch.scorers.records import ResponseVerdict
from groundwatch.scorers.schema import Response

log = get_logger(__name__)


def _sources(response: Response, known) -> list[stale.Source]:
    out = [stale.Source(p.id, p.text, p.updated_at) for p in response.passages]
    seen = {s.id for s in out}
    out += [stale.Source(d.id, d.text, d.updated_at, "corpus") for d in known if d.id not in seen]
    return out


def add_signals(verdicts: Sequence, responses: Sequence[Response], config, *, embedder=None, corpus=None,
                deadline=None) -> None:
    """Fill stale_evidence, relevance and the corpus outcomes of `verdicts` (by position; errors skipped)."""
    live = [(v, r) for v, r in zip(verdicts, responses) if isinstance(v, ResponseVerdict)]
    if not live:
        return
    known: dict[int, list] = {}
    if corpus is not None:
        try:
            known = corpus.check([v for v, _ in live], deadline)
        except Exception as exc:  # noqa: BLE001 - an optional lookup never fails a response
            log.warning("signal_failed", signal="corpus", error=type(exc).__name__)
    if getattr(config, "stale_evidence", True):
        for v, r in live:
            try:
                v.stale_evidence = stale.find_stale(v.claims, _sources(r, known.get(id(v), [])))
                if v.stale_evidence and stale.FLAG not in v.flags:
                    v.flags.append(stale.FLAG)
            except Exception as exc:  # noqa: BLE001
                log.warning("signal_failed", signal="stale_evidence", request_id=v.request_id,
                            error=type(exc).__name__)
    if getattr(config, "off_topic", True) and embedder is not None:
        asked = [(v, r) for v, r in live if r.question and r.question.strip()
                 and len(r.answer.split()) >= config.off_topic_min_words]
        try:
            sims = relevance.similarities(embedder, [r.question for _, r in asked], [r.answer for _, r in asked])
        except Exception as exc:  # noqa: BLE001
            log.warning("signal_failed", signal="off_topic", error=type(exc).__name__)
            return
        for (v, _), sim in zip(asked, sims):
            v.relevance = relevance.assess(sim, config.off_topic_threshold)
            if v.relevance["off_topic"] and relevance.FLAG not in v.flags:
                v.flags.append(relevance.FLAG)
