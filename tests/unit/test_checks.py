import pytest

from groundwatch.scorers.guards.checks import cited_ids_for, citation_check, number_check, quote_check, run_checks
from groundwatch.scorers.english.quantities import passage_quantities, quantities
from groundwatch.scorers.schema import Citation, Passage

P = [Passage(id="p1", text="Refunds are available within thirty days of purchase. The fee is 1,000 USD."),
     Passage(id="p2", text="The policy took effect on 5 January 2026. Late fees are 5 percent."),
     Passage(id="p3", text="Our support team said: “We never share customer data with advertisers.”")]


@pytest.mark.parametrize("claim", [
    "Refunds are available within 30 days.",            # thirty = 30
    "The fee is 1000 USD.",                             # 1,000 = 1000
    "Late fees are 5%.",                                # 5% = 5 percent
    "The policy took effect on 2026-01-05.",            # ISO = 5 January 2026
    "The policy took effect on January 5, 2026.",
    "The policy has applied since 2026.",               # a year inside a date
    "The policy took effect on January 5th.",           # a date without its year
    "The policy took effect on the 5th.",               # a day of the month
])
def test_numbers_present_in_another_format_pass(claim):
    check = number_check(claim, passage_quantities([p.text for p in P]))
    assert check is not None and check.passed, check


@pytest.mark.parametrize("claim, missing", [
    ("Refunds are available within 60 days.", "60"),
    ("The policy took effect on 2026-02-05.", "2026-02-05"),
    ("Late fees are 7%.", "7%"),
    ("The policy took effect on 5 February.", "--02-05"),   # the day is there, in another month
])
def test_absent_numbers_fail_and_are_named(claim, missing):
    check = number_check(claim, passage_quantities([p.text for p in P]))
    assert not check.passed and missing in check.detail


def test_claims_without_numbers_have_no_number_check():
    assert number_check("Refunds are available.", passage_quantities([p.text for p in P])) is None


def test_quantities_normalise_formats():
    assert quantities("twenty-five people") == [("num", 25.0)]
    assert quantities("2.5 million") == [("num", 2_500_000.0)]
    assert quantities("from 12 March to April 3rd") == [("day", 3, 12), ("day", 4, 3)]
    # "may" the verb is no month, nor is a decimal before a month name
    assert quantities("Applicants aged 18 may apply.") == [("num", 18.0)]
    assert quantities("Version 2.5 of March") == [("num", 2.5)]


def test_quotes_must_be_verbatim_modulo_whitespace_and_quote_style():
    ok = quote_check('They said "we never  share customer data with advertisers".', P)
    assert ok.passed
    bad = quote_check('They said "we sell customer data to advertisers".', P)
    assert not bad.passed


def test_citations_must_resolve_and_share_a_content_word():
    assert citation_check("Refunds take thirty days.", ["p1"], P).passed
    missing = citation_check("Refunds take thirty days.", ["p9"], P)
    assert not missing.passed and "p9: no such passage" in missing.detail
    unrelated = citation_check("Refunds take thirty days.", ["p3"], P)
    assert not unrelated.passed and "shares no content word" in unrelated.detail


def test_cited_ids_from_spans_and_markers():
    citations = [Citation(passage_id="p2", span=(0, 10)), Citation(passage_id="p3", span=(50, 60))]
    assert cited_ids_for((0, 20), ["p1", "3"], citations, ["p1", "p2", "p3"]) == ["p2", "p1", "p3"]


def test_run_checks_records_every_applicable_check():
    checks = run_checks('Refunds take 60 days, "no questions asked".', ["p1"], P)
    assert {c.name: c.passed for c in checks} == {"quote": False, "numbers": False, "citation": True}


def numbers_with_guard(claim, passage):
    """The numbers check as the pipeline runs it: absent numbers may be derived by the arithmetic guard."""
    from groundwatch.scorers.guards.arithmetic import derived_values
    from groundwatch.scorers.guards.stage import arithmetic_guard

    passages = [Passage(id="p1", text=passage)]
    guard = arithmetic_guard(claim, passages)
    return number_check(claim, passage_quantities([passage]), derived_values(guard) if guard else None)


@pytest.mark.parametrize("claim, passage, conversion", [
    ("The store closes at 8 pm.", "The store is open until 20:00 on weekdays.", "20:00"),     # time of day
    ("The store closes at 20:00.", "The store is open until 8 pm on weekdays.", "8 pm"),
    ("The meeting lasts 90 minutes.", "The meeting runs from 2:00 pm to 3:30 pm.", "2:00 pm to 3:30 pm"),
    ("The trail is 1.2 km long.", "The trail is 1,200 metres long.", "1,200 metres"),         # length
    ("Each parcel may weigh up to 2,500 grams.", "Each parcel may weigh up to 2.5 kg.", "2.5 kg"),  # mass
    ("Refunds arrive within 7 days.", "Refunds arrive within a week.", "a week"),             # word numbers
    ("The course takes 24 months.", "The course takes two years.", "two years"),
    ("You can return items within 90 days.", "Items can be returned within three months.", "three months"),
])
def test_equivalent_quantities_pass_and_the_detail_names_the_conversion(claim, passage, conversion):
    check = numbers_with_guard(claim, passage)
    assert check.passed, check
    assert conversion in check.detail and "conversion" in check.detail, check.detail


@pytest.mark.parametrize("claim, passage", [
    ("The store closes at 9 pm.", "The store is open until 20:00 on weekdays."),
    ("The meeting lasts 60 minutes.", "The meeting runs from 2:00 pm to 3:30 pm."),
    ("The trail is 1.5 km long.", "The trail is 1,200 metres long."),
    ("Refunds arrive within 10 days.", "Refunds arrive within a week."),
])
def test_different_quantities_still_fail(claim, passage):
    assert not numbers_with_guard(claim, passage).passed


def test_a_value_written_otherwise_must_be_the_same_value():
    # "€1" is not "€0.50" rounded: only the same value in another writing counts as found
    assert not numbers_with_guard("SEPA Instant transfers cost €1 each.",
                                  "SEPA Instant transfers cost €0.50 each.").passed
    assert numbers_with_guard("The fund holds $30M.", "The fund holds $30 million.").passed


def test_a_date_matches_its_day_written_without_the_year_where_the_passages_state_the_year():
    given = passage_quantities(["Season 2 returns in March 2019.", "Episodes air weekly from March 4th."])
    assert number_check("It aired on March 4, 2019.", given).passed
    assert not number_check("It aired on March 4, 2018.", given).passed  # 2018 is nowhere
    assert not number_check("It aired on March 5, 2019.", given).passed


def test_a_quote_with_an_elision_is_found_part_by_part_in_order():
    passages = [Passage(id="p1", text="The critic called the video mature, tasteful, and, dare we say it, sexy.")]
    assert quote_check('The critic called the video "mature, tasteful, and [...] sexy".', passages).passed
    assert not quote_check('The critic called it "sexy [...] mature, tasteful".', passages).passed


def test_a_quote_is_verbatim_whatever_its_dashes_and_the_spaces_before_punctuation():
    passages = [Passage(id="p1", text='He died while filming "Mockingjay — Part 2". His daughter wrote "Booth '
                        'memorials : Passages, incidents ( and anecdotes )".')]
    assert quote_check('He was filming "Mockingjay – Part 2" then.', passages).passed
    assert quote_check('She wrote "Booth memorials: Passages, incidents (and anecdotes)".', passages).passed
    assert not quote_check('She wrote "Booth memorials: Passages and incidents".', passages).passed
