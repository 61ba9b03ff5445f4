"""Documents logged without their text: looked up by id, else left out and said so in the verdict.

Never a silent SUPPORTED: a response whose documents lack text is scored on the passages that
have it (none at all leaves every claim NOT_ENOUGH_INFO), its metadata lists the ids whose text
was missing, and its verdict carries the flag `passage_text_missing`.
"""

from __future__ import annotations

from groundwatch.config.logs import get_logger

log = get_logger(__name__)

FLAG = "passage_text_missing"
FIELD = "passages_without_text"  # metadata: the ids of the documents scored without their text


def fill_missing_text(records: list[dict], store=None) -> None:
    """Fill each record's text-less passages from `store` (ids -> texts) where it has them; move the
    rest from `passages` to `metadata.passages_without_text`."""
    wanted = sorted({p["id"] for r in records for p in r["passages"] if p.get("text") is None})
    if not wanted:
        return
    found: dict[str, str] = {}
    if store is not None:
        try:
            found = store.texts(wanted)
        except Exception as exc:  # noqa: BLE001 - an unreachable store leaves the text missing, flagged
            log.warning("passage_store_failed", error_class=type(exc).__name__, ids=len(wanted))
    for record in records:
        kept, missing = [], []
        for passage in record["passages"]:
            if passage.get("text") is None and passage["id"] in found:
                passage = {**passage, "text": found[passage["id"]]}
            (missing.append(passage["id"]) if passage.get("text") is None else kept.append(passage))
        if missing:
            record["passages"] = kept
            record["metadata"][FIELD] = missing


def flag_missing_text(verdict) -> None:
    """Add the flag to a verdict (or leave a ScoringError alone) whose response lacked passage text."""
    metadata = getattr(verdict, "metadata", None) or {}
    if metadata.get(FIELD) and FLAG not in verdict.flags:
        verdict.flags.append(FLAG)
