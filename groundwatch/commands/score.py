"""groundwatch score: score a JSONL file of logged responses into verdicts."""

from __future__ import annotations

import json
import sys

from groundwatch.commands.common import (add_settings_args, build_scorer, fail, positive_int, read_responses,
                                         settings_from)
from groundwatch.commands.conventions import deprecated, empty_input, input_path, output_stream, to_stdout
from groundwatch.commands.progress import add_progress_arg, progress_on
from groundwatch.consumer.otlp.missing_text import flag_missing_text
from groundwatch.reports.summary import Summary
from groundwatch.scorers.errors import InvalidResponse, ModelLoadError, ScoringError
from groundwatch.scorers.files import output_path
from groundwatch.scorers.records import ResponseVerdict

FORMATS = ("groundwatch.response.v1", "otlp_json", "otlp_proto")


def register(sub) -> None:
    p = sub.add_parser("score", help="score logged RAG responses (JSONL) claim by claim",
                       description="Score a JSONL file of logged responses into verdicts, one per line, and print "
                                   "the counts.")
    p.add_argument("-i", "--input", required=True, metavar="FILE",
                   help="responses, one groundwatch.response.v1 JSON per line; `-` for stdin")
    p.add_argument("--format", choices=FORMATS, default=FORMATS[0],
                   help="what --input holds: groundwatch.response.v1 JSONL, or traces as the OpenTelemetry "
                        "Collector's file exporter writes them (otlp_json: one export request a line; otlp_proto: "
                        "size-prefixed protobuf); default: %(default)s")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="verdicts JSONL to write; `-` for stdout (the counts then go to stderr)")
    p.add_argument("--batch-size", type=positive_int, default=32, metavar="N",
                   help="responses handed to the scorer at once")
    deprecated(p, "--batch", "--batch-size", "batch_size", type=positive_int)
    p.add_argument("--summary", metavar="FILE", help="also write the counts as JSON to this file (default: none)")
    p.add_argument("--json", action="store_true", help="print the counts as JSON instead of a table")
    add_progress_arg(p)
    add_settings_args(p)
    p.set_defaults(func=run)


def read_traces(path, encoding: str, settings) -> list:
    """(where, Response or InvalidResponse) of every response the traces in the file hold."""
    from groundwatch.consumer.otlp.files import responses_from_file
    from groundwatch.consumer.otlp.passage_store import build_passage_store
    from groundwatch.scorers.schema import RecordLimits

    return responses_from_file(path, encoding, settings.traces, RecordLimits.from_config(settings.scorer),
                               build_passage_store(settings))


def run(args) -> int:
    from tqdm import tqdm

    settings = settings_from(args)
    try:  # every record is read and checked before the model loads
        if args.format == FORMATS[0]:
            records = [(f"line {number}", item) for number, item, _ in read_responses(input_path(args.input), settings)]
        else:
            records = read_traces(input_path(args.input), args.format, settings)
    except OSError as exc:
        return fail(f"cannot read --input {args.input}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        return fail(f"--input {args.input} is not UTF-8 text (byte {exc.start})")
    if not records:
        return empty_input(args.input)
    valid = [(where, item) for where, item in records if not isinstance(item, InvalidResponse)]
    errors = [f"{args.input} {where}: {item}" for where, item in records if isinstance(item, InvalidResponse)]
    for e in errors:
        print(f"groundwatch: invalid record: {e}", file=sys.stderr)
    if errors and not valid:
        return fail(f"no valid record in {args.input}; nothing scored")
    try:
        scorer = build_scorer(settings)
    except ModelLoadError as exc:
        return fail(str(exc))
    summary = Summary()
    from groundwatch.scorers.redaction import Redactor

    redactor = Redactor.from_settings(settings.redaction)  # the verdicts file stores text too
    with output_stream(args.output) as out, \
            tqdm(total=len(records), initial=len(errors), unit="resp", disable=not progress_on(args),
                 file=sys.stderr) as bar:
        for start in range(0, len(valid), args.batch_size):
            chunk = valid[start:start + args.batch_size]
            for (where, response), result in zip(chunk, scorer.score([r for _, r in chunk])):
                if isinstance(result, ScoringError):
                    failure = f"{where} (request_id {response.request_id}): scoring failed: {result}"
                    tqdm.write(f"groundwatch: {failure}", file=sys.stderr)
                    errors.append(failure)
                else:
                    flag_missing_text(result)
                    record = result.to_dict()
                    out.write(json.dumps(redactor.document(record) if redactor else record) + "\n")
                    summary.add(result)
                bar.update(1)
    scorer.close()
    # stdout holds the verdicts when they go there; the counts then go to stderr.
    print(json.dumps(summary.to_dict()) if args.json else summary.table(),
          file=sys.stderr if to_stdout(args.output) else sys.stdout)
    if args.summary:
        output_path(args.summary).write_text(json.dumps(summary.to_dict(), indent=2) + "\n")
    if errors:
        print(f"groundwatch: {len(errors)} record(s) not scored; the other {summary.responses} were written "
              f"to {args.output}", file=sys.stderr)
        return 1
    return 0
