"""QAGS's CNN/DM texts come tokenised; the converter writes them as running text."""

import pytest

from groundwatch.evaluation.converters.qags import detokenise


@pytest.mark.parametrize("tokenised, text", [
    ("viewed more than 235, 000 times.", "viewed more than 235,000 times."),
    ("she lived to age 122. 5. she died", "she lived to age 122.5. she died"),
    ("around 1. 3 billion people", "around 1.3 billion people"),
    ("wire her the $ 5, 000 she asked for", "wire her the $5,000 she asked for"),
    ("a 15 % rise in profits", "a 15% rise in profits"),
    ("southgate ( right ) led england", "southgate (right) led england"),
    ("which means `` flower bud'' in nepali", 'which means "flower bud" in nepali'),
])
def test_tokenised_numbers_and_marks_are_rejoined(tokenised, text):
    assert detokenise(tokenised) == text


@pytest.mark.parametrize("text", [
    "In 2015. 2,406 cases were reported.",    # a sentence that ends in a year, the next opens with a count
    "They were beaten 6-4, 3-6, 6-3 in the final.",
    "Walsh (132), McGrath (124) and Vaas.",
])
def test_running_text_is_left_alone(text):
    assert detokenise(text) == text
