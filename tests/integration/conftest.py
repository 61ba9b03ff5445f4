"""Real servers for integration tests, started once per session on loopback.

Fixtures: kafka_bootstrap, opensearch_url, osmem_server, prometheus_factory.
Each test still makes its own topic, group and index names.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pytest

from infra.stack import MissingBinary, Server, start_osmem, start_prometheus, start_tansu


def _started(start: Callable[[], Server]) -> Server:
    """A missing server binary skips locally but fails under CI."""
    try:
        return start()
    except MissingBinary as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI is set and a stack binary is missing: {exc}")
        pytest.skip(f"stack binary missing: {exc}")


@pytest.fixture(scope="session")
def stack_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Logs of the session's servers (printed by ServerError on a failed start)."""
    return tmp_path_factory.mktemp("stack")


@pytest.fixture(scope="session")
def tansu_server(stack_dir: Path) -> Iterator[Server]:
    server = _started(lambda: start_tansu(stack_dir))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def kafka_bootstrap(tansu_server: Server) -> str:
    """"127.0.0.1:PORT". Consumers should use session.timeout.ms=6000: Tansu makes a
    group join wait about half of it. Never compute lag from Tansu's high watermark."""
    return tansu_server.address


@pytest.fixture(scope="session")
def osmem_server(stack_dir: Path) -> Iterator[Server]:
    """The OpenSearch-compatible server itself, for tests that stop and start it
    (it comes back on the same port). A test that stops it must start it again."""
    server = _started(lambda: start_osmem(stack_dir, parent_pid=os.getpid()))
    yield server
    server.stop()


@pytest.fixture
def opensearch_url(osmem_server: Server) -> str:
    # Function scope: a test that left the server stopped gets it back for the next one.
    if not osmem_server.running():
        osmem_server.start()
    return osmem_server.url


@pytest.fixture(scope="session")
def prometheus_factory(stack_dir: Path) -> Iterator[Callable[..., Server]]:
    """factory(scrape_targets, **start_prometheus kwargs) -> Server; all stopped at session end."""
    started: list[Server] = []

    def factory(scrape_targets: Iterable[str], **kwargs) -> Server:
        workdir = stack_dir / f"prometheus-{len(started)}"
        server = _started(lambda: start_prometheus(workdir, scrape_targets, **kwargs))
        started.append(server)
        return server

    yield factory
    for server in started:
        server.stop()
