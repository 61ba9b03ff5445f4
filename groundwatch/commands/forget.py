"""groundwatch forget: delete one request's or one tenant's verdicts from every index."""

from __future__ import annotations

from groundwatch.commands.common import fail, opensearch_settings


def register(sub) -> None:
    p = sub.add_parser("forget", help="delete a request's or a tenant's verdicts across all verdict indices")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--request-id", help="every stored verdict (all scorer versions) of this request")
    who.add_argument("--tenant", help="every stored verdict whose metadata.tenant is this")
    p.add_argument("--before", metavar="DATE",
                   help="only verdicts of responses before this date or time (ISO 8601, UTC when no zone)")
    p.add_argument("--dry-run", action="store_true", help="count what would be deleted, delete nothing")
    p.add_argument("--config", help="JSON settings file (GROUNDWATCH_* environment variables override it)")
    p.add_argument("--opensearch-url", help="default: opensearch.url from the settings")
    p.add_argument("--alias", help="default: opensearch.alias from the settings")
    p.set_defaults(func=run)


def run(args) -> int:
    from datetime import timezone

    from groundwatch.export.forget import ForgetError, ForgetRequest, forget
    from groundwatch.export.opensearch_client import connect
    from groundwatch.scorers.times import parse_time

    before = None
    if args.before:
        before = parse_time(args.before)
        if before is None:
            return fail(f"--before {args.before!r}: expected an ISO 8601 date or time")
        before = before if before.tzinfo else before.replace(tzinfo=timezone.utc)
    request = ForgetRequest(request_id=args.request_id, tenant=args.tenant, before=before)
    section = opensearch_settings(args)
    try:
        report = forget(connect(section), section.alias, request, dry_run=args.dry_run)
    except ForgetError as exc:
        return fail(f"{exc} (url {section.url})")
    verb = "would delete" if report.dry_run else "deleted"
    print(f"{verb} {report.total} verdict documents of {request.describe()} under {section.alias!r}"
          + ("" if report.dry_run else f" ({report.method})"))
    for index, n in sorted(report.deleted.items()):
        print(f"  {index}: {n}")
    return 0
