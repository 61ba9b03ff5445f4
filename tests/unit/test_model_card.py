"""The shipped model card is what training.model_card renders from the committed files (no model run)."""

from groundwatch.training.model_card import commands, main


def test_model_card_matches_its_committed_sources() -> None:
    assert main(["--check"]) == 0, "MODEL_CARD.md is stale: run python -m groundwatch.training.model_card"


def test_every_card_figure_names_the_command_that_measures_it() -> None:
    listed = commands()
    assert any("training.evaluate_nli" in c and "docs/figures/nli-eval.json" in c for c in listed)
    assert any("measure_verdict_rule.sh final" in c for c in listed)
    assert any("--json docs/figures/nli-options.json" in c for c in listed)
