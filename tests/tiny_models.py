"""Tiny randomly initialised checkpoints built inside the tests (no downloads)."""

from __future__ import annotations

import time
from pathlib import Path

from groundwatch.scorers.nli.fake_backend import FakeBackend


def _tokenizer(path: Path):
    from transformers import AutoTokenizer

    from groundwatch.scorers.evidence.base_model import minilm_dir

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


def tiny_roberta_grounding_checkpoint(path: Path) -> Path:
    """A two-label RoBERTa as MiniCheck-RoBERTa ships it: LABEL_0 / LABEL_1, class 1 supported."""
    import torch
    from transformers import RobertaConfig, RobertaForSequenceClassification

    torch.manual_seed(0)
    tok = _tokenizer(path)
    config = RobertaConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                           intermediate_size=64, max_position_embeddings=514, pad_token_id=tok.pad_token_id,
                           type_vocab_size=1, num_labels=2, initializer_range=0.3)  # 0.3: spread-out scores
    RobertaForSequenceClassification(config).save_pretrained(str(path))
    return path


def _tiny_t5(path: Path, tok, eos_id: int) -> Path:
    """A Flan-T5-shaped encoder-decoder (gated GELU, relative positions) over `tok`, saved to `path`; [PAD]
    starts decoding, as T5's pad does."""
    from transformers import T5Config, T5ForConditionalGeneration

    config = T5Config(vocab_size=len(tok), d_model=32, d_kv=16, d_ff=64, num_layers=2, num_decoder_layers=2,
                      num_heads=2, relative_attention_num_buckets=8, feed_forward_proj="gated-gelu",
                      tie_word_embeddings=False, pad_token_id=tok.pad_token_id, eos_token_id=eos_id,
                      decoder_start_token_id=tok.pad_token_id)
    T5ForConditionalGeneration(config).save_pretrained(str(path))
    return path


def tiny_t5_checkpoint(path: Path) -> Path:
    """A Flan-T5-shaped encoder-decoder (gated GELU, relative positions); the MiniLM tokenizer's [SEP]
    serves as its end-of-sequence token and [PAD] as the decoder's start, as T5's pad does."""
    import torch
    from transformers import AutoTokenizer

    from groundwatch.scorers.evidence.base_model import minilm_dir

    torch.manual_seed(0)
    tok = AutoTokenizer.from_pretrained(str(minilm_dir()), eos_token="[SEP]")
    tok.save_pretrained(str(path))
    return _tiny_t5(path, tok, eos_id=tok.sep_token_id)


def tiny_t5_sentencepiece_checkpoint(path: Path) -> Path:
    """A tiny T5 whose tokenizer is a SentencePiece model trained here on the example texts and saved as
    the slow tokenizer alone (spiece.model, no tokenizer.json), as many T5 checkpoints ship: the export
    must convert it so the runtime needs only the `tokenizers` library."""
    import io
    import json

    import sentencepiece as spm
    import torch
    from transformers import T5Tokenizer

    torch.manual_seed(0)
    path.mkdir(parents=True, exist_ok=True)
    examples = Path(__file__).resolve().parents[1] / "examples"
    texts = [text for name in ("responses.jsonl", "controls/responses.jsonl")
             for line in (examples / name).read_text().splitlines()
             for text in (json.loads(line)["answer"], *(p["text"] for p in json.loads(line)["passages"]))]
    model = io.BytesIO()  # 1,200 pieces: the runtime refuses a tokenizer under 1,000 as files missing
    spm.SentencePieceTrainer.train(sentence_iterator=iter(texts), model_writer=model, vocab_size=1200,
                                   model_type="unigram", pad_id=0, eos_id=1,
                                   unk_id=2, bos_id=-1, minloglevel=2)
    (path / "spiece.model").write_bytes(model.getvalue())
    # legacy=True, as Flan-T5 and MiniCheck-Flan-T5 tokenizers load (their configs do not set it)
    tok = T5Tokenizer(str(path / "spiece.model"), extra_ids=0, legacy=True)
    tok.save_pretrained(str(path))
    return _tiny_t5(path, tok, eos_id=tok.eos_token_id)


class SlowBackend(FakeBackend):
    """The fake backend holding each batch `delay` seconds and recording the claims it scored."""

    def __init__(self, model_dir, delay: float = 0.0):
        super().__init__(model_dir)
        self.delay = delay
        self.scored: list[str] = []

    def predict(self, items):
        time.sleep(self.delay)
        self.scored.extend(i.pair[1] for i in items)
        return super().predict(items)
