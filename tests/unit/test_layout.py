"""The layout shows the architecture: no scorer or evaluation folder is one flat room, and every scorer
stage folder is named in docs/architecture.md with its job."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MOST_MODULES = 15  # past this a folder no longer tells which stage a module belongs to


def _folders(package: str) -> list[Path]:
    return sorted(init.parent for init in (ROOT / package).rglob("__init__.py"))


@pytest.mark.parametrize("folder", _folders("scorers") + _folders("evaluation"),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_folder_holds_more_than_15_modules(folder):
    modules = sorted(p.name for p in folder.glob("*.py"))
    assert len(modules) <= MOST_MODULES, f"{folder.relative_to(ROOT)} holds {len(modules)} modules: split it by stage"


def test_every_scorer_stage_folder_is_named_in_the_architecture_page():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    stages = [f.name for f in _folders("scorers") if f.parent == ROOT / "scorers"]
    assert stages, "no stage folders found"
    assert [s for s in stages if f"| `{s}/` |" not in page] == []
