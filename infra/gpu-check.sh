#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and PyTorch with CUDA: the shipped NLI model, a DeBERTa-v2/v3
# checkpoint given with --deberta DIR, and one tiny random model per model kind (nli3 DeBERTa-v2,
# grounding2 RoBERTa, seq2seq T5) in fp16 on CUDA against fp32 on the CPU; parity, pairs/s and p50
# latency per response; exit 1 on a parity failure, 2 without CUDA (--cpu-only: the CPU self-test).
# Needs python3 with torch (CUDA build), transformers, safetensors and numpy; no groundwatch install,
# no onnxruntime-gpu (used for an extra ONNX CUDA row only where it is installed).
#   infra/gpu-check.sh [--deberta DIR] [--responses 24] [--tolerance 0.02] [--json out.json]
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
[ -x .venv/bin/python ] && [ -z "${PYTHON:-}" ] && python=.venv/bin/python
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
fi
exec "$python" infra/gpu_check.py "$@"
