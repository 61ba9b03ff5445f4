"""QAGS (CNN/DM and XSum summary sentences judged against the article by 3 workers).

Label mapping: a majority of the votes `yes` -> supported, else unsupported.

One response per summary sentence; the article, split into sentences and
packed into passages of about 120 words, gives the passages. The source
(cnndm or xsum) is a stratum hint.

The CNN/DM texts come tokenised ("235, 000", "122. 5", "$ 5", "15 %",
"( right )", "`` flower bud''"); `detokenise` writes them as a RAG system
would see them, so a number is one number again for the numbers check.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from groundwatch.evaluation.converters.common import labelled, nonempty, read_jsonl
from groundwatch.evaluation.labels import SUPPORTED, UNSUPPORTED
from groundwatch.evaluation.passages import pack, passage_records, sentences_of
from groundwatch.evaluation.sampling import sample

SOURCES = ("cnndm", "xsum")


_REJOINS = (
    (re.compile(r"(?<=\d), (?=\d{3}\b)"), ","),                 # 235, 000
    (re.compile(r"(?<=\d)\. (?=\d{1,2}\b(?![,.]\d))"), "."),    # 122. 5 (not "in 2015. 2,406 cases")
    (re.compile(r"(?<=[$£€]) (?=\d)"), ""),                     # $ 5
    (re.compile(r"(?<=\d) (?=%)"), ""),                         # 15 %
    (re.compile(r"\( (.*?) \)"), r"(\1)"),                     # ( right )
    (re.compile(r"`` ?(.*?) ?''"), r'"\1"'),                    # `` flower bud''
)


def detokenise(text: str) -> str:
    for pattern, replacement in _REJOINS:
        text = pattern.sub(replacement, text)
    return text


def majority(votes: list[str]) -> str:
    yes = sum(1 for v in votes if v.strip().lower() == "yes")
    return SUPPORTED if yes * 2 > len(votes) else UNSUPPORTED


def convert(data_dir: Path, limit: int | None = None, seed: int = 0) -> Iterator[dict]:
    items = []
    for source in SOURCES:
        for a, article in enumerate(read_jsonl(data_dir / "qags" / f"mturk_{source}.jsonl")):
            text = detokenise(article["article"])  # once per article, not once per summary sentence
            for s, summary in enumerate(article["summary_sentences"]):
                items.append((source, a, s, text, summary))
    out = []
    for source, a, s, article, summary in sample(items, limit, seed):
        votes = [r["response"] for r in summary["responses"]]
        passages = passage_records([p.text for p in pack(sentences_of(article))])
        out.append(labelled(f"qags-{source}-{a}-{s}", detokenise(summary["sentence"]), passages, majority(votes),
                            set_name="qags", source_label=f"{sum(v == 'yes' for v in votes)}/{len(votes)} yes",
                            stratum=[f"qags_{source}"]))
    yield from nonempty(iter(out))
