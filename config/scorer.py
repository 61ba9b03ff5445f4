"""Configuration of the scoring pipeline (the `scorer` section of the settings).

Pure data: `scorers.verdicts.thresholds.Thresholds.from_config` turns the tau fields into thresholds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class GuardsConfig(BaseModel):
    """Deterministic guards beside the free checks (scorers/guards), each switchable."""

    model_config = ConfigDict(frozen=True)

    polarity: bool = True           # claim and evidence sentence disagree on negation -> caps at NEI
    dropped_condition: bool = True  # evidence grants the claim's content only under a condition -> NEI
    arithmetic: bool = True         # derived numbers: right ones count as found, wrong ones cap the verdict


class ScorerConfig(BaseModel):
    model_config = ConfigDict(frozen=True, protected_namespaces=())

    model_dir: str | None = None  # None: the shipped model (scorers/models), which both backends read
    # onnx | torch. torch (PyTorch: groundwatch[export]) is the fastest path on a CPU with AMX (docs/performance.md);
    # onnx stays the default everywhere, so a fleet of mixed CPUs scores with one precision and no PyTorch.
    backend: str = "onnx"
    providers: str = "auto"       # auto (CUDA first when present) | cpu | cuda
    threads: int | None = None
    # How an int8-weights model computes on CPU (docs/models.md, "Deterministic inference"); every mode is
    # batch-invariant. rows: int8 MatMuls with each token's activations quantised from that token alone
    # (scorers/nli/row_int8.py), the fastest measured, with int8 dot products (AVX-512 VNNI, AVX-VNNI, AMX) or
    # AVX2 only; blocks: ONNX Runtime's MatMulNBits, activations quantised per token and block of 32; fp32: the
    # weights folded to fp32 at load, the fp32 export's scores. auto: rows where the CPU has int8 dot products
    # or AVX2, else fp32 (not measured elsewhere). true and false read as auto and fp32.
    int8_compute: Literal["auto", "rows", "blocks", "fp32"] = "auto"
    # How the torch backend computes on CPU (docs/models.md, "Deterministic inference"): bf16 with fixed shapes
    # (each pair padded to its length bucket, each bucket run in batches of a constant size), batch-invariant;
    # fp32. auto: bf16 where the CPU has AMX (amx_bf16), the only CPUs where it was measured faster, else fp32.
    torch_compute: Literal["auto", "bf16", "fp32"] = "auto"
    max_length: int = 256
    # Defaults from a recorded calibration (scorers/calibration.json: pooled balanced accuracy on the
    # calibration half of WiCE, BEGIN, QAGS and HaluEval dev, within one standard error of the best, fewest
    # responses flagged; infra/measure_verdict_rule.sh final).
    tau_entailment: float = Field(0.7, ge=0, le=1)
    tau_contradiction: float = Field(0.95, ge=0, le=1)
    threshold_mode: str = "tiered"  # static | tiered | sqrt | sigmoid
    threshold_pivot: float = 0.5
    # threshold: SUPPORTED when the best entailment reaches tau_entailment; combiner: when the fitted
    # combiner's P(supported) reaches its threshold (contradiction is still decided first, with tau_c).
    verdict_rule: Literal["threshold", "combiner"] = "threshold"
    combiner_path: str | None = None  # None: combiner.json beside the model
    top_k: int = Field(4, ge=1)
    pair_top: int = Field(3, ge=0)
    # Also score the claim against its best-aligned sentence of the top chunks, alone (support only).
    sentence_premise: bool = True
    # Write opposites as a negated word in the NLI's inputs ("optional" -> "not required"; scorers/english/polarity_form.py)
    polarity_form: bool = True
    # Evidence cascade (scorers/evidence/cascade.py): score each claim's single chunks and sentence premise first, and its
    # joined pairs only when those do not agree on its verdict (none decides it, or they disagree). Off: every
    # premise of every claim is scored. The combiner rule reads the joined pairs' scores: under it they always are.
    evidence_cascade: bool = True
    # claim: re-rank the chunks per claim (default); question: reuse the retriever's
    # passage order for every claim (the baseline `groundwatch eval` compares against).
    evidence_mode: Literal["claim", "question"] = "claim"
    chunk_sentences: int = Field(4, ge=1)
    chunk_overlap: int = Field(1, ge=0)
    # None: windows of chunk_sentences sentences; N: as many whole sentences as fit in N words.
    chunk_words: int | None = Field(None, ge=1)
    rrf_k: int = 60
    use_embeddings: bool = True
    free_checks: bool = True
    # A bare "Yes." / "No." to a yes/no question is checked as the statement it makes (scorers/answer/yes_no.py).
    yes_no_answers: bool = True
    guards: GuardsConfig = GuardsConfig()
    context_conflicts: bool = True
    # Two dated retrieved passages disagree about a claim: the newer one decides it (scorers/evidence/recency.py).
    newer_source_decides: bool = True
    store_passages: bool = True  # keep passage text in verdict records for evidence traces
    # Response signals (scorers/verdicts/signals.py): a supporting passage older than another source giving the same
    # entity-attribute key a different value; an answer whose embedding is far from the question's.
    stale_evidence: bool = True
    off_topic: bool = True  # needs use_embeddings and a question in the response
    # Cosine; calibrated on HaluEval QA (python -m groundwatch.evaluation.relevance, docs/off-topic-calibration.json): the
    # highest threshold flagging at most 5% of on-topic answers of 4+ words on the calibration half; on the
    # other half it flags 4.1% of on-topic answers and catches 90.3% of off-topic ones.
    off_topic_threshold: float = Field(0.195, ge=-1, le=1)
    off_topic_min_words: int = Field(4, ge=0)  # shorter answers ("Delhi") are not judged: no relevance record
    # A larger NLI model as a second opinion (docs/models.md, "A second opinion"): its ONNX directory, or None (off,
    # the default). The shipped model scores every pair; the larger one re-scores every claim the shipped one would
    # make CONTRADICTED (a verified mismatch aside) and those with a premise in the uncertain band, and decides them:
    # CONTRADICTED then needs its contradiction. Same backend, providers, threads, batch settings and thresholds.
    second_opinion: str | None = None
    # The uncertain band: a premise's entailment within this of its entailment threshold. 0: no band, only the
    # claims about to be CONTRADICTED are re-read.
    second_opinion_margin: float = Field(0.15, ge=0, le=0.5)
    # Padded tokens (longest input x inputs) per model batch, of the NLI model and of the embedder. ONNX Runtime keeps
    # the memory of the largest batch it has run (its CPU arena, which grows with batch x length, attention with
    # length squared); on a GPU this bounds it, on the CPU the pieces of about 512 tokens each batch runs in do
    # (docs/performance.md, "Memory"). Scores do not depend on it. The torch backend in bf16 with fixed shapes cuts
    # its own chunks of 4 rows, so it takes everything collected (up to 4 x max_batch_size inputs) at once.
    max_batch_tokens: int = Field(2048, ge=1)
    max_batch_size: int = 64
    # The longest a model batch waits for more pairs while another submission is still queueing; with none in
    # progress it closes at once, so one answer at a time never waits on it.
    max_wait_ms: float = 5.0
    # Pair scores kept per model (the small one and the second opinion), least recently used out first: a
    # (premise, claim) pair seen again is not re-scored (the model is deterministic, so the score is the same).
    # 0: no cache, every pair goes to the model (groundwatch_pair_cache_lookups_total).
    pair_cache_size: int = Field(100_000, ge=0)
    max_passages: int = 100
    max_record_bytes: int = 1_000_000
    # Record limits checked at decode, on the raw JSON, before any scoring work (scorers/schema.py
    # RecordLimits); each has its own dead-letter reason and serve answers 413: too_deep (JSON nesting,
    # the record itself is level 1), answer_too_long, passage_too_long (one passage's text),
    # claim_too_long (one producer-supplied claim; their count is max_claims, reason too_many_claims).
    max_json_depth: int = Field(32, ge=2)
    max_answer_chars: int = Field(20_000, ge=1)
    max_passage_chars: int = Field(100_000, ge=1)
    max_claim_chars: int = Field(2_000, ge=1)
    # Caps per response, checked before the work they bound: claims before any per-claim check, chunks of
    # all passages before embedding, claim-evidence pairs before inference (context-conflict pairs have their
    # own cap). Over one, the response is dead-lettered (reason too_many_claims / too_many_chunks /
    # too_many_pairs) instead of holding the batch.
    max_claims: int = Field(128, ge=1)
    max_chunks: int = Field(1000, ge=1)
    max_pairs: int = Field(1024, ge=1)
    # Model inputs per response before inference: a premise longer than the model window is one input per token
    # window, so one huge passage can cost thousands under few pairs. Counted over every candidate premise (the
    # joined pairs included, whether or not the cascade scores them); over it, the response is dead-lettered
    # (reason too_many_windows).
    max_windows: int = Field(1024, ge=1)
    # Deadlines (scorers/deadline.py): one scorer call (its CPU stages check it too; queued pairs expire with it),
    # and the wait for any one model result. The consumer scores a late response again and dead-letters it
    # (reason deadline) only when it is late alone, repeatedly (consumer.late_tries_alone). The batch deadline
    # must stay below kafka.max_poll_interval_ms (checked in config/settings.py).
    batch_deadline_s: float = Field(120.0, gt=0)
    future_timeout_s: float = Field(60.0, gt=0)

    @field_validator("int8_compute", mode="before")
    @classmethod
    def _int8_compute_bool(cls, value):
        """Settings written when this was a switch: true read as auto, false as fp32."""
        if isinstance(value, bool):
            return "auto" if value else "fp32"
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return "auto" if value.lower() == "true" else "fp32"
        return value
