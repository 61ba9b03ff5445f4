"""Reading responses from OpenTelemetry traces (the `traces` section of the settings).

Applies to the OTLP input formats (`otlp_proto`, `otlp_json`) of `groundwatch score --format` and
`Checker.check_spans`: export requests are decoded under these limits, then the spans of each
trace are assembled into responses (consumer/otlp/).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class TraceSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    # Which LLM answers of a trace are checked. after_retrieval: every LLM span with a text answer that
    # starts after a retrieval (or reranker) span of the same trace has ended, against the passages of
    # the latest such retrieval; a query rewrite before the retrieval is not an answer. last: only the
    # last of those in the trace (an agent's final answer).
    answers: Literal["after_retrieval", "last"] = "after_retrieval"
    # One export request (a Kafka message, a line of the file exporter's output), checked before parsing.
    max_request_bytes: int = Field(4_000_000, ge=1024)
    max_depth: int = Field(32, ge=2)              # JSON and attribute-value nesting
    max_spans_per_request: int = Field(10_000, ge=1)
    max_spans_per_trace: int = Field(1_000, ge=1)
    # Documents logged without their text (the GenAI convention needs only id and score) are looked up by
    # id in the corpus index (the `corpus` section's index, id and text fields); without it, or when the
    # id is not there, the response is scored on the passages it has and flagged passage_text_missing.
    look_up_missing_text: bool = False
    # The streaming join (kafka.input_format otlp_*): spans are held by trace id until the trace's root span
    # has ended, or release_wait_s after its last span arrived (the Collector's groupbytrace semantics).
    release_wait_s: float = Field(5.0, gt=0)
    # After the root span, wait this long since the trace's last span before releasing it: spans of one trace
    # on several partitions (no partition_traces_by_id) may arrive after their root. 0: release at once.
    root_grace_s: float = Field(0.0, ge=0)
    max_held_traces: int = Field(10_000, ge=1)    # past this the oldest held trace is released early (evicted)
    max_held_bytes: int = Field(64_000_000, ge=1024)  # export-request bytes behind the held spans, likewise
    # A span whose trace was already released: dead_letter (its message goes to the dead-letter topic, reason
    # late_span) or rescore (held as a new version of the trace; its responses overwrite the earlier verdicts).
    late_spans: Literal["dead_letter", "rescore"] = "dead_letter"
    remember_released: int = Field(100_000, ge=0)  # trace ids kept to tell a late span from a new trace
