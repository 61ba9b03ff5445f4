"""Shortcut cues in the training mix: the cue features, the check's arithmetic, and the regression check itself.

The regression check builds the mix the shipped model's last training run used (the options of its
training_manifest.json, through train.training_mix: about 8 s of CPU) and asks, per cue, whether any checked
recipe row moves a label share more than TOLERANCE away from its prior on at least MIN_SUPPORT pairs. Cues that fail today are marked xfail(strict): once
recipes that balance them are in the mix the mark must go.
"""

import os
from pathlib import Path

import pytest

from groundwatch.training.cues import CUES, cues
from groundwatch.training.labels import LABEL2ID
from groundwatch.training.nli_data import Pair
from groundwatch.config.extras import missing
from groundwatch.training.shortcut_cues import (MIN_SUPPORT, RECIPES, TOLERANCE, build_mix, checked_rows,
                                                default_data, is_recipe, manifest_options, shipped_manifest,
                                                shortcuts, tables)

DATA = Path(os.environ.get("GROUNDWATCH_NLI_TRAIN") or default_data())
ENT, NEU, CON = LABEL2ID["entailment"], LABEL2ID["neutral"], LABEL2ID["contradiction"]
NOT_YET = pytest.mark.xfail(strict=True, raises=AssertionError, reason="counter-shortcut recipes not yet in the mix")
# number_rewritten: the shipped run's counter recipes set a rewritten number under entailment more often
# than not (docs/shortcut-cues.md).
FAILING_TODAY = {"negation_hypothesis_only", "negation_premise_only", "number_changed", "number_rewritten",
                 "high_overlap", "low_overlap"}


@pytest.mark.parametrize("premise, hypothesis, on", [
    ("The shop is open at 9.", "The shop is not open at 9.", {"negation_hypothesis_only", "high_overlap"}),
    ("Nobody was hurt in the fire.", "People were hurt in the fire.", {"negation_premise_only"}),
    ("The store is closed on Sundays.", "The store opens on Sundays.", {"antonym_pair"}),
    ("Two women sat on a bench.", "Two men stood near a bench.", {"antonym_pair"}),
    ("The fee is 30 dollars.", "The fee is 40 dollars.", {"number_changed"}),
    ("The trip takes seven days and costs 1,200 euros.", "The trip lasts 7 days and costs 1200 euros.",
     {"number_rewritten"}),
    ("A dog runs across the beach.", "Quarterly revenue grew by a large margin.", {"low_overlap"}),
])
def test_cues_of_a_pair(premise, hypothesis, on):
    assert {name for name, value in cues(premise, hypothesis).items() if value} == on


def _pairs(source: str, labels_with_cue: list[int], labels_without: list[int]) -> list[Pair]:
    # the cue pair negates the hypothesis; the plain pair repeats the premise
    return ([Pair("The shop opens at 9.", "The shop does not open at 9.", y, source) for y in labels_with_cue]
            + [Pair("The shop opens at 9 every day.", "The shop opens at 9 every day.", y, source)
               for y in labels_without])


def test_the_check_flags_a_cue_that_moves_a_label_and_skips_single_label_rows_and_thin_cues():
    balanced = _pairs("synthetic_fair", [ENT, NEU, CON] * 20, [ENT, NEU, CON] * 20)
    skewed = _pairs("synthetic_negation", [CON] * 60, [])
    mixed = _pairs("synthetic_mixed", [CON] * 50 + [ENT] * 10, [ENT] * 50 + [CON] * 10)
    thin = _pairs("synthetic_thin", [CON] * 5, [ENT] * 100)
    table = tables(balanced + skewed + mixed + thin, min_support=30)
    assert "synthetic_negation" not in checked_rows(table) and "synthetic_fair" in checked_rows(table)
    assert not table["synthetic_thin"]["cues"]["negation_hypothesis_only"]["checked"]
    found = shortcuts(table)
    assert any(f.startswith("synthetic_mixed: negation_hypothesis_only -> ") for f in found)
    assert any(f.startswith(f"{RECIPES}: negation_hypothesis_only") for f in found)  # the pooled recipes see it
    assert not any(f.startswith(("synthetic_fair", "synthetic_thin")) for f in found)


def test_manifest_options_follow_the_manifest_then_the_changes(tmp_path):
    if missing("train"):
        pytest.skip("train.py's options need groundwatch[train]")
    manifest = tmp_path / "training_manifest.json"
    manifest.write_text('{"hyper_parameters": {"seed": 7, "cap": ["med=10"], "unrelated": 50, "gone": 1}}')
    options = manifest_options(manifest, tmp_path, ["counter_shortcuts=5000", "unrelated=0"])
    assert (options.seed, options.cap, options.unrelated, options.counter_shortcuts) == (7, ["med=10"], 0, 5000)
    assert options.data == tmp_path and not hasattr(options, "gone")
    with pytest.raises(ValueError, match="cap=x"):
        manifest_options(manifest, None, ["cap=x"])


@pytest.fixture(scope="module")
def recipe_table():
    if not (DATA / "vitaminc").is_dir():
        pytest.skip(f"training data not found at {DATA} (set GROUNDWATCH_NLI_TRAIN)")
    if missing("train"):
        pytest.skip("the mix is built by training/train.py, which needs groundwatch[train]")
    mix = build_mix(manifest_options(shipped_manifest(), DATA))
    return tables([p for p in mix.train if is_recipe(p.source)], MIN_SUPPORT)


@pytest.mark.parametrize("cue", [pytest.param(c, marks=NOT_YET) if c in FAILING_TODAY else c for c in CUES])
def test_no_recipe_row_ties_a_label_to_the_cue(recipe_table, cue):
    assert RECIPES in checked_rows(recipe_table)
    found = [f for f in shortcuts(recipe_table, TOLERANCE) if f.split(": ", 1)[1].startswith(cue + " ")]
    assert found == []
