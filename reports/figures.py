"""The measured figures of the README and docs, rendered from saved report files, so they cannot drift.

A figure is a block in a Markdown file (README.md or docs/*.md):

    <!-- figures:NAME -->
    ...generated from the figure's source files...
    <!-- /figures:NAME -->

Each figure names its source files (committed under docs/figures/) and the command that
wrote each one; the block ends with those commands. `python -m groundwatch.reports.figures` rewrites
every block from its sources; `--check` only reports the blocks that differ (the unit test
tests/unit/test_figures.py fails on the same); `--rerun NAME` first runs NAME's commands
to refresh its sources. How to add one: docs/figures.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from groundwatch.reports.summary import Summary
from groundwatch.scorers.files import output_path

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ("README.md", "docs/*.md")
BLOCK = re.compile(r"(<!-- figures:(?P<name>[a-z0-9-]+) -->\n)(?P<body>.*?)(<!-- /figures:(?P=name) -->)", re.S)


@dataclass(frozen=True)
class Source:
    path: str      # repository-relative saved report file
    command: str   # the command that writes it, run from the repository root
    kept: bool = False  # a measurement that cannot be rerun (a previous model): `command` says where it came from

    def provenance(self) -> str:
        return f"`{self.path}`, " + (f"kept: {self.command}" if self.kept else f"written by `{self.command}`")


@dataclass(frozen=True)
class Figure:
    name: str
    sources: tuple[Source, ...]
    render: Callable[[list[dict]], str]  # Markdown from the parsed sources, in `sources` order
    # Where the numbers were measured (commits, runs), from the sources: rendered as a provenance line
    # beside the sources, so the text of the figure itself never needs a commit hash.
    measured: Callable[[list[dict]], str | None] | None = None


FIGURES: dict[str, Figure] = {}


def figure(name: str, *sources: Source, measured: Callable[[list[dict]], str | None] | None = None):
    """Register a renderer: `@figure("name", Source(path, command), ...)` over `def render(data: list[dict]) -> str`;
    `measured(data)` may say where the numbers were measured ("at commit ..."), as a provenance line."""
    def register(render: Callable[[list[dict]], str]):
        if name in FIGURES:
            raise ValueError(f"figure {name!r} registered twice")
        FIGURES[name] = Figure(name, sources, render, measured)
        return render
    return register


def markdown_table(headers: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def render_block(name: str, root: Path = ROOT) -> str:
    """The body of figure NAME's block: the rendering, then where its numbers come from."""
    fig = FIGURES[name]
    data = [json.loads((root / s.path).read_text(encoding="utf-8")) for s in fig.sources]
    if len(fig.sources) == 1:
        provenance = f"_Source: {fig.sources[0].provenance()}._"
    else:
        provenance = "_Sources:_\n" + "\n".join(f"- {s.provenance()}" for s in fig.sources)
    where = fig.measured(data) if fig.measured else None
    if where:
        provenance = f"_Measured {where}._\n\n{provenance}"
    return f"{fig.render(data).rstrip()}\n\n{provenance}\n"


def documents(root: Path = ROOT) -> list[Path]:
    return sorted({p for pattern in DOCUMENTS for p in root.glob(pattern)})


def update(text: str, root: Path = ROOT) -> str:
    """`text` with every figure block's body rendered afresh; an unknown NAME is an error."""
    def body(match: re.Match) -> str:
        name = match["name"]
        if name not in FIGURES:
            raise KeyError(f"no figure {name!r} in reports/figures.py (known: {', '.join(sorted(FIGURES))})")
        return match.group(1) + render_block(name, root) + match.group(4)

    return BLOCK.sub(body, text)


def blocks(text: str) -> list[str]:
    return [m["name"] for m in BLOCK.finditer(text)]


def stale(root: Path = ROOT) -> list[str]:
    """`file: NAME` for every block whose text differs from what its sources render."""
    out = []
    for path in documents(root):
        text = path.read_text(encoding="utf-8")
        fresh = update(text, root)
        if fresh != text:
            new = dict(zip(blocks(fresh), (m["body"] for m in BLOCK.finditer(fresh))))
            out += [f"{path.relative_to(root)}: {m['name']}" for m in BLOCK.finditer(text)
                    if new.get(m["name"]) != m["body"]]
    return out


def rerun(names: list[str], root: Path = ROOT) -> None:
    """Run the commands behind these figures, in order, each command once (figures may share a source)."""
    commands = list(dict.fromkeys(s.command for name in names for s in FIGURES[name].sources if not s.kept))
    # `groundwatch` and `python` resolve to this interpreter's environment (.venv/bin), activated or not.
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    for command in commands:
        print(f"figures: {command}", file=sys.stderr)
        subprocess.run(command, shell=True, cwd=root, check=True, env=env)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m groundwatch.reports.figures", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list stale blocks and exit 1; change nothing")
    parser.add_argument("--rerun", nargs="+", metavar="NAME", choices=sorted(FIGURES),
                        help="first run these figures' commands to refresh their source files")
    parser.add_argument("--list", action="store_true", help="the figures, their sources and commands")
    args = parser.parse_args(argv)
    if args.list:
        for fig in FIGURES.values():
            print(fig.name + "".join(f"\n  {s.path}  <-  {s.command}" for s in fig.sources))
        return 0
    if args.check:
        found = stale()
        print("\n".join(f"stale figure block {s}" for s in found) or "every figure block matches its source")
        return 1 if found else 0
    if args.rerun:
        rerun(args.rerun)
    for path in documents():
        text = path.read_text(encoding="utf-8")
        fresh = update(text)
        if fresh != text:
            output_path(path).write_text(fresh, encoding="utf-8")
            print(f"updated {path.relative_to(ROOT)}: {', '.join(blocks(text))}")
    return 0


# --- the figures -------------------------------------------------------------------------------------------

# The demo: `make demo`'s command, with the summary saved; the agreement is computed on the same run's verdicts.
DEMO = Source("docs/figures/demo-summary.json", "groundwatch score --input examples/responses.jsonl "
              "--output build/verdicts.jsonl --no-progress --summary docs/figures/demo-summary.json")


@figure("demo-summary", DEMO)
def _demo_summary(data: list[dict]) -> str:
    return "```\n" + Summary.from_dict(data[0]).table() + "\n```"


# The README's quick start: `groundwatch explain r-1` prints exactly reports.explain.render of this record.
QUICKSTART = Source("docs/figures/quickstart-verdict.json", "groundwatch score --input examples/quickstart.jsonl "
                    "--output docs/figures/quickstart-verdict.json --no-progress")


@figure("quickstart-explain", QUICKSTART)
def _quickstart_explain(data: list[dict]) -> str:
    from groundwatch.reports.explain import render

    return "```\n" + render(data[0]) + "\n```"


EXAMPLES_AGREEMENT = Source("docs/figures/examples-agreement.json",
                            "python examples/compare.py build/verdicts.jsonl --json docs/figures/examples-agreement.json")


@figure("examples-agreement", DEMO, EXAMPLES_AGREEMENT)
def _examples_agreement(data: list[dict]) -> str:
    demo, d = data
    if d["responses"] != demo["responses"]:
        raise ValueError("examples-agreement.json does not come from the run in demo-summary.json; rerun both")
    share = 100 * d["claims_agree"] / max(d["claims"], 1)
    return (f"**{d['claims_agree']} of {d['claims']} claims agree ({share:.0f}%)** with the verdict a careful "
            f"reader expects (`examples/expected.jsonl`), and {d['responses_agree']} of {d['responses']} "
            f"responses get the expected `all_supported`, in the demo run above.")


AUDIT_CORPORA = ("clean", "conflicts", "degraded", "mixed")


@figure("audit-corpora", *(Source(f"docs/figures/audit-{name}.json",
                                  f"groundwatch audit-corpus --input tests/data/corpora/{name}.jsonl --no-nli "
                                  f"--no-progress --output docs/figures/audit-{name}.json")
                           for name in AUDIT_CORPORA))
def _audit_corpora(data: list[dict]) -> str:
    rows = []
    for name, report in zip(AUDIT_CORPORA, data):
        score, corpus = report["score"], report["corpus"]
        rows.append([f"`{name}`", corpus["documents"], f"{score['score']:.3f}", f"{score['parts']['intra']:.3f}",
                     f"{score['parts']['inter']:.3f}", len(report["conflicts"]),
                     len(report["internal_contradictions"]), len(report["versions"]), len(report["issues"])])
    return markdown_table(["corpus (model-free checks)", "documents", "consistency", "intra-document",
                           "inter-document", "conflicts", "internal contradictions", "superseded versions",
                           "document issues"], rows)


@figure("serve-loadtest", Source("docs/figures/serve-loadtest.json",
                                 "OUT=docs/figures/serve-loadtest.json infra/loadtest.sh 1,2,4,8,16 30"))
def _serve_loadtest(data: list[dict]) -> str:
    report = data[0]
    rows, base = report["rows"], report["rows"][0]["throughput_rps"]
    table = markdown_table(
        ["concurrency", "answered (200)", "errors", "throughput req/s", "vs 1", "p50 ms", "p95 ms", "p99 ms",
         "responses per scorer call", "pairs per model batch", "server CPU ms per response"],
        [[r["concurrency"], r["ok"], r["errors"], f"{r['throughput_rps']:.2f}",
          f"{r['throughput_rps'] / base:.2f}x" if base else "-", f"{r['p50_ms']:.0f}", f"{r['p95_ms']:.0f}",
          f"{r['p99_ms']:.0f}", f"{r['responses_per_call']:.1f}", f"{r['pairs_per_model_batch']:.1f}",
          f"{r['server_cpu_ms_per_response']:.0f}"]
         for r in rows])
    start, end = report["load_average_start"], report["load_average_end"]
    return (f"{table}\n\n{report['duration_s']:.0f} s recorded per level after {report['warmup_s']:.0f} s of "
            f"warm-up; {report['pinning']}; machine with {report['cpus']} CPUs, load average (1 min) "
            f"{start[0]:.1f} at the start and {end[0]:.1f} at the end.")


@figure("ops-week", Source("docs/figures/ops-week.json",
                           "python -m infra.simulate_ops --days 7 --out build/ops-week --images docs/img "
                           "--json docs/figures/ops-week.json"))
def _ops_week(data: list[dict]) -> str:
    r = data[0]
    rates = ", ".join(f"{app} {n} answers an hour" for app, n in sorted(r["answers_per_hour"].items()))
    fired = "; ".join(f"app {f['app']}, scorer {f['scorer_version']}: {f['hours']} hourly points from "
                      f"{f['first'][:16]} to {f['last'][:16]} UTC" for f in r["firing"]) or "never"
    return (f"{r['days']:g} simulated days ({r['start'][:10]} to {r['end'][:10]}, seed {r['seed']}; {rates}); "
            f"scorer version change at {r['version_change'][:16]}, regression of shop from {r['regression'][0][:16]} "
            f"to {r['regression'][1][:16]}. {r['interval_queries'] - r['empty_queries']} of {r['interval_queries']} "
            f"interval-panel queries return data. The drop test is above its level with both windows large "
            f"enough for: {fired}.")


def _dead_letters_cell(r: dict) -> str:
    """One per key (source coordinates) since dead letters are keyed; a run before that counted records."""
    if "dead_letter_records" not in r:
        return f"{r['dead_letters']} records (before dead letters were keyed)"
    return (f"{r['dead_letters']} (one per key; {r['dead_letter_records']} records, "
            f"{r['redelivered_dead_letters']} replayed copies under the same key)")


@figure("faults-long", Source("docs/figures/faults-long.json",
                              "python -m infra.faults --long --json docs/figures/faults-long.json"))
def _faults_long(data: list[dict]) -> str:
    r = data[0]
    o, cfg = r["outages"], r["config"]
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(r["bad_by_kind"].items()))
    table = markdown_table(
        ["messages", "kills (kill -9)", "outages", "rebalances", "documents", "dead letters", "lost",
         "duplicated", "valid dead-lettered", "offsets committed to the end"],
        [[f"{r['messages']} ({r['valid']} valid, {r['bad']} bad)", r["kills"],
          f"{sum(o.values())}: {o['opensearch_bulk_stalls']} `_bulk` held half-sent, "
          f"{o['opensearch_freezes']} SIGSTOP of osmem-server, {o['broker_pauses']} SIGSTOP of the broker",
          r["rebalances"], r["documents"], _dead_letters_cell(r), r["lost"],
          f"{r['duplicated']} ({r['duplicated_documents']} documents, {r['duplicated_dead_letters']} dead letters)",
          r["valid_dead_lettered"], "yes" if r["all_committed"] else f"no: {r['committed']} of {r['expected_committed']}"]])
    return (f"{table}\n\nBad messages by kind: {kinds}. NLI backend `{cfg['backend']}`, {cfg['partitions']} partitions, "
            f"batch size {cfg['batch_size']}, {r['consumer_starts'].get('a', 0)} starts of consumer A, "
            f"{r['crashes']} exits it did not cause, {r['elapsed_s']:.0f} s.")


@figure("overload", Source("docs/figures/overload.json", "python -m infra.overload --json docs/figures/overload.json"))
def _overload(data: list[dict]) -> str:
    r = data[0]
    rss = r["rss_mb"]
    table = markdown_table(
        ["sustainable rate", "input rate", "for", "messages", "RSS before", "RSS peak", "RSS at the end",
         "peak lag", "lag back to 0"],
        [[f"{r['sustainable_rate_per_s']:.0f}/s", f"{r['input_rate_per_s']:.0f}/s ({r['factor']:.0f}x)",
          f"{r['overload_s']:.0f} s", r["overload_messages"], f"{rss['baseline']:.0f} MB", f"{rss['peak']:.0f} MB",
          f"{rss['end']:.0f} MB", r["peak_lag"],
          f"{r['recovery_s']:.0f} s after the input stopped" if r["recovered"] else "no"]])
    return (f"{table}\n\nOne consumer, NLI backend `{r['backend']}`, {r['partitions']} partitions, batch size "
            f"{r['batch_size']}.")



# --- issue 11 §3: guards off vs on, re-decided from one scoring run each ---------------------------------------

GUARD_PROBE = Source("docs/figures/guards-probe.json",
                     "groundwatch score --input examples/guards/responses.jsonl --output build/guard-verdicts.jsonl "
                     "--no-progress && python examples/compare.py build/guard-verdicts.jsonl "
                     "--expected examples/guards/expected.jsonl --guards both --json docs/figures/guards-probe.json")
GUARD_FAMILIES = {"explicit_negation": "CONTRADICTED", "lexical_antonym": "CONTRADICTED",
                  "no_longer": "CONTRADICTED", "dropped_condition": "NOT_SUPPORTED", "dropped_scope": "NOT_SUPPORTED",
                  "wrong_arithmetic": "CONTRADICTED", "right_arithmetic": "SUPPORTED",
                  "control_paraphrase": "SUPPORTED", "control_double_negation": "SUPPORTED"}


def _share(agree: int, total: int) -> str:
    return f"{agree} ({100 * agree / max(total, 1):.0f}%)"


def _spread(verdicts: dict) -> str:
    return " / ".join(str(verdicts.get(v, 0)) for v in ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO"))


CONTROLS = Source("docs/figures/controls-shipped.json",
                  "groundwatch score --input examples/controls/responses.jsonl --output build/controls.jsonl "
                  "--no-progress && python -m groundwatch.evaluation.probing.controls build/controls.jsonl "
                  "--output docs/figures/controls-shipped.json")


@figure("controls", CONTROLS)
def _controls(data: list[dict]) -> str:
    report = data[0]
    rows = [[family, row["claims"], row["SUPPORTED"], row["CONTRADICTED"], row["NOT_ENOUGH_INFO"]]
            for family, row in report["families"].items()]
    r, p = report["rewordings"], report["pairs"]
    met = {"rewordings_supported_85": "85% of rewordings SUPPORTED",
           "no_family_below_70": "no rewording family below 70%",
           "rewordings_contradicted_at_most_2": "at most 2% of rewordings CONTRADICTED",
           "pairs_not_supported_85": "85% of minimal pairs not SUPPORTED"}
    targets = "; ".join(f"{text}: {'met' if report['targets'][key] else 'not met'}" for key, text in met.items())
    return (markdown_table(["family", "claims", "SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO"], rows)
            + f"\n\nModel {', '.join(f'`{m}`' for m in report['model'])}. Supported rewordings: "
            f"{_share(r['supported'], r['claims'])} SUPPORTED, {_share(r['contradicted'], r['claims'])} "
            f"CONTRADICTED (weakest family: {r['worst_family']}). Minimal pairs: "
            f"{_share(p['not_supported'], p['claims'])} not SUPPORTED. Targets: {targets}.\n")


@figure("guards-probe", GUARD_PROBE)
def _guards_probe(data: list[dict]) -> str:
    d = data[0]
    families = [f for f in GUARD_FAMILIES if f in d["by_family"]] + sorted(set(d["by_family"]) - set(GUARD_FAMILIES))
    rows = []
    for name in families:
        f = d["by_family"][name]
        rows.append([f"`{name}`", f["cases"], f["claims"], GUARD_FAMILIES.get(name, "mixed"),
                     _share(f["guards-off"]["agree"], f["claims"]), _share(f["guards-on"]["agree"], f["claims"]),
                     _spread(f["guards-off"]["verdicts"]), _spread(f["guards-on"]["verdicts"])])
    rows.append(["**all**", sum(f["cases"] for f in d["by_family"].values()), d["claims"], "",
                 f"**{_share(d['agree']['guards-off'], d['claims'])}**",
                 f"**{_share(d['agree']['guards-on'], d['claims'])}**", "", ""])
    table = markdown_table(["family", "cases", "claims", "expected", "agree, guards off", "agree, guards on",
                            "S / C / NEI off", "S / C / NEI on"], rows)
    t = d["thresholds"]
    saved = ("the guards-on column equals the saved verdicts" if not d["saved_differs_from_guards_on"] else
             f"{d['saved_differs_from_guards_on']} guards-on verdicts differ from the saved ones")
    return (f"{table}\n\nOne scoring run with model `{d['model']}` (τe {t['tau_entailment']}, τc "
            f"{t['tau_contradiction']}, {t['mode']}), re-decided without the guard checks for the off column "
            f"({saved}). S / C / NEI: claims given SUPPORTED / CONTRADICTED / NOT_ENOUGH_INFO; "
            f"NOT_SUPPORTED accepts either of the last two.")


# The dev-set figures were scored with int8 compute `blocks`, the default before `rows` (docs/models.md,
# "Deterministic inference"); their commands say so, so a rerun measures what they show.
def with_blocks(command: str) -> str:
    return f"export GROUNDWATCH_SCORER__INT8_COMPUTE=blocks && {command}"


# The verdict-rule and guards-dev reports: the four dev sets scored with the default compute (rows), decided at
# the shipped thresholds and combiner, which `final` fitted on the calibration half with `blocks`.
GUARDS_DEV_RUN = ("FIGURES_DIR=docs/figures infra/measure_verdict_rule.sh report && "
                  "test -s docs/figures/guards-dev-report.json")


@figure("guards-dev", Source("docs/figures/guards-dev-report.json", GUARDS_DEV_RUN))
def _guards_dev(data: list[dict]) -> str:
    report = data[0]
    rows = []
    for name in ("wice", "begin", "qags", "halueval", "pooled"):
        group = name if name == "pooled" else f"set:{name}"
        rows_by_state = {r["guards"]: r for r in report["labelled"]["guards"] if r["group"] == group}
        check = next(c for c in report["labelled"]["guards_check"] if c["group"] == group)
        off, on = rows_by_state["guards-off"], rows_by_state["guards-on"]
        cell = lambda r: _ci(r["balanced_accuracy"], r["interval_95"]["balanced_accuracy"])  # noqa: E731
        rows.append([name, f"{off['n']} ({off['unsupported']})", cell(off), cell(on), f"{check['delta']:+.3f}",
                     "-" if check["half_width"] is None else f"{check['half_width']:.3f}",
                     {True: "ok", False: "**drops more**", None: "no interval"}[check["ok"]]])
    table = markdown_table(["set (report half)", "n (unsupported)", "bal. acc., guards off [95%]",
                            "bal. acc., guards on [95%]", "on − off", "half-width (off)",
                            "no drop beyond the half-width"], rows)
    scorer = report["scorer"]
    return (f"{table}\n\nModel `{report.get('model', '?')}`, threshold rule {scorer['threshold_mode']} τe "
            f"{scorer['tau_entailment']}, τc {scorer['tau_contradiction']} (calibrated on the calibration half); one "
            f"scoring run of every record, re-decided with and without the guard checks; intervals: response "
            f"bootstrap, 1,000 resamples.")


@figure("examples-repeat", Source("docs/figures/examples-repeat.json",
                                  "python examples/repeat_runs.py --runs 5 --json docs/figures/examples-repeat.json"))
def _examples_repeat(data: list[dict]) -> str:
    d = data[0]
    runs = d["runs"]
    table = markdown_table(["run", "input order", "claims agreeing", "responses with the expected all_supported"],
                           [[r["run"], r["order"], f"{r['claims_agree']} of {r['claims']}",
                             f"{r['responses_agree']} of {r['responses']}"] for r in runs])
    same = ("**identical**" if d["identical"] else
            f"**not identical**: {d['responses_differing']} responses, {d['claim_verdicts_differing']} claim verdicts "
            f"differ")
    low, high = d["claims_agree_min"], d["claims_agree_max"]
    spread = f"**{low} of {runs[0]['claims']}** on every run" if low == high else f"**{low}–{high} of {runs[0]['claims']}**"
    return (f"{table}\n\nClaims agreeing with `{d['expected']}` over {len(runs)} runs: {spread}. The {len(runs)} "
            f"verdict files, compared by `request_id` except `{'`, `'.join(d['identical_except'])}`, are {same}. "
            f"Model `{d['model']}`.")


# --- issue 11 §1 / issue 14.3: NLI inference options and tokenize-once ------------------------------------------

NLI_OPTIONS = Source("docs/figures/nli-options.json",
                     "groundwatch bench --paths nli_options,tokenize_once --threads 1 --repeats 5 --no-progress "
                     "--output docs/figures/nli-options.json")
# The same bench on a CPU with AVX2 only (no int8 dot products): kept, another machine.
NLI_OPTIONS_AVX2 = Source("docs/figures/nli-options-avx2.json",
                          ("the command of `docs/figures/nli-options.json` with `--output "
                           "docs/figures/nli-options-avx2.json`, pinned to one core (`taskset -c 0`) of an AMD EPYC "
                           "with AVX2 only while a training run held the other, 2026-12-06"), kept=True)
# And on an Intel Xeon with AMX (bf16 and int8 tiles), where bf16 with fixed shapes is the fastest invariant option.
NLI_OPTIONS_AMX = Source("docs/figures/nli-options-amx.json",
                         ("the command of `docs/figures/nli-options.json` with `--output "
                          "docs/figures/nli-options-amx.json`, pinned to one core (`taskset -c 0`) of an Intel Xeon "
                          "with AMX while the other ran short tests, 2026-12-07"), kept=True)
OPTION_HEADERS = ["option", "precision", "MB", "pairs/s", "argmax agreement vs fp32", "max \\|Δp\\| vs fp32",
                  "batch-invariance max \\|Δp\\|", "deterministic"]


def _options_table(bench: dict) -> str:
    o, cpu = bench["paths"]["nli_options"], bench["machine"]["cpu"]
    rows = [[f"`{name}`", p["precision"], "-" if p["size_mb"] is None else p["size_mb"], f"{p['pairs_per_s']:.1f}",
             f"{p['argmax_agreement']:.4f}", f"{p['max_abs_prob_diff']:.1e}", f"{p['batch_invariance_max_dp']:.1e}",
             "yes" if p["deterministic"] else "**no**"] for name, p in o["options"].items()]
    cores = f"{cpu['usable_cores']} core{'s' if cpu['usable_cores'] != 1 else ''}"
    return (f"**{cpu['model']}, {cores} ({', '.join(cpu['flags'])})**\n\n"
            + markdown_table(OPTION_HEADERS, rows))


@figure("nli-options", NLI_OPTIONS, NLI_OPTIONS_AVX2, NLI_OPTIONS_AMX)
def _nli_options(data: list[dict]) -> str:
    bench, avx2, amx = data
    o, t = bench["paths"]["nli_options"], bench["paths"]["tokenize_once"]
    rows = [[name, f"{p['pairs_per_s']:.1f}", f"{p['preprocess_ms_per_pair']:.2f}"] for name, p in t["paths"].items()]
    tokenize = markdown_table(["pre-processing (PairScorer + batcher, shipped model)", "pairs/s", "tokenizer ms/pair"],
                              rows)
    return (f"{_options_table(bench)}\n\n{_options_table(avx2)}\n\n{_options_table(amx)}\n\npairs/s: {o['pairs']} "
            f"(passage, claim) pairs of `examples/`, one thread, the options interleaved, median of {o['repeats']}; "
            f"agreement on {o['validation_pairs']} held-out validation pairs; batch invariance: a pair alone vs inside "
            f"batches of other pairs (other padding). On the second machine `rows` runs in the uint8 layout of a CPU "
            f"without int8 dot products ([above](#deterministic-inference)); the third machine (AMX) also times "
            f"`torch bf16, fixed shapes` (`scorer.torch_compute`).\n\n{tokenize}"
            f"\n\nThe same {t['pairs']} pairs through the pair scorer and the batcher, interleaved, median of "
            f"{t['repeats']}; max \\|Δp\\| between the two (first machine): {t['max_abs_prob_diff']:.1e}.")


# --- issue 12: the verdict combiner and the evidence windows ------------------------------------------------

VERDICT_RULE_RUN = ("FIGURES_DIR=docs/figures infra/measure_verdict_rule.sh report && "
                    "test -s docs/figures/verdict-rule-report.json")


def windows_run(name: str) -> str:
    """The sweep of one chunking (the script's CHUNKINGS), copied to docs/figures."""
    return with_blocks(f"CHUNKINGS={name} FIGURES_DIR=docs/figures infra/measure_verdict_rule.sh sweep && "
                       f"test -s docs/figures/windows-{name}.json")
TARGETS = {"set:wice": 0.70, "set:begin": 0.76, "set:qags": 0.66, "set:halueval": 0.82, "pooled": 0.76}
CHUNKINGS = (("s4o1", "4 sentences, overlap 1 (shipped)"), ("s2o0", "2 sentences, no overlap"),
             ("s4o0", "4 sentences, no overlap"), ("s6o1", "6 sentences, overlap 1"),
             ("w60o1", "up to 60 words, overlap 1"))  # w120o1's run did not finish (README)
# How the verdict-rule figure was measured (user-facing text: the commit it was measured at is recorded in
# the model card beside the model, training/model_card.py).
VERDICT_RULE_MEASURED = ("with the shipped settings (each claim checked against the best 4 passage windows "
                         "and pairs of the best 3); the thresholds and the verdict combiner were fitted on "
                         "the benchmarks' calibration halves (scored with int8 compute `blocks`) and are applied "
                         "unchanged to the held-out halves, scored with the default compute")


def _ci(value, interval) -> str:
    if value is None:
        return "-"
    return f"{value:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else f"{value:.3f}"


@figure("verdict-rule", Source("docs/figures/verdict-rule-report.json", VERDICT_RULE_RUN),
        measured=lambda data: VERDICT_RULE_MEASURED)
def _verdict_rule(data: list[dict]) -> str:
    report = data[0]
    rows, by = [], {}
    for r in report["labelled"]["verdict_rules"]:
        by.setdefault(r["group"], {})[r["rule"]] = r
    for group, rules in by.items():
        t, c = rules["threshold"], rules["combiner"]
        target = TARGETS.get(group)
        met = "-" if target is None else " / ".join(
            ("met" if r["balanced_accuracy"] >= target and (r["recall"] or 0) >= 0.75 else "**missed**")
            for r in (t, c))
        rows.append([group.removeprefix("set:"), f"{t['n']} ({t['unsupported']})",
                     _ci(t["balanced_accuracy"], t["interval_95"]["balanced_accuracy"]),
                     _ci(c["balanced_accuracy"], c["interval_95"]["balanced_accuracy"]),
                     _ci(t["recall"], t["interval_95"]["recall"]), _ci(c["recall"], c["interval_95"]["recall"]),
                     f"{t['auroc']:.3f} / {c['auroc']:.3f}",
                     "-" if target is None else f"≥ {target:.2f}", met])
    scorer = report["scorer"]
    return (markdown_table(["set (report half)", "n (unsup.)", "threshold rule: bal. acc. [95%]",
                            "combiner: bal. acc. [95%]", "threshold: recall (unsup.)", "combiner: recall (unsup.)",
                            "AUROC threshold / combiner", "target", "threshold / combiner"], rows)
            + f"\n\nModel `{report['model'] or report['labelled'].get('model', '?')}`; threshold rule "
              f"{scorer['threshold_mode']} τe {scorer['tau_entailment']}, τc {scorer['tau_contradiction']}; "
              f"evidence windows: {scorer['chunk_sentences']} sentences, overlap {scorer['chunk_overlap']}, "
              f"top_k {scorer['top_k']}, pair_top {scorer['pair_top']}. \"met\" needs the balanced accuracy "
              f"target and recall on unsupported ≥ 0.75.")


OFF_TOPIC = Source("docs/off-topic-calibration.json",
                   "nice -n 5 python -m groundwatch.evaluation.relevance --limit 2000 "
                   "--output docs/off-topic-calibration.json")


@figure("off-topic", OFF_TOPIC)
def _off_topic(data: list[dict]) -> str:
    d = data[0]
    rows = []
    for gate, label in (("min_answer_words_0", "every answer"), ("min_answer_words_4", "answers of 4+ words")):
        g = d[gate]
        share = "" if g["judged_share"] == 1 else f" ({g['judged_share']:.0%} of pairs)"
        for rule, chosen in (("balanced", "best balanced accuracy"),
                             ("low_false_alarms", f"at most {d['max_false_alarms']:.0%} on topic flagged")):
            r = g["report"][rule]
            rows.append([label + share, f"{chosen}: {g['calibration'][rule]['threshold']:g}",
                         f"{r['off_topic_caught']:.1%}", f"{r['on_topic_flagged']:.1%}", f"{r['balanced_accuracy']:.3f}"])
    table = markdown_table(["gate", "threshold chosen on the calibration half", "off topic caught (report half)",
                            "on topic flagged", "balanced accuracy"], rows)
    half = d["questions"] // 2
    return (f"{table}\n\n{d['questions']} HaluEval QA questions (seeded shuffle, seed {d['seed']}), each paired with "
            f"its right answer and its hallucinated answer (both address the question: on topic) and with an answer "
            f"to another question (off topic): {d['pairs']} pairs, the cosine of the question's and the answer's "
            f"embeddings. Calibrated on the first {half} questions, reported on the other {half}. Mean cosine: on "
            f"topic {d['on_topic_similarity_mean']:.3f}, off topic {d['off_topic_similarity_mean']:.3f}.")


# The README's first screen: the shipped model's accuracy in one paragraph, from the figures below it.
@figure("model-summary", DEMO, EXAMPLES_AGREEMENT, Source("docs/figures/verdict-rule-report.json", VERDICT_RULE_RUN),
        measured=lambda data: "on the benchmarks " + VERDICT_RULE_MEASURED)
def _model_summary(data: list[dict]) -> str:
    _, examples, report = data
    rows = {r["group"]: r for r in report["labelled"]["verdict_rules"] if r["rule"] == "threshold"}
    pooled = rows["pooled"]
    sets = sorted((r["balanced_accuracy"], g.removeprefix("set:")) for g, r in rows.items() if g != "pooled")
    names = {"wice": "WiCE", "begin": "BEGIN", "qags": "QAGS", "halueval": "HaluEval"}
    return (f"On the example traffic, **{examples['claims_agree']} of {examples['claims']} claims** get the verdict a "
            f"careful reader expects. On four public groundedness sets ({', '.join(names.get(n, n) for _, n in sets)}; "
            f"{pooled['n']} held-out answers, {pooled['unsupported']} of them unsupported) it separates supported from "
            f"unsupported answers with **balanced accuracy {pooled['balanced_accuracy']:.2f}** "
            f"({names.get(sets[0][1], sets[0][1])} {sets[0][0]:.2f} to {names.get(sets[-1][1], sets[-1][1])} "
            f"{sets[-1][0]:.2f}) and flags **{pooled['recall']:.0%} of the unsupported answers**: about 1 in "
            f"{round(1 / max(1 - pooled['recall'], 1e-9))} passes unnoticed.")


# The report half scored once at top_k 8 / pair_top 4, every smaller window re-decided from those scores.
WINDOWS_REPORT_RUN = with_blocks("TOP_K=8 PAIR_TOP=4 infra/measure_verdict_rule.sh final && groundwatch eval --input "
                      "build/eval12/dev.jsonl --from-verdicts build/eval12/dev-s4o1-k8-p4-verdicts.jsonl --half report "
                      "--window-grid 2,4,6,8:0,2,3,4 --resamples 100 --output docs/figures/windows-report-s4o1.json")


@figure("evidence-windows",
        *(Source(f"docs/figures/windows-{name}.json", windows_run(name)) for name, _ in CHUNKINGS),
        Source("docs/figures/windows-report-s4o1.json", WINDOWS_REPORT_RUN),
        measured=lambda data: (f"with an earlier model, `{data[-1]['model']}`: the report-half table re-decides "
                               "the scores that model saved"))
def _evidence_windows(data: list[dict]) -> str:
    rows = []
    for (name, label), report in zip(CHUNKINGS, data):
        grid = report["labelled"]["window_grid"]
        shipped = next(r for r in grid if (r["top_k"], r["pair_top"]) == (4, 3))
        best = max(grid, key=lambda r: (r["tuned"]["mean_balanced_accuracy"], -r["top_k"], -r["pair_top"]))
        sets = ", ".join(f"{n} {v['n']}" for n, v in sorted(best["sets"].items()))
        tuned = shipped["tuned"]
        rows.append([label, f"{tuned['mean_balanced_accuracy']:.3f} (τe {tuned['tau_entailment']})",
                     f"{shipped['mean_auroc']:.3f}",
                     f"{best['top_k']} / {best['pair_top']}: {best['tuned']['mean_balanced_accuracy']:.3f} "
                     f"(τe {best['tuned']['tau_entailment']})", f"{best['mean_auroc']:.3f}"])
    calibration = markdown_table(["chunks (calibration half)",
                                  "top_k 4 / pair_top 3: mean bal. acc. at the best shared τe", "mean AUROC",
                                  "best top_k / pair_top: mean bal. acc.", "its mean AUROC"], rows)
    report = data[len(CHUNKINGS)]
    grid = report["labelled"]["window_grid"]
    names = sorted(grid[0]["sets"])
    rows = [[f"{r['top_k']} / {r['pair_top']}" + (" (shipped)" if (r["top_k"], r["pair_top"]) == (4, 3) else ""),
             *(f"{r['sets'][n]['balanced_accuracy']:.3f}" for n in names), f"{r['mean_balanced_accuracy']:.3f}",
             f"{r['mean_auroc']:.3f}"] for r in grid]
    n = ", ".join(f"{name} {grid[0]['sets'][name]['n']}" for name in names)
    scorer = report["scorer"]
    held_out = markdown_table(["top_k / pair_top (report half, 4 sentences, overlap 1)", *names, "mean bal. acc.",
                               "mean AUROC"], rows)
    return (f"{calibration}\n\nCalibration half: the first records of each set's calibration half ({sets}; BEGIN's "
            f"one short snippet is one window whatever the size), means over the sets; each chunking scored once at "
            f"top_k 8 / pair_top 4, every smaller setting re-decided from those scores.\n\n{held_out}\n\n"
            f"Report half ({n}), the shipped chunking only (the only one scored on every record), balanced accuracy "
            f"at the shipped thresholds ({scorer['threshold_mode']} τe {scorer['tau_entailment']}), re-decided from "
            f"the scores of the first verdict-rule run (scored at top_k 8 / pair_top 4, before the sentence premise).")



# The judge for the uncertain band: what the small model gets right on what it is sure of, and what a judge would see.
# A seeded sample of each dev set (WiCE's long pages: fewer), scored once; the table re-decides the saved verdicts.
JUDGE_COVERAGE_RUN = with_blocks("mkdir -p build/judge && for sn in wice:100 begin:240 qags:240 halueval:240; do s=${sn%:*}; "
                      "groundwatch convert --no-progress --dataset $s --limit ${sn#*:} --seed 0 -o build/judge/$s.jsonl "
                      "&& groundwatch eval --no-progress -i build/judge/$s.jsonl --no-question-mode --resamples 100 "
                      "--save-verdicts build/judge/$s-verdicts.jsonl > /dev/null || exit 1; done && "
                      "python -m groundwatch.evaluation.judge_coverage --dir build/judge --note 'a seeded sample: "
                      "groundwatch convert --seed 0 --limit 100 (WiCE) or 240 (the others)' "
                      "--output docs/figures/judge-coverage.json")


def _percent(value) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


@figure("judge-coverage", Source("docs/figures/judge-coverage.json", JUDGE_COVERAGE_RUN))
def _judge_coverage(data: list[dict]) -> str:
    d = data[0]
    sets = d["sets"]
    rows = []
    for r in d["rows"]:
        rep = r["report"]
        band = "none (no judge)" if r["band"] is None else f"[{r['band'][0]:.2f}, {r['band'][1]:.2f})"
        target = "-" if r["band"] is None else f"≤ {100 * r['target']:.0f}%"
        rows.append([target, band, _percent(rep["claims_deferred"]), _percent(rep["responses_deferred"]),
                     f"{rep['sure']} of {rep['responses']}", _ci(rep["balanced_accuracy"], rep.get("interval_95")),
                     *("-" if r["sets"][s]["balanced_accuracy"] is None else f"{r['sets'][s]['balanced_accuracy']:.3f}"
                       for s in sets)])
    table = markdown_table(["claims deferred (calibration target)", "band of best entailment",
                            "claims deferred (report half)", "responses deferred", "sure responses",
                            "bal. acc. on the sure ones [95%]", *(f"{s}" for s in sets)], rows)
    halves = d["halves"]
    n = ", ".join(f"{s} {halves['report'][s]}" for s in sets)
    scorer = d["scorer"]
    return (f"{table}\n\nReport half: {n} responses ({d['note']}); bands chosen on the calibration half "
            f"({sum(halves['calibration'].values())} responses) on a 0.05 grid around τe {scorer['tau_entailment']}; "
            f"verdicts at the shipped thresholds ({scorer['threshold_mode']} τe {scorer['tau_entailment']}, "
            f"τc {scorer['tau_contradiction']}); intervals: response bootstrap, {d['resamples']} resamples. The per-set "
            f"columns are the balanced accuracy on each set's sure responses.")


BEFORE = "docs/figures/before-normalisation"
# Each kept file records the commit it was measured at (the dev report predates the rule that guards cap and
# do not convict).
BEFORE_RUN = ("measured before the quantity readings and the polarity form by the command of "
              "`docs/figures/{name}.json`")


BEFORE_NAMES = ("controls-shipped", "examples-agreement", "guards-probe", "verdict-rule-report")


def _before(name: str) -> Source:
    return Source(f"{BEFORE}/{name}.json", BEFORE_RUN.format(name=name), kept=True)


def _rate(n: int, total: int) -> str:
    return f"{n} of {total} ({100 * n / max(total, 1):.0f}%)"


def _contradicted_precision(three_way: dict) -> str:
    """CONTRADICTED precision on the claims with three-way labels (matrix rows: gold, columns: verdict)."""
    column = three_way["labels"].index("contradicted")
    said = sum(row[column] for row in three_way["matrix"])
    right = three_way["matrix"][column][column]
    return f"{right} of {said}" if said else "none said"


def _set_accuracies(labelled: dict) -> dict[str, tuple[float, list[float] | None]]:
    """Each dev set's balanced accuracy under the threshold rule, with its 95% interval where the report has one
    (only beside a fitted combiner)."""
    intervals = {r["group"]: r["interval_95"]["balanced_accuracy"] for r in labelled.get("verdict_rules", [])
                 if r["rule"] == "threshold"}
    return {group.removeprefix("set:"): (s["balanced_accuracy"], intervals.get(group))
            for group, s in labelled["strata"].items() if group.startswith("set:")}


def _dev_rows(report: dict | None) -> dict[str, str]:
    if report is None:
        return {}
    labelled = report["labelled"]
    head, ci = labelled["headline"], labelled["headline"]["interval_95"]
    rows = {"dev report half, recall on supported claims (pooled)": f"{head['specificity']:.3f}",
            "dev report half, balanced accuracy (pooled) [95%]":
                f"{head['balanced_accuracy']:.3f} [{ci['balanced_accuracy'][0]:.3f}, {ci['balanced_accuracy'][1]:.3f}]"}
    for name, (accuracy, interval) in _set_accuracies(labelled).items():
        rows[f"dev report half, balanced accuracy, {name} [95%]"] = (
            f"{accuracy:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else f"{accuracy:.3f}")
    rows["CONTRADICTED precision, three-way labelled claims"] = _contradicted_precision(labelled["three_way"])
    return rows


def _false_alarm_rows(controls: dict, examples: dict, probe: dict, dev: dict | None = None) -> dict[str, str]:
    r, p = controls["rewordings"], controls["pairs"]
    rows = {"control rewordings SUPPORTED": _rate(r["supported"], r["claims"]),
            "control rewordings CONTRADICTED": _rate(r["contradicted"], r["claims"]),
            "weakest rewording family SUPPORTED":
                f"{r['worst_family']} {100 * r['worst_family_supported_share']:.0f}%",
            "control minimal pairs not SUPPORTED": _rate(p["not_supported"], p["claims"]),
            "examples agreeing with the expected verdicts": f"{examples['claims_agree']} of {examples['claims']}"}
    rows |= _dev_rows(dev)
    for name, family in probe["by_family"].items():
        on = family["guards-on"]["verdicts"]
        not_supported = family["claims"] - on.get("SUPPORTED", 0)
        rows[f"guard probe `{name}`: not SUPPORTED (CONTRADICTED)"] = (
            f"{not_supported} of {family['claims']} ({on.get('CONTRADICTED', 0)})")
    return rows


FALSE_ALARM_TARGETS = {
    "control rewordings SUPPORTED": "≥ 85%", "control rewordings CONTRADICTED": "≤ 2%",
    "weakest rewording family SUPPORTED": "≥ 70%", "control minimal pairs not SUPPORTED": "≥ 85%",
    "examples agreeing with the expected verdicts": "≥ 129", "dev report half, recall on supported claims (pooled)":
        "≥ 0.865", "dev report half, balanced accuracy (pooled) [95%]": "higher"}


@figure("false-alarms", CONTROLS, EXAMPLES_AGREEMENT, GUARD_PROBE,
        Source("docs/figures/verdict-rule-report.json", VERDICT_RULE_RUN),
        *(_before(name) for name in BEFORE_NAMES))
def _false_alarms(data: list[dict]) -> str:
    now, before = _false_alarm_rows(*data[:4]), _false_alarm_rows(*data[4:])
    rows = [[measure, before.get(measure, "not measured"), now[measure], FALSE_ALARM_TARGETS.get(measure, "")]
            for measure in now]
    models = (f"Model `{data[3]['model']}` in both columns (the same weights)" if data[3]["model"] == data[7]["model"]
              else f"Before: model `{data[7]['model']}`; now: model `{data[3]['model']}`, retrained with the "
                   "counter-shortcut data (`training/README.md`)")
    return (markdown_table(["measure", "before normalisation", "now", "target"], rows)
            + f"\n\n{models}. Before: without the quantity "
            "readings and the polarity form described above, each file measured at the commit its source names (the "
            "dev report also before guards stopped convicting on their own). Dev figures: the report half at the "
            "thresholds calibrated on the calibration half, each column with its own calibration. A guard-probe "
            "family should keep its share of not-SUPPORTED claims.\n")


# --- the evidence cascade and the whole path (docs/performance.md) -----------------------------------------

CASCADE_EXAMPLES = Source("docs/figures/cascade-examples.json",
                          "python -m groundwatch.evaluation.bench.cascade --input examples/responses.jsonl "
                          "--expected examples/expected.jsonl --output docs/figures/cascade-examples.json")


def _cascade_row(label: str, r: dict) -> list:
    before, after = r["all_premises"], r["cascade"]
    return [label, r["responses"], r["claims"],
            f"{before['model_inputs_per_response']:.1f} → {after['model_inputs_per_response']:.1f}",
            f"{before['tokens_per_response']:.0f} → {after['tokens_per_response']:.0f}",
            f"{before['joined_pairs_per_claim']:.2f} → {after['joined_pairs_per_claim']:.2f}",
            f"{len(r['changed'])} ({100 * r['changed_share']:.2f}%)"]


CASCADE_HEADERS = ["input", "responses", "claims", "model inputs per response", "tokens per response",
                   "joined pairs per claim", "claim verdicts changed"]


@figure("cascade-examples", CASCADE_EXAMPLES)
def _cascade_examples(data: list[dict]) -> str:
    r = data[0]
    e = r["expected"]
    worse = ", ".join(w["request_id"] for w in e["worse"]) or "none"
    return (markdown_table(CASCADE_HEADERS, [_cascade_row("`examples/responses.jsonl`", r)])
            + f"\n\nEvery premise of every claim scored (left of each arrow) against the cascade (right), the "
            f"same responses and model, context conflicts on (their pairs are among the model inputs). Claims "
            f"agreeing with `examples/expected.jsonl`: {e['agree_all_premises']} of {e['claims']} with every "
            f"premise, {e['agree_cascade']} with the cascade; worse with the cascade: {worse}. Joined pairs were "
            f"scored for {r['cascade']['claims_with_joined_pairs']} of {r['claims']} claims.")


# The dev sets' report halves: the first records of each (the settling rule was revised after a first run on
# these), then records after them that no choice was made on (--skip).
CASCADE_DEV_RUNS = (("wice", 0, 60), ("begin", 0, 120), ("halueval", 0, 120), ("qags", 0, 40),
                    ("halueval", 120, 150), ("qags", 40, 40),
                    # the rest of each report half
                    ("wice", 60, 116), ("begin", 120, 283), ("halueval", 270, 225), ("qags", 80, 395))


def _cascade_dev_path(name: str, skip: int) -> str:
    return f"docs/figures/cascade-dev-{name}{f'-from-{skip + 1}' if skip else ''}.json"


def cascade_dev_run(name: str, skip: int, limit: int) -> str:
    convert = f"groundwatch convert --dataset {name} --output build/dev/{name}.jsonl" + (
        " --limit 1000" if name == "halueval" else "")
    return with_blocks(f"{convert} && python -m groundwatch.evaluation.bench.cascade --input build/dev/{name}.jsonl "
                       f"--half report {f'--skip {skip} ' if skip else ''}--limit {limit} "
                       f"--output {_cascade_dev_path(name, skip)}")


@figure("cascade-dev", *(Source(_cascade_dev_path(name, skip), cascade_dev_run(name, skip, limit))
                         for name, skip, limit in CASCADE_DEV_RUNS))
def _cascade_dev(data: list[dict]) -> str:
    rows, changed = [], []
    for (name, skip, limit), r in zip(CASCADE_DEV_RUNS, data):
        rows.append(_cascade_row(f"{name}, report half, records {skip + 1}–{skip + r['responses']}", r))
        changed += [c | {"set": name} for c in r["changed"]]
    claims = sum(r["claims"] for r in data)
    rows.append(["all", sum(r["responses"] for r in data), claims, "", "", "",
                 f"{len(changed)} ({100 * len(changed) / max(1, claims):.2f}%)"])
    listed = "; ".join(f"{c['set']} `{c['request_id']}` claim {c['claim'] + 1}: {c['all_premises']} → {c['cascade']}"
                       for c in changed) or "none"
    return (markdown_table(CASCADE_HEADERS, rows)
            + f"\n\nThe target is fewer than 0.5% of claim verdicts changed. Changed claims: {listed}. The first "
            "records of each set are those the settling rule was chosen on (a first rule changed 3 of their "
            "claims); the rows with `--skip` are the records after them, which no choice was made on; together the rows "
            "cover each report half whole.")


PERFORMANCE = Source("docs/figures/performance.json",
                     "groundwatch bench --paths whole_path --input examples/responses.jsonl --n-responses 56 "
                     "--threads 2 --no-progress --output docs/figures/performance.json")
# The goals the whole path is held to: (what, measured value from the bench, how it is met, its text).
PERFORMANCE_GOALS = (
    ("NLI path vs `CrossEncoder.predict`, pairs/s", lambda w: w["nli_vs_cross_encoder"], lambda v: v >= 3.0,
     "≥ 3×", "{:.2f}×"),
    ("end to end vs `CrossEncoder.predict` over the same candidates, cache cold",
     lambda w: w["end_to_end_vs_cross_encoder"], lambda v: v >= 2.0, "≥ 2×", "{:.2f}×"),
    ("p50 per response, one at a time", lambda w: 1000 * w["latency_s"]["groundwatch"]["p50"], lambda v: v <= 150,
     "≤ 150 ms", "{:.0f} ms"),
    ("p99 per response, one at a time", lambda w: 1000 * w["latency_s"]["groundwatch"]["p99"], lambda v: v <= 400,
     "≤ 400 ms", "{:.0f} ms"),
    ("`groundwatch score` peak RSS", lambda w: w["cold_start"]["peak_rss_mb"], lambda v: v <= 700,
     "≤ 700 MB", "{:.0f} MB"),
    ("cold start to the first verdict", lambda w: w["cold_start"]["first_verdict_s"], lambda v: v < 5,
     "< 5 s", "{:.1f} s"),
)


# The same bench on a CPU with AVX2 only (no int8 dot products): kept, another machine.
PERFORMANCE_AVX2 = Source("docs/figures/performance-avx2.json",
                          "the command of `docs/figures/performance.json` with `--output "
                          "docs/figures/performance-avx2.json` on an AMD EPYC with AVX2 only, 2 cores, idle, "
                          "2026-12-06",
                          kept=True)


# And on an Intel Xeon with AMX: the shipped model on ONNX (`rows`), and its compact copy on the torch backend
# (bf16 with fixed shapes). Kept, another machine.
PERFORMANCE_AMX = Source("docs/figures/performance-amx.json",
                         "the command of `docs/figures/performance.json` with `--output "
                         "docs/figures/performance-amx.json` on an Intel Xeon with AMX, 2 cores, idle, 2026-12-07",
                         kept=True)
PERFORMANCE_AMX_TORCH = Source("docs/figures/performance-amx-torch.json",
                               "the command of `docs/figures/performance.json` with `--model "
                               "scorers/models/nli-minilm-torch --output docs/figures/performance-amx-torch.json` on "
                               "the same machine, idle, 2026-12-07",
                               kept=True)


@figure("performance-amx", PERFORMANCE_AMX, PERFORMANCE_AMX_TORCH)
def _performance_amx(data: list[dict]) -> str:
    onnx, torch = data
    return (f"**The shipped model on ONNX Runtime (`rows`)**\n\n{_whole_path(onnx)}\n\n"
            f"**Its compact copy on the torch backend (bf16 with fixed shapes)**\n\n{_whole_path(torch)}")


@figure("performance", PERFORMANCE)
def _performance(data: list[dict]) -> str:
    return _whole_path(data[0])


@figure("performance-avx2", PERFORMANCE_AVX2)
def _performance_avx2(data: list[dict]) -> str:
    return _whole_path(data[0])


def _whole_path(bench: dict) -> str:
    w, cpu = bench["paths"]["whole_path"], bench["machine"]["cpu"]
    gw, ce = w["latency_s"]["groundwatch"], w["latency_s"]["cross_encoder"]
    rows = [["responses/s, batcher full", f"{w['responses_per_s']['groundwatch']:.2f}",
             f"{w['responses_per_s']['cross_encoder']:.2f}", f"{w['end_to_end_vs_cross_encoder']:.2f}×"],
            ["NLI pairs/s (the same candidate pairs)", f"{w['pairs_per_s']['groundwatch_nli']:.1f}",
             f"{w['pairs_per_s']['cross_encoder']:.1f}", f"{w['nli_vs_cross_encoder']:.2f}×"],
            ["latency per response p50 / p99, one at a time", f"{1000 * gw['p50']:.0f} / {1000 * gw['p99']:.0f} ms",
             f"{1000 * ce['p50']:.0f} / {1000 * ce['p99']:.0f} ms", ""]]
    if "groundwatch_warm" in w["responses_per_s"]:
        rows.insert(1, ["responses/s, the same responses again (caches warm)",
                        f"{w['responses_per_s']['groundwatch_warm']:.2f}", "", ""])
    table = markdown_table(["", "groundwatch (whole path)", "`CrossEncoder.predict` (scores only)", "ratio"], rows)
    goals = []
    for what, value, met, target, fmt in PERFORMANCE_GOALS:
        v = value(w)
        goals.append([what, target, fmt.format(v), "met" if met(v) else "**missed**"])
    cold, replay = w["cold_start"], w.get("replay")
    cache = ""
    if replay:
        cache = (f" The pair cache on a stream that repeats: the {replay['distinct']} responses replayed as "
                 f"{replay['responses']} (each one to three times, shuffled, seed {replay['seed']}, some with other "
                 f"passages), {replay['batch']} per call: hit rate {100 * replay['hit_rate']:.0f}%, "
                 f"{replay['responses_per_s']['cache_on']:.2f} responses/s against "
                 f"{replay['responses_per_s']['cache_off']:.2f} with the cache off ({replay['cache_on_vs_off']:.2f}×), "
                 f"beside the kernel gain in the table (measured cache cold).")
    return (f"{table}\n\n{markdown_table(['goal', 'target', 'measured', ''], goals)}\n\n"
            f"{w['responses']} responses of `examples/responses.jsonl`: {w['candidate_pairs']} candidate pairs, of "
            f"which groundwatch's cascade sent {w['model_inputs']} model inputs; {w['precision']} on {w['provider']}, "
            f"{bench['machine']['threads']} threads, interleaved, median of {w['repeats']}. Cold start: median of "
            f"{len(cold['runs_s'])} fresh `groundwatch score` processes ({', '.join(f'{s:.1f}' for s in cold['runs_s'])} s), "
            f"peak RSS {cold['peak_rss_mb']:.0f} MB. {cpu['model']}, {cpu['usable_cores']} usable cores "
            f"({', '.join(cpu['flags'])}).{cache}")



PERFORMANCE_SECOND_OPINION = Source(
    "docs/figures/performance-second-opinion.json",
    "measured into `docs/figures/performance-second-opinion.json` by `groundwatch bench --paths whole_path "
    "--input examples/responses.jsonl --n-responses 24 --threads 1 --no-progress --second-opinion DIR --output "
    "OUT` pinned to one core "
    "(`taskset -c 1`) while the other scored the dev sets, DIR the int8-blocks export (`groundwatch export-model "
    "--precision int8-blocks`) of all-mpnet-base-v2 run 2 (training/README.md; the repository holds its compact "
    "copy, training/runs/mpnet-run2)", kept=True)


def _threads(n: int) -> str:
    return "one thread" if n == 1 else f"{n} threads"


def _ms(latency: dict) -> str:
    return f"{1000 * latency['p50']:.0f} / {1000 * latency['p99']:.0f} ms"


# The same on an Intel Xeon with AMX, the larger model run 4's compact copy on the torch backend (bf16 with fixed
# shapes). Kept, another machine.
PERFORMANCE_SECOND_OPINION_AMX = Source(
    "docs/figures/performance-second-opinion-amx.json",
    "measured into `docs/figures/performance-second-opinion-amx.json` by the command of "
    "`docs/figures/performance-second-opinion.json` with DIR `training/runs/mpnet-run4` (all-mpnet-base-v2 run 4's "
    "compact copy, on the torch backend: bf16 with fixed shapes) pinned to one core (`taskset -c 0`) of an Intel "
    "Xeon with AMX, the other idle, 2026-12-07", kept=True)


# And on both cores of that machine, idle: each model's batches run on both (the torch backend's fixed-shape
# chunks one per core). Kept, another machine.
PERFORMANCE_SECOND_OPINION_AMX_2 = Source(
    "docs/figures/performance-second-opinion-amx-2cores.json",
    "measured into `docs/figures/performance-second-opinion-amx-2cores.json` by `groundwatch bench --paths "
    "whole_path --input examples/responses.jsonl --n-responses 24 --threads 2 --no-progress --second-opinion "
    "training/runs/mpnet-run4 --output OUT` on the machine of `docs/figures/performance-second-opinion-amx.json`, "
    "both cores idle, 2026-12-07", kept=True)
PERFORMANCE_SECOND_OPINION_AMX_TORCH = Source(
    "docs/figures/performance-second-opinion-amx-torch.json",
    "measured into `docs/figures/performance-second-opinion-amx-torch.json` by the command of "
    "`docs/figures/performance-second-opinion-amx-2cores.json` with `--model scorers/models/nli-minilm-torch` on the "
    "same machine, both cores idle, 2026-12-07", kept=True)


@figure("performance-second-opinion", PERFORMANCE_SECOND_OPINION, PERFORMANCE_SECOND_OPINION_AMX,
        PERFORMANCE_SECOND_OPINION_AMX_2, PERFORMANCE_SECOND_OPINION_AMX_TORCH)
def _performance_second_opinion(data: list[dict]) -> str:
    avx2, amx, amx_2, amx_torch = data
    return (f"**AMD EPYC with AVX2 only; the larger model: run 2, int8-blocks export on ONNX Runtime**\n\n"
            f"{_second_opinion_table(avx2)}\n\n**Intel Xeon with AMX; the larger model: run 4, compact copy on the "
            f"torch backend (bf16 with fixed shapes)**\n\n{_second_opinion_table(amx)}\n\n**The same on both "
            f"cores**\n\n{_second_opinion_table(amx_2)}\n\n**The same on both cores, the small model on the torch "
            f"backend too**\n\n{_second_opinion_table(amx_torch)}")


def _second_opinion_table(bench: dict) -> str:
    w = bench["paths"]["whole_path"]
    second, latency, rate = w["second_opinion"], w["latency_s"], w["responses_per_s"]
    cold, cold_with = w["cold_start"], second["cold_start"]
    rows = [["responses/s, batcher full, caches cold", f"{rate['groundwatch']:.2f}", f"{second['responses_per_s']:.2f}",
             f"{second['larger_alone_responses_per_s']:.2f}"],
            ["responses/s, the same responses again (caches warm)", f"{rate['groundwatch_warm']:.2f}",
             f"{second['responses_per_s_warm']:.2f}", ""],
            ["latency per response p50 / p99, one at a time", _ms(latency["groundwatch"]),
             _ms(latency["groundwatch_second_opinion"]), _ms(latency["larger_alone"])],
            ["NLI path pairs/s, each model on its own", f"{w['pairs_per_s']['groundwatch_nli']:.1f}",
             f"{second['nli_pairs_per_s']:.1f} (the larger model)", f"{second['nli_pairs_per_s']:.1f}"],
            ["claims the larger model re-scores", "", _rate(sum(second["escalated"].values()), second["claims"]),
             "all"],
            ["`groundwatch score` peak RSS", f"{cold['peak_rss_mb']:.0f} MB", f"{cold_with['peak_rss_mb']:.0f} MB", ""],
            ["cold start, process start to first verdict", f"{cold['first_verdict_s']:.1f} s",
             f"{cold_with['first_verdict_s']:.1f} s", ""]]
    reasons = ", ".join(f"{reason.replace('_', ' ')} {n}" for reason, n in second["escalated"].items())
    cpu = bench["machine"]["cpu"]
    return (markdown_table(["", "small model alone", "with the second opinion", "larger model alone"], rows)
            + f"\n\nThe same {w['responses']} responses, interleaved in one run, "
            f"{_threads(bench['machine']['threads'])}; re-scored: {reasons}. With the second opinion on, the pipeline keeps "
            f"{100 * second['vs_small_alone']:.0f}% of its responses/s. The larger model's NLI path: its first "
            f"{second['nli_pairs']} candidate pairs. {cpu['model']} ({', '.join(cpu['flags'])}).")


# Where the consumer's memory goes: its scorer at the defaults, with the previous batch budget, with torch imported.
MEMORY = "python -m infra.consumer_memory --responses 192 --output docs/figures/{}.json"


@figure("consumer-memory", Source("docs/figures/consumer-memory.json", MEMORY.format("consumer-memory")),
        Source("docs/figures/consumer-memory-8192.json",
               "GROUNDWATCH_SCORER__MAX_BATCH_TOKENS=8192 " + MEMORY.format("consumer-memory-8192")),
        Source("docs/figures/consumer-memory-torch.json",
               MEMORY.format("consumer-memory-torch").replace(" --output", " --with-torch --output")))
def _consumer_memory(data: list[dict]) -> str:
    steps = {"scorer_built": "scorer built", "warmed_up": "first pair scored"}
    heads = [f"`max_batch_tokens` {r['max_batch_tokens']}" + (", torch imported" if r["torch_imported"] else "")
             for r in data]
    rows = [[steps.get(k, f"after {k.removeprefix('scored_')} responses")] + [f"{r['rss_mb'][k]:.0f}" for r in data]
            for k in data[0]["rss_mb"]]
    rows.append(["**peak**"] + [f"**{r['peak_rss_mb']:.0f}**" for r in data])
    first = data[0]
    return (markdown_table(["RSS, MB"] + heads, rows) + f"\n\nThe shipped NLI model and the embedder on "
            f"`{first['backend']}`, each column at the default settings but for what its heading names; "
            f"{first['responses']} responses scored {first['kafka_batch_size']} at a time (`kafka.batch_size`), "
            "copies of `examples/responses.jsonl` under new ids.")


# Which use of the larger model pays: the shipped model alone, with the larger one as second opinion, the small
# model distilled from it, the larger one alone; controls, examples and guard probe scored by each
# (infra/measure_uses.sh). The exports are not in the repository (only the training runs' compact copies): those
# three files are kept measurements.
MODEL_USES_LARGER = ("measured into `docs/figures/model-uses-{use}.json` by `LARGER=training/runs/mpnet-run4 "
                     "infra/measure_uses.sh {use} OUT` on an Intel Xeon with AMX, 2026-12-07: all-mpnet-base-v2 "
                     "run 4's compact copy (training/README.md) on the torch backend, bf16 with fixed shapes")
MODEL_USES = (Source("docs/figures/model-uses-small.json",
                     "infra/measure_uses.sh small docs/figures/model-uses-small.json"),
              Source("docs/figures/model-uses-second-opinion.json",
                     MODEL_USES_LARGER.format(use="second-opinion"), kept=True),
              Source("docs/figures/model-uses-distilled.json",
                     "measured into `docs/figures/model-uses-distilled.json` by `DISTILLED=DIR infra/measure_uses.sh "
                     "distilled OUT` on an AMD EPYC with AVX2 only, DIR the int8-blocks export (`groundwatch "
                     "export-model --precision int8-blocks`; one scale per channel loses this model's argmax on "
                     "3 of 8 parity pairs) of the distilled small model's checkpoint (training/README.md); the "
                     "repository holds its compact copy, training/runs/distil-run1", kept=True),
              Source("docs/figures/model-uses-larger.json", MODEL_USES_LARGER.format(use="larger"), kept=True))
# The same uses on the dev sets' report half: the first DEV_LIMIT records of each set (the larger model reads
# about five times slower than the small one), scored by each use at the shipped thresholds.
DEV_LIMIT = 100
MODEL_USES_DEV_LARGER = (f"measured into `docs/figures/model-uses-dev-{{use}}.json` by `DEV_LIMIT={DEV_LIMIT} "
                         "LARGER=training/runs/mpnet-run4 infra/measure_uses.sh {use} OUT dev` on the same machine")
MODEL_USES_DEV = (Source("docs/figures/model-uses-dev-small.json",
                         f"DEV_LIMIT={DEV_LIMIT} infra/measure_uses.sh small docs/figures/model-uses-dev-small.json dev"),
                  Source("docs/figures/model-uses-dev-second-opinion.json",
                         MODEL_USES_DEV_LARGER.format(use="second-opinion"), kept=True),
                  Source("docs/figures/model-uses-dev-distilled.json",
                         f"measured into `docs/figures/model-uses-dev-distilled.json` by `DEV_LIMIT={DEV_LIMIT} "
                         "DISTILLED=DIR infra/measure_uses.sh distilled OUT dev`, DIR as above", kept=True),
                  Source("docs/figures/model-uses-dev-larger.json", MODEL_USES_DEV_LARGER.format(use="larger"),
                         kept=True))


def _use_rows(d: dict) -> dict[str, str]:
    r, p = d["controls"]["rewordings"], d["controls"]["pairs"]
    probe = d["guard_probe"]
    rows = {"control rewordings SUPPORTED": _rate(r["supported"], r["claims"]),
            "control rewordings CONTRADICTED": _rate(r["contradicted"], r["claims"]),
            "weakest rewording family SUPPORTED": f"{r['worst_family']} {100 * r['worst_family_supported_share']:.0f}%",
            "control minimal pairs not SUPPORTED": _rate(p["not_supported"], p["claims"]),
            "examples agreeing with the expected verdicts": f"{d['examples']['claims_agree']} of {d['examples']['claims']}",
            "guard probe agreeing with the expected verdicts": _rate(probe["agree"], probe["claims"])}
    wrong = [f for name, f in probe["by_family"].items() if GUARD_FAMILIES.get(name) == "CONTRADICTED"]
    rows["guard probe CONTRADICTED where expected"] = _rate(
        sum(f["verdicts"].get("CONTRADICTED", 0) for f in wrong), sum(f["claims"] for f in wrong))
    second = d.get("second_opinion")
    rows["claims the larger model re-read"] = _rate(second["escalated"], second["claims"]) if second else "none"
    rows["of those, verdict changed"] = str(second["changed"]) if second else ""
    return rows


def _use_dev_rows(report: dict, small: dict) -> dict[str, str]:
    """A use's dev rows; a set counts as dropped when it is below the small model's balanced accuracy on it by
    more than the half-width of the small model's 95% interval."""
    labelled, baseline = report["labelled"], _set_accuracies(small["labelled"])
    head, ci = labelled["headline"], labelled["headline"]["interval_95"]["balanced_accuracy"]
    dropped = [f"{name} {accuracy - baseline[name][0]:+.3f}" for name, (accuracy, _) in _set_accuracies(labelled).items()
               if baseline[name][1] and baseline[name][0] - accuracy > (baseline[name][1][1] - baseline[name][1][0]) / 2]
    return {"dev report halves, balanced accuracy (pooled) [95%]":
                f"{head['balanced_accuracy']:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]",
            "dev report halves, recall on supported claims (pooled)": f"{head['specificity']:.3f}",
            "dev sets below the small model by more than its interval's half-width": ", ".join(dropped) or "none",
            "CONTRADICTED precision, three-way labelled claims (BEGIN)": _contradicted_precision(labelled["three_way"])}


# The shipped model's compact copy on the torch backend in bf16 with fixed shapes (what it computes on a CPU with
# AMX) against the default ONNX rows: the same measures, so the precision's effect on verdicts is visible.
TORCH_USES = (Source("docs/figures/model-uses-torch.json",
                     "measured into `docs/figures/model-uses-torch.json` by `infra/measure_uses.sh torch OUT` on an "
                     "Intel Xeon with AMX, 2026-12-07 (bf16 with fixed shapes there; fp32 on a CPU without AMX)",
                     kept=True),
              Source("docs/figures/model-uses-dev-torch.json",
                     f"measured into `docs/figures/model-uses-dev-torch.json` by `DEV_LIMIT={DEV_LIMIT} "
                     "infra/measure_uses.sh torch OUT dev` on the same machine", kept=True))


@figure("torch-accuracy", MODEL_USES[0], MODEL_USES_DEV[0], *TORCH_USES)
def _torch_accuracy(data: list[dict]) -> str:
    small, small_dev, torch, torch_dev = data
    columns = [_use_rows(d) | _use_dev_rows(r, small_dev) for d, r in ((small, small_dev), (torch, torch_dev))]
    skip = ("claims the larger model re-read", "of those, verdict changed")
    rows = [[measure, columns[0][measure], columns[1][measure]] for measure in columns[0] if measure not in skip]
    return (markdown_table(["measure", "ONNX Runtime, `rows` (the default)", "torch backend, bf16 with fixed shapes"],
                           rows)
            + "\n\nThe same model's weights, every column at the shipped thresholds: `rows` as in the model-uses "
            "table above, bf16 on an Intel Xeon with AMX. Dev rows: the first "
            f"{DEV_LIMIT} records of each dev set's report half ({small_dev['labelled']['n_scored']} responses).\n")


PERFORMANCE_DISTILLED = Source(
    "docs/figures/performance-distilled.json",
    "measured into `docs/figures/performance-distilled.json` by `groundwatch bench --paths whole_path --input "
    "examples/responses.jsonl --n-responses 24 --threads 1 --no-progress --model DIR --output OUT` pinned to one "
    "core (`taskset -c 1`) on the machine of `docs/figures/performance-second-opinion-amx.json` while the other "
    "scored the controls, DIR the int8-blocks export of the distilled model's compact copy "
    "(training/runs/distil-run1)", kept=True)


def _use_speed_rows(bench: dict, distilled: dict) -> list[dict[str, str]]:
    """Responses/s and latency of each use, from the bench (small alone, second opinion and larger alone in one
    interleaved run; the distilled model in its own run on the same machine)."""
    w, d = bench["paths"]["whole_path"], distilled["paths"]["whole_path"]
    second, latency = w["second_opinion"], w["latency_s"]
    small = w["responses_per_s"]["groundwatch"]
    rates = [small, second["responses_per_s"], d["responses_per_s"]["groundwatch"],
             second["larger_alone_responses_per_s"]]
    waits = [latency["groundwatch"], latency["groundwatch_second_opinion"], d["latency_s"]["groundwatch"],
             latency["larger_alone"]]
    return [{"responses/s, batcher full (`groundwatch bench`, one core)": f"{rate:.2f}",
             "responses/s against the small model alone": f"{rate / small:.2f}×",
             "latency per response p50 / p99, one at a time": _ms(wait)} for rate, wait in zip(rates, waits)]


@figure("model-uses", *MODEL_USES, *MODEL_USES_DEV, PERFORMANCE_SECOND_OPINION_AMX, PERFORMANCE_DISTILLED)
def _model_uses(data: list[dict]) -> str:
    uses, dev, speed = data[:4], data[4:8], _use_speed_rows(*data[8:])
    columns = [_use_rows(d) | _use_dev_rows(r, dev[0]) | v for d, r, v in zip(uses, dev, speed)]
    targets = {**FALSE_ALARM_TARGETS, "guard probe agreeing with the expected verdicts": "no family loses",
               "dev report halves, recall on supported claims (pooled)": "not below small alone",
               "dev report halves, balanced accuracy (pooled) [95%]": "higher than small alone",
               "dev sets below the small model by more than its interval's half-width": "none",
               "responses/s against the small model alone": "≥ 0.50×"}
    rows = [[measure, *(c[measure] for c in columns), targets.get(measure, "")] for measure in columns[0]]
    small, second_opinion, distilled, larger = uses
    second = second_opinion["second_opinion"]
    return (markdown_table(["measure", "small alone", "second opinion", "distilled small", "larger alone", "target"],
                           rows)
            + f"\n\nSmall: `{small['model'][0]}`; distilled: `{distilled['model'][0]}`; larger: "
            f"`{larger['model'][0]}`, as second opinion with margin "
            f"{second['margin']} (re-read: {', '.join(f'{k} {n}' for k, n in second['by_reason_outcome'].items())}). "
            "Every column at the shipped thresholds. Dev rows: the first "
            f"{DEV_LIMIT} records of each dev set's report half ({dev[0]['labelled']['n_scored']} responses); the "
            "small model's row on the whole report half is in [measurements](measurements.md). The larger model "
            "runs as a compact copy on the torch backend (bf16 with fixed shapes), on a CPU with AMX. Speed rows: "
            f"`groundwatch bench` on {data[8]['paths']['whole_path']['responses']} example responses, one core of "
            f"that machine ([performance](performance.md#with-the-second-opinion)); `groundwatch bench --paths "
            "whole_path --second-opinion DIR` measures them on your machine (the distilled model's: the same run "
            "exported again from its compact copy).\n")


if __name__ == "__main__":
    sys.exit(main())
