"""One English reader: negation words, clause breaks, number words and months are each written in one module.

Every installed module is parsed. Outside scorers/english/negation.py none may write a set (a set, list or
tuple literal, or a regex alternation such as `\\b(not|never|no)\\b`) holding two or more negation words; a
reader that needs fewer words imports a named subset from there. Outside scorers/english/clauses.py no regex
may split at clause breaks (`;`, `, and`, `but`, `, so`, ...), outside scorers/english/units.py no table may
spell out number words, and outside scorers/english/quantities.py none may list month names. A copy fails here
with its file:line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from groundwatch.scorers.english.lexicon import CLAUSE_BREAKS
from groundwatch.scorers.english.negation import NEGATION_WORDS
from groundwatch.scorers.english.quantities import MONTH_NAMES
from groundwatch.scorers.english.units import NUMBER_WORDS
from tests.unit.test_import_layers import LAYERS

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = ROOT / "scorers" / "english"
HOMES = {"negation": ENGLISH / "negation.py", "clause": ENGLISH / "clauses.py", "number": ENGLISH / "units.py",
         "month": ENGLISH / "quantities.py"}
BREAKS = CLAUSE_BREAKS | {"and", "so", ";", ":"}
# Regex decoration around one alternative: groups, word bounds, spaces, optional commas, a lookbehind.
_DECORATION = re.compile(r"\(\?<!\\s\)|\\[bs][+*]?|\(\?:|[()?,]")


def _alternatives(pattern: str) -> list[str]:
    return [_DECORATION.sub("", piece).strip() for piece in pattern.split("|")]


def _strings(node: ast.AST) -> list[str]:
    elts = node.elts if isinstance(node, (ast.Set, ast.List, ast.Tuple)) else []
    return [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def copies(source: str) -> list[tuple[int, str]]:
    """(line, what) for every negation set, clause-break regex and number-word table written in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            if len(NEGATION_WORDS.intersection(_strings(node))) >= 2:
                found.append((node.lineno, "negation"))
            if len(set(MONTH_NAMES).intersection(s.lower() for s in _strings(node))) >= 5:
                found.append((node.lineno, "month"))
        elif isinstance(node, ast.Dict):
            words = [v.value for v in (*node.keys, *node.values) if isinstance(v, ast.Constant)]
            if len(set(NUMBER_WORDS).intersection(w for w in words if isinstance(w, str))) >= 5:
                found.append((node.lineno, "number"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "|" in node.value:
            alternatives = _alternatives(node.value)
            if len(NEGATION_WORDS.intersection(alternatives)) >= 2:
                found.append((node.lineno, "negation"))
            breaks = [a for a in alternatives if a in BREAKS]  # most of its alternatives: not a phrase end
            if len(breaks) >= 3 and 2 * len(breaks) >= len(alternatives):
                found.append((node.lineno, "clause"))
            if len(set(MONTH_NAMES).intersection(a.lower() for a in alternatives)) >= 5:
                found.append((node.lineno, "month"))
    return found


def _installed() -> list[Path]:
    return [p for package in sorted(LAYERS) if (ROOT / package).is_dir() for p in sorted((ROOT / package).rglob("*.py"))]


def test_each_english_word_set_is_written_in_its_one_module():
    offences = [f"{path.relative_to(ROOT)}:{line}: a {what} set outside {HOMES[what].relative_to(ROOT)}"
                for path in _installed() for line, what in copies(path.read_text(encoding="utf-8"))
                if path != HOMES[what]]
    assert not offences, "an English word set written twice:\n" + "\n".join(offences)


def test_the_walk_sees_each_home_and_each_kind_of_copy():
    # Each home is found by the walk: it is not blind to the sets it exempts.
    for what, home in HOMES.items():
        assert what in {w for _, w in copies(home.read_text(encoding="utf-8"))}, home
    assert len(_installed()) > 100
    written = {
        '_NEGATION = {"not", "no", "never", "cannot", "can\'t"}': "negation",
        'if word in ("not", "n\'t"): pass': "negation",
        '_NEGATION = re.compile(r"\\b(not|no|never|none)\\b|n\'t\\b", re.I)': "negation",
        '_NOT = r"(?: not|n\'t)"': "negation",
        '_SPLIT = re.compile(r";\\s+|,\\s+and\\s+|,?(?<!\\s)\\s+but\\s+|,\\s+so\\s+|:\\s+")': "clause",
        'WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}': "number",
        '_MONTHS = ["January", "February", "March", "April", "May", "June"]': "month",
        '_DATE = re.compile(r"\\b(\\d{4}|january|february|march|april|may \\d|june)\\b")': "month",
    }
    for source, what in written.items():
        assert [w for _, w in copies(source)] == [what], source
    # Using the one lexicon, or a phrase with one negator, is no copy.
    for source in ('x = NEGATORS | {"no"}', 'phrase = ("no", "longer")', '_AUX = r"is|are|can|cannot|can\'t"',
                   'r = re.compile(r"\\b(" + "|".join(sorted(WORDS)) + r")\\b")', 'ALT = "yes|no"'):
        assert copies(source) == [], source
