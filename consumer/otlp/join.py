"""Spans joined by trace id across messages and partitions, in a bounded buffer.

A trace is held until its root span has ended (the SDK exports a span when it ends, so a root
span seen is a root span ended; `traces.root_grace_s` later, for children that may still be on
their way from another partition), or until `traces.release_wait_s` after its last span arrived:
the Collector's groupbytrace semantics. Past `max_held_traces` or `max_held_bytes` the oldest
trace is released early (evicted); a trace past `max_spans_per_trace` keeps no more spans and is
released as too large. Offsets are committed only below the oldest message that still holds a
span of a held trace, so a crash replays every record not yet judged and the buffer is rebuilt.
A span of a trace released before is late: its trace id is remembered (up to
`remember_released` ids) to tell it from a new trace.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field

from confluent_kafka import TopicPartition

from groundwatch.config.traces import TraceSettings
from groundwatch.consumer.otlp.spans import SpanRecord

OUTCOMES = ("released", "timed_out", "evicted", "too_large")


@dataclass
class HeldTrace:
    trace_id: str
    first_message: object
    last_seen: float
    spans: list[SpanRecord] = field(default_factory=list)
    sources: dict[str, object] = field(default_factory=dict)  # span id -> the message it came in
    lowest: dict[tuple[str, int], int] = field(default_factory=dict)  # partition -> lowest offset holding a span
    span_count: int = 0
    bytes: int = 0
    root_ended: bool = False

    @property
    def too_large(self) -> bool:
        return self.span_count > len(self.spans)


@dataclass(frozen=True)
class ReleasedTrace:
    trace_id: str
    spans: list[SpanRecord]
    sources: dict[str, object]
    first_message: object
    outcome: str  # one of OUTCOMES


class TraceJoin:
    def __init__(self, settings: TraceSettings, clock=time.monotonic):
        self.settings, self.clock = settings, clock
        self._held: OrderedDict[str, HeldTrace] = OrderedDict()  # oldest first
        self._released: OrderedDict[str, None] = OrderedDict()
        self._next: dict[tuple[str, int], int] = {}  # partition -> one past the highest offset polled
        self._given: dict[tuple[str, int], int] = {}  # partition -> the offset commit_offsets gave last
        self._evicted: list[ReleasedTrace] = []
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._held)

    def seen(self, message) -> None:
        """Every polled message, held or not: the offset the partition may commit up to once nothing is held."""
        key = (message.topic(), message.partition())
        self._next[key] = max(self._next.get(key, 0), message.offset() + 1)

    def add(self, message, spans: list[SpanRecord]) -> list[SpanRecord]:
        """Hold the message's spans; returns the late ones (their trace was released) that are not held."""
        now = self.clock()
        share = len(message.value() or b"") // max(len(spans), 1)
        late = []
        for span in spans:
            if span.trace_id not in self._held and span.trace_id in self._released:
                late.append(span)
                if self.settings.late_spans == "dead_letter":
                    continue
                del self._released[span.trace_id]  # rescore: held again as a new version of the trace
            self._hold(span, message, share, now)
        self._evict()
        return late

    def _hold(self, span: SpanRecord, message, size: int, now: float) -> None:
        held = self._held.get(span.trace_id)
        if held is None:
            held = self._held[span.trace_id] = HeldTrace(span.trace_id, message, now)
        held.last_seen = now
        held.span_count += 1
        key = (message.topic(), message.partition())
        held.lowest[key] = min(held.lowest.get(key, message.offset()), message.offset())
        held.root_ended = held.root_ended or span.root
        if held.span_count > self.settings.max_spans_per_trace:
            self.bytes -= held.bytes  # too large: keep nothing more of it, only its offsets
            held.spans, held.sources, held.bytes = [], {}, 0
            return
        held.spans.append(span)
        held.sources[span.span_id] = message
        held.bytes += size
        self.bytes += size

    def _evict(self) -> None:
        s = self.settings
        while self._held and (len(self._held) > s.max_held_traces or self.bytes > s.max_held_bytes):
            trace_id = next(iter(self._held))
            self._evicted.append(self._release(trace_id, "evicted"))

    def due(self) -> bool:
        """Is a trace ready to be released now (or one already evicted)?"""
        return bool(self._evicted) or any(self._ready(h, self.clock()) for h in self._held.values())

    def release(self) -> list[ReleasedTrace]:
        """The traces whose root span has ended or whose wait is over, and those evicted since the last call."""
        now = self.clock()
        out, self._evicted = self._evicted, []
        for held in [h for h in self._held.values() if self._ready(h, now)]:
            outcome = "too_large" if held.too_large else "released" if held.root_ended else "timed_out"
            out.append(self._release(held.trace_id, outcome))
        return out

    def _ready(self, held: HeldTrace, now: float) -> bool:
        waited = now - held.last_seen
        return waited >= self.settings.release_wait_s or (held.root_ended and waited >= self.settings.root_grace_s)

    def _release(self, trace_id: str, outcome: str) -> ReleasedTrace:
        held = self._held.pop(trace_id)
        self.bytes -= held.bytes
        if self.settings.remember_released:
            self._released[trace_id] = None
            while len(self._released) > self.settings.remember_released:
                self._released.popitem(last=False)
        if held.too_large:
            outcome = "too_large"
        return ReleasedTrace(trace_id, held.spans, held.sources, held.first_message, outcome)

    def commit_offsets(self) -> list[TopicPartition]:
        """Per partition polled whose offset moved since the last call: the oldest offset a held trace still
        needs, else one past the last polled (Kafka refuses a commit that stores nothing new)."""
        floor: dict[tuple[str, int], int] = {}
        for held in self._held.values():
            for key, offset in held.lowest.items():
                floor[key] = min(floor.get(key, offset), offset)
        out = []
        for key, end in sorted(self._next.items()):
            offset = floor.get(key, end)
            if self._given.get(key) != offset:
                self._given[key] = offset
                out.append(TopicPartition(key[0], key[1], offset))
        return out

    def clear(self) -> None:
        """Forget everything held (partitions revoked or lost): the next owner reads from the committed offsets.
        The released trace ids go too: when the partitions come back here, the spans read again of a trace
        released but not yet committed rebuild it, as after a restart, instead of counting as late."""
        self._held.clear()
        self._released.clear()
        self._next.clear()
        self._given.clear()
        self._evicted = []
        self.bytes = 0
