"""One frozen, typed settings object, loaded once in the entrypoint and passed down.

Environment variables use the prefix GROUNDWATCH_ and `__` between sections,
e.g. GROUNDWATCH_KAFKA__BOOTSTRAP_SERVERS or GROUNDWATCH_SCORER__TAU_ENTAILMENT.
A JSON config file (--config) gives defaults that the environment overrides.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from groundwatch.config.corpus import CorpusSettings
from groundwatch.config.judge import JudgeSettings
from groundwatch.config.policy import PolicyConfig
from groundwatch.config.redaction import RedactionSettings
from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.secrets import masked
from groundwatch.config.traces import TraceSettings
from groundwatch.config.verdict_sinks import OtlpVerdictSettings, PhoenixSettings


SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True)


class KafkaSettings(_Section):
    bootstrap_servers: str = "127.0.0.1:9092"
    input_topic: str = "rag-responses"
    # What the input topic carries: groundwatch.response.v1 JSON, or OpenTelemetry traces as the Collector's
    # Kafka exporter writes them (otlp_proto, its default encoding, or otlp_json); see the traces section.
    input_format: Literal["groundwatch.response.v1", "otlp_proto", "otlp_json"] = "groundwatch.response.v1"
    group_id: str = "groundwatch"
    dead_letter_topic: str = "groundwatch-dead-letters"
    alerts_topic: str = "groundwatch-alerts"
    batch_size: int = Field(64, ge=1)
    poll_timeout_s: float = 1.0
    session_timeout_ms: int = 45000
    max_poll_interval_ms: int = 300000
    auto_offset_reset: str = "earliest"
    security_protocol: str = "PLAINTEXT"  # PLAINTEXT | SSL | SASL_PLAINTEXT | SASL_SSL
    sasl_mechanism: str | None = None     # PLAIN | SCRAM-SHA-256 | SCRAM-SHA-512
    sasl_username: str | None = None
    sasl_password: SecretStr | None = None  # from a Secret (GROUNDWATCH_KAFKA__SASL_PASSWORD), never a file
    ssl_ca_location: str | None = None          # PEM of the CA that signed the brokers' certificates
    ssl_certificate_location: str | None = None  # client certificate (mutual TLS), PEM
    ssl_key_location: str | None = None
    ssl_key_password: SecretStr | None = None
    ssl_endpoint_identification_algorithm: str = "https"  # https: the broker's name must match its certificate
    produce_timeout_s: float = 30.0  # dead letters and alerts: delivery must be confirmed within this
    # The dead-letter topic's max.message.bytes (librdkafka's default message.max.bytes): a dead letter
    # whose original value does not fit is stored truncated, with its original size and sha256 in headers.
    dead_letter_max_bytes: int = Field(1_000_000, ge=4096)

    def client_config(self) -> dict[str, Any]:
        """librdkafka properties shared by consumer and producers."""
        conf: dict[str, Any] = {"bootstrap.servers": self.bootstrap_servers,
                                "security.protocol": self.security_protocol}
        optional = {
            "sasl.mechanism": self.sasl_mechanism,
            "sasl.username": self.sasl_username,
            "sasl.password": self.sasl_password.get_secret_value() if self.sasl_password else None,
            "ssl.ca.location": self.ssl_ca_location,
            "ssl.certificate.location": self.ssl_certificate_location,
            "ssl.key.location": self.ssl_key_location,
            "ssl.key.password": self.ssl_key_password.get_secret_value() if self.ssl_key_password else None,
        }
        if self.security_protocol in ("SSL", "SASL_SSL"):
            optional["ssl.endpoint.identification.algorithm"] = self.ssl_endpoint_identification_algorithm
        conf.update({k: v for k, v in optional.items() if v is not None})
        return conf

    @field_validator("security_protocol", "sasl_mechanism", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _security_complete(self) -> "KafkaSettings":
        # A half-configured security section would only show up as a broker that never answers.
        if self.security_protocol not in SECURITY_PROTOCOLS:
            raise ValueError(f"kafka.security_protocol {self.security_protocol!r}: expected one of "
                             f"{', '.join(SECURITY_PROTOCOLS)}")
        if self.security_protocol.startswith("SASL_"):
            if self.sasl_mechanism not in SASL_MECHANISMS:
                raise ValueError(f"kafka.sasl_mechanism {self.sasl_mechanism!r}: {self.security_protocol} needs one "
                                 f"of {', '.join(SASL_MECHANISMS)}")
            if not self.sasl_username or self.sasl_password is None:
                raise ValueError(f"kafka.security_protocol {self.security_protocol} needs kafka.sasl_username and "
                                 "kafka.sasl_password (GROUNDWATCH_KAFKA__SASL_PASSWORD, from a Secret)")
        if bool(self.ssl_certificate_location) != bool(self.ssl_key_location):
            raise ValueError("kafka.ssl_certificate_location and kafka.ssl_key_location go together")
        if self.ssl_endpoint_identification_algorithm not in ("https", "none"):
            raise ValueError("kafka.ssl_endpoint_identification_algorithm: expected 'https' or 'none'")
        return self


class OpenSearchSettings(_Section):
    url: str = "http://127.0.0.1:9200"
    alias: str = "groundwatch-verdicts"
    index_prefix: str = "groundwatch-verdicts"
    index_period: str = "month"  # day | month: one index per period behind the alias
    username: str | None = None
    password: SecretStr | None = None  # from a Secret (GROUNDWATCH_OPENSEARCH__PASSWORD)
    verify_certs: bool = True
    ca_certs: str | None = None     # PEM of the CA that signed the cluster's certificate
    client_cert: str | None = None  # client certificate (mutual TLS), PEM
    client_key: str | None = None
    timeout_s: float = 10.0
    number_of_shards: int = Field(1, ge=1)    # of each time-based index (index template)
    number_of_replicas: int = Field(1, ge=0)
    # Verdict indices older than this (by the period in their name) are deleted: by the ISM policy
    # `groundwatch init-store` installs, or by the job itself where the server has no ISM API.
    retention_months: int = Field(13, ge=1)
    retention_check_interval_s: float = Field(3600.0, gt=0)  # the job's own sweep, without ISM
    # The stored document's bounds (export/opensearch_mapping.py): metadata keys beyond app, model,
    # retriever and tenant go into one flat_object field, at most this many, values cut to this length;
    # a response timestamp this far from its Kafka message's timestamp is replaced by it (and flagged).
    max_metadata_keys: int = Field(32, ge=0, le=1000)
    max_metadata_value_chars: int = Field(1024, ge=16, le=8192)
    timestamp_max_age_days: float = Field(400.0, gt=0)
    timestamp_max_ahead_days: float = Field(1.0, ge=0)

    @model_validator(mode="after")
    def _tls_complete(self) -> "OpenSearchSettings":
        if bool(self.client_cert) != bool(self.client_key):
            raise ValueError("opensearch.client_cert and opensearch.client_key go together")
        if self.client_cert and not self.url.startswith("https://"):
            raise ValueError("opensearch.client_cert needs an https:// url")
        return self


class AlertSettings(_Section):
    enabled: bool = True
    # A Slack or Teams webhook URL is itself a credential: a secret (GROUNDWATCH_ALERTS__WEBHOOK_URL, from a Secret).
    webhook_url: SecretStr | None = None
    webhook_token: SecretStr | None = None


class MetricsSettings(_Section):
    # Loopback unless told otherwise, like serve: a pod (the Helm chart) sets GROUNDWATCH_METRICS__HOST=0.0.0.0.
    host: str = "127.0.0.1"
    port: int = 9108
    # Verdict counters are labelled by scorer_version and app (export/metric_labels.py). label_apps: the apps
    # to keep (others count as "other"); empty: the first max_apps seen. tenant / retriever become labels
    # only when their allow-list is given.
    label_apps: tuple[str, ...] = ()
    max_apps: int = Field(50, ge=1)
    label_tenants: tuple[str, ...] = ()
    label_retrievers: tuple[str, ...] = ()


class ServeSettings(_Section):
    """groundwatch serve: the inline check over HTTP."""

    # Loopback unless told otherwise: a pod (the Helm chart) sets GROUNDWATCH_SERVE__HOST=0.0.0.0.
    host: str = "127.0.0.1"
    port: int = 8080
    auth_token: SecretStr | None = None  # bearer token for /v1/*, /docs and /openapi.json; None: no authentication
    deadline_s: float = Field(5.0, gt=0)  # per request; a client may ask for less (X-Groundwatch-Deadline-Ms)
    max_request_bytes: int = Field(2_000_000, ge=1024)  # larger bodies get 413
    max_batch_items: int = Field(64, ge=1)  # responses in one /v1/check:batch request
    max_batch_responses: int = Field(32, ge=1)  # responses scored together in one scorer call
    max_queue: int = Field(1024, ge=1)  # responses waiting for the scorer; beyond it requests get 503
    # Under concurrent load (the previous scorer call had company) wait this long for more requests
    # before a call; a lone client never waits (serve/collector.py).
    collect_wait_ms: float = Field(20.0, ge=0)
    publish: bool = False  # also write each verdict to OpenSearch and the alerts topic (needs auth_token)
    publish_queue: int = Field(10_000, ge=1)  # verdicts waiting to be published; beyond it they are dropped
    # /healthz reports the last answer of a background probe of the model (asked every health_interval_s,
    # hung past health_timeout_s); /readyz fails while one scorer call has run longer than collector_stall_s
    # (and twice deadline_s: a call within the requests' deadlines is not a stall).
    health_interval_s: float = Field(30.0, gt=0)
    health_timeout_s: float = Field(20.0, gt=0)
    collector_stall_s: float = Field(60.0, gt=0)



def publish_problem(serve: ServeSettings) -> str | None:
    """Why serve must not start as configured, or None: publishing writes verdicts and fires alerts,
    so it is never open to anyone who reaches the port. Checked when serve starts, not when settings
    load: the consumer shares the settings and has no serve token."""
    if serve.publish and (serve.auth_token is None or not serve.auth_token.get_secret_value()):
        return ("serve.publish needs serve.auth_token (GROUNDWATCH_SERVE__AUTH_TOKEN, from a Secret): "
                "without it anyone who reaches the port writes verdicts and fires alerts")
    return None


def exposure_warning(serve: ServeSettings) -> str | None:
    """A one-line warning when serve listens beyond loopback with no token: anyone who reaches the port
    may check answers and read /docs. A warning, not a refusal: a pod behind a mesh may mean it."""
    if serve.auth_token is not None and serve.auth_token.get_secret_value():
        return None
    import ipaddress

    try:
        loopback = serve.host == "localhost" or ipaddress.ip_address(serve.host).is_loopback
    except ValueError:  # a host name: it may resolve beyond this machine
        loopback = False
    if loopback:
        return None
    return (f"serve listens on {serve.host} without serve.auth_token: anyone who reaches port {serve.port} can "
            f"use /v1/check (set GROUNDWATCH_SERVE__AUTH_TOKEN, or --host 127.0.0.1)")


class ConsumerSettings(_Section):
    max_inflight_responses: int = Field(256, ge=1)
    sink_retry_initial_s: float = 0.5
    sink_retry_max_s: float = 30.0
    # While the store is down a cheap probe asks this often (jittered) whether it answers; an answer ends
    # the backoff's wait at once (consumer/store_probe.py).
    sink_probe_interval_s: float = Field(2.0, gt=0)
    # SIGTERM to exit, all of it: scoring, writes, commit, closing the clients (then a hard exit).
    shutdown_timeout_s: float = Field(30.0, gt=0)
    # On revoke the in-flight batch's writes are retried this long, then it is left to the new owner.
    revoke_timeout_s: float = Field(15.0, gt=0)
    # Liveness: the loop must poll at least this often (more than scorer.batch_deadline_s), and the
    # model backend is asked for a health answer every health_interval_s, hung past health_timeout_s.
    loop_stall_s: float = Field(300.0, gt=0)
    health_interval_s: float = Field(30.0, gt=0)
    health_timeout_s: float = Field(20.0, gt=0)
    # A response that misses scorer.batch_deadline_s is backpressure, not a bad message: with the partitions
    # paused (polling on) for late_retry_wait_s, the late responses are scored again in groups half as large
    # each round; one is dead-lettered (reason deadline) only after missing the deadline scored alone
    # late_tries_alone times (consumer/late.py).
    late_tries_alone: int = Field(2, ge=1)
    late_retry_wait_s: float = Field(1.0, ge=0)
    # A batch's first scorer call ends this soon (never later than scorer.batch_deadline_s): what is scored
    # by then is written before the late responses are tried again, so one slow record does not hold the
    # documents of the normal records polled with it. The pair cache keeps what the first try computed.
    first_try_s: float = Field(20.0, gt=0)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GROUNDWATCH_", env_nested_delimiter="__", frozen=True,
                                      extra="ignore")

    log_format: Literal["auto", "json", "console"] = "auto"  # auto: console on a terminal, else JSON
    # Unset: warning for one-off commands and the Python API, info for the services (consume, serve)
    log_level: Literal["debug", "info", "warning", "error", "critical"] | None = None
    kafka: KafkaSettings = KafkaSettings()
    opensearch: OpenSearchSettings = OpenSearchSettings()
    scorer: ScorerConfig = ScorerConfig()
    alerts: AlertSettings = AlertSettings()
    metrics: MetricsSettings = MetricsSettings()
    consumer: ConsumerSettings = ConsumerSettings()
    serve: ServeSettings = ServeSettings()
    policy: PolicyConfig = PolicyConfig()
    redaction: RedactionSettings = RedactionSettings()
    corpus: CorpusSettings = CorpusSettings()
    judge: JudgeSettings = JudgeSettings()  # an LLM judge for the uncertain band (off by default)
    traces: TraceSettings = TraceSettings()  # responses read from OpenTelemetry spans
    otlp_verdicts: OtlpVerdictSettings = OtlpVerdictSettings()  # verdict spans into the judged trace (off)
    phoenix: PhoenixSettings = PhoenixSettings()  # verdicts as Arize Phoenix span annotations (off)

    @field_validator("log_format", "log_level", mode="before")
    @classmethod
    def _lower_case(cls, value: Any) -> Any:
        return value.lower() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _deadlines_fit(self) -> "Settings":
        # A batch must be scored and written well within max.poll.interval.ms, or the group evicts
        # the member mid-batch and hands the same batch to the next one.
        if self.scorer.batch_deadline_s * 1000 > self.kafka.max_poll_interval_ms / 2:
            raise ValueError(f"scorer.batch_deadline_s ({self.scorer.batch_deadline_s}) must be at most half of "
                             f"kafka.max_poll_interval_ms ({self.kafka.max_poll_interval_ms} ms)")
        if self.scorer.future_timeout_s > self.scorer.batch_deadline_s:
            raise ValueError("scorer.future_timeout_s must not exceed scorer.batch_deadline_s")
        if self.consumer.loop_stall_s <= self.scorer.batch_deadline_s:
            raise ValueError(f"consumer.loop_stall_s ({self.consumer.loop_stall_s}) must exceed "
                             f"scorer.batch_deadline_s ({self.scorer.batch_deadline_s}): scoring a batch is not a stall")
        if self.consumer.revoke_timeout_s * 1000 > self.kafka.max_poll_interval_ms / 2:
            raise ValueError("consumer.revoke_timeout_s must be at most half of kafka.max_poll_interval_ms")
        return self

    def masked(self) -> dict[str, Any]:
        """For the start-up log: SecretStr fields print as '**********', and a URL's credentials
        (user:password@, secret query values) as '***' wherever they appear."""
        return masked(json.loads(self.model_dump_json()))


def load_settings(config_file: str | Path | None = None) -> Settings:
    """Settings from a JSON file (optional), overridden by GROUNDWATCH_* environment variables.

    Raises SettingsError, one line naming the file, key or variable (never a value); a GROUNDWATCH_*
    variable that names no setting is logged as a warning, not refused (Kubernetes sets some)."""
    import os

    from pydantic import ValidationError
    from pydantic_settings import SettingsError as EnvParseError

    from groundwatch.config.settings_check import SettingsError, check_keys, describe, read_config_file

    _warn_unknown_variables(os.environ)
    source = f"--config {config_file}" if config_file is not None else None
    try:
        if config_file is None:
            return Settings()
        data = read_config_file(config_file)
        check_keys(data, Settings, source)
        env = Settings()  # environment only
        explicit = env.model_dump(exclude_unset=True)
        merged = _deep_merge(data, explicit)
        return Settings(**merged)
    except ValidationError as exc:
        raise SettingsError(describe(exc, source, os.environ)) from None
    except EnvParseError as exc:  # a variable holding JSON (GROUNDWATCH_POLICY__RULES) that is not JSON
        field = str(exc).split('"')[1] if str(exc).count('"') >= 2 else "?"
        raise SettingsError(f"GROUNDWATCH_{field.upper()}__*: a variable of this section is not valid JSON") from None


_warned: set[str] = set()


def _warn_unknown_variables(environ) -> None:
    from groundwatch.config.settings_check import unknown_variables

    for name, close in unknown_variables(environ, Settings):
        if name not in _warned:  # once per process, however often the settings are loaded
            _warned.add(name)
            # A plain line, before any log is set up: a typo must not scroll away among JSON log lines.
            hint = f" (did you mean {close}?)" if close else ""
            print(f"groundwatch: warning: {name} names no setting and is ignored{hint}", file=sys.stderr)


def _deep_merge(base: dict, override: dict) -> dict:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out
