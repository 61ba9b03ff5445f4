"""The plain-torch BERT forward gives transformers' logits bit for bit, so serving without transformers changes no
score."""

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from groundwatch.scorers.errors import ModelLoadError  # noqa: E402
from groundwatch.scorers.nli.pytorch.bert import load_bert, supports  # noqa: E402
from groundwatch.scorers.nli.pytorch.compact import WEIGHTS, load_compact  # noqa: E402

SHIPPED = Path(__file__).resolve().parents[2] / "scorers" / "models" / "nli-minilm-torch"
SHAPES = [(4, 96), (8, 32), (1, 17), (3, 200)]  # (rows, width); a single row has no padding at all


def _inputs(rows: int, width: int, seed: int):
    rng = np.random.default_rng(seed)
    ids = torch.tensor(rng.integers(1000, 20000, (rows, width)))
    mask = torch.ones(rows, width, dtype=torch.long)
    mask[1:, width // 2:] = 0  # every row but the first padded
    types = torch.zeros(rows, width, dtype=torch.long)
    types[:, width // 3:] = 1
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}


def _reference(model_dir: Path, dtype):
    if (model_dir / WEIGHTS).is_file():
        return load_compact(model_dir).to(dtype)
    from transformers import AutoModelForSequenceClassification

    return AutoModelForSequenceClassification.from_pretrained(str(model_dir)).eval().to(dtype)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32], ids=["bf16", "fp32"])
def test_the_shipped_model_and_a_checkpoint_give_transformers_logits_exactly(tiny_checkpoint, dtype):
    for model_dir in (SHIPPED, Path(tiny_checkpoint)):
        own = load_bert(model_dir, dtype, torch.device("cpu"))
        reference = _reference(model_dir, dtype)
        for seed, (rows, width) in enumerate(SHAPES):
            features = _inputs(rows, width, seed)
            with torch.inference_mode():
                mine, theirs = own(**features), reference(**features).logits
            assert mine.dtype == dtype and torch.equal(mine, theirs), (model_dir.name, rows, width)
        assert own.num_labels == reference.config.num_labels


def test_other_architectures_are_left_to_transformers(tmp_path):
    assert not supports({"model_type": "mpnet", "hidden_act": "gelu"})
    assert not supports({"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "relative_key"})
    assert not supports({"model_type": "bert", "hidden_act": "gelu_new"})
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "mpnet", "hidden_act": "gelu"}))
    (tmp_path / "model.safetensors").write_bytes(b"")
    assert load_bert(tmp_path, torch.float32, torch.device("cpu")) is None


def test_weights_missing_a_tensor_name_it(tiny_checkpoint, tmp_path):
    from safetensors.torch import load_file, save_file

    tensors = load_file(str(Path(tiny_checkpoint) / "model.safetensors"))
    tensors.pop("classifier.bias")
    save_file(tensors, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text((Path(tiny_checkpoint) / "config.json").read_text())
    with pytest.raises(ModelLoadError, match="classifier.bias"):
        load_bert(tmp_path, torch.float32, torch.device("cpu"))
