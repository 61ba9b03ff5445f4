"""Decorative sentences: no checkable predicate, so they never veto an answer.

All templates live in RULES below, one readable place: (reason, pattern).
A claim is decorative when a pattern matches it whole (after trimming) and it
carries no number, so "Thanks! Refunds take 30 days." is still checked.
"""

from __future__ import annotations

import re

RULES: list[tuple[str, str]] = [
    ("greeting", r"(hi|hello|hey|greetings|good (morning|afternoon|evening))\b( there)?[,!. ]*(\w+[!.]?)?"),
    ("thanks", r"(thanks|thank you)( so much| very much)?( for (asking|reaching out|your (question|patience)))?[!. ]*"),
    ("offer_of_help", r"(please )?(let me know|feel free to|don't hesitate to|do not hesitate to|reach out)\b.*"),
    ("offer_of_help", r"(i('m| am)|we('re| are)) (happy|glad|here) to help.*"),
    ("offer_of_help", r"(i )?hope (this|that) helps.*"),
    ("offer_of_help", r"(is there )?anything else (i|we) can (help|do).*"),
    ("offer_of_help", r"if you have (any )?(other |more |further )?questions.*"),
    ("offer_of_help", r"((i'd|i would|i'll|i will|i'm|i am|we'd|we'd be|we are) )?(be )?(always )?(happy|glad) to "
                      r"help( (with that|further|you))?[!. ]*"),
    ("offer_of_help", r"(would you like|do you want|do you need|shall i|should i) (me to|more|any|further|a|an|"
                      r"help|the)\b.*\?"),
    ("offer_of_help", r"(does|did) (that|this) (answer|help|clarify)\b.*\?"),
    ("abstention", r"((i'm|i am) sorry,? (but )?)?i (don't|do not|couldn't|could not|can't|cannot|wasn't able "
                   r"to|was unable to|am unable to|am not able to) (have|find|see|locate|answer|determine|confirm)"
                   r"( any)? (information|details|anything|any mention|a mention|data|an answer|that)\b.*"),
    ("abstention", r"(the|these|those|your) (provided |given |available |retrieved )?(documents?|context|sources?|"
                   r"passages?|information|documentation|search results)( provided| given| you shared)? "
                   r"(don't|do not|doesn't|does not|didn't|did not) (mention|say|cover|contain|include|specify|"
                   r"provide|address|state|discuss)\b.*"),
    ("abstention", r"there (is|are|was|were) no (information|mention|details?|data)\b.* (in|from) (the|these|your) "
                   r"(provided |given |available |retrieved )?(documents?|context|sources?|passages?|documentation|"
                   r"search results)\b.*"),
    ("hedge", r"(i think|i believe|i'm not (entirely )?sure|i am not sure|i may be wrong|it depends)[,.!]*"),
    ("hedge", r"(please )?(note|keep in mind) that (this|policies|details) (may|might|can) (change|vary).*"),
    ("hedge", r"(this|that) (may|might|can) vary.*"),
    ("pointer", r"(this|that|it|more (details|information)|details)( is| are)? (documented|described|explained|covered|"
                r"listed) in (the|our) [\w -]*(runbook|docs|documentation|wiki|guide|handbook|manual|"
                r"knowledge base|faq|help cent(er|re)|article|page|portal)"),
    ("pointer", r"(see|check|refer to|consult) (the|our) [\w -]+ for (more|further|full) (details|information)"),
    ("pointer", r"for (more|further) (details|information),? (see|check|refer to|contact) .*"),
    ("closing", r"(good luck|have a (great|nice) day|cheers|best regards)[!. ]*"),
    ("filler", r"(great|good) question[!. ]*"),
    ("filler", r"(sure|certainly|of course|absolutely)[!,. ]*(here('s| is) (what|how).*)?"),
    ("filler", r"here('s| is) (what|how) [\w ']{0,40}:?"),
    ("filler", r"here (are|is) (the|some|a few|a) (details|steps|key points|options|information|answer|summary|"
               r"short answer|main points|relevant details)[.:!]*"),
    ("filler", r"let me (explain|clarify|break (it|this|that) down|summari[sz]e|walk you through (it|this|that))[.:!]*"),
    ("bare_answer", r"(yes|no|correct|right|exactly|indeed|that's right|not quite)[.!]?"),
]

_COMPILED = [(reason, re.compile(rf"^\W*{pattern}\W*$", re.IGNORECASE)) for reason, pattern in RULES]
_HAS_NUMBER = re.compile(r"\d")


def decorative_reason(claim: str) -> str | None:
    """The rule's reason when the claim is decorative, else None."""
    text = " ".join(claim.split())
    if _HAS_NUMBER.search(text):
        return None
    for reason, pattern in _COMPILED:
        if pattern.match(text):
            return reason
    return None
