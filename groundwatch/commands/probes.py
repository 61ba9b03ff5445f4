"""groundwatch probes: failure probes (negation, numbers, conditions, entities, split support)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from groundwatch.commands.common import fail, positive_int
from groundwatch.commands.conventions import output_stream, to_stdout
from groundwatch.commands.convert import add_data_dir_arg, data_dir_of
from groundwatch.commands.progress import add_progress_arg, progress_bar
from groundwatch.scorers.files import output_path

DEFAULT_SETS = "wice-oracle,begin,qags"  # HaluEval answers are mostly bare names


def register(sub) -> None:
    p = sub.add_parser("probes", help="generate failure probes from supported dev-set answers")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="probe JSONL to write; `-` for stdout")
    p.add_argument("--from", dest="sets", default=DEFAULT_SETS,
                   help=f"comma-separated sets to draw supported answers from (default {DEFAULT_SETS})")
    p.add_argument("--per-family", type=positive_int, default=100, help="probes per family (default 100)")
    p.add_argument("--pool-per-set", type=positive_int, default=2000,
                   help="records read per set before keeping the supported ones (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the draw")
    add_data_dir_arg(p)
    add_progress_arg(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from groundwatch.evaluation.converters import convert
    from groundwatch.evaluation.probing.probes import build_probes

    supported = []
    try:
        for name in [s.strip() for s in args.sets.split(",") if s.strip()]:
            records = convert(name, data_dir_of(args), args.pool_per_set, args.seed)
            supported += [r for r in progress_bar(args, records, desc=name, unit="rec", total=args.pool_per_set)
                          if r["label"] == "supported"]
    except (FileNotFoundError, ValueError) as exc:
        return fail(str(exc))
    probes = build_probes(supported, args.per_family, args.seed)
    with output_stream(args.output) as f:
        for p in probes:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")
    counts = Counter(p["probe"] for p in probes)
    print(f"wrote {len(probes)} probes to {args.output} from {len(supported)} supported answers: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()), file=sys.stderr if to_stdout(args.output) else sys.stdout)
    return 0
