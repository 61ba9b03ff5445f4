"""groundwatch audit-corpus: conflicts, superseded versions and quality problems in a document corpus."""

from __future__ import annotations

import json
import sys

from groundwatch.commands.common import add_settings_args, build_scorer, fail, settings_from
from groundwatch.commands.conventions import empty_input, output_stream, to_stdout
from groundwatch.commands.progress import add_progress_arg, progress_on


def register(sub) -> None:
    p = sub.add_parser("audit-corpus", help="audit a document corpus for conflicts, old versions and damage")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("-i", "--input", metavar="FILE",
                        help="documents JSONL: doc_id (or id), title, text, optional updated_at and source")
    source.add_argument("--opensearch-url", metavar="URL",
                        help="read the documents from this OpenSearch server instead")
    p.add_argument("--index", help="OpenSearch index holding the documents (with --opensearch-url)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the report as JSON here; `-` for stdout "
                                                          "(default: none)")
    p.add_argument("--html", metavar="FILE", help="write the report as a self-contained HTML page here "
                                                  "(default: none)")
    p.add_argument("--json", action="store_true", help="print the report as JSON instead of the text summary")
    p.add_argument("--weights", help="score weights, e.g. intra=0.5,inter=0.5 (the default)")
    p.add_argument("--no-nli", action="store_true", help="model-free checks only (value mismatches, versions, quality)")
    add_progress_arg(p)
    add_settings_args(p)
    p.set_defaults(func=run)


def _documents(args, settings):
    from groundwatch.audit.documents import read_jsonl, read_opensearch

    if args.input:
        return read_jsonl(args.input)
    from groundwatch.export.opensearch_client import connect

    # opensearch-py's default of 3 retries: a long scan should survive a dropped connection.
    client = connect(settings.opensearch.model_copy(update={"url": args.opensearch_url}), max_retries=3)
    return read_opensearch(client, args.index)


def run(args) -> int:
    from groundwatch.audit.audit import AuditConfig, audit_corpus
    from groundwatch.audit.documents import CorpusError, count_jsonl
    from groundwatch.audit.html import render_html
    from groundwatch.audit.report import to_dict, to_text
    from groundwatch.audit.score import parse_weights
    from groundwatch.scorers.errors import ModelLoadError
    from groundwatch.scorers.files import output_path

    if args.opensearch_url and not args.index:
        return fail("--opensearch-url needs --index")
    try:
        weights = parse_weights(args.weights)
    except ValueError as exc:
        return fail(str(exc))
    settings = settings_from(args)
    expected = None
    if args.input:  # every document is read and checked before the model loads
        try:
            expected = count_jsonl(args.input)
        except (CorpusError, OSError) as exc:
            return fail(str(exc))
        if expected == 0:
            return empty_input(args.input, "documents")
    scorer = None
    if not args.no_nli:
        from groundwatch.config.extras import missing

        if missing("audit"):  # optional: without faiss a large corpus is searched exactly (slower, not worse)
            print("groundwatch: note: faiss is not installed, so corpora above 20,000 statements are searched "
                  "exactly (slower): pip install 'groundwatch[audit]'", file=sys.stderr)
        try:
            scorer = build_scorer(settings)
        except ModelLoadError as exc:
            return fail(f"{exc} (or run with --no-nli for the model-free checks)")
    try:
        report = audit_corpus(_documents(args, settings), scorer,
                              AuditConfig(weights=weights, progress=progress_on(args),
                                          expected_documents=expected))
    except (CorpusError, OSError) as exc:
        return fail(str(exc))
    finally:
        if scorer is not None:
            scorer.close()
    data = to_dict(report)
    if args.html:
        with open(output_path(args.html), "w", encoding="utf-8") as f:
            f.write(render_html(data))
    if args.output:
        with output_stream(args.output) as f:
            json.dump(data, f, indent=2)
    if args.json and not to_stdout(args.output):
        print(json.dumps(data, indent=2))
    elif not to_stdout(args.output):  # stdout carries one thing: the JSON or the summary
        print(to_text(data), file=sys.stdout)
    return 0
