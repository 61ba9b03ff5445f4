"""Libraries that log through the standard library (opensearch-py, urllib3, httpx): never their
request bodies, never a URL's credentials.

opensearch-py logs every request and response body on its `opensearch` logger at DEBUG — a bulk
body is whole verdict records, claim and passage text included — so these loggers never go below
INFO, whatever log level the command runs at, and stay at WARNING (no `POST /index/_search` per
request) unless the command runs at debug. And every standard-library record has the
credentials in its URLs masked (config/secrets.py) when it is created, whichever handler prints it.
"""

from __future__ import annotations

import logging

from groundwatch.config.secrets import mask_url_credentials

LIBRARY_LOGGERS = ("opensearch", "opensearchpy", "opensearchpy.trace", "urllib3", "httpx", "httpcore", "transformers",
                   "sentence_transformers", "huggingface_hub")
_make_record = logging.getLogRecordFactory()


def _masked_record(*args, **kwargs) -> logging.LogRecord:
    record = _make_record(*args, **kwargs)
    try:
        message = record.getMessage()
    except Exception:  # noqa: BLE001 - a malformed record is the logging module's to report
        return record
    masked = mask_url_credentials(message)
    if masked != message:
        record.msg, record.args = masked, ()
    return record


# Per-request lines ("POST http://.../_search [status:N/A ...]" with a urllib3 traceback, "Retrying ...
# after connection broken"): the command reports an unreachable server itself, in one line, so these
# show only at debug.
REQUEST_LOGGERS = ("opensearch", "urllib3.connectionpool")


def guard_library_logs(level: str = "info") -> None:
    logging.setLogRecordFactory(_masked_record)
    asked = getattr(logging, level.upper(), logging.WARNING)
    floor = logging.INFO if asked <= logging.DEBUG else max(logging.WARNING, asked)
    for name in LIBRARY_LOGGERS:
        logging.getLogger(name).setLevel(floor)
    for name in REQUEST_LOGGERS:
        logging.getLogger(name).setLevel(logging.INFO if asked <= logging.DEBUG else max(logging.ERROR, asked))
