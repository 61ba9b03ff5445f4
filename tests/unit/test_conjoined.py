from collections import Counter

from groundwatch.training.conjoined import CON, ENT, NEU, SOURCE, conjoined_pairs, join
from groundwatch.training.nli_data import Pair

PREMISE = "A man in a red coat is walking his dog along the beach at sunset."


def _train():
    pairs = []
    for i in range(30):
        premise = f"{PREMISE} Picture {i} was taken in May."
        pairs += [Pair(premise, "A man is walking a dog.", ENT, "esnli_snli"),
                  Pair(premise, "The man is walking to his office.", NEU, "esnli_snli"),
                  Pair(premise, "The man is sitting in a cafe.", CON, "esnli_snli"),
                  Pair(premise, "Nobody is on the beach today.", CON, "counter_antonym")]  # a recipe's: never joined
    return pairs


def test_join_lowercases_a_common_first_word_and_keeps_names():
    assert join("A man sleeps", "The dog barks") == "A man sleeps and the dog barks."
    assert join("A man sleeps", "Maria sings", "A man sleeps while Maria sings.") == "A man sleeps and Maria sings."
    assert join("A man sleeps", "Before noon he ran") == "A man sleeps and before noon he ran."


def test_a_claim_is_labelled_by_its_weaker_part():
    out = conjoined_pairs(_train(), seed=1, n=30)
    assert Counter(p.label for p in out) == {ENT: 10, NEU: 10, CON: 10}
    assert {p.source for p in out} == {SOURCE}
    for pair in out:
        if pair.label == NEU:
            assert "walking to his office" in pair.hypothesis and "walking a dog" in pair.hypothesis
        if pair.label == CON:
            assert "sitting in a cafe" in pair.hypothesis and "walking a dog" in pair.hypothesis
        if pair.label == ENT:  # no second entailed claim here: a sentence of the premise is the other part
            assert "walking a dog" in pair.hypothesis
            assert "red coat" in pair.hypothesis or "was taken in May" in pair.hypothesis
        assert "nobody" not in pair.hypothesis.lower()


def test_premises_without_an_entailed_claim_give_nothing():
    pairs = [Pair(PREMISE, "The man is asleep in bed.", CON, "esnli_snli"),
             Pair(PREMISE, "The man is walking to his office.", NEU, "esnli_snli")]
    assert conjoined_pairs(pairs, seed=1, n=9) == []
