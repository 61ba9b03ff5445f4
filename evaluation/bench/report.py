"""The benchmark as tables for the terminal."""

from __future__ import annotations

from groundwatch.evaluation.tables import render


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
        if any(k in p for k in ("ms_per_claim", "options", "cold_start", "trace_path")) or (
                "paths" in p and "error" not in p):
            continue
        if "error" in p:
            rows.append([name, "-", "-", "-", "-", "-", "-", "-", p["error"][:60]])
            continue
        agree = p.get("vs_torch_fp32")
        rows.append([name, p["provider"], p["precision"], p["pairs"], p["pairs_per_s"], p["peak_rss_mb"],
                     agree["max_abs_prob_diff"] if agree else None, agree["argmax_agreement"] if agree else None, ""])
    if rows:
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
    lines += whole_path_table(result["paths"].get("whole_path", {}))
    lines += trace_path_table(result["paths"].get("trace_path", {}))
    guards = result["paths"].get("guards", {})
    if "ms_per_claim" in guards:
        t = guards["ms_per_claim"]
        lines += ["", render(["guard stage (one core)", "claims", "mean ms/claim", "p50 ms", "p99 ms"],
                             [[f"{kind} caches", guards["claims"], t[kind]["mean"], t[kind]["p50"], t[kind]["p99"]]
                              for kind in ("cold", "warm")], digits=2)]
    lines += tokenize_table(result["paths"].get("tokenize_once", {}))
    lines += options_table(result["paths"].get("nli_options", {}))
    lines += ["", render(["ratio", "value"], [[k, v] for k, v in result["ratios"].items()], digits=2)]
    lines += [f"note: {n}" for n in result["notes"]]
    return "\n".join(lines)


def tokenize_table(t: dict) -> list[str]:
    if "paths" not in t:
        return []
    rows = [[name, p["pairs_per_s"], p["preprocess_ms_per_pair"]] for name, p in t["paths"].items()]
    return ["", render(["pre-processing (PairScorer + batcher)", "pairs/s", "tokenizer ms/pair"], rows, digits=2),
            f"same pairs, interleaved, median of {t['repeats']}; {t['pairs']} pairs; "
            f"max |dp| between the two: {t['max_abs_prob_diff']:.1e}"]


def options_table(o: dict) -> list[str]:
    if "options" not in o:
        return []
    rows = [[name, p["precision"], p["size_mb"], p["pairs_per_s"], p["argmax_agreement"],
             f"{p['max_abs_prob_diff']:.1e}", f"{p['batch_invariance_max_dp']:.1e}",
             "yes" if p["deterministic"] else "no"] for name, p in o["options"].items()]
    return ["", render(["NLI option", "precision", "MB", "pairs/s", "argmax agree vs fp32", "max|dp| vs fp32",
                        "batch invariance max|dp|", "deterministic"], rows, digits=3),
            f"pairs/s: {o['pairs']} pairs, options interleaved, median of {o['repeats']}; agreement on "
            f"{o['validation_pairs']} validation pairs; deterministic: |dp| <= 1e-5 alone vs in other batches"]


def whole_path_table(w: dict) -> list[str]:
    if "cold_start" not in w:
        return []
    lat, rate, cold = w["latency_s"], w["responses_per_s"], w["cold_start"]
    rows = [["groundwatch end to end", rate["groundwatch"], w["pairs_per_s"]["groundwatch_nli"],
             lat["groundwatch"]["p50"] * 1000, lat["groundwatch"]["p99"] * 1000],
            ["CrossEncoder.predict, every candidate", rate["cross_encoder"], w["pairs_per_s"]["cross_encoder"],
             lat["cross_encoder"]["p50"] * 1000, lat["cross_encoder"]["p99"] * 1000]]
    if "groundwatch_second_opinion" in lat:
        s = w["second_opinion"]
        rows[1:1] = [["groundwatch with the second opinion", s["responses_per_s"], "-",
                      lat["groundwatch_second_opinion"]["p50"] * 1000, lat["groundwatch_second_opinion"]["p99"] * 1000],
                     ["groundwatch, the larger model alone", s["larger_alone_responses_per_s"], s["nli_pairs_per_s"],
                      lat["larger_alone"]["p50"] * 1000, lat["larger_alone"]["p99"] * 1000]]
    return ["", render(["whole path", "responses/s", "NLI pairs/s (same candidates)", "p50 ms", "p99 ms"], rows,
                       digits=2),
            f"{w['responses']} responses, {w['candidate_pairs']} candidate pairs ({w['model_inputs']} model inputs "
            f"with the cascade); end to end {w['end_to_end_vs_cross_encoder']:.2f}x CrossEncoder.predict, NLI path "
            f"{w['nli_vs_cross_encoder']:.2f}x; median of {w['repeats']} interleaved repeats",
            f"cold start (process start to first verdict, median of {len(cold['runs_s'])}): "
            f"{cold['first_verdict_s']:.2f} s; groundwatch score over the file: {cold['whole_file_s']:.1f} s, "
            f"peak RSS {cold['peak_rss_mb']} MiB"] + second_opinion_line(w.get("second_opinion")) + cache_lines(w)


def cache_lines(w: dict) -> list[str]:
    rate, r = w["responses_per_s"], w.get("replay")
    if "groundwatch_warm" not in rate or not r:
        return []
    look = r["lookups"]["cache_on"]
    return [f"pair cache: the same responses again on the same scorer (caches warm) {rate['groundwatch_warm']:.2f} "
            f"responses/s against {rate['groundwatch']:.2f} cold",
            f"replay with duplicates ({r['responses']} responses from {r['distinct']}, seed {r['seed']}, "
            f"{r['batch']} per call): cache on {r['responses_per_s']['cache_on']:.2f} responses/s, off "
            f"{r['responses_per_s']['cache_off']:.2f} ({r['cache_on_vs_off']:.2f}x); hit rate "
            f"{100 * r['hit_rate']:.0f}% ({look['hits']} hits, {look['joined']} joined, {look['misses']} misses); "
            f"model inputs {look['model_inputs']} on, {r['lookups']['cache_off']['model_inputs']} off; "
            f"median of {r['repeats']} interleaved repeats"]


def trace_path_table(t: dict) -> list[str]:
    if "trace_path" not in t:
        return []
    rate, ratio = t["responses_per_s"], t["trace_vs_json"]
    rows = [["groundwatch.response.v1 JSON", rate["json"], 1.0, "-"]]
    rows += [[f"traces, {e}", rate[e], ratio[e], t["verdicts_differing"][e]] for e in ("otlp_proto", "otlp_json")]
    return ["", render(["consumer stage (decode .. score)", "responses/s", "vs JSON", "verdicts differing"], rows,
                       digits=2),
            f"{t['responses']} responses from {t['traces']} SDK traces, the same responses on every path; "
            f"verdicts identical: {'yes' if t['verdicts_identical'] else 'NO'}; median of {t['repeats']} "
            "interleaved repeats"]


def second_opinion_line(s: dict | None) -> list[str]:
    if not s:
        return []
    cold = s["cold_start"]
    return [f"with the second opinion {s['model']} (margin {s['margin']}): {s['responses_per_s']:.2f} responses/s "
            f"({s['responses_per_s_warm']:.2f} caches warm), {s['vs_small_alone']:.2f}x the small model alone; it "
            f"re-read {100 * s['share_escalated']:.0f}% of {s['claims']} claims "
            f"({', '.join(f'{k} {n}' for k, n in sorted(s['escalated'].items()))}); the larger model's NLI path "
            f"{s['nli_pairs_per_s']:.1f} pairs/s over {s['nli_pairs']} candidates; cold start "
            f"{cold['first_verdict_s']:.2f} s, peak RSS {cold['peak_rss_mb']} MiB"]
