"""Markdown answers: claims come from the prose, never from its markers, headings or code."""

from groundwatch.scorers.answer.claims import decompose
from groundwatch.scorers.english.markdown import CODE, HEADING, ITEM, LEAD_IN, PROSE, SOURCES, TABLE, blocks, plain
from groundwatch.scorers.english.sentences import sentence_spans

ANSWER = """## Refund policy

Here's what you need to know:

1. **Refunds** are available within 30 days of purchase [1].
2. Approved refunds go back to your original payment method
   within 5 business days.[1]
3. Open [Orders](https://example.com/orders?tab=all) to request one

> Note: digital gift cards _cannot_ be refunded.

| Plan | Refund window |
|------|--------------:|
| Pro  | 30 days       |

```bash
curl -X POST https://example.com/refunds. Then wait.
```
---
I hope this helps!"""


def kinds(text):
    return [(b.kind, text[b.start:b.end]) for b in blocks(text)]


def test_blocks_leave_out_markers_and_keep_offsets():
    found = kinds(ANSWER)
    assert found[:4] == [(HEADING, "Refund policy"), (LEAD_IN, "Here's what you need to know:"),
                         (ITEM, "**Refunds** are available within 30 days of purchase [1]."),
                         (ITEM, "Approved refunds go back to your original payment method\n   within 5 business days.[1]")]
    assert (PROSE, "Note: digital gift cards _cannot_ be refunded.") in found
    assert (HEADING, "| Plan | Refund window |") in found and (TABLE, "| Pro  | 30 days       |") in found
    assert [k for k, _ in found].count(CODE) == 1 and found[-1] == (PROSE, "I hope this helps!")


def test_a_list_item_without_a_full_stop_does_not_run_into_the_next_block():
    spans = [ANSWER[s:e] for s, e in sentence_spans(ANSWER)]
    assert "Open [Orders](https://example.com/orders?tab=all) to request one" in spans


def test_claims_of_a_markdown_answer_are_its_sentences_in_plain_words():
    claims = [c.text for c in decompose(ANSWER)]
    assert claims == [
        "Refunds are available within 30 days of purchase.",
        "Approved refunds go back to your original payment method within 5 business days.",
        "Open Orders to request one.",
        "Digital gift cards cannot be refunded.",
        "Pro, 30 days.",
        "I hope this helps!",
    ]
    for claim in decompose(ANSWER):  # each span is where its words sit, markers outside it
        assert not ANSWER[claim.span[0]:claim.span[1]].startswith(("#", "-", ">", "1.", "2.", "|---"))


def test_sources_footnotes_and_titles_are_not_claims():
    answer = ("**Refund window**\nRefunds take 30 days 【1†source】.[^1]\n\n**Shipping is free.** It takes a week.\n\n"
              "The rules are:\n- Keep the receipt\n\n[^1]: Refund policy, section 2.\n\n"
              "Sources:\n- [Refund policy](https://example.com/refunds)\n- kb-7")
    assert [c.text for c in decompose(answer)] == [
        "Refunds take 30 days.", "Shipping is free.", "Shipping takes a week.", "Keep the receipt."]
    assert [k for k, _ in kinds(answer)] == [HEADING, PROSE, PROSE, LEAD_IN, ITEM, SOURCES, SOURCES, SOURCES, SOURCES]
    assert [c.text for c in decompose("Sources: kb-7, kb-9\nShipping is free.")] == ["Shipping is free."]
    # A bold line with a number, or a sentence, is checked: it may be the answer itself.
    assert [c.text for c in decompose("**Refunds take 30 days**")] == ["Refunds take 30 days."]
    # A heading ends a sources section.
    assert [c.text for c in decompose("## Sources\n- kb-7\n\n## Shipping\nShipping is free.")] == ["Shipping is free."]


def test_plain_text_is_read_as_before():
    text = "Refunds take 30 days. The company was founded in\n1999. It ships worldwide.\n\nSupport is open daily"
    assert [b.kind for b in blocks(text)] == [PROSE, PROSE]
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "Refunds take 30 days.", "The company was founded in\n1999.", "It ships worldwide.", "Support is open daily"]


def test_a_long_hash_line_is_scraped_prose_not_a_heading():
    line = "## " + " ".join(["word"] * 30) + ". Next sentence here."
    assert [b.kind for b in blocks(line)] == [PROSE]


def test_plain_keeps_words_and_code_but_not_markup():
    assert plain("**Bold** and *italic* and ~~gone~~ and [a link](https://x.org/a_(b))") == \
        "Bold and italic and gone and a link"
    assert plain("set max_retry_count to 5 * 3") == "set max_retry_count to 5 * 3"
    assert plain("run `tessera push` now") == "run `tessera push` now"
    assert plain("one line\n> and the next") == "one line and the next"


def test_an_unclosed_fence_and_hostile_markup_end_without_error():
    assert kinds("Text.\n```\nno closing fence") == [(PROSE, "Text."), (CODE, "```\nno closing fence")]
    assert decompose("# " + "#" * 5000) == []  # a heading: nothing to check
    assert [c.text for c in decompose(">" * 5000 + " x")] == ["X."]
    assert decompose("*" * 10000) == []  # a thematic break
    assert len(decompose("*" * 9999 + "x")) == 1  # an unclosed mark: the text stays a claim
    assert len(decompose("_a " * 20000)) == 1  # unclosed marks everywhere, read in linear time
    lines = "\n".join(["- **a** _b_ [c](d) |"] * 20000)  # one pass over the lines, however many
    assert len(blocks(lines)) == 20000
