"""Polarity guard: negation of the same predicate caps a verdict; paraphrases that keep polarity do not.

The guard never imposes CONTRADICTED itself (scorers/verdicts/decide.py): when it fires, its verdict is the cap."""

import pytest

from groundwatch.scorers.guards import polarity
from groundwatch.scorers.guards.evidence import EvidenceSentence


def sentences(*texts, pid="p1"):
    out, start = [], 0
    for t in texts:
        out.append(EvidenceSentence(pid, start, start + len(t), t))
        start += len(t) + 1
    return out


def run(claim, *texts):
    ev = sentences(*texts)
    return polarity.check(claim, ev, {"p1": " ".join(texts)})


@pytest.mark.parametrize("claim, evidence", [
    ("The payments consumer retries failed requests.",
     "The payments consumer does not retry failed requests; failed requests are sent to the dead-letter queue."),
    ("Glasses and contact lenses are covered by the group health plan.",
     "Glasses and contact lenses are not covered by the group plan, but vision cover can be added."),
    ("Webhook deliveries are not signed.", "Every webhook delivery is signed with HMAC-SHA256."),
    ("SMS codes can also be used as a second factor.",
     "SMS codes are not supported as a second factor because they can be intercepted."),
    ("Visitors must sign in at the front desk.", "Visitors do not need to sign in at the front desk."),
    ("Guests can bring pets to the office.", "Guests can no longer bring pets to the office."),
    ("Cosmetic procedures are covered.", "Cosmetic procedures are excluded."),              # antonym
    ("Two-factor authentication is optional for admins.", "Two-factor authentication is mandatory for admins."),
    ("Personal devices are allowed on the guest network.", "Personal devices are forbidden on the guest network."),
    ("Public links are enabled by default.", "Public links are disabled by default."),
    ("The archive is available to contractors.", "The archive is unavailable to contractors."),  # prefix
    ("Add-ons are refundable after purchase.", "Add-ons are non-refundable after purchase."),
    ("Managers approve every expense report.", "Managers never approve expense reports themselves."),
    ("Exports include deleted projects.", "Exports include no deleted projects."),
    ("The agent collects crash reports.", "The agent stopped collecting crash reports in March."),  # implicative
    ("Late cancellations are common.", "Late cancellations are uncommon."),
])
def test_negated_predicate_fires(claim, evidence):
    result = run(claim, "The office opens at 8 am.", evidence)
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO" and result.flag == "polarity_mismatch", result
    assert result.sentence.text == evidence and result.sentence.start > 0
    assert result.found["words"]


@pytest.mark.parametrize("claim, evidence", [
    ("The change does not require a restart.", "The change needs no restart."),
    ("You don't need a credit card to start the trial.", "No credit card is required to start the trial."),
    ("Data cannot be exported without admin rights.", "Exporting data requires admin rights."),   # double negation
    ("Exporting data requires admin rights.", "Data cannot be exported without admin rights."),
    ("Deleted data can't be recovered.", "Deleted data cannot be recovered by support."),
    ("SMS codes are not supported.", "SMS codes aren't supported as a second factor."),
    ("Refunds are available within 30 days.", "Refunds are not available after 30 days."),      # scope words
    ("You can take up to 6 tablets in 24 hours.", "Do not take more than 6 tablets in 24 hours."),
    ("Unlimited integrations are not available on the Pro plan.",
     "Unlimited integrations are only available on the Enterprise plan."),
    ("Customers lose access to their data after 30 days.",
     "Customers who do not renew lose access to their data after 30 days."),                   # relative clause
    ("Investments are protected by the investor compensation scheme.",
     "Investments are not covered by the deposit guarantee scheme."),                           # different thing
    ("Not only admins but also members can create projects.", "Members can create projects."),
    ("Payments are due no later than the 5th of the month.", "Payments are due by the 5th of the month."),
    ("Neither SMS nor email codes are accepted.", "SMS codes are not accepted, and email codes are not accepted."),
    ("It is not unusual for the queue to grow during the Monday import.",                       # litotes
     "The queue usually grows during the Monday import."),
    ("When tracking is off, the app stops recording locations.", "When tracking is off, the app does not record "
     "locations."),
])
def test_same_polarity_or_different_scope_does_not_fire(claim, evidence):
    result = run(claim, evidence)
    assert not result.fired, result


def test_weaker_alignment_gives_not_enough_info():
    result = run("Members can bring guests and children to the demo and the summer party.",
                 "Members cannot bring guests to the Friday demo in the London office.")
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO"


def test_a_denial_the_claim_wholly_contains_fires_whatever_the_claim_adds():
    result = run("Members can bring guests and children to the Friday demo and the summer party.",
                 "Members cannot bring guests to the Friday demo.")
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO"
    result = run("Cash advances are allowed on the travel card during business trips.",
                 "Cash advances on the travel card are not allowed.")
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO"


@pytest.mark.parametrize("claim, evidence", [
    ("Legacy API keys still work for the v1 endpoints.",
     "Legacy API keys for the v1 endpoints were revoked last year."),
    ("Members get access to the webinar recording library.",
     "The webinar recording library for members ended in 2025."),
    ("New starters can join the cycle loan scheme.", "The cycle loan scheme closed to new starters in 2024."),
    ("Telemetry upload is on by default.", "Telemetry upload is switched off by default."),
    ("The Oslo office is open to visitors on Saturdays.", "The Oslo office is closed to visitors on Saturdays."),
    ("Port 8080 is open on the staging firewall.", "Port 8080 is blocked on the staging firewall."),
    ("Refund requests are processed manually.", "Refund requests are processed automatically."),
    ("Old invoices are kept in the archive.", "Old invoices are deleted from the archive."),
    ("Leave taken during probation is paid.", "Leave taken during probation is unpaid."),       # prefix, lemma of base
    ("Retention charts use unsampled events.", "Retention charts use sampled events."),
    ("Support tickets are answered over the phone.", "Support tickets are not answered by phone."),  # "over" no bound
    ("Damage caused by improper storage is covered by the warranty.",                          # same prefixed word
     "Damage caused by improper storage is not covered by the warranty."),
    ("Library members can borrow e-books from Westbury College.",                                   # a date says when
     "The library ended its e-book lending with Westbury College on 3 May 2025."),
    ("Tenants can still use the 2G alarm line.",                                 # another main clause's scope
     "The landlord discontinued the 2G alarm line in 2024; alarms that only use 2G now stay silent."),
])
def test_endings_antonyms_and_prefixes_fire(claim, evidence):
    result = run(claim, evidence)
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO", result


@pytest.mark.parametrize("claim, evidence", [
    ("Version 3 is deprecated and will be switched off in June.", "Version 3 will stop working in June."),
    ("You can drop add-ons at the next renewal.", "Add-ons can be removed at the next renewal."),      # an option
    ("Files are kept in the bin for 30 days.", "Files deleted by mistake are kept in the bin for 30 days."),
    ("Exports include deleted projects.", "Exports include deleted projects and archived projects."),
    ("Gift cards are never acceptable, not even low-value ones.", "Gift cards are never acceptable."),
    ("The starter kit is not sold any more.", "The starter kit was discontinued and is no longer sold."),
    ("Aggregated metrics are never deleted on any plan.", "Aggregated metrics are kept on every plan."),
    ("Automatic backups cannot be switched off.", "Automatic backups are always switched on."),
    ("Automatic backups cannot be disabled.", "Automatic backups are always enabled."),
    ("The REST API allows 600 requests per minute on paid plans and 60 during a free trial.",     # "free trial"
     "Paid plans are limited to 600 requests per minute."),
    ("The days the office is closed over Christmas don't count against your leave.",            # "closed" ~ "closes"
     "The office closes between Christmas Day and New Year's Day, and these days are not deducted from your leave."),
    ("Unarranged overdrafts carry no fee.", "There is no fee for an unarranged overdraft."),
    ("SEV3 incidents don't require a status page update.",                                          # other conjunct
     "A status page update is required for SEV1 and SEV2 incidents and optional for SEV3."),
    ("Deleted photos stay in the bin for 30 days before they are permanently removed.",         # both say "remove"
     "The app keeps deleted photos in the bin for 30 days before removing them permanently."),
    ("The new trailer for Jurassic World came out on Monday morning.",                # negates another conjunct
     "Not to be outdone, the new trailer for Jurassic World came out on Monday morning."),
    ("The Harbour Street shop opens at 9 am.", "The Harbour Street shop opens at 9 am, but not on Sundays."),
    ("Grealish will be in Villa's squad for Saturday's game.",             # shares only the negated one's subject
     "Grealish has not been fined by the club and will be in Villa's squad for Saturday's game."),
    ("Pulis will not repeat his mistake.", "Pulis assured Sherwood he will not repeat his mistake."),  # told, not relative
])
def test_agreeing_endings_and_double_negations_do_not_fire(claim, evidence):
    result = run(claim, evidence)
    assert not result.fired, result


@pytest.mark.parametrize("claim, evidence", [
    ("Reports can be shared to Slack channels.",                                   # the gone thing, not its verb
     "Slack sharing for reports is no longer offered, following the end of the Slack app in May 2026."),
    ("Nightly builds run on the Bamboo server.", "Bamboo is no longer used for nightly builds."),
    ("On the Gateway 2, remote access is switched off by default.",                 # a name the verb governs
     "The Gateway 2 supports Wi-Fi 7, has two USB ports and has remote access enabled by default."),
])
def test_what_is_no_longer_there_and_names_outside_the_subject_fire(claim, evidence):
    result = run(claim, evidence)
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO", result


@pytest.mark.parametrize("claim", ["Grealish has been fined by the club.", "Pulis will repeat his mistake."])
def test_the_negated_conjunct_and_the_told_clause_still_count(claim):
    evidence = ("Grealish has not been fined by the club and will be in Villa's squad for Saturday's game."
                if claim.startswith("Grealish") else "Pulis assured Sherwood he will not repeat his mistake.")
    assert run(claim, evidence).fired


def test_names_only_the_evidence_subject_has_make_it_narrower():
    result = run("Visitors must sign in at the front desk.",
                 "Visitors to the Berlin office do not need to sign in at the front desk.")
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO"


def test_a_tie_with_an_agreeing_sentence_stays_silent():
    result = run("Refunds are available for subscriptions.",
                 "Refunds are not available for add-ons.", "Refunds are available for subscriptions and seats.")
    assert not result.fired


def test_contradicts_is_symmetric_for_passage_pairs():
    a, b = "Visitors must sign in at the front desk.", "Visitors do not need to sign in at the front desk."
    assert polarity.contradicts(a, b) and polarity.contradicts(b, a)
    assert polarity.contradicts(a, "Visitors sign in at the front desk with their badge.") is None


@pytest.mark.parametrize("claim, evidence, fires", [
    # an ending given its time says when, on a schedule: it agrees with the hours of the positive state
    ("The Dock Street pool closes at 21:00 on weekdays.", "The Dock Street pool is open from 06:30 to 21:00 on weekdays.",
     False),
    ("Guest wifi passes stop working after 48 hours.", "Guest wifi passes are valid for 48 hours.", False),
    ("The ticket office shuts at 6 pm.", "The ticket office is open until 18:00.", False),
    # an ending that happened, or a closed state, still denies the positive one
    ("The Dock Street pool closed in 2023.", "The Dock Street pool is open from 06:30 to 21:00 on weekdays.", True),
    ("The ticket office is closed on Sundays.", "The ticket office is open on Sundays from 10:00 to 16:00.", True),
])
def test_an_ending_given_its_time_negates_nothing(claim, evidence, fires):
    assert run(claim, evidence).fired is fires


def test_a_word_of_a_name_is_not_the_predicate_its_antonym_flips():
    bond = "The rate on the Harlow Fixed Bond is fixed for the whole two-year term."
    assert not run("The rate on the Harlow Fixed Bond is not variable during the term.", bond).fired
    assert run("The rate on the Harlow Fixed Bond is variable during the term.", bond).fired


@pytest.mark.parametrize("claim, evidence", [
    ("Eating is not permitted in the Reading Room at the library.",
     "The Reading Room on the first floor of the library is a silent study space with 60 desks."),
    ("A founder member is not moved off the founder rate while the membership stays active.",
     "Founder members retain the founder rate for as long as their membership stays active."),
    ("Drivers never skip the photo when they leave a parcel in a safe place.",
     "Drivers always take a photo when they leave a parcel in a safe place."),
])
def test_a_claim_negating_a_word_the_evidence_does_not_use_leaves_it_to_the_model(claim, evidence):
    """The two share a subject, not the predicate the claim negates: no polarity difference to read."""
    result = run(claim, evidence)
    assert not result.fired and "does not state" in result.detail, result


@pytest.mark.parametrize("claim, evidence", [
    ("Eating is not permitted in the Reading Room.", "Eating is permitted in the Reading Room."),
    ("The gym does not open on Sundays.", "The gym opens on Sundays from 9 am."),
    ("Visitors do not need to sign in at the front desk.", "Visitors must sign in at the front desk."),
    ("Members are not able to freeze their membership.", "Members can freeze their membership for 3 months."),
    ("Refunds are never available for add-ons.", "Refunds are available for add-ons bought online."),
])
def test_a_claim_negating_the_word_the_evidence_states_still_fires(claim, evidence):
    result = run(claim, evidence)
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO", result


@pytest.mark.parametrize("claim", [
    "Without access to the registered email, you cannot reset your password.",
    "Without the registered email you can't reset a password.",
    "You cannot reset your password without access to the registered email.",
])
def test_a_fronted_without_phrase_and_the_main_clause_negate_once_each(claim):
    # "without ... cannot" is even: it says what "requires" says
    assert not run(claim, "Password resets require access to the registered email address.").fired


def test_a_fronted_phrase_is_no_noun_a_relative_clause_modifies():
    from groundwatch.scorers.english.clauses import clauses_of
    [clause] = clauses_of("With a valid ticket you don't need to queue.")
    assert [clause.tokens[i].text for i in clause.negators] == ["n't"]
    assert run("With a valid ticket you need to queue.", "Ticket holders don't need to queue.").fired
