"""groundwatch score: score a JSONL file of logged responses into verdicts."""

from __future__ import annotations

import json
import sys

from groundwatch.commands.common import add_settings_args, build_scorer, fail, read_responses, settings_from
from groundwatch.commands.progress import add_progress_arg, progress_on
from groundwatch.reports.summary import Summary
from groundwatch.scorers.errors import InvalidResponse, ModelLoadError, ScoringError
from groundwatch.scorers.files import output_path
from groundwatch.scorers.records import ResponseVerdict


def register(sub) -> None:
    p = sub.add_parser("score", help="score logged RAG responses (JSONL) claim by claim")
    p.add_argument("--input", required=True, help="responses, one groundwatch.response.v1 JSON per line")
    p.add_argument("--output", required=True, help="verdicts JSONL to write")
    p.add_argument("--batch", type=int, default=32, help="responses handed to the scorer at once")
    p.add_argument("--summary", help="also write the summary counts as JSON here (docs/figures/demo-summary.json)")
    add_progress_arg(p)
    add_settings_args(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from tqdm import tqdm

    settings = settings_from(args)
    try:  # every record is read and checked before the model loads
        records = list(read_responses(args.input, settings))
    except OSError as exc:
        return fail(f"cannot read --input: {exc}")
    valid = [(number, item) for number, item, _ in records if not isinstance(item, InvalidResponse)]
    errors = [f"line {number}: {item}" for number, item, _ in records if isinstance(item, InvalidResponse)]
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
    with open(output_path(args.output), "w", encoding="utf-8") as out, \
            tqdm(total=len(records), initial=len(errors), unit="resp", disable=not progress_on(args),
                 file=sys.stderr) as bar:
        for start in range(0, len(valid), args.batch):
            chunk = valid[start:start + args.batch]
            for (number, response), result in zip(chunk, scorer.score([r for _, r in chunk])):
                if isinstance(result, ScoringError):
                    failure = f"line {number} (request_id {response.request_id}): scoring failed: {result}"
                    tqdm.write(f"groundwatch: {failure}", file=sys.stderr)
                    errors.append(failure)
                else:
                    record = result.to_dict()
                    out.write(json.dumps(redactor.document(record) if redactor else record) + "\n")
                    summary.add(result)
                bar.update(1)
    scorer.close()
    print(summary.table(), file=sys.stdout)
    if args.summary:
        output_path(args.summary).write_text(json.dumps(summary.to_dict(), indent=2) + "\n")
    if errors:
        print(f"groundwatch: {len(errors)} record(s) not scored; the other {summary.responses} were written "
              f"to {args.output}", file=sys.stderr)
        return 1
    return 0
