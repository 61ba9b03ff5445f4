"""Which copies of a request are conflicting duplicates (export/duplicates.py), without a store."""

from __future__ import annotations

from groundwatch.export.duplicates import CONFLICTING_DUPLICATE, DuplicateFinder, StoredCopy, stored_copies

KEY = ("shop", "acme", "r-1")


def _copy(doc_id: str, content: str | None, key=KEY, flags=()) -> StoredCopy:
    return StoredCopy(key, doc_id, "gw-2026.11", content, tuple(flags))


def test_a_replay_is_no_conflict_and_other_content_flags_both():
    finder = DuplicateFinder()
    assert finder.find([_copy("a", "h1")], [_copy("a", "h1")]).new == set()
    found = finder.find([_copy("a", "h1")], [_copy("b", "h2")])
    assert found.new == {"b"} and [c.doc_id for c in found.stored] == ["a"]


def test_already_flagged_copies_are_not_updated_again_and_old_documents_are_no_conflict():
    finder = DuplicateFinder()
    found = finder.find([_copy("a", "h1", flags=[CONFLICTING_DUPLICATE])], [_copy("b", "h2")])
    assert found.new == {"b"} and found.stored == []
    assert finder.find([_copy("old", None)], [_copy("b", "h2")]).new == set()  # stored before content hashes


def test_other_apps_and_pairs_within_one_write_and_what_this_process_wrote():
    finder = DuplicateFinder()
    assert finder.find([_copy("x", "h1", key=("help", "acme", "r-1"))], [_copy("b", "h2")]).new == set()
    assert finder.find([], [_copy("a", "h1"), _copy("b", "h2")]).new == {"a", "b"}
    finder.remember([_copy("a", "h1")])  # written a moment ago: a search may not see it yet
    found = finder.find([], [_copy("b", "h2")])
    assert found.new == {"b"} and [c.doc_id for c in found.stored] == ["a"]


def test_memory_is_bounded():
    finder = DuplicateFinder(remember=2)
    finder.remember([_copy(f"d{i}", "h1", key=("", "", f"r-{i}")) for i in range(5)])
    assert finder.find([], [_copy("n", "h2", key=("", "", "r-0"))]).new == set()
    assert finder.find([], [_copy("n", "h2", key=("", "", "r-4"))]).new == {"n"}


def test_hits_of_other_owners_are_left_out():
    answer = {"hits": {"hits": [
        {"_id": "a", "_index": "i", "_source": {"request_id": "r-1", "metadata": {"app": "shop", "tenant": "acme"},
                                               "content_hash": "h1"}},
        {"_id": "b", "_index": "i", "_source": {"request_id": "r-1", "metadata": {"app": "help"}}}]}}
    assert stored_copies(answer, {KEY}) == [StoredCopy(KEY, "a", "i", "h1")]
