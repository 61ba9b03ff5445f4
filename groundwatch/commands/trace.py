"""groundwatch trace: the stored verdict of one request, explained, from OpenSearch."""

from __future__ import annotations

from groundwatch.commands.common import fail, opensearch_settings


def register(sub) -> None:
    p = sub.add_parser("trace", help="find one request's verdict in OpenSearch and explain it")
    p.add_argument("request_id")
    p.add_argument("--config", help="JSON settings file (GROUNDWATCH_* environment variables override it)")
    p.add_argument("--opensearch-url", help="default: opensearch.url from the settings")
    p.add_argument("--alias", help="default: opensearch.alias from the settings")
    p.set_defaults(func=run)


def run(args) -> int:
    from export.opensearch_client import connect
    from reports.trace import VerdictNotFound, trace
    from reports.verdict_store import VerdictStoreError

    section = opensearch_settings(args)
    try:
        print(trace(connect(section), section.alias, args.request_id))
    except VerdictNotFound as exc:
        return fail(str(exc))
    except VerdictStoreError as exc:
        return fail(f"{exc} (url {section.url})")
    return 0
