"""Run a corpus audit: stream documents once, then find conflicts, versions and quality problems."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from typing import Iterable

from groundwatch.audit.conflicts import Conflict, PairChecker, group_conflicts
from groundwatch.audit.documents import Document, batches
from groundwatch.audit.grouping import Grouping
from groundwatch.audit.quality import DuplicateFinder, Issue, document_issues
from groundwatch.audit.score import Charge, ConsistencyScore, consistency
from groundwatch.audit.versions import VersionFamily, VersionFinder


@dataclass(frozen=True)
class AuditConfig:
    chunk_size: int = 256             # documents per streamed chunk
    neighbours: int = 8               # embedding neighbours per statement
    min_similarity: float = 0.6       # cosine at which neighbours become candidates
    max_key_group: int = 5000         # statements compared per fact key
    exact_limit: int = 20_000         # above this many statements, faiss HNSW instead of exact search
    tau_reverse: float = 0.5          # NLI contradiction the other direction must reach too
    version_overlap: float = 0.6
    title_overlap: float = 0.3
    near_duplicate: float = 0.8
    min_paragraph_words: int = 8
    short_words: int = 20
    weights: dict = field(default_factory=lambda: {"intra": 0.5, "inter": 0.5})
    progress: bool = True
    expected_documents: int | None = None  # when known (a file read once up front): the bar shows n/total


@dataclass
class AuditReport:
    corpus: dict                      # documents, statements, facts, candidates, NLI pairs, index kind, seconds
    score: ConsistencyScore
    conflicts: list[Conflict]         # across documents
    internal_contradictions: list[Conflict]
    versions: list[VersionFamily]
    issues: list[Issue]               # empty / very short / truncated / duplicated passages


def audit_corpus(documents: Iterable[Document], scorer=None, config: AuditConfig = AuditConfig(),
                 workdir: str | None = None) -> AuditReport:
    """`scorer` (a pipeline Scorer) brings the NLI pair scorer and the embedder; None: model-free checks only."""
    from tqdm import tqdm

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="groundwatch-audit-", dir=workdir) as tmp:
        embedder = scorer.embedder if scorer is not None else None
        grouping = Grouping(tmp, embedder, config.exact_limit)
        versions = VersionFinder(config.version_overlap, config.title_overlap)
        duplicates = DuplicateFinder(config.min_paragraph_words, config.near_duplicate)
        issues: list[Issue] = []
        doc_ids: list[str] = []
        with tqdm(desc="documents", unit="doc", total=config.expected_documents, disable=not config.progress) as bar:
            for chunk in batches(documents, config.chunk_size):
                for doc in chunk:
                    doc_ids.append(doc.doc_id)
                    issues.extend(document_issues(doc, config.short_words))
                    versions.add(doc)
                    duplicates.add(doc)
                grouping.add(chunk)
                bar.update(len(chunk))
        grouping.finish()
        candidates = list(grouping.candidates(config.neighbours, config.min_similarity,
                                              config.max_key_group).values())
        tau = scorer.thresholds.tau_contradiction if scorer is not None else 1.0
        checker = PairChecker(scorer.pairs if scorer is not None else None, tau, config.tau_reverse)
        with tqdm(total=len(candidates), desc="statement pairs", unit="pair", disable=not config.progress) as bar:
            findings = checker.check(grouping.store, candidates, bar)
        grouped = group_conflicts(findings, grouping.store)
        families = versions.families(grouping.store)
        issues.extend(duplicates.issues([{d["doc_id"] for d in f.documents} for f in families]))
        store = grouping.store
        corpus = {"documents": len(doc_ids), "statements": store.count, "candidate_pairs": len(candidates),
                  "nli_pairs_scored": checker.scored,
                  "neighbour_index": grouping.index.kind if grouping.index else None,
                  "nli": scorer.model if scorer is not None else None}
        grouping.close()
    inter = [c for c in grouped if c.kind == "inter"]
    intra = [c for c in grouped if c.kind == "intra"]
    _mark_superseded(inter, families)
    score = consistency(doc_ids, _charges(issues, inter, intra, families), config.weights)
    corpus["seconds"] = round(time.perf_counter() - started, 2)
    return AuditReport(corpus, score, inter, intra, families, issues)


def _mark_superseded(conflicts: list[Conflict], families: list[VersionFamily]) -> None:
    old = {d for f in families for d in f.superseded}
    for c in conflicts:
        c.superseded = [d for d in c.doc_ids if d in old]


def _charges(issues: list[Issue], inter: list[Conflict], intra: list[Conflict],
             families: list[VersionFamily]) -> list[Charge]:
    from groundwatch.audit.score import PENALTIES

    charges = []
    for issue in issues:
        reason = issue.kind if issue.kind != "duplicate_paragraph" else f"duplicate_paragraph:{issue.scope}"
        charges.extend(Charge(reason, d, PENALTIES[reason]) for d in issue.doc_ids)
    for c in inter:
        charges.extend(Charge("conflict", d, PENALTIES["conflict"]) for d in c.doc_ids)
    for c in intra:
        charges.extend(Charge("internal_contradiction", d, PENALTIES["internal_contradiction"]) for d in c.doc_ids)
    for f in families:
        charges.extend(Charge("superseded_version", d, PENALTIES["superseded_version"]) for d in f.superseded)
    return charges
