"""Verdicts written back into traces: the `otlp_verdicts` and `phoenix` sections of the settings.

Both sinks are off by default. They act only on verdicts of responses read from spans
(`--format otlp_proto|otlp_json`, consumer/otlp/): the judged LLM span's trace and span ids are
kept in the response's metadata. Neither sends answer, question, claim or passage text: the
explanation names claims by number, severity and verdict, and evidence by passage id.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, SecretStr

# The evaluation's name in both sinks (gen_ai.evaluation.name, OpenInference evaluation.name, the annotation's name).
EVALUATION_NAME = "groundwatch.faithfulness"


class OtlpVerdictSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    enabled: bool = False
    # The OTLP/HTTP traces endpoint, signal path included (a Collector's :4318/v1/traces, Phoenix's /v1/traces).
    endpoint: str = "http://127.0.0.1:4318/v1/traces"
    # Sent with every export request, e.g. "authorization=Bearer …" (comma-separated key=value): a secret.
    headers: SecretStr | None = None
    timeout_s: float = Field(10.0, gt=0)
    service_name: str = "groundwatch"  # the verdict spans' resource service.name


class PhoenixSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    enabled: bool = False
    url: str = "http://127.0.0.1:6006"  # Phoenix's base URL; annotations go to {url}/v1/span_annotations
    api_key: SecretStr | None = None    # a Phoenix API key, sent as a bearer token (GROUNDWATCH_PHOENIX__API_KEY)
    timeout_s: float = Field(10.0, gt=0)
