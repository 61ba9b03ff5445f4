"""groundwatch recall-probe: recall@k and MRR of the retriever on a frozen labelled set."""

from __future__ import annotations

import json
import sys

from groundwatch.commands.common import add_config_arg, fail, opensearch_settings
from groundwatch.commands.conventions import add_json_arg, deprecated, input_path, output_stream, to_stdout
from groundwatch.commands.progress import add_progress_arg, progress_on


def register(sub) -> None:
    p = sub.add_parser("recall-probe", help="replay a labelled probe set against the retriever: recall@k, MRR")
    p.add_argument("-i", "--input", required=True, dest="probe_set", metavar="FILE",
                   help="probes JSONL: {query, gold_passage_ids[, query_vector]}; `-` for stdin")
    deprecated(p, "--set", "--input", "probe_set")
    p.add_argument("--retriever", required=True, choices=["opensearch", "http"], help="how to reach the retriever")
    p.add_argument("--k", default="5,10", help="comma-separated cut-offs (default 5,10)")
    os_group = p.add_argument_group("--retriever opensearch")
    add_config_arg(os_group)
    os_group.add_argument("--opensearch-url", metavar="URL",
                          help="OpenSearch server (default: opensearch.url from the settings)")
    os_group.add_argument("--index", help="passage index (or alias) to search (required with --retriever opensearch)")
    os_group.add_argument("--mode", choices=["bm25", "knn", "hybrid"], default=None,
                          help="how to search (default: bm25)")
    os_group.add_argument("--field", default="text", help="text field for BM25 (default text)")
    os_group.add_argument("--vector-field", default="embedding",
                          help="knn_vector field holding all-MiniLM-L6-v2 embeddings (default embedding)")
    os_group.add_argument("--id-field", default="_id", help="source field with the passage id (default: _id)")
    http_group = p.add_argument_group("--retriever http")
    http_group.add_argument("--url", help="endpoint taking POST {query, k}, answering {passage_ids: [...]} "
                                          "(required with --retriever http)")
    out = p.add_argument_group("output")
    out.add_argument("-o", "--output", metavar="FILE",
                     help="write the figures and per-query rankings as JSON here; `-` for stdout (default: none)")
    add_json_arg(out, "the figures and per-query rankings")
    out.add_argument("--pushgateway", metavar="URL", help="push the gauges to this Pushgateway (default: none)")
    out.add_argument("--job", default="groundwatch-recall-probe", help="Pushgateway job name")
    out.add_argument("--metrics-port", type=int, metavar="PORT",
                     help="serve the gauges on this port until scraped once (default: not served)")
    out.add_argument("--metrics-host", default="0.0.0.0", metavar="HOST", help="address for --metrics-port")
    out.add_argument("--serve-timeout", type=float, default=300.0, metavar="SECONDS",
                     help="how long to wait for that scrape")
    add_progress_arg(out)
    p.set_defaults(func=run)


def _ks(text: str) -> list[int]:
    try:
        ks = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise ValueError(f"--k must be comma-separated integers, got {text!r}") from None
    if not ks or ks[0] < 1:
        raise ValueError(f"--k needs positive integers, got {text!r}")
    return ks


def _retriever(args):
    from groundwatch.recall_probe.factory import build_retriever

    section = opensearch_settings(args) if args.retriever == "opensearch" and args.index else None
    return build_retriever(args.retriever, url=args.url, opensearch=section, index=args.index, mode=args.mode,
                           field=args.field, vector_field=args.vector_field, id_field=args.id_field)


def run(args) -> int:
    from groundwatch.recall_probe.metrics import probe_registry, push, serve_until_scraped
    from groundwatch.recall_probe.probe import run_probe
    from groundwatch.recall_probe.probe_set import load_probes  # its ProbeSetError is a ValueError
    from groundwatch.recall_probe.retrievers import RetrieverError

    try:
        ks = _ks(args.k)
        probes = load_probes(input_path(args.probe_set))
        retriever, description = _retriever(args)
    except (ValueError, OSError) as exc:
        return fail(str(exc))
    try:
        result = run_probe(probes, retriever, ks, description, progress_on(args))
    except RetrieverError as exc:
        return fail(f"retrieval failed: {exc}")
    if args.json and not to_stdout(args.output):
        print(json.dumps(result.to_dict(), indent=2))
    elif not to_stdout(args.output):
        print(result.table())
    if args.output:
        with output_stream(args.output) as f:
            json.dump(result.to_dict(), f, indent=2)
    registry = probe_registry(result)
    if args.pushgateway:
        try:
            push(args.pushgateway, registry, args.job)
        except OSError as exc:
            from groundwatch.config.unreachable import reason

            return fail(f"Prometheus Pushgateway unreachable ({reason(exc)}) at {args.pushgateway}")
    if args.metrics_port is not None:
        print(f"serving metrics on {args.metrics_host}:{args.metrics_port}/metrics until scraped once",
              file=sys.stderr)
        if not serve_until_scraped(registry, args.metrics_port, args.metrics_host, args.serve_timeout):
            return fail(f"nothing scraped :{args.metrics_port}/metrics within {args.serve_timeout:.0f} s")
    return 0
