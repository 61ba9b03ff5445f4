"""Write the constructed audit corpora and their ground truth (deterministic; no randomness).

    python tests/data/corpora/make_corpora.py

clean      20 help-center articles of a fictional note-taking product, consistent with each
           other: agreeing restatements, parallel facts about different plans, scoped facts.
conflicts  clean + injected cross-document conflicts: dated copies with changed values
           (superseded versions, one where the copy is the newer), a contradicting date in
           another article, and a contradiction in other words (only NLI can see it).
degraded   clean with damage: an empty article, a stub, one cut mid-sentence, a paragraph
           repeated inside an article, a paragraph pasted into another article.
mixed      clean + some of each.
Each corpus NAME.jsonl has NAME.truth.json listing what was injected.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = "help-center"

CLEAN = [
    ("refund-policy", "Refund policy", "2025-06-01", """\
Refunds are available within 30 days of purchase. To ask for one, open Settings > Billing and choose Request refund, or write to the support team with your invoice number.

Approved refunds go back to the original payment method. Card refunds usually appear on your statement within 5 business days.

Annual subscriptions can be refunded in full during the refund window. Add-on storage packs are refunded together with the plan they belong to."""),
    ("pricing-plans", "Pricing and plans", "2025-05-20", """\
Lumen Notes has three paid plans and a free plan. The Pro plan costs $12 per month. The Team plan costs $20 per user per month. The Business plan costs $35 per user per month.

Every paid plan can be billed monthly or annually. Paying annually saves two months compared with monthly billing.

The free plan is meant for personal use and has no time limit. You can upgrade from the free plan at any moment without losing notes."""),
    ("free-trial", "Free trial", "2025-04-02", """\
New workspaces get a free trial of the Team plan. The free trial lasts 14 days.

No payment card is needed to start the trial. When the trial ends, the workspace moves to the free plan unless someone on it chooses a paid plan.

Notes created during the trial are kept after it ends, whichever plan you choose."""),
    ("billing-invoices", "Invoices and billing dates", "2025-03-11", """\
Invoices are issued on the day your subscription renews. Each invoice is emailed to the billing contact of the workspace and can also be downloaded from Settings > Billing.

Invoices show the company name, the tax number and the billing address entered in the workspace settings. If you change these details, only future invoices change.

Failed payments are retried three times over the following week before the workspace is moved to the free plan."""),
    ("payment-methods", "Accepted payment methods", "2025-02-14", """\
We accept Visa, Mastercard and American Express cards, as well as PayPal. Business customers paying annually can also pay by bank transfer.

Bank transfers must include the invoice number as the payment reference. It can take up to 3 business days for a transfer to be matched to your invoice.

Prepaid and virtual cards work as long as they support recurring payments."""),
    ("cancel-subscription", "Cancel a subscription", "2025-06-03", """\
You can cancel a paid plan at any time from Settings > Billing. The plan stays active until the end of the period you have already paid for.

Refunds are available within 30 days of purchase, as the refund policy explains, so a plan cancelled early can still be refunded.

After the paid period ends, the workspace moves to the free plan. Notes above the free storage limit become read-only until storage is freed or a plan is bought again."""),
    ("account-security", "Account security", "2025-05-05", """\
Passwords must be at least 12 characters long. We check new passwords against lists of known leaked passwords and refuse those that appear.

Two-factor authentication can be turned on under Settings > Security with any authenticator app. Workspace owners on the Business plan can require two-factor authentication for every member.

Sessions on the web app expire after 30 days without activity, and you can sign out of all devices from the security page."""),
    ("password-reset", "Reset a forgotten password", "2025-01-28", """\
Choose Forgot password on the sign-in page and enter the email address of your account. We send a reset link to that address.

The reset link is valid for 60 minutes and works only once. If it has expired, request a new link from the same page.

Resetting the password signs you out of every other device for safety."""),
    ("data-retention", "Deleted notes and backups", "2025-04-18", """\
Deleted notes stay in the trash for 30 days. During that time you can restore them from the Trash view with their history and attachments.

After they leave the trash, notes are removed from our live systems. Encrypted backups are kept for 90 days and then overwritten.

Workspace owners on the Business plan can empty the trash early or set a shorter trash period for the whole workspace."""),
    ("storage-limits", "Storage limits", "2025-05-12", """\
The free plan includes 5 GB of storage per workspace. The Pro plan includes 100 GB of storage. Team and Business workspaces get 1 TB of storage per workspace.

A single attachment can be at most 2 GB, whatever the plan. Larger files should be linked from a cloud drive instead of uploaded.

You can see how much storage is in use under Settings > Storage, broken down by notebook."""),
    ("team-management", "Manage your team", "2025-03-30", """\
Owners and admins can invite people from Settings > Members by email address. Invitations expire after 7 days if nobody accepts them.

There are three roles: owner, admin and member. Admins can manage members and notebooks but cannot change billing.

A Team workspace can have up to 250 members. Larger organisations should talk to us about the Business plan."""),
    ("api-access", "API access", "2025-06-10", """\
The REST API is available on the Team and Business plans. Create an API token under Settings > Developer and keep it secret like a password.

The API allows 600 requests per minute per token. Requests above the limit receive a 429 status and should be retried after the time given in the Retry-After header.

The legacy API will be retired on March 31, 2026. Integrations built on it should move to the REST API before then."""),
    ("integrations", "Integrations", "2025-02-22", """\
Lumen Notes connects with Slack, Google Drive and Zapier. Integrations are set up by an admin under Settings > Integrations.

The Slack integration posts a message to a channel you pick whenever a shared note changes. The Google Drive integration lets you embed Drive files in a note as live previews.

Removing an integration stops the sync at once but keeps everything that was already imported."""),
    ("mobile-apps", "Mobile apps", "2025-04-25", """\
The mobile apps are available for iPhone, iPad and Android phones. They need iOS 16 or Android 11 or newer.

Notes sync in the background whenever the phone is online. You can pin notebooks to keep them on the device and read them without a connection.

Push notifications for mentions and reminders can be turned off per workspace in the app settings."""),
    ("offline-mode", "Working offline", "2025-01-15", """\
The desktop app keeps a full copy of your notebooks, so you can read and edit notes without an internet connection.

Changes made offline are uploaded the next time the app connects. If the same note was edited on two devices, both versions are kept and the note is marked as having a conflict.

The web app needs a connection and cannot be used offline."""),
    ("export-data", "Export your data", "2025-03-03", """\
You can export a single note or a whole notebook as Markdown, PDF or HTML from the note menu.

A full workspace export is available to owners under Settings > Export. The export is prepared in the background and a download link is emailed when it is ready.

Export links stay valid for 7 days. Attachments are included in the archive in their original format."""),
    ("delete-account", "Delete your account", "2025-05-28", """\
You can delete your account from Settings > Account. If you own a workspace with other members, transfer ownership first or delete the workspace.

Account deletion is completed within 14 days of the request. During that period you can still cancel the deletion by signing in again.

Once deletion is complete, your notes cannot be recovered by us or by you."""),
    ("support-hours", "Contacting support", "2025-06-05", """\
Support is available by email and in-app chat from Monday to Friday. Support replies within 24 hours on working days.

For customers on the Business plan, support replies within 4 hours for urgent issues. Business customers also get a named account manager.

Before writing to us, the status page shows whether there is a known incident affecting the service."""),
    ("uptime-sla", "Service level agreement", "2025-02-02", """\
For the Business plan we commit to 99.9% monthly uptime for the web app and the API. Planned maintenance announced 48 hours ahead does not count as downtime.

If monthly uptime falls below the commitment, Business customers receive service credits on their next invoice. Credits must be claimed within 30 days of the end of the affected month.

Uptime figures for past months are published on the status page."""),
    ("privacy-data-location", "Where your data is stored", "2025-04-09", """\
Workspace data is stored in data centres in Frankfurt, Germany, with a backup copy in Dublin, Ireland. Data does not leave the European Union.

All data is encrypted in transit with TLS and at rest with AES-256. Our staff can only open a workspace when a member grants access for a support case.

A data processing agreement is available for every paid plan and can be signed from the privacy settings."""),
]

# --- injected conflicts -------------------------------------------------------------------------

REFUND_2023 = ("refund-policy-2023", "Refund policy (2023)", "2023-09-01", CLEAN[0][3]
               .replace("within 30 days of purchase", "within 14 days of purchase")
               .replace("within 5 business days", "within 10 business days"))
PRICING_2024 = ("pricing-plans-2024", "Pricing and plans", "2024-01-15", CLEAN[1][3]
                .replace("The Pro plan costs $12 per month", "The Pro plan costs $10 per month"))
# Here the copy is the NEWER document: the original article is the superseded one.
RETENTION_2025 = ("data-retention-update", "Deleted notes and backups (updated)", "2025-10-01", CLEAN[8][3]
                  .replace("stay in the trash for 30 days", "stay in the trash for 60 days"))
API_ANNOUNCEMENT = ("legacy-api-announcement", "Changes to the legacy API", "2025-07-01", """\
We are simplifying our developer platform. The legacy API will be retired on June 30, 2026.

Until then the legacy API keeps working without changes, and the REST API offers the same features with better limits.""")
ANNUAL_FAQ = ("billing-faq", "Billing questions", "2025-07-12", """\
Can I switch between monthly and annual billing? Yes, the change applies from your next renewal date.

Annual subscriptions are non-refundable once they have been paid, including during the first month.

Does the price include tax? Prices are shown without VAT, which is added on the invoice where it applies.""")

CONFLICTS_TRUTH = [
    {"id": "refund-window", "signal": "value_mismatch", "doc_ids": ["refund-policy", "refund-policy-2023"],
     "sentences": {"refund-policy": "Refunds are available within 30 days of purchase.",
                   "refund-policy-2023": "Refunds are available within 14 days of purchase."}},
    {"id": "card-refund-time", "signal": "value_mismatch", "doc_ids": ["refund-policy", "refund-policy-2023"],
     "sentences": {"refund-policy": "Card refunds usually appear on your statement within 5 business days.",
                   "refund-policy-2023": "Card refunds usually appear on your statement within 10 business days."}},
    {"id": "pro-price", "signal": "value_mismatch", "doc_ids": ["pricing-plans", "pricing-plans-2024"],
     "sentences": {"pricing-plans": "The Pro plan costs $12 per month.",
                   "pricing-plans-2024": "The Pro plan costs $10 per month."}},
    {"id": "trash-period", "signal": "value_mismatch", "doc_ids": ["data-retention", "data-retention-update"],
     "sentences": {"data-retention": "Deleted notes stay in the trash for 30 days.",
                   "data-retention-update": "Deleted notes stay in the trash for 60 days."}},
    {"id": "legacy-api-date", "signal": "value_mismatch", "doc_ids": ["api-access", "legacy-api-announcement"],
     "sentences": {"api-access": "The legacy API will be retired on March 31, 2026.",
                   "legacy-api-announcement": "The legacy API will be retired on June 30, 2026."}},
    {"id": "annual-refunds", "signal": "nli", "doc_ids": ["billing-faq", "refund-policy"],
     "sentences": {"refund-policy": "Annual subscriptions can be refunded in full during the refund window.",
                   "billing-faq": "Annual subscriptions are non-refundable once they have been paid, including "
                                  "during the first month."}},
]
SUPERSEDED_TRUTH = [
    {"newer": "refund-policy", "older": ["refund-policy-2023"]},
    {"newer": "pricing-plans", "older": ["pricing-plans-2024"]},
    {"newer": "data-retention-update", "older": ["data-retention"]},
]

# --- damage -------------------------------------------------------------------------------------

EMPTY = ("getting-started-draft", "Getting started", "2025-06-20", "")
STUB = ("status-page", "Status page", "2025-06-21", "See the status page for incidents.")


def _truncated(doc):
    doc_id, title, date, text = doc
    cut = text.index("You can pin notebooks") + len("You can pin notebooks to keep them on the")
    return doc_id, title, date, text[:cut]


def _repeated_paragraph(doc):
    doc_id, title, date, text = doc
    paragraphs = text.split("\n\n")
    return doc_id, title, date, "\n\n".join(paragraphs[:2] + [paragraphs[1]] + paragraphs[2:])


def _pasted_paragraph(doc, donor):
    doc_id, title, date, text = doc
    return doc_id, title, date, text + "\n\n" + donor[3].split("\n\n")[1]


def _by_id(docs, doc_id):
    return next(d for d in docs if d[0] == doc_id)


def _replace(docs, new):
    return [new if d[0] == new[0] else d for d in docs]


def degraded_docs(base):
    docs = _replace(base, _truncated(_by_id(base, "mobile-apps")))
    docs = _replace(docs, _repeated_paragraph(_by_id(base, "integrations")))
    docs = _replace(docs, _pasted_paragraph(_by_id(base, "team-management"), _by_id(base, "account-security")))
    return docs + [EMPTY, STUB]


DEGRADED_TRUTH = [
    {"doc_id": "getting-started-draft", "kind": "empty"},
    {"doc_id": "status-page", "kind": "very_short"},
    {"doc_id": "mobile-apps", "kind": "truncated"},
    {"doc_id": "integrations", "kind": "duplicate_paragraph", "scope": "intra"},
    {"doc_ids": ["account-security", "team-management"], "kind": "duplicate_paragraph", "scope": "inter"},
]


def corpora() -> dict[str, tuple[list, dict]]:
    conflicts = CLEAN + [REFUND_2023, PRICING_2024, RETENTION_2025, API_ANNOUNCEMENT, ANNUAL_FAQ]
    degraded = degraded_docs(CLEAN)
    mixed = _replace(_replace(CLEAN + [REFUND_2023, ANNUAL_FAQ, EMPTY], _truncated(_by_id(CLEAN, "mobile-apps"))),
                     _repeated_paragraph(_by_id(CLEAN, "integrations")))
    mixed_ids = {"refund-window", "card-refund-time", "annual-refunds"}
    return {
        "clean": (CLEAN, {"conflicts": [], "superseded": [], "degraded": []}),
        "conflicts": (conflicts, {"conflicts": CONFLICTS_TRUTH, "superseded": SUPERSEDED_TRUTH, "degraded": []}),
        "degraded": (degraded, {"conflicts": [], "superseded": [], "degraded": DEGRADED_TRUTH}),
        "mixed": (mixed, {"conflicts": [c for c in CONFLICTS_TRUTH if c["id"] in mixed_ids],
                          "superseded": SUPERSEDED_TRUTH[:1],
                          "degraded": [d for d in DEGRADED_TRUTH if d.get("doc_id") in
                                       ("getting-started-draft", "mobile-apps", "integrations")]}),
    }


def main() -> None:
    for name, (docs, truth) in corpora().items():
        with open(HERE / f"{name}.jsonl", "w", encoding="utf-8") as f:
            for doc_id, title, updated_at, text in docs:
                f.write(json.dumps({"doc_id": doc_id, "title": title, "text": text, "updated_at": updated_at,
                                    "source": SOURCE}, ensure_ascii=False) + "\n")
        truth = {"corpus": name, "documents": len(docs)} | truth
        (HERE / f"{name}.truth.json").write_text(json.dumps(truth, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
