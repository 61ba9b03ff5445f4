"""The three-way label scheme of the default model.

NOT_ENTAILMENT (-1) is a partial label for two-way sets (RTE, MED, ...):
the loss then only pushes down the probability of entailment.
"""

ID2LABEL = {0: "entailment", 1: "neutral", 2: "contradiction"}
LABEL2ID = {v: k for k, v in ID2LABEL.items()}
NOT_ENTAILMENT = -1

_ALIASES = {
    "entailment": 0, "supports": 0, "supported": 0, "e": 0,
    "neutral": 1, "not enough info": 1, "not_enough_info": 1, "nei": 1, "n": 1,
    "contradiction": 2, "refutes": 2, "refuted": 2, "c": 2,
    "not_entailment": NOT_ENTAILMENT,
}


def to_label(raw: str) -> int | None:
    """Map a data set's label spelling to the scheme; None for unusable labels."""
    return _ALIASES.get(raw.strip().lower())
