"""Exceptions of the scoring stage."""


class InvalidResponse(ValueError):
    """A logged response does not follow groundwatch.response.v1; the message names the field.

    `reason` is a short fixed word (a dead-letter reason and metric label): schema, not_json, or the
    limit exceeded (scorers/schema.py LIMIT_REASONS).
    """

    def __init__(self, message: str, field: str | None = None, reason: str = "schema"):
        super().__init__(message)
        self.field = field
        self.reason = reason


class ScoringError(RuntimeError):
    """Scoring a valid response failed; `stage` says where, `reason` is a short fixed word.

    stage: claims | embed | evidence | limits | pairs | conflicts | inference | verdict | deadline (or "score"
    when unknown); reason: the stage, or for limits and deadlines what was exceeded
    (too_many_claims, too_many_chunks, too_many_pairs, too_many_windows, deadline). `error_class` names the exception behind it.
    """

    def __init__(self, message: str, stage: str = "score", reason: str | None = None,
                 error_class: str | None = None):
        super().__init__(message)
        self.stage = stage
        self.reason = reason or stage
        self.error_class = error_class or type(self).__name__

    @classmethod
    def wrap(cls, stage: str, exc: BaseException) -> "ScoringError":
        """What escaped one stage for one response (a ScoringError passes through as it is)."""
        if isinstance(exc, ScoringError):
            return exc
        return cls(f"{type(exc).__name__}: {exc}", stage, stage, type(exc).__name__)


class DeadlineExceeded(ScoringError):
    """A response's model results did not come back in time (`cause`: batch | future | shutdown)."""

    def __init__(self, cause: str, message: str):
        super().__init__(f"DeadlineExceeded ({cause}): {message}", "deadline", "deadline")
        self.cause = cause


class ModelLoadError(RuntimeError):
    """The NLI model directory is missing or unusable."""
