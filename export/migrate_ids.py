"""Move verdict documents stored under the old id (`request_id:scorer_version`) to the per-app id.

Documents written before ids included the app and tenant keep their old `_id`; a replay of
such a message would write a second copy under the new id. This rewrites every document
behind the alias whose `_id` is not the id its own fields give
(scorers/identity.document_id): in the same index, the document is created under the new id
and the old one deleted, one bulk request per page. Where a document already exists under the
new id (written since the upgrade), it is newer and is kept: only the old copy is deleted.

    python -m groundwatch.export.migrate_ids --opensearch-url URL --alias ALIAS [--dry-run]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field

from groundwatch.scorers.identity import document_id


class MigrationError(RuntimeError):
    """OpenSearch refused part of the move; nothing is lost (an old document is deleted only after its copy)."""


@dataclass
class MigrationReport:
    moved: dict[str, int] = field(default_factory=dict)     # index -> documents now under their new id
    replaced: dict[str, int] = field(default_factory=dict)  # index -> old copies deleted, a newer one kept
    current: int = 0                                        # documents already under their id

    @property
    def total(self) -> int:
        return sum(self.moved.values()) + sum(self.replaced.values())


def new_id(source: dict) -> str:
    meta = source.get("metadata") or {}
    return document_id(meta.get("app"), meta.get("tenant"), source["request_id"], source["scorer_version"],
                       source.get("content_hash"))


def migrate(client, alias: str, dry_run: bool = False, page: int = 500) -> MigrationReport:
    from opensearchpy import helpers

    report = MigrationReport()
    pending: list[dict] = []
    for hit in helpers.scan(client, index=alias, query={"query": {"match_all": {}}}, size=page):
        if hit["_id"] == new_id(hit["_source"]):
            report.current += 1
            continue
        pending.append(hit)
        if len(pending) >= page:
            _move(client, pending, report, dry_run)
            pending = []
    if pending:
        _move(client, pending, report, dry_run)
    if report.total and not dry_run:
        client.indices.refresh(index=alias)
    return report


def _move(client, hits: list[dict], report: MigrationReport, dry_run: bool) -> None:
    if dry_run:
        for hit in hits:
            report.moved[hit["_index"]] = report.moved.get(hit["_index"], 0) + 1
        return
    # First every copy (create: a newer document under the new id wins), then the old ids.
    body = "".join(json.dumps({"create": {"_index": h["_index"], "_id": new_id(h["_source"])}}) + "\n"
                   + json.dumps(h["_source"]) + "\n" for h in hits)
    created = client.bulk(body=body)["items"]
    copied = []
    for hit, item in zip(hits, created, strict=True):
        status = item["create"].get("status", 0)
        if status not in (200, 201, 409):
            raise MigrationError(f"copy of {hit['_id']} in {hit['_index']}: {status} "
                                 f"{(item['create'].get('error') or {}).get('type', '')}")
        target = report.moved if status != 409 else report.replaced
        target[hit["_index"]] = target.get(hit["_index"], 0) + 1
        copied.append(hit)
    body = "".join(json.dumps({"delete": {"_index": h["_index"], "_id": h["_id"]}}) + "\n" for h in copied)
    for hit, item in zip(copied, client.bulk(body=body)["items"], strict=True):
        if item["delete"].get("status") not in (200, 404):
            raise MigrationError(f"delete of the old id {hit['_id']} in {hit['_index']}: {item['delete'].get('status')}")


def main(argv: list[str] | None = None) -> int:
    from groundwatch.config.settings import load_settings
    from groundwatch.export.opensearch_client import connect

    p = argparse.ArgumentParser(prog="python -m groundwatch.export.migrate_ids", description=__doc__.split("\n\n")[0])
    p.add_argument("--config", help="JSON settings file (GROUNDWATCH_* environment variables override it)")
    p.add_argument("--opensearch-url", help="default: opensearch.url from the settings")
    p.add_argument("--alias", help="default: opensearch.alias from the settings")
    p.add_argument("--dry-run", action="store_true", help="count what would move, change nothing")
    args = p.parse_args(argv)
    section = load_settings(args.config).opensearch
    section = section.model_copy(update={k: v for k, v in (("url", args.opensearch_url), ("alias", args.alias)) if v})
    try:
        report = migrate(connect(section), section.alias, dry_run=args.dry_run)
    except MigrationError as exc:
        print(f"groundwatch: error: {exc}", file=sys.stderr)
        return 2
    verb = "would move" if args.dry_run else "moved"
    print(f"{verb} {report.total} documents to their per-app id under {section.alias!r} "
          f"({report.current} already had it)")
    for index in sorted(set(report.moved) | set(report.replaced)):
        print(f"  {index}: {report.moved.get(index, 0)} moved, {report.replaced.get(index, 0)} old copies of a "
              "newer document deleted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
