"""Curated word lists the guards share: antonymous predicates, scope words, condition markers, cues.

Everything here is compared with lower-cased lemmas (see scorers.english.lemmas),
so one entry covers every inflection ("forbids", "forbidden" -> "forbid").
Phrases are tuples of lemmas.
"""

from __future__ import annotations

# -- polarity (the negators themselves are in scorers.english.negation) ------

# Antonymous predicates: lemma -> the canonical (positive) predicate it negates.
ANTONYMS = {
    "forbid": "allow", "prohibit": "allow", "disallow": "allow", "ban": "allow", "deny": "allow",
    "optional": "require", "voluntary": "require",
    "exclude": "include", "omit": "include",
    "disable": "enable", "deactivate": "enable", "turn-off": "enable",
    "closed": "open", "close": "open", "shut": "open",
    "reject": "accept", "decline": "accept", "refuse": "accept",
    "decrease": "increase", "reduce": "increase", "lower": "increase", "fall": "increase", "drop": "increase",
    "cut": "increase",
    "private": "public", "hidden": "visible", "hide": "visible",
    "lock": "unlock",
    "block": "open", "blocked": "open",
    "delete": "keep", "erase": "keep", "purge": "keep", "discard": "keep",
    "manual": "automatic", "manually": "automatically",
    "variable": "fix", "temporary": "permanent",
}
# Synonymous predicates, mapped to one lemma so that alignment sees them as the same word.
SYNONYMS = {
    "need": "require", "mandatory": "require", "compulsory": "require", "obligatory": "require",
    "required": "require", "requirement": "require",
    "permit": "allow", "let": "allow", "permission": "allow", "allowed": "allow",
    "cover": "include", "contain": "include",
    "enabled": "enable", "disabled": "disable",
    "rise": "increase", "grow": "increase", "raise": "increase", "go-up": "increase",
    "receive": "get", "obtain": "get",
    "approve": "approval", "consent": "approval", "sign-off": "approval", "authorisation": "approval",
    "authorization": "approval", "authorise": "approval", "authorize": "approval", "okay": "approval",
    "retain": "keep", "store": "keep",
    "refundable": "refund", "eligible": "eligibility", "entitle": "entitlement", "entitled": "entitlement",
    "purchase": "buy", "bought": "buy",
    "reply": "respond", "response": "respond", "answer": "respond",
    "staff": "employee", "worker": "employee",
    "cost": "price", "charge": "price", "fee": "price", "pay": "price",
}

# Words that change what a negation means ("not available after 30 days" vs "available within 30 days"):
# when the two sides do not share the same set of them, the polarity guard stays silent.
SCOPE_WORDS = frozenset({"after", "before", "within", "until", "till", "over", "under", "above", "below", "more",
                         "less", "fewer", "least", "most", "only", "except", "outside", "inside", "beyond",
                         "than", "unless", "once", "other"})
# Of those, words that bound only before a number ("over 30 days", not "over the phone", "under the warranty").
NUMERIC_SCOPE_WORDS = frozenset({"over", "under", "above", "below", "beyond"})
# A negator after one of these in its clause negates a subordinate clause, not the claim's predicate.
SUBORDINATORS = frozenset({"if", "unless", "when", "whenever", "who", "which", "that", "whose", "where",
                           "because", "since", "although", "though", "while", "whereas", "until", "once",
                           "whether"})
# Predicates offered as a choice with their opposite ("enable or disable", "grant or revoke", "turn on or off"):
# the pair names what one may do either way, so neither word negates. Antonym pairs (ANTONYMS) count as well.
OPPOSITE_CHOICES = frozenset({("grant", "revoke"), ("add", "remove"), ("on", "off"), ("start", "stop"),
                              ("create", "delete"), ("show", "hide"), ("open", "close"), ("activate", "deactivate"),
                              ("subscribe", "unsubscribe"), ("install", "uninstall"), ("approve", "reject"),
                              ("approval", "reject"), ("accept", "decline"), ("opt-in", "opt-out")})
# Clause boundaries inside a sentence (besides ; and :).
CLAUSE_BREAKS = frozenset({"but", "however", "whereas", "although", "though", "while", "instead", "yet"})

# -- conditions -------------------------------------------------------------

# Markers that open a condition on what the sentence grants (lemma phrases; longest first when matching).
CONDITION_MARKERS = (
    ("only", "if"), ("only", "when"), ("only", "after"), ("only", "with"), ("only", "for"), ("only", "to"),
    ("only", "on"), ("only", "in"), ("only", "once"), ("provide", "that"), ("providing", "that"),
    ("as", "long", "as"), ("subject", "to"), ("on", "request"), ("upon", "request"), ("on", "condition"),
    ("at", "the", "discretion"), ("in", "case"), ("assume",), ("if",), ("unless",), ("once",),
    ("except",), ("on", "approval"), ("upon", "approval"), ("after", "approval"),
)
# Nouns whose presence after "with" makes a condition ("with written approval from ...").
APPROVAL_NOUNS = frozenset({"approval", "consent", "permission", "sign-off", "authorisation", "authorization",
                            "agreement", "exception", "waiver"})
# Documents whose presence after "with" makes a condition ("with a doctor's note", "with a receipt").
DOCUMENT_NOUNS = frozenset({"note", "certificate", "receipt", "referral", "prescription", "letter", "proof",
                            "voucher", "code", "invitation"})
# Verbs that, after a weak modal, turn an entitlement into something one must ask for.
APPLICATION_VERBS = frozenset({"request", "apply", "ask", "extend", "qualify", "claim", "petition", "negotiate",
                               "arrange", "opt"})
WEAK_MODALS = frozenset({"may", "can", "could", "might"})
# Words in a claim that keep a modal weakening ("can request", "are eligible for", "on request", "a refund is
# available": what is available is there to be asked for, not granted unasked).
MODAL_KEEPERS = frozenset({"may", "can", "could", "might", "request", "apply", "ask", "eligible", "eligibility",
                           "qualify", "option", "optional", "possible", "allow", "able", "extend", "extension",
                           "available", "availability"})
# Heads of groups whose scope a modifier can restrict ("Enterprise customers", "employees in Germany").
# Population nouns only: a role ("owner", "admin", "manager") restricts by itself, not by a modifier.
PARTY_NOUNS = frozenset({"customer", "client", "user", "employee", "member", "subscriber", "account", "workspace",
                         "team", "plan", "tier", "contractor", "parent", "student", "patient", "adult", "child",
                         "visitor", "guest", "buyer", "seller", "merchant", "resident", "citizen", "traveller",
                         "traveler", "applicant", "hire", "worker", "staff", "household", "business", "company"})
# Determiners and universal quantifiers: they do not restrict a group.
UNRESTRICTING = frozenset({"a", "an", "the", "all", "every", "each", "any", "our", "your", "their", "its", "his",
                           "her", "this", "these", "those", "both", "my", "we", "you", "of", "'s", "’s"})
# Post-modifiers that restrict a group when followed by a name or number ("employees in Germany").
RESTRICTING_PREPOSITIONS = frozenset({"in", "from", "at", "to", "under", "over", "aged", "based", "located",
                                      "outside"})

# -- key content ------------------------------------------------------------

# Predicates that grant something: a claim built on one carries a permission or entitlement.
ENTITLEMENT = frozenset({"can", "may", "allow", "eligibility", "entitlement", "get", "available", "offer", "include",
                         "refund", "free", "grant", "provide", "qualify", "keep", "extend", "access", "use",
                         "receive", "support", "accept", "enable", "waive", "reimburse", "cover"})

# -- arithmetic ---------------------------------------------------------------

HEDGES = frozenset({"about", "around", "roughly", "approximately", "nearly", "almost", "some", "approx", "~",
                    "circa", "over", "under", "just"})
CUE_CHANGE = frozenset({"rise", "increase", "grow", "fall", "drop", "decrease", "decline", "reduce", "raise",
                        "change", "jump", "climb", "shrink", "cut", "up", "down", "growth", "gain", "lose"})
CUE_SUM = frozenset({"total", "combined", "altogether", "together", "sum", "overall", "plus", "cumulative",
                     "in-total"})
CUE_DIFFERENCE = frozenset({"difference", "more", "less", "fewer", "higher", "lower", "cheaper", "longer",
                            "shorter", "extra", "additional", "save", "saving", "gap"})
CUE_RATIO = frozenset({"times", "twice", "ratio", "x", "fold", "double", "triple", "half"})
