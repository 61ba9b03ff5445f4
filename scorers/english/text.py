"""Small text helpers shared by the evidence stage and the free checks."""

from __future__ import annotations

import re

STOPWORDS = frozenset("""a an the and or but if then so of to in on at by for with from as is are was were be been
being it its this that these those there here he she they them their his her we our you your i me my not no
do does did has have had can could will would should may might must shall than which who whom whose what
when where why how all any each some such only also very just into about over under after before up down
out off again further once more most other same own too s t don isn aren wasn weren""".split())
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def content_words(text: str) -> set[str]:
    return {t for t in tokens(text) if t not in STOPWORDS and len(t) > 1}
