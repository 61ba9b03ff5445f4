"""The scorer version: which model, combiner and deciding configuration produced a verdict.

`scorer_version(config, model, combiner)` is `CODE+HASH`: the code version
(`scorers.SCORER_VERSION`) and a 10-hex-digit sha256 prefix of the model
(`name@digest`, as in verdict records), the combiner file's content (when
`verdict_rule` is combiner) and every scorer setting that can change a verdict
(thresholds, rule, evidence and chunking settings, guard switches, ...).
Computed once when the scorer starts. It is part of each document id and a
label on every verdict metric, so a replay with the same scorer overwrites its
verdicts, a changed scorer writes new ones beside them, and alert baselines
never compare two scorers.

Settings that only change speed, limits or what is stored (batching, threads,
providers, caps, deadlines, store_passages) are left out: they do not change
a verdict. A new setting is deciding unless it is added to OPERATIONAL. The second opinion's settings
(SECOND_OPINION) join the hash as its own entry, its model's digest and margin, only when it is on, so a
scorer without it keeps the version it had before the setting existed.
"""

from __future__ import annotations

import hashlib
import json

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers import SCORER_VERSION

OPERATIONAL = frozenset({
    "model_dir", "backend", "providers", "threads", "int8_compute", "torch_compute",  # the model hash covers which
    # model runs; every compute mode is batch-invariant
    "combiner_path",  # the combiner's content is hashed instead of its path
    "max_batch_tokens", "max_batch_size", "max_wait_ms", "max_passages", "max_record_bytes",
    "max_claims", "max_pairs", "max_windows", "batch_deadline_s", "future_timeout_s", "store_passages",
    "max_json_depth", "max_answer_chars", "max_passage_chars", "max_claim_chars", "max_chunks",
})
SECOND_OPINION = frozenset({"second_opinion", "second_opinion_margin"})
DIGITS = 10


def deciding_settings(config: ScorerConfig) -> dict:
    """The scorer settings a verdict depends on, as plain JSON data."""
    return {k: v for k, v in sorted(config.model_dump(mode="json").items()) if k not in OPERATIONAL | SECOND_OPINION}


def scorer_version(config: ScorerConfig, model: str, combiner: dict | None = None, judge: dict | None = None,
                   second_opinion: dict | None = None) -> str:
    """`CODE+HASH`, stable across processes and machines for the same inputs.

    `combiner` is the loaded combiner's `to_dict()` (None under the threshold rule). `judge` is the
    enabled judge's model, prompt hash and band (scorers/verdicts/judge/); None, the default, leaves the hash
    as it was without a judge. A judge's reply may differ between runs of the same version. `second_opinion`
    is the larger model's name@digest and margin (scorers/verdicts/second_opinion.py); None when it is off.
    """
    payload = {"model": model, "combiner": combiner if config.verdict_rule == "combiner" else None,
               "settings": deciding_settings(config)}
    if judge is not None:
        payload["judge"] = judge
    if second_opinion is not None:
        payload["second_opinion"] = second_opinion
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return f"{SCORER_VERSION}+{hashlib.sha256(text.encode()).hexdigest()[:DIGITS]}"
