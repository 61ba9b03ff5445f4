"""groundwatch consume: the streaming job (Kafka -> scorer -> OpenSearch, alerts, metrics)."""

from __future__ import annotations

import signal

from groundwatch.commands.conventions import SERVICE_LEVEL, start_logging
from groundwatch.config.logs import get_logger
from groundwatch.commands.common import add_settings_args, build_scorer, fail, settings_from


def register(sub) -> None:
    p = sub.add_parser("consume", help="score responses from Kafka into OpenSearch, alerts and metrics")
    p.add_argument("--idle-exit", type=float, metavar="SECONDS",
                   help="exit once no message arrived for this long (demos, backfills); default: run until signalled")
    add_settings_args(p)
    p.set_defaults(func=run, default_log_level=SERVICE_LEVEL)  # a service logs its progress


def run(args) -> int:
    from groundwatch.config.extras import MissingExtra, require
    from groundwatch.consumer import preflight
    from groundwatch.export.kafka_log import KafkaLog
    from groundwatch.consumer.shutdown import exit_after
    from groundwatch.consumer.wiring import build_job
    from groundwatch.export.metric_labels import LabelPolicy
    from groundwatch.export.metrics import Metrics
    from groundwatch.export.metrics_server import Health, MetricsServer
    from groundwatch.scorers.errors import ModelLoadError

    settings = settings_from(args)
    start_logging(args, settings.log_format, settings.log_level)  # --quiet / --verbose win
    log = get_logger("groundwatch.consume")
    log.info("settings", **settings.masked())
    kafka_log = KafkaLog(settings.kafka.bootstrap_servers)  # one warning while Kafka is down, from here on
    try:
        if settings.otlp_verdicts.enabled:  # before the model loads: say what to install, no traceback
            require("otlp", "otlp_verdicts.enabled")
    except MissingExtra as exc:
        return fail(str(exc))
    try:
        preflight.check(settings.kafka, settings.opensearch, kafka_log)  # wrong password or certificate: stop now
    except preflight.PreflightError as exc:
        log.error("preflight_failed", service=exc.service, reason=exc.reason)
        return fail(str(exc))

    metrics, health = Metrics(labels=LabelPolicy.from_settings(settings.metrics)), Health()
    server = MetricsServer(metrics.registry, health, settings.metrics.host, settings.metrics.port)
    log.info("metrics_listening", host=server.host, port=server.port)
    try:
        try:
            scorer = build_scorer(settings, stage_timer=metrics.observe_stage, on_batch=metrics.observe_nli_batch,
                                   on_pair_cache=metrics.observe_pair_cache)
        except ModelLoadError as exc:
            return fail(str(exc))
        scorer.backend.warmup()
        metrics.start_version_at_zero(scorer.version)
        metrics.set_model(scorer.backend.provider, scorer.backend.precision, scorer.model,
                          getattr(scorer.backend, "fallback", "none"))
        health.model_loaded = True
        log.info("model_loaded", model=scorer.model, provider=scorer.backend.provider,
                 precision=scorer.backend.precision)

        job = build_job(settings, scorer, metrics, health, kafka_log=kafka_log)

        def on_signal(signum, _frame) -> None:
            if job.app.shutdown_left() is not None:  # a second signal: the first one's deadline stands
                return
            log.info("shutdown_requested", signal=signal.Signals(signum).name,
                     timeout_s=settings.consumer.shutdown_timeout_s)
            job.app.stop()
            exit_after(settings.consumer.shutdown_timeout_s)  # the deadline covers the whole shutdown

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        try:
            return job.app.run(idle_exit_s=args.idle_exit)
        finally:
            job.close()
            scorer.close()
    finally:
        server.close()
