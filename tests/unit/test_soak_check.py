"""infra/soak.py's stream and its verdict check: the soak must fail when the store lost or mislabelled anything."""

from __future__ import annotations

from groundwatch.export.duplicates import CONFLICTING_DUPLICATE
from infra.soak import _hash, build_stream, check


def _stored(stream, pairs):
    """What a correct store holds: one document per distinct content, the pairs flagged."""
    keys = {(r["request_id"], _hash(r)) for r in stream}
    return [{"request_id": rid, "content_hash": h,
             "store_flags": [CONFLICTING_DUPLICATE] if (rid, h) in set(pairs) else []} for rid, h in sorted(keys)]


def test_each_duplicate_follows_its_original_and_each_pair_is_two_contents():
    stream, pairs = build_stream(200, 0.05, 0.02, "t", seed=3)
    assert len(stream) == 200 and len(pairs) == 2 * 10
    seen: dict[str, list[str]] = {}
    replays = 0
    for record in stream:
        hashes = seen.setdefault(record["request_id"], [])
        h = _hash(record)
        if h in hashes:
            replays += 1
        else:
            assert len(hashes) < 2, "an original got two regenerated answers"
            if hashes:
                assert (record["request_id"], hashes[0]) in pairs and (record["request_id"], h) in pairs
            hashes.append(h)
    assert replays == 4
    originals = list({r["request_id"]: r for r in reversed(stream)}.values())  # the first record of each id
    passage_lists = {tuple(p["text"] for p in r["passages"]) for r in originals}
    assert len(passage_lists) == len(originals) == len(seen), "passages repeat, so caches would answer them"


def test_a_correct_store_passes_and_each_kind_of_loss_fails():
    stream, pairs = build_stream(60, 0.1, 0.05, "t")
    docs = _stored(stream, pairs)
    assert check(stream, pairs, docs)["ok"]

    missing = check(stream, pairs, docs[1:])
    assert not missing["ok"] and missing["missing"] == 1

    copied = check(stream, pairs, docs + [dict(docs[0])])
    assert not copied["ok"] and copied["extra_copies"] == 1

    first_pair = pairs[0]
    unflagged = [{**d, "store_flags": []} if (d["request_id"], d["content_hash"]) == first_pair else d for d in docs]
    result = check(stream, pairs, unflagged)
    assert not result["ok"] and result["pair_documents_unflagged"] == 1

    wrongly = [{**d, "store_flags": [CONFLICTING_DUPLICATE]} for d in docs]
    assert check(stream, pairs, wrongly)["flagged_outside_pairs"] == len(docs) - len(pairs)
