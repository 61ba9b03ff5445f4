"""python -m infra.faults [--long] [--messages N] [--kills K] ... [--json out.json]

Prints one line per fault, then the census; exits 0 only when nothing was lost or
duplicated, every bad message has one dead letter and every offset was committed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields
from pathlib import Path

from infra.faults.suite import FaultConfig, run, source_commit, summary

LONG = {"messages": 5000, "kills": 20, "opensearch_stalls": 4, "opensearch_freezes": 3, "broker_pauses": 3,
        "rebalances": 4, "partitions": 4, "oversized": 5, "backend": "fake", "batch_size": 32,
        "gap_s": (4.0, 14.0), "finish_timeout_s": 900.0}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m infra.faults", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--long", action="store_true", help=f"the long form: {LONG}")
    for f in fields(FaultConfig):
        if f.name == "gap_s":
            parser.add_argument("--gap-s", type=float, nargs=2, metavar=("MIN", "MAX"))
        else:
            kind = {"int": int, "float": float, "str": str, "str | None": str}[str(f.type)]
            parser.add_argument(f"--{f.name.replace('_', '-')}", type=kind)
    parser.add_argument("--json", type=Path, help="write the full result (census, timeline, config) here")
    parser.add_argument("--workdir", type=Path, help="keep servers' and consumers' logs here")
    args = parser.parse_args(argv)
    values = dict(LONG) if args.long else {}
    values.update({f.name: getattr(args, f.name) for f in fields(FaultConfig) if getattr(args, f.name) is not None})
    if "gap_s" in values:
        values["gap_s"] = tuple(values["gap_s"])
    command = "python -m infra.faults " + " ".join(argv if argv is not None else sys.argv[1:])
    result = run(FaultConfig(**values), workdir=args.workdir, say=lambda line: print(line, flush=True))
    result["command"] = command.strip()
    result["commit"] = source_commit()
    result.pop("workdir", None)  # a local path; the logs stay there
    print(summary(result))
    print(json.dumps({k: result[k] for k in ("lost_bad_by_kind", "dead_letter_reasons", "examples", "committed",
                                             "expected_committed", "crashes")}))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
