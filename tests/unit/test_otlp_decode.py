"""OTLP export requests -> spans (consumer/otlp/decode.py): both encodings the Collector writes, read by
the opentelemetry-proto classes, and every bad request refused with one reason before any work."""

from __future__ import annotations

import json
import struct

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

from groundwatch.config.traces import TraceSettings
from groundwatch.consumer.decode import DecodeError
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.consumer.otlp.files import read_requests, responses_from_file
from tests.otlp_apps import App, Doc, genai_app, openinference_app, otlp_json, otlp_proto


@pytest.fixture(scope="module")
def spans():
    app = App("help-desk")
    openinference_app(app, "How long is the refund window?", "Refunds within 30 days.",
                      [Doc("kb-1", "Refunds are available within 30 days.", 0.9, {"title": "Refunds"})])
    genai_app(app, "Where is the warehouse?", "In Leeds.", [Doc("kb-3", "Our warehouse is in Leeds.", 0.7)])
    return app.finished()


def test_both_encodings_give_the_same_spans_with_hex_ids(spans):
    proto = decode_request(otlp_proto(spans), "otlp_proto")
    as_json = decode_request(otlp_json(spans), "otlp_json")
    assert proto == as_json and len(proto) == len(spans) == 6
    by_id = {s.span_id: s for s in proto}
    for sdk in spans:
        mine = by_id[format(sdk.context.span_id, "016x")]
        assert mine.trace_id == format(sdk.context.trace_id, "032x") and mine.name == sdk.name
        assert mine.parent_id == (format(sdk.parent.span_id, "016x") if sdk.parent else None)
        assert (mine.start_ns, mine.end_ns) == (sdk.start_time, sdk.end_time)
        assert mine.attributes == dict(sdk.attributes) and mine.service == "help-desk"


def test_otlp_json_quirks_are_read_as_the_collector_writes_them(spans):
    body = json.loads(otlp_json(spans))
    span = body["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert len(span["traceId"]) == 32 and int(span["traceId"], 16)  # hex, not base64
    assert isinstance(span["startTimeUnixNano"], str) and isinstance(span["kind"], int)
    span["attributes"].append({"key": "retries", "value": {"intValue": "12345678901234"}})
    [first, *_] = decode_request(json.dumps(body).encode(), "otlp_json")
    assert first.attributes["retries"] == 12345678901234 and first.start_ns == int(span["startTimeUnixNano"])


def _deep_value(levels: int) -> AnyValue:
    value = AnyValue(string_value="x")
    for _ in range(levels):
        outer = AnyValue()
        outer.array_value.values.append(value)
        value = outer
    return value




@pytest.mark.parametrize("encoding, value, reason", [
    ("otlp_proto", b"", "empty"),
    ("otlp_json", None, "empty"),
    ("otlp_proto", b"\xff\xff\xff", "not_protobuf"),
    ("otlp_json", b"{not json", "not_json"),
    ("otlp_json", b"\xff\xfe", "not_json"),
    ("otlp_json", b"[1, 2]", "schema"),
    ("otlp_json", b'{"resourceSpans": 5}', "schema"),
    ("otlp_json", b'{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"zz","spanId":"00"}]}]}]}', "schema"),
    ("otlp_json", b'{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0102","spanId":"03"}]}]}]}', "schema"),
    ("otlp_json", b"[" * 100 + b"]" * 100, "too_deep"),
    ("otlp_json", b"[" * 100_000 + b"]" * 100_000, "too_deep"),
])
def test_a_bad_request_is_refused_with_one_reason(encoding, value, reason):
    result = decode_request(value, encoding)
    assert isinstance(result, DecodeError) and result.reason == reason, result
    assert "\n" not in result.message


def test_size_and_span_count_limits(spans):
    small = TraceSettings(max_request_bytes=1024)
    result = decode_request(b"{" + b" " * 2000 + b"}", "otlp_json", small)
    assert isinstance(result, DecodeError) and result.reason == "too_large" and "2002 bytes" in result.message
    result = decode_request(otlp_proto(spans), "otlp_proto", TraceSettings(max_spans_per_request=3))
    assert isinstance(result, DecodeError) and result.reason == "too_many_spans"


def test_attribute_values_nested_past_the_limit_are_refused(spans):
    value = _deep_value(40)
    request = ExportTraceServiceRequest.FromString(otlp_proto(spans))
    kv = request.resource_spans[0].scope_spans[0].spans[0].attributes.add()
    kv.key = "deep"
    kv.value.CopyFrom(value)
    result = decode_request(request.SerializeToString(), "otlp_proto", TraceSettings(max_depth=32))
    assert isinstance(result, DecodeError) and result.reason == "too_deep" and "attributes.deep" in result.field
    assert isinstance(decode_request(request.SerializeToString(), "otlp_proto", TraceSettings(max_depth=64)), list)


def test_the_file_exporter_formats_are_read_back(spans, tmp_path):
    lines = tmp_path / "traces.json"
    half = len(spans) // 2  # a trace split over two export requests is joined again
    lines.write_bytes(otlp_json(spans[:half]) + b"\n\n" + otlp_json(spans[half:]) + b"\n")
    framed = tmp_path / "traces.binpb"
    framed.write_bytes(b"".join(struct.pack(">I", len(m)) + m for m in (otlp_proto(spans[:half]),
                                                                         otlp_proto(spans[half:]))))
    from_json = responses_from_file(lines, "otlp_json")
    from_proto = responses_from_file(framed, "otlp_proto")
    assert [w for w, _ in from_json] == [w for w, _ in from_proto] and len(from_json) == 2
    assert [r.answer for _, r in from_json] == ["Refunds within 30 days.", "In Leeds."]
    assert [where for where, _ in read_requests(lines, "otlp_json", 10**6)] == ["line 1", "line 3"]


def test_a_broken_file_keeps_what_came_before_it(spans, tmp_path):
    framed = tmp_path / "cut.binpb"
    message = otlp_proto(spans)
    framed.write_bytes(struct.pack(">I", len(message)) + message + struct.pack(">I", 500) + b"short")
    [(where, error), *responses] = responses_from_file(framed, "otlp_proto")
    assert where == "request 2" and error.reason == "truncated" and len(responses) == 2
    lines = tmp_path / "mixed.json"
    lines.write_bytes(b"not json\n" + otlp_json(spans) + b"\n")
    [(where, error), *responses] = responses_from_file(lines, "otlp_json")
    assert where == "line 1" and error.reason == "not_json" and len(responses) == 2
