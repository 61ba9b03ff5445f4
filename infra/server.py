"""One local server process: start, wait until ready, stop, restart on the same port.

Ports are fixed at construction so a restart comes back where clients expect it
(tests stop OpenSearch mid-stream and bring it back on the same address).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HOST = "127.0.0.1"


class ServerError(RuntimeError):
    """A server exited or never became ready."""


class MissingBinary(FileNotFoundError):
    """The executable for a server is not installed."""


def free_port() -> int:
    """A port the kernel just handed out; the tiny race until the server binds is accepted."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def port_open(port: int, host: str = HOST, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def pid_runs(pid: int, executable: str) -> bool:
    """True when pid is alive and still runs `executable` (guards against a recycled pid)."""
    try:
        argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
    except OSError:
        return False
    return Path(argv0).name == Path(executable).name


def terminate_pid(pid: int, timeout: float = 10.0) -> None:
    """SIGTERM, then SIGKILL after `timeout`; returns once the pid is gone."""
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5.0)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            _reap(pid)
            if not pid_alive(pid):
                return
            time.sleep(0.05)
    raise ServerError(f"pid {pid} survived SIGKILL")


def stop_process(process: subprocess.Popen, timeout: float = 60.0) -> None:
    """SIGTERM a child (it finishes its batch and commits), SIGKILL it if it is still there after `timeout`."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _reap(pid: int) -> None:
    # Our own children stay zombies (and "alive" to kill -0) until waited for.
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


@dataclass
class Server:
    """A server process bound to HOST:port, logging to `log_path`.

    `ready` is called with the server until it returns True; it may raise OSError
    or any exception while the server is still coming up.
    """

    name: str
    argv: list[str]
    port: int
    log_path: Path
    ready: Callable[["Server"], bool]
    scheme: str = "http"
    start_timeout: float = 60.0
    detach: bool = False  # own session, so it outlives the CLI that started it
    _proc: subprocess.Popen | None = field(default=None, repr=False)
    _pid: int | None = field(default=None, repr=False)

    @property
    def address(self) -> str:
        return f"{HOST}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.address}"

    @property
    def pid(self) -> int | None:
        return self._pid

    def running(self) -> bool:
        if self._proc is not None:
            return self._proc.poll() is None
        return self._pid is not None and pid_alive(self._pid)

    def start(self) -> "Server":
        if self.running():
            raise ServerError(f"{self.name} already running as pid {self._pid}")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            log.write(f"--- start {' '.join(self.argv)}\n".encode())
            log.flush()
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=self.detach,
            )
        self._pid = self._proc.pid
        try:
            self._wait_ready()
        except BaseException:
            self.kill()
            raise
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Graceful stop (SIGTERM, SIGKILL after `timeout`); a no-op when not running."""
        if self._pid is not None:
            terminate_pid(self._pid, timeout)
        self._forget()

    def kill(self) -> None:
        """Hard stop, like a crash: SIGKILL without a grace period."""
        self.stop(timeout=0.0)

    def restart(self) -> "Server":
        self.stop()
        return self.start()

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return ""

    def record(self) -> dict:
        """What stack.json keeps about this server."""
        return {"address": self.address, "url": self.url, "pid": self.pid,
                "argv0": self.argv[0], "log": str(self.log_path)}

    def _forget(self) -> None:
        if self._proc is not None:
            self._proc.wait()
        self._proc = None
        self._pid = None

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        last_error: Exception | None = None
        while time.monotonic() < deadline:
            if not self.running():
                raise ServerError(f"{self.name} exited during start-up; log {self.log_path}:\n"
                                  f"{self.log_tail()}")
            if port_open(self.port):
                try:
                    if self.ready(self):
                        return
                except Exception as exc:  # still warming up; keep the reason for the error
                    last_error = exc
            time.sleep(0.2)
        raise ServerError(f"{self.name} not ready on {self.address} after {self.start_timeout}s "
                          f"(last error: {last_error!r}); log {self.log_path}:\n{self.log_tail()}")
