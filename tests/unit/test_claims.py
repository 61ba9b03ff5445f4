from groundwatch.scorers.answer.claims import ClaimCache, cited_markers, decompose, given_claims, sentence_spans


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


def test_a_source_note_is_not_part_of_the_claim():
    # its words and numbers are where to read more: "section 4" is no quantity the passages must state
    answer = ("Refunds go to the original payment method (Source: Refund policy, section 4). "
              "Shipping is free (see the FAQ). Returns take 14 days (ref. doc 2). Tea (see below) is hot.")
    assert [c.text for c in decompose(answer)] == [
        "Refunds go to the original payment method.", "Shipping is free.", "Returns take 14 days.", "Tea is hot."]
    assert [c.text for c in decompose("Plans (seen as a bundle) cost $5 (sourced locally).")] == [
        "Plans (seen as a bundle) cost $5 (sourced locally)."]


def test_given_claims_are_used_as_given():
    claims = given_claims("A is B. C is D.", ["C is D.", "Not in answer"])
    assert [c.text for c in claims] == ["C is D.", "Not in answer"]
    assert claims[0].span == (8, 15) and claims[1].span == (0, 0)


def test_cache_returns_the_same_decomposition():
    cache = ClaimCache(budget=1 << 20)
    first = cache.get("A cat sleeps. A dog barks.")
    assert cache.get("A cat sleeps. A dog barks.") is first


def test_question_mark_inside_a_ui_label_does_not_end_the_sentence():
    answer = "Click Forgot password? on the sign-in page and type your email. The link lasts 60 minutes."
    assert len(decompose(answer)) == 2


def test_pronoun_with_disagreeing_number_is_left_alone():
    assert texts("You can carry up to 5 unused days, but they expire on March 31.")[1] == "They expire on March 31."
    assert texts("All employees get 20 weeks of leave, and it can be taken in three blocks.")[1] == \
        "It can be taken in three blocks."


def test_contracted_pronoun_is_expanded_with_the_subject():
    assert texts("Ledgerly Invest isn't part of that scheme; it's protected by another one.")[1] == \
        "Ledgerly Invest is protected by another one."


def test_no_ends_a_sentence_unless_a_number_follows():
    assert texts("No. There are SDKs for Go.") == ["No.", "There are SDKs for Go."]
    assert len(decompose("See clause No. 5 of the contract.")) == 1


def test_interjections_and_greetings_are_dropped_from_claim_text():
    assert texts("Yes, glasses are covered by the plan.") == ["Glasses are covered by the plan."]
    assert texts("Hi Dana, employees accrue 25 days per year.") == ["Employees accrue 25 days per year."]


def test_short_lead_in_before_a_colon_splits_off():
    assert texts("Here's how it works: add-ons renew with your subscription.") == [
        "Here's how it works.", "Add-ons renew with your subscription."]


def test_otherwise_stays_with_its_condition():
    answer = "Reply within 10 seconds; otherwise the delivery counts as failed."
    assert texts(answer) == [answer]


def test_initials_do_not_end_a_sentence():
    claims = decompose("The series is by J.K. Rowling and J. R. R. Tolkien wrote the other. Plan B. It works.")
    assert [c.text for c in claims][:1] == ["The series is by J.K. Rowling and J. R. R. Tolkien wrote the other."]
    assert "Plan B." in [c.text for c in claims]


def test_a_question_gives_no_subject_and_dummy_it_stays():
    texts = [c.text for c in decompose("How old was the singer when he started? It's a long time ago.")]
    assert texts[1] == "It's a long time ago."
    texts = [c.text for c in decompose("Sales of the album haven't changed much but it seems sales rose in May.")]
    assert texts == ["Sales of the album haven't changed much.", "It seems sales rose in May."]


def test_v_and_quoted_titles_do_not_split_a_claim():
    assert len(decompose("The court ruled on Brown v. Board of Education in 1954.")) == 1
    texts = [c.text for c in decompose('The first, titled "Memorials: Passages, and anecdotes", was published in 1865.')]
    assert texts == ['The first, titled "Memorials: Passages, and anecdotes", was published in 1865.']


def test_a_name_without_a_verb_is_no_clause_and_a_verb_first_clause_takes_the_subject():
    assert [c.text for c in decompose("She is a cousin of Prince William, Duke of Cambridge, and Prince Harry.")] == [
        "She is a cousin of Prince William, Duke of Cambridge, and Prince Harry."]
    assert [c.text for c in decompose("The band was touring Japan, and had already finished the album.")] == [
        "The band was touring Japan.", "The band had already finished the album."]


def test_an_elision_is_no_citation_marker():
    claim = decompose('Critics called the video "mature, tasteful, and [...] sexy" [p1].')[0]
    assert claim.text == 'Critics called the video "mature, tasteful, and [...] sexy".'
    assert cited_markers('Critics called it "mature [...] sexy" [p1].') == ["p1"]


def test_an_answer_crediting_the_passages_is_checked_for_what_it_credits_them_with():
    assert texts("According to the provided documents, refunds take 30 days. They are paid to your card.") == [
        "Refunds take 30 days.", "Refunds are paid to your card."]
    assert texts("The policy states that refunds take 30 days.") == ["Refunds take 30 days."]
    assert texts("Per the documentation, the API allows 100 requests per minute.") == [
        "The API allows 100 requests per minute."]
    # A named source is part of the claim: "According to the WHO" is not "according to the passages".
    assert texts("According to the WHO, masks reduce transmission.") == [
        "According to the WHO, masks reduce transmission."]


def test_a_label_before_a_colon_stays_with_what_it_labels():
    # Split off, "Enterprise customers." would be a claim of its own and the rest would lose its condition.
    assert texts("Enterprise customers: refunds are available for 60 days with approval.") == [
        "Enterprise customers: refunds are available for 60 days with approval."]
    assert texts("- **Standard plan:** refunds are available within 30 days.") == [
        "Standard plan: refunds are available within 30 days."]
    assert texts("Important: backups run nightly.") == ["Backups run nightly."]
