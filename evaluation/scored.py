"""Score once, decide many times.

The model runs once per response; each claim keeps its raw evidence (NLI
probabilities and retrieval score per premise) and its free-check results.
Any other thresholds, or the same run without free checks or without the
pairwise premises, are then re-decided with `scorers.verdicts.decide.decide` on the
stored evidence, with no model call. Dropping the checks equals a run with
free_checks off, and dropping the "pair" premises equals pair_top 0: neither
changes which single chunks are retrieved or how they score.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from groundwatch.evaluation.dataset import Labelled
from groundwatch.scorers.verdicts.combiner import Combiner, claim_features
from groundwatch.scorers.verdicts.decide import decide
from groundwatch.scorers.errors import ScoringError
from groundwatch.scorers.files import output_path
from groundwatch.scorers.guards.evidence import EvidenceSentence
from groundwatch.scorers.guards.stage import GUARD_CHECKS, without_guards
from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.scorers.records import Check, ClaimVerdict, Evidence, Verdict
from groundwatch.scorers.verdicts.thresholds import Thresholds


@dataclass
class StoredClaim:
    verdict: Verdict  # as decided in the scoring run
    evidence: list[Evidence]
    checks: list[Check]
    flags: list[str]
    text: str = ""  # the claim (the combiner's features need it)
    # The larger model's reading where a second opinion re-scored the claim; its per-premise scores are not
    # stored, so such a claim keeps the verdict the run gave it under any variant.
    second_opinion: dict | None = None

    @property
    def skipped(self) -> bool:
        return self.verdict is Verdict.SKIPPED

    @classmethod
    def from_verdict(cls, c: ClaimVerdict) -> "StoredClaim":
        return cls(c.verdict, list(c.evidence), list(c.checks), list(c.flags), c.text, _rescored(c.second_opinion))

    @classmethod
    def from_dict(cls, d: dict) -> "StoredClaim":
        evidence = [Evidence(e["passage_ids"], [tuple(o) for o in e["offsets"]], e["entailment"], e["neutral"],
                             e["contradiction"], e["retrieval_score"], e.get("kind", "chunk"), e.get("rank"))
                    for e in d.get("evidence", [])]
        checks = [Check(c["name"], c["passed"], c.get("detail", ""), c.get("verdict"), c.get("flag"),
                        EvidenceSentence(**c["evidence"]) if c.get("evidence") else None, c.get("found") or {})
                  for c in d.get("checks", [])]
        return cls(Verdict(d["verdict"]), evidence, checks, list(d.get("flags", [])), d.get("text", ""),
                   _rescored(d.get("second_opinion")))


def _rescored(second_opinion: dict | None) -> dict | None:
    """The second opinion where it decided the claim (outcome rescored), else None."""
    return second_opinion if second_opinion and second_opinion.get("outcome") == "rescored" else None


@dataclass
class Scored:
    item: Labelled
    claims: list[StoredClaim] = field(default_factory=list)
    error: str | None = None


@dataclass(frozen=True)
class Variant:
    """How to re-decide: thresholds (or a combiner), with or without free checks and pairwise premises."""

    thresholds: Thresholds
    free_checks: bool = True
    pairs: bool = True
    guards: bool = True  # False: as if every guard was off (scorers/guards)
    combiner: Combiner | None = None  # verdict_rule combiner; tau_c of `thresholds` still decides contradiction
    top_k: int | None = None     # keep the first top_k chunks as retrieved (None: all that were scored)
    pair_top: int | None = None  # keep pairs of the first pair_top chunks (None: all that were scored)


@dataclass(frozen=True)
class Prediction:
    unsupported: bool  # any checked claim not SUPPORTED
    three_way: str     # contradicted > not_enough_info > supported
    score: float       # 1 - minimum over checked claims of the best entailment (combiner: of P(supported))


def claim_decision(claim: StoredClaim, variant: Variant,
                   passages: dict[str, str] | None = None) -> tuple[Verdict, list[str], float]:
    """Verdict, flags and support (best entailment, or the combiner's P(supported)) of one stored claim."""
    if claim.skipped:
        return Verdict.SKIPPED, claim.flags, 1.0
    if claim.second_opinion is not None:  # the larger model decided it; its premises' scores are not kept
        return claim.verdict, claim.flags, claim.second_opinion["entailment"]
    evidence = premises(claim, variant)
    checks = claim.checks if variant.free_checks else [c for c in claim.checks if c.name in GUARD_CHECKS]
    checks = checks if variant.guards else without_guards(checks)
    support, supported = max((e.entailment for e in evidence), default=0.0), None
    if variant.combiner is not None:
        support = variant.combiner.probability(claim_features(claim.text, evidence, checks, passages or {}))
        supported = support >= variant.combiner.threshold
    verdict, flags = decide(evidence, checks, variant.thresholds, supported)
    return verdict, flags, support


def premises(claim: StoredClaim, variant: Variant) -> list[Evidence]:
    """The stored premises a run with the variant's top_k / pair_top (or without pairs) would have scored.

    top_k keeps a prefix of the retrieval order and pairs join the first pair_top of those chunks,
    so a smaller setting scores a subset of a larger one's premises: the chunks of rank < top_k and
    the pairs whose two chunks both rank < min(top_k, pair_top). The sentence premise was chosen among
    all the scored chunks: it is kept while a kept chunk holds it (a fresh run with the smaller top_k
    could have chosen another sentence, so for it the re-decision approximates).
    """
    pair_top = 0 if not variant.pairs else variant.pair_top
    if variant.top_k is None and pair_top is None:
        return claim.evidence
    if variant.top_k is None and pair_top == 0:
        return [e for e in claim.evidence if e.kind != "pair"]
    chunks = [e for e in claim.evidence if e.kind == "chunk"]
    if any(e.rank is None for e in chunks):
        raise ValueError("these verdict records carry no premise ranks; re-score them to vary top_k or pair_top")
    rank = {(e.passage_ids[0], tuple(e.offsets[0])): e.rank for e in chunks}
    top_k = variant.top_k if variant.top_k is not None else len(chunks)
    limit = min(top_k, pair_top if pair_top is not None else top_k)
    out = [e for e in chunks if e.rank < top_k]
    kept = [(e.passage_ids[0], e.offsets[0]) for e in out]
    for e in claim.evidence:
        if e.kind == "pair":
            ranks = [rank.get((pid, tuple(o))) for pid, o in zip(e.passage_ids, e.offsets)]
            if all(r is not None and r < limit for r in ranks):
                out.append(e)
        elif e.kind == "sentence":  # chosen among all scored chunks: kept while a kept chunk holds it
            if any(pid == e.passage_ids[0] and o[0] <= e.offsets[0][0] < o[1] for pid, o in kept):
                out.append(e)
    return out


def claim_verdict(claim: StoredClaim, variant: Variant,
                  passages: dict[str, str] | None = None) -> tuple[Verdict, list[str]]:
    verdict, flags, _ = claim_decision(claim, variant, passages)
    return verdict, flags


def passage_texts(scored: Scored) -> dict[str, str]:
    return {p.id: p.text for p in scored.item.response.passages}


def predict(scored: Scored, variant: Variant) -> Prediction:
    verdicts, entailments = [], []
    texts = passage_texts(scored) if variant.combiner is not None else None
    for claim in scored.claims:
        if claim.skipped:
            continue
        verdict, _, support = claim_decision(claim, variant, texts)
        verdicts.append(verdict)
        entailments.append(support)
    if Verdict.CONTRADICTED in verdicts:
        three = "contradicted"
    elif Verdict.NOT_ENOUGH_INFO in verdicts:
        three = "not_enough_info"
    else:
        three = "supported"
    return Prediction(three != "supported", three, 1.0 - min(entailments, default=1.0))


def score_all(scorer, items: list[Labelled], batch: int = 32, progress: bool = False,
              verdicts_out: str | Path | None = None) -> list[Scored]:
    """Run the real pipeline once over every response; optionally keep the verdict records."""
    from tqdm import tqdm

    out: list[Scored] = []
    sink = open(output_path(verdicts_out), "w", encoding="utf-8") if verdicts_out else None
    try:
        with tqdm(total=len(items), unit="resp", disable=not progress, file=sys.stderr) as bar:
            for start in range(0, len(items), batch):
                chunk = items[start:start + batch]
                for item, result in zip(chunk, scorer.score([i.response for i in chunk])):
                    if isinstance(result, ScoringError):
                        out.append(Scored(item, error=str(result)))
                    else:
                        out.append(Scored(item, [StoredClaim.from_verdict(c) for c in result.claims]))
                        if sink:
                            sink.write(json.dumps(result.to_dict()) + "\n")
                    bar.update(1)
    finally:
        if sink:
            sink.close()
    return out


def load_scored(items: list[Labelled], verdicts_path: str | Path) -> list[Scored]:
    """Pair labelled items with verdict records written earlier (`groundwatch score` output)."""
    by_id: dict[str, dict] = {}
    for _, record in read_jsonl(verdicts_path):
        by_id[record["request_id"]] = record
    out = []
    for item in items:
        record = by_id.get(item.request_id)
        if record is None:
            out.append(Scored(item, error="no verdict record for this request_id"))
        else:
            out.append(Scored(item, [StoredClaim.from_dict(c) for c in record["claims"]]))
    return out
