"""groundwatch bench-stream: a fixed volume of traffic through broker -> consumer -> OpenSearch.

Replays examples/responses.jsonl (cycled, fresh request ids, timestamp now)
into a new topic while the consumer runs in this process, then prints
responses/s, claims/s, end-to-end latency (produce timestamp -> indexed and
committed), peak RSS and where the consumer's time went. Without --bootstrap
and --opensearch it starts a local Tansu + osmem-server stack for the run.
A measurement, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import json
import sys
import tempfile
import uuid
from pathlib import Path

from groundwatch.commands.common import add_settings_args, fail, settings_from
from groundwatch.commands.progress import add_progress_arg, progress_on
from groundwatch.scorers.files import output_path

CHECKOUT = Path(__file__).resolve().parents[2]


def register(sub) -> None:
    p = sub.add_parser("bench-stream", help="measure the streaming job end to end on a local or given stack")
    p.add_argument("--n", type=int, default=200, help="responses to replay (default 200)")
    p.add_argument("--input", default=str(CHECKOUT / "examples" / "responses.jsonl"),
                   help="JSONL responses to cycle through (default: examples/responses.jsonl)")
    p.add_argument("--rate", type=float, default=0.0,
                   help="responses produced per second; 0: all at once (latency then includes queueing)")
    p.add_argument("--batch-size", type=int, help="kafka.batch_size for the run")
    p.add_argument("--partitions", type=int, default=1)
    p.add_argument("--bootstrap", help="an existing broker host:port (default: start a local stack)")
    p.add_argument("--opensearch", help="an existing OpenSearch URL (default: start a local stack)")
    p.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    p.add_argument("--exact-repeats", action="store_true",
                   help="replay cycled examples unchanged (the scorer's caches then answer the repeats)")
    p.add_argument("--json-out", help="also write the figures to this JSON file")
    add_progress_arg(p)
    add_settings_args(p)
    p.set_defaults(func=run)


def _start_stack(workdir: Path):
    try:
        from infra.stack import start_osmem, start_tansu
    except ImportError:  # infra/ is a tool of the source checkout, not an installed package
        if not (CHECKOUT / "infra" / "stack.py").is_file():
            raise RuntimeError("no local stack tooling (infra/); pass --bootstrap and --opensearch") from None
        sys.path.insert(0, str(CHECKOUT))
        from infra.stack import start_osmem, start_tansu
    tansu = start_tansu(workdir)
    try:
        return tansu, start_osmem(workdir)
    except BaseException:
        tansu.stop()
        raise


def run(args) -> int:
    from groundwatch.config.logs import configure
    from groundwatch.consumer.stream_bench import measure, table, traffic

    configure("json", "warning")  # the figures are the output; only warnings from the job
    settings = settings_from(args)
    run_id = uuid.uuid4().hex[:8]
    try:
        values = traffic(args.input, args.n, run_id, args.exact_repeats)
    except (OSError, ValueError) as exc:
        return fail(f"cannot build traffic from {args.input}: {exc}")
    servers = []
    try:
        if not (args.bootstrap and args.opensearch):
            servers = list(_start_stack(Path(tempfile.mkdtemp(prefix="groundwatch-bench-"))))
        bootstrap = args.bootstrap or servers[0].address
        opensearch_url = args.opensearch or servers[1].url
        figures = measure(settings, values, run_id, bootstrap, opensearch_url, batch_size=args.batch_size,
                          partitions=args.partitions, rate=args.rate, timeout_s=args.timeout,
                          progress=progress_on(args))
    except RuntimeError as exc:
        return fail(str(exc))
    finally:
        for server in servers:
            server.stop()
    print(table(figures))
    print(json.dumps(figures))
    if args.json_out:
        output_path(args.json_out).write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if figures["indexed"] == args.n else 1
