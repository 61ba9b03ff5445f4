"""A text's embedding does not depend on what else is encoded with it (replays rank evidence alike)."""

import numpy as np

from groundwatch.scorers.evidence.retrieval import Embedder

TEXTS = ["Refunds are available within 30 days of purchase.",
         "Enterprise customers may request an extension of up to 60 days, subject to approval by their "
         "account manager, who checks the contract and the usage of the last quarter first.",
         "Orders ship within 2 business days."]


def test_a_text_alone_and_among_others_gets_the_same_vector():
    alone = Embedder().encode([TEXTS[0]])[0]
    with_others = Embedder().encode(list(reversed(TEXTS)))[2]
    assert np.array_equal(alone, with_others)


def test_the_token_budget_changes_the_batches_not_the_vectors():
    small = Embedder(batch_tokens=32)  # the long text in a batch of its own, not padded beside the others
    assert np.array_equal(small.embed(TEXTS), Embedder(batch_tokens=8192).embed(TEXTS))


def test_a_batch_cut_into_one_part_per_thread_gets_the_same_vectors():
    """With two threads each batch runs as two single-threaded halves at once: the same vectors, bit for bit."""
    one, two = Embedder(threads=1), Embedder(threads=2)
    assert (one._parts.count, two._parts.count) == (1, 2)
    texts = TEXTS * 3
    assert np.array_equal(one.embed(texts), two.embed(texts))


def test_a_batch_cut_into_pieces_of_a_few_tokens_gets_the_same_vectors():
    """Pieces near PIECE_TOKENS keep a layer's activations in cache; their size changes no vector."""
    whole, cut = Embedder(threads=1), Embedder(threads=1)
    whole._parts.piece_tokens, cut._parts.piece_tokens = 0, 16
    texts = TEXTS * 3
    assert np.array_equal(whole.embed(texts), cut.embed(texts))
