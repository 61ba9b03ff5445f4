"""The English test of an English-only model's readable check (scorers/english/language.py)."""

import pytest

from groundwatch.scorers.english.language import ENGLISH, FUNCTION_WORDS, not_english


@pytest.mark.parametrize("text, language", [
    ("Rückerstattungen sind innerhalb von 30 Tagen möglich.", "German"),
    ("Les remboursements sont possibles dans les 30 jours suivant l'achat.", "French"),
    ("Los reembolsos están disponibles durante 30 días.", "Spanish"),
    ("I rimborsi sono disponibili entro 30 giorni.", "Italian"),
    ("Os reembolsos estão disponíveis em até 30 dias.", "Portuguese"),
    ("Terugbetalingen zijn binnen 30 dagen mogelijk.", "Dutch"),
    ("退款须在购买后30天内申请。", "mostly non-Latin script"),
    ("Возврат возможен в течение 30 дней.", "mostly non-Latin script"),
])
def test_other_languages_are_named(text, language):
    assert not_english(text) == language


@pytest.mark.parametrize("text", [
    "Refunds are available within 30 days of purchase.",
    "Les Misérables is a novel by Victor Hugo.",
    "The Der Spiegel article was published in 2019.",
    "La Liga is the top Spanish football division, and El Clásico is its biggest match.",
    "El Niño returns every few years.",
    "Refunds: 30 days.",
    "30 %",
    "",
])
def test_english_with_foreign_names_and_wordless_claims_are_english(text):
    assert not_english(text) is None


def test_no_listed_function_word_is_an_english_one():
    for language, words in FUNCTION_WORDS.items():
        shared = set(words.split()) & ENGLISH
        assert not shared, (language, shared)
