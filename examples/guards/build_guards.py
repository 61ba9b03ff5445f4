"""Build the hand-written guard probe set in examples/guards/: responses.jsonl and expected.jsonl.

Every passage, question and answer below was written by hand for this file (see README.md); nothing is
generated from templates. The script only assembles the records: passage ids, retriever scores and
timestamps are derived deterministically, so the same script always writes the same bytes.

    python examples/guards/build_guards.py          # write the two files
    python examples/guards/build_guards.py --show   # also print each answer's claims next to its expectations
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCHEMA = "groundwatch.response.v1"

# --------------------------------------------------------------------------------------------------
# Tenants. id_style: "p" -> p1, p2, ... by position; "kb" -> the chunk's stable KB id; "int" -> 1, 2, ...
# --------------------------------------------------------------------------------------------------

TENANTS = {
    "corvid": dict(app="support-desk", tenant="corvid-fiber", model="gpt-4o-mini-2024-07-18",
                   retriever="opensearch-bm25+rerank", id_style="p", prefix="cf"),
    "halden": dict(app="hr-assistant", tenant="halden-moss", model="llama-3.1-70b-instruct",
                   retriever="opensearch-knn-bge-m3", id_style="kb", prefix="hm-kb"),
    "orbis": dict(app="finance-policy-bot", tenant="orbis-group", model="mistral-small-2501",
                  retriever="pgvector-e5-large", id_style="kb", prefix="fin"),
    "pennant": dict(app="member-help", tenant="pennant-bank", model="gpt-4o-mini-2024-07-18",
                    retriever="hybrid-bm25-e5-base@2026-10", id_style="int", prefix="pb"),
    "sre": dict(app="runbook-copilot", tenant="tessera-platform", model="qwen2.5-32b-instruct",
                retriever="hybrid-bm25-e5-base@2026-10", id_style="kb", prefix="rb"),
    "docs": dict(app="docs-qa", tenant="tessera-docs", model="qwen2.5-32b-instruct",
                 retriever="elastic-bm25+rerank", id_style="p", prefix="td"),
    "lumen": dict(app="device-support", tenant="lumen-home", model="mistral-small-2501",
                  retriever="pgvector-e5-large", id_style="int", prefix="lh"),
}

# --------------------------------------------------------------------------------------------------
# Knowledge base: key -> chunk. The key's prefix names the tenant ("c/" corvid, "h/" halden, ...).
# --------------------------------------------------------------------------------------------------

KB: dict[str, dict] = {}


def _kb(key: str, doc_id: str, title: str, updated_at: str, text: str) -> None:
    assert key not in KB, key
    KB[key] = dict(doc_id=doc_id, title=title, updated_at=updated_at, text=" ".join(text.split()))


# ---- Corvid Fiber: a broadband provider's support desk ----------------------------------------------
_kb("c/install", "corvid-install", "Getting connected: installation", "2026-03-02", """
    Standard installation is free for new customers who sign up to a 24-month contract. Customers on a
    12-month contract pay a one-off installation fee of £60. Once you order, we book a technician visit
    within 10 working days. The technician will not drill through an external wall without the property
    owner's written consent. Appointments can be moved free of charge up to 24 hours before the slot.""")
_kb("c/router", "corvid-hub3", "The Corvid Hub 3 router", "2026-05-19", """
    Every Corvid Fiber plan comes with the Hub 3 router at no extra cost. The Hub 3 supports Wi-Fi 6, has
    four gigabit Ethernet ports and has IPv6 enabled by default. You may connect your own router instead,
    but our support team does not troubleshoot third-party equipment. The Hub 3 stays Corvid's property and
    must be returned within 30 days of your contract ending, or a £75 charge applies.""")
_kb("c/hub_firmware", "corvid-hub3-updates", "Hub 3 firmware updates", "2026-07-08", """
    The Hub 3 downloads firmware updates automatically and installs them between 03:00 and 05:00. It is
    common for the Wi-Fi to drop for two or three minutes while an update installs. Automatic updates
    cannot be switched off, because they include security fixes. If your Hub 3 restarts repeatedly outside
    the update window, contact support.""")
_kb("c/speeds", "corvid-plans-speeds", "Plan speeds explained", "2026-01-27", """
    Fibre 150 gives average download speeds of 150 Mbps and upload speeds of 30 Mbps. Fibre 500 gives
    500 Mbps down and 75 Mbps up, and Fibre 900 gives 900 Mbps down and 110 Mbps up. These averages are
    measured at peak time over a wired connection. Speeds over Wi-Fi will be lower, depending on the
    distance from the router and on interference.""")
_kb("c/pricing", "corvid-prices", "Broadband prices", "2026-04-01", """
    On a 24-month contract, Fibre 150 costs £28 a month, Fibre 500 costs £36 a month and Fibre 900 costs
    £49 a month. A 12-month contract costs £5 a month more on every plan. Line rental is included in all of
    these prices. Monthly prices rise every April by the Consumer Price Index plus 3.9%.""")
_kb("c/outage", "corvid-outage-credit", "Compensation for loss of service", "2025-11-14", """
    If your broadband stops working completely for more than 48 hours, we credit your account
    automatically with £9.33 for each calendar day until it is fixed. No credit is given for outages caused
    by faults in your own home wiring or equipment. Planned maintenance is announced at least 7 days in
    advance and usually takes place between midnight and 06:00. During a major incident, the status page at
    status.corvid.co.uk is updated every 30 minutes.""")
_kb("c/moving", "corvid-moving-home", "Moving home", "2026-02-10", """
    When you move home, your contract moves with you if Corvid Fiber is available at the new address. If
    our network does not reach your new address, you can end your contract without an early termination
    fee by sending us proof of the new address. Home moves must be booked at least 14 days before your
    moving date. There is no charge for the technician visit at your new home.""")
_kb("c/cancel", "corvid-cancel", "Cancelling your contract", "2026-02-10", """
    You can cancel within 14 days of placing your order without paying anything, under the cooling-off
    period. After that, leaving before the end of your minimum term means paying the remaining monthly
    charges for the term. Once the minimum term ends, your contract rolls onto a monthly plan and you can
    leave with 30 days' notice. Cancellation requests are accepted by phone or web chat, not by email.""")
_kb("c/email", "corvid-mail", "Corvid Mail", "2025-02-03", """
    Corvid Mail was discontinued on 31 January 2025. Existing @corvid.net addresses keep forwarding messages
    to a personal address of your choice until 31 January 2026, after which they are deleted. We no longer
    create new @corvid.net addresses, including for new broadband customers.""")
_kb("c/landline", "corvid-digital-voice", "Home phone and Digital Voice", "2026-06-30", """
    Digital Voice is replacing the old copper phone line for all Corvid customers by the end of 2026. Calls
    to UK landlines and mobiles are included with Anytime Calls, which costs £8 a month. The Evening and
    Weekend call bundle has been withdrawn and can no longer be added to new or existing accounts. To use
    Digital Voice, your phone must be plugged into the green port on the back of the Hub 3.""")
_kb("c/static_ip", "corvid-static-ip", "Static IP addresses and port blocking", "2026-08-21", """
    A static IP address can be added to Fibre 500 and Fibre 900 for £5 a month. Static IPs are not
    available on Fibre 150. Outbound port 25 is blocked on all residential connections to limit spam;
    Corvid Business customers can ask for it to be unblocked.""")
_kb("c/wifi_guarantee", "corvid-wifi-guarantee", "Wi-Fi Guarantee", "2026-09-04", """
    The Wi-Fi Guarantee promises a speed of at least 10 Mbps in every room of your home. It comes included
    with Fibre 900 and can be added to Fibre 150 or Fibre 500 for £4 a month. If we cannot reach 10 Mbps in
    a room even after fitting a free booster, you can claim a £100 credit.""")
_kb("c/business", "corvid-fault-repair", "Fault repair times", "2026-03-18", """
    Corvid Business customers have a 4-hour fix target for a total loss of service, 24 hours a day. For
    residential customers, we aim to fix faults within 2 working days of them being reported. Business
    customers also get a dedicated support line that is answered within 60 seconds.""")
_kb("c/tv", "corvid-tv", "Corvid TV", "2025-05-30", """
    Corvid TV was discontinued in May 2025 and is no longer available to new or existing customers.
    Customers who had Corvid TV at the time were moved to a free 12-month Netflix Standard subscription.
    Corvid broadband works with any streaming device, such as Apple TV, Roku or a smart TV.""")

# ---- Halden & Moss: HR handbook (offices in the UK, Germany and the US) -----------------------------
_kb("h/leave", "hm-annual-leave", "Annual leave", "2026-01-05", """
    Employees in the UK receive 25 days of annual leave per year, plus public holidays. Employees in
    Germany receive 30 days. US employees accrue 15 days a year, rising to 20 days once they reach five
    years of service. Up to five unused days can be carried into the next year, and carried-over days must
    be taken by 31 March.""")
_kb("h/parental", "hm-parental-leave", "Parental leave", "2025-09-15", """
    Birth parents receive 26 weeks of fully paid parental leave once they have completed six months of
    service. Partners receive 6 weeks of fully paid leave, regardless of how long they have worked for the
    company. Leave can be taken in up to three blocks within the child's first year. Employees continue to
    accrue annual leave while they are on parental leave.""")
_kb("h/remote", "hm-remote-work", "Working remotely", "2026-04-22", """
    Employees can work remotely for up to two days a week, with their manager's agreement. Working from
    another country is limited to 20 working days per calendar year and must be approved in advance by HR
    and the Tax team. Remote work is not available to employees who are still in their probation period.
    The company reimburses up to £300 once for home-office equipment.""")
_kb("h/sick", "hm-sickness", "Sickness absence", "2025-12-01", """
    If you are ill, tell your manager before 10:00 on the first day of absence. In Germany, a doctor's
    certificate is required from the fourth calendar day of sickness; in the UK, from the eighth calendar
    day. Sick pay is paid at full salary for up to 12 weeks in any rolling 12-month period.""")
_kb("h/learning", "hm-learning-budget", "Learning budget", "2026-01-05", """
    Every employee has a learning budget of £1,000 per calendar year for courses, conferences and books.
    Unspent budget does not roll over into the next year. Courses costing more than £500 must be approved
    by your head of department before you book them. Certifications that are required for your role are
    paid for by the company and do not count against the learning budget.""")
_kb("h/pension", "hm-pension-uk", "Pension (UK)", "2025-10-09", """
    In the UK, Halden & Moss matches employee pension contributions up to 6% of base salary. Employees are
    enrolled automatically after three months of service and can opt out within one month of being
    enrolled. Pension contributions can be made through salary sacrifice, but bonus payments cannot be
    sacrificed into the pension.""")
_kb("h/probation", "hm-probation-notice", "Probation and notice periods", "2025-06-12", """
    All new employees serve a probation period of six months. During probation, either side can end the
    employment with one week's notice. After probation, the notice period is one month for individual
    contributors and three months for people managers. Probation can be extended once, by up to three
    months.""")
_kb("h/overtime", "hm-overtime", "Overtime", "2025-06-12", """
    Overtime is paid only to employees in pay grades A to C, and only when a manager approved the extra
    hours in advance. Approved overtime is paid at 1.5 times the normal hourly rate, or at twice the hourly
    rate on public holidays. Employees in grade D and above receive time off in lieu instead of overtime
    pay.""")
_kb("h/bike", "hm-cycle-to-work", "Cycle to work", "2026-03-11", """
    The cycle-to-work scheme is open to employees based in the UK. It lets you buy a bike and accessories
    worth up to £2,500 through salary sacrifice, with repayments spread over 12 months. Employees in Germany
    can lease a bike through JobRad instead; US employees are not covered by either scheme.""")
_kb("h/health", "hm-private-medical", "Private medical insurance", "2026-02-02", """
    Private medical insurance with Bupa covers employees from their first day of employment. Partners and
    children can be added to the policy at the employee's own cost. Pre-existing conditions are excluded
    for the first two years of membership. Dental treatment is not included, but it can be added through
    the Denplan scheme.""")
_kb("h/referral", "hm-referrals", "Employee referral programme", "2026-05-06", """
    If you refer a candidate who is hired, you receive a £2,000 referral bonus once the new hire has
    completed their probation period. Referrals of former employees are not eligible for a bonus. Managers
    cannot receive a bonus for hiring into their own team.""")
_kb("h/sabbatical", "hm-sabbatical", "Sabbaticals", "2024-11-20", """
    Employees with at least seven years of continuous service can request an unpaid sabbatical of up to
    three months. Requests must be made six months in advance and are approved subject to business needs.
    Paid sabbaticals were discontinued in 2024 and are no longer offered.""")
_kb("h/car", "hm-company-cars", "Company cars and car allowance", "2025-03-03", """
    The company car scheme closed to new applicants in March 2025. Employees who already have a company car
    keep it until its lease ends. New joiners whose role requires regular travel receive a car allowance of
    £450 a month instead.""")
_kb("h/office", "hm-london-office", "London office guide", "2026-08-14", """
    The London office is open from 07:00 to 21:00 on weekdays. None of the fourth-floor meeting rooms has
    video-conferencing equipment, so book a second-floor room for hybrid meetings. Guests must be signed in
    at reception and accompanied by their host at all times. Meetings in the office are not recorded unless
    every participant agrees.""")
_kb("h/security", "hm-security-training", "Security awareness and devices", "2026-01-19", """
    All employees, including directors and contractors, must complete security awareness training every
    year. New joiners complete it within their first two weeks. Laptop encryption is mandatory and is
    enforced by the device management system.""")
_kb("h/flex", "hm-flexible-working", "Flexible working", "2026-06-02", """
    Employees with at least 12 months of service may request a compressed four-day week. Requests are
    approved at the manager's discretion and reviewed after a six-month trial. Part-time contracts can be
    requested at any time.""")
_kb("h/wellbeing", "hm-wellbeing", "Wellbeing benefits", "2026-01-05", """
    The subsidised FitLife gym membership ended on 31 December 2025 and has not been replaced. Employees can
    instead use the wellbeing allowance of £30 a month for fitness classes, sports clubs or mental health
    apps. The Employee Assistance Programme offers six free counselling sessions a year.""")
_kb("h/closure", "hm-christmas-closure", "Christmas office closure", "2025-11-03", """
    The office closes between Christmas Day and New Year's Day, and these days are not deducted from your
    annual leave. Employees who have to work during the closure for business-critical reasons receive a day
    off in lieu for each day worked.""")

# ---- Orbis Group: finance policies (expenses, travel, procurement, payables) -------------------------
_kb("o/travel", "orbis-travel-policy", "Travel policy: flights and hotels", "2026-02-16", """
    Economy class is the standard for all business flights. Business class may be booked for flights longer
    than six hours, but only with prior approval from a director. Rail journeys in the UK and Europe are
    booked in standard class. Hotel rates are capped at £180 per night in London and £120 per night
    elsewhere in the UK.""")
_kb("o/meals", "orbis-meals", "Meals and entertainment", "2026-02-16", """
    Meals while travelling are reimbursed up to a daily limit of £45. Alcohol is not reimbursable, except at
    client entertainment events approved in advance by a director. A receipt is required for every meal
    claim, regardless of the amount.""")
_kb("o/claims", "orbis-expense-claims", "Submitting expense claims", "2025-08-04", """
    Expense claims must be submitted in Expensify within 60 days of the expense. Claims submitted after 60
    days are rejected unless the finance controller grants an exception. Approved claims are paid with the
    next monthly payroll run.""")
_kb("o/card", "orbis-corporate-cards", "Corporate cards", "2025-08-04", """
    Corporate cards are issued to employees who travel for work at least four times a year. Cash
    withdrawals with a corporate card are not permitted. Personal purchases are prohibited, even if you
    repay them later. Statements must be reconciled in Expensify by the 5th of the following month.""")
_kb("o/procurement", "orbis-procurement", "Buying goods and services", "2026-05-27", """
    Purchases above £10,000 require three competitive quotes. Purchases above £50,000 must go through a
    formal tender run by Procurement. Software purchases of any value need a security review before the
    contract is signed. Purchase orders must be raised before the invoice date, and retrospective purchase
    orders are not accepted.""")
_kb("o/invoices", "orbis-supplier-payments", "Paying suppliers", "2026-05-27", """
    Supplier invoices are paid on 30-day terms from the date we receive them. Small suppliers registered on
    the Fair Pay list are paid within 10 days. Invoices that do not quote a valid purchase order number are
    returned to the supplier unpaid.""")
_kb("o/mileage", "orbis-mileage", "Mileage allowance", "2025-04-06", """
    Business journeys in your own car are reimbursed at 45p per mile for the first 10,000 miles in a tax
    year and 25p per mile after that. Travel between home and your usual workplace is commuting and is not
    business mileage. Carrying a colleague as a passenger adds 5p per mile.""")
_kb("o/budget", "orbis-budget-2026", "2026 budget summary", "2026-01-12", """
    The 2026 marketing budget is £4.2 million, up from £3.5 million in 2025. The engineering budget is
    £11.8 million, compared with £12.4 million in 2025. Budgets are reviewed every quarter, and unspent
    amounts return to the central pool at the end of the year.""")
_kb("o/gifts", "orbis-gifts", "Gifts and hospitality", "2025-10-20", """
    Employees may accept gifts from suppliers worth up to £50. Gifts worth more than £50 must be declared
    in the gifts register within five working days and may have to be returned. Cash and gift cards must
    never be accepted, whatever their value.""")
_kb("o/fx", "orbis-foreign-currency", "Foreign currency expenses", "2025-10-20", """
    Expenses paid in a foreign currency are converted at the rate shown on your card statement. If you paid
    in cash, use the OANDA rate for the date of the expense and attach a screenshot of it. Foreign
    transaction fees charged on personal cards are reimbursable.""")
_kb("o/petty", "orbis-petty-cash", "Petty cash and paper forms", "2025-07-01", """
    Petty cash floats were withdrawn from all Orbis offices in 2025. Small purchases should be made with a
    corporate card or a purchasing card. Paper expense forms are no longer accepted, and all claims go
    through Expensify. Once a receipt has been photographed in the Expensify app, the original does not
    need to be kept.""")
_kb("o/booking", "orbis-travel-booking", "How to book travel", "2026-07-01", """
    Since 1 July 2026, all business travel is booked through Navan; Orbis stopped using Horizon Travel on
    that date. Bookings made through Horizon after 1 July 2026 are not reimbursed. Navan only shows fares
    and hotels that comply with the travel policy.""")
_kb("o/relocation", "orbis-relocation", "Relocation support", "2025-04-06", """
    Relocation support is available to employees who move at the company's request. It covers removal
    costs up to £8,000 and up to two months of temporary housing. If you leave Orbis within 12 months of
    relocating, the relocation costs must be repaid in full.""")
_kb("o/payroll", "orbis-payroll", "Pay dates", "2025-04-06", """
    Salaries are paid on the 25th of each month. If the 25th falls on a weekend or a bank holiday, salaries
    are paid on the previous working day. Payslips are published in Workday two days before payday.""")

# ---- Pennant Bank: a retail bank's member help centre ------------------------------------------------
_kb("b/overdraft", "pennant-overdrafts", "Overdrafts", "2026-03-09", """
    Arranged overdrafts are charged at 39.9% EAR. There is no fee for going into an unarranged overdraft;
    instead, payments that would take you past your arranged limit are declined. You can apply for an
    arranged overdraft in the app, subject to a credit check.""")
_kb("b/savings", "pennant-savers", "Easy Saver and 95-Day Saver", "2026-10-01", """
    The Easy Saver account pays 3.10% AER on balances up to £250,000. There is no limit on withdrawals and
    no notice period. The 95-Day Saver pays 4.05% AER, but you must give 95 days' notice before each
    withdrawal. Interest on both accounts is paid monthly.""")
_kb("b/bonus", "pennant-bonus-saver", "Bonus Saver", "2026-10-01", """
    The Bonus Saver pays 4.50% AER for any month in which you make no withdrawals. In a month with one or
    more withdrawals, the rate for that month falls to 1.50% AER. You can pay in as often as you like, up to
    £50,000 in total.""")
_kb("b/abroad", "pennant-travel-money", "Using your card abroad", "2026-05-14", """
    Pennant debit cards have no foreign transaction fees anywhere in the world. Cash withdrawals abroad are
    free up to £200 a month; after that, a 2% fee applies to each withdrawal. We use the Mastercard exchange
    rate with no markup.""")
_kb("b/mortgage", "pennant-mortgages", "Mortgages", "2026-06-25", """
    Pennant no longer offers interest-only mortgages to new customers. Existing interest-only customers can
    switch to a repayment mortgage at any time without a fee. The maximum loan-to-value for first-time
    buyers is 95%.""")
_kb("b/cheques", "pennant-cheques", "Cheques", "2025-12-02", """
    Cheques for up to £1,000 can be paid in by taking a photo in the Pennant app. Larger cheques must be
    paid in at a Post Office counter. Pennant stopped issuing chequebooks in 2023, and existing chequebooks
    can still be used until the end of 2026.""")
_kb("b/lost", "pennant-lost-cards", "Lost or stolen cards", "2026-02-23", """
    If you report your card as lost or stolen, we block it immediately and send a replacement that arrives
    within 3 working days. You are not liable for fraudulent payments made after you report the loss.
    Pennant will never ask you for your full PIN or your app passcode.""")
_kb("b/joint", "pennant-joint-accounts", "Joint accounts", "2025-09-30", """
    A joint account can have up to two account holders. Both holders must be at least 18 and live in the
    UK. Either holder can make payments without the other's approval. A joint account cannot be converted
    into a sole account; you need to open a new sole account instead.""")
_kb("b/isa", "pennant-cash-isa", "Cash ISA", "2026-04-06", """
    The Cash ISA allowance is £20,000 per tax year. Pennant's Cash ISA is flexible, so money you withdraw can
    be put back in the same tax year without using up your allowance. We accept transfers in from other
    providers, and transfers out are completed within 15 working days.""")
_kb("b/business", "pennant-business-plus", "Business Plus account", "2026-01-15", """
    The Business Plus account costs £9 a month and includes 100 free electronic payments each month. Each
    additional electronic payment costs 20p. Cash deposits are charged at 0.5% of the amount paid in, with a
    minimum charge of £1.""")
_kb("b/app", "pennant-app-support", "Supported devices", "2026-06-30", """
    The Pennant app runs on iOS 16 or later and Android 10 or later. Support for Android 9 ended in June
    2026, and the app can no longer be installed on those devices. Face ID and fingerprint login can be
    turned on in Settings > Security.""")
_kb("b/student", "pennant-student", "Student account", "2026-08-03", """
    Students at UK universities can open a Pennant Student account with an interest-free overdraft of up to
    £2,000. Graduates keep the interest-free overdraft for two years after their course ends, after which
    standard overdraft rates apply.""")
_kb("b/premier", "pennant-premier", "Premier banking", "2026-08-03", """
    Premier customers, who pay in at least £100,000 a year, get worldwide family travel insurance and
    airport lounge access. All current account customers get purchase protection on card payments over
    £100.""")
_kb("b/fees", "pennant-fees", "Fees at a glance", "2026-03-09", """
    There is no monthly fee on the Everyday current account. Sending a CHAPS payment costs £10, and
    replacement cards are free. We do not charge for returned direct debits.""")

# ---- Tessera platform: engineering runbooks ----------------------------------------------------------
_kb("s/ledger", "rb-ledger-writer", "Runbook: ledger-writer", "2026-09-02", """
    ledger-writer consumes the ledger-events topic and writes each entry to the ledger Postgres database.
    It never retries a failed write. Failed writes are published to the ledger-dlq topic together with the
    original payload and the error code. Replay the DLQ with `ledgerctl replay` only after the cause has
    been fixed; replaying earlier just fills the DLQ again.""")
_kb("s/notify", "rb-notifications", "Runbook: notifications consumer", "2026-07-15", """
    The notifications consumer retries a failed delivery up to five times with exponential backoff,
    starting at 2 seconds. After the fifth failure the message is dropped and counted in the
    notify_dropped_total metric. Dropped notifications are not written to a dead-letter queue.""")
_kb("s/failover", "rb-postgres-failover", "Runbook: Postgres failover", "2026-04-28", """
    Failover of the primary Postgres cluster is automatic once the primary has been unreachable for 30
    seconds. Patroni promotes the replica with the lowest replication lag. Do not restart the old primary
    after a failover; rebuild it from the new primary with `pg_rewind` before it rejoins. Each failover is
    announced in #incidents automatically.""")
_kb("s/deploy", "rb-deploys", "Deploying to production", "2026-10-06", """
    Production deploys run only from the main branch, through the deploy-prod pipeline. Deploys are frozen
    from 18:00 on Friday until 08:00 on Monday, unless the incident commander approves a hotfix. Every
    deploy needs one approving review from a code owner. The canary receives 5% of traffic for 10 minutes
    before the full rollout.""")
_kb("s/certs", "rb-tls-certificates", "TLS certificates", "2026-03-30", """
    Certificates for public endpoints are issued by Let's Encrypt and renewed automatically by cert-manager
    30 days before they expire. Internal service certificates come from the Vault PKI and are valid for 72
    hours. Manual renewal is needed only if the cert-manager-renewals alert fires.""")
_kb("s/backups", "rb-backups", "Backups and restores", "2026-05-11", """
    The main Postgres cluster gets a full snapshot every night at 02:00 UTC, and WAL is archived every 5
    minutes. Snapshots are kept for 35 days. The analytics warehouse is not backed up; if it is lost, it is
    rebuilt from the event log. Restore tests are run once a quarter.""")
_kb("s/oncall", "rb-oncall", "On-call guide", "2026-01-20", """
    On-call rotations last one week and hand over on Tuesdays at 10:00. Engineers in their first three
    months are not added to the primary rotation; they shadow a primary instead. Each week on call is paid
    at £250, plus £50 for every page outside working hours.""")
_kb("s/kafka", "rb-kafka-events", "Events Kafka cluster", "2026-06-17", """
    The events cluster runs Kafka 3.7 with a replication factor of 3 and min.insync.replicas set to 2. Topic
    auto-creation is disabled, so new topics must be declared in the topics repository and applied through
    Terraform. Retention defaults to 7 days, except for topics with the `audit-` prefix, which keep data
    for 30 days.""")
_kb("s/kafka_logs", "rb-kafka-logs", "Logs Kafka cluster", "2026-06-17", """
    The logs cluster runs Kafka 3.6 with a replication factor of 2. Topic auto-creation is enabled on the
    logs cluster so that new services can ship logs without a change request. Log topics keep data for 3
    days.""")
_kb("s/redis", "rb-redis", "Redis instances", "2026-02-09", """
    The session cache runs Redis 7 in cluster mode with persistence disabled, because sessions can be
    recreated. The rate-limiter Redis has AOF persistence enabled with fsync every second. Never run
    FLUSHALL on the rate-limiter instance; use the `rl-reset` script to clear a single key.""")
_kb("s/incident", "rb-incident-process", "Incident process", "2026-08-25", """
    Every SEV1 incident needs an incident commander and a communications lead within 15 minutes. A status
    page update is required for SEV1 and SEV2 incidents and optional for SEV3. Postmortems are written for
    every SEV1 and SEV2 within five working days. Postmortems are blameless.""")
_kb("s/k8s", "rb-k8s-policies", "Production cluster policies", "2026-07-29", """
    Pods in the production cluster must set CPU and memory requests. Memory limits are required, while CPU
    limits are deliberately left unset to avoid throttling. Pods that run as root are rejected by the
    admission controller, except in the kube-system namespace.""")
_kb("s/capacity", "rb-checkout-capacity", "Checkout capacity planning", "2026-01-08", """
    The checkout service handled a peak of 4,800 requests per second during the November sale, up from
    3,200 the year before. Each pod sustains about 400 requests per second at 70% CPU. The HPA keeps at
    least 8 pods running and scales up to 40.""")
_kb("s/legacy", "rb-reporting-v1-sunset", "Reporting v1 sunset", "2026-09-01", """
    The v1 reporting API was decommissioned on 1 September 2026 and no longer receives traffic. Its
    database, reports-v1, is kept read-only until 31 December 2026 for audit purposes. All reporting
    traffic is served by the v2 API.""")
_kb("s/ci", "rb-ci", "CI pipelines", "2026-02-02", """
    All CI runs on GitHub Actions since the 2025 migration. Jenkins is no longer used for builds, and the
    Jenkins server was shut down in January 2026. Self-hosted runners are available for jobs that need GPUs.
    Pipelines time out after 60 minutes.""")
_kb("s/flags", "rb-feature-flags", "Feature flag hygiene", "2026-04-14", """
    Feature flags are managed in Flagsmith. Flags that have been fully rolled out for more than 60 days must
    be removed from the code. Kill switches are exempt from this rule and must never be removed.""")
_kb("s/migrations", "rb-schema-migrations", "Schema migrations", "2026-03-03", """
    Schema migrations run automatically during a deploy if they are marked as online. Migrations that lock
    a table must be run by hand in a maintenance window. Never drop a column in the same release that stops
    using it.""")
_kb("s/lag", "rb-consumer-lag", "Consumer lag alerts", "2026-06-17", """
    Consumer lag on the events pipeline normally spikes during the nightly batch import between 01:00 and
    02:00, and these spikes need no action. Lag above 50,000 messages outside that window pages the on-call
    engineer. Do not restart consumers to clear lag; scale the consumer group instead.""")

# ---- Tessera Analytics: product documentation ----------------------------------------------------------
_kb("d/rate", "docs-api-rate-limits", "API rate limits", "2026-09-09", """
    The REST API allows 600 requests per minute per API key on the Growth plan and 3,000 per minute on the
    Scale plan. Requests over the limit receive HTTP 429 with a Retry-After header. Limits are not shared
    between keys: each key has its own budget.""")
_kb("d/auth", "docs-authentication", "Authentication", "2026-06-03", """
    API keys are created under Settings > API keys and are shown only once. Keys do not expire, but they can
    be revoked at any time. OAuth access tokens expire after 60 minutes and are renewed with a refresh token
    that is valid for 30 days. Basic authentication with a username and password is no longer supported as
    of API version 2024-06.""")
_kb("d/export", "docs-exporting", "Exporting dashboards and charts", "2026-05-20", """
    Dashboards can be exported to PDF or PNG from the Share menu. CSV export is available for individual
    charts, not for whole dashboards. Scheduled email exports require the Scale plan. Excel (.xlsx) export
    was removed in release 5.2.""")
_kb("d/retention", "docs-data-retention", "Data retention", "2026-02-24", """
    Raw events are kept for 13 months on the Growth plan and 25 months on the Scale plan. Aggregated metrics
    are kept indefinitely on all plans. A deleted project can be restored within 7 days; after that, the
    deletion is permanent.""")
_kb("d/sso", "docs-sso-mfa", "SSO, SCIM and MFA", "2026-07-07", """
    SAML single sign-on is available on the Scale plan. SCIM user provisioning is available on Scale only
    with the Identity add-on. Multi-factor authentication is required for every user on every plan and
    cannot be turned off by administrators.""")
_kb("d/cli", "docs-cli", "The tessera CLI", "2026-08-18", """
    The `tessera` CLI needs Python 3.10 or later. Run `tessera login` once to store your credentials in the
    system keychain. The `--dry-run` flag shows what `tessera deploy` would change without applying
    anything. The `tessera push` command was deprecated in CLI 4.0 and removed in 5.0; use `tessera deploy`
    instead.""")
_kb("d/webhooks", "docs-webhooks", "Webhooks", "2026-04-13", """
    Webhook payloads are signed with HMAC-SHA256 using the endpoint's signing secret. Tessera retries failed
    deliveries for up to 24 hours with exponential backoff. Deliveries are not guaranteed to arrive in
    order, so use the event timestamp to order them. Your endpoint must respond within 10 seconds.""")
_kb("d/sampling", "docs-sampling", "Sampling", "2026-03-16", """
    Queries over more than 100 million events are sampled by default so that results come back within
    seconds. You can turn sampling off for a query with the `exact=true` parameter, which may take several
    minutes. Funnel and retention reports are always computed on unsampled data.""")
_kb("d/ingest", "docs-ingestion", "Sending events", "2026-01-29", """
    The ingestion endpoint accepts batches of up to 500 events or 1 MB, whichever comes first. Events with a
    timestamp more than 7 days in the past are rejected, and so are events more than 1 hour in the future.
    Events that repeat an `insert_id` seen in the last 24 hours are discarded as duplicates.""")
_kb("d/pricing", "docs-pricing", "Plans and pricing", "2026-10-01", """
    The Growth plan costs $450 a month and includes 10 seats. Extra seats cost $30 per seat per month. The
    Scale plan starts at $1,800 a month with 25 seats included. Paying annually gives a 15% discount on
    either plan.""")
_kb("d/residency", "docs-data-residency", "Data residency", "2026-02-24", """
    Projects can be hosted in the EU (Frankfurt) or the US (Virginia). The region is chosen when the project
    is created and cannot be changed afterwards. Event data from EU-hosted projects never leaves the EU.""")
_kb("d/alerts", "docs-alerts", "Alerts", "2026-09-01", """
    Metric alerts are evaluated every 5 minutes. Alerts can notify email, Slack and PagerDuty. Microsoft
    Teams notifications are no longer supported, following the retirement of the Teams connector in August
    2026. Each project can have up to 50 active alerts.""")
_kb("d/sdk", "docs-js-sdk", "JavaScript SDK", "2026-06-22", """
    The JavaScript SDK batches events and flushes them every 10 seconds or as soon as 20 events are queued.
    When `anonymizeIp` is set to true, the SDK does not collect IP addresses. Autocapture of clicks is off
    by default and can be turned on with `autocapture: true`.""")
_kb("d/collector", "docs-collector-config", "Collector configuration", "2026-05-05", """
    Changes to alert thresholds take effect immediately and do not require a restart of the collector.
    Changing the collector's listen port does require a restart. The collector re-reads its configuration
    file every 30 seconds.""")

# ---- Lumen Home: smart thermostat product support -----------------------------------------------------
_kb("l/compat", "lumen-t3-compatibility", "Is the T3 compatible with my system?", "2026-02-11", """
    The Lumen T3 works with most 24 V heating and cooling systems, including boilers, furnaces and heat
    pumps. It is not compatible with 230 V electric baseboard heaters. A C-wire is needed for constant
    power; if your system has none, use the Lumen Power Adapter.""")
_kb("l/warranty", "lumen-warranty", "Warranty", "2025-10-01", """
    The Lumen T3 comes with a two-year limited warranty. The warranty is extended to five years if the
    thermostat is installed by a Lumen Certified Installer. Damage caused by incorrect wiring is not covered
    by the warranty.""")
_kb("l/firmware", "lumen-firmware", "Firmware updates", "2026-03-31", """
    Firmware updates install automatically overnight, between 02:00 and 04:00. Automatic updates cannot be
    turned off, but you can postpone an update by up to 7 days in the app. The original T1 model stopped
    receiving firmware updates in March 2026.""")
_kb("l/eco", "lumen-eco-mode", "Eco mode and geofencing", "2026-01-13", """
    Eco mode lowers the target temperature by 2 °C when everyone has left home, using phone geofencing.
    Geofencing needs the Lumen app to have location access set to Always. Eco mode is not available while
    the thermostat follows a manual schedule.""")
_kb("l/energy", "lumen-energy-study", "How much can I save?", "2025-12-08", """
    In a 2025 study of 1,200 homes, the Lumen T3 reduced average heating energy use from 11,500 kWh to 9,775
    kWh a year. Actual savings depend on insulation, climate and how you set your schedule.""")
_kb("l/returns", "lumen-returns", "Returns and refunds", "2026-04-02", """
    Thermostats bought from the Lumen online store can be returned within 30 days for a full refund. Devices
    bought from a retailer must be returned to that retailer under its own returns policy. Returns after 30
    days are not accepted.""")
_kb("l/care", "lumen-care", "Lumen Care subscription", "2026-09-10", """
    Lumen Care costs $4.99 a month or $49 a year. It adds 12 months of temperature history, monthly energy
    reports and priority support. Without Lumen Care, the app keeps 10 days of history.""")
_kb("l/integrations", "lumen-integrations", "Smart home integrations", "2026-05-01", """
    Lumen thermostats work with Google Home, Amazon Alexa and Apple Home through Matter. The IFTTT
    integration was retired on 30 April 2026. Integrations are set up in the Lumen app under Settings >
    Connected services.""")
_kb("l/schedule", "lumen-schedules", "Schedules", "2026-01-13", """
    You can set up to 8 temperature changes per day in a schedule, and each day of the week can have its own
    schedule. The T3 learns from your manual adjustments only if Auto-Schedule is turned on.""")

TENANT_OF = {"c": "corvid", "h": "halden", "o": "orbis", "b": "pennant", "s": "sre", "d": "docs", "l": "lumen"}

# --------------------------------------------------------------------------------------------------
# Cases. p: the passages in retriever order; the one marked "*" is the passage the answer is about
# (written to gold_passage_ids). x: per claim (contains, expected[, note]).
# --------------------------------------------------------------------------------------------------

S, C, N, X = "SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "NOT_SUPPORTED"
FAMILIES = ("explicit_negation", "lexical_antonym", "no_longer", "dropped_condition", "dropped_scope",
            "wrong_arithmetic", "right_arithmetic", "control_paraphrase", "control_double_negation")
CASES: list[dict] = []


def _case(family: str, q: str, a: str, p: list[str], x: list[tuple]) -> None:
    assert family in FAMILIES, family
    CASES.append(dict(case=family, q=q, a=a, p=p, x=x))


# ---- explicit_negation: the passage says not / never / no / none / cannot; the answer says it does,
#      or the passage states it and the answer denies it. All CONTRADICTED. ------------------------------
NEG = "explicit_negation"
_case(NEG, "Will your support team help me set up the router I bought myself?",
      "Yes, Corvid's support team will help you troubleshoot your own third-party router.",
      ["*c/router", "c/hub_firmware", "c/static_ip"],
      [("troubleshoot your own", C, "support does not troubleshoot third-party equipment")])
_case(NEG, "Can I get a static IP on Fibre 150?",
      "You can add a static IP address to Fibre 150 for £5 a month.",
      ["*c/static_ip", "c/pricing", "c/speeds"],
      [("static IP address to Fibre 150", C, "static IPs are not available on Fibre 150")])
_case(NEG, "How do I cancel? Can I just send you an email?",
      "Yes, you can cancel your Corvid contract by sending us an email.",
      ["*c/cancel", "c/moving", "c/email"],
      [("by sending us an email", C, "cancellations by phone or web chat, not by email")])
_case(NEG, "The wiring in my flat failed and I was offline for three days. Do I get compensation?",
      "Outages caused by faults in your own home wiring are credited at £9.33 per day.",
      ["c/business", "*c/outage", "c/moving"],
      [("home wiring are credited", C, "no credit for outages caused by home wiring")])
_case(NEG, "What happens to the learning budget I don't spend this year?",
      "Any learning budget you don't use rolls over into the next year.",
      ["*h/learning", "h/leave", "h/wellbeing"],
      [("rolls over", C, "unspent budget does not roll over")])
_case(NEG, "Is dental covered by our Bupa insurance?",
      "Yes, dental treatment is included in the Bupa private medical insurance, and your partner and children "
      "can be added at your own cost.",
      ["*h/health", "h/wellbeing"],
      [("dental treatment is included", C, "dental treatment is not included"),
       ("partner and children", S)])
_case(NEG, "Can I put my annual bonus into my pension through salary sacrifice?",
      "Bonus payments can be sacrificed into your pension in the same way as regular contributions.",
      ["*h/pension", "h/bike", "h/overtime"],
      [("Bonus payments can be sacrificed", C, "bonus payments cannot be sacrificed into the pension")])
_case(NEG, "Do the meeting rooms on the fourth floor in London have video conferencing?",
      "The fourth-floor meeting rooms in the London office are equipped for video conferencing.",
      ["*h/office", "h/remote"],
      [("fourth-floor meeting rooms", C, "none of the fourth-floor rooms has video-conferencing equipment")])
_case(NEG, "Can I take out cash on my corporate card when I'm travelling?",
      "Yes, cash withdrawals are allowed on the corporate card while you're travelling.",
      ["*o/card", "o/fx", "o/meals"],
      [("cash withdrawals are allowed", C, "cash withdrawals are not permitted")])
_case(NEG, "My personal card charged a foreign transaction fee on a work dinner abroad. Can I claim it?",
      "No, foreign transaction fees on personal cards aren't reimbursed by Orbis.",
      ["*o/fx", "o/card", "o/travel"],
      [("foreign transaction fees", C, "foreign transaction fees on personal cards are reimbursable")])
_case(NEG, "Does my drive to the office count for the mileage allowance?",
      "Your drive between home and your usual office counts as business mileage at 45p per mile.",
      ["*o/mileage", "o/travel", "o/relocation"],
      [("counts as business mileage", C, "commuting is not business mileage")])
_case(NEG, "What's the fee for going into an unarranged overdraft?",
      "Pennant charges a fee each time you go into an unarranged overdraft.",
      ["*b/overdraft", "b/fees", "b/student"],
      [("charges a fee", C, "there is no fee for an unarranged overdraft")])
_case(NEG, "Can I turn our joint account into an account in just my name?",
      "Yes, a joint account can be converted into a sole account in a few steps.",
      ["*b/joint", "b/student", "b/overdraft"],
      [("converted into a sole account", C, "a joint account cannot be converted into a sole account")])
_case(NEG, "Someone who said they were from Pennant asked me for my PIN on the phone. Is that normal?",
      "Pennant may ask for your full PIN over the phone to confirm your identity.",
      ["*b/lost", "b/app", "b/joint"],
      [("full PIN", C, "Pennant will never ask for your full PIN")])
_case(NEG, "Does ledger-writer retry when a Postgres write fails?",
      "Yes, ledger-writer retries failed Postgres writes automatically before giving up.",
      ["s/notify", "*s/ledger", "s/failover"],
      [("retries failed Postgres writes", C, "ledger-writer never retries a failed write")])
_case(NEG, "What does the notifications consumer do when a delivery fails?",
      "The notifications consumer does not retry failed deliveries.",
      ["*s/notify", "s/ledger", "s/lag"],
      [("does not retry", C, "it retries up to five times with backoff")])
_case(NEG, "Is the analytics warehouse part of the nightly backups?",
      "Yes, the analytics warehouse is backed up every night at 02:00 UTC along with the main Postgres "
      "cluster.",
      ["*s/backups", "s/failover", "s/legacy"],
      [("analytics warehouse is backed up", C, "the analytics warehouse is not backed up")])
_case(NEG, "Can a new engineer go on the primary on-call rotation in their first month?",
      "New engineers are added to the primary on-call rotation from their first month.",
      ["*s/oncall", "s/incident"],
      [("primary on-call rotation", C, "engineers in their first three months are not added")])
_case(NEG, "Can I export a whole dashboard to CSV?",
      "Yes, whole dashboards can be exported as CSV files from the Share menu.",
      ["*d/export", "d/ingest", "d/retention"],
      [("whole dashboards can be exported as CSV", C, "CSV export is for individual charts, not whole dashboards")])
_case(NEG, "Are webhook events delivered in order?",
      "Webhook deliveries are guaranteed to arrive in the order the events happened.",
      ["*d/webhooks", "d/ingest", "d/sdk"],
      [("guaranteed to arrive in the order", C, "deliveries are not guaranteed to arrive in order")])
_case(NEG, "If I change the collector's listen port, do I have to restart it?",
      "A new listen port takes effect without restarting the collector.",
      ["*d/collector", "d/alerts"],
      [("without restarting the collector", C, "changing the listen port does require a restart")])
_case(NEG, "Will the T3 work with my 230 V electric baseboard heaters?",
      "Yes, the Lumen T3 can control 230 V electric baseboard heaters.",
      ["*l/compat", "l/warranty", "l/eco"],
      [("baseboard heaters", C, "the T3 is not compatible with 230 V baseboard heaters")])
_case(NEG, "My electrician wired the T3 wrong and now it's dead. Is that covered?",
      "Damage caused by incorrect wiring is covered under the T3's two-year warranty.",
      ["*l/warranty", "l/compat", "l/returns"],
      [("incorrect wiring is covered", C, "damage from incorrect wiring is not covered")])

# ---- lexical_antonym: the answer uses the opposite predicate (open/blocked, enabled/disabled,
#      included/excluded, required/optional, accepted/rejected, before/after, raise/lower ...). ----------
ANT = "lexical_antonym"
_case(ANT, "Is port 25 open on my home connection? I'd like to run a small mail server.",
      "Yes, outbound port 25 is open on Corvid residential connections.",
      ["*c/static_ip", "c/router", "c/business"],
      [("port 25 is open", C, "port 25 is blocked on residential connections")])
_case(ANT, "Does the Hub 3 do IPv6 out of the box?",
      "On the Hub 3, IPv6 is switched off by default.",
      ["*c/router", "c/hub_firmware", "c/static_ip"],
      [("switched off by default", C, "IPv6 is enabled by default")])
_case(ANT, "Is line rental extra on top of the broadband price?",
      "Line rental is excluded from the monthly prices and billed separately.",
      ["*c/pricing", "c/landline", "c/speeds"],
      [("Line rental is excluded", C, "line rental is included in all prices")])
_case(ANT, "Do I keep building up holiday while I'm on parental leave?",
      "Annual leave stops accruing while you are on parental leave.",
      ["*h/parental", "h/leave", "h/closure"],
      [("stops accruing", C, "employees continue to accrue annual leave")])
_case(ANT, "I work in our Berlin office and was off sick for five days. Do I need a doctor's note?",
      "In Germany, a doctor's certificate is optional for a sickness absence of five days.",
      ["*h/sick", "h/leave", "h/remote"],
      [("certificate is optional", C, "required from the fourth calendar day in Germany")])
_case(ANT, "Once my visitor has signed in, can they walk around the office on their own?",
      "Once they are signed in at reception, guests may move around the office unaccompanied.",
      ["*h/office", "h/security"],
      [("unaccompanied", C, "guests must be accompanied by their host at all times")])
_case(ANT, "Does the Bupa policy cover conditions I already have?",
      "Pre-existing conditions are included in the Bupa cover from your first day.",
      ["*h/health", "h/wellbeing", "h/sick"],
      [("Pre-existing conditions are included", C, "excluded for the first two years")])
_case(ANT, "I forgot to submit a taxi receipt from three months ago. Will the claim still go through?",
      "Claims submitted more than 60 days after the expense are still accepted.",
      ["*o/claims", "o/petty", "o/payroll"],
      [("still accepted", C, "claims after 60 days are rejected unless the controller grants an exception")])
_case(ANT, "Can I buy something personal on the company card if I pay it back?",
      "Personal purchases on the corporate card are permitted as long as you repay them.",
      ["*o/card", "o/gifts"],
      [("Personal purchases", C, "personal purchases are prohibited, even if repaid")])
_case(ANT, "Can a purchase order be raised after we've received the supplier's invoice?",
      "Purchase orders can be raised after the invoice date.",
      ["*o/procurement", "o/invoices"],
      [("after the invoice date", C, "POs must be raised before the invoice date")])
_case(ANT, "A supplier's invoice has no PO number on it. Will it be paid?",
      "Invoices without a valid purchase order number are still paid on the usual 30-day terms.",
      ["*o/invoices", "o/procurement", "o/claims"],
      [("still paid", C, "such invoices are returned to the supplier unpaid")])
_case(ANT, "What happens if a card payment would take me over my overdraft limit?",
      "Payments that would take you past your arranged overdraft limit are approved.",
      ["*b/overdraft", "b/fees"],
      [("are approved", C, "such payments are declined")])
_case(ANT, "Can I move my ISA from another bank to Pennant?",
      "Pennant refuses ISA transfers in from other providers.",
      ["*b/isa", "b/savings"],
      [("refuses ISA transfers", C, "Pennant accepts transfers in")])
_case(ANT, "Does Postgres fail over by itself?",
      "Failover of the primary Postgres cluster is manual and has to be started by the on-call engineer.",
      ["*s/failover", "s/backups", "s/oncall"],
      [("is manual", C, "failover is automatic after 30 seconds")])
_case(ANT, "Can I just produce to a new topic on the events cluster and have it created for me?",
      "Topic auto-creation is enabled on the events cluster.",
      ["s/kafka_logs", "*s/kafka", "s/lag"],
      [("auto-creation is enabled", C, "auto-creation is disabled on the events cluster (enabled on logs)")])
_case(ANT, "Does the session cache Redis persist to disk?",
      "Persistence is enabled on the session cache Redis.",
      ["*s/redis", "s/kafka"],
      [("Persistence is enabled", C, "session cache persistence is disabled")])
_case(ANT, "Do we have to update the status page for a SEV2?",
      "For SEV2 incidents, a status page update is optional.",
      ["*s/incident", "s/oncall", "s/lag"],
      [("status page update is optional", C, "required for SEV1 and SEV2")])
_case(ANT, "Do prod pods need memory limits?",
      "Memory limits are optional for pods in the production cluster.",
      ["*s/k8s", "s/capacity"],
      [("Memory limits are optional", C, "memory limits are required")])
_case(ANT, "Can I ship a normal release on Saturday?",
      "Production deploys are allowed on Saturdays.",
      ["*s/deploy", "s/migrations", "s/ci"],
      [("allowed on Saturdays", C, "deploys are frozen from Friday 18:00 to Monday 08:00")])
_case(ANT, "Can my job still write to the reports-v1 database?",
      "The reports-v1 database stays writable until 31 December 2026.",
      ["*s/legacy", "s/backups"],
      [("stays writable", C, "reports-v1 is read-only")])
_case(ANT, "Are funnel reports sampled?",
      "Funnel reports are computed on sampled data to keep them fast.",
      ["*d/sampling", "d/retention", "d/ingest"],
      [("sampled data", C, "funnels are always computed on unsampled data")])
_case(ANT, "What happens to events I send with a timestamp from two weeks ago?",
      "Events with a timestamp more than 7 days in the past are accepted by the ingestion endpoint.",
      ["*d/ingest", "d/sdk", "d/retention"],
      [("are accepted", C, "such events are rejected")])
_case(ANT, "Is click autocapture on by default in the JS SDK?",
      "Yes, click autocapture is on by default in the JavaScript SDK.",
      ["*d/sdk", "d/ingest"],
      [("on by default", C, "autocapture of clicks is off by default")])
_case(ANT, "Is MFA mandatory on the Growth plan?",
      "On the Growth plan, multi-factor authentication is optional.",
      ["*d/sso", "d/pricing", "d/auth"],
      [("multi-factor authentication is optional", C, "MFA is required on every plan")])
_case(ANT, "What does Eco mode do when nobody's home?",
      "Eco mode raises the target temperature by 2 °C when everyone is away.",
      ["*l/eco", "l/energy", "l/schedule"],
      [("raises the target temperature", C, "Eco mode lowers the target temperature")])

# ---- no_longer: the passage says the thing was discontinued / retired / withdrawn / removed / is no
#      longer offered; the answer says it is available now. All CONTRADICTED. ---------------------------
NOL = "no_longer"
_case(NOL, "Do I get an email address with my broadband?",
      "Yes, new Corvid broadband customers get an @corvid.net email address.",
      ["*c/email", "c/install", "c/landline"],
      [("@corvid.net", C, "no new @corvid.net addresses; Corvid Mail discontinued")])
_case(NOL, "Can I add the Evening and Weekend calls bundle to my phone line?",
      "You can add the Evening and Weekend call bundle to your Corvid account.",
      ["*c/landline", "c/pricing"],
      [("Evening and Weekend", C, "the bundle was withdrawn and can no longer be added")])
_case(NOL, "Can I get Corvid TV with Fibre 500?",
      "Corvid TV can be added to any broadband plan, including Fibre 500.",
      ["*c/tv", "c/speeds", "c/pricing"],
      [("Corvid TV can be added", C, "Corvid TV was discontinued in May 2025")])
_case(NOL, "Do we get paid sabbaticals?",
      "Halden & Moss offers paid sabbaticals to long-serving employees.",
      ["*h/sabbatical", "h/leave", "h/flex"],
      [("paid sabbaticals", C, "paid sabbaticals were discontinued in 2024")])
_case(NOL, "I'm starting next month. Can I get a company car?",
      "New joiners can apply for a car through the company car scheme.",
      ["*h/car", "h/bike", "h/wellbeing"],
      [("company car scheme", C, "the scheme closed to new applicants in March 2025")])
_case(NOL, "Is there a gym discount for employees?",
      "Employees get a subsidised FitLife gym membership.",
      ["*h/wellbeing", "h/health"],
      [("FitLife", C, "the FitLife membership ended on 31 December 2025")])
_case(NOL, "Is there petty cash in the office for small purchases?",
      "Each Orbis office keeps a petty cash float for small purchases.",
      ["*o/petty", "o/card", "o/gifts"],
      [("petty cash float", C, "petty cash floats were withdrawn in 2025")])
_case(NOL, "Can I hand in a paper expense form instead of using the app?",
      "You can submit your expenses on a paper form if you prefer.",
      ["*o/petty", "o/claims"],
      [("paper form", C, "paper expense forms are no longer accepted")])
_case(NOL, "Which agency do we book business flights through?",
      "Business trips are booked through Horizon Travel.",
      ["*o/booking", "o/travel", "o/meals"],
      [("Horizon Travel", C, "Orbis stopped using Horizon on 1 July 2026")])
_case(NOL, "Can I get an interest-only mortgage with you?",
      "New customers can take out an interest-only mortgage with Pennant.",
      ["*b/mortgage", "b/overdraft"],
      [("interest-only mortgage", C, "no longer offered to new customers")])
_case(NOL, "How do I order a new chequebook?",
      "You can order a new chequebook from Pennant in the app.",
      ["*b/cheques", "b/lost", "b/app"],
      [("new chequebook", C, "Pennant stopped issuing chequebooks in 2023")])
_case(NOL, "Will the app work on my old phone? It runs Android 9.",
      "The Pennant app can be installed on phones running Android 9.",
      ["*b/app", "b/lost"],
      [("Android 9", C, "support for Android 9 ended in June 2026")])
_case(NOL, "Is anything still calling the v1 reporting API?",
      "The v1 reporting API still serves part of the production reporting traffic.",
      ["*s/legacy", "s/deploy"],
      [("v1 reporting API", C, "decommissioned; no longer receives traffic")])
_case(NOL, "Where do our CI builds run?",
      "CI builds run on the Jenkins server.",
      ["*s/ci", "s/deploy", "s/migrations"],
      [("Jenkins", C, "Jenkins is no longer used; server shut down in January 2026")])
_case(NOL, "Can I authenticate to the API with my username and password?",
      "Yes, the API accepts basic authentication with your username and password.",
      ["*d/auth", "d/rate", "d/sso"],
      [("basic authentication", C, "no longer supported as of API version 2024-06")])
_case(NOL, "How do I export a chart to Excel?",
      "Charts can be exported to Excel (.xlsx) from the Share menu.",
      ["*d/export", "d/pricing"],
      [("Excel", C, "Excel export was removed in release 5.2")])
_case(NOL, "I'm on CLI 5.1. How do I push my project?",
      "With CLI 5.1, you can upload your project using `tessera push`.",
      ["*d/cli", "d/ingest"],
      [("tessera push", C, "removed in CLI 5.0")])
_case(NOL, "Can alerts be sent to our Teams channel?",
      "Alerts can send notifications to Microsoft Teams channels.",
      ["*d/alerts", "d/webhooks", "d/collector"],
      [("Microsoft Teams", C, "Teams notifications are no longer supported")])
_case(NOL, "Does my old T1 still get updates?",
      "The Lumen T1 continues to receive firmware updates.",
      ["*l/firmware", "l/compat"],
      [("T1 continues", C, "the T1 stopped receiving updates in March 2026")])
_case(NOL, "Can I hook my thermostat up to IFTTT?",
      "You can control your Lumen thermostat with IFTTT applets.",
      ["*l/integrations", "l/schedule"],
      [("IFTTT", C, "the IFTTT integration was retired on 30 April 2026")])

# ---- dropped_condition: the passage grants the key content only if / unless / only when / provided /
#      subject to approval / on request / "may request"; the answer states it unconditionally.
#      NOT_SUPPORTED where the passage also says what happens otherwise (contradiction is defensible),
#      NOT_ENOUGH_INFO where the passage only weakens the claim (may request, at discretion). -----------
DC = "dropped_condition"
_case(DC, "Is installation free?",
      "Corvid installs your fibre connection free of charge.",
      ["*c/install", "c/pricing", "c/moving"],
      [("free of charge", X, "free only on a 24-month contract; 12-month contracts pay £60")])
_case(DC, "What compensation do I get when my internet goes down?",
      "Corvid credits your account with £9.33 for every day your broadband is down.",
      ["*c/outage", "c/business", "c/wifi_guarantee"],
      [("£9.33", X, "only once the loss of service lasts more than 48 hours")])
_case(DC, "I'm moving house next month. Can I leave without the early termination fee?",
      "When you move house, you can end your Corvid contract without an early termination fee.",
      ["*c/moving", "c/cancel"],
      [("without an early termination fee", X, "only if the network does not reach the new address")])
_case(DC, "How much paid leave do birth parents get?",
      "Birth parents get 26 weeks of fully paid parental leave.",
      ["*h/parental", "h/leave", "h/sick"],
      [("26 weeks", X, "only once they have completed six months of service")])
_case(DC, "Can I work from Spain for a few weeks this summer?",
      "You can work from another country for up to 20 working days a year.",
      ["*h/remote", "h/leave"],
      [("20 working days", X, "must be approved in advance by HR and Tax")])
_case(DC, "Can I take a sabbatical?",
      "Employees can take an unpaid sabbatical of up to three months.",
      ["*h/sabbatical", "h/flex", "h/leave"],
      [("unpaid sabbatical", X, "needs seven years of service; a request approved subject to business needs")])
_case(DC, "Do new joiners get a car allowance?",
      "New joiners receive a car allowance of £450 a month.",
      ["*h/car", "h/remote"],
      [("£450", X, "only if their role requires regular travel")])
_case(DC, "I've been here for 14 months. Can I move to a four-day week?",
      "With 12 months of service, you can move to a compressed four-day week.",
      ["*h/flex", "h/leave", "h/overtime"],
      [("compressed four-day week", N, "employees may request it; approval is at the manager's discretion")])
_case(DC, "Can I fly business class to Singapore next month?",
      "Business class can be booked for flights longer than six hours.",
      ["*o/travel", "o/booking", "o/meals"],
      [("Business class", X, "only with prior approval from a director")])
_case(DC, "How many quotes do I need before buying something?",
      "Purchases need three competitive quotes.",
      ["*o/procurement", "o/invoices"],
      [("three competitive quotes", X, "only purchases above £10,000")])
_case(DC, "Will Orbis pay for my move to the Manchester office?",
      "Orbis covers up to £8,000 of removal costs when you relocate.",
      ["*o/relocation", "o/mileage", "o/travel"],
      [("£8,000", X, "only when you move at the company's request")])
_case(DC, "Will Orbis pay for the wine at a client dinner?",
      "Alcohol at client dinners is reimbursed by Orbis.",
      ["*o/meals", "o/gifts"],
      [("Alcohol at client dinners", X, "only at client events approved in advance by a director")])
_case(DC, "How do I get an overdraft?",
      "You can get an arranged overdraft just by asking for one in the app.",
      ["*b/overdraft", "b/student", "b/fees"],
      [("arranged overdraft", X, "subject to a credit check")])
_case(DC, "Is it free to take cash out abroad with my Pennant card?",
      "Cash withdrawals abroad with a Pennant debit card are free.",
      ["*b/abroad", "b/fees", "b/premier"],
      [("Cash withdrawals abroad", X, "free only up to £200 a month, then 2%")])
_case(DC, "What rate does the Bonus Saver pay?",
      "The Bonus Saver pays 4.50% AER.",
      ["*b/bonus", "b/savings"],
      [("4.50%", X, "only in months without withdrawals; 1.50% otherwise")])
_case(DC, "Can we push a hotfix to prod on Saturday?",
      "Hotfixes can be deployed to production over the weekend.",
      ["*s/deploy", "s/incident", "s/migrations"],
      [("Hotfixes", X, "only if the incident commander approves")])
_case(DC, "Do our public TLS certificates need renewing by hand?",
      "Public TLS certificates have to be renewed by hand.",
      ["*s/certs", "s/ci"],
      [("renewed by hand", X, "renewed automatically; manual renewal only if the alert fires")])
_case(DC, "Do schema migrations run automatically when we deploy?",
      "Schema migrations run automatically during a deploy.",
      ["*s/migrations", "s/deploy"],
      [("Schema migrations run automatically", X, "only migrations marked as online")])
_case(DC, "Does the Scale plan include SCIM?",
      "SCIM user provisioning is included with the Scale plan.",
      ["*d/sso", "d/pricing"],
      [("SCIM", X, "on Scale only with the Identity add-on")])
_case(DC, "Does the JavaScript SDK collect IP addresses?",
      "No, the JavaScript SDK does not collect IP addresses.",
      ["*d/sdk", "d/residency"],
      [("does not collect IP addresses", X, "only when anonymizeIp is set to true")])
_case(DC, "How long is the warranty on the T3?",
      "The Lumen T3 comes with a five-year warranty.",
      ["*l/warranty", "l/returns", "l/care"],
      [("five-year warranty", X, "two years; five only if installed by a Lumen Certified Installer")])
_case(DC, "How much temperature history does the app keep?",
      "The Lumen app keeps 12 months of temperature history.",
      ["*l/care", "l/schedule"],
      [("12 months", X, "only with Lumen Care; 10 days without")])

# ---- dropped_scope: the passage restricts the content to some subjects (employees in Germany, the
#      Scale plan, Business customers, SEV1/SEV2, ...); the answer generalises to everyone. --------------
DS = "dropped_scope"
_case(DS, "How many days of annual leave do we get?",
      "Employees receive 30 days of annual leave a year.",
      ["*h/leave", "h/closure", "h/parental"],
      [("30 days", X, "30 days only in Germany; UK 25, US 15-20")])
_case(DS, "From which day of sickness do I need a doctor's note?",
      "You need a doctor's certificate from the fourth day of sickness.",
      ["*h/sick", "h/remote"],
      [("fourth day", X, "fourth day in Germany; eighth day in the UK")])
_case(DS, "What's my notice period once I've passed probation?",
      "After probation, the notice period is three months.",
      ["*h/probation", "h/sick"],
      [("three months", X, "three months only for people managers; one month for individual contributors")])
_case(DS, "Can I get a bike through work?",
      "Employees can buy a bike worth up to £2,500 through the cycle-to-work scheme.",
      ["*h/bike", "h/car", "h/wellbeing"],
      [("£2,500", X, "UK employees only")])
_case(DS, "Does the company match what I put into my pension?",
      "Halden & Moss matches employees' pension contributions up to 6% of base salary.",
      ["*h/pension", "h/bike"],
      [("6% of base salary", N, "stated for the UK only; other countries not covered")])
_case(DS, "How much annual leave do US employees get?",
      "US employees get 20 days of annual leave a year.",
      ["*h/leave", "h/parental"],
      [("20 days", X, "15 days; 20 only after five years of service")])
_case(DS, "How quickly does Orbis pay supplier invoices?",
      "Orbis pays supplier invoices within 10 days.",
      ["*o/invoices", "o/claims"],
      [("within 10 days", X, "10 days only for Fair Pay small suppliers; otherwise 30-day terms")])
_case(DS, "Who gets a corporate card?",
      "Every Orbis employee is issued a corporate card.",
      ["*o/card", "o/petty"],
      [("corporate card", X, "only employees who travel at least four times a year")])
_case(DS, "What's the nightly hotel limit?",
      "Hotel rates are capped at £180 per night.",
      ["*o/travel", "o/booking", "o/meals"],
      [("£180", X, "£180 in London; £120 elsewhere in the UK")])
_case(DS, "Do Pennant current accounts come with an interest-free overdraft?",
      "Pennant current accounts come with an interest-free overdraft of up to £2,000.",
      ["*b/student", "b/overdraft", "b/fees"],
      [("interest-free overdraft", X, "only the Student account")])
_case(DS, "Does my Pennant account include travel insurance?",
      "Pennant current account customers get worldwide family travel insurance.",
      ["*b/premier", "b/abroad", "b/fees"],
      [("travel insurance", X, "Premier customers only")])
_case(DS, "Can you unblock port 25 for me?",
      "Corvid will unblock port 25 on request.",
      ["*c/static_ip", "c/router"],
      [("unblock port 25", X, "Corvid Business customers only")])
_case(DS, "Do I get the Wi-Fi Guarantee?",
      "The Wi-Fi Guarantee is included with every Corvid plan.",
      ["*c/wifi_guarantee", "c/router", "c/speeds"],
      [("every Corvid plan", X, "included with Fibre 900; an add-on for the others")])
_case(DS, "How quickly do you fix a total outage?",
      "Corvid aims to fix a total loss of service within four hours.",
      ["*c/business", "c/outage"],
      [("within four hours", X, "Business customers; residential within 2 working days")])
_case(DS, "How long do topics on the events cluster keep data?",
      "Topics on the events cluster keep data for 30 days.",
      ["*s/kafka", "s/kafka_logs"],
      [("30 days", X, "only audit- topics; the default is 7 days")])
_case(DS, "Will the admission controller let a pod that runs as root in?",
      "The admission controller lets pods that run as root into the production cluster.",
      ["*s/k8s", "s/deploy"],
      [("run as root", X, "only in the kube-system namespace")])
_case(DS, "Do all incidents need a postmortem?",
      "Every incident gets a blameless postmortem within five working days.",
      ["*s/incident", "s/oncall"],
      [("Every incident", X, "SEV1 and SEV2 only")])
_case(DS, "What's the API rate limit per key?",
      "The REST API allows 3,000 requests per minute per API key.",
      ["*d/rate", "d/webhooks", "d/ingest"],
      [("3,000", X, "Scale plan; 600 on Growth")])
_case(DS, "Can I schedule dashboard exports by email?",
      "You can schedule dashboard exports to be emailed to your team.",
      ["*d/export", "d/alerts"],
      [("schedule dashboard exports", X, "requires the Scale plan")])
_case(DS, "How long do you keep raw events?",
      "Tessera keeps raw events for 25 months.",
      ["*d/retention", "d/ingest"],
      [("25 months", X, "25 months on Scale; 13 on Growth")])
_case(DS, "Is SAML single sign-on available?",
      "SAML single sign-on is available on all Tessera plans.",
      ["*d/sso", "d/auth"],
      [("all Tessera plans", X, "Scale plan only")])
_case(DS, "I bought my T3 at a hardware store. Can I send it back to Lumen within 30 days?",
      "Any Lumen thermostat can be returned to Lumen within 30 days for a full refund.",
      ["*l/returns", "l/warranty"],
      [("within 30 days", X, "only devices bought from the Lumen online store")])

# ---- wrong_arithmetic: the answer derives a number from passage numbers by one operation and gets it
#      wrong. `contains` is the derived number, which is in no passage. All CONTRADICTED. ------------------
WA = "wrong_arithmetic"
_case(WA, "How much faster is Fibre 500's upload than Fibre 150's?",
      "Fibre 500 uploads 55 Mbps faster than Fibre 150.",
      ["*c/speeds", "c/pricing"],
      [("55 Mbps", C, "75 - 30 = 45 Mbps")])
_case(WA, "What's the price difference between Fibre 150 and Fibre 500?",
      "On a 24-month contract, Fibre 500 costs £6 a month more than Fibre 150.",
      ["*c/pricing", "c/speeds", "c/install"],
      [("£6 a month more", C, "36 - 28 = £8")])
_case(WA, "How often is the status page updated during an outage?",
      "During a major incident, the status page is updated four times an hour.",
      ["*c/outage", "c/business"],
      [("four times an hour", C, "every 30 minutes = twice an hour")])
_case(WA, "How much more leave do US staff get after five years?",
      "After five years of service, US employees get 25% more annual leave than before.",
      ["*h/leave", "h/closure"],
      [("25% more", C, "20 / 15 = +33%")])
_case(WA, "What's the most the company would match on a £45,000 salary?",
      "For a UK employee on £45,000, the maximum company pension match is £2,900 a year.",
      ["*h/pension", "h/bike"],
      [("£2,900", C, "6% of 45,000 = £2,700")])
_case(WA, "How long does full sick pay last?",
      "Full sick pay lasts for up to 90 days in any rolling 12-month period.",
      ["*h/sick", "h/parental"],
      [("90 days", C, "12 weeks = 84 days")])
_case(WA, "How many days of paid leave do partners get when a baby arrives?",
      "Partners get 35 days of fully paid parental leave.",
      ["*h/parental", "h/leave"],
      [("35 days", C, "6 weeks = 42 days")])
_case(WA, "How much higher is the London hotel cap than the rest of the UK?",
      "The London hotel cap is 40% higher than the cap elsewhere in the UK.",
      ["*o/travel", "o/meals"],
      [("40% higher", C, "180 / 120 = +50%")])
_case(WA, "What will I be paid for a 300-mile trip in my own car?",
      "A 300-mile business journey in your own car is reimbursed at £145.",
      ["*o/mileage", "o/travel"],
      [("£145", C, "300 x 45p = £135")])
_case(WA, "By how much was the engineering budget cut this year?",
      "The engineering budget was cut by £0.8 million for 2026.",
      ["*o/budget", "o/procurement"],
      [("£0.8 million", C, "12.4 - 11.8 = £0.6 million")])
_case(WA, "How much interest would £10,000 earn in the Easy Saver?",
      "A £10,000 balance in the Easy Saver earns about £410 in interest over a year.",
      ["*b/savings", "b/bonus"],
      [("£410", C, "3.10% of 10,000 = £310")])
_case(WA, "What's the fee for paying £1,000 in cash into Business Plus?",
      "Paying £1,000 in cash into a Business Plus account costs £50.",
      ["*b/business", "b/fees"],
      [("costs £50", C, "0.5% of 1,000 = £5")])
_case(WA, "How much can I pay into my ISA each month if I spread it out?",
      "The Cash ISA allowance works out at £1,500 a month.",
      ["*b/isa", "b/savings"],
      [("£1,500 a month", C, "20,000 / 12 = £1,667")])
_case(WA, "What's the fee on a £500 cash withdrawal abroad once I've used my free allowance?",
      "Once the free allowance is used up, a £500 cash withdrawal abroad costs £12 in fees.",
      ["*b/abroad", "b/premier"],
      [("£12", C, "2% of 500 = £10")])
_case(WA, "How long is the weekend deploy freeze?",
      "The weekend deploy freeze lasts 60 hours.",
      ["*s/deploy", "s/oncall"],
      [("60 hours", C, "Friday 18:00 to Monday 08:00 = 62 hours")])
_case(WA, "How long are the Postgres snapshots kept?",
      "Postgres snapshots are kept for six weeks.",
      ["*s/backups", "s/failover"],
      [("six weeks", C, "35 days = 5 weeks")])
_case(WA, "How many checkout pods do we need to handle last November's peak?",
      "At 400 requests per second per pod, the 4,800 requests-per-second peak needs 16 pods.",
      ["*s/capacity", "s/k8s"],
      [("16 pods", C, "4,800 / 400 = 12 pods")])
_case(WA, "How much longer do audit topics keep data than other topics?",
      "Audit topics keep data three times as long as other topics on the events cluster.",
      ["*s/kafka", "s/kafka_logs"],
      [("three times as long", C, "30 / 7 = 4.3 times")])
_case(WA, "How do the Growth and Scale rate limits compare?",
      "The Scale plan allows four times as many API requests per minute as Growth.",
      ["*d/rate", "d/pricing"],
      [("four times as many", C, "3,000 / 600 = 5 times")])
_case(WA, "How much more does Scale cost than Growth per month?",
      "The Scale plan costs $1,250 a month more than Growth.",
      ["*d/pricing", "d/rate"],
      [("$1,250", C, "1,800 - 450 = $1,350")])
_case(WA, "How much energy did homes save in your study?",
      "The average home in the study saved 1,925 kWh of heating energy a year.",
      ["*l/energy", "l/eco"],
      [("1,925 kWh", C, "11,500 - 9,775 = 1,725 kWh")])
_case(WA, "How much does Lumen Care cost over a year if I pay monthly?",
      "Paid monthly, Lumen Care comes to $69.88 a year.",
      ["*l/care", "l/warranty"],
      [("$69.88", C, "12 x 4.99 = $59.88")])

# ---- right_arithmetic: the same kind of one-step derivation, done right. `contains` is the derived
#      number, which is in no passage. All SUPPORTED. -------------------------------------------------------
RA = "right_arithmetic"
_case(RA, "How does Fibre 900 compare with Fibre 150 for downloads?",
      "Fibre 900's average download speed is six times that of Fibre 150.",
      ["*c/speeds", "c/wifi_guarantee"],
      [("six times", S, "900 / 150 = 6")])
_case(RA, "What does Fibre 900 cost for a year?",
      "At today's price, a year of Fibre 900 on a 24-month contract costs £588.",
      ["*c/pricing", "c/speeds"],
      [("£588", S, "12 x £49")])
_case(RA, "How far ahead do I need to book my move?",
      "Home moves need to be booked at least two weeks before moving day.",
      ["*c/moving", "c/install"],
      [("two weeks", S, "14 days")])
_case(RA, "How much does Anytime Calls cost over a year?",
      "Anytime Calls costs £96 a year.",
      ["*c/landline", "c/pricing"],
      [("£96", S, "12 x £8")])
_case(RA, "How do the German and UK leave allowances compare?",
      "Employees in Germany get 20% more annual leave than employees in the UK.",
      ["*h/leave", "h/closure"],
      [("20% more", S, "30 / 25 = +20%")])
_case(RA, "How many days of paid leave do partners get when a baby arrives?",
      "Partners receive 42 days of fully paid leave.",
      ["*h/parental", "h/leave"],
      [("42 days", S, "6 weeks x 7")])
_case(RA, "What's the most the company will put in my pension? I'm in London on £50,000.",
      "For a UK employee on a £50,000 base salary, the company matches up to £3,000 a year.",
      ["*h/pension", "h/bike"],
      [("£3,000", S, "6% of 50,000")])
_case(RA, "How long can probation last at most?",
      "With the one allowed extension, probation can last up to nine months.",
      ["*h/probation", "h/remote"],
      [("nine months", S, "6 + 3")])
_case(RA, "How much extra is public-holiday overtime compared with normal overtime?",
      "Public-holiday overtime pays about 33% more per hour than ordinary overtime.",
      ["*h/overtime", "h/closure"],
      [("33% more", S, "2 / 1.5 = +33%")])
_case(RA, "How much more can I spend on a hotel in London?",
      "The London hotel cap is £60 a night higher than elsewhere in the UK.",
      ["*o/travel", "o/meals"],
      [("£60 a night higher", S, "180 - 120")])
_case(RA, "What's my meal allowance for a three-day trip?",
      "For a three-day trip you can claim up to £135 for meals.",
      ["*o/meals", "o/travel"],
      [("£135", S, "3 x £45")])
_case(RA, "What would I be paid for a 120-mile trip in my own car?",
      "A 120-mile business journey in your own car is reimbursed at £54.",
      ["*o/mileage", "o/relocation"],
      [("£54", S, "120 x 45p")])
_case(RA, "How much did the marketing budget grow?",
      "The marketing budget grew by 20% from 2025 to 2026.",
      ["*o/budget", "o/procurement"],
      [("20%", S, "4.2 / 3.5 = +20%")])
_case(RA, "How much more does the 95-Day Saver pay than the Easy Saver?",
      "The 95-Day Saver pays 0.95 percentage points more than the Easy Saver.",
      ["*b/savings", "b/bonus"],
      [("0.95 percentage points", S, "4.05 - 3.10")])
_case(RA, "How much could a first-time buyer borrow on a £300,000 flat?",
      "On a £300,000 home, a first-time buyer can borrow up to £285,000.",
      ["*b/mortgage", "b/student"],
      [("£285,000", S, "95% of 300,000")])
_case(RA, "What does Business Plus cost for a year?",
      "The Business Plus account costs £108 a year.",
      ["*b/business", "b/fees"],
      [("£108", S, "12 x £9")])
_case(RA, "How much lower is the Bonus Saver rate in a month when I withdraw?",
      "In a month with a withdrawal, the Bonus Saver pays 3 percentage points less.",
      ["*b/bonus", "b/savings"],
      [("3 percentage points less", S, "4.50 - 1.50")])
_case(RA, "How long are internal service certificates valid?",
      "Internal service certificates are valid for three days.",
      ["*s/certs", "s/ci"],
      [("three days", S, "72 hours")])
_case(RA, "How much did checkout peak traffic grow?",
      "Peak checkout traffic grew by 50% compared with the year before.",
      ["*s/capacity", "s/k8s"],
      [("50%", S, "4,800 / 3,200 = +50%")])
_case(RA, "How long does the canary stage last?",
      "The canary takes 5% of traffic for 600 seconds before the full rollout.",
      ["*s/deploy", "s/migrations"],
      [("600 seconds", S, "10 minutes")])
_case(RA, "What's the Growth rate limit per second?",
      "On the Growth plan, each API key can make 10 requests per second.",
      ["*d/rate", "d/webhooks"],
      [("10 requests per second", S, "600 per minute / 60")])
_case(RA, "How much is Growth per month if I pay annually?",
      "Paid annually, the Growth plan works out at $382.50 a month.",
      ["*d/pricing", "d/rate"],
      [("$382.50", S, "450 x 0.85")])
_case(RA, "How much longer does Scale keep raw events?",
      "The Scale plan keeps raw events 12 months longer than Growth.",
      ["*d/retention", "d/pricing"],
      [("12 months longer", S, "25 - 13")])
_case(RA, "How old can events be when I send them?",
      "The ingestion endpoint accepts events with timestamps up to 168 hours in the past.",
      ["*d/ingest", "d/sdk"],
      [("168 hours", S, "7 days x 24")])
_case(RA, "How much energy did homes save in your study?",
      "Homes in the study used 15% less heating energy with the T3.",
      ["*l/energy", "l/eco"],
      [("15% less", S, "(11,500 - 9,775) / 11,500")])
_case(RA, "How much longer is the warranty if a certified installer fits it?",
      "Installation by a Lumen Certified Installer adds three years to the T3 warranty.",
      ["*l/warranty", "l/returns"],
      [("three years", S, "5 - 2")])

# ---- control_paraphrase: reworded answers that keep the polarity and any condition (often with the
#      negation expressed differently: "does not require a restart" -> "needs no restart"). SUPPORTED. -----
CP = "control_paraphrase"
_case(CP, "Can I use my own router instead of the Hub 3?",
      "You're free to use your own router, although Corvid support won't troubleshoot third-party equipment.",
      ["*c/router", "c/hub_firmware"],
      [("free to use your own router", S)])
_case(CP, "How do I get Digital Voice working?",
      "Digital Voice only works if your phone is plugged into the green port on the back of the Hub 3.",
      ["*c/landline", "c/router"],
      [("green port", S)])
_case(CP, "What compensation do I get when my internet goes down?",
      "Once your broadband has been completely down for over 48 hours, Corvid automatically credits £9.33 "
      "for each day until it's fixed.",
      ["*c/outage", "c/business"],
      [("over 48 hours", S)])
_case(CP, "Can I work from home while I'm on probation?",
      "Remote work isn't an option until you've finished your probation period.",
      ["*h/remote", "h/probation"],
      [("isn't an option", S)])
_case(CP, "Do partners need a minimum length of service to get parental leave?",
      "Partners get six weeks of full pay on parental leave no matter how long they've been with the company.",
      ["*h/parental", "h/leave"],
      [("no matter how long", S)])
_case(CP, "Do I get paid for overtime?",
      "If you're in grades A to C, overtime that your manager approved beforehand is paid at time and a half.",
      ["*h/overtime", "h/probation"],
      [("time and a half", S)])
_case(CP, "Who can take a sabbatical?",
      "After at least seven years of continuous service, you can ask for an unpaid sabbatical lasting up to "
      "three months.",
      ["*h/sabbatical", "h/flex"],
      [("seven years", S)])
_case(CP, "Do the days the office is shut over Christmas come out of my holiday?",
      "The days the office is closed over Christmas don't count against your annual leave.",
      ["*h/closure", "h/leave"],
      [("don't count against", S)])
_case(CP, "Is a referral bonus paid if I refer a former colleague who used to work here?",
      "Referring someone who previously worked for the company doesn't earn a referral bonus.",
      ["*h/referral", "h/probation"],
      [("doesn't earn a referral bonus", S)])
_case(CP, "Can I fly business class?",
      "Business class is allowed on flights over six hours, provided a director approves it beforehand.",
      ["*o/travel", "o/booking"],
      [("provided a director approves", S)])
_case(CP, "When do I get paid if the 25th is a Sunday?",
      "When the 25th falls on a weekend or bank holiday, salaries are paid on the working day before.",
      ["*o/payroll", "o/claims"],
      [("working day before", S)])
_case(CP, "Do I need to keep the paper receipt after I've scanned it?",
      "After you photograph a receipt in the Expensify app, you don't have to keep the paper original.",
      ["*o/petty", "o/meals"],
      [("don't have to keep", S)])
_case(CP, "Do I need to give notice to take money out of the Easy Saver?",
      "You don't need to give any notice before taking money out of the Easy Saver.",
      ["*b/savings", "b/bonus"],
      [("any notice", S)])
_case(CP, "Am I on the hook for fraudulent payments on my stolen card?",
      "Fraudulent payments made after you've reported your card lost aren't your responsibility.",
      ["*b/lost", "b/premier"],
      [("aren't your responsibility", S)])
_case(CP, "What rate does the Bonus Saver pay?",
      "As long as you make no withdrawals in a month, the Bonus Saver pays 4.50% AER for that month.",
      ["*b/bonus", "b/savings"],
      [("4.50% AER", S)])
_case(CP, "Does ledger-writer retry failed writes?",
      "A failed write is not retried by ledger-writer and goes to the ledger-dlq topic instead.",
      ["*s/ledger", "s/notify"],
      [("not retried by ledger-writer", S)])
_case(CP, "Does somebody have to trigger a Postgres failover?",
      "If the primary has been unreachable for 30 seconds, failover happens without anyone having to trigger "
      "it.",
      ["*s/failover", "s/oncall"],
      [("without anyone having to trigger", S)])
_case(CP, "Does the session cache write anything to disk?",
      "The session cache doesn't write its data to disk, since sessions can be recreated.",
      ["*s/redis", "s/kafka"],
      [("doesn't write its data to disk", S)])
_case(CP, "Do SEV3s need a status page update?",
      "SEV3 incidents don't require a status page update.",
      ["*s/incident", "s/lag"],
      [("don't require a status page update", S)])
_case(CP, "Do I need to renew our public certificates by hand?",
      "Unless the cert-manager-renewals alert fires, public certificates don't need to be renewed by hand.",
      ["*s/certs", "s/ci"],
      [("don't need to be renewed by hand", S)])
_case(CP, "Does changing an alert threshold need a collector restart?",
      "Updating an alert threshold needs no collector restart.",
      ["*d/collector", "d/alerts"],
      [("needs no collector restart", S)])
_case(CP, "Can I stop the SDK from collecting IP addresses?",
      "If you set `anonymizeIp` to true, the SDK stops collecting IP addresses.",
      ["*d/sdk", "d/residency"],
      [("stops collecting IP addresses", S)])
_case(CP, "Do API keys expire?",
      "API keys never expire on their own, although you can revoke them whenever you like.",
      ["*d/auth", "d/rate"],
      [("never expire on their own", S)])
_case(CP, "What do I need for geofencing to work?",
      "For geofencing to work, the Lumen app must be allowed to access your location at all times.",
      ["*l/eco", "l/integrations"],
      [("at all times", S)])

# ---- control_double_negation: the passage's positive or negative statement said with the opposite
#      construction ("not uncommon", "cannot be turned off" -> "always on", "no one is exempt",
#      "no limit" -> "unlimited", "never fewer than"). SUPPORTED. -------------------------------------------
DN = "control_double_negation"
_case(DN, "My Wi-Fi dropped for a couple of minutes at 3 a.m. Is that normal?",
      "It's not unusual for the Wi-Fi to drop for a few minutes while the Hub 3 installs an update.",
      ["*c/hub_firmware", "c/router", "c/outage"],
      [("not unusual", S)])
_case(DN, "Can I turn off automatic updates on the Hub 3?",
      "Automatic firmware updates on the Hub 3 are always on.",
      ["*c/hub_firmware", "c/router"],
      [("always on", S, "passage: cannot be switched off")])
_case(DN, "Do directors have to do the security training too?",
      "No one is exempt from the annual security awareness training, directors included.",
      ["*h/security", "h/learning"],
      [("No one is exempt", S)])
_case(DN, "Is laptop encryption optional?",
      "Laptop encryption is not optional.",
      ["*h/security", "h/remote"],
      [("not optional", S, "passage: mandatory")])
_case(DN, "Can a guest come in without being signed in?",
      "No guest may be in the office without being signed in at reception.",
      ["*h/office", "h/security"],
      [("No guest may be", S)])
_case(DN, "Can we record a meeting in the office?",
      "A meeting can't be recorded without the agreement of every participant.",
      ["*h/office", "h/remote"],
      [("can't be recorded without", S, "passage: not recorded unless every participant agrees")])
_case(DN, "Can a manager get a referral bonus for someone joining their own team?",
      "No manager can receive a referral bonus for a hire into their own team.",
      ["*h/referral", "h/probation"],
      [("No manager can receive", S)])
_case(DN, "Do I need a receipt for a small meal claim?",
      "No meal claim is paid without a receipt, however small the amount.",
      ["*o/meals", "o/petty"],
      [("without a receipt", S, "passage: a receipt is required for every meal claim")])
_case(DN, "Does cheap software need a security review?",
      "No software purchase is exempt from the security review, whatever its value.",
      ["*o/procurement", "o/invoices"],
      [("No software purchase is exempt", S)])
_case(DN, "Can I accept a small gift card from a supplier?",
      "Gift cards from suppliers are never acceptable, not even low-value ones.",
      ["*o/gifts", "o/card"],
      [("never acceptable", S)])
_case(DN, "Do both of us need to approve payments from our joint account?",
      "Neither joint account holder needs the other's approval to make a payment.",
      ["*b/joint", "b/overdraft"],
      [("Neither joint account holder", S, "passage: either holder can pay without the other's approval")])
_case(DN, "Is there a limit on Easy Saver withdrawals?",
      "Easy Saver withdrawals are unlimited.",
      ["*b/savings", "b/bonus"],
      [("unlimited", S, "passage: there is no limit on withdrawals")])
_case(DN, "Would Pennant ever ask for my app passcode?",
      "Nobody from Pennant will ever ask you for your app passcode.",
      ["*b/lost", "b/app"],
      [("Nobody from Pennant", S)])
_case(DN, "Can I delete the payments kill switch now that it's been rolled out for months?",
      "Kill switches always stay in the code.",
      ["*s/flags", "s/deploy"],
      [("always stay in the code", S, "passage: kill switches must never be removed")])
_case(DN, "Should I worry about the consumer lag spike at 1 a.m.?",
      "It's not uncommon for consumer lag to spike during the nightly batch import, and those spikes need no "
      "action.",
      ["*s/lag", "s/kafka"],
      [("not uncommon", S), ("need no action", S)])
_case(DN, "Can the checkout service scale below 8 pods?",
      "The checkout service never runs with fewer than 8 pods.",
      ["*s/capacity", "s/k8s"],
      [("never runs with fewer than 8 pods", S, "passage: the HPA keeps at least 8 pods")])
_case(DN, "Can admins turn off MFA?",
      "Multi-factor authentication is always enforced for every user.",
      ["*d/sso", "d/auth"],
      [("always enforced", S, "passage: required on every plan and cannot be turned off")])
_case(DN, "Are retention reports sampled?",
      "Retention reports are never computed on sampled data.",
      ["*d/sampling", "d/retention"],
      [("never computed on sampled data", S, "passage: always computed on unsampled data")])
_case(DN, "Do aggregated metrics ever get deleted?",
      "Aggregated metrics are never deleted, whatever plan you're on.",
      ["*d/retention", "d/export"],
      [("never deleted", S, "passage: kept indefinitely on all plans")])
_case(DN, "Does our event data ever leave the EU if we host in Frankfurt?",
      "Event data from an EU-hosted project always stays inside the EU.",
      ["*d/residency", "d/sdk"],
      [("always stays inside the EU", S, "passage: never leaves the EU")])
_case(DN, "How many alerts can a project have?",
      "A project can't have more than 50 active alerts.",
      ["*d/alerts", "d/collector"],
      [("can't have more than 50", S, "passage: up to 50 active alerts")])
_case(DN, "Can I turn off automatic firmware updates on my thermostat?",
      "Automatic firmware updates are always on, though an update can be postponed for up to a week.",
      ["*l/firmware", "l/integrations"],
      [("always on", S, "passage: cannot be turned off; postpone up to 7 days")])

# --------------------------------------------------------------------------------------------------
# Assembly: ids, retriever scores, timestamps (all derived deterministically from the case number)
# --------------------------------------------------------------------------------------------------

START = datetime(2026, 11, 16, 7, 41, 5, tzinfo=timezone.utc)


def _h(*parts) -> int:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest(), 16)


def _scores(request_id: str, n: int) -> list[float]:
    top = 0.70 + (_h(request_id, "top") % 26) / 100
    out = [top]
    for i in range(1, n):
        out.append(max(0.05, out[-1] - 0.02 - (_h(request_id, i) % 15) / 100))
    return [round(s, 3) for s in out]


def _kb_id(key: str) -> str:
    tenant = TENANTS[TENANT_OF[key[0]]]
    same = [k for k in KB if k[0] == key[0]]
    return f"{tenant['prefix']}-{101 + same.index(key):04d}"


def _split(keys: list[str]) -> tuple[list[str], list[str]]:
    plain = [k.lstrip("*") for k in keys]
    gold = [k.lstrip("*") for k in keys if k.startswith("*")]
    return plain, gold


def build_response(i: int, case: dict, when: datetime) -> dict:
    request_id = f"gp-{i:03d}"
    keys, gold = _split(case["p"])
    tenant_key = TENANT_OF[keys[0][0]]
    assert all(TENANT_OF[k[0]] == tenant_key for k in keys), (request_id, keys)
    assert len(gold) == 1 and 2 <= len(keys) <= 4 and len(set(keys)) == len(keys), request_id
    tenant = TENANTS[tenant_key]
    if tenant["id_style"] == "p":
        ids = {k: f"p{n + 1}" for n, k in enumerate(keys)}
    elif tenant["id_style"] == "int":
        ids = {k: n + 1 for n, k in enumerate(keys)}
    else:
        ids = {k: _kb_id(k) for k in keys}
    passages = [dict(id=ids[k], text=KB[k]["text"], score=s, doc_id=KB[k]["doc_id"], title=KB[k]["title"],
                     updated_at=KB[k]["updated_at"]) for k, s in zip(keys, _scores(request_id, len(keys)))]
    return dict(schema=SCHEMA, request_id=request_id, timestamp=when.isoformat().replace("+00:00", "Z"),
                question=case["q"], answer=case["a"], passages=passages,
                gold_passage_ids=[str(ids[k]) for k in gold],
                metadata=dict(app=tenant["app"], model=tenant["model"], retriever=tenant["retriever"],
                              tenant=tenant["tenant"]))


def build_expected(i: int, case: dict) -> dict:
    claims = []
    for contains, expected, *note in case["x"]:
        item = dict(contains=contains, expected=expected)
        if note:
            item["note"] = note[0]
        claims.append(item)
    return dict(request_id=f"gp-{i:03d}", case=case["case"], claims=claims,
                all_supported=all(c["expected"] == S for c in claims))


def build_files() -> tuple[dict[str, str], list[dict], list[dict]]:
    responses, expected = [], []
    when = START
    for i, case in enumerate(CASES, start=1):
        responses.append(build_response(i, case, when))
        expected.append(build_expected(i, case))
        when += timedelta(minutes=9 + _h("gap", i) % 41, seconds=_h("sec", i) % 60)

    def text(records: list[dict]) -> str:
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)

    return {"responses.jsonl": text(responses), "expected.jsonl": text(expected)}, responses, expected


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print claims and expectations per response")
    args = parser.parse_args(argv)
    files, responses, expected = build_files()
    for name, content in files.items():
        (HERE / name).write_text(content, encoding="utf-8")
    counts = Counter(e["case"] for e in expected)
    print(f"wrote {len(responses)} responses ({responses[0]['timestamp']} .. {responses[-1]['timestamp']}) "
          f"to {HERE}: " + ", ".join(f"{f} {counts[f]}" for f in FAMILIES))
    if args.show:
        _show(responses, expected)


def _show(responses: list[dict], expected: list[dict]) -> None:
    """Claims as the scorer's splitter makes them, next to the expectations (needs the repo on sys.path)."""
    import sys

    sys.path.insert(0, str(HERE.parents[1]))
    from groundwatch.scorers.answer.claims import decompose

    for r, e in zip(responses, expected):
        claims = decompose(r["answer"])
        print(f"\n{r['request_id']} [{e['case']}] {r['answer']}")
        for c in claims:
            hits = [x["expected"] for x in e["claims"] if x["contains"].lower() in c.text.lower()]
            print(f"   {c.text!r:110} {','.join(hits) or '-- no expectation --'}")
        for x in e["claims"]:
            n = sum(x["contains"].lower() in c.text.lower() for c in claims)
            if n != 1:
                print(f"   !! {x['contains']!r} found in {n} claims")


if __name__ == "__main__":
    main()
