"""One place decides a claim's verdict and computes the response summary: scorers/verdicts/decide.py.

Every installed module is parsed. Outside the decider none may write a record's verdict (an assignment
to `.verdict`, `setattr(..., "verdict", ...)`, `replace(..., verdict=...)`), build a ClaimVerdict with a
verdict label (SUPPORTED, CONTRADICTED, NOT_ENOUGH_INFO) already in it, write a response summary
(`.response = ...`) or build one (ResponseSummary, or the decider's `summarise`). The judge and recency
hand their answers to `finalise`; a module that rewrites a verdict after it fails here with its file:line.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.unit.test_import_layers import LAYERS

ROOT = Path(__file__).resolve().parents[2]
DECIDER = ROOT / "scorers" / "verdicts" / "decide.py"
LABELS = frozenset({"SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO"})


def _is_label(node: ast.AST) -> bool:
    """Verdict.SUPPORTED (any spelling of the enum's module) or Verdict("SUPPORTED")."""
    if isinstance(node, ast.Attribute) and node.attr in LABELS:
        return True
    return (isinstance(node, ast.Call) and _name(node.func) == "Verdict" and bool(node.args)
            and isinstance(node.args[0], ast.Constant) and node.args[0].value in LABELS)


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Assign):
        return [t for target in node.targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
    return [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []


def decisions(source: str) -> list[tuple[int, str]]:
    """(line, what) for every place in `source` that decides a verdict or a summary."""
    found = []
    for node in ast.walk(ast.parse(source)):
        for target in _targets(node):
            if isinstance(target, ast.Attribute) and target.attr in ("verdict", "response"):
                found.append((node.lineno, f"assigns .{target.attr}"))
        if not isinstance(node, ast.Call):
            continue
        func = _name(node.func)
        keywords = {k.arg: k.value for k in node.keywords}
        if func == "ClaimVerdict" and (any(_is_label(a) for a in node.args) or _is_label(keywords.get("verdict"))):
            found.append((node.lineno, "builds a ClaimVerdict with a verdict label"))
        elif func == "setattr" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value in ("verdict", "response"):
            found.append((node.lineno, f"setattr {node.args[1].value}"))
        elif func == "replace" and ("verdict" in keywords or "response" in keywords):
            found.append((node.lineno, "replace() of a verdict or summary"))
        elif func in ("ResponseSummary", "summarise") and _summarise_is_ours(source, func):
            found.append((node.lineno, f"calls {func}"))
    return found


def _summarise_is_ours(source: str, func: str) -> bool:
    """ResponseSummary always; `summarise` when it is the decider's (evaluation/bench has its own)."""
    return func == "ResponseSummary" or "verdicts.decide import" in source and "summarise" in source


def _installed() -> list[Path]:
    return [p for package in sorted(LAYERS) if (ROOT / package).is_dir() for p in sorted((ROOT / package).rglob("*.py"))]


def test_no_module_but_the_decider_decides_a_verdict_or_a_summary():
    offences = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in _installed() if path != DECIDER
                for line, what in decisions(path.read_text(encoding="utf-8"))]
    assert not offences, "a verdict or summary decided outside scorers/verdicts/decide.py:\n" + "\n".join(offences)


def test_the_walk_sees_the_decider_and_every_kind_of_rewrite():
    # The decider itself is found: the walk is not blind to the real assignments it exempts.
    own = {what for _, what in decisions(DECIDER.read_text(encoding="utf-8"))}
    assert {"assigns .verdict", "assigns .response", "calls ResponseSummary"} <= own
    assert len(_installed()) > 100  # every package was walked, not an empty folder
    rewrites = {
        "claim.verdict = Verdict.SUPPORTED": "assigns .verdict",
        "claim.verdict, x = judged, 1": "assigns .verdict",
        "v.response = make(v)": "assigns .response",
        "ClaimVerdict(0, 't', (0, 1), 'low', Verdict.CONTRADICTED)": "builds a ClaimVerdict with a verdict label",
        "ClaimVerdict(0, 't', (0, 1), 'low', verdict=records.Verdict('NOT_ENOUGH_INFO'))":
            "builds a ClaimVerdict with a verdict label",
        "setattr(claim, 'verdict', v)": "setattr verdict",
        "dataclasses.replace(claim, verdict=v)": "replace() of a verdict or summary",
        "from groundwatch.scorers.verdicts.decide import summarise\nsummarise(c, p)": "calls summarise",
    }
    for source, what in rewrites.items():
        assert [w for _, w in decisions(source)] == [what], source
    # Reading a verdict, or building a record from the decider's answer, decides nothing.
    for source in ("if claim.verdict is Verdict.SUPPORTED: pass", "ClaimVerdict(0, 't', (0, 1), 'low', verdict)",
                   "ClaimVerdict(0, 't', (0, 1), 'low', Verdict.SKIPPED, reason=r)", "x = summarise(results)"):
        assert decisions(source) == [], source
