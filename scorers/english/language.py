"""Is a claim English? A cheap test for a model that reads English only.

An English-only model reads a German claim by its shared words and numbers:
"Rückerstattungen sind nicht möglich" (refunds are not possible) came out
SUPPORTED against "Rückerstattungen sind innerhalb von 30 Tagen möglich".
Function words tell the language of a sentence better than its content words,
and a script tells it at once; both are counted here. A word that is also an
English word ("die", "in", "a", "do") is in no list.
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")

ENGLISH = frozenset("""the is are was were be been being of to and in for with on at by from that this these those it
its not can cannot will would should could must may might you your we our they their he she his her has have had do
does did no all any only there which who what when where within after before up per than then if or but as an a
also just about into over under between""".split())

FUNCTION_WORDS = {
    "German": """der das und ist nicht mit sind für auf dem ein eine einen einer eines werden wird von zu bei nach
        oder auch kann können nur wenn wir ich sich noch wie über keine kein aus durch muss müssen haben ihr ihre
        diese dieser dieses sein seine zum zur vom im ins innerhalb immer nie bis ohne zwischen während alle""",
    "French": """le la les des est sont et une du dans pour pas ne que qui avec sur au aux ce cette ces être peut
        peuvent vous nous il elle ils elles leur leurs sans mais ou très jusqu après avant toujours jamais tous
        chaque pendant""",
    "Spanish": """el los las es son está están y una del por para que se su sus pero como más puede pueden sin
        muy también hasta desde cuando lo al entre durante todos cada siempre nunca""",
    "Italian": """il gli è sono di della delle dei degli che una uno nel nella alla dal dalla anche può
        possono sul sulla più essere questo questa entro dopo prima tutti tutte ogni solo senza tra fra sempre
        mai ancora già""",
    "Portuguese": """os é são uma um da dos das em para com não que na nos pelo pela mais pode podem também seu
        sua ao até após antes""",
    "Dutch": """het een en zijn niet met voor dat wordt worden ook kunnen maar bij naar uit geen deze dit tot wij
        ze je u hun binnen na alle alleen moet moeten altijd nooit nog zonder tussen tijdens wel""",
}
_LANGUAGE_OF = {word: language for language, words in reversed(FUNCTION_WORDS.items()) for word in words.split()}


def not_english(text: str) -> str | None:
    """What the text reads as when it is not English ("German", "mostly non-Latin script"), else None.

    Non-English needs evidence: at least two function words of one other language and more than the
    English ones, or letters mostly outside the Latin script. A short or wordless claim is English."""
    letters = [c for c in text if c.isalpha()]
    if len(letters) >= 4:
        latin = sum(1 for c in letters if unicodedata.name(c, "").startswith("LATIN"))
        if 2 * latin < len(letters):
            return "mostly non-Latin script"
    words = [w.lower() for w in _WORD.findall(text)]
    english = sum(w in ENGLISH for w in words)
    counts: dict[str, int] = {}
    for w in words:
        if w in _LANGUAGE_OF:
            counts[_LANGUAGE_OF[w]] = counts.get(_LANGUAGE_OF[w], 0) + 1
    if not counts:
        return None
    language, n = max(counts.items(), key=lambda kv: kv[1])
    return language if n >= 2 and sum(counts.values()) > english else None
