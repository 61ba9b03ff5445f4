"""Redaction before storage (the `redaction` section of the settings).

Pure data: `scorers.redaction.Redactor` applies it to claim and passage text (every text
field of a verdict record) and to metadata values (but metadata.app and metadata.tenant, the ids
a verdict belongs to) before the record is stored. Off by default. Each match is
masked with a tag of the same length ("[email]****"), so stored offsets still point at
the same characters. In the environment, lists are JSON, e.g.
GROUNDWATCH_REDACTION__PATTERNS='["ACME-\\\\d{6}"]'.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, field_validator

ENTITIES = ("email", "phone", "iban", "card")


class RedactionSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    enabled: bool = False
    entities: tuple[str, ...] = ENTITIES  # built-in detectors; card numbers must pass the Luhn check
    patterns: tuple[str, ...] = ()        # extra regular expressions, each match masked as [pattern]

    @field_validator("entities")
    @classmethod
    def _known(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(value) - set(ENTITIES))
        if unknown:
            raise ValueError(f"redaction.entities: unknown {unknown}; expected some of {list(ENTITIES)}")
        return value

    @field_validator("patterns")
    @classmethod
    def _compiles(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for pattern in value:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"redaction.patterns: {pattern!r} is not a regular expression: {exc}") from None
        return value
