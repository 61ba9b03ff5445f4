"""groundwatch serve: the inline check over HTTP (POST /v1/check), sharing one scorer across requests."""

from __future__ import annotations

import signal
import sys

from groundwatch.commands.conventions import SERVICE_LEVEL, start_logging
from groundwatch.config.logs import get_logger
from groundwatch.commands.common import add_settings_args, build_scorer, fail, settings_from


def register(sub) -> None:
    p = sub.add_parser("serve", help="check answers inline over HTTP before they are sent (POST /v1/check)")
    p.add_argument("--host", help="listen address (default: serve.host, 127.0.0.1; 0.0.0.0 to listen on every "
                                  "interface, as a pod must)")
    p.add_argument("--port", type=int, help="listen port (default: serve.port, 8080)")
    p.add_argument("--publish", action="store_true",
                   help="also write verdicts to OpenSearch and the alerts topic (serve.publish; needs "
                        "serve.auth_token)")
    add_settings_args(p)
    p.set_defaults(func=run, default_log_level=SERVICE_LEVEL)  # a service logs its progress


def run(args) -> int:
    import uvicorn
    from pydantic import ValidationError

    from groundwatch.export.metric_labels import LabelPolicy
    from groundwatch.config.settings import exposure_warning, publish_problem
    from groundwatch.export.metrics import Metrics
    from groundwatch.scorers.errors import ModelLoadError
    from groundwatch.scorers.health import ScheduledCheck
    from groundwatch.serve.app import create_app
    from groundwatch.serve.publish import build_publisher
    from groundwatch.serve.service import CheckService

    try:
        settings = settings_from(args)
    except ValidationError as exc:
        return fail(f"settings: {exc.errors()[0]['msg']}")
    updates = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    if args.publish:
        updates["publish"] = True
    if updates:
        settings = settings.model_copy(update={"serve": settings.serve.model_copy(update=updates)})
    problem = publish_problem(settings.serve)  # --publish arrives after validation: checked again here
    if problem:
        return fail(problem)
    exposed = exposure_warning(settings.serve)
    if exposed:
        print(f"groundwatch: warning: {exposed}", file=sys.stderr)
    start_logging(args, settings.log_format, settings.log_level)  # --quiet / --verbose win
    log = get_logger("groundwatch.serve")
    log.info("settings", **settings.masked())

    metrics = Metrics(labels=LabelPolicy.from_settings(settings.metrics))
    try:
        scorer = build_scorer(settings, stage_timer=metrics.observe_stage, on_batch=metrics.observe_nli_batch,
                              on_pair_cache=metrics.observe_pair_cache)
    except ModelLoadError as exc:
        return fail(str(exc))
    scorer.backend.warmup()
    metrics.start_version_at_zero(scorer.version)
    metrics.set_model(scorer.backend.provider, scorer.backend.precision, scorer.model,
                      getattr(scorer.backend, "fallback", "none"))
    if scorer.policy is not None:
        from groundwatch.config.policy import ACTIONS

        metrics.start_actions_at_zero(ACTIONS, scorer.policy.rule_names + ["on_timeout", "on_error"])
    publisher = build_publisher(settings, metrics) if settings.serve.publish else None
    s = settings.scorer
    v = settings.serve
    # The model is probed on its own thread; /healthz reads the last answer and never runs the model.
    probe = ScheduledCheck("scorer", scorer.health, v.health_interval_s, v.health_timeout_s).start()
    service = CheckService(settings.serve, scorer, metrics, scorer.policy, (s.max_record_bytes, s.max_passages),
                           publisher, probe)
    service.model_loaded = True
    log.info("model_loaded", model=scorer.model, provider=scorer.backend.provider,
             precision=scorer.backend.precision)
    app = create_app(service, settings.serve, metrics.registry)
    log.info("serve_listening", host=settings.serve.host, port=settings.serve.port,
             auth=settings.serve.auth_token is not None, publish=publisher is not None)
    # uvicorn handles SIGTERM itself (stop accepting, finish in-flight requests, lifespan shutdown) and
    # then raises the signal again under the handler found before it: this one, so the exit is clean.
    signal.signal(signal.SIGTERM, lambda signum, frame: log.info("shutdown_done", signal="SIGTERM"))
    try:
        # One process, one model: concurrency comes from sharing the scorer, not from workers.
        uvicorn.run(app, host=settings.serve.host, port=settings.serve.port, log_level="warning",
                    access_log=False, timeout_graceful_shutdown=int(settings.serve.deadline_s) + 5)
    finally:
        service.close()
        scorer.close()
    return 0
