"""Arithmetic guard: derived numbers that check out count as found; wrong ones are caught with the computation."""

import pytest

from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.guards import arithmetic
from groundwatch.scorers.guards.evidence import chunk_sentences
from groundwatch.scorers.english.quantities import read
from groundwatch.scorers.english.units import factor

REVENUE = "Acme's revenue was $200M in 2024. In 2025 revenue reached $230M."
PRICES = ("The Team plan costs $12 per user per month billed annually, or $15 per user per month billed monthly. "
          "The Pro plan costs $29 per user per month billed annually.")
PARENTAL = "Northwind offers 20 weeks of fully paid parental leave to every parent."
FX = "Card payments in a currency other than euro carry a foreign transaction fee of 1.5% of the amount."
SAVINGS = "Savings pots earn 2.1% AER variable interest, paid monthly. The rate was reduced from 2.5% on 1 October 2026."
DOSE = "Take one or two 200 mg tablets every 4 to 6 hours as needed. Do not take more than 6 tablets in 24 hours."
ABSENCE = "Requests for absences must be submitted at least two weeks in advance."
SEATS = "The Starter plan includes 5 seats and the Growth plan includes 30 seats."


def run(claim, passage):
    return arithmetic.check(claim, chunk_sentences([Chunk("p1", passage, 0, len(passage), 0)]))


@pytest.mark.parametrize("claim, passage, op", [
    ("Revenue rose 15% from 2024 to 2025.", REVENUE, "percent_change"),
    ("Revenue grew by about 15%.", REVENUE, "percent_change"),
    ("Revenue grew by $30M.", REVENUE, "difference"),
    ("The Team plan costs $144 per user per year when billed annually.", PRICES, "conversion"),
    ("The Pro plan costs $17 more per user per month than the Team plan.", PRICES, "difference"),
    ("Parents get 140 days of fully paid parental leave.", PARENTAL, "conversion"),
    ("A €200 card payment in dollars costs €3 in fees.", FX, "percent_of"),
    ("The savings rate fell by 0.4 percentage points.", SAVINGS, "point_change"),
    ("The savings rate fell by 16%.", SAVINGS, "percent_change"),
    ("Absence requests are due 14 days ahead.", ABSENCE, "conversion"),
    ("The two plans include 35 seats in total.", SEATS, "sum"),
    ("Growth includes 6x as many seats as Starter.", SEATS, "ratio"),
])
def test_correct_derived_numbers_count_as_found(claim, passage, op):
    result = run(claim, passage)
    assert not result.fired, result
    assert result.found["derived"][0]["op"] == op, result.found
    assert "=" in result.detail


@pytest.mark.parametrize("claim, passage, verdict", [
    # an operation the claim names, done wrong: a reason for doubt, not a verified mismatch
    ("Revenue rose 17% from 2024 to 2025.", REVENUE, "NOT_ENOUGH_INFO"),
    ("Revenue grew by $40M.", REVENUE, "NOT_ENOUGH_INFO"),
    ("The savings rate fell by 20%.", SAVINGS, "NOT_ENOUGH_INFO"),
    ("The two plans include 40 seats in total.", SEATS, "NOT_ENOUGH_INFO"),
    # the same quantity of the same subject, converted: a verified mismatch
    ("Parents get 150 days of fully paid parental leave.", PARENTAL, "CONTRADICTED"),
    # two operands fit ($12 and $15 a month): not clear which one the claim means
    ("The Team plan costs $150 per user per year.", PRICES, "NOT_ENOUGH_INFO"),
])
def test_wrong_derived_numbers_cap_the_verdict_and_show_the_computation(claim, passage, verdict):
    result = run(claim, passage)
    assert result.fired and result.flag == "arithmetic_mismatch" and result.verdict == verdict, result
    assert result.found["computation"]["expression"] in result.detail
    assert ("mismatch" in result.found) == (verdict == "CONTRADICTED"), result.found


@pytest.mark.parametrize("claim, passage", [
    ("Don't take more than 8 tablets in 24 hours.", DOSE),      # 6 + 2 = 8, but the claim names no sum
    ("Refunds take 14 days.", REVENUE),                        # nothing to derive it from
    ("Revenue reached $230M in 2025.", REVENUE),               # present as written
    ("Revenue grew 15.4% in 2025.", REVENUE),                  # 15.0% is outside the claim's rounding
])
def test_no_derivation_without_a_named_operation_or_outside_rounding(claim, passage):
    result = run(claim, passage)
    assert not result.found.get("derived"), result


def test_rounding_follows_the_claim():
    assert not run("Revenue rose 15.0% in 2025.", REVENUE).fired
    assert run("Revenue rose 15.4% in 2025.", REVENUE).fired


def test_quantities_read_units_rates_and_precision():
    q = read("The plan costs $12.50 per user per month, about 2 weeks.")
    assert (q[0].value, q[0].unit, q[0].rate, q[0].decimals) == (12.5, "usd", "user/month", 2)
    assert q[1].unit == "week" and q[1].hedged
    assert [x.value for x in read("Version 2023-01-15 stops on 2026-12-31.")] == []
    assert read("$1.2M")[0].value == 1_200_000 and read("$1.2M")[0].tolerance == 50_000
    assert factor("week", "day") == 7 and factor("year", "month") == 12 and factor("tb", "gb") == 1000
    assert factor("day", "gb") is None


PENSION = "The company matches employee pension contributions up to 6% of base salary."
ATM = "Cash withdrawals abroad are free up to £200 a month; after that, a 2% fee applies to each withdrawal."


def test_a_passage_percentage_applied_to_the_claims_own_amount():
    wrong = run("A £500 cash withdrawal abroad costs £12 in fees.", ATM)
    assert wrong.fired and wrong.verdict == "NOT_ENOUGH_INFO" and wrong.found["claimed"] == "£12", wrong
    assert "2% of £500" in wrong.detail
    right = run("A £500 cash withdrawal abroad costs £10 in fees.", ATM)
    assert not right.fired and right.found["derived"][0]["op"] == "percent_of"
    # the claim's own amount is a premise of the derivation: the numbers check does not ask the passages for it
    assert set(arithmetic.derived_values(right)) >= {10.0, 500.0}
    yearly = run("On a £50,000 salary, the company matches up to £3,000 a year.", PENSION)
    assert not yearly.fired and 50000.0 in arithmetic.derived_values(yearly), yearly


def test_the_base_amount_is_not_the_result_of_a_percentage():
    result = run("A £500 cash withdrawal abroad costs £10 in fees.", ATM)
    assert result.found.get("claimed") != "£500"
    assert not run("Withdrawing £300 abroad in one go is possible.", ATM).fired


@pytest.mark.parametrize("claim, passage, written", [
    ("Parents get 140 days of fully paid parental leave.", PARENTAL,
     "Parents get 20 weeks of fully paid parental leave."),
    ("Absence requests are due 14 days ahead.", ABSENCE, "Absence requests are due two weeks ahead."),
    ("A €200 card payment in dollars costs €3 in fees.", FX,
     "A €200 card payment in dollars costs 1.5% of €200 in fees."),
    ("Revenue grew by 15% in 2025.", REVENUE, "Revenue grew from $200M to $230M in 2025."),
    ("Premium accounts store 200 GB.", "Premium accounts store 100 GB of photos and 100 GB of documents.",
     "Premium accounts store 100 GB plus 100 GB."),
])
def test_operand_form_writes_a_verified_conversion_or_percentage_as_its_operands(claim, passage, written):
    assert arithmetic.operand_form(claim, run(claim, passage)) == written


@pytest.mark.parametrize("claim, passage", [
    ("Parents get 150 days of fully paid parental leave.", PARENTAL),   # wrong: the guard fired
    ("Revenue grew by $30M.", REVENUE),                                 # a difference has no operand wording
    ("Revenue reached $230M in 2025.", REVENUE),                        # nothing derived
    ("The council and police parts total £1,780.",                      # two of three parts
     "The bill is £1,520 for the council, £260 for the police and £95 for the fire service."),
])
def test_operand_form_leaves_other_claims_alone(claim, passage):
    assert arithmetic.operand_form(claim, run(claim, passage)) is None


def test_times_of_day_ranges_units_and_word_numbers_are_read():
    assert [(q.value, q.unit) for q in read("The store closes at 8 pm, or at 20:00 on Fridays, and noon on Sundays.")] \
        == [(20.0, "clock"), (20.0, "clock"), (12.0, "clock")]
    found = read("The meeting runs from 2:00 pm to 3:30 pm.")
    assert [(q.value, q.unit, q.span) for q in found] == [(14.0, "clock", False), (1.5, "hour", True),
                                                          (15.5, "clock", False)]
    assert [(q.value, q.unit) for q in read("The trail is 1.2 km, or 1,200 metres; a bag weighs 2.5 kg.")] \
        == [(1.2, "km"), (1200.0, "metre"), (2.5, "kg")]
    assert [(q.value, q.unit) for q in read("Refunds arrive within a week.")] == [(1.0, "week")]
    # not quantities of one: a rate, a frequency, an ordinal; not times of day: a version, a bare number
    assert [(q.value, q.unit, q.rate) for q in read("It costs $5 a month and runs twice a week.")] \
        == [(5.0, "usd", "month")]
    assert read("SMS codes can be used as a second factor.") == ()
    assert [(q.value, q.unit) for q in read("Version 2.10 has 8 features.")] == [(2.1, ""), (8.0, "feature")]


def test_spoken_times_fractions_compounds_areas_and_volumes_are_read():
    def values(text):
        return [(round(q.value, 4), q.unit) for q in read(text)]
    assert values("Doors open at half past nine in the evening.") == [(21.5, "clock")]
    assert values("The café opens at a quarter to seven on weekday mornings.") == [(6.75, "clock")]
    assert values("Trains stop at twenty past eleven at night.") == [(23.3333, "clock")]
    assert values("The shuttle leaves at ten o'clock in the morning.") == [(10.0, "clock")]
    assert values("Lunch is at half past twelve.") == [(12.0, "")]  # no part of the day: 12:30 or 00:30
    assert values("The warranty runs for half a year.") == [(0.5, "year")]
    assert values("Training takes a week and a half, or two and a half weeks for managers.") \
        == [(1.5, "week"), (2.5, "week")]
    assert values("Uploads are capped at three quarters of a gigabyte.") == [(0.75, "gigabyte")]
    assert values("The ferry crossing takes 2 hours 20 minutes.") == [(2.3333, "hour")]
    assert values("Notice is one month for two years and two months after that.") \
        == [(1.0, "month"), (2.0, "year"), (2.0, "month")]
    assert values("The plot is 4,000 square metres and the tank holds 1.5 cubic metres or 0.25 litres.") \
        == [(4000.0, "sq_m"), (1.5, "cu_m"), (0.25, "litre")]
    assert [q.text for q in read("Tickets cost 5 to 10 dollars.")] == ["5", "10 dollars"]


@pytest.mark.parametrize("claim, passage, written", [
    ("The depot opens at half past five in the morning.", "The depot opens at 05:30 on weekdays.",
     "The depot opens at 05:30."),
    ("The reservoir holds 0.4 litres.", "The reservoir holds 400 ml of water.", "The reservoir holds 400 ml."),
    ("The orchard covers 2.5 hectares.", "The orchard covers 25,000 square metres.",
     "The orchard covers 25,000 square metres."),
    ("The contract lasts a year and a half.", "The contract runs for 18 months.", "The contract lasts 18 months."),
])
def test_operand_form_writes_spoken_and_fractional_quantities_as_the_passage_does(claim, passage, written):
    assert arithmetic.operand_form(claim, run(claim, passage)) == written


def test_a_wrong_spoken_time_is_not_rewritten():
    claim = "The depot opens at half past six in the morning."
    assert arithmetic.operand_form(claim, run(claim, "The depot opens at 05:30 on weekdays.")) is None


def test_the_guard_stage_reads_a_quantity_in_words_whose_digits_are_in_the_passages():
    from types import SimpleNamespace

    from groundwatch.scorers.guards.stage import arithmetic_guard

    passage = SimpleNamespace(id="p1", text="The depot opens at 05:30 on weekdays.")
    result = arithmetic_guard("The depot opens at half past five in the morning.", [passage])
    assert result.found.get("derived"), result.detail  # "five" is in "05:30" to the value reader, 5.5 o'clock is not


def test_pence_proportions_dozens_and_rates_are_read():
    def values(text):
        return [(round(q.value, 4), q.unit, q.rate) for q in read(text)]
    assert values("The charge falls from 50p to 45p; units cost 24.5p per kWh.") \
        == [(0.5, "gbp", ""), (0.45, "gbp", ""), (0.245, "gbp", "kwh")]
    assert values("Prices rise by a third, then by half, and the rate by a quarter of a percentage point.") \
        == [(33.3333, "%", ""), (50.0, "%", ""), (0.25, "pp", "")]
    assert values("The sixth form is a fifth bigger.") == [(20.0, "%", "")]
    assert values("The fifth floor, half a year, and a third of the seats.") == [(0.5, "year", ""), (33.3333, "%", "")]
    assert values("It allows half a dozen withdrawals a year; a thousand lockers; a pair of pharmacists.") \
        == [(6.0, "withdrawal", "year"), (1000.0, "locker", ""), (2.0, "pharmacist", "")]
    assert values("Trays are worn for an hour and a half each day.") == [(1.5, "hour", "day")]
    # "a year" after a noun is a rate, not a duration of one year
    assert values("Staff get 10 days of volunteering leave a year, within a week of asking.") \
        == [(10.0, "day", ""), (1.0, "week", "")]
    # a range shares its rate; a year is not the low end of a percentage range
    assert values("Pro goes from £9 to £12 per editor per month.") \
        == [(9.0, "gbp", "editor/month"), (12.0, "gbp", "editor/month")]
    assert values("It improved from 72% in 2024 to 81% in 2025.") \
        == [(72.0, "%", ""), (2024.0, "", ""), (81.0, "%", ""), (2025.0, "", "")]


@pytest.mark.parametrize("claim, passage, written", [
    ("The standing charge is being cut by 10%.", "The standing charge falls from 50p to 45p on 1 July.",
     "The standing charge is being cut from 50p to 45p."),
    ("Visits grew by 15% in 2025.", "Libraries welcomed 46,000 visitors in 2025, up from 40,000 in 2024.",
     "Visits grew from 40,000 to 46,000 visitors in 2025."),
    ("The armchair is 30% off in the sale.", "In the sale, the armchair is reduced from £500 to £350.",
     "The armchair is reduced from £500 to £350 in the sale."),
    ("The room rate dropped 15% in January.", "The room rate fell from £140 in December to £119 in January.",
     "The room rate dropped from £140 to £119 in January."),
    ("The Pro price is rising by a third.", "The Pro price goes from £9 to £12 per editor per month.",
     "The Pro price is rising from £9 to £12 per editor per month."),
    ("The rate is going down by half a percentage point.", "The rate falls from 4.00% to 3.50% AER.",
     "The rate is going down from 4.00% to 3.50%."),
    ("Band C totals £1,875.", "Band C is £1,520 for the council, £260 for the police and £95 for the fire service.",
     "Band C totals £1,520 plus £260 plus £95."),
    ("The two fees add up to £1,349.", "The arrangement fee is £999. A valuation fee of £350 is also payable.",
     "The two fees add up to £999 plus £350."),
    ("The workspace can have up to twenty-five admins.", "A workspace can have up to 25 admins.",
     "The workspace can have up to 25 admins."),
    ("The hotel has 64 bedrooms.", "The hotel has sixty-four bedrooms across four floors.",
     "The hotel has sixty-four bedrooms."),
])
def test_operand_form_writes_changes_totals_and_word_numbers_as_the_passage_does(claim, passage, written):
    result = run(claim, passage)
    assert arithmetic.operand_form(claim, result) == written, result.detail


@pytest.mark.parametrize("claim, passage", [
    ("Band C totals £1,780.",  # two of three listed parts: checked against the total of all three
     "Band C is £1,520 for the council, £260 for the police and £95 for the fire service."),
    ("The rate rose by 11 percentage points.", "The rate improved from 72% in 2024 to 81% in 2025."),
    ("The Pro price is rising by a quarter.", "The Pro price goes from £9 to £12 per editor per month."),
])
def test_a_wrong_total_or_change_is_a_mismatch(claim, passage):
    result = run(claim, passage)
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO", result.detail


def test_a_conversion_is_not_stretched_by_rounding_and_sign_up_is_no_change():
    # "an hour" is exactly one hour, and "1 hour" does not round 90 minutes
    for claim in ("Trays are worn for an hour each day.", "Trays are worn for 1 hour a day."):
        assert not run(claim, "Trays are worn for 90 minutes a day.").found.get("derived")
    # "sign up" names no change: £54 is checked as the total of the fees, not as a difference
    result = run("Joining costs £54 on the day you sign up.", "You pay a £20 joining fee and £34 on the day.")
    assert result.found["derived"][0]["op"] == "total", result.detail
    # "adds three years" is not a sum
    assert not run("A certified installer adds three years to the warranty.",
                   "The warranty is two years, extended to five years with a certified installer.").fired


def test_a_total_of_parts_joined_within_a_clause_and_a_price_with_an_extra():
    deposit = "You pay a £200 deposit when you book and the remaining balance of £1,000 six weeks before the start."
    assert run("The course costs £1,200.", deposit).found["derived"][0]["op"] == "total"
    bike = "The Trailhead bike costs £300. A matching helmet is £45."
    assert run("A Trailhead bike with a helmet costs £345.", bike).found["derived"][0]["op"] == "sum"
    wrong = run("A Trailhead bike with a helmet costs £350.", bike)
    assert wrong.fired and wrong.verdict == "NOT_ENOUGH_INFO", wrong.detail
    # without a price, "with" names no sum: 3 + 2 rooms are not "5 rooms"
    assert not run("The flat with a garden has 5 rooms.", "The flat has 3 rooms. The garden has 2 sheds.").found


def test_one_word_naming_the_kind_stands_between_a_count_and_its_unit():
    assert [(q.value, q.unit) for q in read("25 days of leave plus 3 wellbeing days")] == [(25, "day"), (3, "day")]
    assert [(q.value, q.unit) for q in read("2 free months and 8 bank holidays")] == [(2, "month"), (8, "bank")]


def test_a_working_week_is_five_working_days_not_seven_days():
    assert [(q.value, q.unit) for q in read("two working weeks or 3 calendar weeks")] == [
        (2, "business week"), (3, "week")]
    placement = "The placement lasts ten working days in June."
    assert run("The placement lasts two working weeks.", placement).found["derived"][0]["op"] == "conversion"
    assert not run("The placement lasts 14 days.", placement).found.get("derived")


def test_a_date_is_no_quantity_and_an_event_gives_its_duration():
    assert read("on 12 March") == ()
    maintenance = "Maintenance runs from 23:00 UTC on 12 March to 01:30 UTC on 13 March."
    assert run("Maintenance lasts two and a half hours.", maintenance).found["derived"][0]["op"] == "conversion"
    flight = "The flight leaves Leeds at 07:05 and lands in Nice at 10:50."
    assert run("The flight takes 3 hours 45 minutes.", flight).found["derived"][0]["op"] == "conversion"
    # two times of day that are not one event's start and end give no duration
    assert not run("The shop is open for one hour.", "The shop opens at 9 am on weekdays and 10 am on Saturdays.").found


def test_a_start_time_plus_a_duration_gives_the_end_time():
    passage = "The webinar starts at 2 pm and runs for 90 minutes."
    found = run("The webinar finishes at 3:30 pm.", passage)
    assert not found.fired and "2 pm + 90 minutes = 15:30" in found.detail
    assert arithmetic.operand_form("The webinar finishes at 3:30 pm.", found) == \
        "The webinar finishes at 2 pm plus 90 minutes."
    # a wrong end time is not found (the numbers check caps it); a start plus a duration is no claim's
    # named operation, so it convicts nothing; nor is a time range's duration a length to add
    assert not run("The webinar finishes at 4 pm.", passage).found
    hours = run("The library closes at 19:00.", "The library is open from 9.30am to 7pm.")
    assert [d["op"] for d in hours.found["derived"]] == ["conversion"]  # 7pm, not 9.30am + 9.5 hours
    # a time that does not say when something ends is not an end time
    start = run("The webinar starts at 3:30 pm.", passage)
    assert start.fired is False and "end_time" not in str(start.found)


def test_a_share_of_a_group_is_read_as_a_percentage():
    def values(text):
        return [(round(q.value, 4), q.unit) for q in read(text)]
    assert values("Half of all tickets, a quarter of orders, two thirds of them, half the staff.") \
        == [(50.0, "%"), (25.0, "%"), (66.6667, "%"), (50.0, "%")]
    assert values("Three out of four customers renew; one in ten parcels is late; 1 in 4 users.") \
        == [(75.0, "%"), (10.0, "%"), (25.0, "%")]
    # a fraction of one thing is an amount, and a count before a year or a unit is no share
    assert values("a quarter of an hour; 5 in 2025; 2 in 3 days") \
        == [(0.25, "hour"), (5.0, ""), (2025.0, ""), (2.0, ""), (3.0, "day")]
    assert values("In the third quarter of 2025 and the second half of the year.") == [(2025.0, "")]  # periods


@pytest.mark.parametrize("claim, found", [
    ("25% of orders are sent express.", True), ("75% of customers renew each year.", True),
    ("50% of tickets are answered within 2 hours.", True), ("30% of orders are sent express.", False)])
def test_the_numbers_check_finds_a_percentage_written_as_a_share(claim, found):
    from groundwatch.scorers.guards.checks import number_check
    from groundwatch.scorers.english.quantities import passage_quantities
    passage = ("Half of all tickets are answered within 2 hours. A quarter of all orders are express. "
               "Three out of four customers renew each year.")
    check = number_check(claim, passage_quantities([passage]), arithmetic.derived_values(run(claim, passage)))
    assert check.passed is found, check
    if found:
        assert "conversion" in check.detail, check


def test_per_second_is_a_rate_and_converts():
    [q] = read("The API allows 10 requests per second.")
    assert (q.value, q.unit, q.rate) == (10.0, "request", "second")
    passage = "The API allows 600 requests per minute."
    result = run("The API allows 10 requests per second.", passage)
    assert not result.fired and result.found["derived"][0]["op"] == "conversion", result
    assert run("The API allows 20 requests per second.", passage).fired


@pytest.mark.parametrize("claim, passage, detail", [
    ("Staff may work from home three days a week.", "Employees may work remotely up to 3 days per week.",
     "derived: three days a week = 3 days per week"),
    ("Parents get 140 days of fully paid parental leave.", PARENTAL, "derived: 140 days = 20 weeks = 20 × 7 = 140 day"),
])
def test_a_derivation_says_the_claimed_words_once(claim, passage, detail):
    result = run(claim, passage)
    assert not result.fired and result.detail == detail, result.detail
