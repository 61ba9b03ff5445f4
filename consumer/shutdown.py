"""The last resort of a bounded shutdown: exit hard if the graceful one overran.

The graceful path (StreamApp.stop) bounds scoring, writes, the commit and the
close by consumer.shutdown_timeout_s; `exit_after` makes sure of it even if a
client call or a model thread blocks. Exiting hard loses nothing: offsets are
committed only after their batch was written, so the next owner replays the
batch in flight.
"""

from __future__ import annotations

import os
import threading

from groundwatch.config.logs import get_logger

log = get_logger(__name__)

GRACE_S = 2.0  # beyond shutdown_timeout_s, for the last log lines


def exit_after(seconds: float, code: int = 1, grace_s: float = GRACE_S, _exit=os._exit) -> threading.Timer:
    """Start a daemon timer that ends the process with `code` after `seconds` (+ `grace_s`)."""
    def expire() -> None:
        log.error("shutdown_deadline_exceeded", timeout_s=seconds)
        _exit(code)

    timer = threading.Timer(seconds + grace_s, expire)
    timer.daemon = True
    timer.start()
    return timer
