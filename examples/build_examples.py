"""Build the sample traffic in examples/: responses.jsonl, expected.jsonl, bad_responses.jsonl.

Deterministic: the same script always writes the same bytes. Run from the repository root:

    python examples/build_examples.py          # write the three files
    python examples/build_examples.py --show   # also print each answer's claims next to its expectations

The knowledge base (KB) below is a handful of made-up help-center / HR / API-docs / leaflet / finance
FAQ chunks; every case picks its passages from it, in retriever order. Citation spans are computed
here from the cited sentence, never typed by hand.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCHEMA = "groundwatch.response.v1"

# --------------------------------------------------------------------------------------------------
# Tenants: which app logs the traffic, and how its retriever names passages.
# id_style: "p" -> p1, p2, ... by position; "kb" -> the chunk's stable KB id; "int" -> 1, 2, ... (JSON ints)
# gold: the tenant runs an annotation programme, so its logged responses carry gold_passage_ids
# --------------------------------------------------------------------------------------------------

TENANTS = {
    "acme": dict(app="helpdesk-bot", tenant="acme-cloud", model="gpt-4o-mini-2024-07-18",
                 retriever="hybrid-bm25-e5-base@2026-10", id_style="p", gold=True),
    "northwind": dict(app="hr-assistant", tenant="northwind-people", model="llama-3.1-70b-instruct",
                      retriever="opensearch-knn-bge-m3", id_style="kb", gold=True),
    "acmedev": dict(app="dev-docs-qa", tenant="acme-developers", model="qwen2.5-32b-instruct",
                    retriever="hybrid-bm25-e5-base@2026-10", id_style="p"),
    "medline": dict(app="care-line", tenant="medline-eu", model="mistral-small-2501",
                    retriever="elastic-bm25+rerank", id_style="int"),
    "ledgerly": dict(app="finance-faq", tenant="ledgerly", model="gpt-4o-mini-2024-07-18",
                     retriever="pgvector-e5-large", id_style="kb"),
}

# --------------------------------------------------------------------------------------------------
# Knowledge base: key -> (kb_id, doc_id, title, updated_at, text)
# --------------------------------------------------------------------------------------------------


def _kb(kb_id, doc_id, title, updated_at, text):
    return dict(kb_id=kb_id, doc_id=doc_id, title=title, updated_at=updated_at, text=" ".join(text.split()))


KB = {
    # ---- Acme Cloud help center -------------------------------------------------------------------
    "acme/refund": _kb("kb-acme-0101", "acme-billing-refunds", "Refund policy", "2025-03-01", """
        Acme Cloud subscriptions can be refunded within 30 days of the original purchase date.
        To request a refund, open Billing > Invoices, select the invoice and choose Request refund.
        Enterprise customers may extend the refund window to 60 days, but only with written approval
        from their account manager. Approved refunds are returned to the original payment method within
        5 to 10 business days. Add-ons such as extra storage are not refundable once they have been
        provisioned."""),
    "acme/refund_2024": _kb("kb-acme-0087", "acme-billing-refunds-2024", "Refund policy (archived)", "2024-02-12", """
        This version of the refund policy was superseded on 1 March 2025 and is kept for reference only.
        Acme Cloud subscriptions could be refunded within 14 days of purchase. Refunds were processed
        manually by the billing team and could take up to 30 days to appear on your statement."""),
    "acme/pricing": _kb("kb-acme-0110", "acme-pricing", "Plans and pricing", "2026-09-15", """
        The Team plan costs $12 per user per month billed annually, or $15 per user per month billed
        monthly. The Pro plan costs $29 per user per month billed annually. Enterprise pricing is quoted
        individually and requires a minimum of 50 seats. All paid plans start with a 14-day free trial,
        and no credit card is required to start it."""),
    "acme/pro": _kb("kb-acme-0112", "acme-plan-pro", "What's included in Pro", "2026-08-02", """
        The Pro plan includes SSO, audit logs retained for 90 days and priority email support. Pro
        workspaces can connect up to 20 third-party integrations. Unlimited integrations are only
        available on the Enterprise plan."""),
    "acme/sso": _kb("kb-acme-0230", "acme-security-sso", "Single sign-on (SSO)", "2026-06-20", """
        SSO is available to teams of 10 or more seats. Acme Cloud supports SAML 2.0 and OpenID Connect
        identity providers, including Okta, Microsoft Entra ID (formerly Azure AD) and Google Workspace.
        SSO is configured by a workspace owner under Settings > Security. Once SSO is enforced, members
        sign in through the identity provider and can no longer use a password."""),
    "acme/retention": _kb("kb-acme-0301", "acme-data-retention", "What happens to your data when you cancel",
                          "2026-05-11", """
        When a subscription is cancelled, the workspace is switched to read-only mode and its data is
        kept for 30 days. After those 30 days, all workspace data is permanently deleted and cannot be
        recovered. Workspace owners can export all data at any time from Settings > Export. Backups are
        kept for a further 7 days for disaster recovery only and cannot be restored at a customer's
        request."""),
    "acme/sla": _kb("kb-acme-0140", "acme-sla", "Service level agreement", "2026-01-20", """
        Acme Cloud commits to 99.9% monthly uptime on the Pro plan and 99.95% on the Enterprise plan.
        If uptime in a month falls below the commitment, the customer receives a service credit of 10%
        of that month's fee for each 0.1 percentage point below target, up to a maximum of 50%. Credits
        must be requested within 30 days of the end of the affected month. The SLA does not apply to the
        Team plan or to free trials."""),
    "acme/support": _kb("kb-acme-0150", "acme-support", "Support hours and channels", "2026-07-07", """
        Standard support is available Monday to Friday, 08:00 to 18:00 CET, by email and chat. Pro
        customers receive priority email support with a first response within 8 business hours.
        Enterprise customers can open phone cases 24/7 for Severity 1 incidents."""),
    "acme/password": _kb("kb-acme-0205", "acme-account-password", "Resetting your password", "2026-03-30", """
        To reset your password, select Forgot password? on the sign-in page and enter your work email
        address. We will send a reset link that is valid for 60 minutes. If your workspace uses SSO, your
        password is managed by your identity provider and cannot be reset in Acme Cloud."""),
    "acme/2fa": _kb("kb-acme-0231", "acme-security-2fa", "Two-factor authentication", "2026-06-20", """
        Workspace owners can require two-factor authentication for all members under Settings >
        Security. Supported second factors are authenticator apps and hardware security keys
        (FIDO2/WebAuthn). SMS codes are not supported as a second factor because they can be
        intercepted."""),
    "acme/storage": _kb("kb-acme-0160", "acme-storage", "Storage limits and add-ons", "2026-04-18", """
        Each Pro seat includes 100 GB of storage, pooled across the whole workspace. Additional storage
        can be purchased in blocks of 1 TB for $20 per month. Storage add-ons renew with your
        subscription and can be removed at the next renewal date."""),
    "acme/tos": _kb("kb-acme-0900", "acme-terms", "Terms of Service, section 9: Subscriptions", "2025-11-01", """
        9.1 Subscriptions are sold per seat and are billed in advance for the selected billing period.
        9.2 The customer is responsible for all activity carried out under its accounts, including
        activity by contractors it has invited. 9.3 Seats may be added at any time and are charged pro
        rata for the remainder of the billing period. 9.4 Seats may be removed only at the end of a
        billing period. 9.5 Prices are exclusive of VAT and other applicable taxes, which are added to
        each invoice. 9.6 Acme may change its prices with at least 60 days' notice before the next
        renewal. 9.7 Invoices are payable within 30 days of the invoice date unless the order form says
        otherwise. 9.8 Late payments may incur interest at 1% per month. 9.9 Acme may suspend a workspace
        if an invoice remains unpaid 15 days after a written reminder. 9.10 A subscription may be
        transferred to another legal entity only with Acme's prior written consent, requested through
        the billing portal. 9.11 Subscriptions renew automatically for the same period unless cancelled
        before the renewal date. 9.12 Downgrades take effect at the next renewal. 9.13 Unused seats are
        not credited when a subscription renews."""),

    # ---- Northwind HR policies --------------------------------------------------------------------
    "hr/pto": _kb("hb-leave-03", "nw-hb-leave", "Paid time off", "2026-01-05", """
        Full-time employees accrue 25 days of paid time off per calendar year. Up to 5 unused days can
        be carried over into the next year, and carried-over days expire on March 31. Part-time
        employees accrue paid time off pro rata to their contracted hours. Requests for absences longer
        than three days must be submitted in Workday at least two weeks in advance."""),
    "hr/parental": _kb("hb-parental-01", "nw-hb-parental", "Parental leave policy", "2026-01-01", """
        From 1 January 2026, Northwind offers 20 weeks of fully paid parental leave to every parent,
        regardless of gender, once they have completed 6 months of continuous employment. The leave can
        be taken in up to three blocks within 12 months of the birth or adoption. Employees with less
        than 6 months of service receive the statutory minimum."""),
    "hr/parental_2023": _kb("hb-parental-2023-01", "nw-hb-parental-2023", "Parental leave policy (2023)",
                            "2023-01-01", """
        Northwind offers 12 weeks of paid parental leave to primary caregivers and 4 weeks of paid leave
        to secondary caregivers. This policy applies to births and adoptions on or after 1 January 2023.
        Leave must be taken in a single continuous block."""),
    "hr/remote": _kb("hb-remote-02", "nw-hb-remote", "Remote and hybrid work", "2025-09-01", """
        Employees may work remotely up to 3 days per week with their manager's approval. Fully remote
        arrangements require approval from both the department head and HR. Working from another country
        for more than 30 days in a calendar year requires prior approval from the Global Mobility team,
        because of tax and immigration rules."""),
    "hr/expenses": _kb("fin-expenses-04", "nw-fin-expenses", "Expense policy", "2026-02-14", """
        Business expenses must be submitted in Concur within 60 days of the purchase date. An itemised
        receipt is required for every expense over €25. Meals during business travel are reimbursed up
        to €60 per day. Alcohol is never reimbursable."""),
    "hr/stipend": _kb("hb-equipment-01", "nw-hb-equipment", "Home office equipment", "2025-06-30", """
        New employees receive a one-time home office stipend of €500 for equipment such as a desk, chair
        or monitor. The stipend is paid with the first salary and is not available to contractors.
        Laptops and phones are provided by IT and must not be bought with the stipend."""),
    "hr/hiring": _kb("ta-offers-02", "nw-ta-offers", "Making an offer", "2026-03-03", """
        Hiring managers must approve the final offer in Workday before HR sends it to the candidate.
        Offers above the salary band need additional approval from the HR Business Partner. Background
        checks start only after the candidate has accepted the offer."""),
    "hr/health": _kb("ben-health-01", "nw-ben-health", "Group health plan", "2026-01-01", """
        Northwind's group health plan covers employees and their registered dependents from the first
        day of employment. Dental care is covered up to €1,500 per person per year. Glasses and contact
        lenses are not covered by the group plan, but vision cover can be added as an optional paid
        supplement. Cosmetic procedures are excluded."""),
    "hr/dependents": _kb("ben-dependents-01", "nw-ben-dependents", "Registering dependents", "2025-11-20", """
        Registered partners and children under 25 can be added as dependents in Workday under Benefits >
        Dependents. A birth or marriage certificate must be uploaded within 30 days of adding a
        dependent."""),
    "hr/probation": _kb("hb-probation-01", "nw-hb-probation", "Probation and notice periods", "2024-10-01", """
        The probationary period is six months for all new employees. During probation, either party may
        end the contract with two weeks' notice. After probation, the notice period is one month during
        the first two years of service and two months after that."""),
    "hr/conduct": _kb("hb-conduct-01", "nw-hb-conduct", "Code of conduct", "2025-12-01", """
        Northwind expects every employee to act with honesty and respect. Discrimination or harassment of
        any kind is not tolerated and should be reported to HR or through the anonymous ethics hotline.
        Employees must avoid situations where personal interests conflict with those of the company. Any
        potential conflict of interest must be disclosed to your manager in writing. Outside employment
        is allowed only if it does not compete with Northwind and is declared in advance. Company
        equipment may be used for limited personal purposes as long as this does not interfere with
        work. Confidential information must not be shared outside the company, even after employment
        ends. Employees may not trade in shares of suppliers or customers on the basis of information
        obtained at work. Gifts and hospitality from suppliers valued above €50 must be declared in the
        gifts register within 5 working days. Cash gifts must always be refused, whatever the amount.
        Breaches of this code may lead to disciplinary action, up to and including dismissal. Questions
        about the code can be sent to the compliance team at any time."""),

    # ---- Acme developer docs ----------------------------------------------------------------------
    "dev/rate": _kb("dev-0410", "dev-rate-limits", "Rate limits", "2026-07-01", """
        The REST API allows 600 requests per minute per API key on paid plans and 60 requests per minute
        during a free trial. Requests over the limit receive HTTP 429 with a Retry-After header that
        gives the number of seconds to wait. Limits are applied per API key, not per IP address."""),
    "dev/rate_2024": _kb("dev-0199", "dev-rate-limits@2024", "Rate limits (2024 docs)", "2024-05-10", """
        The REST API allows 300 requests per minute per API key. Requests over the limit receive HTTP
        429. Bursts of up to 50 requests per second are tolerated for short periods."""),
    "dev/auth": _kb("dev-0101", "dev-auth", "Authentication", "2026-02-02", """
        All API requests must be authenticated with a bearer token sent in the Authorization header.
        Personal access tokens expire after 90 days. Service account tokens do not expire, but they can
        be revoked at any time from the admin console. Tokens are shown only once, when they are
        created."""),
    "dev/pagination": _kb("dev-0220", "dev-pagination", "Pagination", "2025-08-19", """
        List endpoints return at most 100 items per page, and the page_size parameter defaults to 25. To
        fetch the next page, pass the value of next_cursor from the previous response as the cursor
        parameter. Offset-based pagination is not supported."""),
    "dev/webhooks": _kb("dev-0330", "dev-webhooks", "Webhooks", "2026-05-27", """
        Every webhook delivery is signed with HMAC-SHA256 using the endpoint's signing secret, and the
        signature is sent in the X-Acme-Signature header. Your endpoint must respond with a 2xx status
        within 10 seconds, or the delivery is treated as failed. Failed deliveries are retried up to 8
        times with exponential backoff over roughly 24 hours."""),
    "dev/versions": _kb("dev-0050", "dev-versioning", "API versions", "2026-09-09", """
        API version 2024-06-01 is the current stable version. Version 2023-01-15 is deprecated and will
        stop working on 2026-12-31. Requests without an Acme-Version header are served with the version
        pinned to the API key."""),
    "dev/sdks": _kb("dev-0060", "dev-sdks", "Client libraries", "2026-04-04", """
        Official SDKs are available for Python, JavaScript/TypeScript and Go. The Python SDK requires
        Python 3.9 or later. Community-maintained SDKs exist for Ruby and PHP, but they are not supported
        by Acme."""),
    "dev/errors": _kb("dev-0500", "dev-errors", "Error codes", "2026-08-12", """
        Every error response contains a machine-readable code and a human-readable message. Error code
        E1001 means the bearer token is missing or malformed. E1002 means the token has expired or has
        been revoked. E1003 is returned when the token is valid but lacks the scope required by the
        endpoint. E1010 indicates that the requested resource does not exist or is not visible to the
        caller. E1020 is returned when a request body fails schema validation; the details array lists
        each invalid field. E1030 means the workspace has reached a plan limit, such as the number of
        integrations. E1040 signals a conflicting update: the resource was modified after the version you
        sent in If-Match. E1042 means the idempotency key was reused with a different request body. E1050
        is returned while the workspace is suspended for non-payment. E1099 is an internal error;
        retrying with backoff is safe. Include the request_id from the response headers when contacting
        support about any error."""),

    # ---- Medicine leaflets (care-line) ------------------------------------------------------------
    "med/ibu_dose": _kb("lf-ibu200-3", "leaflet-ibuprofen-200", "Ibuprofen 200 mg tablets: how to take",
                        "2025-10-14", """
        Adults and children over 12 years: take one or two 200 mg tablets every 4 to 6 hours as needed.
        Do not take more than 6 tablets (1,200 mg) in 24 hours. Take the tablets with or after food, with
        a glass of water. Do not give to children under 12 years."""),
    "med/ibu_warn": _kb("lf-ibu200-2", "leaflet-ibuprofen-200", "Ibuprofen 200 mg tablets: do not take if",
                        "2025-10-14", """
        Do not take this medicine if you are in the last three months of pregnancy. Talk to your doctor
        or pharmacist before taking it in the first six months of pregnancy. Do not take it if you have
        ever had a stomach ulcer or bleeding."""),
    "med/ibu_side": _kb("lf-ibu200-4", "leaflet-ibuprofen-200", "Ibuprofen 200 mg tablets: possible side effects",
                        "2025-10-14", """
        Common side effects, which may affect up to 1 in 10 people, include heartburn, nausea and stomach
        pain. Stop taking the medicine and get medical help at once if you pass black tarry stools or
        vomit blood. Rarely, ibuprofen can cause skin reactions or make asthma worse."""),
    "med/ibu_store": _kb("lf-ibu200-5", "leaflet-ibuprofen-200", "Ibuprofen 200 mg tablets: how to store",
                         "2025-10-14", """
        Store below 25 °C in the original package to protect from moisture. Do not use this medicine
        after the expiry date printed on the carton after EXP. The expiry date refers to the last day of
        that month."""),
    "med/para_dose": _kb("lf-para500-3", "leaflet-paracetamol-500", "Paracetamol 500 mg tablets: how to take",
                         "2025-07-02", """
        Adults and children aged 16 and over: take one or two 500 mg tablets every 4 to 6 hours as
        needed. Do not take more than 8 tablets (4 g) in 24 hours. Do not take with any other medicine
        that contains paracetamol, including cold and flu remedies."""),
    "med/lorat": _kb("lf-lor10-1", "leaflet-loratadine-10", "Loratadine 10 mg tablets", "2026-02-21", """
        Loratadine relieves the symptoms of hay fever and other allergies, such as sneezing, a runny nose
        and itchy eyes. Adults and children over 12 years: take one 10 mg tablet once a day. Loratadine
        does not usually cause drowsiness. Do not take more than one tablet in 24 hours."""),

    # ---- Ledgerly finance FAQ ---------------------------------------------------------------------
    "led/cards": _kb("c-4410", "ledgerly-faq-cards", "Card fees", "2026-06-01", """
        Ledgerly Business cards have no annual fee. Card payments in a currency other than euro carry a
        foreign transaction fee of 1.5% of the amount. ATM withdrawals are free up to €200 per calendar
        month; after that, each withdrawal costs 2% of the amount."""),
    "led/transfers": _kb("c-4420", "ledgerly-faq-transfers", "Transfers and fees", "2026-06-01", """
        SEPA transfers are free and usually arrive within one business day. SEPA Instant transfers arrive
        within 10 seconds and cost €0.50 each. International SWIFT transfers cost €15 per transfer, plus
        any fees charged by correspondent banks."""),
    "led/savings": _kb("c-5102", "ledgerly-faq-savings", "Savings pots", "2026-10-01", """
        Savings pots earn 2.1% AER variable interest, paid monthly. The rate was reduced from 2.5% on
        1 October 2026. Interest is calculated daily on balances up to €100,000."""),
    "led/savings_launch": _kb("c-3307", "ledgerly-blog-savings-launch", "Introducing Savings pots", "2026-04-12", """
        Savings pots are here! Put money aside in up to 10 separate pots and earn 2.5% AER variable
        interest, paid monthly. There are no fees, and you can withdraw at any time."""),
    "led/closure": _kb("c-4601", "ledgerly-faq-account", "Closing your account", "2026-03-15", """
        You can close your account in the app under Profile > Close account. Before closing, the balance
        must be zero and all cards must be cancelled. Statements remain available to download for 6
        years after the account is closed."""),
    "led/protection": _kb("c-4700", "ledgerly-faq-protection", "How your money is protected", "2026-01-10", """
        Eligible deposits are protected up to €100,000 per depositor by the national deposit guarantee
        scheme. Investments held through Ledgerly Invest are not covered by the deposit guarantee
        scheme. Instead, they are protected by the investor compensation scheme up to €20,000."""),
    "led/disputes": _kb("c-4802", "ledgerly-faq-disputes", "Disputing a card payment", "2026-05-05", """
        Card disputes must be raised within 120 days of the transaction date. While a dispute is
        investigated, Ledgerly issues a temporary credit within 10 business days. If the dispute is
        decided against you, the temporary credit is reversed."""),
    "led/tax": _kb("c-4905", "ledgerly-faq-tax", "Tax statements", "2025-12-01", """
        Annual tax statements for the previous tax year are available in the app by 31 January.
        Statements can be downloaded as PDF or CSV from Documents > Tax."""),
}

# --------------------------------------------------------------------------------------------------
# Cases, in traffic order (ex-001, ex-002, ...).
#   passages: KB keys in retriever order.  cite: [(KB key or literal passage id, cited sentence)].
#   expect:   [(distinctive substring of one claim, expected verdict[, note])].
#   S = SUPPORTED, C = CONTRADICTED, N = NOT_ENOUGH_INFO, X = NOT_SUPPORTED (C or N), K = SKIPPED
# --------------------------------------------------------------------------------------------------

S, C, N, X, K = "SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "NOT_SUPPORTED", "SKIPPED"

CASES = [
    # ex-001
    dict(case="supported_paraphrase", tenant="acme",
         question="How long do I have to ask for a refund on my Acme Cloud subscription?",
         answer="You have 30 days from when you first bought the subscription to request a refund. "
                "Approved refunds go back to the payment method you used and usually take 5 to 10 business "
                "days to arrive.",
         passages=["acme/refund", "acme/retention", "acme/pricing", "acme/storage"], gold=["acme/refund"],
         expect=[("30 days from when", S), ("5 to 10 business days", S)]),
    # ex-002
    dict(case="negation", tenant="northwind",
         question="Does our health insurance cover glasses?",
         answer="Yes, glasses and contact lenses are covered by the Northwind group health plan. Dental care "
                "is also covered, up to €1,500 per person each year.",
         passages=["hr/health", "hr/dependents", "hr/stipend"], gold=["hr/health"],
         expect=[("glasses and contact lenses", C, "passage: glasses and contact lenses are NOT covered"),
                 ("Dental care", S)]),
    # ex-003  THE refund example (README: `groundwatch explain ex-003`)
    dict(case="refund_condition_dropped", tenant="acme",
         question="What's the refund window for Acme Cloud?",
         answer="Refunds are available for up to 60 days.",
         passages=["acme/refund", "acme/pricing", "acme/storage"], gold=["acme/refund"],
         expect=[("60 days", X, "policy: 30 days; 60 only for Enterprise with account-manager approval")]),
    # ex-004
    dict(case="wrong_number", tenant="acme",
         question="How much is the Pro plan per user?",
         answer="The Pro plan costs $39 per user per month when billed annually. Every paid plan starts with a "
                "14-day free trial, and you don't need a credit card to start it.",
         passages=["acme/pricing", "acme/pro", "acme/storage"], gold=["acme/pricing"],
         expect=[("$39", C, "price is $29"), ("14-day free trial", S), ("credit card", S)]),
    # ex-005
    dict(case="decorative", tenant="acme",
         question="I forgot my password, how do I reset it?",
         answer="Great question! To reset your password, click Forgot password? on the sign-in page and type in "
                "your work email. The reset link you get stays valid for 60 minutes. Hope this helps!",
         passages=["acme/password", "acme/sso", "acme/2fa"], gold=["acme/password"],
         expect=[("Great question", K), ("click Forgot password", S),
                 ("type in your work email", S, "fragment: the UI label's '?' ends the sentence"),
                 ("60 minutes", S), ("Hope this helps", K)]),
    # ex-006
    dict(case="split_support", tenant="acme",
         question="Do we get SSO on the Pro plan?",
         answer="Yes, the Pro plan includes SSO for teams of 10 or more seats.",
         passages=["acme/pro", "acme/sso"], gold=["acme/pro", "acme/sso"],
         expect=[("SSO for teams of 10", S, "needs p1 (Pro includes SSO) + p2 (SSO for 10+ seats)")]),
    # ex-007
    dict(case="fabricated_quote", tenant="northwind",
         question="Can I go fully remote if my manager is OK with it?",
         answer="Yes. The remote work policy says \"fully remote arrangements only need your manager's "
                "approval\", so your manager's sign-off is enough.",
         passages=["hr/remote", "hr/stipend", "hr/pto"], gold=["hr/remote"],
         expect=[("You can go fully remote", X,
                  "a bare 'Yes.' to the question, checked as the statement it makes; wrong: department head and HR "
                  "must approve"),
                 ("fully remote arrangements only need", X, "quote appears in no passage"),
                 ("sign-off is enough", X, "policy: department head and HR approval")]),
    # ex-008
    dict(case="citation_correct", tenant="acmedev",
         question="What are the API rate limits?",
         answer="On paid plans you can make 600 requests per minute per API key [p1]. Free trials are limited to "
                "60 requests per minute [p1]. If you go over the limit, the API answers with HTTP 429 and a "
                "Retry-After header telling you how many seconds to wait [p1].",
         passages=["dev/rate", "dev/auth", "dev/pagination", "dev/webhooks", "dev/errors"], gold=["dev/rate"],
         expect=[("600 requests", S), ("Free trials", S), ("HTTP 429", S)]),
    # ex-009
    dict(case="context_conflict", tenant="acme", context_conflict=True,
         question="How many days do I have to get a refund?",
         answer="You have 14 days from the date of purchase to request a refund. Refunds are handled manually "
                "by the billing team.",
         passages=["acme/refund_2024", "acme/refund", "acme/pricing"], gold=["acme/refund"],
         expect=[("14 days", X, "follows the archived policy (superseded 1 March 2025); current: 30 days"),
                 ("handled manually", X, "only the superseded policy says so")]),
    # ex-010
    dict(case="unsupported", tenant="acme",
         question="What support do Pro customers get?",
         answer="Pro customers get priority email support, with a first response within 8 business hours. "
                "They also get a dedicated Slack channel with the support team.",
         passages=["acme/support", "acme/pro", "acme/sla", "acme/2fa"], gold=["acme/support"],
         expect=[("8 business hours", S), ("Slack channel", N, "no passage mentions Slack")]),
    # ex-011
    dict(case="supported_paraphrase", tenant="northwind",
         question="How many days a week can I work from home?",
         answer="You can work from home up to three days a week as long as your manager approves it. Going "
                "fully remote needs sign-off from both your department head and HR.",
         passages=["hr/remote", "hr/pto", "hr/stipend"], gold=["hr/remote"],
         expect=[("three days a week", S), ("fully remote", S)]),
    # ex-012
    dict(case="wrong_number", tenant="northwind",
         question="What's the deadline for submitting expenses?",
         answer="Submit your expenses in Concur within 45 days of the purchase date, and attach an itemised "
                "receipt for anything over €25. Meals on business trips are reimbursed up to €60 a day.",
         passages=["hr/expenses", "hr/stipend", "hr/remote", "hr/conduct"], gold=["hr/expenses"],
         expect=[("45 days", C, "policy: 60 days"), ("itemised receipt", S), ("Meals on business trips", S)]),
    # ex-013
    dict(case="long_passage", tenant="acme",
         question="Can we move our subscription to our new parent company?",
         answer="A subscription can only be moved to another legal entity with Acme's prior written consent, "
                "which you ask for through the billing portal.",
         passages=["acme/tos", "acme/refund"], gold=["acme/tos"],
         expect=[("another legal entity", S, "sentence 9.10, deep inside a 13-sentence passage")]),
    # ex-014
    dict(case="given_claims", tenant="acme",
         question="How much do the Team and Pro plans cost?",
         answer="Team is $12 per user per month on annual billing ($15 if you pay monthly), and Pro is $29 per "
                "user per month billed annually. Enterprise is priced individually with a 50-seat minimum.",
         claims=["The Team plan costs $12 per user per month billed annually.",
                 "The Team plan costs $15 per user per month billed monthly.",
                 "The Pro plan costs $29 per user per month billed annually.",
                 "Enterprise pricing is quoted individually.",
                 "The Enterprise plan requires a minimum of 50 seats."],
         passages=["acme/pricing", "acme/pro", "acme/refund", "acme/sso", "acme/storage"], gold=["acme/pricing"],
         expect=[("$12", S), ("$15", S), ("$29", S), ("quoted individually", S), ("50 seats", S)]),
    # ex-015
    dict(case="negation", tenant="acme",
         question="Which 2FA methods can we enforce for our workspace?",
         answer="Workspace owners can make two-factor authentication mandatory for all members in Settings > "
                "Security. Members can use an authenticator app or a hardware security key, and SMS codes can "
                "also be used as a second factor.",
         passages=["acme/2fa", "acme/sso", "acme/password", "acme/support"], gold=["acme/2fa"],
         expect=[("mandatory", S), ("authenticator app", S),
                 ("SMS codes", C, "passage: SMS codes are NOT supported")]),
    # ex-016
    dict(case="verbatim_quote", tenant="medline",
         question="Can I take ibuprofen while pregnant?",
         answer="The leaflet is clear on this: \"Do not take this medicine if you are in the last three months of "
                "pregnancy.\" For the first six months, talk to your doctor or pharmacist before taking it.",
         passages=["med/ibu_warn", "med/ibu_dose", "med/ibu_side"], gold=["med/ibu_warn"],
         expect=[("last three months", S, "verbatim quote of passage 1"), ("first six months", S)]),
    # ex-017
    dict(case="citation_wrong", tenant="acme",
         question="Is phone support available at night?",
         answer="Enterprise customers can open phone cases 24/7 for Severity 1 incidents [p4]. Standard support "
                "by email and chat runs Monday to Friday from 08:00 to 18:00 CET.",
         passages=["acme/support", "acme/sla", "acme/pro"], gold=["acme/support"],
         expect=[("24/7", X, "cites p4, which does not exist (content is in p1)"),
                 ("Monday to Friday", S)]),
    # ex-018
    dict(case="decorative", tenant="northwind",
         question="How much vacation do I get, and can I carry it over?",
         answer="Hi Dana, full-time employees accrue 25 days of paid time off per calendar year. You can carry "
                "up to 5 unused days into the next year, but they expire on March 31. Let me know if you have "
                "other questions.",
         cite=[("hr/pto", "Hi Dana, full-time employees accrue 25 days of paid time off per calendar year."),
               ("hr/pto", "You can carry up to 5 unused days into the next year, but they expire on March 31.")],
         passages=["hr/pto", "hr/parental", "hr/remote"], gold=["hr/pto"],
         expect=[("25 days", S), ("up to 5 unused days", S),
                 ("March 31", S, "'they' = the carried-over days"), ("Let me know", K)]),
    # ex-019
    dict(case="supported_paraphrase", tenant="acmedev",
         question="How are webhooks secured and what happens if my endpoint is down?",
         answer="Each webhook delivery carries an HMAC-SHA256 signature in the X-Acme-Signature header, computed "
                "with your endpoint's signing secret. Your endpoint has 10 seconds to reply with a 2xx status; "
                "otherwise the delivery counts as failed and gets retried up to 8 times over about a day.",
         passages=["dev/webhooks", "dev/auth", "dev/rate", "dev/errors"], gold=["dev/webhooks"],
         expect=[("HMAC-SHA256", S), ("10 seconds", S), ("8 times", S)]),
    # ex-020
    dict(case="context_conflict", tenant="northwind", context_conflict=True,
         question="How much parental leave does Northwind give?",
         answer="Under the current policy, every parent gets 20 weeks of fully paid parental leave once they've "
                "completed 6 months of continuous employment. The leave can be split into up to three blocks "
                "taken within 12 months of the birth or adoption.",
         passages=["hr/parental_2023", "hr/parental", "hr/pto"], gold=["hr/parental"],
         expect=[("20 weeks", S, "follows the 2026 policy; the 2023 version (12/4 weeks) is also retrieved"),
                 ("three blocks", S)]),
    # ex-021
    dict(case="multi_passage", tenant="acme",
         question="What storage do we get on Pro, and can we get our money back for extra storage?",
         answer="Each Pro seat comes with 100 GB of storage pooled across the workspace, and you can buy more in "
                "1 TB blocks for $20 a month. Storage add-ons can't be refunded once they've been provisioned. "
                "Pro also comes with a 99.9% monthly uptime commitment.",
         passages=["acme/storage", "acme/refund", "acme/sla", "acme/pro", "acme/pricing", "acme/support"],
         gold=["acme/storage", "acme/refund", "acme/sla"],
         expect=[("100 GB", S), ("1 TB blocks", S), ("can't be refunded", S), ("99.9%", S)]),
    # ex-022
    dict(case="wrong_number", tenant="acmedev",
         question="When does API version 2023-01-15 stop working?",
         answer="Version 2023-01-15 is deprecated and will be switched off on 2026-06-30. The current stable "
                "version is 2024-06-01.",
         passages=["dev/versions", "dev/auth", "dev/sdks"], gold=["dev/versions"],
         expect=[("2026-06-30", C, "shutdown date is 2026-12-31"), ("current stable", S)]),
    # ex-023
    dict(case="condition_dropped", tenant="northwind",
         question="How much parental leave do I get? I started at Northwind in September.",
         answer="All employees get 20 weeks of fully paid parental leave, and it can be taken in up to three "
                "blocks.",
         passages=["hr/parental", "hr/pto", "hr/health"], gold=["hr/parental"],
         expect=[("20 weeks", X, "only after 6 months of continuous employment; 'All employees' drops it"),
                 ("three blocks", S, "'it' = the leave")]),
    # ex-024
    dict(case="unsupported", tenant="northwind",
         question="What happens to my unused vacation days when I leave?",
         answer="Unused paid time off is paid out with your final salary when you leave Northwind. Otherwise, "
                "you can roll over at most 5 unused days into the following year.",
         passages=["hr/pto", "hr/probation", "hr/remote", "hr/parental"], gold=["hr/pto"],
         expect=[("paid out", N, "no passage says anything about payout"), ("roll over", S)]),
    # ex-025
    dict(case="decorative_false_positive", tenant="northwind",
         question="Who needs to approve an offer before it goes out?",
         answer="Hiring managers have to sign off on the final offer in Workday before HR can send it to the "
                "candidate. If the offer is above the salary band, the HR Business Partner has to approve it "
                "as well.",
         passages=["hr/hiring", "hr/probation", "hr/stipend"], gold=["hr/hiring"],
         expect=[("Hiring managers", S, "a real claim; starts with 'Hi'"), ("salary band", S)]),
    # ex-026
    dict(case="supported_paraphrase", tenant="ledgerly",
         question="Is my money safe with Ledgerly?",
         answer="Eligible deposits are covered by the national deposit guarantee scheme up to €100,000 per "
                "depositor. Money in Ledgerly Invest isn't part of that scheme; it's protected by the investor "
                "compensation scheme for up to €20,000 instead.",
         passages=["led/protection", "led/savings", "led/closure", "led/cards"], gold=["led/protection"],
         expect=[("€100,000", S), ("isn't part of that scheme", S), ("€20,000", S)]),
    # ex-027
    dict(case="citation_correct", tenant="ledgerly",
         question="What fees does the business card have?",
         answer="There's no annual fee on Ledgerly Business cards [1]. Paying in a currency other than euro costs "
                "1.5% of the amount [1]. Sending money abroad via SWIFT costs €15 per transfer, plus any "
                "correspondent bank fees [2].",
         passages=["led/cards", "led/transfers", "led/closure"], gold=["led/cards"],
         expect=[("annual fee", S), ("1.5%", S), ("SWIFT", S)]),
    # ex-028
    dict(case="negation", tenant="ledgerly",
         question="Are my Ledgerly Invest holdings covered by the deposit guarantee?",
         answer="Yes, investments held through Ledgerly Invest are covered by the deposit guarantee scheme, up to "
                "€100,000 per depositor.",
         passages=["led/protection", "led/savings"], gold=["led/protection"],
         expect=[("Ledgerly Invest", C, "passage: NOT covered by the deposit guarantee scheme")]),
    # ex-029
    dict(case="decorative", tenant="acmedev",
         question="How does pagination work on list endpoints?",
         answer="Certainly! List endpoints give you up to 100 items per page, and if you don't set page_size you "
                "get 25. To get the following page, send the next_cursor from the last response as cursor. This "
                "is documented in the pagination guide.",
         passages=["dev/pagination", "dev/rate", "dev/errors", "dev/auth"], gold=["dev/pagination"],
         expect=[("Certainly", K), ("100 items", S), ("next_cursor", S),
                 ("documented in the pagination guide", K)]),
    # ex-030
    dict(case="wrong_number", tenant="ledgerly",
         question="How much does an instant transfer cost?",
         answer="SEPA Instant transfers land within 10 seconds and cost €1 each. Regular SEPA transfers are free "
                "and normally arrive within one business day.",
         passages=["led/transfers", "led/cards", "led/disputes"], gold=["led/transfers"],
         expect=[("€1 each", C, "price is €0.50"), ("Regular SEPA", S)]),
    # ex-031
    dict(case="context_conflict", tenant="ledgerly", context_conflict=True,
         question="What interest rate do savings pots pay?",
         answer="Savings pots currently pay 2.5% AER variable interest. Interest is paid monthly and is "
                "calculated daily on balances up to €100,000.",
         passages=["led/savings_launch", "led/savings", "led/protection"], gold=["led/savings"],
         expect=[("2.5%", X, "follows the April launch post; the current FAQ: 2.1%, reduced from 2.5% on "
                             "1 October 2026"),
                 ("calculated daily", S)]),
    # ex-032
    dict(case="verbatim_quote", tenant="acmedev",
         question="Do API tokens expire?",
         answer="As the authentication guide puts it, \"Personal access tokens expire after 90 days.\" Service "
                "account tokens don't expire, though you can revoke them at any time from the admin console.",
         passages=["dev/auth", "dev/webhooks"], gold=["dev/auth"],
         expect=[("Personal access tokens", S, "verbatim quote"), ("Service account tokens", S)]),
    # ex-033
    dict(case="split_support", tenant="northwind",
         question="Can my kids be on my health insurance?",
         answer="Your children under 25 can be covered by the group health plan once you register them as "
                "dependents in Workday.",
         passages=["hr/health", "hr/dependents", "hr/pto", "hr/parental"], gold=["hr/health", "hr/dependents"],
         expect=[("children under 25", S, "needs health plan (covers registered dependents) + dependents "
                                           "(children under 25 can be registered)")]),
    # ex-034
    dict(case="supported_paraphrase", tenant="medline",
         question="How often can I take ibuprofen 200 mg?",
         answer="Adults and children over 12 can take one or two 200 mg tablets every 4 to 6 hours when needed. "
                "Take them with food or just after eating, with a glass of water.",
         passages=["med/ibu_dose", "med/ibu_side", "med/ibu_store", "med/ibu_warn"], gold=["med/ibu_dose"],
         expect=[("every 4 to 6 hours", S), ("glass of water", S)]),
    # ex-035
    dict(case="condition_dropped", tenant="medline",
         question="Is ibuprofen OK to take when pregnant?",
         answer="Yes, you can take ibuprofen during pregnancy. The usual adult dose is one or two 200 mg tablets "
                "every 4 to 6 hours.",
         passages=["med/ibu_dose", "med/ibu_warn", "med/ibu_side"], gold=["med/ibu_warn"],
         expect=[("during pregnancy", X, "not in the last three months; first six months only after talking "
                                         "to a doctor"),
                 ("usual adult dose", S)]),
    # ex-036
    dict(case="refund_condition_dropped", tenant="acme",
         question="Can I still get a refund? I bought the subscription 45 days ago.",
         answer="Yes. Refunds are available for up to 60 days, so you're still within the window. To request one, "
                "go to Billing > Invoices, pick the invoice and choose Request refund.",
         cite=[("acme/refund", "Refunds are available for up to 60 days, so you're still within the window."),
               ("acme/refund", "To request one, go to Billing > Invoices, pick the invoice and choose Request "
                               "refund.")],
         passages=["acme/refund", "acme/retention", "acme/pricing"], gold=["acme/refund"],
         expect=[("you can still get a refund", X, "the bare 'Yes.', checked as the statement it makes: after 45 days only "
                  "Enterprise customers with approval qualify"),
                 ("60 days", X, "cited passage has 60 days, but only for Enterprise with approval"),
                 ("still within the window", X, "45 days is past the 30-day window"),
                 ("Billing > Invoices", S)]),
    # ex-037
    dict(case="citation_wrong", tenant="northwind",
         question="Can I carry over unused vacation days?",
         answer="Yes, you can carry over up to 5 unused days into the next year, and they expire on March 31.",
         cite=[("hr/expenses",
                "Yes, you can carry over up to 5 unused days into the next year, and they expire on March 31.")],
         passages=["hr/pto", "hr/expenses", "hr/remote"], gold=["hr/pto"],
         expect=[("up to 5 unused days", X, "cited passage is the expense policy (content is in the PTO passage)"),
                 ("March 31", X, "same wrong citation")]),
    # ex-038
    dict(case="wrong_number", tenant="medline",
         question="What's the most ibuprofen I can take in a day?",
         answer="You can take one or two 200 mg tablets every 4 to 6 hours. Don't take more than 8 tablets in "
                "24 hours.",
         passages=["med/ibu_dose", "med/ibu_side", "med/ibu_store"], gold=["med/ibu_dose"],
         expect=[("every 4 to 6 hours", S), ("8 tablets", C, "maximum is 6 tablets (1,200 mg)")]),
    # ex-039
    dict(case="given_claims", tenant="medline",
         question="How much paracetamol can I take, and can I take it with a cold remedy?",
         answer="Adults can take one or two 500 mg tablets every 4 to 6 hours, up to 8 tablets (4 g) in 24 hours. "
                "It's fine to take them alongside cold and flu remedies that also contain paracetamol.",
         claims=["Adults can take one or two 500 mg paracetamol tablets every 4 to 6 hours.",
                 "The maximum is 8 tablets (4 g) in 24 hours.",
                 "Paracetamol can be taken together with cold and flu remedies that also contain paracetamol."],
         passages=["med/para_dose", "med/ibu_dose", "med/lorat"], gold=["med/para_dose"],
         expect=[("500 mg", S), ("8 tablets", S),
                 ("cold and flu remedies", C, "leaflet: do not take with other medicines containing paracetamol")]),
    # ex-040
    dict(case="unsupported", tenant="acmedev",
         question="Which languages have official SDKs?",
         answer="Acme publishes official SDKs for Python, JavaScript/TypeScript and Go. A Java SDK is planned for "
                "early 2027, and the Python SDK is fully async.",
         passages=["dev/sdks", "dev/auth", "dev/versions", "dev/rate", "dev/webhooks"], gold=["dev/sdks"],
         expect=[("official SDKs", S), ("Java SDK", N, "no passage mentions Java"),
                 ("fully async", N, "no passage mentions async")]),
    # ex-041
    dict(case="long_passage", tenant="northwind",
         question="Do I need to report a gift from a supplier?",
         answer="Any gift or hospitality from a supplier worth more than €50 has to be recorded in the gifts "
                "register within five working days, and cash gifts must be turned down regardless of the amount.",
         passages=["hr/conduct", "hr/expenses"], gold=["hr/conduct"],
         expect=[("€50", S, "sentence 9 of a 12-sentence passage"), ("turned down", S)]),
    # ex-042
    dict(case="decorative", tenant="ledgerly",
         question="How do I close my Ledgerly account?",
         answer="Thanks for reaching out! You can close your account in the app under Profile > Close account, as "
                "long as your balance is zero and all your cards have been cancelled. Your statements stay "
                "available to download for 6 years after closing. I hope this helps.",
         passages=["led/closure", "led/tax", "led/cards", "led/disputes", "led/transfers"], gold=["led/closure"],
         expect=[("Thanks for reaching out", K), ("Profile > Close account", S), ("6 years", S),
                 ("I hope this helps", K)]),
    # ex-043
    dict(case="negation", tenant="acmedev",
         question="How do I verify that a webhook really comes from Acme?",
         answer="Webhook deliveries are not signed, so you should check the sender's IP address instead.",
         passages=["dev/webhooks", "dev/rate", "dev/auth"], gold=["dev/webhooks"],
         expect=[("not signed", C, "passage: every delivery is signed with HMAC-SHA256"),
                 ("IP address", X, "no passage recommends IP checks")]),
    # ex-044
    dict(case="supported_paraphrase", tenant="acme",
         question="What happens to our data if we cancel?",
         answer="After you cancel, your workspace stays read-only for 30 days; after that, everything is "
                "permanently deleted and can't be recovered. You can export all of your data from Settings > "
                "Export whenever you like.",
         passages=["acme/retention", "acme/refund", "acme/storage", "acme/tos"], gold=["acme/retention"],
         expect=[("read-only for 30 days", S), ("permanently deleted", S), ("Settings > Export", S)]),
    # ex-045
    dict(case="fabricated_quote", tenant="acme",
         question="If we cancel and change our minds later, can you restore our workspace?",
         answer="Your data is kept in read-only mode for 30 days after cancellation. After that, the retention "
                "policy says \"deleted workspaces can be restored by support on request\", so just open a ticket "
                "if you change your mind.",
         passages=["acme/retention", "acme/refund", "acme/support"], gold=["acme/retention"],
         expect=[("30 days after cancellation", S),
                 ("restored by support", X, "quote appears in no passage; backups cannot be restored on request"),
                 ("open a ticket", X, "rests on the fabricated quote")]),
    # ex-046
    dict(case="context_conflict", tenant="acmedev", context_conflict=True,
         question="What is the rate limit per API key?",
         answer="Paid plans are limited to 600 requests per minute per API key. Limits are counted per key "
                "rather than per IP address.",
         passages=["dev/rate_2024", "dev/rate", "dev/auth"], gold=["dev/rate"],
         expect=[("600 requests", S, "follows the current page; the 2024 page (300/min) is retrieved first"),
                 ("per key rather than per IP", S)]),
    # ex-047
    dict(case="multi_passage", tenant="ledgerly",
         question="How long do I have to dispute a card payment, and when do I get my tax statement?",
         answer="You have 120 days from the transaction date to dispute a card payment. While we investigate, "
                "you'll get a temporary credit within 10 business days. Your annual tax statement for the "
                "previous year is available in the app by 31 January.",
         passages=["led/disputes", "led/tax", "led/cards", "led/closure"], gold=["led/disputes", "led/tax"],
         expect=[("120 days", S), ("temporary credit", S), ("31 January", S)]),
    # ex-048
    dict(case="citation_correct", tenant="acme",
         question="How do we set up SSO, and which identity providers work?",
         answer="A workspace owner can set up SSO under Settings > Security. Okta, Azure AD and Google Workspace "
                "all work as identity providers, over SAML 2.0 or OpenID Connect.",
         cite=[("acme/sso", "A workspace owner can set up SSO under Settings > Security."),
               ("acme/sso", "Okta, Azure AD and Google Workspace all work as identity providers, over SAML 2.0 or "
                            "OpenID Connect.")],
         passages=["acme/sso", "acme/2fa", "acme/password"], gold=["acme/sso"],
         expect=[("workspace owner", S), ("Okta", S)]),
    # ex-049
    dict(case="decorative_false_positive", tenant="acme",
         question="Does the Team plan come with an uptime SLA?",
         answer="No, the SLA does not apply to the Team plan. It is available in the Pro and Enterprise plans.",
         passages=["acme/sla", "acme/pricing", "acme/pro"], gold=["acme/sla"],
         expect=[("does not apply", S),
                 ("Pro and Enterprise plans", S, "a real claim (the SLA covers Pro and Enterprise), not a pointer")]),
    # ex-050
    dict(case="unsupported", tenant="medline",
         question="How do I take loratadine and how fast does it work?",
         answer="The dose for adults and children over 12 is one 10 mg tablet once a day, and loratadine doesn't "
                "usually make you drowsy. It starts working within 1 to 3 hours.",
         passages=["med/lorat", "med/para_dose", "med/ibu_dose"], gold=["med/lorat"],
         expect=[("10 mg tablet", S), ("drowsy", S), ("1 to 3 hours", N, "onset time is in no passage")]),
    # ex-051
    dict(case="supported_paraphrase", tenant="northwind",
         question="How long is probation and what's the notice period?",
         answer="Probation lasts six months for every new hire, and during that time either side can end the "
                "contract with two weeks' notice. Once probation is over, notice is one month for your first two "
                "years and two months after that.",
         passages=["hr/probation", "hr/hiring", "hr/pto", "hr/conduct"], gold=["hr/probation"],
         expect=[("six months", S), ("two weeks' notice", S), ("one month", S)]),
    # ex-052
    dict(case="citation_wrong", tenant="ledgerly",
         question="What do international transfers cost?",
         answer="International SWIFT transfers cost €15 each, plus whatever the correspondent banks charge [5]. "
                "SEPA transfers are free [1].",
         passages=["led/transfers", "led/cards", "led/closure"], gold=["led/transfers"],
         expect=[("SWIFT", X, "marker [5] with only 3 passages (content is in passage 1)"),
                 ("SEPA transfers", S)]),
    # ex-053
    dict(case="long_passage", tenant="acmedev",
         question="What do error codes E1042 and E1099 mean?",
         answer="Error E1042 tells you that an idempotency key was sent again with a different request body, "
                "while E1099 is an internal error that you can safely retry with backoff.",
         passages=["dev/errors", "dev/webhooks"], gold=["dev/errors"],
         expect=[("E1042", S, "sentence 10 of a 12-sentence passage"), ("E1099", S)]),
    # ex-054
    dict(case="decorative", tenant="medline",
         question="How should I store ibuprofen?",
         answer="Good question. Keep the tablets below 25 °C in their original package so they stay dry. Don't use "
                "them after the expiry date on the carton, which means the last day of the month shown. Please "
                "note that details may vary.",
         passages=["med/ibu_store", "med/ibu_dose", "med/ibu_side", "med/ibu_warn", "med/lorat"], gold=["med/ibu_store"],
         expect=[("Good question", K), ("25 °C", S), ("expiry date", S), ("details may vary", K)]),
    # ex-055
    dict(case="supported_paraphrase", tenant="acmedev",
         question="Is there an official SDK for Ruby?",
         answer="No. There are official SDKs for Python, JavaScript/TypeScript and Go, and the Python one needs Python "
                "3.9 or newer. Ruby and PHP SDKs exist too, but they're community-maintained and Acme doesn't "
                "support them.",
         passages=["dev/sdks", "dev/versions", "dev/auth"], gold=["dev/sdks"],
         expect=[("official SDKs", S, "the leading 'No.' is right, given the question"), ("3.9", S),
                 ("Ruby and PHP", S), ("community-maintained", S)]),
    # ex-056
    dict(case="decorative_false_positive", tenant="acme",
         question="Can I remove the extra storage I bought?",
         answer="Here's how it works: storage add-ons renew together with your subscription, and you can drop "
                "them at your next renewal date. Add-ons can't be refunded once they have been provisioned.",
         passages=["acme/storage", "acme/refund", "acme/pricing"], gold=["acme/storage", "acme/refund"],
         expect=[("renew together", S, "a real claim behind a 'Here's how it works:' lead-in"),
                 ("next renewal date", S), ("can't be refunded", S)]),
]

# --------------------------------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------------------------------

START = datetime(2026, 11, 9, 6, 2, 17, tzinfo=timezone.utc)


def _h(*parts) -> int:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest(), 16)


def _scores(request_id: str, n: int) -> list[float]:
    top = 0.72 + (_h(request_id, "top") % 24) / 100
    out = [top]
    for i in range(1, n):
        out.append(max(0.05, out[-1] - 0.03 - (_h(request_id, i) % 17) / 100))
    return [round(s, 3) for s in out]


def _span(answer: str, sentence: str) -> list[int]:
    assert answer.count(sentence) == 1, f"cited sentence must occur exactly once: {sentence!r}"
    start = answer.index(sentence)
    return [start, start + len(sentence)]


def _passage_ids(tenant: dict, keys: list[str]) -> dict[str, str | int]:
    style = tenant["id_style"]
    if style == "p":
        return {k: f"p{i + 1}" for i, k in enumerate(keys)}
    if style == "int":
        return {k: i + 1 for i, k in enumerate(keys)}
    return {k: KB[k]["kb_id"] for k in keys}


def build_response(i: int, case: dict, when: datetime) -> dict:
    request_id = f"ex-{i:03d}"
    tenant = TENANTS[case["tenant"]]
    keys = case["passages"]
    ids = _passage_ids(tenant, keys)
    scores = _scores(request_id, len(keys))
    passages = [dict(id=ids[k], text=KB[k]["text"], score=s, doc_id=KB[k]["doc_id"], title=KB[k]["title"],
                     updated_at=KB[k]["updated_at"]) for k, s in zip(keys, scores)]
    record = dict(schema=SCHEMA, request_id=request_id,
                  timestamp=when.isoformat().replace("+00:00", "Z"),
                  question=case["question"], answer=case["answer"], passages=passages)
    if case.get("cite"):
        record["citations"] = [dict(passage_id=str(ids.get(ref, ref)), span=_span(case["answer"], sentence))
                               for ref, sentence in case["cite"]]
    if case.get("claims"):
        record["claims"] = case["claims"]
    if case.get("gold") and tenant.get("gold"):
        record["gold_passage_ids"] = [str(ids[k]) for k in case["gold"]]
    record["metadata"] = dict(app=tenant["app"], model=tenant["model"], retriever=tenant["retriever"],
                              tenant=tenant["tenant"])
    return record


def build_expected(i: int, case: dict) -> dict:
    claims = []
    for entry in case["expect"]:
        contains, expected, *note = entry
        item = dict(contains=contains, expected=expected)
        if note:
            item["note"] = note[0]
        claims.append(item)
    scored = [c["expected"] for c in claims if c["expected"] != K]
    out = dict(request_id=f"ex-{i:03d}", case=case["case"], claims=claims,
               all_supported=all(v == S for v in scored))
    if case.get("context_conflict"):
        out["context_conflict"] = True
    return out


def build_bad() -> list[str]:
    """5 invalid records mixed with 2 valid ones, one per line (the not-JSON line is raw text)."""
    def passage(pid, key):
        k = KB[key]
        return dict(id=pid, text=k["text"], score=0.8, doc_id=k["doc_id"], title=k["title"],
                    updated_at=k["updated_at"])

    meta = dict(app="helpdesk-bot", model="gpt-4o-mini-2024-07-18", retriever="hybrid-bm25-e5-base@2026-10",
                tenant="acme-cloud")
    ts = "2026-11-12T09:14:03Z"
    valid_1 = dict(schema=SCHEMA, request_id="bad-001", timestamp=ts,
                   question="How long is the password reset link valid?",
                   answer="The reset link is valid for 60 minutes.",
                   passages=[passage("p1", "acme/password"), passage("p2", "acme/sso")], metadata=meta)
    missing_answer = dict(schema=SCHEMA, request_id="bad-002", timestamp=ts,
                          question="What's the refund window?",
                          passages=[passage("p1", "acme/refund")], metadata=meta)
    passages_not_list = dict(schema=SCHEMA, request_id="bad-003", timestamp=ts,
                             question="What does Pro include?",
                             answer="Pro includes SSO and priority email support.",
                             passages={"p1": KB["acme/pro"]["text"]}, metadata=meta)
    valid_2 = dict(schema=SCHEMA, request_id="bad-004", timestamp=ts,
                   question="Is SMS supported for 2FA?",
                   answer="No, SMS codes are not supported as a second factor.",
                   passages=[passage("p1", "acme/2fa")], metadata=meta)
    no_text = dict(schema=SCHEMA, request_id="bad-005", timestamp=ts,
                   question="How much storage comes with Pro?",
                   answer="Each Pro seat includes 100 GB of pooled storage.",
                   passages=[passage("p1", "acme/storage"),
                             dict(id="p2", score=0.41, doc_id="acme-pricing", title="Plans and pricing")],
                   metadata=meta)
    not_json = ('{"schema": "groundwatch.response.v1", "request_id": "bad-006", "answer": "Refunds are '
                'available within 30 days.", "passages": [{"id": "p1", "text": "Acme Cloud subscriptions')
    too_many = dict(schema=SCHEMA, request_id="bad-007", timestamp=ts,
                    question="What's the refund window?",
                    answer="Refunds are available within 30 days of purchase.",
                    passages=[dict(id=f"p{n}", text=f"Chunk {n} of the billing knowledge base export.",
                                   score=round(0.9 - n * 0.008, 3)) for n in range(1, 102)],
                    metadata=meta)
    records = [valid_1, missing_answer, passages_not_list, valid_2, no_text, not_json, too_many]
    return [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]


def build_files() -> tuple[dict[str, str], list[dict], list[dict]]:
    """File name -> exact text, plus the response and expectation records."""
    responses, expected = [], []
    when = START
    for i, case in enumerate(CASES, start=1):
        responses.append(build_response(i, case, when))
        expected.append(build_expected(i, case))
        when += timedelta(minutes=38 + _h("gap", i) % 97, seconds=_h("sec", i) % 60)

    def text(lines: list[str]) -> str:
        return "".join(line + "\n" for line in lines)

    files = {"responses.jsonl": text([json.dumps(r, ensure_ascii=False) for r in responses]),
             "expected.jsonl": text([json.dumps(e, ensure_ascii=False) for e in expected]),
             "bad_responses.jsonl": text(build_bad())}
    return files, responses, expected


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print claims and expectations per response")
    args = parser.parse_args(argv)

    files, responses, expected = build_files()
    for name, content in files.items():
        (HERE / name).write_text(content, encoding="utf-8")
    print(f"wrote {len(responses)} responses ({responses[0]['timestamp']} .. {responses[-1]['timestamp']}), "
          f"{len(expected)} expectations, {files['bad_responses.jsonl'].count(chr(10))} bad-response lines "
          f"to {HERE}")
    if args.show:
        _show(responses, expected)


def _show(responses: list[dict], expected: list[dict]) -> None:
    """Claims as the scorer's splitter makes them, next to the expectations (needs the repo on sys.path)."""
    import sys

    sys.path.insert(0, str(HERE.parent))
    from groundwatch.scorers.answer.claims import decompose, given_claims
    from groundwatch.scorers.answer.decorative import decorative_reason

    for r, e in zip(responses, expected):
        claims = given_claims(r["answer"], r["claims"]) if r.get("claims") else decompose(r["answer"])
        print(f"\n{r['request_id']} [{e['case']}] {r['answer']}")
        for c in claims:
            hits = [x for x in e["claims"] if x["contains"] in c.text]
            mark = ",".join(f"{x['expected']}" for x in hits) or "-- no expectation --"
            skip = decorative_reason(c.text)
            print(f"   {c.text!r:110} {mark}{'  [decorative: ' + skip + ']' if skip else ''}")
        for x in e["claims"]:
            n = sum(x["contains"] in c.text for c in claims)
            if n != 1:
                print(f"   !! {x['contains']!r} found in {n} claims")


if __name__ == "__main__":
    main()
