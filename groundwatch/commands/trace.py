"""groundwatch trace: the stored verdict of one request, explained, from OpenSearch."""

from __future__ import annotations

from groundwatch.commands.common import fail, settings_from


def register(sub) -> None:
    p = sub.add_parser("trace", help="find one request's verdict in OpenSearch and explain it")
    p.add_argument("request_id")
    p.add_argument("--config", help="JSON settings file (GROUNDWATCH_* environment variables override it)")
    p.add_argument("--opensearch-url", help="default: opensearch.url from the settings")
    p.add_argument("--alias", help="default: opensearch.alias from the settings")
    p.set_defaults(func=run)


def opensearch_settings(args):
    """The settings' opensearch section with --opensearch-url / --alias applied."""
    section = settings_from(args).opensearch
    updates = {k: v for k, v in (("url", getattr(args, "opensearch_url", None)),
                                 ("alias", getattr(args, "alias", None))) if v}
    return section.model_copy(update=updates)


def run(args) -> int:
    from export.trace import VerdictNotFound, trace
    from export.verdict_store import VerdictStoreError, connect

    section = opensearch_settings(args)
    try:
        print(trace(connect(section), section.alias, args.request_id))
    except VerdictNotFound as exc:
        return fail(str(exc))
    except VerdictStoreError as exc:
        return fail(f"{exc} (url {section.url})")
    return 0
