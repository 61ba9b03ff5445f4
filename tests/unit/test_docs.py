"""The README and docs/ are a user guide: no development history in them, links that resolve, and
quick-start examples whose shown output is what the commands print."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]  # CHANGELOG.md is where history goes

FIGURE = re.compile(r"<!-- figures:(?P<name>[a-z0-9-]+) -->\n(?P<body>.*?)<!-- /figures:(?P=name) -->", re.S)
# Inside a figure block, the lines that say where its numbers come from (reports/figures.py: render_block).
PROVENANCE = ("_Source", "_Measured", "- `docs/figures/")
HEX = re.compile(r"(?<![0-9A-Za-z_])[0-9a-f]{7,40}(?![0-9A-Za-z_])")
ISSUE = re.compile(r"\bissues?\s+#?\d+", re.I)
SESSION_NOTES = ("was lent", "were not kept", "was not kept", "this session", "that session", "this task",
                 "no gpu was", "not attempted")


def _text_lines(path: Path, provenance: bool = False) -> list[tuple[int, str]]:
    """(line number, line) of a page, without the provenance lines of its figure blocks unless asked."""
    text = path.read_text(encoding="utf-8")
    if provenance:
        return list(enumerate(text.splitlines(), 1))
    skip = set()
    for m in FIGURE.finditer(text):
        first = text.count("\n", 0, m.start("body")) + 1
        for offset, line in enumerate(m["body"].splitlines()):
            if line.startswith(PROVENANCE):
                skip.add(first + offset)
    return [(n, line) for n, line in enumerate(text.splitlines(), 1) if n not in skip]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_issue_numbers_or_session_notes(path):
    found = [f"{path.name}:{n}: {m.group(0)!r}" for n, line in _text_lines(path) for m in ISSUE.finditer(line)]
    found += [f"{path.name}:{n}: {note!r}" for n, line in _text_lines(path) for note in SESSION_NOTES
              if note in line.lower()]
    assert not found, "history belongs in CHANGELOG.md and git, not the user guide:\n" + "\n".join(found)


def _commits(tokens: set[str]) -> set[str]:
    """The tokens git resolves to a commit of this repository."""
    ordered = sorted(tokens)
    out = subprocess.run(["git", "cat-file", "--batch-check"], input="".join(f"{t}^{{commit}}\n" for t in ordered),
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout.splitlines()
    return {t for t, line in zip(ordered, out) if line.split()[1:2] == ["commit"]}


@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None, reason="needs the git checkout")
def test_no_commit_hashes_in_the_user_guide():
    """Not even on a figure's provenance lines: the commit a figure was measured at goes in its source file."""
    where = {}
    for path in PAGES:
        for n, line in _text_lines(path, provenance=True):
            for token in HEX.findall(line):
                where.setdefault(token, []).append(f"{path.relative_to(ROOT)}:{n}")
    found = _commits(set(where))
    assert not found, "commit hashes in the user guide (history goes to CHANGELOG.md): " + ", ".join(
        f"{t} at {' '.join(where[t])}" for t in sorted(found))


def test_the_commit_check_finds_a_commit():
    head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    if head.returncode:
        pytest.skip("needs the git checkout")
    sha = head.stdout.strip()
    assert _commits({sha[:7], sha, "0000000", "not-hex"}) == {sha[:7], sha}


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


LINK = re.compile(r"\[[^\]]*\]\((?P<target>[^)\s]+)\)")


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_and_anchors_resolve(path):
    broken = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in LINK.finditer(line):
            target = m["target"]
            if re.match(r"[a-z]+:", target):
                continue  # http(s), mailto
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists():
                broken.append(f"{path.name}:{n}: {target} (no such file)")
            elif anchor and dest.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", dest.read_text(encoding="utf-8"), re.M)
                if anchor not in {_slug(h) for h in headings}:
                    broken.append(f"{path.name}:{n}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_readme_is_a_short_guide_with_the_two_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 260, "depth goes to docs/; the README is read in five minutes"
    # CI (.ci/run) and newcomers run these two exactly as written.
    assert "\nmake demo   #" in text and "\nmake test   #" in text
    assert "\nmake test-quick   #" in text
    # groundwatch is not on a package index: the install is from the clone, into an activated venv.
    assert "pip install '.[cpu]'" in text and "pip install '.[gpu]'" in text and ". .venv/bin/activate" in text
    assert not re.search(r"pip install '?groundwatch\[", text), "groundwatch is not published: install '.[...]'"
    first_screen = "\n".join(text.splitlines()[:60])
    assert "<!-- figures:model-summary -->" in first_screen and "export-model" in first_screen


def _block(name: str, kind: str = "quickstart") -> str:
    """The fenced code inside `<!-- quickstart:NAME -->` (or a `figures:` block) in the README."""
    m = re.search(rf"<!-- {kind}:{name} -->\n```[a-z]*\n(.*?)```\n.*?<!-- /{kind}:{name} -->",
                  README.read_text(encoding="utf-8"), re.S)
    assert m, f"README has no {kind}:{name} block"
    return m.group(1)


def test_the_quick_start_record_is_the_one_the_explain_figure_scores():
    """reports.figures renders the README's explain output from examples/quickstart.jsonl's verdict: the
    heredoc a reader pastes must be that record."""
    heredoc = re.search(r"cat > answers\.jsonl <<'EOF'\n(.*?)\nEOF\n", README.read_text(encoding="utf-8"), re.S)
    assert heredoc and heredoc.group(1) + "\n" == (ROOT / "examples" / "quickstart.jsonl").read_text(encoding="utf-8")


_DECIMAL = re.compile(r"\d+\.\d+")


def same_output(printed: str, shown: str, tolerance: float = 0.03) -> bool:
    """The same text, verdicts and all, with each score within `tolerance` of the one shown: ONNX Runtime's
    int8 kernels differ by CPU instruction set (AVX-512 VNNI or AVX2) by up to 0.02."""
    masked = lambda text: _DECIMAL.sub("#", text)  # noqa: E731
    a, b = _DECIMAL.findall(printed), _DECIMAL.findall(shown)
    return masked(printed) == masked(shown) and all(abs(float(x) - float(y)) <= tolerance for x, y in zip(a, b))


def check_python_quickstart(python: Path, folder: Path) -> None:
    """Run the quick-start Python API example with `python`, from `folder`; it must print what the README shows."""
    script = folder / "example.py"
    script.write_text(_block("python"), encoding="utf-8")
    run = subprocess.run([str(python), str(script)], capture_output=True, text=True, cwd=folder, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert same_output(run.stdout, _block("python-output")), \
        f"paste the real output into quickstart:python-output:\n{run.stdout}"


def test_the_readme_python_example_prints_what_the_readme_shows(tmp_path):
    """The quick-start Python API example, run as a user runs it (the shipped model), from another folder."""
    check_python_quickstart(Path(sys.executable), tmp_path)


def test_the_readme_explain_output_is_what_explain_prints(tmp_path):
    """The quick-start shell block (the record, score, explain), run in a scratch folder."""
    check_shell_quickstart(Path(sys.executable).parent, tmp_path)


def check_shell_quickstart(bin_dir: Path, folder: Path) -> None:
    """Run the quick-start shell block (the record, score, explain) with `bin_dir`'s groundwatch, in `folder`."""
    shell = re.search(r"```bash\n(cat > answers\.jsonl <<'EOF'\n.*?\ngroundwatch explain r-1[^\n]*\n)```",
                      README.read_text(encoding="utf-8"), re.S)
    assert shell, "README has no quick-start shell block"
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")  # that environment's groundwatch
    run = subprocess.run(["bash", "-e", "-c", shell.group(1)], capture_output=True, text=True, cwd=folder,
                         timeout=600, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    shown = _block("quickstart-explain", "figures")
    printed = run.stdout[run.stdout.index("request r-1"):]
    # The scorer version hashes every verdict-changing setting; the explanation itself must match.
    version = re.compile(r"scorer \S+,")
    assert same_output(version.sub("scorer V,", printed), version.sub("scorer V,", shown)), \
        f"rerun `python -m groundwatch.reports.figures --rerun quickstart-explain`; explain printed:\n{printed}"


def test_the_defaults_quoted_in_concepts_are_the_settings_defaults():
    from groundwatch.config.scorer import ScorerConfig

    c = ScorerConfig()
    text = (ROOT / "docs" / "concepts.md").read_text(encoding="utf-8")
    words = {1: "one", 2: "two", 3: "three", 4: "four"}
    for quoted in (f"τc ({c.tau_contradiction:g})", f"τe ({c.tau_entailment:g} by default)",
                   f"windows of\n   {c.chunk_sentences} sentences with {words[c.chunk_overlap]} sentence of overlap",
                   f"the best {c.top_k} windows", f"pairs of the best {words[c.pair_top]} joined",
                   f"cosine below {c.off_topic_threshold:g}", f"answers under {c.off_topic_min_words} words"):
        assert quoted in text, f"docs/concepts.md should say {quoted!r} (the default changed?)"


def test_the_quick_start_comparison_allows_the_last_digit_of_a_score_and_nothing_else():
    shown = "SUPPORTED: best entailment 0.62, best contradiction 0.55\n"
    assert same_output("SUPPORTED: best entailment 0.61, best contradiction 0.55\n", shown)
    assert not same_output("SUPPORTED: best entailment 0.57, best contradiction 0.55\n", shown)
    assert not same_output("NOT_ENOUGH_INFO: best entailment 0.62, best contradiction 0.55\n", shown)
