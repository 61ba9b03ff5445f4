"""Probe results: share of edited answers still called SUPPORTED, and split-support recall."""

from __future__ import annotations

from dataclasses import replace

from groundwatch.evaluation.scored import Scored, Variant, predict
from groundwatch.evaluation.tables import fmt as _fmt
from groundwatch.evaluation.tables import render

# Share labelled "entailment" by plain MNLI models, as quoted in issue 6.
PUBLISHED_MNLI = {"negation": 0.41, "number": 0.33}


def _supported_share(items: list[Scored], variant: Variant) -> float | None:
    if not items:
        return None
    return sum(1 for s in items if not predict(s, variant).unsupported) / len(items)


def _supported_sources(originals: list[Scored], variant: Variant) -> set[str]:
    return {s.item.source for s in originals if not predict(s, variant).unsupported}


def probe_report(scored: list[Scored], variant: Variant, checks_ran: bool = True, pairs_ran: bool = True) -> dict:
    """Shares under `variant`, and with checks / pair premises dropped; a side that was not scored is None."""
    ok = [s for s in scored if s.error is None]
    families: dict[str, list[Scored]] = {}
    for s in ok:
        families.setdefault(s.item.probe or "unknown", []).append(s)
    bare = replace(variant, free_checks=False)
    out = {"errors": len(scored) - len(ok), "families": {}, "split_support": None}
    for family, items in sorted(families.items()):
        if family == "split_support":
            continue
        # The paired rate: only edits whose unedited original the checker itself called SUPPORTED.
        kept = _supported_sources(families.get("original", []), variant)
        paired = [s for s in items if s.item.source in kept]
        out["families"][family] = {
            "n": len(items),
            "supported_with_checks": _supported_share(items, variant) if checks_ran else None,
            "supported_without_checks": _supported_share(items, bare),
            "n_original_supported": len(paired),
            "supported_when_original_supported": _supported_share(paired, variant) if checks_ran else None,
            "published_mnli": PUBLISHED_MNLI.get(family),
        }
    split = families.get("split_support", [])
    if split:
        out["split_support"] = {
            "n": len(split),
            "recall_with_pairs": _supported_share(split, variant) if pairs_ran else None,
            "recall_without_pairs": _supported_share(split, replace(variant, pairs=False)),
        }
    return out


def probe_table(report: dict) -> str:
    rows = [[family, f["n"], f["supported_with_checks"], f["supported_without_checks"],
             f"{_fmt(f['supported_when_original_supported'])} of {f['n_original_supported']}", f["published_mnli"]]
            for family, f in report["families"].items()]
    text = render(["probe family", "n", "SUPPORTED (checks on)", "SUPPORTED (checks off)",
                   "SUPPORTED if original was", "plain MNLI (published)"], rows)
    text += ("\n(for `original`, SUPPORTED is the right answer; for every edit family it is a false entailment;"
             "\n 'if original was': share among edits whose unedited answer the checker called SUPPORTED)")
    s = report["split_support"]
    if s:
        text += "\n\n" + render(["split-support claims", "n", "recall, pair_top 3", "recall, pair_top 0"],
                                [["split_support", s["n"], s["recall_with_pairs"], s["recall_without_pairs"]]])
    return text
