"""What `groundwatch export-model` records about a checkpoint: its kind, labels, input and window.

The kind is `--kind` or what config.json says (an encoder-decoder is seq2seq, three NLI labels are
nli3, one or two labels are grounding2). Labels come from `id2label` (`--supported-label` where the
names do not say which class is supported); a seq2seq model's labels are the first tokens of its two
answers ("1" and "0" for MiniCheck-Flan-T5). The window is the shortest of the tokenizer's
`model_max_length` and the absolute position embeddings (512 where neither limits it). The tokenizer
is saved as tokenizer.json, converted from a sentencepiece model here if the checkpoint has none, so
the runtime needs only the `tokenizers` library. Needs transformers (the export extra).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.kinds import KINDS, REMOTE_CODE, ModelKind, grounding_labels, nli_labels

# MiniCheck-Flan-T5's input: "predict: " + document + eos + claim ({eos}: the tokenizer's eos token).
SEQ2SEQ_TEMPLATE = "predict: {premise}{eos}{claim}"
DEFAULT_WINDOW = 512
UNLIMITED = 100_000  # a tokenizer's model_max_length above this means "not set"
# Position ids of these start after the padding index: max_position_embeddings - (pad_token_id + 1) remain.
OFFSET_POSITIONS = frozenset({"roberta", "xlm-roberta", "camembert", "longformer"})


@dataclass(frozen=True)
class ExportKind:
    kind: ModelKind
    tokens: dict[str, int] | None = None  # seq2seq: the label tokens' ids (the export's output columns)
    start_token: int | None = None        # seq2seq: the decoder's first input token

    def record(self) -> dict:
        record = self.kind.to_record()
        if self.tokens:
            record["label_tokens"] = self.tokens
        return record


def choose_kind(config: dict, requested: str | None, where: str) -> str:
    if config.get("auto_map"):
        raise ModelLoadError(f"{where} {REMOTE_CODE}")
    if requested is not None:
        if requested not in KINDS:
            raise ModelLoadError(f"--kind {requested!r}: expected one of {', '.join(KINDS)}")
        if (requested == "seq2seq") != bool(config.get("is_encoder_decoder")):
            raise ModelLoadError(f"{where} is {'an' if config.get('is_encoder_decoder') else 'not an'} "
                                 f"encoder-decoder; --kind {requested} does not fit it")
        return requested
    if config.get("is_encoder_decoder"):
        return "seq2seq"
    labels = len(config.get("id2label") or {}) or int(config.get("num_labels", 0))
    return "nli3" if labels == 3 else "grounding2"


def fast_tokenizer(checkpoint: Path):
    """The checkpoint's tokenizer as a fast (Rust) tokenizer, converted from sentencepiece if need be."""
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(str(checkpoint), use_fast=True)
    except (ImportError, ValueError, OSError) as exc:
        raise ModelLoadError(f"{checkpoint}: no tokenizer.json, and its tokenizer could not be converted "
                             f"({str(exc).splitlines()[0]}); pip install 'groundwatch[export]'") from exc
    if not tokenizer.is_fast:
        raise ModelLoadError(f"{checkpoint}: no tokenizer.json and no conversion of its tokenizer to one; "
                             "pip install 'groundwatch[export]'")
    return tokenizer


def window(config: dict, tokenizer, requested: int | None) -> int:
    """The model's input window in tokens."""
    if requested:
        return requested
    limits = []
    told = getattr(tokenizer, "model_max_length", None)
    if told and told < UNLIMITED:
        limits.append(int(told))
    positions = config.get("max_position_embeddings")
    if positions and config.get("position_biased_input", True):  # DeBERTa-v2/v3: relative positions only
        offset = (config.get("pad_token_id") or 0) + 1 if config.get("model_type") in OFFSET_POSITIONS else 0
        limits.append(int(positions) - offset)
    return min(limits) if limits else DEFAULT_WINDOW


def input_template(tokenizer, kind: str, requested: str | None) -> str | None:
    """The joined-text input, with {eos} replaced by the tokenizer's eos token; None: pairs."""
    template = requested if requested is not None else (SEQ2SEQ_TEMPLATE if kind == "seq2seq" else None)
    if not template:
        return None
    if "{eos}" in template:
        if not tokenizer.eos_token:
            raise ModelLoadError("the tokenizer has no eos token for {eos}: write the separator in --input-template")
        template = template.replace("{eos}", tokenizer.eos_token)
    for marker in ("{premise}", "{claim}"):
        if template.count(marker) != 1:
            raise ModelLoadError(f"--input-template {template!r} must hold {marker} once")
    if template.index("{premise}") > template.index("{claim}"):
        raise ModelLoadError(f"--input-template {template!r}: {{premise}} comes before {{claim}}")
    return template


def first_token(tokenizer, text: str) -> int:
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    if not ids:
        raise ModelLoadError(f"label {text!r} has no tokens")
    return int(ids[0])


def plan(checkpoint: Path, config: dict, tokenizer, kind: str | None = None, supported: str | None = None,
         unsupported: str | None = None, template: str | None = None, max_length: int | None = None) -> ExportKind:
    """Kind, labels, input template and window of a checkpoint, as the export records them."""
    where = f"{checkpoint}/config.json"
    name = choose_kind(config, kind, where)
    text = input_template(tokenizer, name, template)
    limit = window(config, tokenizer, max_length)
    if name == "nli3":
        if supported is not None:
            raise ModelLoadError("--supported-label is for two-way models; nli3 labels come from id2label")
        return ExportKind(ModelKind("nli3", nli_labels(config, where), text, limit))
    if name == "grounding2":
        return ExportKind(ModelKind("grounding2", grounding_labels(config, supported, where), text, limit))
    yes, no = first_token(tokenizer, supported or "1"), first_token(tokenizer, unsupported or "0")
    if yes == no:
        raise ModelLoadError(f"labels {supported or '1'!r} and {unsupported or '0'!r} start with the same token")
    start = config.get("decoder_start_token_id")
    if start is None:
        raise ModelLoadError(f"{where} has no decoder_start_token_id")
    # The export's two output columns: the unsupported and the supported answer's first token.
    return ExportKind(ModelKind("seq2seq", {"unsupported": 0, "supported": 1}, text, limit),
                      {"unsupported": no, "supported": yes}, int(start))
