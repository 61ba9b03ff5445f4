"""Dropped condition: the evidence grants the claim's key content only under a condition the claim leaves out.

Key content of a claim: a number it states (amount, duration, count) or, without
one, a permission or entitlement ("can", "available", "covered", "eligible").
The evidence sentence carrying it is the best-aligned sentence that has the
number (or, for an entitlement, covers most of the claim). Around the clause
holding that content, four kinds of restriction are looked for:
- conditional: "if", "unless", "only when", "provided that", "as long as",
  "subject to", "on request", "once", "except" ... up to the end of the clause;
- approval: "with (written) approval", "with consent", "with manager's sign-off";
- restricted group: a party noun with a restricting modifier ("Enterprise
  customers", "full-time employees", "the Team plan", "employees in Germany");
- modal weakening: a weak modal before an application verb ("may request",
  "can apply for", "may extend").
A condition is kept when the claim says it in any wording: a modifier of the
group, an approval word, a modal or application word, or half of the condition's
own content words (ignoring words the main clause already shares).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from groundwatch.scorers.english.clauses import Clause, clauses_of
from groundwatch.scorers.guards.evidence import EvidenceSentence, align
from groundwatch.scorers.english.lemmas import Token, analyse, unprefixed
from groundwatch.scorers.english.lexicon import (APPLICATION_VERBS, APPROVAL_NOUNS, CONDITION_MARKERS,
                                                 DOCUMENT_NOUNS, ENTITLEMENT, MODAL_KEEPERS, PARTY_NOUNS,
                                                 RESTRICTING_PREPOSITIONS, UNRESTRICTING, WEAK_MODALS)
from groundwatch.scorers.english.negation import PLAIN_NEGATORS, VERB_GROUP_NEGATORS
from groundwatch.scorers.guards.result import NOT_ENOUGH_INFO, GuardResult

NAME = "dropped_condition"
FLAG = "dropped_condition"
_MARKERS = sorted(CONDITION_MARKERS, key=len, reverse=True)
_MARKERS_BY_FIRST: dict[str, tuple[tuple[str, ...], ...]] = {}
for _phrase in _MARKERS:  # longest first within each first word
    _MARKERS_BY_FIRST[_phrase[0]] = _MARKERS_BY_FIRST.get(_phrase[0], ()) + (_phrase,)
_CONNECTORS = frozenset({"but", "and", "or", ",", "then"})
_PREPOSITIONS = frozenset({"during", "for", "of", "on", "in", "at", "with", "from", "to", "by", "after", "before",
                           "within", "through", "via", "per", "across", "into"})
_APPROVAL = APPROVAL_NOUNS | {"approval"}
_ONLY_HEADS = frozenset({"for", "to", "on", "in", "with", "after", "when", "if", "once", "within", "at", "by",
                         "during", "from"})


@dataclass(frozen=True)
class Condition:
    kind: str          # "conditional" | "approval" | "restricted_group" | "restricted_subject" | "modal"
    text: str          # as written in the evidence sentence
    keys: frozenset[str]  # lemmas that keep it when the claim has them

    def kept_by(self, claim_lemmas: frozenset[str], claim_content: frozenset[str],
                claim_words: frozenset[str] = frozenset(), claim_negated: frozenset[str] = frozenset()) -> bool:
        if self.kind == "approval":
            return bool((claim_lemmas | claim_words) & _APPROVAL)
        if self.kind == "modal":
            return bool(claim_lemmas & MODAL_KEEPERS)
        if self.kind == "restricted_group":  # every modifier: "Orbitel plans" keeps no "Orbitel Max plans"
            # "accounts that aren't verified" keeps "Unverified accounts"
            return all(k in claim_lemmas or k in claim_words or unprefixed(k, claim_negated) for k in self.keys)
        if self.kind == "restricted_subject":  # half its words, as a condition (numbers count)
            return len(self.keys & (claim_content | claim_lemmas)) >= max(1, math.ceil(len(self.keys) / 2))
        if not self.keys:
            return True
        return len(self.keys & claim_content) >= max(1, math.ceil(len(self.keys) / 2))

    def to_record(self) -> dict:
        return {"kind": self.kind, "text": self.text}


def _span_text(sentence: str, tokens: tuple[Token, ...]) -> str:
    return sentence[tokens[0].start:tokens[-1].end] if tokens else ""


# "once" opens a condition ("Once approved, ...", "not refundable once they have been provisioned") except as an
# adverb: after an auxiliary ("who was once named") or before what counts times ("once for a profile", "once a
# week", "once again").
_ONCE_ADVERB_AFTER = frozenset({"for", "again", "more", "or", "and", "a", "an", "every", "each", "per", "in"})
_AUXILIARIES = frozenset({"was", "were", "is", "are", "be", "been", "had", "has", "have", "having"})


def _adverbial_once(sentence: str, tokens: tuple[Token, ...], i: int) -> bool:
    before = sentence[:tokens[i].start].split()  # the sentence, not the clause: "who was | once named"
    follows = tokens[i + 1].lemma if i + 1 < len(tokens) else ""
    return bool(before) and before[-1].lower() in _AUXILIARIES or follows in _ONCE_ADVERB_AFTER or not follows


def _marker_at(sentence: str, tokens: tuple[Token, ...], i: int) -> tuple[str, ...] | None:
    if tokens[i].lemma == "once" and _adverbial_once(sentence, tokens, i):
        return None
    for phrase in _MARKERS_BY_FIRST.get(tokens[i].lemma, ()):
        if i + len(phrase) <= len(tokens) and all(tokens[i + k].lemma == w for k, w in enumerate(phrase)):
            return phrase
    return None


def _group_modifiers(tokens: tuple[Token, ...], head: int) -> list[Token]:
    """Restricting words before a party noun ("Enterprise", "full-time") and after it ("in Germany")."""
    mods: list[Token] = []
    i = head - 1
    while i >= 0:
        tok = tokens[i]
        if tok.text in ("-", "‑"):
            i -= 1
            continue
        if tok.is_punct or tok.lemma in UNRESTRICTING or tok.text.lower() in UNRESTRICTING or tok.is_number:
            break
        if not (tok.content or tok.capitalised):
            break
        if tok.lemma in WEAK_MODALS or tok.lemma in ("be", "have", "do") or tok.lemma in _PREPOSITIONS:
            break  # "Meals during business trips": "during" ends the group's modifiers
        mods.insert(0, tok)
        i -= 1
    counted = head > 0 and tokens[head - 1].is_number  # "from 150 students to 180": a count, not a group
    if head + 2 < len(tokens) and tokens[head + 1].lemma in RESTRICTING_PREPOSITIONS and not counted:
        nxt = tokens[head + 2]
        if nxt.capitalised or nxt.is_number or (nxt.lemma == "the" and head + 3 < len(tokens)
                                                  and tokens[head + 3].capitalised):
            mods.extend(t for t in tokens[head + 2:head + 4] if t.content)
    return mods


def _compounds(sentence: str, mods: list[Token]) -> list[str]:
    """Modifier words, hyphenated compounds kept whole ("full-time", not "full" and "time")."""
    words: list[str] = []
    for n, tok in enumerate(mods):
        joined = n > 0 and sentence[mods[n - 1].end:tok.start] in ("-", "‑")
        if joined:
            words[-1] = f"{words[-1]}-{tok.text.lower()}"
        else:
            words.append(tok.lemma)
    return words


def words_of(text: str) -> frozenset[str]:
    """Lower-cased words of a text with hyphenated compounds whole, for matching group modifiers."""
    a = analyse(text)
    out, prev = [], None
    for tok in a.tokens:
        if prev is not None and prev.end == tok.start and tok.text not in ("-", "‑") and out and out[-1].endswith("-"):
            out[-1] += tok.text.lower()
        elif tok.text in ("-", "‑") and prev is not None and prev.end == tok.start and out:
            out[-1] += "-"
        else:
            out.append(tok.text.lower())
        prev = tok
    return frozenset(out) | a.lemmas


_NEGATED_REACH = 3  # "not verified", "haven't been verified", "are not yet verified"


def negated_words(text: str) -> frozenset[str]:
    """Words and lemmas a negator shortly before denies ("accounts that aren't verified": "verified")."""
    tokens = analyse(text).tokens
    return frozenset(w for i, t in enumerate(tokens) if t.lemma in PLAIN_NEGATORS
                     for u in tokens[i + 1:i + 1 + _NEGATED_REACH] for w in (u.text.lower(), u.lemma))


def _conditions_in(sentence: str, clause: Clause, main_content: frozenset[str]) -> list[Condition]:
    tokens = clause.tokens
    out: list[Condition] = []
    i = 0
    while i < len(tokens):
        phrase = _marker_at(sentence, tokens, i)
        if phrase:
            rest = tokens[i:]
            keys = frozenset(t.lemma for t in rest[len(phrase):] if t.content) - main_content
            kind = "approval" if any(t.lemma in _APPROVAL for t in rest) else "conditional"
            out.append(Condition(kind, _span_text(sentence, rest), keys))
            break  # the condition runs to the end of the clause
        tok = tokens[i]
        if tok.lemma == "only" and any(t.lemma in _ONLY_HEADS for t in tokens[i + 1:i + 4]):
            rest = tokens[i:]  # "only available on the Enterprise plan", "applies only to new hires"
            keys = frozenset(t.lemma for t in rest[1:] if t.content) - main_content
            kind = "approval" if any(t.lemma in _APPROVAL for t in rest) else "conditional"
            out.append(Condition(kind, _span_text(sentence, rest), keys))
            break
        if tok.lemma == "with":
            window = tokens[i + 1:i + 6]
            if any(t.lemma in _APPROVAL for t in window):
                rest = tokens[i:]
                out.append(Condition("approval", _span_text(sentence, rest), frozenset({"approval"})))
                break
            if any(t.lemma in DOCUMENT_NOUNS for t in window):  # "with a doctor's note"
                rest = tokens[i:]
                keys = frozenset(t.lemma for t in rest[1:] if t.content) - main_content
                out.append(Condition("conditional", _span_text(sentence, rest), keys))
                break
        if tok.text.lower() in ("provided", "providing") and i > 0 and tokens[i - 1].text == ",":
            rest = tokens[i:]  # ", provided the request reaches the pharmacy before 10:00"
            keys = frozenset(t.lemma for t in rest[1:] if t.content) - main_content
            out.append(Condition("conditional", _span_text(sentence, rest), keys))
            break
        if tok.lemma in WEAK_MODALS:
            following = [t for t in tokens[i + 1:i + 4] if t.content or t.lemma == "be"]
            if following and (following[0].lemma in APPLICATION_VERBS or
                              (following[0].lemma == "be" and len(following) > 1 and
                               following[1].lemma in ("eligibility", "entitlement"))):
                end = min(len(tokens), i + 5)
                out.append(Condition("modal", _span_text(sentence, tokens[i:end]), frozenset()))
        if tok.lemma in PARTY_NOUNS:
            mods = _group_modifiers(tokens, i)
            if mods:
                keys = frozenset(_compounds(sentence, mods))
                first = min(mods[0].start, tok.start)
                last = max(mods[-1].end, tok.end)
                out.append(Condition("restricted_group", sentence[first:last], keys))
        i += 1
    return out


_RESTRICTORS = frozenset({"who", "whose", "which", "that", "where", "with", "above", "over", "under", "below",
                          "aged", "earning", "on", "in", "at", "from"})
_BOUND_WORDS = frozenset({"above", "over", "under", "below", "more", "less", "than", "least", "most"})
_VERB_GROUP = frozenset({"be", "have", "do", "will", "can", "may", "must", "should", "could", "would", "shall",
                         "might"}) | VERB_GROUP_NEGATORS


# Past tenses that are never participles: "Prices rose by 10%" is the main verb, not "Thermostats bought from".
_PAST_ONLY = frozenset({"rose", "fell", "grew", "went", "took", "gave", "began", "ran", "came", "saw", "wrote",
                        "drove", "rode", "ate", "chose", "spoke", "broke", "froze", "flew", "drew", "knew", "threw",
                        "shook", "sank", "shrank", "sprang", "swam", "sang", "rang", "drank", "forgot", "became",
                        "arose", "withdrew", "undertook", "overtook", "mistook", "woke", "wore", "tore"})


def subject_restriction(sentence: str, clause: Clause, claim_content: frozenset[str]) -> Condition | None:
    """What the evidence says of a narrower subject than the claim's: after a subject head the claim shares, a
    modifier the claim lacks, up to the verb ("New joiners whose role requires regular travel receive ...",
    "Employees with at least seven years of service can ...", "Purchases above £10,000 require ...",
    "Thermostats bought from the Lumen online store can ..."). None when the claim shares no head or the
    modifier runs to the end of the clause (then it is no subject)."""
    tokens = clause.tokens
    i = 0
    while i < len(tokens) and not tokens[i].content:
        if tokens[i].lemma in _VERB_GROUP:
            return None
        i += 1
    head = i
    while i < len(tokens) and tokens[i].content and tokens[i].lemma in claim_content:
        i += 1
    if i == head or i >= len(tokens):
        return None
    first = tokens[i]
    written = first.text.lower()
    participle = first.content and written not in _PAST_ONLY and (written.endswith(("ed", "en", "wn", "ing")) or (
        first.lemma != written and not written.endswith("s"))) and i + 1 < len(tokens) \
        and tokens[i + 1].lemma in ("from", "by", "on", "in", "at", "through", "via", "before", "after", "for")
    if first.lemma not in _RESTRICTORS and not participle:
        return None
    # the main verb: an auxiliary, modal or negator once the modifier has content ("who have completed probation
    # can"), else without one the first word the claim shares again ("whose role requires regular travel receive")
    j = next((k for k in range(i + 1, len(tokens)) if tokens[k].lemma in _VERB_GROUP
              and any(t.content for t in tokens[i + 1:k])), None)
    if j is None:
        j = next((k for k in range(i + 2, len(tokens)) if tokens[k].content and tokens[k].lemma in claim_content
                  and not tokens[k].is_number), None)
    if j is None:
        return None
    span = tokens[i:j]
    keys = frozenset(t.lemma for t in span if (t.content or t.is_number) and t.lemma not in _BOUND_WORDS)
    if not keys:
        return None
    return Condition("restricted_subject", _span_text(sentence, span), keys)


def _relevant(clauses: tuple[Clause, ...], k: int) -> list[Clause]:
    """The key clause, a leading subordinate clause, and following clauses that open with a condition."""
    out = [clauses[k]]
    j = k - 1
    while j >= 0 and clauses[j].subordinate:
        out.insert(0, clauses[j])
        j -= 1
    j = k + 1
    while j < len(clauses):
        toks = [t for t in clauses[j].tokens if t.lemma not in _CONNECTORS]
        starts_condition = bool(toks) and (_marker_at("", tuple(toks), 0) is not None or
                                           (toks[0].lemma == "with" and
                                            any(t.lemma in _APPROVAL for t in toks[1:6])))
        if not (clauses[j].subordinate or starts_condition):
            break
        out.append(clauses[j])
        j += 1
    return out


_CONJOIN = frozenset({"and", "or", ",", "while", "whereas", "plus"})


def key_segment(clause: Clause, key_lemmas: frozenset[str]) -> Clause:
    """The part of a clause that governs the key number: its head (up to the first number) and the conjunct
    holding the number ("600 requests on paid plans and 60 during a free trial": 60 -> the second)."""
    tokens = clause.tokens
    numbers = [i for i, t in enumerate(tokens) if t.is_number]
    hits = [i for i in numbers if tokens[i].lemma in key_lemmas]
    if len(numbers) < 2 or not hits:
        return clause
    first, k = numbers[0], hits[0]
    cuts = [i for i in range(first, len(tokens)) if tokens[i].lemma in _CONJOIN or tokens[i].text == ","]
    # a cut separates two conjuncts only when each side holds a number
    cuts = [i for i in cuts if any(first <= n < i for n in numbers) and any(n > i for n in numbers)]
    lo = max([c + 1 for c in cuts if c < k], default=first)
    hi = min([c for c in cuts if c > k], default=len(tokens))
    kept = tokens[:first] + tokens[lo:hi] if lo > first else tokens[:hi]
    return Clause(kept, clause.subordinate, (), clause.embedded)


def conditions(sentence: str, claim: str, key_lemmas: frozenset[str] | None = None) -> list[Condition]:
    """Restrictions around the clause of `sentence` that carries `key_lemmas` (default: the clause
    sharing most with the claim)."""
    clauses = clauses_of(sentence)
    if not clauses:
        return []
    claim_content = analyse(claim).content
    want = key_lemmas or claim_content

    def weight(c: Clause) -> tuple[int, int]:
        return (len(c.lemmas & want), len(c.content & claim_content))

    k = max(range(len(clauses)), key=lambda n: weight(clauses[n]))
    # What the condition restricts: the key clause, or when the key sits in a condition itself
    # ("If it is down for more than 48 hours, we credit ..."), the main clause it leads to.
    head = next((n for n in range(k, len(clauses)) if not clauses[n].subordinate), k)
    main = clauses[head].content & claim_content
    found: list[Condition] = []
    for clause in _relevant(clauses, k):
        if clause is clauses[k] and key_lemmas:
            clause = key_segment(clause, key_lemmas)
        found.extend(_conditions_in(sentence, clause, main))
    restricted = subject_restriction(sentence, clauses[head], claim_content)
    if restricted is not None and not any(c.text == restricted.text or restricted.text in c.text for c in found):
        found.append(restricted)
    return found


def _year(lemma: str) -> bool:
    return len(lemma) == 4 and lemma.isdigit() and 1900 <= int(lemma) <= 2100


def _key_content(claim: str) -> tuple[str, frozenset[str]] | None:
    """What a condition could restrict: the claim's numbers (not its years: a year dates a fact, it grants
    nothing), else what it grants. None for a bare answer ("1875.", "April 2, 2011."): it states no
    predicate a condition could be dropped from."""
    a = analyse(claim)
    if len({t.lemma for t in a.tokens if t.content and not t.is_number}) < 2:
        return None
    numbers = frozenset(t.lemma for t in a.tokens if t.is_number and not _year(t.lemma))
    if numbers:
        return "number", numbers
    granted = a.lemmas & ENTITLEMENT
    if granted:
        return "entitlement", frozenset(granted)
    return None


def check(claim: str, sentences: list[EvidenceSentence], min_coverage: float = 0.6) -> GuardResult:
    key = _key_content(claim)
    if key is None:
        return GuardResult(NAME, False, detail="the claim states no number, permission or entitlement")
    kind, lemmas = key
    ranked = align(claim, sentences)
    if kind == "number":
        carriers = [s for s in ranked if s.analysed.lemmas & lemmas]
    else:
        carriers = [s for s in ranked if s.coverage >= min_coverage]
    if not carriers:
        return GuardResult(NAME, False, detail=f"no evidence sentence carries the claim's {kind}")
    claim_a = analyse(claim)
    claim_words, claim_negated = words_of(claim), negated_words(claim)
    best = carriers[0].shared
    verdicts = []
    for s in (c for c in carriers if c.shared == best):
        found = conditions(s.text, claim, lemmas if kind == "number" else None)
        dropped = [c for c in found if not c.kept_by(claim_a.lemmas, claim_a.content, claim_words, claim_negated)]
        if not dropped:  # an equally aligned sentence states it without a dropped condition
            return GuardResult(NAME, False, sentence=s,
                               detail="conditions kept" if found else "no condition on the claim's key content")
        verdicts.append((s, dropped))
    s, dropped = verdicts[0]
    detail = "; ".join(f"{c.kind}: {c.text}" for c in dropped)
    return GuardResult(NAME, True, NOT_ENOUGH_INFO, FLAG, f"claim omits: {detail}", s,
                       found={"key": kind, "conditions": [c.to_record() for c in dropped]})


def unshared(a: str, b: str) -> list[Condition]:
    """Conditions one of two passage sentences puts on its numbers or grant that the other does not state
    ("Visitors to the Berlin office ..." against "Visitors ..."): a conflict between them may be one of scope."""
    out: list[Condition] = []
    for x, y in ((a, b), (b, a)):
        numbers = frozenset(t.lemma for t in analyse(x).tokens if t.is_number)
        other = analyse(y)
        out += [c for c in conditions(x, y, numbers or None)
                if not c.kept_by(other.lemmas, other.content, words_of(y))]
    return out
