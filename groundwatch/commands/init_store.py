"""groundwatch init-store: index template, alias and retention policy in OpenSearch (idempotent)."""

from __future__ import annotations

from groundwatch.commands.common import add_config_arg, add_opensearch_args, fail, opensearch_settings, positive_int


def register(sub) -> None:
    p = sub.add_parser("init-store", help="install the verdict index template, alias and retention policy")
    add_config_arg(p)
    add_opensearch_args(p)
    p.add_argument("--retention-months", type=positive_int, metavar="N",
                   help="delete verdict indices this many months after their period (default: "
                        "opensearch.retention_months, 13)")
    p.add_argument("--sweep", action="store_true",
                   help="without ISM on the server: also delete expired indices now (the job does it hourly)")
    p.set_defaults(func=run)


def run(args) -> int:
    from opensearchpy.exceptions import ConnectionError, TransportError

    from groundwatch.config.unreachable import reason
    from groundwatch.export.opensearch_client import connect
    from groundwatch.export.retention import StoreSetupError, init_store, min_index_age, sweep

    section = opensearch_settings(args)
    if args.retention_months:
        section = section.model_copy(update={"retention_months": args.retention_months})
    client = connect(section)
    try:
        state = init_store(client, section)
        deleted = sweep(client, section) if args.sweep and not state.ism else []
    except ConnectionError as exc:
        return fail(f"OpenSearch unreachable ({reason(exc)}) (url {section.url})")
    except (StoreSetupError, TransportError) as exc:
        return fail(f"{exc} (url {section.url})")
    print(f"index template {section.index_prefix!r} for {section.index_prefix}-*, alias {section.alias!r}")
    print(f"current index {state.index}")
    if state.ism:
        print(f"ISM policy {section.index_prefix!r} {state.policy}: delete at age "
              f"{min_index_age(section.retention_months, section.index_period)} "
              f"({section.retention_months} months after the {section.index_period} ends); "
              f"attached to {state.attached} existing indices")
    else:
        why = "ISM refused (403) for this user" if state.policy == "forbidden" else "no ISM API on this server"
        print(f"{why}: the job deletes {section.index_period}ly indices "
              f"{section.retention_months} months after their period ends")
        if args.sweep:
            print(f"deleted now: {', '.join(deleted) if deleted else 'none'}")
    return 0
