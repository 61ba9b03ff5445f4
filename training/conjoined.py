"""Two claims about one premise joined by "and": a claim is only as supported as its weakest part.

Labelled sources such as SNLI give several hypotheses for one premise. Joined two at a time they teach
what the control family `conjunction_pair` tests and the mix barely shows: one unsupported or wrong
conjunct makes the whole claim unsupported or wrong, however well the other part matches.

    entailed + entailed      -> entailment
    entailed + neutral       -> neutral
    entailed + contradicted  -> contradiction

Only labelled pairs are joined (never a recipe's own pairs), so the premises are training premises.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict

from groundwatch.training.labels import LABEL2ID
from groundwatch.training.nli_data import Pair, is_recipe
from groundwatch.training.synthetic import sentences

ENT, NEU, CON = LABEL2ID["entailment"], LABEL2ID["neutral"], LABEL2ID["contradiction"]
SOURCE = "counter_conjoined"


def _one_sentence(text: str) -> str | None:
    """The claim without its final stop, when it is one short statement; else None."""
    text = text.strip().rstrip(".!").strip()
    if not text or any(ch in text for ch in ".?!;") or not 4 <= len(text.split()) <= 25:
        return None
    return text


def join(first: str, second: str, premise: str = "") -> str:
    """'A man sleeps.' + 'The dog barks.' -> 'A man sleeps and the dog barks.'; the second claim's first word
    keeps its capital where the premise or the first claim writes it so mid-sentence (a name)."""
    head, _, rest = second.partition(" ")
    if not re.search(rf"(?<![.!?] )(?<!^)\b{re.escape(head)}\b", f"{premise} {first}"):
        head = head.lower()
    return f"{first} and {head} {rest}".rstrip() + "."


def conjoined_pairs(train: list[Pair], seed: int, n: int) -> list[Pair]:
    """About n pairs, a third of each label, from premises with an entailed claim and another claim."""
    rng = random.Random(seed)
    claims: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for pair in train:
        text = None if is_recipe(pair.source) else _one_sentence(pair.hypothesis)
        if text:
            claims[pair.premise][pair.label].append(text)
    premises = sorted(p for p, by_label in claims.items() if by_label[ENT])
    rng.shuffle(premises)
    wanted = {ENT: n // 3, NEU: n // 3, CON: n - 2 * (n // 3)}
    out: list[Pair] = []
    for premise in premises:
        by_label = claims[premise]
        entailed = rng.choice(by_label[ENT])
        # A second entailed part: another entailed claim, else a sentence of the premise itself.
        choices = {ENT: [c for c in by_label[ENT] if c != entailed] or _premise_sentences(premise),
                   NEU: by_label[NEU], CON: by_label[CON]}
        open_labels = [label for label in (ENT, NEU, CON) if wanted[label] and choices[label]]
        if not any(wanted.values()):
            break
        if not open_labels:
            continue
        label = max(open_labels, key=lambda lab: wanted[lab])
        other = rng.choice(choices[label])
        parts = [entailed, other] if rng.random() < 0.5 else [other, entailed]
        out.append(Pair(premise, join(*parts, premise), label, SOURCE))
        wanted[label] -= 1
    return out


def _premise_sentences(premise: str) -> list[str]:
    return [s for s in map(_one_sentence, sentences(premise)) if s]
