"""The README's and docs' measured figures are exactly what reports/figures.py renders from the saved files."""

from __future__ import annotations

import pytest

from groundwatch.reports import figures
from groundwatch.reports.figures import BLOCK, FIGURES, ROOT, Figure, Source, documents, markdown_table, stale, update


def test_every_figure_block_matches_its_saved_source():
    assert stale() == [], "a figure block differs from its saved file: run `python -m groundwatch.reports.figures` (docs/figures.md)"


def test_every_block_names_a_registered_figure_and_every_figure_is_shown():
    shown = {m["name"] for path in documents() for m in BLOCK.finditer(path.read_text(encoding="utf-8"))}
    assert shown <= set(FIGURES), f"unknown figure blocks: {shown - set(FIGURES)}"
    assert set(FIGURES) <= shown, f"figures registered but shown nowhere: {set(FIGURES) - shown}"


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_source_file_is_committed_and_named_in_its_command(name):
    for source in FIGURES[name].sources:
        assert (ROOT / source.path).is_file(), source.path
        if source.kept:  # a previous model's measurement: it names the command that measured it
            assert "`docs/figures/" in source.command, source.command
        else:
            assert source.path in source.command, "the command must write the file the figure reads"


def test_a_kept_source_says_so_and_is_never_rerun(monkeypatch, tmp_path):
    (tmp_path / "n.json").write_text('{"n": 3}')
    kept = Source("n.json", "measured with the old model by the command of `docs/figures/n.json`", kept=True)
    monkeypatch.setitem(FIGURES, "n", Figure("n", (kept,), lambda data: str(data[0]["n"])))
    assert "_Source: `n.json`, kept: measured with the old model" in figures.render_block("n", tmp_path)
    monkeypatch.setattr(figures.subprocess, "run", lambda *a, **k: pytest.fail("a kept source was rerun"))
    figures.rerun(["n"], tmp_path)


def test_update_rewrites_only_between_the_markers(tmp_path, monkeypatch):
    (tmp_path / "n.json").write_text('{"n": 3}')
    monkeypatch.setitem(FIGURES, "n", Figure("n", (Source("n.json", "make-n > n.json"),),
                                             lambda data: markdown_table(["n"], [[data[0]["n"]]])))
    text = "before\n<!-- figures:n -->\nstale 2\n<!-- /figures:n -->\nafter 2\n"
    fresh = update(text, tmp_path)
    assert fresh.startswith("before\n<!-- figures:n -->\n| n |\n|---|\n| 3 |\n")
    assert "_Source: `n.json`, written by `make-n > n.json`._" in fresh
    assert fresh.endswith("<!-- /figures:n -->\nafter 2\n") and "stale" not in fresh
    assert update(fresh, tmp_path) == fresh


def test_an_unknown_block_is_an_error(tmp_path):
    with pytest.raises(KeyError, match="no figure 'nope'"):
        update("<!-- figures:nope -->\n<!-- /figures:nope -->\n", tmp_path)


def test_check_reports_a_hand_edited_block(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "n.json").write_text('{"n": 3}')
    monkeypatch.setitem(FIGURES, "n", Figure("n", (Source("n.json", "make-n"),), lambda data: str(data[0]["n"])))
    good = update("<!-- figures:n -->\n<!-- /figures:n -->\n", tmp_path)
    (tmp_path / "README.md").write_text(good)
    assert figures.stale(tmp_path) == []
    (tmp_path / "docs" / "x.md").write_text(good.replace("3", "4", 1))
    assert figures.stale(tmp_path) == ["docs/x.md: n"]


def test_the_saved_demo_summary_renders_the_table_score_prints():
    from groundwatch.reports.summary import Summary

    summary = Summary(responses=3, all_supported=1, context_conflicts=2,
                      claims={"SUPPORTED": 4, "CONTRADICTED": 1, "NOT_ENOUGH_INFO": 2, "SKIPPED": 1})
    assert Summary.from_dict(summary.to_dict()).table() == summary.table()
