"""A real Arize Phoenix for the verdict-sink tests: `phoenix serve` from its own venv
(infra/install_phoenix.sh), offline, every port on loopback and free, stopped by PID."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
PHOENIX = REPO / ".stack" / "phoenix-venv" / "bin" / "phoenix"
START_TIMEOUT_S = 90.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Phoenix:
    working_dir: Path
    port: int
    grpc_port: int
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Phoenix":
        if not PHOENIX.exists():
            raise RuntimeError(f"{PHOENIX} is missing: run infra/install_phoenix.sh (infra/setup.sh --test does)")
        env = {**os.environ, "PHOENIX_HOST": "127.0.0.1", "PHOENIX_PORT": str(self.port),
               "PHOENIX_GRPC_PORT": str(self.grpc_port), "PHOENIX_WORKING_DIR": str(self.working_dir),
               "PHOENIX_TELEMETRY_ENABLED": "false"}
        log = open(self.working_dir / "phoenix.log", "ab")
        self.process = subprocess.Popen([str(PHOENIX), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"phoenix exited with {self.process.returncode}: see {self.working_dir}/phoenix.log")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"phoenix did not answer within {START_TIMEOUT_S:.0f} s")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
