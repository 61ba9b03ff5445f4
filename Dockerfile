# syntax=docker/dockerfile:1
# groundwatch, CPU image: ONNX Runtime (CPU build) with the shipped int8 NLI model and the ONNX embedder;
# groundwatch[cpu] alone, no torch (the build fails if torch or transformers came in).
#   docker build -t ghcr.io/groundwatch/groundwatch:0.1.3 .
# The chart (helm/groundwatch/values.yaml) runs it as `groundwatch consume` / `groundwatch serve`,
# non-root (uid 10001) with a read-only root filesystem and /tmp as its only writable path.
# tests/unit/test_images.py checks this file statically (no Docker engine in CI).

ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
COPY pyproject.toml README.md ./
COPY groundwatch ./groundwatch
COPY config ./config
COPY consumer ./consumer
COPY serve ./serve
COPY scorers ./scorers
COPY export ./export
COPY reports ./reports
COPY recall_probe ./recall_probe
COPY evaluation ./evaluation
COPY audit ./audit
COPY training ./training
# [cpu]: the CPU build of onnxruntime, and no other (see pyproject.toml); nothing heavy beside it.
RUN pip install ".[cpu]" \
    && python -c "from groundwatch.config.extras import missing; assert missing('export') == ['torch', 'transformers', 'onnx'], 'heavy libraries in the runtime image'" \
    && python -m compileall -q /opt/venv/lib \
    && groundwatch --help > /dev/null

FROM python:${PYTHON_VERSION}-slim-bookworm
ARG PYTHON_VERSION
LABEL org.opencontainers.image.title="groundwatch" \
      org.opencontainers.image.version="0.1.3" \
      org.opencontainers.image.description="RAG faithfulness monitor: consume (streaming job) and serve (inline check)"
COPY --from=build /opt/venv /opt/venv
# Read-only root filesystem: every cache and home points into /tmp (an emptyDir in the chart);
# the models ship inside the installed packages, so nothing is fetched at run time.
ENV PATH=/opt/venv/bin:$PATH \
    HOME=/tmp \
    XDG_CACHE_HOME=/tmp/.cache \
    HF_HOME=/tmp/huggingface \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
RUN groupadd --gid 10001 groundwatch \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /tmp --shell /usr/sbin/nologin groundwatch
USER 10001:10001
WORKDIR /tmp
EXPOSE 8080 9108
ENTRYPOINT ["groundwatch"]
CMD ["consume"]
