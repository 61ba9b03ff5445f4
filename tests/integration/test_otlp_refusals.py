"""An OTLP backend that refuses verdict spans for good (a 400 on every try): the real OTLP/HTTP exporter
sends, the spans refused are found one by one and dead-lettered by the consumer, the rest delivered,
and the offsets move on instead of retrying forever. The backend is a small HTTP server on loopback
that reads each export request with the maintained OTLP classes."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (ExportTraceServiceRequest,
                                                                      ExportTraceServiceResponse)

from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.verdict_sinks import OtlpVerdictSettings
from groundwatch.consumer.otlp.assemble import assemble
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.export.base import SinkError
from groundwatch.export.otlp_sink import OtlpVerdictSink
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
from groundwatch.scorers.pipeline import Scorer
from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, produce, read_topic, settings_for, wait_until,
)
from tests.otlp_apps import otlp_proto, rag_traces

pytestmark = pytest.mark.integration


class RefusingBackend:
    """Answers 400 to an export request holding a verdict span whose doc id is in `refuse` (or to every
    request when `refuse_all`), 200 otherwise; `received` holds the doc ids it took."""

    def __init__(self, refuse: set[str] = frozenset(), refuse_all: bool = False):
        self.refuse, self.refuse_all = set(refuse), refuse_all
        self.received: list[str] = []
        self.refusals = 0
        backend = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server name
                request = ExportTraceServiceRequest.FromString(self.rfile.read(int(self.headers["Content-Length"])))
                ids = [a.value.string_value for rs in request.resource_spans for ss in rs.scope_spans
                       for span in ss.spans for a in span.attributes if a.key == "groundwatch.doc_id"]
                if backend.refuse_all or backend.refuse & set(ids):
                    backend.refusals += 1
                    self.send_response(400)
                    body = b"invalid span"
                else:
                    backend.received += ids
                    self.send_response(200)
                    body = ExportTraceServiceResponse().SerializeToString()
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}/v1/traces"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "RefusingBackend":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def _verdicts(n: int) -> list:
    traces = rag_traces(n, tag="refused")
    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=False))
    try:
        return scorer.score([r for _, r in assemble(decode_request(otlp_proto([s for t in traces for s in t]),
                                                                   "otlp_proto"))])
    finally:
        scorer.close()


def test_the_spans_refused_for_good_are_named_and_the_rest_sent():
    verdicts = _verdicts(4)
    bad = verdicts[1].doc_id
    with RefusingBackend(refuse={bad}) as backend:
        sink = OtlpVerdictSink(OtlpVerdictSettings(enabled=True, endpoint=backend.endpoint, timeout_s=5))
        try:
            with pytest.raises(SinkError) as refused:
                sink.write(verdicts)
        finally:
            sink.close()
    assert [(f.doc_id, f.status, f.permanent) for f in refused.value.refused] == [(bad, 400, True)]
    assert sorted(backend.received) == sorted(v.doc_id for v in verdicts if v.doc_id != bad)
    assert sink.sent == 3


def test_a_backend_that_refuses_every_verdict_span_gets_them_dead_lettered(kafka_bootstrap, opensearch_url):
    names = Names.fresh("otlp-refused")
    create_topics(kafka_bootstrap, names, partitions=1)
    traces = rag_traces(3, tag=names.topic)
    produce(kafka_bootstrap, names.topic, [otlp_proto(t) for t in traces])
    with RefusingBackend(refuse_all=True) as backend:
        base = settings_for(kafka_bootstrap, opensearch_url, names, DEFAULT_MODEL_DIR, scorer={"backend": "fake"})
        settings = base.model_copy(update={
            "kafka": base.kafka.model_copy(update={"input_format": "otlp_proto"}),
            "traces": base.traces.model_copy(update={"release_wait_s": 1.0}),
            "otlp_verdicts": OtlpVerdictSettings(enabled=True, endpoint=backend.endpoint, timeout_s=5)})
        running = RunningConsumer.start(settings)
        try:
            wait_until(lambda: committed(kafka_bootstrap, names) == {0: 3}, 60, "offsets committed past the refusals")
        finally:
            assert running.stop() == 0
    assert count_under(opensearch_url, names.alias) == 3  # the verdicts stay in the store
    letters = read_topic(kafka_bootstrap, names.dead_letters, 3)
    assert len(letters) == 3
    headers = [dict(m.headers()) for m in letters]
    assert {(h["groundwatch.stage"], h["groundwatch.reason"]) for h in headers} == {(b"sink", b"rejected")}
    assert backend.received == [] and backend.refusals <= 1 + 3  # a batch, then each span once: no retry loop
