"""groundwatch/tools/as_traces.py: a response written as a trace by the real SDK reads back as the same response."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundwatch.consumer.otlp.assemble import assemble
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.scorers.schema import parse_response
from groundwatch.tools.as_traces import TraceWriter, export_request, trace_id_of

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "responses.jsonl"


@pytest.mark.parametrize("encoding", ["otlp_proto", "otlp_json"])
@pytest.mark.parametrize("convention", ["openinference", "genai"])
def test_each_example_reads_back_as_the_same_response(convention, encoding):
    writer = TraceWriter()
    for _, record in read_jsonl(EXAMPLES):
        spans = writer.trace(record, convention)
        [(_, got)] = assemble(decode_request(export_request(spans, encoding), encoding))
        want = parse_response(record)
        assert (got.question, got.answer) == (want.question, want.answer)
        assert [(p.id, p.text, p.score, p.title, p.updated_at) for p in got.passages] == \
            [(p.id, p.text, p.score, p.title, p.updated_at) for p in want.passages]
        assert (got.metadata.app, got.metadata.model) == (want.metadata.app, want.metadata.model)
        assert got.metadata.trace_id == trace_id_of(spans)


def test_an_unknown_convention_or_encoding_is_named():
    with pytest.raises(ValueError, match="convention"):
        TraceWriter().trace({"answer": "x"}, "langfuse")
    with pytest.raises(ValueError, match="encoding"):
        export_request(TraceWriter().trace({"answer": "x"}, "genai"), "otlp_xml")
