from scorers.claims import ClaimCache, cited_markers, decompose, given_claims, sentence_spans


def texts(answer):
    return [c.text for c in decompose(answer)]


def test_sentences_and_spans_point_into_the_answer():
    answer = "Refunds take 30 days. Shipping is free for orders over $50! Is it fast? Yes."
    claims = decompose(answer)
    assert [c.text for c in claims] == ["Refunds take 30 days.", "Shipping is free for orders over $50!",
                                       "Is it fast?", "Yes."]
    for c in claims:
        assert answer[c.span[0]:c.span[1]].rstrip(".!?") in c.text


def test_abbreviations_and_decimals_do_not_end_sentences():
    answer = "Version 2.5 shipped on Jan. 5 in the U.S. market, e.g. for Acme Inc. customers. It works."
    assert len(sentence_spans(answer)) == 2


def test_clauses_split_on_semicolon_and_but_and_so():
    assert texts("The API allows 100 requests per minute; it returns HTTP 429 when exceeded.") == [
        "The API allows 100 requests per minute.", "The API returns HTTP 429 when exceeded."]
    assert texts("You can cancel at any time, but the fee is not refundable.") == [
        "You can cancel at any time.", "The fee is not refundable."]
    assert texts("Backups run nightly, so restores lose at most one day of data.") == [
        "Backups run nightly.", "Restores lose at most one day of data."]


def test_and_between_noun_phrases_is_not_split():
    assert texts("We support apples, pears, and oranges.") == ["We support apples, pears, and oranges."]


def test_conditions_stay_attached_to_their_predicate():
    answer = "Refunds are processed within 5 business days, unless the order was customised."
    assert texts(answer) == [answer]
    answer = "Enterprise customers get 60 days, but only if their account manager approves it."
    assert texts(answer) == [answer]


def test_pronoun_clause_gets_the_subject():
    assert texts("Data is encrypted at rest, and it is replicated to three regions.") == [
        "Data is encrypted at rest.", "Data is replicated to three regions."]


def test_inline_citation_markers_are_removed_from_claim_text_and_found():
    answer = "Refunds take 30 days [p1]. Shipping is free [2]."
    claims = decompose(answer)
    assert [c.text for c in claims] == ["Refunds take 30 days.", "Shipping is free."]
    assert cited_markers(answer[claims[0].span[0]:claims[0].span[1]]) == ["p1"]


def test_given_claims_are_used_as_given():
    claims = given_claims("A is B. C is D.", ["C is D.", "Not in answer"])
    assert [c.text for c in claims] == ["C is D.", "Not in answer"]
    assert claims[0].span == (8, 15) and claims[1].span == (0, 0)


def test_cache_returns_the_same_decomposition():
    cache = ClaimCache(size=2)
    first = cache.get("A cat sleeps. A dog barks.")
    assert cache.get("A cat sleeps. A dog barks.") is first
