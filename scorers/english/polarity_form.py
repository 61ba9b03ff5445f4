"""Opposites written as a negated word, in what the NLI model reads: "optional" -> "not required".

The default NLI model judges polarity by negation words, not by meaning. It reads "Eating is not
permitted" against "Food is prohibited" as a contradiction (a negation on one side only) and "Eating
is permitted" against the same passage as entailment (an antonym is just another word). Rewriting
both sides of each pair with one word per predicate turns polarity into what the model does read:
"Eating is not allowed" against "Food is not allowed" agrees, "Eating is allowed" against it does not.

What is rewritten (`scorer.polarity_form`, on by default), in premises and claims alike:
- adjectives that negate by a prefix, from the curated list the guards use ("unheated" -> "not heated",
  "non-refundable" -> "not refundable", "invalid" -> "not valid");
- a few adjectives and participles that deny a predicate ("optional" -> "not required", "prohibited"
  -> "not allowed", "closed" -> "not open"), participles only after a form of "be", "remain" or "stay"
  ("the branch is closed", not "the branch closed at 5");
- their synonyms, written as the one word ("mandatory", "compulsory" -> "required", "permitted" ->
  "allowed");
- two negations that cancel, written positively: "not optional" -> "required" (not "not not required"),
  "There is no branch without Wi-Fi" -> "Every branch has Wi-Fi".
Verbs are left alone ("you can disable it" does not say "you cannot enable it"), and so are
directional opposites ("decreased" is not "not increased"). The records keep the texts as written;
only the model's input changes.
"""

from __future__ import annotations

from groundwatch.scorers.byte_cache import MB, byte_cached
from groundwatch.scorers.english.lemmas import analyse, negated_base, perfect_participle
from groundwatch.scorers.english.negation import NOT_AS_WRITTEN, PLAIN_NEGATORS

# Adjectives, rewritten anywhere: the predicate they deny ("optional") or restate ("mandatory").
ADJECTIVES = {"optional": "not required", "voluntary": "not required", "private": "not public",
              "manual": "not automatic", "variable": "not fixed", "temporary": "not permanent",
              "mandatory": "required", "compulsory": "required", "obligatory": "required"}
# Participles, rewritten only after a copula ("is closed", not "closed at 5").
PARTICIPLES = {"prohibited": "not allowed", "forbidden": "not allowed", "banned": "not allowed",
               "disallowed": "not allowed", "excluded": "not included", "disabled": "not enabled",
               "deactivated": "not enabled", "closed": "not open", "shut": "not open",
               "rejected": "not accepted", "declined": "not accepted", "refused": "not accepted",
               "hidden": "not visible",
               "permitted": "allowed"}
_COPULA_VERBS = frozenset({"be", "remain", "stay", "become", "get"})
# Words that may stand between the copula and the participle, besides any -ly adverb.
_BETWEEN = frozenset({"always", "still", "usually", "generally", "normally", "currently", "also", "strictly", "fully",
                      "completely"}) | PLAIN_NEGATORS


def _after_copula(tokens, i: int) -> bool:
    """A copula within the three words before token i ("is closed", "is not strictly prohibited")."""
    for t in reversed(tokens[max(0, i - 3):i]):
        if t.lemma in _COPULA_VERBS:
            return True
        if t.lemma not in _BETWEEN and not t.text.lower().endswith("ly"):
            return False
    return False


def _replacement(tokens, i: int) -> str | None:
    word = tokens[i].text.lower()
    base = negated_base(word)
    if base is not None and not perfect_participle(tokens, i):  # "have uncovered evidence" is no "not covered"
        return f"not {base}"
    if word in ADJECTIVES:
        return ADJECTIVES[word]
    if word in PARTICIPLES and _after_copula(tokens, i):
        return PARTICIPLES[word]
    return None


_HYPHENATED_SUFFIXES = ("able", "ible", "ed", "ing", "al", "ive", "ent", "ant")


def _non_hyphen(tokens, i: int) -> bool:
    """"non-refundable", "non-lending": the tokens non, -, an adjective or participle, written together."""
    return (i + 2 < len(tokens) and tokens[i].text.lower() == "non" and tokens[i + 1].text == "-"
            and tokens[i + 1].start == tokens[i].end and tokens[i + 2].start == tokens[i + 1].end
            and tokens[i + 2].text.lower().endswith(_HYPHENATED_SUFFIXES))


def _no_without(tokens, i: int, text: str) -> tuple[str, int] | None:
    """(rewrite, next index) of "There is no N without M" / "There isn't a N without M" at token i: "Every N
    has M" (plural: "All N have M"). Two negations the model reads as one."""
    if i + 3 >= len(tokens) or tokens[i].lemma != "there" or tokens[i + 1].lemma != "be":
        return None
    j = i + 2
    if tokens[j].lemma == "no":
        j += 1
    elif tokens[j].lemma == "not" and tokens[j + 1].lemma in ("a", "an", "any"):
        j += 2
    else:
        return None
    for k in range(j + 1, min(j + 9, len(tokens))):
        if tokens[k].is_punct and tokens[k].text != "-":
            return None
        if tokens[k].lemma == "without":
            noun = text[tokens[j].start:tokens[k - 1].end]
            plural = tokens[i + 1].text.lower() in ("are", "were") or tokens[j - 1].lemma == "any"
            return (f"All {noun} have" if plural else f"Every {noun} has"), k + 1
    return None


def _after_not(tokens, first: int, new: str, cursor: int) -> bool:
    """"not optional" -> "required", not "not not required": a rewrite to "not ..." right after "not" / "n't"."""
    return (new.startswith("not ") and first > 0 and tokens[first - 1].text.lower() in NOT_AS_WRITTEN
            and tokens[first - 1].start >= cursor)


@byte_cached(16 * MB)
def polarity_form(text: str) -> str:
    """`text` with each listed opposite written as "not" and the predicate it denies."""
    tokens = analyse(text).tokens
    out, cursor, i = [], 0, 0
    while i < len(tokens):
        first, token, end = i, tokens[i], tokens[i].end
        quantified = _no_without(tokens, i, text)
        if quantified is not None:
            new, i = quantified
            end = tokens[i - 1].end
        elif _non_hyphen(tokens, i):
            new, end, i = f"not {tokens[i + 2].text.lower()}", tokens[i + 2].end, i + 3
        else:
            new, i = _replacement(tokens, i), i + 1
        if new is None:
            continue
        start = token.start
        if _after_not(tokens, first, new, cursor):  # the two negations cancel
            negation = tokens[first - 1]
            new, start = (" " if negation.text.lower() == "n't" else "") + new[4:], negation.start
        if text[start:start + 1].isupper():
            new = new[0].upper() + new[1:]
        before = text[cursor:start]
        if before.endswith(("an ", "An ")):  # "an invalid token" -> "a not valid token"
            before = before[:-2] + " "
        out += [before, new]
        cursor = end
    return "".join(out) + text[cursor:] if out else text
