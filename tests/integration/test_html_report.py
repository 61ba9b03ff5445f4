"""`groundwatch report --html` from a verdicts file, opened in real headless Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from groundwatch.cli import main
from groundwatch.reports.rates import icc_anova, wilson
from tests.integration.png_pixels import pixels
from tests.integration.verdict_factory import verdict_dict

pytestmark = pytest.mark.integration

PATTERNS = [
    ["SUPPORTED", "SUPPORTED", "SUPPORTED"],
    ["SUPPORTED", "SUPPORTED", "SKIPPED"],
    ["CONTRADICTED", "NOT_ENOUGH_INFO"],
    ["SUPPORTED", "SUPPORTED", "SUPPORTED", "SUPPORTED"],
    ["NOT_ENOUGH_INFO", "NOT_ENOUGH_INFO", "SUPPORTED"],
    ["SUPPORTED"],
]
FAILING = {"CONTRADICTED": "kb-billing-03", "NOT_ENOUGH_INFO": "kb-payroll-06"}


def _verdicts() -> list[dict]:
    out = []
    for i in range(30):
        verdicts = PATTERNS[i % len(PATTERNS)]
        out.append(verdict_dict(
            f"req-{i:03d}", verdicts, timestamp=f"2025-01-{10 + i // 5:02d}T{(i * 5) % 24:02d}:15:00+00:00",
            app="help-center" if i % 2 else "billing-bot",
            severities=["high" if j == 0 and i % 3 == 0 else "normal" for j in range(len(verdicts))],
            evidence_ids=[FAILING.get(v, f"kb-ok-{j}") for j, v in enumerate(verdicts)]))
    return out


def _chromium() -> str:
    found = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else None)
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("CI is set and chromium is missing (bash infra/install_system.sh installs it)")
    pytest.skip("chromium is not installed; run `bash infra/install_system.sh`")


def _chromium_run(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    argv = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={profile}", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def test_html_report_renders_rates_and_charts_in_chromium(tmp_path: Path, capsys) -> None:
    records = _verdicts()
    source = tmp_path / "verdicts.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    html, figures = tmp_path / "report.html", tmp_path / "report.json"

    assert main(["report", "--input", str(source), "--html", str(html), "--output", str(figures)]) == 0
    assert "Claim faithfulness" in capsys.readouterr().out

    # The expected figures, counted straight from the constructed data.
    checked = [[v for v in PATTERNS[i % len(PATTERNS)] if v != "SKIPPED"] for i in range(30)]
    n_claims = sum(len(c) for c in checked)
    supported = sum(c.count("SUPPORTED") for c in checked)
    unsupported_responses = sum(any(v != "SUPPORTED" for v in c) for c in checked)
    report = json.loads(figures.read_text())
    faith = report["rates"]["faithfulness"]
    assert (faith["successes"], faith["n"]) == (supported, n_claims)
    rho = icc_anova([(c.count("SUPPORTED"), len(c)) for c in checked])
    deff = 1 + (n_claims / 30 - 1) * rho
    assert rho > 0.2 and faith["deff"] == pytest.approx(deff)
    assert (faith["low"], faith["high"]) == pytest.approx(wilson(supported / deff, n_claims / deff))
    assert report["rates"]["responses_with_unsupported"]["estimate"] == pytest.approx(unsupported_responses / 30)
    assert report["rates"]["contradiction"]["successes"] == sum(c.count("CONTRADICTED") for c in checked)
    assert report["bucket"] == "day" and [b["responses"] for b in report["buckets"]] == [5] * 6
    assert [p["passage_id"] for p in report["top_failing_passages"][:2]] == ["kb-payroll-06", "kb-billing-03"]
    assert report["claims"]["SKIPPED"] == 5

    page = html.read_text()
    assert "<script" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")

    chromium = _chromium()
    dom = _chromium_run(chromium, tmp_path / "profile-dom", "--dump-dom", html.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    row = re.search(r'<tr data-rate="faithfulness">(.*?)</tr>', dom.stdout, re.S)
    assert row, "faithfulness row missing from the DOM"
    assert f'<td class="estimate">{100 * supported / n_claims:.1f}%</td>' in row.group(1)
    assert f"{100 * faith['low']:.1f}% - {100 * faith['high']:.1f}%" in row.group(1)
    assert len(re.findall(r"<svg\b", dom.stdout)) == 6  # four rates over time, verdict mix, severity
    assert dom.stdout.count('class="band"') >= 4
    assert "kb-billing-03" in dom.stdout

    shot = tmp_path / "report.png"
    run = _chromium_run(chromium, tmp_path / "profile-shot", "--hide-scrollbars", "--window-size=1200,1500",
                        f"--screenshot={shot}", html.as_uri())
    assert run.returncode == 0 and shot.is_file(), run.stderr[-2000:]
    width, height, colours = pixels(shot)
    assert (width, height) == (1200, 1500)
    inked = sum(1 for p in colours if p != (255, 255, 255))
    assert inked / len(colours) > 0.02, "screenshot is (almost) blank"
    assert (0x2E, 0x7D, 0x32) in set(colours)  # the SUPPORTED green of the charts was painted
