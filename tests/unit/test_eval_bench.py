"""`groundwatch bench` end to end with the tiny model (figures are printed, never asserted)."""

import json

import pytest

from groundwatch.cli import main


@pytest.fixture(scope="module")
def tiny_int8(tiny_checkpoint, tmp_path_factory):
    from groundwatch.training.model_export.onnx_export import export_checkpoint

    return export_checkpoint(tiny_checkpoint, tmp_path_factory.mktemp("tiny-int8"), precision="int8-weights")


def test_bench_runs_every_cpu_path_on_the_same_pairs(tiny_checkpoint, tiny_onnx, tiny_int8, tmp_path, capsys):
    from groundwatch.evaluation.bench.runner import CPU_PATHS

    out = tmp_path / "bench.json"
    code = main(["bench", "--paths", ",".join(CPU_PATHS),  # all but the trace path (its own test, below)
                 "--pairs", "16", "--reference-pairs", "8", "--n-responses", "3", "--synthetic",
                 "--model", str(tiny_int8), "--torch-checkpoint", str(tiny_checkpoint),
                 "--onnx-fp32", str(tiny_onnx), "--json", str(out), "--threads", "1", "--val-pairs", "40",
                 "--repeats", "1"])
    assert code == 0, capsys.readouterr().out
    result = json.loads(out.read_text())
    assert result["inputs"] == {"pairs": 16, "responses": 3, "responses_source": "synthetic policy responses"}
    paths = result["paths"]
    assert set(paths) >= {"groundwatch", "reference_loop", "cross_encoder", "torch_fp32", "onnx_fp32", "onnx_shipped",
                          "tokenize_once", "nli_options"}
    guards = paths.pop("guards")  # the guard stage is timed per claim: no pairs
    assert "error" not in guards and guards["claims"] > 0
    assert guards["ms_per_claim"]["cold"]["mean"] > 0 and guards["ms_per_claim"]["warm"]["p99"] > 0
    tokenize = paths.pop("tokenize_once")  # before/after pre-processing, same model: same scores
    assert set(tokenize["paths"]) == {"tokenize once", "tokenize three times (before)"}
    assert tokenize["max_abs_prob_diff"] < 1e-6 and all(p["pairs_per_s"] > 0 for p in tokenize["paths"].values())
    whole = paths.pop("whole_path")  # end to end against CrossEncoder.predict on the same candidates
    assert "error" not in whole, whole
    assert whole["responses"] == 3 and whole["candidate_pairs"] >= 3 and whole["model_inputs"] > 0
    assert {k: v["n"] for k, v in whole["latency_s"].items()} == {"groundwatch": 3, "cross_encoder": 3}
    assert whole["responses_per_s"]["groundwatch"] > 0 and whole["pairs_per_s"]["cross_encoder"] > 0
    assert whole["responses_per_s"]["groundwatch_warm"] > 0  # the same responses again, pair cache warm
    replay, off = whole["replay"], whole["replay"]["lookups"]["cache_off"]
    assert replay["distinct"] == 3 and replay["responses"] >= 3 and 0 <= replay["hit_rate"] <= 1
    assert off["hits"] == 0 and replay["lookups"]["cache_on"]["model_inputs"] <= off["model_inputs"]
    cold = whole["cold_start"]
    assert len(cold["runs_s"]) == 3 and cold["first_verdict_s"] > 0
    assert cold["verdicts"] == 3 and cold["peak_rss_mb"] > 0
    options = paths.pop("nli_options")["options"]
    assert {"onnx fp32", "onnx int8 dynamic", "onnx int8 weights, rows compute", "onnx int8 weights, blocks compute",
            "torch bf16"} <= set(options)
    for name, p in options.items():
        assert p["pairs_per_s"] > 0 and 0 <= p["argmax_agreement"] <= 1, name
        if name.startswith(("onnx fp32", "onnx int8 weights", "onnx int8 static", "shipped")):
            assert p["deterministic"] and p["batch_invariance_max_dp"] <= 1e-5, name
    for name, p in paths.items():
        assert "error" not in p, (name, p)
        assert p["pairs"] == (8 if name == "reference_loop" else 16), name
        assert p["pairs_per_s"] > 0 and p["peak_rss_mb"] > 0
    # Same checkpoint, same pairs: fp32 paths agree with PyTorch; int8 may drift but stays close.
    for name in ("reference_loop", "cross_encoder", "onnx_fp32"):
        assert paths[name]["vs_torch_fp32"]["max_abs_prob_diff"] < 1e-3, name
    assert paths["groundwatch"]["precision"].startswith("int8-weights (")  # and how it computes
    g = paths["groundwatch"]
    assert g["responses_with_conflicts"]["model_pairs"] >= g["responses_without_conflicts"]["model_pairs"]
    assert g["latency_s"]["n"] == 3
    assert {"groundwatch/reference_loop", "onnx_shipped/torch_fp32", "context_conflicts time on/off"} <= set(
        result["ratios"])
    assert result["machine"]["cpu"]["usable_cores"] >= 1 and result["machine"]["threads"] == 1
    printed = capsys.readouterr().out
    assert "pairs/s" in printed and "guard stage (one core)" in printed and "whole path" in printed
    assert "replay with duplicates" in printed
    assert "batch invariance max|dp|" in printed and "tokenize three times (before)" in printed


def test_bench_trace_path_scores_the_same_responses_as_traces_and_as_json(tiny_int8, tmp_path, capsys):
    out = tmp_path / "bench.json"
    code = main(["bench", "--paths", "trace_path", "--n-responses", "3", "--synthetic", "--model", str(tiny_int8),
                 "--json", str(out), "--threads", "1", "--repeats", "1"])
    assert code == 0, capsys.readouterr().out
    trace = json.loads(out.read_text())["paths"]["trace_path"]
    assert "error" not in trace, trace
    assert trace["responses"] == 3 and trace["verdicts_identical"] and trace["verdicts_compared"] == 3
    assert trace["verdicts_differing"] == {"otlp_proto": 0, "otlp_json": 0}
    assert set(trace["trace_vs_json"]) == {"otlp_proto", "otlp_json"} and trace["responses_per_s"]["json"] > 0


def test_whole_path_times_the_second_opinion_beside_the_small_model_alone(tiny_checkpoint, tiny_onnx, tiny_int8,
                                                                          tmp_path, capsys):
    out = tmp_path / "bench.json"
    code = main(["bench", "--paths", "whole_path", "--n-responses", "3", "--synthetic", "--model", str(tiny_int8),
                 "--torch-checkpoint", str(tiny_checkpoint), "--second-opinion", str(tiny_onnx), "--json", str(out),
                 "--threads", "1", "--repeats", "2"])
    assert code == 0, capsys.readouterr().out
    whole = json.loads(out.read_text())["paths"]["whole_path"]
    assert len(whole["seconds"]["groundwatch_second_opinion"]) == 2 == len(whole["seconds"]["groundwatch"])
    second = whole["second_opinion"]
    assert second["claims"] > 0 and second["responses_per_s"] > 0 and second["vs_small_alone"] > 0
    assert second["share_escalated"] == sum(second["escalated"].values()) / second["claims"]
    latency = whole["latency_s"]  # one response at a time, with and without it
    assert latency["groundwatch_second_opinion"]["n"] == latency["groundwatch"]["n"] == 3
    assert latency["groundwatch_second_opinion"]["p50"] > 0
    # the cost beside it: caches warm, the larger model alone and its own NLI path, and a cold process with it on
    assert len(whole["seconds"]["groundwatch_second_opinion_warm"]) == 2 == len(whole["seconds"]["larger_alone"])
    assert second["responses_per_s_warm"] > 0 and second["larger_alone_responses_per_s"] > 0
    assert latency["larger_alone"]["n"] == 3
    assert second["nli_pairs"] == min(whole["candidate_pairs"], 256) and second["nli_pairs_per_s"] > 0
    assert second["cold_start"]["verdicts"] == 3 and second["cold_start"]["peak_rss_mb"] > 0
    printed = capsys.readouterr().out
    assert "groundwatch with the second opinion" in printed and "the larger model alone" in printed


def test_bench_refuses_a_second_opinion_without_a_model(tmp_path, capsys):
    assert main(["bench", "--paths", "whole_path", "--second-opinion", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == (f"groundwatch: error: --second-opinion {tmp_path}: neither model.onnx "
                                               "nor a PyTorch checkpoint found")


def test_bench_runs_a_torch_model_only_on_the_whole_path(tiny_checkpoint, capsys):
    assert main(["bench", "--paths", "nli_options", "--model", str(tiny_checkpoint)]) == 2
    assert capsys.readouterr().err.strip() == (f"groundwatch: error: --model {tiny_checkpoint} is a PyTorch model: "
                                               "only --paths whole_path runs one")
