"""Entity-attribute-value facts and the value-mismatch rule (model-free)."""

import pytest

from groundwatch.scorers.english.facts import disagree, mismatches, sentence_facts, text_facts


def one(sentence: str):
    facts = sentence_facts(sentence)
    assert len(facts) == 1, facts
    return facts[0]


@pytest.mark.parametrize("sentence, entity, attribute, unit, amounts", [
    ("Refunds are available within 30 days.", "refund", "available within", "day", (30.0,)),
    ("The Pro plan costs $49 per month.", "pro plan", "cost", "usd/month", (49.0,)),
    ("The Pro plan costs $49/month.", "pro plan", "cost", "usd/month", (49.0,)),
    ("The free trial lasts 2 weeks.", "free trial", "last", "day", (14.0,)),
    ("Standard shipping takes 3 to 5 business days.", "standard shipping", "take", "business day", (3.0, 5.0)),
    ("Passwords must be at least 12 characters long.", "password", "be least", "character", (12.0,)),
    ("The legacy API will be retired on March 31, 2026.", "legacy api", "retired", "date", (("date", 2026, 3, 31),)),
    ("Our uptime commitment is 99.9% per month.", "uptime commitment", "be", "%/month", (99.9,)),
])
def test_extracts_entity_attribute_value(sentence, entity, attribute, unit, amounts):
    fact = one(sentence)
    assert (fact.entity, fact.attribute, fact.value.unit, fact.value.amounts) == (entity, attribute, unit, amounts)
    start, end = fact.span
    assert sentence[start:end] == fact.value.text


def test_value_text_and_description():
    fact = one("The Pro plan costs $49 per month.")
    assert fact.value.text == "$49 per month"
    assert fact.value.describe() == "49 usd/month"
    assert fact.key == "pro plan | cost"


def test_two_values_in_one_sentence_get_their_own_attributes():
    facts = sentence_facts("The Pro plan costs $49/month and includes 10 seats.")
    assert [(f.key, f.value.amounts) for f in facts] == [("pro plan | cost", (49.0,)), ("pro plan | include", (10.0,))]


def test_clauses_keep_their_own_subjects():
    facts = sentence_facts("Basic costs $9 per month, while Pro costs $49 per month.")
    assert [(f.entity, f.value.amounts) for f in facts] == [("basic", (9.0,)), ("pro", (49.0,))]


def test_conditions_scope_the_key():
    scoped = one("For annual plans, refunds are available within 30 days.")
    plain = one("Refunds are available within 14 days.")
    assert scoped.condition == "annual plan" and not disagree(scoped, plain)
    later = one("Support replies within 4 hours for urgent issues.")
    assert later.condition == "urgent issue"


@pytest.mark.parametrize("sentence", ["How long do refunds take?", "Two-factor authentication is required.",
                                      "Open Settings and choose Billing."])
def test_no_fact_without_a_value(sentence):
    assert sentence_facts(sentence) == ()


def test_mismatch_needs_same_key_same_unit_and_different_amounts():
    a = one("Refunds are available within 30 days.")
    assert disagree(a, one("Refunds are available within 14 days."))
    assert not disagree(a, one("Refunds are available within thirty days."))  # same amount, other spelling
    assert disagree(a, one("Refunds are available within 2 weeks."))  # 14 days
    assert not disagree(one("The Pro plan costs $49 per month."), one("The Pro plan costs $490 per year."))
    assert not disagree(one("The Pro plan costs $49 per month."), one("The Team plan costs $99 per month."))
    assert disagree(one("The legacy API will be retired on March 31, 2026."),
                    one("The legacy API will be retired on June 30, 2026."))


def test_text_facts_pairs_sentences_with_their_facts():
    text = "Refunds are available within 30 days. Orders ship within 2 business days. Thanks!"
    found = text_facts(text)
    assert [s for s, _ in found] == ["Refunds are available within 30 days.", "Orders ship within 2 business days."]
    other = [f for _, f in text_facts("Orders ship within 5 business days.")]
    assert [(a.key, b.value.text) for a, b in mismatches([f for _, f in found], other)] == \
        [("order | ship within", "5 business days")]
