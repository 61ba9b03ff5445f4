"""Extract the antonym and synonym pairs the counter-shortcut recipes use from WordNet 3.0.

    apt-get install wordnet-base && python -m groundwatch.training.wordnet_lexicon

Reads Debian's `wordnet-base` files (/usr/share/wordnet) and writes training/lexicon/antonyms.tsv:
direct antonyms ("!" pointers) of adjectives and verbs whose both words are single, lower-case and
used in WordNet's sense-tagged corpus (a tag count above zero: common words, not "acaudate"); and
training/lexicon/synonyms.tsv: two such words of one synset that is the first (most frequent) sense of
both, so a swap keeps the meaning out of context ("buy"/"purchase", not "bank"/"depository").
The extracted files are committed with WordNet's licence (training/lexicon/WORDNET_LICENSE), so
training needs neither the Debian package nor a download. English only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

WORDNET = Path("/usr/share/wordnet")
OUT = Path(__file__).resolve().parent / "lexicon" / "antonyms.tsv"
SYNONYMS = OUT.with_name("synonyms.tsv")
_POS = (("adj", "a"), ("adv", "r"), ("verb", "v"), ("noun", "n"))


def _index(pos: str) -> list[list[str]]:
    """The lemma lines of index.<pos>, split: lemma, pos, synset_cnt, p_cnt, p_cnt pointers, sense_cnt,
    tagsense_cnt, then the synset offsets, most frequent sense first (the licence header is skipped)."""
    lines = (WORDNET / f"index.{pos}").read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if not line.startswith(" ")]


def _tagged_counts(pos: str) -> dict[str, int]:
    """lemma -> sense-tagged occurrence count, from index.<pos>."""
    return {fields[0]: int(fields[4 + int(fields[3]) + 1]) for fields in _index(pos)}


def _first_senses(pos: str) -> dict[str, str]:
    """lemma -> the offset of its first synset (WordNet lists a lemma's senses most frequent first)."""
    return {fields[0]: fields[4 + int(fields[3]) + 2] for fields in _index(pos)}


def _sense_counts() -> tuple[dict[tuple[str, str], int], dict[tuple[str, str], int]]:
    """How often WordNet's sense-tagged corpus tags (lemma, pos) in its first sense, and in any sense."""
    pos_of = {"1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj"}
    first, total = {}, {}
    for line in (WORDNET / "cntlist.rev").read_text(encoding="utf-8").splitlines():
        key, sense, count = line.split()
        lemma, _, kind = key.partition("%")
        pos = (lemma, pos_of[kind[0]])
        total[pos] = total.get(pos, 0) + int(count)
        if sense == "1":
            first[pos] = int(count)
    return first, total


# Closed-class words WordNet also lists as adverbs or nouns ("as"/"equally", "on"/"along", "about"/"roughly",
# "someone"/"person"), focus words that change a claim ("only", "just", "even") and past forms that are
# another verb's base form ("found", "left"): swapped as written they break the sentence or its meaning.
_NEVER_SWAPPED = frozenset("""
about above across after against along among around as at before behind below beside between beyond but by
down during except for from in inside into like near of off on onto out outside over past since than through
throughout till to toward towards under until up upon with within without and or so yet then there here now
all some any each every much more most less least few many someone somebody anyone anybody everyone everybody
nobody something anything everything nothing only just even also still too very quite rather almost nearly
found left saw felt lay ground bore rose wound
""".split())

# First senses that are not the sense of running text, checked by hand.
_NOT_SYNONYMS = frozenset(tuple(pair.split("/")) for pair in """
do/make go/move go/travel move/travel hold/keep hold/maintain keep/maintain draw/pull say/tell live/populate
conquer/inhibit plant/works authorities/government determination/finding battle/engagement cheery/gay
curious/queer peculiar/queer militia/reserves christ/jesus bible/scripture babe/baby damned/darned
apply/use apply/employ apply/utilize contribute/lend clutch/seize shooting/shot ma/mama ma/mamma mama/mamma
pa/papa foliage/leaf cattle/cows cattle/oxen cows/oxen mode/way manner/way style/way passage/transition
intake/uptake presently/soon guess/reckon frantically/madly crawl/creep creak/screech engineering/technology
""".split())


def synonyms(min_count: int = 5, dominance: float = 0.8) -> list[tuple[str, str, str]]:
    """(pos, word, synonym): single words whose first sense is one and the same synset, that sense tagged
    at least `min_count` times for both (common words in their common sense), and both words tagged in
    that part of speech at least `dominance` of the time ("form" is mostly a noun: no swap for the verb)."""
    first, total = _sense_counts()
    everywhere: dict[str, int] = {}
    for (lemma, _), n in total.items():
        everywhere[lemma] = everywhere.get(lemma, 0) + n
    rows = set()
    for pos, tag in _POS:
        by_synset: dict[str, list[str]] = {}
        for lemma, offset in _first_senses(pos).items():
            if (lemma.isalpha() and lemma.islower() and lemma not in _NEVER_SWAPPED
                    and first.get((lemma, pos), 0) >= min_count
                    and total[(lemma, pos)] >= dominance * everywhere[lemma]):
                by_synset.setdefault(offset, []).append(lemma)
        for words in by_synset.values():
            rows.update((tag, a, b) for a in words for b in words
                        if a < b and (a, b) not in _NOT_SYNONYMS and min(len(a), len(b)) > 2)
    return sorted(rows)


def _antonyms(pos: str) -> set[tuple[str, str]]:
    pairs = set()
    data = {}
    lines = (WORDNET / f"data.{pos}").read_text(encoding="utf-8").splitlines()
    for line in lines:
        if line.startswith(" "):
            continue
        fields = line.split(" | ")[0].split()
        offset, w_cnt = fields[0], int(fields[3], 16)
        words = [fields[4 + 2 * i].split("(")[0].lower() for i in range(w_cnt)]
        data[offset] = (words, fields)
    for offset, (words, fields) in data.items():
        w_cnt = len(words)
        at = 4 + 2 * w_cnt
        for i in range(int(fields[at])):
            symbol, target, _, source_target = fields[at + 1 + 4 * i: at + 5 + 4 * i]
            if symbol != "!" or target not in data:
                continue
            source, goal = int(source_target[:2], 16), int(source_target[2:], 16)
            a, b = words[source - 1], data[target][0][goal - 1]
            pairs.add(tuple(sorted((a, b))))
    return pairs


def extract() -> list[tuple[str, str, str]]:
    rows = []
    for pos, tag in (("adj", "a"), ("verb", "v")):
        counts = _tagged_counts(pos)
        for a, b in sorted(_antonyms(pos)):
            if all(w.isalpha() and w.islower() and counts.get(w, 0) > 0 for w in (a, b)):
                rows.append((tag, a, b))
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rows = extract()
    header = "# WordNet 3.0 direct antonyms (see WORDNET_LICENSE); pos\tword\tantonym\n"
    args.output.write_text(header + "".join(f"{t}\t{a}\t{b}\n" for t, a, b in rows), encoding="utf-8")
    print(f"wrote {len(rows)} pairs to {args.output}")
    rows = synonyms()
    header = "# WordNet 3.0 synonyms, the first sense of both words (see WORDNET_LICENSE); pos\tword\tsynonym\n"
    SYNONYMS.write_text(header + "".join(f"{t}\t{a}\t{b}\n" for t, a, b in rows), encoding="utf-8")
    print(f"wrote {len(rows)} pairs to {SYNONYMS}")


if __name__ == "__main__":
    main()
