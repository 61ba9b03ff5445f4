"""The negation lexicon: every word, phrase and prefix that negates, the one place they are written.

Everything here is compared with lower-cased lemmas (see scorers.english.lemmas) unless a set says it holds
words as written. Phrases are tuples of lemmas. A user that needs fewer words derives its subset here, by
name, with the reason. English-only.
"""

from __future__ import annotations

# Single-token negators (lemmas; "n't" is lemmatised to "not", "cannot" is split by the tokenizer).
NEGATORS = frozenset({"not", "never", "no", "none", "nobody", "nothing", "nowhere", "neither", "nor", "without",
                      "non"})
# The plain negators, which deny the word they stand before: "not" ("n't" is lemmatised to it) and "never".
PLAIN_NEGATORS = frozenset({"not", "never"})
# The same negators as words of text read without the lemmatiser (training's cue tokens): there "n't" and
# "cannot" are words of their own, and "non" only ever a prefix.
NEGATION_WORDS = (NEGATORS - {"non"}) | {"n't", "cannot"}
# Multi-token negators: the phrase flips polarity once.
NEGATOR_PHRASES = (("no", "longer"), ("fail", "to"))
# Verbs that negate the -ing verb after them ("stops collecting" = does not collect).
NEGATIVE_IMPLICATIVES = frozenset({"stop", "cease", "quit", "discontinue"})
# Predicates of ending or switching off: they deny what they apply to ("Corvid TV was discontinued" = it is not
# offered; "is switched off" = is not on), so "will be switched off" and "will stop working" agree.
CESSATION = frozenset({"discontinue", "decommission", "retire", "abolish", "scrap", "cease", "sunset", "disable",
                       "deactivate", "revoke"})
# The same sense only when the verb is passive or has its subject before it ("the scheme closed to new
# applicants", "was withdrawn", "ended in 2025"); "close the app", "you can withdraw cash" deny nothing.
CESSATION_INTRANSITIVE = frozenset({"end", "close", "closed", "withdraw", "withdrawn", "remove", "expire", "stop",
                                    "shut", "suspend", "delete"})
CESSATION_PHRASES = (("switch", "off"), ("turn", "off"), ("shut", "down"), ("phase", "out"), ("wind", "down"),
                     ("switched", "off"), ("turned", "off"))
# Phrases that contain a negator but negate no predicate: numeric bounds and focus particles.
NOT_NEGATION = (
    ("no", "more", "than"), ("no", "less", "than"), ("no", "later", "than"), ("no", "earlier", "than"),
    ("no", "fewer", "than"), ("no", "longer", "than"), ("no", "sooner", "than"), ("not", "more", "than"), ("not", "less", "than"),
    ("not", "later", "than"), ("not", "earlier", "than"), ("not", "only"), ("not", "just"), ("no", "matter"),
    ("whether", "or", "not"), ("if", "not"), ("nothing", "but"), ("no", "."), ("not", "even"),
)

# Negating prefixes: "unavailable" negates "available" when the other sentence says "available".
NEGATING_PREFIXES = ("non-", "non", "un", "in", "im", "il", "ir", "dis")
# The words that negate by such a prefix: a curated list, because a prefix alone misleads ("intense" is not a
# negated "tense", "discount" not a negated "count", "import" not a negated "port"). Adjectives and participles
# only: reversals ("unlock", "uninstall", "disconnect") undo an action, they do not deny it.
NEGATED_BY_PREFIX = frozenset({
    "unable", "unacceptable", "unaccompanied", "unaffected", "unanswered", "unapproved", "unarranged", "unassigned",
    "unattended", "unauthorised", "unauthorized", "unavailable", "unaware", "unbilled", "uncapped", "uncertain",
    "unchanged", "unclaimed", "unclear", "uncommon", "unconditional", "unconfirmed", "uncovered", "undated",
    "undelivered", "unencrypted", "unexpected", "unfair", "unfinished", "unfit", "unfunded", "unhappy",
    "unheated", "unidentified", "uninsured", "unknown", "unlawful", "unlicensed", "unlimited", "unlisted",
    "unmanaged", "unmetered", "unmonitored", "unnecessary", "unofficial", "unpaid", "unplanned", "unprotected",
    "unpublished", "unreachable", "unregistered", "unrelated", "unreliable", "unresolved", "unrestricted",
    "unsafe", "unsampled", "unscheduled", "unsecured", "unshared", "unsigned", "unsolicited", "unspent",
    "unstable", "unsuccessful", "unsupported", "unsure", "untested", "untrusted", "unused", "unusual",
    "unverified", "unwanted", "unwilling",
    "inaccessible", "inaccurate", "inactive", "inadequate", "inapplicable", "inappropriate", "incapable",
    "incompatible", "incomplete", "inconsistent", "incorrect", "ineffective", "ineligible", "inexpensive",
    "infrequent", "insecure", "insufficient", "invalid", "invisible", "involuntary",
    "immaterial", "immature", "impermissible", "impossible", "impractical", "imprecise", "improper",
    "illegal", "illegible", "illiquid", "illogical",
    "irrecoverable", "irregular", "irrelevant", "irreplaceable", "irreversible", "irrevocable",
    "dishonest", "dissatisfied", "disqualified", "disused",
    "nonrefundable", "nontransferable", "noncompliant", "nonexistent", "nonessential", "nonstandard",
})

# Helper verbs with their negative as people write it short ("is" -> "isn't", "may" -> "may not"): where a
# negation attaches (the training recipe that writes a negated claim at its helper verb).
NEGATED_HELPERS = {"is": "isn't", "are": "aren't", "was": "wasn't", "were": "weren't", "can": "can't",
                   "could": "couldn't", "will": "won't", "would": "wouldn't", "should": "shouldn't",
                   "must": "mustn't", "may": "may not", "might": "might not", "does": "doesn't", "do": "don't",
                   "did": "didn't", "has": "hasn't", "have": "haven't", "had": "hadn't"}

# -- subsets for readers that need fewer words, derived here so no reader keeps its own copy -------------

# The plain negators and "no", where a reader looks only at the verb group or the few words before it ("is
# not", "is no longer"): the condition guard's verb groups and the antonym recipe's check before "is A".
VERB_GROUP_NEGATORS = PLAIN_NEGATORS | {"no"}
# The negations the facts fold into "not" in a fact's attribute, words as written (scorers.english.text.tokens,
# apostrophes kept): the fact keys of the conflict finders and the corpus audit were measured with these, not
# with NEGATION_WORDS (no "none", "nobody", "nothing", "without"); widening it changes which statements conflict.
FACT_NEGATIONS = VERB_GROUP_NEGATORS | {"cannot", "can't", "won't", "isn't", "aren't", "don't", "doesn't"}
# The negation stratum of the evaluation tables: NEGATION_WORDS but "nowhere", as the published strata were
# measured ("n't" is matched as a word ending there).
STRATUM_NEGATIONS = NEGATION_WORDS - {"nowhere", "n't"}
# "not" as the tokenizer writes it, before lemmatising ("is not", "isn't" -> "is" "n't").
NOT_AS_WRITTEN = frozenset({"not", "n't"})
# "not" after a helper verb as a regex, spaced or contracted ("must not", "mustn't").
NOT_AFTER_HELPER = r"(?: not|n't)"
