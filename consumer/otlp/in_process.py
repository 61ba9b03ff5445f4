"""Spans handed over in Python (the Checker's check_spans) as the export requests the decoder reads.

Accepts the OpenTelemetry SDK's finished spans (ReadableSpan, as an exporter or span processor
receives them), ExportTraceServiceRequest messages, or their protobuf bytes. SDK spans are
encoded by the SDK's own OTLP encoder (opentelemetry-exporter-otlp-proto-common), so they take
the path a Kafka message takes, under the same limits.
"""

from __future__ import annotations

from typing import Any, Iterable

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest


def export_requests(spans: Iterable[Any]) -> list[bytes]:
    """The protobuf export requests holding `spans` (SDK spans are encoded together, in one request)."""
    if isinstance(spans, (bytes, bytearray, ExportTraceServiceRequest)):
        spans = [spans]
    out: list[bytes] = []
    sdk_spans = []
    for item in spans:
        if isinstance(item, (bytes, bytearray)):
            out.append(bytes(item))
        elif isinstance(item, ExportTraceServiceRequest):
            out.append(item.SerializeToString())
        elif hasattr(item, "get_span_context") and hasattr(item, "resource"):
            sdk_spans.append(item)
        else:
            raise TypeError(f"spans: expected OpenTelemetry SDK spans, ExportTraceServiceRequest messages or their "
                            f"protobuf bytes, got {type(item).__name__}")
    if sdk_spans:
        try:
            from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
        except ImportError:
            raise TypeError("spans: encoding SDK spans needs opentelemetry-exporter-otlp-proto-common "
                            "(pip install opentelemetry-exporter-otlp-proto-common)") from None
        out.append(encode_spans(sdk_spans).SerializeToString())
    return out
