"""One OTLP export request (bytes) -> its spans, or a DecodeError that names what is wrong.

Two encodings, as the Collector's Kafka and file exporters write them: `otlp_proto` (an
ExportTraceServiceRequest in protobuf) and `otlp_json` (OTLP/JSON). Both are parsed by the
maintained opentelemetry-proto classes; the only hand-written step is OTLP/JSON's hex ids
(hex_ids.py). The size limit is checked before parsing, JSON nesting before ParseDict, the
span count and attribute-value nesting while flattening; nothing a request holds escapes as
an exception.
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import DecodeError as ProtobufError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from groundwatch.config.traces import TraceSettings
from groundwatch.consumer.decode import DecodeError
from groundwatch.consumer.otlp.hex_ids import BadId, hex_ids_to_base64
from groundwatch.consumer.otlp.spans import SpanRecord
from groundwatch.scorers.schema import too_deep

ENCODINGS = ("otlp_proto", "otlp_json")


class _Refused(Exception):
    def __init__(self, message: str, reason: str, field: str = "<record>"):
        super().__init__(message)
        self.reason, self.field = reason, field


def decode_request(value: bytes | None, encoding: str, settings: TraceSettings = TraceSettings()
                   ) -> list[SpanRecord] | DecodeError:
    """The spans of one export request, in the order they were written."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown OTLP encoding {encoding!r}: expected one of {', '.join(ENCODINGS)}")
    if not value:
        return DecodeError("InvalidTraces", "message has no value (null or empty)", "empty", "<record>")
    try:
        if len(value) > settings.max_request_bytes:
            raise _Refused(f"export request is {len(value)} bytes, over the limit of {settings.max_request_bytes}",
                           "too_large")
        request = _parse_json(value, settings) if encoding == "otlp_json" else _parse_proto(value)
        return _flatten(request, settings)
    except _Refused as exc:
        return DecodeError("InvalidTraces", str(exc), exc.reason, exc.field)


def _parse_proto(value: bytes) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(value)
    except (ProtobufError, RecursionError) as exc:  # protobuf's own recursion limit ends deep nesting
        raise _Refused(f"not an OTLP ExportTraceServiceRequest in protobuf: {str(exc)[:200]}", "not_protobuf") from None
    return request


def _parse_json(value: bytes, settings: TraceSettings) -> ExportTraceServiceRequest:
    try:
        obj = json.loads(value.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise _Refused(f"export request is not UTF-8: {exc.reason}", "not_json") from None
    except json.JSONDecodeError as exc:
        raise _Refused(f"export request is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                       "not_json") from None
    except RecursionError:
        raise _Refused("export request nests too deeply for the JSON parser", "too_deep") from None
    if too_deep(obj, settings.max_depth + 8):  # the envelope (resourceSpans ... attributes) adds 8 levels
        raise _Refused(f"export request nests deeper than the limit of {settings.max_depth} levels", "too_deep")
    if not isinstance(obj, dict):
        raise _Refused(f"export request must be a JSON object, got {type(obj).__name__}", "schema")
    try:
        hex_ids_to_base64(obj)
        return json_format.ParseDict(obj, ExportTraceServiceRequest(), ignore_unknown_fields=True)
    except BadId as exc:
        raise _Refused(str(exc), "schema", exc.field) from None
    except (json_format.ParseError, RecursionError) as exc:
        raise _Refused(f"not OTLP/JSON: {str(exc).splitlines()[0][:200]}", "schema") from None



def _flatten(request: ExportTraceServiceRequest, settings: TraceSettings) -> list[SpanRecord]:
    out: list[SpanRecord] = []
    for resource_spans in request.resource_spans:
        resource = _attributes(resource_spans.resource.attributes, settings.max_depth, "resource.attributes")
        service = resource.get("service.name")
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                if len(out) == settings.max_spans_per_request:
                    raise _Refused(f"export request holds more than {settings.max_spans_per_request} spans",
                                   "too_many_spans", "resourceSpans")
                out.append(_span(span, service, settings.max_depth))
    return out


def _span(span, service, max_depth: int) -> SpanRecord:
    if len(span.trace_id) != 16 or len(span.span_id) != 8:
        raise _Refused(f"span {span.name[:80]!r}: trace id must be 16 bytes and span id 8 bytes", "schema", "spans")
    parent = span.parent_span_id.hex() if span.parent_span_id and any(span.parent_span_id) else None
    return SpanRecord(span.trace_id.hex(), span.span_id.hex(), parent, span.name, span.start_time_unix_nano,
                      span.end_time_unix_nano, _attributes(span.attributes, max_depth, "attributes"),
                      str(service) if service is not None else None)


def _attributes(key_values, max_depth: int, where: str) -> dict[str, Any]:
    return {kv.key: _value(kv.value, 1, max_depth, f"{where}.{kv.key}") for kv in key_values}


def _value(any_value, depth: int, max_depth: int, where: str) -> Any:
    if depth > max_depth:
        raise _Refused(f"{where[:120]}: value nests deeper than the limit of {max_depth} levels", "too_deep", where)
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [_value(v, depth + 1, max_depth, where) for v in any_value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _value(kv.value, depth + 1, max_depth, where) for kv in any_value.kvlist_value.values}
    if kind == "bytes_value":
        return any_value.bytes_value.hex()
    return getattr(any_value, kind) if kind else None
