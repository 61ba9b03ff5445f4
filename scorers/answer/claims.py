"""Split an answer into atomic claims, each with its character span in the answer.

Sentences first (Markdown headings and code blocks are not claims; markup is
dropped from a claim's text), then clauses joined by ';', ', and', 'but', ', so' (and a
short lead-in before ':'). Conditions (if / unless / subject to / only when /
otherwise ...) stay attached to their predicate. A clause or sentence that
starts with a pronoun gets the previous subject when the two agree in number
("Data is encrypted, and it is replicated" -> "Data is replicated").
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from groundwatch.scorers.byte_cache import MB, ByteLRU
from groundwatch.scorers.english.clauses import TEXT_CLAUSE_BREAKS
from groundwatch.scorers.english.markdown import NOT_CLAIMS, plain
from groundwatch.scorers.english.sentences import sentence_spans, sentences, strip_span

__all__ = ["Claim", "ClaimCache", "cited_markers", "decompose", "given_claims", "sentence_spans"]


@dataclass(frozen=True)
class Claim:
    text: str              # what is checked (pronoun resolved, citation markers removed)
    span: tuple[int, int]  # where it sits in the answer


# Matched at a position (pattern.match(text, pos)), so no "^".
_CONDITION_START = re.compile(
    r"(?:if|unless|only if|only when|when|provided|as long as|subject to|except|in case|once|otherwise)\b",
    re.I)
_PRONOUN_START = re.compile(r"^(it|they)(?:'s|’s|'re|’re)?\b\s*", re.I)
# "It" that stands for no noun: "it seems that ...", "it's a long time ago", "it is likely that ...".
_DUMMY_IT = re.compile(
    r"^it(?:\s+(?:seems|seemed|appears|appeared|looks|looked|happens|happened|turns out|turned out)\b"
    r"|(?:'s|’s|\s+is|\s+was)\s+(?:(?:un)?likely|(?:im)?possible|clear|obvious|known|said|thought|believed|reported|"
    r"true|worth|important|necessary|hard|difficult|easy|a long time|time)\b)", re.I)
_CONTRACTION = {"'s": " is", "’s": " is", "'re": " are", "’re": " are"}
_INTERJECTION = re.compile(
    r"^(?:yes|no|correct|right|sure|actually|unfortunately|good news|(?:hi|hello|hey)(?: [A-Z]\w+)?"
    r"|note|please note|tip|important|warning|caution|reminder|summary|in short|in summary|tl;dr|answer)"
    r"\s*[,:—-]\s*",
    re.I)
# The answer crediting the retrieved context ("According to the provided documents, ...", "The policy states
# that ..."): what is checked is what follows, against those very passages. A named source ("According to
# the WHO") stays: there the attribution is part of what is claimed.
_CONTEXT = (r"(?:the |these |those |our |your |this |that )?(?:provided |given |available |retrieved |attached |above |"
            r"following |relevant |official |company(?:'s)? )?(?:documents?|documentation|docs|context|sources?|"
            r"information|passages?|excerpts?|text|knowledge base|articles?|policy|policies|guidelines?|handbook|"
            r"faq|search results)(?: (?:provided|given|above|available|you shared))?")
_ATTRIBUTION = re.compile(
    rf"^(?:(?:according to|based on|as (?:stated|described|explained|mentioned|noted|outlined) in|per) {_CONTEXT}"
    rf"\s*,\s*|{_CONTEXT} (?:states?|says?|mentions?|notes?|explains?|indicates?|confirms?|specif(?:y|ies)|"
    rf"shows?|reads?) (?:that )?(?=\S))", re.I)
_AUX = (r"is|are|was|were|be|been|has|have|had|can|cannot|can't|could|will|won't|would|should|must|may|"
        r"might|does|do|did|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|hasn't|haven't|hadn't|wouldn't|"
        r"couldn't|shouldn't|mustn't")
_COMMON_VERBS = (
    r"allow|return|include|require|provide|support|offer|cover|take|run|get|use|need|mean|apply|"
    r"contain|cost|charge|last|expire|start|end|remain|become|seem|work|help|keep|let|make|send|store|"
    r"show|stay|limit|grant|accept|reject|block|hold|lose|pay|earn|rank|sit|lie|stand|serve|ship|arrive|"
    r"deliver|open|close|process|cancel|renew|exclude|depend|happen|occur|change|increase|decrease|"
    r"reduce|rise|fall|grow|move|go|come|stop|begin|continue|enable|disable|protect|encrypt|replicate|"
    r"sync|load|handle|receive|reach|exceed|follow|lead|live|operate|qualify|bill|say|state|list|"
    r"report|display|appear|ask|answer|give|find|know|think|see|want|call|try|leave|put|bring|write|"
    r"read|meet|create|build|add|remove|delete|update|upgrade|migrate|restore|fail|count|carry|retry")
_VERB = re.compile(rf"\b(?:{_AUX}|(?:{_COMMON_VERBS})(?:s|es|ed|d)?)\b", re.I)
_VERB_LOOSE = re.compile(rf"\b(?:{_AUX}|(?:{_COMMON_VERBS})(?:s|es|ed|d)?|[a-z]{{3,}}ed)\b", re.I)
_CLAUSE_START = re.compile(
    r"(it|they|he|she|we|you|i|this|these|those|there|that|the|a|an|our|your|its|their|his|her|each|every|"
    r"all|some|no|most|many)\b", re.I)
_SUBJECT_PRONOUNS = {"you", "i", "we", "he", "she", "it", "they", "this", "that", "there"}
_WORD = re.compile(r"\S+")
# (?<!\s): a whitespace run is tried once, from its start, not again from each of its characters.
_BRACKET_CITATION = re.compile(r"\s*【[^【】\n]{1,40}】")  # "【1†source】", as some assistants cite
_CITATION_MARK = re.compile(r"(?<!\s)\s*\[(?![.…\s]+\])([^\[\]]{1,40})\]")  # not "[...]": an elision
# "(Source: Refund policy, section 4)", "(see the FAQ)": where to read more, not what is claimed; its numbers
# are not the claim's either.
_SOURCE_NOTE = re.compile(r"(?<!\s)\s*\((?:sources?|refs?\.?|references?|see|cf\.)[:\s][^()\n]{0,80}\)", re.I)


class _Sentence:
    """Word runs and verb matches of one sentence, found once, so each clause test is a lookup.

    Testing a side of a separator by slicing it out would re-read the rest of the sentence at
    every separator (quadratic); these give the same answers from positions.
    """

    def __init__(self, text: str, start: int, end: int):
        words = [m.span() for m in _WORD.finditer(text, start, end)]
        self.word_starts = [s for s, _ in words]
        self.word_ends = [e for _, e in words]
        # Verbs are whole words, so no match crosses a separator: one pass serves every side.
        verbs = [m.span() for m in _VERB_LOOSE.finditer(text, start, end)]
        self.verb_starts = [s for s, _ in verbs]
        self.verb_ends = [e for _, e in verbs]
        self.text = text

    def words(self, start: int, end: int) -> int:
        """How many whitespace-separated words text[start:end].split() gives."""
        return max(0, bisect_left(self.word_starts, end) - bisect_right(self.word_ends, start))

    def has_verb(self, start: int, end: int) -> bool:
        i = bisect_left(self.verb_starts, start)
        return i < len(self.verb_starts) and self.verb_ends[i] <= end

    def first_word(self, start: int, end: int) -> int | None:
        """Where text[start:end].strip() begins, or None when it is blank."""
        i = bisect_left(self.word_starts, start)
        return self.word_starts[i] if i < len(self.word_starts) and self.word_starts[i] < end else None

    def is_clause(self, start: int, end: int) -> bool:
        """Roughly a subject and a predicate: 3+ words, starting like a subject or containing a verb."""
        first = self.first_word(start, end)
        return (first is not None and self.words(first, end) >= 3
                and bool(_CLAUSE_START.match(self.text, first, end) or self.has_verb(first, end)))

    def starts_with_condition(self, start: int, end: int) -> bool:
        first = self.first_word(start, end)
        return first is not None and bool(_CONDITION_START.match(self.text, first, end))


def _inside_quote(text: str, start: int, pos: int) -> bool:
    before = text[start:pos]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”")


def clause_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split one sentence into clauses; keep a split only if both sides are clauses."""
    sentence = _Sentence(text, start, end)
    pieces: list[tuple[int, int]] = []
    cursor = start
    for m in TEXT_CLAUSE_BREAKS.finditer(text, start, end):
        if _inside_quote(text, start, m.start()):
            continue  # a title or quotation is not split: "titled "Memorials: Passages, and ...""
        if m.group().startswith(":"):
            # Only a short lead-in that is a clause splits off ("Here's how it works: add-ons renew ..."). A
            # label stays with what it labels ("Enterprise plans: refunds take 60 days" is one claim, its
            # condition kept), and "Note:" and the like are then dropped with the interjections.
            if (sentence.words(cursor, m.start()) > 8 or not sentence.is_clause(m.end(), end)
                    or not sentence.is_clause(cursor, m.start())):
                continue
        elif not (sentence.is_clause(cursor, m.start()) and sentence.is_clause(m.end(), end)):
            continue
        if sentence.starts_with_condition(m.end(), end) or sentence.starts_with_condition(cursor, m.start()):
            continue  # the condition belongs to its predicate
        pieces.append(strip_span(text, cursor, m.start()))
        cursor = m.end()
    pieces.append(strip_span(text, cursor, end))
    return [p for p in pieces if p[1] > p[0]]


def _subject(clause: str) -> str | None:
    """The noun phrase before the first verb; "" when it is a pronoun or the clause a question (the chain
    breaks: "How old was he?" has no subject "How old"), None if unknown."""
    clause = _INTERJECTION.sub("", clause.strip())
    if clause.endswith("?"):
        return ""
    first = re.match(r"\S+", clause)
    if first and first.group().lower().strip(",") in _SUBJECT_PRONOUNS:
        return ""
    m = _VERB.search(clause, first.end() if first else 0)
    if not m:
        return None
    subject = clause[:m.start()].strip(" ,")
    return subject if 0 < len(subject.split()) <= 8 else None


def _plural(subject: str) -> bool:
    head = subject.split()[-1].lower()
    return " and " in subject.lower() or (head.endswith("s") and not head.endswith(("ss", "us", "is")))


_VERB_START = re.compile(rf"^(?:{_AUX})\b(?!\s+(?:it|they|you|we|i|he|she|there)\b)")  # not a question


def _resolve_pronoun(raw: str, subject: str | None) -> str:
    if subject and _VERB_START.match(raw) and not raw.rstrip().endswith("?"):
        return subject + " " + raw
    m = _PRONOUN_START.match(raw)
    if not m or not subject or _DUMMY_IT.match(raw):
        return raw
    pronoun = m.group(1).lower()
    if (pronoun == "they") != _plural(subject):
        return raw  # number disagrees: the pronoun points elsewhere
    rest = raw[m.end():]
    suffix = m.group(0)[len(m.group(1)):].strip()
    return subject + _CONTRACTION.get(suffix, "") + " " + rest


def _tidy(text: str) -> str:
    text = _SOURCE_NOTE.sub("", _BRACKET_CITATION.sub("", _CITATION_MARK.sub("", text))).strip()
    text = _INTERJECTION.sub("", text) if len(_INTERJECTION.sub("", text).split()) >= 3 else text
    text = text.rstrip(",;: ")
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and text[-1] not in ".!?\"'”":
        text += "."
    return text


def cited_markers(text: str) -> list[str]:
    """Inline citation markers such as [p2] or [doc-3] inside a claim's text."""
    return [m.group(1).strip() for m in _CITATION_MARK.finditer(text)]


def decompose(answer: str) -> list[Claim]:
    claims: list[Claim] = []
    subject = None
    for s_start, s_end, kind in sentences(answer):
        if kind in NOT_CLAIMS:
            continue  # a title, a lead-in, a code listing or a list of sources states nothing to check
        for c_start, c_end in clause_spans(answer, s_start, s_end):
            raw = _ATTRIBUTION.sub("", plain(answer[c_start:c_end]))
            text = _resolve_pronoun(_INTERJECTION.sub("", raw), subject)
            found = _subject(raw)
            subject = subject if found is None else found
            tidy = _tidy(text)
            if tidy.strip(". "):
                claims.append(Claim(tidy, (c_start, c_end)))
    return claims


def given_claims(answer: str, claims: list[str]) -> list[Claim]:
    """Producer-supplied claims, used as given; span found in the answer when possible."""
    out = []
    for text in claims:
        pos = answer.find(text)
        span = (pos, pos + len(text)) if pos >= 0 else (0, 0)
        out.append(Claim(text.strip(), span))
    return out


class ClaimCache:
    """Decompositions cached by answer hash (identical answers are common in traffic), within
    `budget` bytes: the claims of a long answer are about as large as the answer."""

    def __init__(self, budget: int = 16 * MB):
        self._items = ByteLRU(budget, "claims.ClaimCache")

    def get(self, answer: str) -> list[Claim]:
        key = hashlib.sha1(answer.encode("utf-8")).hexdigest()
        claims = self._items.get(key)
        if claims is None:
            claims = decompose(answer)
            self._items.put(key, claims)
        return claims
