"""Counter-shortcut pairs: every surface cue of the synthetic recipes also appears under the other labels.

`synthetic.negate` maps an added or removed negation to contradiction and `synthetic.edit_number` maps a
changed number to contradiction; alone they teach "negation word -> contradiction" and "different digits
-> contradiction". These recipes rewrite a premise sentence so that it says the *same* thing with a
negation or with a differently written number (entailment), next to minimal pairs that do not
(contradiction or neutral):

- antonyms: "is open" -> "is not closed" (entailed: whatever is A is not its antonym B), "is closed" and
  "is not open" (contradicted), so both the antonym and the negation appear under both labels; for prefixed
  pairs the entailed one is a double negation ("is visible" -> "is not invisible").
- quantities: "3 cm" -> "30 mm" (entailed, the same amount in another unit), "90 mm" (contradicted, a wrong
  conversion); "6 cases" -> "six cases" (entailed), "four cases" (contradicted). Bounds keep both number cues
  under both labels: "less than 90 mm" (entailed, a different number) and "more than 30 mm" (contradicted,
  the same amount rewritten), each comparison drawn at random so neither direction pairs with one label.
- conjunctions: "X and Y are" -> "both X and Y are" (entailed), "only X is" (contradicted).
- negated claims: "It is not true that H." is entailed where the source labels H a contradiction of the
  premise and contradicted where it labels H entailed; drawn half from each, so a negation word in the
  claim says nothing about the label (the negation recipe of synthetic.py only ever maps it to contradiction).
- computed values (templates over subjects taken from the mix): parts and their total, a change between two
  values and its percentage, a time range and its duration, 12-hour and 24-hour clock times.
- copies (`copy_pairs`, opt-in): a sentence of the premise, word for word, is entailed. The negation and
  number recipes draw their contradictions from the premise's own sentences with one edit, so without
  copies "the claim is almost a sentence of the premise" itself reads as contradiction: the model gave
  a verbatim sentence holding a number contradiction or neutral about one time in six. Beside each copy,
  optionally, the same sentence with one detail taken from another premise ("... in 1998", "... at the
  Royal Infirmary") is not entailed, so a near copy is not entailment either.

The antonyms come from WordNet 3.0 (training/lexicon/antonyms.tsv, its licence beside it); the unit pairs
are the table below. Neither may share a pair with the hand-written controls (examples/controls/): a test
checks it, so the controls measure rewordings the model never saw. English only.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

from groundwatch.scorers.english.negation import NEGATED_HELPERS, VERB_GROUP_NEGATORS
from groundwatch.scorers.english.units import NUMBER_WORDS
from groundwatch.training.cues import NEGATIONS, tokens
from groundwatch.training.labels import LABEL2ID, NOT_ENTAILMENT
from groundwatch.training.nli_data import Pair, is_recipe
from groundwatch.training.synthetic import sentences, swap_entities

ENT, NEU, CON = LABEL2ID["entailment"], LABEL2ID["neutral"], LABEL2ID["contradiction"]
LEXICON = Path(__file__).resolve().parent / "lexicon" / "antonyms.tsv"
SYNONYMS = LEXICON.with_name("synonyms.tsv")

# (unit as written, other unit, how many of the other make one): exact conversions only.
UNIT_PAIRS: tuple[tuple[str, str, int], ...] = (
    ("cm", "mm", 10), ("centimetres", "millimetres", 10), ("centimeters", "millimeters", 10),
    ("tonnes", "kilograms", 1000), ("tons", "pounds", 2000), ("feet", "inches", 12), ("yards", "feet", 3),
    ("miles", "yards", 1760), ("decades", "years", 10), ("centuries", "years", 100),
    ("kilowatts", "watts", 1000), ("megawatts", "kilowatts", 1000), ("gallons", "quarts", 4),
    ("dozen", "units", 12), ("minutes", "seconds", 60),
)
# The counts the number recipe writes out in words, spelled by the one table of number words.
WORD_NUMBERS = {n: w for w, n in NUMBER_WORDS.items() if n in (2, 3, 4, 5, 6, 7, 8, 9, 11, 15, 20, 40, 50)}

_COPULA_ADJ = re.compile(r"\b(is|are|was|were|be|been|remains|remain|seems|seem)\s+(?:(very|fully|still|now)\s+)?"
                         r"([a-z]+)\b")
_UNIT_NUMBER = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s+(" + "|".join(sorted({u for u, _, _ in UNIT_PAIRS},
                                                                               key=len, reverse=True)) + r")\b")
# A small count of a plural noun ("6 confirmed cases"), not a date, a title or a score.
_SMALL_NUMBER = re.compile(r"(?<![\w.,$£€%:/-])(" + "|".join(str(n) for n in sorted(WORD_NUMBERS, reverse=True))
                           + r")(?= (?:[a-z]+ )?[a-z]{3,}s\b)")
# A sentence-initial subject of two nouns: "The pool and gym are ...".
_NOUN_AND = re.compile(r"^(The |Their |Its |His |Her )?([A-Za-z][a-z]+) and ([a-z]+) (are|were|have|can|will)\b")
# A predicative adjective ends its phrase: "is open.", "is open to", not "is best known" or "was first released".
_AFTER_ADJECTIVE = re.compile(r"\s*(?:[,.;:!?)]|$|(?:and|or|but|to|for|in|on|at|by|with|than|when|if|because)\b)")
# A participle ("closed", "born", "expected") only where its phrase ends: "is closed." not "was born in".
_NEGATOR_BEFORE = re.compile(r"\b(" + "|".join(sorted(VERB_GROUP_NEGATORS)) + r")\b")  # before "is A"
_PHRASE_END = re.compile(r"\s*(?:[,.;:!?)]|$|(?:and|or|but)\b)")


def _labelled_premises(train: list[Pair]) -> list[str]:
    """The distinct premises of the labelled sources (never a recipe's own), 8 to 120 words, in mix order."""
    return list(dict.fromkeys(p.premise for p in train
                              if not is_recipe(p.source) and 8 <= len(p.premise.split()) <= 120))


def copy_pairs(train: list[Pair], seed: int, n: int, details: bool = False, alone: float = 0.0,
               swaps: bool = False) -> list[Pair]:
    """`n` premise sentences as their own claims (entailment), from labelled premises of `train`; one per
    premise, one with a negation or a number where the premise has one, so those cues appear under
    entailment next to the recipes' one-edit contradictions of the same sentences. A one-sentence premise
    is set among one to three others, as a retrieved chunk would hold it. A share `alone` of the copies
    is scored against the sentence by itself instead, as the scorer's sentence premise does: without it
    the model only ever saw a one-sentence premise beside a one-edit claim, and contradicted an exact copy.
    With `details`, each copy also comes with one detail added (`added_detail`) as not-entailment; with
    `swaps`, with two of its names swapped (`synthetic.swap_entities`) as not-entailment, so "the same
    words as the premise" does not mean entailment when the roles change. A seed of its own: the other
    recipes keep their pairs."""
    rng = random.Random(seed + 101)
    by_itself = random.Random(seed + 103)  # its own stream: alone=0 draws the pairs of earlier runs
    premises = _labelled_premises(train)
    rng.shuffle(premises)
    fillers = [p for p in premises if len(p.split()) <= 40]
    phrases = [m.group(0) for p in fillers[:20000] for m in _DETAIL.finditer(p)] if details else []
    out, copies = [], 0
    for premise in premises:
        if copies >= n:
            break
        candidates = sentences(premise)
        if not candidates:
            continue
        copies += 1
        cued = [s for s in candidates if _cued(s)]
        claim = rng.choice(cued or candidates)
        if alone and by_itself.random() < alone:
            premise = claim
        elif len(candidates) == 1 and fillers:
            parts = [premise] + rng.sample(fillers, min(len(fillers), rng.randint(1, 3)))
            rng.shuffle(parts)
            premise = " ".join(parts)
        out.append(Pair(premise, claim, ENT, "counter_copy"))
        detailed = added_detail(claim, premise, rng.choice(phrases)) if phrases else None
        if detailed:
            out.append(Pair(premise, detailed, NOT_ENTAILMENT, "counter_copy"))
        swapped = swap_entities(claim, by_itself) if swaps and not _LISTED_NAMES.search(claim) else None
        if swapped:
            out.append(Pair(premise, swapped, NOT_ENTAILMENT, "counter_copy"))
    return out


# Two names in a list ("Leeds, Hull and York"): swapping them keeps the meaning.
_LISTED_NAMES = re.compile(r"[A-Z][a-z]+ ?(?:,|and|or|&|/) ?(?:and |or )?[A-Z][a-z]+")

# A place, date or organisation phrase: "in 1998", "at the Royal Infirmary", "for Universal Pictures".
_DETAIL = re.compile(r"\b(?:in|at|during|for|from|with|by|near|since) (?:the )?"
                     r"(?:1[5-9]\d\d|20\d\d|(?!(?:You|It|They|He|She|We|This|That|These|Those)\b)"
                     r"[A-Z][a-z]+(?: [A-Z][a-z]+){0,2})\b")


def added_detail(sentence: str, premise: str, phrase: str) -> str | None:
    """`sentence` with `phrase` added before its final stop, or None when the premise already holds any
    word of the phrase's name (then the detail may be given)."""
    name = {w.lower() for w in phrase.split()[1:] if w.lower() != "the"}
    sentence = sentence.rstrip()
    if name & {w.lower() for w in re.findall(r"\w+", premise)} or not sentence.endswith("."):
        return None
    return sentence[:-1].rstrip() + " " + phrase + "."


def _lexicon_rows(path: Path) -> list[tuple[str, ...]]:
    """(pos, word, other word) rows of a lexicon file of `training/wordnet_lexicon.py`."""
    return [tuple(line.split("\t")) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def load_synonyms(path: Path = SYNONYMS) -> dict[str, list[str]]:
    """word -> its synonyms (both directions; every part of speech: a word is swapped only as written)."""
    table: dict[str, list[str]] = {}
    for _, a, b in _lexicon_rows(path):
        table.setdefault(a, []).append(b)
        table.setdefault(b, []).append(a)
    return table


def synonym_pairs(train: list[Pair], seed: int, n: int) -> list[Pair]:
    """`n` premise sentences with one or two words swapped for a WordNet synonym, entailed. The one-edit
    recipes change a word of a premise sentence and call it a contradiction; a near copy that says the
    same in other words ("pick the invoice" for "select the invoice") is their counterpart. A word is
    swapped only as written (a base form for a base form) and never in a sentence with a negation."""
    rng = random.Random(seed + 107)
    table = load_synonyms()
    premises = _labelled_premises(train)
    rng.shuffle(premises)
    out = []
    for premise in premises:
        if len(out) >= n:
            break
        sentence = rng.choice(sentences(premise) or [""])
        words = sentence.split(" ")
        if not sentence or NEGATIONS & set(tokens(sentence)):
            continue
        spots = [i for i, w in enumerate(words) if i > 0 and w.rstrip(",.;:") in table]
        if not spots:
            continue
        for i in rng.sample(spots, min(len(spots), rng.randint(1, 2))):
            word = words[i].rstrip(",.;:")
            words[i] = rng.choice(table[word]) + words[i][len(word):]
            if words[i - 1].lower() in ("a", "an"):  # "a huge" -> "an immense"
                words[i - 1] = words[i - 1][0] + ("n" if words[i][0] in "aeiou" else "")
        out.append(Pair(premise, " ".join(words), ENT, "counter_synonym"))
    return out


def _cued(sentence: str) -> bool:
    return any(ch.isdigit() for ch in sentence) or bool(set(tokens(sentence)) & NEGATIONS)


def load_antonyms(path: Path = LEXICON) -> dict[str, set[str]]:
    """adjective -> its antonyms (both directions)."""
    table: dict[str, set[str]] = {}
    for pos, a, b in _lexicon_rows(path):
        if pos == "a":
            table.setdefault(a, set()).add(b)
            table.setdefault(b, set()).add(a)
    return table


def antonym_pairs(premise: str, sentence: str, antonyms: dict[str, set[str]], rng: random.Random) -> list[Pair]:
    """'is A' -> 'is not B' (entailed), 'is B' (contradicted); B an antonym of A."""
    for m in _COPULA_ADJ.finditer(sentence):
        adjective = m.group(3)
        if adjective not in antonyms or not _AFTER_ADJECTIVE.match(sentence, m.end()):
            continue
        if adjective.endswith(("ed", "en", "rn")) and not _PHRASE_END.match(sentence, m.end()):
            continue
        if _NEGATOR_BEFORE.search(sentence[max(0, m.start() - 12):m.start()]):
            continue
        other = rng.choice(sorted(antonyms[adjective]))
        start, end = m.start(3), m.end(3)
        negated = sentence[:start] + "not " + other + sentence[end:]
        if m.group(2):  # "is very A" -> "is not B": drop the degree word before the negation
            negated = sentence[:m.start(2)] + "not " + other + sentence[end:]
        denied = sentence[:start] + "not " + adjective + sentence[end:]
        if m.group(2):
            denied = sentence[:m.start(2)] + "not " + adjective + sentence[end:]
        # The sentence as written (entailed, no cue) keeps the label shares of the four at one half.
        return [Pair(premise, negated, ENT, "counter_antonym"),
                Pair(premise, sentence[:start] + other + sentence[end:], CON, "counter_antonym"),
                Pair(premise, denied, CON, "counter_antonym"),
                Pair(premise, sentence, ENT, "counter_antonym")]
    return []


def _format(value: Fraction) -> str | None:
    if value.denominator == 1:
        return f"{int(value):,}"
    if (value * 10).denominator == 1:
        return f"{float(value):.1f}"
    return None


def bound_pairs(premise: str, sentence: str, span: tuple[int, int], same: str, wrong: str, lower: str | None,
                unit: str, rng: random.Random, source: str) -> list[Pair]:
    """A bound the amount meets (entailed, another number) and one it misses (contradicted, the same number).

    `same` is the amount rewritten, `wrong` a larger one, `lower` a smaller one (or None)."""
    less, more = ("fewer than", "more than") if not unit else ("less than", "more than")
    head, tail = sentence[:span[0]], sentence[span[1]:]
    unit = f" {unit}" if unit else ""
    met = [f"{less} {wrong}"] + ([f"{more} {lower}"] if lower else [])
    missed = [f"{less} {same}", f"{more} {same}"]
    return [Pair(premise, head + rng.choice(met) + unit + tail, ENT, source),
            Pair(premise, head + rng.choice(missed) + unit + tail, CON, source)]


def quantity_pairs(premise: str, sentence: str, rng: random.Random) -> list[Pair]:
    """The same amount in another unit (entailed), a wrong conversion (contradicted), a number in words, and
    bounds around the amount (see `bound_pairs`)."""
    out = []
    m = _UNIT_NUMBER.search(sentence)
    if m:
        value, unit = Fraction(m.group(1)), m.group(2)
        for a, b, factor in UNIT_PAIRS:
            if unit == a:
                same, other = _format(value * factor), b
            elif unit == b and (value / factor) > 0:
                same, other = _format(value / factor), a
            else:
                continue
            wrong = _format(Fraction(same.replace(",", "")) * rng.choice([2, 3, 10]) if same else Fraction(0))
            if same and wrong and wrong != same:
                half = Fraction(same.replace(",", "")) / 2
                lower = _format(half) if half >= 1 else None
                out.append(Pair(premise, sentence[:m.start()] + f"{same} {other}" + sentence[m.end():], ENT,
                                "counter_quantity"))
                out.append(Pair(premise, sentence[:m.start()] + f"{wrong} {other}" + sentence[m.end():], CON,
                                "counter_quantity"))
                out += bound_pairs(premise, sentence, m.span(), same, wrong, lower, other, rng, "counter_quantity")
            break
    n = _SMALL_NUMBER.search(sentence)
    if n and not out:
        number = int(n.group(1))
        wrong = rng.choice([w for k, w in WORD_NUMBERS.items() if k != number])
        in_words = sentence[:n.start()] + WORD_NUMBERS[number] + sentence[n.end():]
        out.append(Pair(premise, in_words, ENT, "counter_quantity"))
        out.append(Pair(premise, sentence[:n.start()] + wrong + sentence[n.end():], CON, "counter_quantity"))
        larger = [w for k, w in WORD_NUMBERS.items() if k > number]
        smaller = [w for k, w in WORD_NUMBERS.items() if k < number]
        if larger:
            out += bound_pairs(premise, sentence, n.span(), WORD_NUMBERS[number], rng.choice(larger),
                               rng.choice(smaller) if smaller else None, "", rng, "counter_quantity")
    return out


def conjunction_pairs(premise: str, sentence: str, rng: random.Random) -> list[Pair]:
    """'X and Y are ...' -> 'Both X and Y are ...' (entailed), 'Only X is ...' (contradicted)."""
    m = _NOUN_AND.match(sentence)
    if not m or m.group(2).lower() in ("both", "neither", "either") or re.search(r"\b(both|neither)\b", sentence[1:]):
        return []
    det = m.group(1).lower() if m.group(1) else ""
    first = m.group(2)
    if not det and not re.search(rf"(?<![.!?] )\b{first}\b", premise[1:]):  # not a name used mid-sentence
        first = first.lower()
    rest = sentence[m.end():]
    verb = {"are": "is", "were": "was", "have": "has"}.get(m.group(4), m.group(4))
    return [Pair(premise, f"Both {det}{first} and {m.group(3)} {m.group(4)}{rest}", ENT, "counter_conjunction"),
            Pair(premise, f"Only {det}{first} {verb}{rest}", CON, "counter_conjunction")]


_ITEMS = ["the survey", "the repair", "the course", "the shipment", "the workshop", "the licence", "the audit",
          "the renovation", "the subscription", "the inspection", "the booking", "the trial"]
_PARTS = [("labour", "materials"), ("the deposit", "the balance"), ("shipping", "handling"),
          ("the base fee", "the surcharge"), ("tuition", "accommodation")]


def computed_pairs(rng: random.Random, subject: str) -> list[Pair]:
    """Parts and total, a change and its percentage, a range and its duration, clock formats."""
    out = []
    a, b = rng.randint(2, 90) * 10, rng.randint(2, 90) * 10
    first, second = rng.choice(_PARTS)
    premise = f"For {subject}, {first} costs ${a} and {second} costs ${b}."
    out += [Pair(premise, f"{subject.capitalize()} costs ${a + b} in total.", ENT, "counter_computed"),
            Pair(premise, f"{subject.capitalize()} costs ${a + b + rng.choice([10, 20, 50])} in total.", CON,
                 "counter_computed")]
    base = rng.choice([40, 80, 120, 200, 400, 500, 800])
    pct = rng.choice([5, 10, 20, 25, 50])
    new = base + base * pct // 100
    premise = f"The number of participants in {subject} grew from {base} to {new} this year."
    out += [Pair(premise, f"Participation in {subject} rose by {pct}% this year.", ENT, "counter_computed"),
            Pair(premise, f"Participation in {subject} rose by {pct + rng.choice([5, 10, 15])}% this year.", CON,
                 "counter_computed")]
    start, minutes = rng.randint(7, 15), rng.choice([30, 45, 75, 90, 105, 120, 150])
    end_h, end_m = start + (minutes // 60), minutes % 60
    premise = f"{subject.capitalize()} runs from {start}:00 to {end_h}:{end_m:02d} on Thursdays."
    out += [Pair(premise, f"On Thursdays {subject} lasts {minutes} minutes.", ENT, "counter_computed"),
            Pair(premise, f"On Thursdays {subject} lasts {minutes + 30} minutes.", CON, "counter_computed")]
    hour = rng.randint(1, 11)
    premise = f"Registration for {subject} closes at {hour} pm on Friday."
    out += [Pair(premise, f"Registration for {subject} closes at {hour + 12}:00 on Friday.", ENT,
                 "counter_computed"),
            Pair(premise, f"Registration for {subject} closes at {hour}:00 on Friday.", CON, "counter_computed")]
    return out


_LOWER_FIRST = {"the", "a", "an", "there", "it", "this", "that", "these", "those", "some", "many", "most", "all",
                "his", "her", "its", "their", "our", "two", "three", "several", "people", "men", "women"}


def _negatable(hypothesis: str) -> str | None:
    """The claim, stripped, when it is one statement without a negation; else None."""
    text = hypothesis.strip()
    if not text or NEGATIONS & set(tokens(text)) or len(sentences(text)) != 1 or text.endswith("?"):
        return None
    return text


def negated_claim(hypothesis: str) -> str | None:
    """'The shop opens at 9.' -> 'It is not true that the shop opens at 9.'; None for a claim that already
    has a negation or is more than one sentence."""
    text = _negatable(hypothesis)
    if text is None:
        return None
    first, _, rest = text.partition(" ")
    if first.lower() in _LOWER_FIRST:
        first = first.lower()
    return f"It is not true that {first} {rest}".rstrip(" .!") + "."


# "has", "have", "had" take a negation only before a participle ("has been", "had opened"), not as the
# main verb ("the room has a safe").
_PERFECT = frozenset({"has", "have", "had"})


def natural_negation(hypothesis: str, rng: random.Random) -> str | None:
    """'The man is sleeping.' -> 'The man is not sleeping.' or '... isn't sleeping.': the negation written where
    people write it, at the claim's first helper verb; None when it has none (or a negation already). A
    template ('It is not true that ...') teaches its own words, not negation."""
    text = _negatable(hypothesis)
    if text is None:
        return None
    words = text.split(" ")
    for i in range(1, len(words) - 1):
        helper = words[i].lower()
        if helper not in NEGATED_HELPERS:
            continue
        if helper in _PERFECT and not re.match(r"[a-z]+(ed|en|wn|ne)\b", words[i + 1]):
            return None
        short = NEGATED_HELPERS[helper]
        negated = short if " " in short or rng.random() < 0.5 else ("cannot" if helper == "can" else f"{helper} not")
        if words[i][0].isupper():
            negated = negated[0].upper() + negated[1:]
        return " ".join(words[:i] + [negated] + words[i + 1:])
    return None


def claim_negation_pairs(train: list[Pair], rng: random.Random, n: int, natural: bool = False) -> list[Pair]:
    """About n pairs, half "not H" for an entailed H (contradiction), half for a contradicted H (entailment),
    from the labelled sources only (never from a recipe's own pairs). `natural`: the negation at the claim's
    helper verb where it has one (`natural_negation`), else the template."""
    flipped = {ENT: CON, CON: ENT}
    pools: dict[int, list[Pair]] = {ENT: [], CON: []}
    for pair in train:
        if pair.label in flipped and not is_recipe(pair.source):
            pools[pair.label].append(pair)
    out = []
    for label, pool in pools.items():
        rng.shuffle(pool)
        made = 0
        for pair in pool:
            if made >= n // 2:
                break
            claim = (natural and natural_negation(pair.hypothesis, rng)) or negated_claim(pair.hypothesis)
            if claim:
                out.append(Pair(pair.premise, claim, flipped[label], "counter_negated_claim"))
                made += 1
    return out


def build(train: list[Pair], seed: int, per_recipe: int, natural_negations: bool = False) -> list[Pair]:
    """Counter-shortcut pairs from premises of `train` (never from validation); about `per_recipe` each.
    `natural_negations`: negated claims written at their helper verb (`natural_negation`)."""
    rng = random.Random(seed)
    antonyms = load_antonyms()
    premises = [p.premise for p in train if 8 <= len(p.premise.split()) <= 120]
    rng.shuffle(premises)
    made = {"antonym": [], "quantity": [], "conjunction": []}
    for premise in premises:
        if all(len(v) >= per_recipe for v in made.values()):
            break
        for sentence in sentences(premise):
            if len(made["antonym"]) < per_recipe:
                made["antonym"] += antonym_pairs(premise, sentence, antonyms, rng)
            if len(made["quantity"]) < per_recipe:
                made["quantity"] += quantity_pairs(premise, sentence, rng)
            if len(made["conjunction"]) < per_recipe:
                made["conjunction"] += conjunction_pairs(premise, sentence, rng)
    out = [p for pairs in made.values() for p in pairs]
    out += claim_negation_pairs(train, rng, per_recipe, natural_negations)
    subjects = _ITEMS
    for _ in range(per_recipe // 9):
        out += computed_pairs(rng, rng.choice(subjects))
    return out
