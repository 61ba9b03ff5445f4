"""What the suite does to the job: kill -9 a consumer, stall OpenSearch mid-bulk, freeze a server.

- ConsumerProcess: one `groundwatch consume` process; kill() is SIGKILL (no drain, no
  commit), stop() is SIGTERM (the graceful leave that makes the group rebalance).
- StallingProxy: plain HTTP in front of osmem-server; once armed, the next _bulk request
  is forwarded half, held for a while, then completed: the client times out and retries
  while the first copy of the bulk still lands later.
- freeze(): SIGSTOP a server process, SIGCONT after a pause (a broker or store that hangs
  without closing its connections; osmem keeps its data in memory, so it is never restarted).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from infra.secure_proxy import HttpProxy


@dataclass
class ConsumerProcess:
    name: str
    env: dict[str, str]
    metrics_port: int
    log_dir: Path
    starts: int = 0
    process: subprocess.Popen | None = field(default=None, repr=False)

    def start(self) -> None:
        self.starts += 1
        log = open(self.log_dir / f"{self.name}-{self.starts:02d}.log", "wb")
        self.process = subprocess.Popen([sys.executable, "-m", "groundwatch.cli", "consume"], env=self.env,
                                        stdout=log, stderr=subprocess.STDOUT)
        log.close()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/readyz", timeout=1) as answer:
                return answer.status == 200
        except OSError:
            return False

    def wait_ready(self, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and self.alive():
            if self.ready():
                return True
            time.sleep(0.2)
        return False

    def kill(self) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait()

    def stop(self, timeout_s: float = 60) -> int | None:
        """SIGTERM; SIGKILL after timeout_s. The exit code (None if it had to be killed)."""
        if not self.alive():
            return self.process.returncode if self.process else None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.kill()
            return None


@dataclass
class StallingProxy(HttpProxy):
    stall_s: float = 0.0  # armed when > 0: applies to the next _bulk request, then disarms
    stalls: int = 0

    def arm(self, seconds: float) -> None:
        self.stall_s = seconds

    async def _forward(self, head: bytes, body: bytes, up_writer: asyncio.StreamWriter) -> None:
        stall, path = self.stall_s, head.split(b" ", 2)[1] if head.count(b" ") >= 2 else b""
        if stall > 0 and b"_bulk" in path and len(body) > 1:
            self.stall_s = 0.0
            self.stalls += 1
            half = len(body) // 2
            up_writer.write(head + body[:half])
            await up_writer.drain()
            await asyncio.sleep(stall)  # the server holds half a bulk; the client waits, times out, retries
            up_writer.write(body[half:])
            await up_writer.drain()
            return
        await super()._forward(head, body, up_writer)

    def armed(self) -> bool:
        return self.stall_s > 0


def freeze(pid: int, seconds: float) -> None:
    """SIGSTOP, then SIGCONT after `seconds` (always, even if interrupted)."""
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        os.kill(pid, signal.SIGCONT)
