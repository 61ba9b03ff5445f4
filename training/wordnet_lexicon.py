"""Extract the antonym pairs the counter-shortcut recipes use from WordNet 3.0.

    apt-get install wordnet-base && python -m groundwatch.training.wordnet_lexicon

Reads Debian's `wordnet-base` files (/usr/share/wordnet) and writes training/lexicon/antonyms.tsv:
direct antonyms ("!" pointers) of adjectives and verbs whose both words are single, lower-case and
used in WordNet's sense-tagged corpus (a tag count above zero: common words, not "acaudate").
The extracted file is committed with WordNet's licence (training/lexicon/WORDNET_LICENSE), so
training needs neither the Debian package nor a download. English only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

WORDNET = Path("/usr/share/wordnet")
OUT = Path(__file__).resolve().parent / "lexicon" / "antonyms.tsv"


def _tagged_counts(pos: str) -> dict[str, int]:
    """lemma -> sense-tagged occurrence count, from index.<pos>."""
    counts = {}
    for line in (WORDNET / f"index.{pos}").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        lemma, p_cnt = fields[0], int(fields[3])
        tagsense = int(fields[4 + p_cnt + 1])
        counts[lemma] = tagsense
    return counts


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


if __name__ == "__main__":
    main()
