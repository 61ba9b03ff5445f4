"""Counter-shortcut recipes: equivalent rewordings entail, their minimal pairs do not, and no lexicon pair
of the recipes is one the hand-written controls test (the controls measure rewordings never trained on)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from groundwatch.training import counter_shortcuts as cs
from groundwatch.training.labels import LABEL2ID
from groundwatch.training.nli_data import Pair

ROOT = Path(__file__).resolve().parents[2]
ENT, NEU, CON = LABEL2ID["entailment"], LABEL2ID["neutral"], LABEL2ID["contradiction"]


def _words(text: str) -> set[str]:
    words = set(re.findall(r"[a-z]+|\d+", text.lower()))
    return words | {w[:-1] for w in words if w.endswith("s") and len(w) > 3}


def _control_cues() -> list[tuple[set[str], set[str], str]]:
    cues = []
    for line in (ROOT / "examples" / "controls" / "expected.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for claim in record["claims"]:
            a, b = claim["cue"]
            cues.append((_words(a), _words(b), record["request_id"]))
    return cues


def _lexicon_pairs() -> list[tuple[str, str, str]]:
    pairs = []
    for lexicon in (cs.LEXICON, cs.SYNONYMS):
        for line in lexicon.read_text(encoding="utf-8").splitlines():
            if not line.startswith("#"):
                _, a, b = line.split("\t")
                pairs.append((a, b, lexicon.name))
    pairs += [(a.rstrip("s"), b.rstrip("s"), "UNIT_PAIRS") for a, b, _ in cs.UNIT_PAIRS]
    pairs += [(str(n), word, "WORD_NUMBERS") for n, word in cs.WORD_NUMBERS.items()]
    return pairs


def test_no_recipe_lexicon_pair_is_a_control_cue_pair():
    shared = []
    for answer_words, passage_words, request_id in _control_cues():
        for a, b, source in _lexicon_pairs():
            if (a in answer_words and b in passage_words) or (b in answer_words and a in passage_words):
                shared.append(f"{request_id}: {a}/{b} ({source})")
    assert not shared, "a recipe lexicon shares a pair with the controls:\n" + "\n".join(shared)


def test_the_check_sees_a_shared_pair(monkeypatch, tmp_path):
    lexicon = tmp_path / "antonyms.tsv"
    lexicon.write_text("a\tmandatory\toptional\n")
    monkeypatch.setattr(cs, "LEXICON", lexicon)
    cues = [(_words("isn't mandatory"), _words("is optional"), "x")]
    assert any(a in cues[0][0] and b in cues[0][1] or b in cues[0][0] and a in cues[0][1]
               for a, b, _ in _lexicon_pairs())


def _hyps(pairs: list[Pair]) -> dict[str, int]:
    return {p.hypothesis: p.label for p in pairs}


def test_an_antonym_negated_is_entailed_and_the_bare_antonym_contradicted():
    antonyms = {"visible": {"invisible"}, "invisible": {"visible"}}
    premise = "From the terrace the lighthouse is visible on clear days."
    got = _hyps(cs.antonym_pairs(premise, premise, antonyms, random.Random(0)))
    assert got == {"From the terrace the lighthouse is not invisible on clear days.": ENT,
                   "From the terrace the lighthouse is invisible on clear days.": CON,
                   "From the terrace the lighthouse is not visible on clear days.": CON,
                   premise: ENT}


@pytest.mark.parametrize("sentence", [
    "He is best known for his novels.",         # an adverb before a participle, not a predicate adjective
    "She was born in Leeds.",                   # a participle inside its phrase
    "The door is not open.",                    # already negated: the negation recipe's job
])
def test_antonym_recipe_leaves_non_predicates_alone(sentence):
    antonyms = {"best": {"worst"}, "born": {"unborn"}, "open": {"closed"}}
    assert cs.antonym_pairs(sentence, sentence, antonyms, random.Random(0)) == []


def test_the_same_amount_in_another_unit_is_entailed_and_a_wrong_conversion_contradicted():
    sentence = "The cable is 3 cm thick."
    got = cs.quantity_pairs(sentence, sentence, random.Random(0))
    assert [p.label for p in got] == [ENT, CON, ENT, CON]
    assert got[0].hypothesis == "The cable is 30 mm thick."
    assert got[1].hypothesis != got[0].hypothesis and got[1].hypothesis.endswith("mm thick.")
    # bounds: one the amount meets, with another number; one it misses, with the same number
    assert got[3].hypothesis in ("The cable is more than 30 mm thick.", "The cable is less than 30 mm thick.")
    assert re.fullmatch(r"The cable is (less than \d+|more than 15) mm thick\.", got[2].hypothesis)


def test_a_count_in_words_is_entailed_but_not_a_date():
    got = _hyps(cs.quantity_pairs("x", "There were 6 confirmed cases.", random.Random(0)))
    assert got["There were six confirmed cases."] == ENT and sorted(got.values()) == [ENT, ENT, CON, CON]
    assert sum(h.startswith(("There were fewer than six", "There were more than six")) for h in got) == 1
    assert cs.quantity_pairs("x", "As of 20 March the office reopened.", random.Random(0)) == []


def test_both_is_entailed_and_only_one_contradicted():
    sentence = "The pool and sauna are closed on Mondays."
    got = _hyps(cs.conjunction_pairs(sentence, sentence, random.Random(0)))
    assert got == {"Both the pool and sauna are closed on Mondays.": ENT,
                   "Only the pool is closed on Mondays.": CON}


def test_computed_values_come_with_their_minimal_pairs():
    pairs = cs.computed_pairs(random.Random(3), "the course")
    labels = [p.label for p in pairs]
    assert labels.count(ENT) == labels.count(CON) == 4
    total = next(p for p in pairs if "in total" in p.hypothesis and p.label == ENT)
    parts = [int(x) for x in re.findall(r"\$(\d+)", total.premise)]
    assert f"${sum(parts)} in total" in total.hypothesis


def test_a_negated_claim_flips_the_label_half_each_way():
    train = [Pair("The shop opens at 9 every day.", "The shop opens at 9.", ENT, "rte"),
             Pair("The shop opens at 9 every day.", "The shop opens at 10.", CON, "rte"),
             Pair("Paris is the capital.", "Paris is not the capital.", CON, "rte"),  # already negated: skipped
             Pair("x y z", "The shop opens at 9.", ENT, "synthetic_copy")]  # a recipe's pair: skipped
    got = {(p.hypothesis, p.label) for p in cs.claim_negation_pairs(train, random.Random(0), 10)}
    assert got == {("It is not true that the shop opens at 9.", CON), ("It is not true that the shop opens at 10.", ENT)}
    assert cs.negated_claim("Paris is the capital.") == "It is not true that Paris is the capital."
    assert cs.negated_claim("Is it open? Yes.") is None


def test_copies_are_sentences_of_their_premise_and_prefer_a_negation_or_a_number():
    train = [Pair("The shop opens at 9. It is not open on Sundays. Staff wear green aprons.", "x", NEU, "rte"),
             Pair("A river runs through the old town of Aldmere.", "x", ENT, "rte"),
             Pair("Ferries leave the harbour every hour in summer.", "x", ENT, "rte"),
             Pair("Recipe premises are never copied from here at all.", "x", CON, "synthetic_negation")]
    pairs = cs.copy_pairs(train, seed=3, n=10)
    assert len(pairs) == 3 and {p.label for p in pairs} == {ENT} and {p.source for p in pairs} == {"counter_copy"}
    for pair in pairs:
        assert pair.hypothesis in pair.premise and "Recipe" not in pair.premise
    shop = next(p for p in pairs if "shop" in p.premise)
    assert shop.hypothesis in ("The shop opens at 9.", "It is not open on Sundays.")
    alone = next(p for p in pairs if p.hypothesis.startswith("A river"))
    assert alone.premise != alone.hypothesis  # a one-sentence premise is set among others, as in a chunk


def test_a_share_of_copies_stands_alone_as_the_scorers_sentence_premise_and_none_by_default():
    train = [Pair(f"Ferry {i} leaves the harbour at {i} am. The cafe on deck {i} sells tea.", "x", ENT, "rte")
             for i in range(40)]
    alone = [p for p in cs.copy_pairs(train, seed=3, n=40, alone=0.5) if p.premise == p.hypothesis]
    assert 10 <= len(alone) <= 30
    assert all(p.premise != p.hypothesis for p in cs.copy_pairs(train, seed=3, n=40))


def test_a_synonym_swap_is_entailed_keeps_the_article_right_and_skips_negations(monkeypatch, tmp_path):
    lexicon = tmp_path / "synonyms.tsv"
    lexicon.write_text("# header\na\thuge\timmense\nv\tbegin\tstart\n")
    monkeypatch.setattr(cs, "SYNONYMS", lexicon)
    monkeypatch.setattr(cs.load_synonyms, "__defaults__", (lexicon,))
    train = [Pair("The festival draws a huge crowd every summer in the park.", "x", ENT, "rte"),
             Pair("Classes do not begin before nine in the morning at the school.", "x", ENT, "rte"),
             Pair("Lessons begin at nine in the morning, and a huge bell rings.", "x", ENT, "synthetic_swap")]
    pairs = cs.synonym_pairs(train, seed=1, n=10)
    assert [(p.hypothesis, p.label, p.source) for p in pairs] == [
        ("The festival draws an immense crowd every summer in the park.", ENT, "counter_synonym")]


def test_the_synonym_lexicon_keeps_function_words_out():
    table = cs.load_synonyms()
    assert table and not {"as", "on", "about", "only", "someone", "found"} & set(table)
    assert "purchase" in table.get("buy", []) or "large" in table.get("big", [])


def test_a_copy_with_two_names_swapped_is_not_entailed():
    from groundwatch.training.labels import NOT_ENTAILMENT
    train = [Pair("The final was won by Leeds against Arsenal in extra time.", "x", ENT, "rte")]
    pairs = cs.copy_pairs(train, seed=5, n=1, swaps=True)
    assert [(p.hypothesis, p.label) for p in pairs] == [
        ("The final was won by Leeds against Arsenal in extra time.", ENT),
        ("The final was won by Arsenal against Leeds in extra time.", NOT_ENTAILMENT)]
    assert cs.copy_pairs(train, seed=5, n=1) == pairs[:1]


def test_a_copy_with_an_added_detail_is_not_entailed_and_the_detail_is_new_to_the_premise():
    from groundwatch.training.labels import NOT_ENTAILMENT
    premise = "The museum reopened in 2019 after a long refit. Entry is free for children under 12."
    assert cs.added_detail("Entry is free for children under 12.", premise, "in Glasgow") == \
        "Entry is free for children under 12 in Glasgow."
    assert cs.added_detail("Entry is free for children under 12.", premise, "in 2019") is None  # already given
    train = [Pair(premise, "x", ENT, "rte"),
             Pair("Trains to Leeds leave from platform 4. The line opened at Kingsway Station.", "x", ENT, "rte")]
    pairs = cs.copy_pairs(train, seed=5, n=2, details=True)
    copies = [p for p in pairs if p.label == ENT]
    assert len(copies) == 2 and all(p.hypothesis in p.premise for p in copies)
    for p in pairs:
        if p.label == NOT_ENTAILMENT:
            assert p.hypothesis not in p.premise and p.hypothesis.rstrip(".").split(" ", 1)[0] in p.premise
    assert cs.copy_pairs(train, seed=5, n=2) == copies  # without details, the copies of the same seed


def test_a_natural_negation_sits_at_the_helper_verb():
    rng = random.Random(0)
    assert cs.natural_negation("A man is sleeping on a bench.", rng) in ("A man is not sleeping on a bench.",
                                                                         "A man isn't sleeping on a bench.")
    assert cs.natural_negation("The order has been shipped.", rng) in ("The order has not been shipped.",
                                                                       "The order hasn't been shipped.")
    assert cs.natural_negation("She may apply again.", rng) == "She may not apply again."
    assert cs.natural_negation("The room has a safe.", rng) is None        # "has" as the main verb
    assert cs.natural_negation("The shop opens at 9.", rng) is None        # no helper: the template is used
    assert cs.natural_negation("Paris is not the capital.", rng) is None   # already negated
    train = [Pair("The shop opens at 9 every day.", "The shop is open at 9.", ENT, "rte"),
             Pair("The shop opens at 9 every day.", "The shop opens at 10.", CON, "rte")]
    got = {(p.hypothesis, p.label) for p in cs.claim_negation_pairs(train, random.Random(1), 10, natural=True)}
    assert got in ({("The shop is not open at 9.", CON), ("It is not true that the shop opens at 10.", ENT)},
                   {("The shop isn't open at 9.", CON), ("It is not true that the shop opens at 10.", ENT)})
