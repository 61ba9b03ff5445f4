"""A stopped training run continues with `--resume`: its own options and the step it reached come from its
progress.json; only the session's options (output, time budget, save interval) are given again."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
from groundwatch.training import train  # noqa: E402


def test_a_resumed_run_takes_its_own_options_and_step(tmp_path):
    first = train.parse_args(["--output", str(tmp_path / "run"), "--lr", "3e-5", "--cap", "esnli_snli=8000",
                              "--counter-shortcuts", "6000", "--init", "training/runs/counter-run1",
                              "--max-minutes", "95"])
    first.output.mkdir()
    train._save_progress(first, step=780, total_steps=2096, loss=0.48)

    resumed = train.parse_args(["--resume", str(first.output), "--output", str(tmp_path / "next"),
                                "--max-minutes", "20", "--lr", "1e-3"])
    assert resumed.start_step == 780
    assert resumed.lr == 3e-5 and resumed.cap == ["esnli_snli=8000"] and resumed.counter_shortcuts == 6000
    assert resumed.init == Path("training/runs/counter-run1") and isinstance(resumed.data, Path)
    assert resumed.output == tmp_path / "next" and resumed.max_minutes == 20  # this session's


def test_resume_needs_a_progress_file_with_the_runs_options(tmp_path):
    with pytest.raises(SystemExit, match="no readable progress.json"):
        train.parse_args(["--resume", str(tmp_path)])
    (tmp_path / "progress.json").write_text('{"step": 5, "of": 10}')
    with pytest.raises(SystemExit, match="does not record the run's options"):
        train.parse_args(["--resume", str(tmp_path)])
