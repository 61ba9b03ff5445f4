"""The explanation of stored verdicts, found through the alias: by request id, by claim text or
by passage id, whatever monthly index they sit in."""

from __future__ import annotations

from groundwatch.reports.explain import render
from groundwatch.reports.verdict_store import find_by_claim_text, find_by_passage_id, find_by_request_id
from groundwatch.scorers.identity import app_of, tenant_of


class VerdictNotFound(LookupError):
    pass


def trace(client, alias: str, request_id: str, all_versions: bool = False, app: str | None = None) -> str:
    """The newest scorer version's explanation, then a line per older version stored (its claim
    verdicts tallied); with `all_versions`, every version explained in full, newest first. When
    several apps (or tenants) reuse the request id, each one's verdict, one after the other."""
    docs = find_by_request_id(client, alias, request_id, app)
    if not docs:
        within = f" of app {app!r}" if app is not None else ""
        raise VerdictNotFound(f"no verdict for request_id {request_id!r}{within} under {alias!r}")
    groups = by_owner(docs)
    if len(groups) == 1:
        return _trace_one(request_id, docs, all_versions)
    parts = [shared_head(request_id, groups)]
    parts += [f"{owner_line(owner)}\n{_trace_one(request_id, group, all_versions)}" for owner, group in groups.items()]
    return "\n\n".join(parts)


def by_owner(docs: list[dict]) -> dict[tuple[str, str], list[dict]]:
    """Records grouped by (app, tenant), in the order first seen (newest first when `docs` is)."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for d in docs:
        groups.setdefault((app_of(d), tenant_of(d)), []).append(d)
    return groups


def owner_line(owner: tuple[str, str]) -> str:
    app, tenant = owner
    return f"== app {app or '(none)'}" + (f", tenant {tenant}" if tenant else "") + " =="


def shared_head(request_id: str, groups: dict) -> str:
    apps = sorted({app or "(none)" for app, _ in groups})
    return (f"request {request_id} is stored for {len(groups)} apps or tenants ({', '.join(apps)}); "
            "each one's verdict follows (--app APP for one)")


def _trace_one(request_id: str, docs: list[dict], all_versions: bool) -> str:
    """One owner's verdicts; a request id sent with different responses shows each one's (newest first)."""
    contents: dict[str | None, list[dict]] = {}
    for d in docs:
        contents.setdefault(d.get("content_hash"), []).append(d)
    if len(contents) == 1:
        return _trace_versions(request_id, docs, all_versions)
    head = (f"request {request_id} was sent with {len(contents)} different responses "
            "(each stored, flagged conflicting_duplicate); each one's verdict follows, newest first")
    parts = [f"-- response {i} of {len(contents)} (content {content or 'unknown'}) --\n"
             + _trace_versions(request_id, group, all_versions) for i, (content, group) in enumerate(contents.items(), 1)]
    return "\n\n".join([head, *parts])


def _trace_versions(request_id: str, docs: list[dict], all_versions: bool) -> str:
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
    head += [f"  {d.get('request_id')}{_app_note(d)}  (time {d.get('timestamp') or '-'}, scorer {d.get('scorer_version')})"
             for d in docs]
    return "\n".join(head) + "\n\n" + "\n\n".join(render(d) for d in docs)


def trace_claim(client, alias: str, claim_text: str, limit: int = 10) -> str:
    """Every stored verdict (up to `limit`) with a claim containing `claim_text`, explained."""
    return _matches(find_by_claim_text(client, alias, claim_text, limit), f"a claim matching {claim_text!r}", alias)


def trace_passage(client, alias: str, passage_id: str, limit: int = 10) -> str:
    """Every stored verdict (up to `limit`) that retrieved, or was judged on, `passage_id`, explained."""
    return _matches(find_by_passage_id(client, alias, passage_id, limit), f"passage {passage_id!r}", alias)


def _app_note(d: dict) -> str:
    return f" [app {app_of(d)}]" if app_of(d) else ""
