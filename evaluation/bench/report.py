"""The benchmark as tables for the terminal."""

from __future__ import annotations

from evaluation.tables import render


def bench_tables(result: dict) -> str:
    m = result["machine"]
    cpu = m["cpu"]
    gpu = m["gpu"]["name"] if m["gpu"] else "none"
    lines = [f"machine: {cpu['model']}; {cpu['usable_cores']} usable of {cpu['logical_cores']} logical cores; "
             f"flags: {', '.join(cpu['flags']) or 'none of interest'}; GPU: {gpu}; threads per path: {m['threads']}",
             "versions: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()),
             f"inputs: {result['inputs']['pairs']} pairs, {result['inputs']['responses']} responses "
             f"({result['inputs']['responses_source']})", ""]
    rows = []
    for name, p in result["paths"].items():
        if "ms_per_claim" in p:
            continue
        if "error" in p:
            rows.append([name, "-", "-", "-", "-", "-", "-", "-", p["error"][:60]])
            continue
        agree = p.get("vs_torch_fp32")
        rows.append([name, p["provider"], p["precision"], p["pairs"], p["pairs_per_s"], p["peak_rss_mb"],
                     agree["max_abs_prob_diff"] if agree else None, agree["argmax_agreement"] if agree else None, ""])
    lines.append(render(["path", "provider", "precision", "pairs", "pairs/s", "peak RSS MiB", "max|dp| vs torch",
                         "argmax agree", "error"], rows, digits=2))
    g = result["paths"].get("groundwatch", {})
    if "latency_s" in g:
        on, off, lat = g["responses_with_conflicts"], g["responses_without_conflicts"], g["latency_s"]
        lines += ["", render(["groundwatch pipeline", "responses/s", "model pairs", "seconds"],
                             [["context conflicts on", on["responses_per_s"], on["model_pairs"], on["seconds"]],
                              ["context conflicts off", off["responses_per_s"], off["model_pairs"], off["seconds"]]],
                             digits=2),
                  f"latency per response (one at a time, conflicts on): p50 {lat['p50'] * 1000:.0f} ms, "
                  f"p99 {lat['p99'] * 1000:.0f} ms over {lat['n']}"]
    guards = result["paths"].get("guards", {})
    if "ms_per_claim" in guards:
        t = guards["ms_per_claim"]
        lines += ["", render(["guard stage (one core)", "claims", "mean ms/claim", "p50 ms", "p99 ms"],
                             [[f"{kind} caches", guards["claims"], t[kind]["mean"], t[kind]["p50"], t[kind]["p99"]]
                              for kind in ("cold", "warm")], digits=2)]
    lines += ["", render(["ratio", "value"], [[k, v] for k, v in result["ratios"].items()], digits=2)]
    lines += [f"note: {n}" for n in result["notes"]]
    return "\n".join(lines)
