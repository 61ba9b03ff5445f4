"""The unit tests `make test-quick` leaves out: the slowest, each over 20 s in a full unit run on a
loaded two-core machine (`pytest tests/unit --durations=60`), together about 80% of that run's time.
They build wheels and fresh virtual environments, export models, or time growth on large inputs; the
full suite (`make test`) runs them. A listed test that no longer exists is reported, so the list is kept."""

from __future__ import annotations

import pytest

SLOW = (
    "test_quickstart_venv.py::",                       # a fresh venv with .[cpu] from the package index
    "test_namespace.py::test_the_wheel_installs_one_top_level_name",  # builds the wheel, a fresh venv
    "test_namespace.py::test_from_the_installed_wheel_only_groundwatch_imports",
    "test_namespace.py::test_every_module_imports_once_under_one_name_from_the_repository_root",
    "test_hostile_text.py::",                          # growth on inputs up to megabytes, timed
    "test_eval_bench.py::test_bench_runs_every_cpu_path_on_the_same_pairs",
    "test_embedder.py::test_the_examples_passages_rank_as_with_sentence_transformers",
    "test_byte_cache.py::test_a_stream_of_huge_distinct_texts_keeps_rss_under_the_cache_budget",
    "test_nli_determinism.py::test_score_gives_identical_verdict_records_in_any_order",
    "test_gpu_check.py::test_cpu_self_test_passes_parity",
    "test_model_kinds.py::",                           # exports tiny two- and three-way checkpoints
    "test_shortcut_cues.py::test_no_recipe_row_ties_a_label_to_the_cue",
    "test_cli_outputs.py::test_a_reader_that_stops_early_gets_no_traceback",
    "test_api.py::test_the_shipped_model_on_example_responses",
    "test_consumer_memory.py::",                       # the shipped models over 128 responses, RSS
)


def pytest_collection_modifyitems(config, items):
    used = set()
    for item in items:
        where = item.nodeid.split("tests/unit/", 1)[-1]
        for entry in SLOW:
            if where.startswith(entry):
                item.add_marker(pytest.mark.slow)
                used.add(entry)
    files = {item.nodeid.split("tests/unit/", 1)[-1].split("::")[0] for item in items}
    for entry in SLOW:
        if entry not in used and entry.split("::")[0] in files:  # the file ran but the test is gone
            config.issue_config_time_warning(pytest.PytestConfigWarning(f"tests/unit/conftest.py SLOW lists "
                                                                          f"{entry!r}, which no test matches"), 2)
