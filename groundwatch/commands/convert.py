"""groundwatch convert: a groundedness dev set -> labelled JSONL (traffic schema + label)."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

from groundwatch.commands.common import fail
from groundwatch.commands.progress import add_progress_arg, progress_bar
from groundwatch.scorers.files import output_path


def add_data_dir_arg(parser) -> None:
    parser.add_argument("--data-dir", type=Path, default=os.environ.get("GROUNDWATCH_DATA_DIR"),
                        help="groundedness-dev folder (env GROUNDWATCH_DATA_DIR; default "
                             "../shared/data/groundedness-dev beside the repository)")


def data_dir_of(args) -> Path:
    from groundwatch.evaluation.converters import repo_data_dir

    return Path(args.data_dir) if args.data_dir else repo_data_dir()


def register(sub) -> None:
    from groundwatch.evaluation.converters import CONVERTERS

    p = sub.add_parser("convert", help="convert a labelled dev set into groundwatch's JSONL schema")
    p.add_argument("--set", required=True, choices=sorted(CONVERTERS), dest="set_name")
    p.add_argument("--output", required=True, type=Path)
    p.add_argument("--limit", type=int, help="deterministic sample of N records")
    p.add_argument("--seed", type=int, default=0)
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
    with open(output_path(args.output), "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    labels = Counter(r["label"] for r in records)
    print(f"wrote {len(records)} records to {args.output}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(labels.items())))
    return 0
