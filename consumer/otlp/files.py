"""Files the OpenTelemetry Collector's file exporter writes, read back as responses.

`format: json` writes one OTLP/JSON export request a line; `format: proto` writes each
ExportTraceServiceRequest preceded by its size as a 4-byte unsigned big-endian integer. Every
request is decoded under the `traces` limits; the spans of all of them are joined by trace id,
so a trace split over several requests is assembled whole.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Iterator

from groundwatch.config.traces import TraceSettings
from groundwatch.consumer.decode import DecodeError
from groundwatch.consumer.otlp.assemble import Assembled, assemble
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.schema import RecordLimits

_SIZE = struct.Struct(">I")


def read_requests(path: str | Path, encoding: str, max_bytes: int) -> Iterator[tuple[str, bytes | InvalidResponse]]:
    """(where, the bytes of one export request, or why it cannot be read) in file order."""
    with open(path, "rb") as f:
        if encoding == "otlp_json":
            for number, line in enumerate(f, start=1):
                if line.strip():
                    yield f"line {number}", line
            return
        number = 0
        while head := f.read(_SIZE.size):
            number += 1
            where = f"request {number}"
            if len(head) < _SIZE.size:
                yield where, InvalidResponse("file ends inside a size prefix", "<record>", "truncated")
                return
            (size,) = _SIZE.unpack(head)
            if size > max_bytes:  # refused before reading: the rest of the file cannot be framed after it
                yield where, InvalidResponse(f"export request is {size} bytes, over the limit of {max_bytes}; "
                                             f"the rest of the file is not read", "<record>", "too_large")
                return
            body = f.read(size)
            if len(body) < size:
                yield where, InvalidResponse(f"file ends inside a request ({len(body)} of {size} bytes)",
                                             "<record>", "truncated")
                return
            yield where, body


def responses_from_file(path: str | Path, encoding: str, settings: TraceSettings = TraceSettings(),
                        limits: RecordLimits = RecordLimits(), store=None) -> list[Assembled]:
    """The refused requests (where, InvalidResponse), then the responses of every trace in the file."""
    refused: list[Assembled] = []
    spans = []
    for where, value in read_requests(path, encoding, settings.max_request_bytes):
        result = value if isinstance(value, InvalidResponse) else decode_request(value, encoding, settings)
        if isinstance(result, DecodeError):
            result = InvalidResponse(result.message, result.field, result.reason)
        if isinstance(result, InvalidResponse):
            refused.append((where, result))
        else:
            spans.extend(result)
    return refused + assemble(spans, settings, limits, store)
