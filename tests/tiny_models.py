"""Tiny randomly initialised checkpoints built inside the tests (no downloads)."""

from __future__ import annotations

from pathlib import Path


def _tokenizer(path: Path):
    from transformers import AutoTokenizer

    from groundwatch.scorers.base_model import minilm_dir

    tok = AutoTokenizer.from_pretrained(str(minilm_dir()))
    tok.save_pretrained(str(path))
    return tok


def tiny_bert_checkpoint(path: Path, id2label: dict[int, str] | None = None) -> Path:
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    tok = _tokenizer(path)
    id2label = id2label or {0: "entailment", 1: "neutral", 2: "contradiction"}
    config = BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=512, num_labels=3, id2label=id2label,
                        label2id={v: k for k, v in id2label.items()})
    BertForSequenceClassification(config).save_pretrained(str(path))
    return path


def tiny_deberta_checkpoint(path: Path, id2label: dict[int, str]) -> Path:
    import torch
    from transformers import DebertaV2Config, DebertaV2ForSequenceClassification

    torch.manual_seed(0)
    tok = _tokenizer(path)
    config = DebertaV2Config(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                             intermediate_size=64, max_position_embeddings=512, relative_attention=True,
                             position_buckets=64, pos_att_type=["p2c", "c2p"], position_biased_input=False,
                             num_labels=3, id2label=id2label, label2id={v: k for k, v in id2label.items()},
                             type_vocab_size=0)
    DebertaV2ForSequenceClassification(config).save_pretrained(str(path))
    return path
