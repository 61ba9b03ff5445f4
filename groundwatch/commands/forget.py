"""groundwatch forget: delete one request's or one tenant's verdicts from every index."""

from __future__ import annotations

from groundwatch.commands.common import add_config_arg, add_opensearch_args, fail, opensearch_settings, settings_from


def register(sub) -> None:
    p = sub.add_parser("forget", help="delete a request's or a tenant's verdicts across all verdict indices")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--request-id", help="every stored verdict (all scorer versions) of this request")
    who.add_argument("--tenant", help="every stored verdict whose metadata.tenant is this")
    apps = p.add_mutually_exclusive_group()
    apps.add_argument("--app", help="only this app's verdicts (\"\" for verdicts without an app); needed when "
                                    "several apps reuse the request id")
    apps.add_argument("--all-apps", action="store_true",
                      help="a request id stored for several apps: delete every app's verdicts")
    p.add_argument("--before", metavar="DATE",
                   help="only verdicts of responses before this date or time (ISO 8601, UTC when no zone; "
                        "default: all)")
    p.add_argument("--dry-run", action="store_true", help="count what would be deleted, delete nothing")
    add_config_arg(p)
    add_opensearch_args(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from datetime import timezone

    from groundwatch.export.forget import ForgetError, ForgetRequest, SharedRequestId, forget, kept_elsewhere
    from groundwatch.export.opensearch_client import connect
    from groundwatch.scorers.times import parse_time

    before = None
    if args.before:
        before = parse_time(args.before)
        if before is None:
            return fail(f"--before {args.before!r}: expected an ISO 8601 date or time")
        before = before if before.tzinfo else before.replace(tzinfo=timezone.utc)
    request = ForgetRequest(request_id=args.request_id, tenant=args.tenant, before=before, app=args.app,
                            all_apps=args.all_apps)
    settings = settings_from(args)
    section = opensearch_settings(args)
    try:
        report = forget(connect(section), section.alias, request, dry_run=args.dry_run)
    except SharedRequestId as exc:
        return fail(str(exc))
    except ForgetError as exc:
        return fail(f"{exc} (url {section.url})")
    verb = "would delete" if report.dry_run else "deleted"
    print(f"{verb} {report.total} verdict documents of {request.describe()} under {section.alias!r}"
          + ("" if report.dry_run else f" ({report.method})"))
    for index, n in sorted(report.deleted.items()):
        print(f"  {index}: {n}")
    if args.app is None and any(report.apps):
        print("by app: " + ", ".join(f"{app or '(none)'} {n}" for app, n in sorted(report.apps.items())))
    # Not in the verdict store, so not deleted here: say where copies remain (docs/reliability.md: purging).
    print("not deleted by forget (see docs/reliability.md, Forgetting):")
    for line in kept_elsewhere(settings.kafka, settings.alerts):
        print(f"  {line}")
    return 0
