"""Output records: one ResponseVerdict per response, one ClaimVerdict per claim."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum

from groundwatch.scorers.guards.evidence import EvidenceSentence
from groundwatch.scorers.identity import document_id


class Verdict(str, Enum):
    SUPPORTED = "SUPPORTED"
    CONTRADICTED = "CONTRADICTED"
    NOT_ENOUGH_INFO = "NOT_ENOUGH_INFO"
    SKIPPED = "SKIPPED"


@dataclass(frozen=True)
class NLIScores:
    entailment: float
    neutral: float
    contradiction: float


@dataclass
class Evidence:
    """One premise the claim was scored against: a chunk, or two chunks joined."""

    passage_ids: list[str]
    offsets: list[tuple[int, int]]
    entailment: float
    neutral: float
    contradiction: float
    retrieval_score: float
    kind: str = "chunk"  # "chunk" or "pair" (concatenation of two top chunks)
    # Position among the claim's premises as retrieved: the top_k chunks in rank order, then the pairs.
    # Lets a saved record be re-decided for a smaller top_k / pair_top (evaluation/scored.py).
    rank: int | None = None


@dataclass
class Check:
    name: str  # free checks: "quote", "numbers", "citation"; "readable" (scorers/pipeline.py); guards: "polarity",
    #            "dropped_condition", "arithmetic"
    passed: bool
    detail: str = ""
    # What a failed check asks for: None or NOT_ENOUGH_INFO caps SUPPORTED at NOT_ENOUGH_INFO; CONTRADICTED
    # counts only with a verified mismatch in `found` (scorers/guards/mismatch.py, scorers/verdicts/decide.py).
    verdict: str | None = None
    flag: str | None = None   # "polarity_mismatch", "dropped_condition", "arithmetic_mismatch"
    evidence: EvidenceSentence | None = None  # the sentence a guard looked at (passage id + offsets)
    found: dict = field(default_factory=dict)  # what fired: negation words, condition text, computation


@dataclass
class ClaimVerdict:
    index: int
    text: str
    span: tuple[int, int]
    severity: str
    verdict: Verdict
    entailment: float = 0.0
    contradiction: float = 0.0
    reason: str = ""
    evidence: list[Evidence] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    # The sentence(s) of the deciding chunk that align best with the claim (a guard's sentence first when it fired).
    evidence_sentences: list[EvidenceSentence] = field(default_factory=list)
    # Per-claim lookup in the knowledge base (scorers/evidence/corpus_check.py), when it ran: outcome
    # (retrieval_miss | unsupported_by_corpus | skipped), the corpus evidence ids and their best scores.
    corpus: dict | None = None
    # The LLM judge's review (scorers/verdicts/judge/), when the judge is enabled and the claim was in its band:
    # outcome, the judge's verdict and reason, its raw reply, the small model's verdict. Absent otherwise.
    judge: dict | None = None
    # The larger model's re-reading (scorers/verdicts/second_opinion.py), when scorer.second_opinion is set and the
    # claim was escalated: why, its outcome, its verdict and best scores, the small model's verdict. Absent otherwise.
    second_opinion: dict | None = None

    @property
    def scored(self) -> bool:
        return self.verdict is not Verdict.SKIPPED


@dataclass
class ContextConflict:
    """Two retrieved chunks that contradict each other about what a claim concerns."""

    passage_ids: list[str]
    sentences: list[str]
    contradiction: float  # NLI, the higher of the two directions
    claim_index: int
    signals: list[str] = field(default_factory=lambda: ["nli"])  # value_mismatch, polarity, obligation, nli
    key: str | None = None         # entity | attribute the values disagree on (value mismatch)
    values: list[str] = field(default_factory=list)  # the two values as written
    similarities: list[float] = field(default_factory=list)  # claim<->chunk cosine of each chunk
    # top / mean / variance / n of the claim<->chunk cosines over the claim's chunks (None without embeddings)
    claim_similarity: dict[str, float | None] = field(default_factory=dict)


@dataclass
class StaleEvidence:
    """A claim's supporting passage is older than another passage or known document that gives the
    same entity-attribute key a different value (scorers/evidence/stale.py)."""

    claim_index: int
    key: str
    passage_id: str            # the supporting, older passage
    updated_at: str
    value: str                 # as written there
    newer_id: str              # the newer passage (or corpus document)
    newer_updated_at: str
    newer_value: str
    source: str = "retrieved"  # retrieved | corpus


@dataclass
class ResponseSummary:
    all_supported: bool
    score: float
    counts: dict[str, int]
    high_severity_unsupported: int
    retrieval: dict[str, float | None]


@dataclass
class PolicyDecision:
    """What to do with the answer (scorers/verdicts/policy.py): pass | log | hedge | strip | block, and why.

    `claims` are the claims that decided the action; `stripped` the claims whose spans a
    `strip` removes. `reason` names verdicts, severities and the rule, never claim text.
    """

    action: str
    rule: str
    reason: str
    claims: list[int] = field(default_factory=list)
    stripped: list[int] = field(default_factory=list)


@dataclass
class ResponseVerdict:
    request_id: str
    scorer_version: str
    model: str
    scored_at: str
    timestamp: str | None
    metadata: dict
    response: ResponseSummary
    claims: list[ClaimVerdict]
    flags: list[str] = field(default_factory=list)
    context_conflicts: list[ContextConflict] = field(default_factory=list)
    gold_passage_ids: list[str] | None = None
    passage_ids: list[str] = field(default_factory=list)
    # The retrieved passages as scored, so an evidence trace survives corpus changes.
    passages: list[dict] = field(default_factory=list)
    action: PolicyDecision | None = None  # None: no policy applied
    stale_evidence: list[StaleEvidence] = field(default_factory=list)
    # Question<->answer relevance (scorers/verdicts/relevance.py): similarity, threshold, off_topic; None without a question
    relevance: dict | None = None
    # What was judged (scorers/identity.py content_hash): two different responses under one request id differ
    content_hash: str | None = None

    @property
    def doc_id(self) -> str:
        # Deterministic per (app, tenant, request, version, content): a replay overwrites its own document only.
        meta = self.metadata or {}
        return document_id(meta.get("app"), meta.get("tenant"), self.request_id, self.scorer_version,
                           self.content_hash)

    def to_dict(self) -> dict:
        return asdict(self, dict_factory=_plain)


# Optional fields left out of a record while unset, so a record without them is what it was before they existed.
OMITTED_WHEN_NONE = frozenset({"judge", "second_opinion", "content_hash"})


def _plain(items):
    return {k: (v.value if isinstance(v, Enum) else v) for k, v in items
            if not (v is None and k in OMITTED_WHEN_NONE)}
