"""Health checks on a schedule: is the model backend (or a store) answering right now?

A ScheduledCheck runs its check on a daemon thread every `interval_s`. The
check's answer is kept; `problem()` reads it without blocking. A check that
has been running for longer than `timeout_s` is reported as hung: a stuck
model never returns, so its own thread could never say so. Used by the
streaming job's /healthz (the backend) and /readyz (the store); an inline
`serve` command can use the same probe for its backend.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from groundwatch.config.logs import get_logger

log = get_logger(__name__)


class ScheduledCheck:
    def __init__(self, name: str, check: Callable[[], bool], interval_s: float, timeout_s: float,
                 clock: Callable[[], float] = time.monotonic, first_failure_said: bool = False):
        """first_failure_said: a start-up check already reported a failure, so the first failed answer
        is logged at info, not warned about again."""
        self.name = name
        self._first_failure_said = first_failure_said
        self._check = check
        self.interval_s = interval_s
        self.timeout_s = timeout_s
        self._clock = clock
        self._ok: bool | None = None      # None: no answer yet
        self._running_since: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "ScheduledCheck":
        self._thread = threading.Thread(target=self._loop, name=f"health-{self.name}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()  # a hung check keeps its daemon thread; nothing waits for it

    def run_once(self) -> bool:
        """Run the check now, on this thread; its answer becomes the current one."""
        self._running_since = self._clock()
        try:
            ok = bool(self._check())
        except Exception as exc:  # noqa: BLE001 - a check reports, never raises
            log.warning("health_check_raised", check=self.name, error_class=type(exc).__name__)
            ok = False
        if ok != self._ok:
            quiet = ok or (self._ok is None and self._first_failure_said)
            (log.info if quiet else log.warning)("health_check_changed", check=self.name, ok=ok)
        self._ok, self._running_since = ok, None
        return ok

    def problem(self) -> str | None:
        """What is wrong now, or None (also before the first answer)."""
        since = self._running_since
        if since is not None and self._clock() - since > self.timeout_s:
            return f"{self.name} check has not answered for {self._clock() - since:.0f} s"
        if self._ok is False:
            return f"{self.name} check failed"
        return None

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            self._stop.wait(self.interval_s)
