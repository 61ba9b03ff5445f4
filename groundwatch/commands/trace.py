"""groundwatch trace: stored verdicts explained, from OpenSearch, by request id, claim text or passage id."""

from __future__ import annotations

from groundwatch.commands.common import add_config_arg, add_opensearch_args, fail, opensearch_settings, positive_int


def register(sub) -> None:
    p = sub.add_parser("trace", help="find stored verdicts in OpenSearch and explain them")
    p.add_argument("request_id", nargs="?", help="the request whose verdict to explain")
    p.add_argument("--claim", metavar="TEXT", help="instead: verdicts with a claim containing this phrase")
    p.add_argument("--passage-id", metavar="ID", help="instead: verdicts that retrieved or were judged on this passage")
    p.add_argument("--all-versions", action="store_true",
                   help="explain every scorer version stored for REQUEST_ID in full (default: the newest, "
                        "then one line per older version)")
    p.add_argument("--app", help="the app whose verdict of REQUEST_ID to explain, when several apps reuse the "
                                 "request id (default: every app's, one after the other)")
    p.add_argument("--limit", type=positive_int, default=10, metavar="N",
                   help="most verdicts shown for --claim / --passage-id")
    add_config_arg(p)
    add_opensearch_args(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from groundwatch.export.opensearch_client import connect
    from groundwatch.reports.trace import VerdictNotFound, trace, trace_claim, trace_passage
    from groundwatch.reports.verdict_store import VerdictStoreError

    given = [x for x in (args.request_id, args.claim, args.passage_id) if x]
    if len(given) != 1:
        return fail("give exactly one of REQUEST_ID, --claim TEXT and --passage-id ID")
    if args.app is not None and not args.request_id:
        return fail("--app goes with REQUEST_ID")
    section = opensearch_settings(args)
    client = connect(section)
    try:
        if args.claim:
            print(trace_claim(client, section.alias, args.claim, args.limit))
        elif args.passage_id:
            print(trace_passage(client, section.alias, args.passage_id, args.limit))
        else:
            print(trace(client, section.alias, args.request_id, args.all_versions, args.app))
    except VerdictNotFound as exc:
        return fail(str(exc))
    except VerdictStoreError as exc:
        return fail(f"{exc} (url {section.url})")
    return 0
