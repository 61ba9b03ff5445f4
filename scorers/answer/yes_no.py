"""A bare "Yes." or "No." answers the question: check what it asserts instead of skipping it.

"Can I go fully remote if my manager is OK with it?" answered "Yes." asserts "You can go fully
remote if your manager is OK with it."; answered "No." it asserts "You cannot go …". Only
questions that open with an auxiliary and a pronoun subject are turned round (the subject of a
noun phrase cannot be delimited reliably without a parser); any other bare answer stays decorative.
"""

from __future__ import annotations

import re

from groundwatch.scorers.english.sentences import sentence_spans

_YES = {"yes", "yep", "yeah", "correct", "right", "exactly", "indeed", "that's right"}
_NO = {"no", "nope", "not quite"}
_AUXILIARIES = {"can", "could", "do", "does", "did", "is", "are", "am", "was", "were", "will", "would",
                "should", "shall", "may", "might", "must", "has", "have", "had"}
_NEGATED = {"can": "cannot", "will": "will not", "shall": "shall not"}
# "you" is left out: "Can you refund me?" asks the assistant to act, it states nothing to check.
_SUBJECTS = {"i", "we", "it", "they", "he", "she", "this", "that", "there"}
# The asker's words in the answerer's mouth.
_PERSON = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "we": "you",
           "us": "you", "our": "your", "ours": "yours", "ourselves": "yourselves"}
_FIRST_PERSON_VERB = {"am": "are", "was": "were"}
_MAX_CONTEXT_WORDS = 30
_WORD = re.compile(r"[A-Za-z']+|[^A-Za-z'\s]+|\s+")


def _bare_answer(claim: str) -> bool | None:
    """True for yes, False for no, None for anything else."""
    word = re.sub(r"[\s.!]+$", "", claim.strip()).lower()
    return True if word in _YES else False if word in _NO else None


def _in_second_person(text: str) -> str:
    return "".join(_PERSON.get(t.lower(), t) if t[:1].isalpha() else t for t in _WORD.findall(text))


def _lower_pronoun(text: str) -> str:
    """Lower-case a leading pronoun to continue a sentence (a leading name keeps its capital)."""
    first = text.split(" ", 1)[0]
    return text[0].lower() + text[1:] if first.lower() in _SUBJECTS | {"you"} else text


def answered_statement(question: str | None, answer: str) -> str | None:
    """The statement a bare yes/no `answer` makes about `question`, or None when there is none."""
    yes = _bare_answer(answer)
    if yes is None or not question:
        return None
    sentences = [question[start:end].strip() for start, end in sentence_spans(question)]
    # What the asker states beside the question is the condition the answer was given under:
    # "I bought it 45 days ago. Can I still get a refund?" + "Yes." -> "If you bought it 45 days ago, you can …".
    context = [_in_second_person(x.rstrip(".!")) for x in sentences if x and not x.endswith("?")]
    if sum(len(x.split()) for x in context) > _MAX_CONTEXT_WORDS:
        context = []
    for sentence in sentences:
        if not sentence.endswith("?"):
            continue
        words = sentence.rstrip("?").split()
        if len(words) < 3 or words[0].lower() not in _AUXILIARIES or words[1].lower() not in _SUBJECTS:
            continue
        aux, subject = words[0].lower(), words[1].lower()
        if subject == "i":
            aux = _FIRST_PERSON_VERB.get(aux, aux)
        verb = aux if yes else _NEGATED.get(aux, f"{aux} not")
        statement = f"{_in_second_person(subject)} {verb} {_in_second_person(' '.join(words[2:]))}."
        if context:
            statement = f"If {' and '.join(_lower_pronoun(x) for x in context)}, {_lower_pronoun(statement)}"
        return statement[0].upper() + statement[1:]
    return None
