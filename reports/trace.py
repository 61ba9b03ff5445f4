"""The explanation of one request's stored verdict, found through the alias."""

from __future__ import annotations

from reports.explain import render
from reports.verdict_store import find_by_request_id


class VerdictNotFound(LookupError):
    pass


def trace(client, alias: str, request_id: str) -> str:
    """The newest scorer version's explanation, then a line per older version stored."""
    docs = find_by_request_id(client, alias, request_id)
    if not docs:
        raise VerdictNotFound(f"no verdict for request_id {request_id!r} under {alias!r}")
    text = render(docs[0])
    if len(docs) > 1:
        others = [f"  scorer {d.get('scorer_version')} (model {d.get('model')}), scored {d.get('scored_at')}"
                  for d in docs[1:]]
        text += f"\n\nalso stored, older scorer versions ({len(others)}):\n" + "\n".join(others)
    return text
