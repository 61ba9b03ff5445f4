"""Clauses of a sentence, from its tokens, with the negations each one carries.

A sentence splits at ; : dashes and brackets, at contrastive connectors
("but", "whereas", "although"), before adverbial subordinators ("if",
"unless", "because", "once") and at the comma that ends a leading subordinate
clause. A clause that opens with a subordinator is `subordinate`; a negator
that follows a relative pronoun in its clause ("customers who do not renew")
is `embedded`: it negates a modifier, not the clause's predicate.

The claim splitter (scorers.answer.claims) splits an answer's sentences before any token is read, at the
places of `TEXT_CLAUSE_BREAKS`, and keeps a split only where both sides are clauses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundwatch.scorers.byte_cache import MB, byte_cached
from groundwatch.scorers.english.lemmas import (Analysed, Token, TokenRun, analyse, analysed_bytes,
                                               negative_adjective, perfect_participle)
from groundwatch.scorers.english.lexicon import ANTONYMS, CLAUSE_BREAKS, OPPOSITE_CHOICES, SCOPE_WORDS, SUBORDINATORS
from groundwatch.scorers.english.negation import (CESSATION, CESSATION_INTRANSITIVE, CESSATION_PHRASES,
                                                  NEGATIVE_IMPLICATIVES, NEGATOR_PHRASES, NEGATORS, NOT_NEGATION)

# Where a sentence of an answer may split into claims, from its text alone: ';', ', and', 'but', ', so',
# ', while', ', whereas', ':'. (?<!\s): a whitespace run is tried once, from its start, not from each character.
TEXT_CLAUSE_BREAKS = re.compile(r";\s+|,\s+and\s+|,?(?<!\s)\s+but\s+|,\s+so\s+|,\s+while\s+|,\s+whereas\s+|:\s+")
# The same kind of split where a reader needs fewer or other breaks (measured with these; one set for all would
# change which facts and obligations are read): the tail after a fact's value (object | condition), the text
# before a second value (its attribute), and an obligation's clause.
FACT_TAIL_BREAKS = re.compile(r"[,;]|\s(?:and|or|but|while)\s")
FACT_ATTRIBUTE_BREAKS = re.compile(r"[,;]|\b(?:and|or|but|while|plus)\b")
OBLIGATION_CLAUSE_BREAKS = re.compile(r";|,\s*(?:and|but|while|whereas|so)\b|\s(?:but|whereas)\s")

_HARD_BREAKS = frozenset({";", ":", "—", "–", "(", ")", "--"})
_ADVERBIAL = frozenset({"if", "unless", "because", "since", "although", "though", "whereas", "once", "until",
                        "whenever", "when"})
_RELATIVE = frozenset({"who", "which", "that", "whose", "where", "whom"})
_COMMA_NEXT = SUBORDINATORS | CLAUSE_BREAKS | frozenset({"and", "or", "so", "then"})


@dataclass(frozen=True)
class Clause(TokenRun):
    tokens: tuple[Token, ...]
    subordinate: bool                 # opens with "if", "unless", "because", ...
    negators: tuple[int, ...]         # positions (in tokens) of negators that count
    embedded: bool                    # a negator inside a relative clause: the predicate's polarity is unclear
    neutral: tuple[int, ...] = ()     # positions of opposite words that negate nothing (`neutral_words`)

    @property
    def start(self) -> int:
        return self.tokens[0].start

    @property
    def end(self) -> int:
        return self.tokens[-1].end

    @property
    def scope_words(self) -> frozenset[str]:
        return self.lemmas & SCOPE_WORDS

    def text(self, source: str) -> str:
        return source[self.start:self.end]


def _first_words(phrases) -> dict[str, tuple[tuple[str, ...], ...]]:
    out: dict[str, list] = {}
    for phrase in phrases:
        out.setdefault(phrase[0], []).append(phrase)
    return {k: tuple(v) for k, v in out.items()}


_BOUNDS = _first_words(NOT_NEGATION)
_NEGATOR_PHRASES = _first_words(NEGATOR_PHRASES + CESSATION_PHRASES)
_PASSIVE_AUX = frozenset({"be", "been", "being", "get", "have"})


def _ceases(tokens: tuple[Token, ...], i: int) -> bool:
    """A verb of ending that denies its subject: always for CESSATION ("was discontinued", "disables"), and for
    CESSATION_INTRANSITIVE only passive or right after its subject ("was withdrawn", "the scheme closed")."""
    tok = tokens[i]
    if tok.lemma in CESSATION:
        return True
    if tok.lemma not in CESSATION_INTRANSITIVE or i == 0:
        return False
    before = tokens[i - 1]
    if before.lemma in _PASSIVE_AUX:  # "was withdrawn"; "can be removed" is an option, not an ending
        return not (i >= 2 and tokens[i - 2].lemma in ("can", "may", "could", "might"))
    written = tok.text.lower()
    if not ((before.content or before.is_number) and not before.is_punct and written.endswith(("ed", "wn"))):
        return False
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if after is not None and after.content and not after.is_number:
        return False  # "include deleted projects": an adjective before its noun
    # "Orders cancelled in time are refunded": a participle modifying the subject, before the main verb
    return not any(t.lemma in _VERBS_AFTER and not t.capitalised for t in tokens[i + 1:])  # not "3 May"


_VERBS_AFTER = frozenset({"be", "have", "do", "will", "can", "may", "must", "should", "could", "would", "shall",
                          "might"})


def _phrase_at(tokens: tuple[Token, ...], i: int, by_first: dict) -> tuple[str, ...] | None:
    tok = tokens[i]
    candidates = by_first.get(tok.lemma, ()) + (by_first.get(tok.text.lower(), ()) if tok.text.lower() != tok.lemma
                                                else ())
    return next((p for p in candidates if _matches(tokens, i, p)), None)


def _matches(tokens: tuple[Token, ...], i: int, phrase: tuple[str, ...]) -> bool:
    if i + len(phrase) > len(tokens):
        return False
    return all(tokens[i + k].lemma == w or tokens[i + k].text.lower() == w for k, w in enumerate(phrase))


def _relative(tokens: tuple[Token, ...], k: int) -> bool:
    """A relative pronoun at k ("customers who ...", "plans that ..."); "after that" is a demonstrative."""
    lemma = tokens[k].lemma
    if lemma not in _RELATIVE:
        return False
    return lemma != "that" or (k > 0 and tokens[k - 1].content and not tokens[k - 1].is_punct
                               and tokens[k - 1].lemma not in ("after", "before", "like"))


_CHOICE_JOINS = frozenset({"or", "and", "/"})


def _opposites(a: str, b: str) -> bool:
    """One word and its antonym ("allow" / "deny"; not two antonyms of one word, "forbid or prohibit")."""
    return ((a in ANTONYMS) != (b in ANTONYMS) and ANTONYMS.get(a, a) == ANTONYMS.get(b, b)
            or (a, b) in OPPOSITE_CHOICES or (b, a) in OPPOSITE_CHOICES)


def choices(tokens: tuple[Token, ...]) -> set[int]:
    """Positions of words joined by "or" / "and" to their opposite ("enable or disable", "allow or deny",
    "grant or revoke", "turned on or off"): what one may do either way, so neither word negates."""
    out = set()
    for i, tok in enumerate(tokens):
        if tok.lemma not in _CHOICE_JOINS or i == 0:
            continue
        j = i + 2 if i + 2 < len(tokens) and tokens[i + 1].lemma in _CHOICE_JOINS else i + 1  # "and/or"
        if j < len(tokens) and _opposites(tokens[i - 1].lemma, tokens[j].lemma):
            out |= {i - 1, j}
    return out


# Words of ending, and the prepositions that give an ending its time.
_ENDING_WORDS = (frozenset(k for k, v in ANTONYMS.items() if v == "open") | CESSATION_INTRANSITIVE
                 | NEGATIVE_IMPLICATIVES | frozenset(p[0] for p in CESSATION_PHRASES))
_TIME_OF_ENDING = frozenset({"at", "after", "by", "from", "between", "until"})


def timed_endings(tokens: tuple[Token, ...]) -> set[int]:
    """Positions of endings given their time ("closes at 19:00", "links stop working after three days", "will
    turn off the supply from 09:15"): they say when something ends, on a schedule, not that it is over, so
    "closes at 19:00" agrees with "open until 7pm". A past ending ("the branch closed in 2024") denies."""
    out = set()
    for i, tok in enumerate(tokens):
        if tok.lemma not in _ENDING_WORDS or tok.text.lower().endswith(("ed", "wn")):
            continue
        if any(t.lemma in _TIME_OF_ENDING and any(u.is_number for u in tokens[k + 1:k + 3])
               for k, t in enumerate(tokens[i + 1:], start=i + 1)):
            out.add(i)
    return out


def neutral_words(tokens: tuple[Token, ...]) -> set[int]:
    """Opposite words that negate nothing: offered with their opposite, or an ending given its time."""
    return choices(tokens) | timed_endings(tokens)


_AUXILIARIES = frozenset({"be", "been", "have", "ever"})


def _comparative(tok: Token) -> bool:
    """"easier", "better", "more": a comparative form (the lemma table maps "easier" to "easy")."""
    word = tok.text.lower()
    if word in ("more", "better", "less"):
        return True
    return word.endswith("er") and tok.lemma != word and word.startswith(tok.lemma[:-1]) and len(tok.lemma) >= 3


def _praise(tokens: tuple[Token, ...], i: int) -> bool:
    """"has never been easier", "never better": a comparative after "never" with no "than" says how easy it
    is, it does not deny it."""
    if tokens[i].lemma != "never":
        return False
    k = i + 1
    while k < len(tokens) and tokens[k].lemma in _AUXILIARIES:
        k += 1
    return k < len(tokens) and _comparative(tokens[k]) and not any(t.lemma == "than" for t in tokens[k:])


_DETERMINERS = frozenset({"a", "an", "the", "any", "all", "some", "every", "each", "this", "these", "those", "our",
                          "your", "their", "its"})


def _names_the_subject(tokens: tuple[Token, ...], i: int) -> bool:
    """A prefixed adjective that opens the clause before its noun ("Invalid tokens are rejected", "Unpaid
    invoices ..."): it says which things the clause is about, it does not negate what it says of them."""
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    if following is None or not following.content or following.is_number:
        return False
    return all(t.is_punct or t.lemma in _DETERMINERS for t in tokens[:i])


_PRONOUNS = frozenset({"you", "we", "they", "i", "he", "she"})
_HELPERS = frozenset({"do", "can", "will", "have", "be", "would", "could", "should", "may", "might", "must"})
# Verbs that take a person and then what they are told: "assured Sherwood he will not repeat it" is a
# clause of its own, not a relative one.
_TELLING = frozenset({"tell", "assure", "promise", "warn", "remind", "inform", "convince", "persuade", "reassure"})


# Verbs that report what someone says or thinks: "said he didn't know" is a clause of its own.
_SAYING = frozenset({"say", "think", "believe", "feel", "know", "admit", "insist", "argue", "explain", "suggest",
                     "realise", "realize", "decide", "agree", "confirm", "deny", "announce", "assume", "suppose",
                     "guess", "hope", "fear", "expect", "add", "reply", "recall", "warn"})


def _told(tokens: tuple[Token, ...], pronoun: int) -> bool:
    """A verb of saying or telling a few words before the pronoun ("said last week he did not", "assured Aston
    Villa manager Tim Sherwood he will not"): what follows is what was said, a clause of its own."""
    for k in range(pronoun - 1, max(-1, pronoun - 8), -1):
        if tokens[k].is_punct:
            return False
        if tokens[k].lemma in _TELLING or (tokens[k].lemma in _SAYING and pronoun - k <= 3):
            return True
    return False


def _in_reduced_relative(tokens: tuple[Token, ...], i: int) -> bool:
    """A negator in a relative clause without "that" ("budget you don't use rolls over", "leave you do not take
    is paid"): noun, pronoun, helper verb, negator. It negates what modifies the noun, not the predicate. A noun
    that opens the sentence needs a verb after the relative clause ("Today you don't need a code" has none), and a
    noun told something is not modified ("told fans they would not regret it")."""
    if i < 3 or not (tokens[i - 1].lemma in _HELPERS and tokens[i - 2].lemma in _PRONOUNS
                     and tokens[i - 3].content and not tokens[i - 3].is_number):
        return False
    if _told(tokens, i - 2) or _fronted_phrase(tokens, i - 3):
        return False
    return i >= 4 or any(t.lemma in _VERBS_AFTER for t in tokens[i + 2:])


# Prepositions that open a sentence with a phrase before its subject ("Without the email you can't ...").
FRONTED_PREPOSITIONS = frozenset({"without", "with", "after", "before", "during", "for", "in", "on", "at", "by",
                                  "from", "under", "within", "until", "through", "once"})


def _fronted_phrase(tokens: tuple[Token, ...], i: int) -> bool:
    """Token i ends a phrase that opens the sentence with a preposition: the noun of "With a valid ticket you
    don't need to queue" is the phrase's object, not a noun that "you don't" modifies."""
    return tokens[0].lemma in FRONTED_PREPOSITIONS and not any(t.text == "," for t in tokens[:i + 1])


def negator_positions(tokens: tuple[Token, ...]) -> tuple[list[int], bool]:
    """Positions of negators that negate something, and whether one sits in a relative clause."""
    found: list[int] = []
    embedded = False
    skip_until = -1
    neither = any(t.lemma == "neither" for t in tokens)
    offered = neutral_words(tokens)
    for i, tok in enumerate(tokens):
        if i < skip_until or i in offered:
            continue
        if _praise(tokens, i):
            continue
        bound = _phrase_at(tokens, i, _BOUNDS)
        if bound:
            skip_until = i + len(bound)
            continue
        phrase = _phrase_at(tokens, i, _NEGATOR_PHRASES)
        if phrase:
            found.append(i)
            skip_until = i + len(phrase)
        elif tok.lemma in NEGATIVE_IMPLICATIVES and i + 1 < len(tokens) and tokens[i + 1].text.lower().endswith("ing"):
            found.append(i)  # "the SDK stops collecting IP addresses"
        elif _ceases(tokens, i):
            found.append(i)  # "Corvid TV was discontinued", "the membership ended"
        elif tok.lemma in NEGATORS:
            if tok.lemma == "non" and not (i + 1 < len(tokens) and tokens[i + 1].text in ("-", "‑")):
                continue
            if _in_reduced_relative(tokens, i):
                continue
            if tok.lemma == "nor" and (neither or len(found) > 0):
                continue  # "neither ... nor" and "not ... nor" negate once
            found.append(i)
        elif (tok.content and negative_adjective(tok.lemma) and not _names_the_subject(tokens, i)
              and not perfect_participle(tokens, i)):
            found.append(i)  # "uncommon", "impossible": so "not uncommon" is even, a litotes
        else:
            continue
        if any(_relative(tokens, k) for k in range(i)):
            embedded = True
    # "no" that only quantifies a count ("no. 5") never reaches here; "No" before a digit is a label.
    found = [i for i in found if not (tokens[i].lemma == "no" and i + 1 < len(tokens) and tokens[i + 1].is_number)]
    return found, embedded


def _split(tokens: tuple[Token, ...]) -> list[tuple[int, int]]:
    spans, start = [], 0
    leading_sub = bool(tokens) and tokens[0].lemma in SUBORDINATORS
    for i, tok in enumerate(tokens):
        cut = None
        if tok.text in _HARD_BREAKS:
            cut, nxt = i, i + 1
        elif tok.text == "-" and i + 1 < len(tokens) and tokens[i + 1].text == "-":  # "- -": a dash spaced out
            cut, nxt = i, i + 2
        elif tok.lemma in CLAUSE_BREAKS and i > start:
            cut, nxt = i, i
        elif tok.lemma in _ADVERBIAL and i > start and not (i > 0 and tokens[i - 1].lemma in ("only", "even", "as",
                                                                                               "and", "or")):
            cut, nxt = i, i
        elif tok.text == ",":
            following = tokens[i + 1].lemma if i + 1 < len(tokens) else ""
            if leading_sub or following in _COMMA_NEXT:
                cut, nxt = i, i + 1
        if cut is not None:
            if cut > start:
                spans.append((start, cut))
            start = nxt
            leading_sub = start < len(tokens) and tokens[start].lemma in SUBORDINATORS
    if start < len(tokens):
        spans.append((start, len(tokens)))
    return spans


@byte_cached(64 * MB, sizer=lambda text, value: analysed_bytes(text, sum(len(c.tokens) for c in value), len(value)))
def clauses_of(text: str) -> tuple[Clause, ...]:
    analysed: Analysed = analyse(text)
    tokens = tuple(t for t in analysed.tokens)
    out = []
    for s, e in _split(tokens):
        part = tuple(t for t in tokens[s:e] if t.text not in (".", "!", "?"))
        if not any(t.content for t in part):
            continue
        negators, embedded = negator_positions(part)
        first = next((t for t in part if not t.is_punct), part[0])
        subordinate = first.lemma in SUBORDINATORS and first.lemma not in _RELATIVE | {"that"}
        out.append(Clause(part, subordinate, tuple(negators), embedded, tuple(sorted(neutral_words(part)))))
    return tuple(out)
