"""The explanation of stored verdicts, found through the alias: by request id, by claim text or
by passage id, whatever monthly index they sit in."""

from __future__ import annotations

from groundwatch.reports.explain import render
from groundwatch.reports.verdict_store import find_by_claim_text, find_by_passage_id, find_by_request_id


class VerdictNotFound(LookupError):
    pass


def trace(client, alias: str, request_id: str, all_versions: bool = False) -> str:
    """The newest scorer version's explanation, then a line per older version stored (its claim
    verdicts tallied); with `all_versions`, every version explained in full, newest first."""
    docs = find_by_request_id(client, alias, request_id)
    if not docs:
        raise VerdictNotFound(f"no verdict for request_id {request_id!r} under {alias!r}")
    if all_versions:
        head = f"{len(docs)} scorer version{'s' if len(docs) != 1 else ''} of request {request_id}, newest first:"
        return head + "\n" + "\n".join(_version_line(d) for d in docs) + "\n\n" + "\n\n".join(render(d) for d in docs)
    text = render(docs[0])
    if len(docs) > 1:
        others = [_version_line(d) for d in docs[1:]]
        text += f"\n\nalso stored, older scorer versions ({len(others)}):\n" + "\n".join(others)
    return text


def _version_line(d: dict) -> str:
    tally: dict[str, int] = {}
    for claim in d.get("claims") or []:
        tally[claim.get("verdict")] = tally.get(claim.get("verdict"), 0) + 1
    claims = ", ".join(f"{n} {verdict}" for verdict, n in sorted(tally.items(), key=lambda x: str(x[0]))) or "no claims"
    return f"  scorer {d.get('scorer_version')} (model {d.get('model')}), scored {d.get('scored_at')}: {claims}"


def _matches(docs: list[dict], what: str, alias: str) -> str:
    if not docs:
        raise VerdictNotFound(f"no verdict with {what} under {alias!r}")
    head = [f"{len(docs)} verdict{'s' if len(docs) != 1 else ''} with {what}, newest first:"]
    head += [f"  {d.get('request_id')}  (time {d.get('timestamp') or '-'}, scorer {d.get('scorer_version')})"
             for d in docs]
    return "\n".join(head) + "\n\n" + "\n\n".join(render(d) for d in docs)


def trace_claim(client, alias: str, claim_text: str, limit: int = 10) -> str:
    """Every stored verdict (up to `limit`) with a claim containing `claim_text`, explained."""
    return _matches(find_by_claim_text(client, alias, claim_text, limit), f"a claim matching {claim_text!r}", alias)


def trace_passage(client, alias: str, passage_id: str, limit: int = 10) -> str:
    """Every stored verdict (up to `limit`) that retrieved, or was judged on, `passage_id`, explained."""
    return _matches(find_by_passage_id(client, alias, passage_id, limit), f"passage {passage_id!r}", alias)
