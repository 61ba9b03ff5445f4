"""Polarity: a claim and its best-aligned evidence sentence disagree on negation of the same predicate.

Polarity of a clause = parity of its negators ("not", "n't", "never", "no",
"none", "no longer", "without", "neither/nor", "cannot", "fail to") plus the
antonymous predicates whose opposite the other side uses ("forbid" against
"allow", "optional" against "required", "unavailable" against "available").
Double negation is even parity: "cannot be exported without admin rights"
agrees with "exporting requires admin rights".

It fires only when the two clauses are about the same thing:
- they share at least two content lemmas, and a negator's scope holds shared content;
- no name of the claim is missing from the evidence's context, and they do not
  name different things side by side ("Pro plan" / "Enterprise plan");
- both use the same scope words ("after", "within", "only", "more than", ...),
  since "not available after 30 days" agrees with "available within 30 days";
- neither negation sits in a relative or subordinate clause.
- a word offered with its opposite ("enable or disable", "allow or deny") negates nothing, nor does an
  ending given its time ("closes at 19:00" agrees with "open until 7pm");
- a claim that says "not" or "never" of a word the evidence sentence does not use shares its subject with
  that sentence, not its predicate: "Eating is not permitted in the Reading Room" says nothing against "The
  Reading Room is a silent study space", and the model decides.
When the evidence sentence covers at least `weak` of the claim's content lemmas, the guard fires and caps
the verdict at NOT_ENOUGH_INFO: a polarity difference is a reason for doubt, never a contradiction on its
own (scorers/verdicts/decide.py). `contradicts` serves the conflict finders (scorers/evidence/conflicts.py,
audit/conflicts.py), which compare two passages.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundwatch.scorers.english.clauses import FRONTED_PREPOSITIONS, Clause, clauses_of
from groundwatch.scorers.guards.evidence import EvidenceSentence, align
from groundwatch.scorers.english.lemmas import analyse, matched, negative_adjective, unprefixed
from groundwatch.scorers.english.lexicon import ANTONYMS, NUMERIC_SCOPE_WORDS, SCOPE_WORDS
from groundwatch.scorers.english.negation import CESSATION, CESSATION_INTRANSITIVE, CESSATION_PHRASES, PLAIN_NEGATORS
from groundwatch.scorers.guards.result import NOT_ENOUGH_INFO, GuardResult
from groundwatch.scorers.guards.sameness import same_thing

NAME = "polarity"
FLAG = "polarity_mismatch"


@dataclass(frozen=True)
class Polarity:
    """How a clause stands toward another clause: its negations and the antonyms the other side negates."""

    negations: tuple[str, ...]   # the words that flip it, as written
    negative: bool


def _family(lemma: str) -> str:
    return ANTONYMS.get(lemma, lemma)


def _segments(clause: Clause) -> list[int]:
    """The conjunct ("and", "or", ",") each token of the clause is in. A phrase that opens the sentence with a
    preposition belongs to the conjunct after its comma: "Without access to the email, you cannot reset your
    password" negates twice in one conjunct, as "requires access to the email" says."""
    out, n = [], 0
    tokens = clause.tokens
    fronted = bool(tokens) and tokens[0].lemma in FRONTED_PREPOSITIONS
    for t in tokens:
        if fronted and t.text == ",":
            fronted = False  # the phrase's closing comma joins it to what follows
        else:
            n += t.lemma in _CONJUNCTS
        out.append(n)
    return out


def _flips(clause: Clause, other: Clause) -> list[int]:
    """Positions of antonym and negative-prefix words of `clause` whose positive counterpart `other` uses."""
    out = []
    other_lemmas = other.lemmas
    other_canon = {_family(lemma) for lemma in other_lemmas}
    other_negative = {ANTONYMS[lemma] for lemma in other_lemmas if lemma in ANTONYMS}  # "forbid" ~ "prohibit"
    segment = _segments(clause)
    for i, tok in enumerate(clause.tokens):
        if i in clause.negators or i in clause.neutral:  # counted already, or negating nothing
            continue
        if tok.lemma in ANTONYMS:
            target = ANTONYMS[tok.lemma]
            # "files deleted by mistake are kept": the positive word in the same conjunct is the predicate (a
            # word of a name is not: "the Fixed Bond is not variable")
            own = any(_family(t.lemma) == target and t.lemma not in ANTONYMS and segment[k] == segment[i]
                      and not t.capitalised for k, t in enumerate(clause.tokens))
            if target in other_canon and target not in other_negative and not own:
                out.append(i)
    return out


_CONJUNCTS = frozenset({"and", "or", ","})


def _particle(clause: Clause, i: int) -> bool:
    """A phrasal verb of ending ("switched off", "shut down"): "switched on" has the verb but not the sense."""
    return i + 1 < len(clause.tokens) and clause.tokens[i + 1].lemma in ("off", "down", "out")


def negations(clause: Clause, other: Clause) -> list[int]:
    """Positions of the words that negate `clause` against `other`: its negators, less a verb of ending both
    use ("stay in the bin before they are removed" / "before removing them": what they talk about, not a
    difference; "closed" ~ "closes"), plus its antonyms and prefixed words whose counterpart `other` uses."""
    families = {_family(lemma) for lemma in other.lemmas if lemma in ANTONYMS or lemma in _ENDINGS}
    negators = {i for i in clause.negators if not (clause.tokens[i].lemma in _ENDINGS
                                                    and _family(clause.tokens[i].lemma) in families
                                                    and not _particle(clause, i))
                and not (clause.tokens[i].lemma in other.lemmas and negative_adjective(clause.tokens[i].lemma))}
    # ("damage caused by incorrect wiring" on both sides: the same words, no difference)
    return sorted(negators | set(_flips(clause, other)))


def _focus(clause: Clause, other: Clause, segment: list[int], negated: list[int]) -> set[int]:
    """The conjuncts (`segment`, from `_segments`) of `clause` that share content with `other`: a negation
    in a conjunct that shares nothing negates something else ("Not to be outdone, the new trailer came out
    on Monday"). The words before the first conjunct's negation (`negated`) are the subject every conjunct
    shares, so wherever they recur they place a conjunct in focus only when no conjunct shares anything
    else: "Grealish has not been fined and will be in Villa's squad" negates nothing of "Grealish will be in
    Villa's squad"."""
    canon = {_family(lemma) for lemma in other.lemmas}
    families = [_family(t.lemma) for t in clause.tokens]
    shared = [i for i, t in enumerate(clause.tokens) if t.content and families[i] in canon]
    lead = min((i for i in negated if segment[i] == 0), default=0)
    subject = set(families[:lead])
    beyond = {segment[i] for i in shared if families[i] not in subject}
    return beyond or {segment[i] for i in shared}


def polarity_of(clause: Clause, other: Clause) -> Polarity:
    """Negative when a conjunct that shares content with the other clause (`_focus`) has an odd number of
    negations: negations in one conjunct cancel ("cannot be exported without admin rights"), in two they do
    not ("was discontinued and is no longer offered"), and one in a conjunct that shares nothing negates
    something else ("The shop opens at 9, but not on Sundays" against "The shop opens at 9")."""
    segment = _segments(clause)
    negated = negations(clause, other)
    focus = _focus(clause, other, segment, negated)
    positions = [i for i in negated if segment[i] in focus]
    words = tuple(clause.tokens[i].text for i in positions)
    counts: dict[int, int] = {}
    for i in positions:
        counts[segment[i]] = counts.get(segment[i], 0) + 1
    return Polarity(words, any(n % 2 == 1 for n in counts.values()))


def _shared(a: Clause, b: Clause) -> frozenset[str]:
    canon = lambda c: frozenset(ANTONYMS.get(t.lemma, t.lemma) for t in c.tokens if t.content)  # noqa: E731
    return matched(canon(a), canon(b))


_ENDINGS = CESSATION | CESSATION_INTRANSITIVE | frozenset(p[0] for p in CESSATION_PHRASES)


def _negation_scopes_shared(clause: Clause, shared: frozenset[str], other: Clause) -> bool:
    """A negator of the clause has shared content after it (or the flip word itself is shared)."""
    negators = [i for i in negations(clause, other) if i in clause.negators]
    if not negators:
        return True
    if any(clause.tokens[i].lemma in _ENDINGS for i in negators):
        return True  # "Legacy keys were revoked": a verb of ending denies its subject, before it
    first = negators[0]
    return any(ANTONYMS.get(t.lemma, t.lemma) in shared or unprefixed(t.lemma, shared)
               for t in clause.tokens[first:] if t.content)  # from the negator: "unavailable" scopes itself


def _names(tokens) -> set[str]:
    return {t.lemma for t in tokens if t.capitalised and t.content}


_VERBAL = frozenset({"be", "have", "do", "will", "can", "may", "must", "should", "could", "would", "shall", "might"})


def _subject(clause: Clause):
    """Tokens before the clause's first auxiliary, modal or negator: roughly its subject."""
    stop = next((i for i, t in enumerate(clause.tokens) if t.lemma in _VERBAL or i in clause.negators),
                len(clause.tokens))
    return clause.tokens[:stop]


def same_names(claim: Clause, evidence: Clause, context: str) -> bool:
    """Names in the claim appear in the evidence's context, and the two do not name different things."""
    lowered = context.lower()
    if any(t.text.lower() not in lowered for t in claim.tokens if t.capitalised and t.content):
        return False
    claim_names, evidence_names = _names(claim.tokens), _names(evidence.tokens)
    return not (claim_names - evidence.lemmas and evidence_names - claim.lemmas)


@dataclass(frozen=True)
class Comparison:
    claim_clause: Clause
    evidence_clause: Clause
    shared: frozenset[str]
    claim: Polarity
    evidence: Polarity

    @property
    def mismatch(self) -> bool:
        return self.claim.negative != self.evidence.negative


def scope_words(text: str) -> frozenset[str]:
    """The words of a sentence that bound what it says; "over", "under", "above" ... only before a number
    ("over 30 days", not "over the phone" or "under the warranty")."""
    return _bounds(analyse(text).tokens)


def _bounds(tokens) -> frozenset[str]:
    return frozenset(t.lemma for i, t in enumerate(tokens) if t.lemma in SCOPE_WORDS and (
        t.lemma not in NUMERIC_SCOPE_WORDS or any(u.is_number for u in tokens[i + 1:i + 4])))


def _scope_of(text: str, chosen: Clause) -> frozenset[str]:
    """Scope words of a main clause and of the sentence's subordinate clauses (which may bound it: "if",
    "unless", "once"), not of other main clauses ("...; phones that only support 3G ...")."""
    return frozenset().union(*(_bounds(c.tokens) for c in clauses_of(text) if c is chosen or c.subordinate))


def compare(claim: str, evidence: str, context: str | None = None) -> Comparison | None:
    """The best-matching pair of main clauses of two sentences, with their polarities; None when
    they are not comparable (too little in common, different things, different scope words)."""
    best = None
    for cc in clauses_of(claim):
        if cc.subordinate or cc.embedded:
            continue
        for ec in clauses_of(evidence):
            if ec.subordinate or ec.embedded:
                continue
            shared = _shared(cc, ec)
            if len(shared) < 2:
                continue
            if best is None or len(shared) > len(best[2]):
                best = (cc, ec, shared)
    if best is None:
        return None
    cc, ec, shared = best
    if _scope_of(claim, cc) != _scope_of(evidence, ec):
        return None
    if not same_names(cc, ec, context or evidence):
        return None
    if not (_negation_scopes_shared(cc, shared, ec) and _negation_scopes_shared(ec, shared, cc)):
        return None
    return Comparison(cc, ec, shared, polarity_of(cc, ec), polarity_of(ec, cc))


def contradicts(a: str, b: str, min_shared: int = 2) -> Comparison | None:
    """Two passage sentences (context conflicts, corpus audit) whose polarities differ on the same thing:
    comparable clauses (either way round), the same thing by key or wording (scorers.guards.sameness),
    and subjects that share a word when both have one ("Visitors must sign in" / "Visitors do not need
    to sign in", not "Contractors do not need to sign in")."""
    for first, second in ((a, b), (b, a)):
        found = compare(first, second)
        if found is not None:
            break
    if found is None or not found.mismatch or len(found.shared) < min_shared or not same_thing(a, b):
        return None
    subject_a = frozenset(t.lemma for t in _subject(found.claim_clause) if t.content)
    subject_b = frozenset(t.lemma for t in _subject(found.evidence_clause) if t.content)
    if subject_a and subject_b and not matched(subject_a, subject_b):
        return None
    return found


def check(claim: str, sentences: list[EvidenceSentence], contexts: dict[str, str] | None = None,
          weak: float = 0.5) -> GuardResult:
    """The polarity guard for one claim against its evidence sentences."""
    ranked = align(claim, sentences)
    if not ranked:
        return GuardResult(NAME, False, detail="no evidence sentence shares content with the claim")
    top = ranked[0]
    # Ties at the top: a sentence that agrees in polarity wins (the guard stays silent when in doubt).
    rivals = [s for s in ranked if s.shared == top.shared]
    results = []
    for s in rivals:
        cmp = compare(claim, s.text, (contexts or {}).get(s.passage_id, s.text))
        results.append((s, cmp))
        if cmp is not None and not cmp.mismatch:
            return GuardResult(NAME, False, sentence=s, detail="same polarity as the best-aligned sentence")
    sentence, cmp = next(((s, c) for s, c in results if c is not None), (top, None))
    if cmp is None:
        return GuardResult(NAME, False, sentence=sentence, detail="no comparable clause")
    if not cmp.mismatch:
        return GuardResult(NAME, False, sentence=sentence, detail="same polarity")
    unstated = _unstated_heads(cmp)
    if unstated:
        return GuardResult(NAME, False, sentence=sentence,
                           detail=f"the claim negates what the evidence does not state ({', '.join(sorted(unstated))})")
    coverage = sentence.coverage
    if coverage < weak:
        return GuardResult(NAME, False, sentence=sentence,
                           detail=f"polarity differs but alignment is weak ({coverage:.2f})")
    neg_side = "evidence" if cmp.evidence.negative else "claim"
    words = cmp.evidence.negations if cmp.evidence.negative else cmp.claim.negations
    detail = (f"{neg_side} negates the shared predicate ({', '.join(words)}); "
              f"shared: {', '.join(sorted(cmp.shared))}; coverage {coverage:.2f}")
    return GuardResult(NAME, True, NOT_ENOUGH_INFO, FLAG, detail, sentence,
                       found={"negated_by": neg_side, "words": list(words), "coverage": round(coverage, 3)})


# Words between "not" and the predicate it negates: adverbs ("is not always open", "has not yet started")
# and light verbs ("does not get refunded", "is not going to change").
_BEFORE_PREDICATE = frozenset({"to", "always", "yet", "just", "even", "ever", "also",
                               "necessarily", "only", "still", "get", "go"})


def _negated_head(clause: Clause, i: int) -> str | None:
    """The word "not" or "never" at position i negates: the first content word after it that is not a
    helper, an adverb or a name ("Eating is not permitted in the Reading Room" -> "permit")."""
    tokens = clause.tokens
    for k in range(i + 1, len(tokens)):
        t = tokens[k]
        helper = t.lemma in _VERBAL or t.lemma in _BEFORE_PREDICATE or t.text.lower().endswith("ly") or (
            k + 1 < len(tokens) and tokens[k + 1].lemma == "to")  # "need to", "have to", "allowed to"
        if t.content and not helper and not t.capitalised:
            return t.lemma
    return None


def _unstated_heads(cmp: Comparison) -> set[str]:
    """What the claim says "not"/"never" of, when the compared sentence does not use it (nor its opposite,
    nor its prefixed form): then the two share a subject, not the negated predicate. Empty when the claim is
    the positive side, or negates by "no", "without", a verb of ending or an antonym."""
    if not cmp.claim.negative:
        return set()
    claim, other = cmp.claim_clause, cmp.evidence_clause
    positions = negations(claim, other)
    if not positions or any(claim.tokens[i].lemma not in PLAIN_NEGATORS or i not in claim.negators
                            for i in positions):
        return set()
    families = {_family(lemma) for lemma in other.lemmas} | other.lemmas
    heads = {_negated_head(claim, i) for i in positions}
    if any(h is None or _family(h) in families or unprefixed(h, other.lemmas) for h in heads):
        return set()
    return {_family(h) for h in heads}



def polar(sentence: str) -> bool:
    """Could the sentence differ in polarity from another? (a negator, or a word that negates by meaning or
    prefix) A cheap filter before `contradicts` over many sentence pairs."""
    if any(c.negators for c in clauses_of(sentence)):
        return True
    return any(t.lemma in ANTONYMS or negative_adjective(t.lemma) for t in analyse(sentence).tokens if t.content)
