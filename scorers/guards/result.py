"""What a guard reports: whether it fired, the verdict it asks for, and on which evidence sentence."""

from __future__ import annotations

from dataclasses import dataclass, field

from groundwatch.scorers.guards.evidence import EvidenceSentence

CONTRADICTED = "CONTRADICTED"
NOT_ENOUGH_INFO = "NOT_ENOUGH_INFO"


@dataclass(frozen=True)
class GuardResult:
    name: str                          # "polarity" | "dropped_condition" | "arithmetic"
    fired: bool
    # When fired: NOT_ENOUGH_INFO (the cap), or CONTRADICTED with a verified mismatch in `found`
    # (scorers/guards/mismatch.py); scorers/verdicts/decide.py convicts on the mismatch record, never on this field.
    verdict: str | None = None
    flag: str | None = None            # "polarity_mismatch" | "dropped_condition" | "arithmetic_mismatch"
    detail: str = ""
    sentence: EvidenceSentence | None = None
    found: dict = field(default_factory=dict)  # what fired (or what checked out): words, condition, computation

    def to_record(self) -> dict:
        return {"name": self.name, "fired": self.fired, "verdict": self.verdict, "flag": self.flag,
                "detail": self.detail, "sentence": self.sentence.to_record() if self.sentence else None,
                "found": self.found}
