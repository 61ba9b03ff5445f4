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

from groundwatch.commands.common import add_settings_args, fail, positive_int, settings_from
from groundwatch.commands.conventions import add_json_arg, deprecated, input_path, start_logging, to_stdout
from groundwatch.commands.progress import add_progress_arg, progress_on
from groundwatch.scorers.files import output_path

CHECKOUT = Path(__file__).resolve().parents[2]


def register(sub) -> None:
    p = sub.add_parser("bench-stream", help="measure the streaming job end to end on a local or given stack")
    p.add_argument("--n", type=positive_int, default=200, help="responses to replay (default 200)")
    p.add_argument("-i", "--input", metavar="FILE",
                   help="JSONL responses to cycle through (default: the example responses of the checkout)")
    p.add_argument("--rate", type=float, default=0.0,
                   help="responses produced per second; 0: all at once (latency then includes queueing)")
    p.add_argument("--batch-size", type=positive_int, metavar="N",
                   help="kafka.batch_size for the run (default: from the settings, 64)")
    p.add_argument("--partitions", type=positive_int, default=1, metavar="N", help="partitions of the new topic")
    p.add_argument("--bootstrap", metavar="HOST:PORT", help="an existing broker (default: start a local stack)")
    p.add_argument("--opensearch-url", metavar="URL", help="an existing OpenSearch (default: start a local stack)")
    deprecated(p, "--opensearch", "--opensearch-url", "opensearch_url")
    p.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS", help="give up after this long")
    p.add_argument("--exact-repeats", action="store_true",
                   help="replay cycled examples unchanged (the scorer's caches then answer the repeats)")
    p.add_argument("-o", "--output", metavar="FILE", help="also write the figures as JSON here; `-` for stdout "
                                                          "(default: none)")
    deprecated(p, "--json-out", "--output", "output")
    add_json_arg(p, "the figures")
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
    from groundwatch.tools.stream_bench import measure, table, traffic

    settings = settings_from(args)
    start_logging(args, "json", "warning")  # the figures are the output; only warnings from the job
    run_id = uuid.uuid4().hex[:8]
    try:
        source = args.input or str(CHECKOUT / "examples" / "responses.jsonl")
        values = traffic(input_path(source), args.n, run_id, args.exact_repeats)
    except (OSError, ValueError) as exc:
        return fail(f"cannot build traffic from {source}: {exc}")
    servers = []
    try:
        if not (args.bootstrap and args.opensearch_url):
            servers = list(_start_stack(Path(tempfile.mkdtemp(prefix="groundwatch-bench-"))))
        bootstrap = args.bootstrap or servers[0].address
        opensearch_url = args.opensearch_url or servers[1].url
        figures = measure(settings, values, run_id, bootstrap, opensearch_url, batch_size=args.batch_size,
                          partitions=args.partitions, rate=args.rate, timeout_s=args.timeout,
                          progress=progress_on(args))
    except RuntimeError as exc:
        return fail(str(exc))
    finally:
        for server in servers:
            server.stop()
    if args.json or to_stdout(args.output):
        print(json.dumps(figures))
    else:
        print(table(figures))
    if args.output and not to_stdout(args.output):
        output_path(args.output).write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if figures["indexed"] == args.n else 1
