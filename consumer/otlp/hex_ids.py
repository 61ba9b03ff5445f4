"""OTLP/JSON's one departure from protobuf's JSON mapping: trace and span ids are hex, not base64.

The OTLP specification says so for `traceId`, `spanId` and `parentSpanId` (and the ids of span
links); everything else (64-bit integers as strings, enums as integers, camelCase names) is what
protobuf's json_format already reads. The ids are rewritten to base64 in place, before ParseDict.
"""

from __future__ import annotations

import base64

_SPAN_IDS = ("traceId", "spanId", "parentSpanId")
_LINK_IDS = ("traceId", "spanId")


class BadId(ValueError):
    def __init__(self, field: str):
        super().__init__(f"{field}: not a hex id")
        self.field = field


def _rewrite(obj: dict, names: tuple[str, ...], where: str) -> None:
    for name in names:
        value = obj.get(name)
        if value in (None, ""):
            continue
        if not isinstance(value, str) or len(value) % 2:
            raise BadId(f"{where}.{name}")
        try:
            obj[name] = base64.b64encode(bytes.fromhex(value)).decode("ascii")
        except ValueError:
            raise BadId(f"{where}.{name}") from None


def hex_ids_to_base64(request: dict) -> None:
    """Rewrite every span's and span link's ids; raise BadId naming the first that is not hex."""
    for r, resource_spans in enumerate(_items(request.get("resourceSpans"))):
        for s, scope_spans in enumerate(_items(resource_spans.get("scopeSpans"))):
            for i, span in enumerate(_items(scope_spans.get("spans"))):
                where = f"resourceSpans.{r}.scopeSpans.{s}.spans.{i}"
                _rewrite(span, _SPAN_IDS, where)
                for k, link in enumerate(_items(span.get("links"))):
                    _rewrite(link, _LINK_IDS, f"{where}.links.{k}")


def _items(value) -> list[dict]:
    """The dicts of a JSON list; anything else is left for ParseDict to name."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []

