import pytest

from groundwatch.scorers.answer.yes_no import answered_statement


@pytest.mark.parametrize("question, answer, statement", [
    ("Can I go fully remote if my manager is OK with it?", "Yes.",
     "You can go fully remote if your manager is OK with it."),
    ("Can I still get a refund? I bought the subscription 45 days ago.", "Yes.",
     "If you bought the subscription 45 days ago, you can still get a refund."),
    ("I bought it 45 days ago. Can I still get a refund?", "No.",
     "If you bought it 45 days ago, you cannot still get a refund."),
    ("Can I still get a refund?", "Yes.", "You can still get a refund."),
    ("Acme charged me twice. Will I get the money back?", "Yes.",
     "If Acme charged you twice, you will get the money back."),
    ("Do we need a receipt for taxis?", "No", "You do not need a receipt for taxis."),
    ("Am I eligible for the stipend?", "Correct.", "You are eligible for the stipend."),
    ("Is there a fee for SEPA transfers?", "Yes!", "There is a fee for SEPA transfers."),
    ("Will it delete my data after 30 days?", "Yes.", "It will delete your data after 30 days."),
])
def test_a_bare_answer_states_the_question(question, answer, statement):
    assert answered_statement(question, answer) == statement


@pytest.mark.parametrize("question, answer", [
    (None, "Yes."),
    ("How long are refunds available?", "Yes."),     # not a yes/no question
    ("Can you refund me?", "Yes."),                  # asks the assistant to act
    ("Does the Team plan include SSO?", "Yes."),     # noun-phrase subject: not turned round
    ("Can I get a refund?", "Refunds take 30 days."),  # not a bare answer
    ("Can I get a refund?", "Thanks!"),
])
def test_no_statement(question, answer):
    assert answered_statement(question, answer) is None
