"""BERT sequence classification in plain torch: the shipped small model's forward without transformers.

transformers' model classes cost about 180 MB of memory and a second of start-up (its generation utilities
import scikit-learn, torch.distributed imports sympy) for what is here about sixty lines. The ops are
BertForSequenceClassification's with SDPA attention, in the same order and precision, so the logits are the
same bit for bit (tests/unit/test_bert_forward.py). One difference on purpose: the attention mask is always
passed, where transformers drops an all-ones mask (another SDPA path) for a chunk without padding.
Other architectures (the larger model's MPNet, DeBERTa) load through transformers.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
import torch.nn.functional as F

from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.pytorch.compact import WEIGHTS, read_tensors
from groundwatch.scorers.nli.pytorch.onnx_weights import cached_state_dict

PREFIX = "bert."
LAYER = ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
         "attention.output.LayerNorm", "intermediate.dense", "output.dense", "output.LayerNorm")


def supports(config: dict) -> bool:
    """Whether `config` (config.json) is a BERT classifier this forward computes exactly as transformers does."""
    return (config.get("model_type") == "bert" and config.get("hidden_act") == "gelu"
            and config.get("position_embedding_type", "absolute") == "absolute"
            and config.get("architectures", ["BertForSequenceClassification"]) == ["BertForSequenceClassification"])


class BertClassifier:
    """Logits of BertForSequenceClassification in eval mode from its state dict (`tensors`, names as saved)."""

    def __init__(self, tensors: dict[str, torch.Tensor], config: dict):
        def pair(name: str) -> tuple[torch.Tensor, torch.Tensor]:
            return tensors[f"{name}.weight"], tensors[f"{name}.bias"]

        embeddings = f"{PREFIX}embeddings."
        self.words, self.types, self.positions = (tensors[f"{embeddings}{kind}_embeddings.weight"]
                                                  for kind in ("word", "token_type", "position"))
        self.embedding_norm = pair(f"{embeddings}LayerNorm")
        self.layers = [{part: pair(f"{PREFIX}encoder.layer.{i}.{part}") for part in LAYER}
                       for i in range(int(config["num_hidden_layers"]))]
        self.pooler, self.classifier = pair(f"{PREFIX}pooler.dense"), pair("classifier")
        self.num_labels = int(self.classifier[0].shape[0])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config["layer_norm_eps"])
        self.dtype = self.words.dtype

    def __call__(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                 token_type_ids: torch.Tensor | None = None) -> torch.Tensor:
        rows, width = input_ids.shape
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        x = self.words[input_ids] + self.types[token_type_ids]
        x += self.positions[:width]
        x = self._norm(x, *self.embedding_norm)
        # transformers' SDPA mask: 0 where a token may be attended to, the dtype's minimum on padding
        mask = torch.zeros(rows, 1, width, width, dtype=self.dtype, device=x.device)
        mask = mask.masked_fill(attention_mask[:, None, None, :] == 0, torch.finfo(self.dtype).min)
        for layer in self.layers:
            x = self._layer(x, mask, layer)
        pooled = torch.tanh(F.linear(x[:, 0], *self.pooler))
        return F.linear(pooled, *self.classifier)

    def _layer(self, x: torch.Tensor, mask: torch.Tensor, p: dict) -> torch.Tensor:
        rows, width, hidden = x.shape

        def heads(name: str) -> torch.Tensor:
            return F.linear(x, *p[name]).view(rows, width, self.heads, -1).transpose(1, 2)

        context = F.scaled_dot_product_attention(heads("attention.self.query"), heads("attention.self.key"),
                                                 heads("attention.self.value"), attn_mask=mask)
        context = context.transpose(1, 2).reshape(rows, width, hidden)
        x = self._norm(F.linear(context, *p["attention.output.dense"]) + x, *p["attention.output.LayerNorm"])
        inner = F.gelu(F.linear(x, *p["intermediate.dense"]))
        return self._norm(F.linear(inner, *p["output.dense"]) + x, *p["output.LayerNorm"])

    def _norm(self, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return F.layer_norm(x, (x.shape[-1],), weight, bias, self.eps)


def load_bert(model_dir: Path, dtype: torch.dtype, device: torch.device) -> BertClassifier | None:
    """The classifier of `model_dir` in `dtype` on `device`, from a compact copy, a checkpoint's model.safetensors
    or an ONNX export (onnx_weights.py), in that order; None where config.json names another architecture or
    none of those files is there."""
    config = json.loads((Path(model_dir) / "config.json").read_text())
    if not supports(config):
        return None
    compact, plain, export = (Path(model_dir) / name for name in (WEIGHTS, "model.safetensors", "model.onnx"))
    if compact.is_file() or plain.is_file():
        source = read_tensors(compact if compact.is_file() else plain)
    elif export.is_file():
        source = ((name, torch.from_numpy(value)) for name, value in cached_state_dict(export).items())
    else:
        return None
    weights = {name: value.to(device=device, dtype=dtype)  # each cast as read: no fp32 copy of the whole model
               for name, value in source if not name.endswith("position_ids")}
    try:
        return BertClassifier(weights, config)
    except KeyError as exc:
        raise ModelLoadError(f"{model_dir}: BERT weights without {exc.args[0]}") from None
