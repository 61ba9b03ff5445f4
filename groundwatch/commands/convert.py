"""groundwatch convert: a groundedness dev set -> labelled JSONL (traffic schema + label)."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path

from groundwatch.commands.common import fail, positive_int
from groundwatch.commands.conventions import deprecated, output_stream, to_stdout
from groundwatch.commands.progress import add_progress_arg, progress_bar
from groundwatch.scorers.files import output_path


def add_data_dir_arg(parser) -> None:
    parser.add_argument("--data-dir", type=Path, default=os.environ.get("GROUNDWATCH_DATA_DIR"), metavar="DIR",
                        help="folder holding the groundedness dev sets (default: GROUNDWATCH_DATA_DIR, else "
                             "the dev sets beside the checkout)")


def data_dir_of(args) -> Path:
    from groundwatch.evaluation.converters import repo_data_dir

    return Path(args.data_dir) if args.data_dir else repo_data_dir()


def register(sub) -> None:
    from groundwatch.evaluation.converters import CONVERTERS

    p = sub.add_parser("convert", help="convert a labelled dev set into groundwatch's JSONL schema")
    p.add_argument("--dataset", required=True, choices=sorted(CONVERTERS), dest="set_name",
                   help="the dev set to convert")
    deprecated(p, "--set", "--dataset", "set_name", choices=sorted(CONVERTERS))
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="labelled JSONL to write; `-` for stdout")
    p.add_argument("--limit", type=positive_int, metavar="N", help="deterministic sample of N records (default: all)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sample")
    add_data_dir_arg(p)
    add_progress_arg(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from groundwatch.evaluation.converters import convert

    try:
        records = list(progress_bar(args, convert(args.set_name, data_dir_of(args), args.limit, args.seed),
                                    desc=args.set_name, unit="rec", total=args.limit))
    except (FileNotFoundError, ValueError) as exc:
        return fail(str(exc))
    with output_stream(args.output) as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    labels = Counter(r["label"] for r in records)
    print(f"wrote {len(records)} records to {args.output}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(labels.items())),
          file=sys.stderr if to_stdout(args.output) else sys.stdout)
    return 0
