"""Exceptions of the scoring stage."""


class InvalidResponse(ValueError):
    """A logged response does not follow groundwatch.response.v1; the message names the field."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class ScoringError(RuntimeError):
    """Scoring a valid response failed (model or evidence stage)."""


class ModelLoadError(RuntimeError):
    """The NLI model directory is missing or unusable."""
