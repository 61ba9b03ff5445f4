"""The verdict store's layout and lifetime: template, alias, retention.

`init_store` (run by `groundwatch init-store` and by the job at start-up; idempotent)
installs the index template, creates the current period's index so the alias exists,
and installs an ISM policy whose age rule matches the index period: an index named for
a month holds documents up to that month's end, so it may go only once the retention
has passed since then, i.e. at an age of retention + one period.

Where the server has no ISM API (osmem-server, plain OpenSearch without the plugin),
`sweep` deletes indices whose period, read from the name, ended more than the retention
ago; the job runs it every `opensearch.retention_check_interval_s`. Names that carry no
period (`{prefix}-undated`) are never deleted by age.
"""

from __future__ import annotations

import calendar
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

from groundwatch.config.logs import get_logger
from groundwatch.config.settings import OpenSearchSettings
from groundwatch.export.opensearch_mapping import PERIOD_FORMATS, index_template

log = get_logger(__name__)

DAYS_PER_MONTH = 31  # ISM ages are in days; a month is counted long so nothing goes early
PERIOD_DAYS = {"month": 31, "day": 1}


class StoreSetupError(RuntimeError):
    """The server refused a set-up request (not: it has no ISM API)."""


def policy_id(settings: OpenSearchSettings) -> str:
    return settings.index_prefix


def min_index_age(retention_months: int, period: str) -> str:
    """The ISM age at which an index of `period` may go: the retention plus one whole period."""
    return f"{retention_months * DAYS_PER_MONTH + PERIOD_DAYS[period]}d"


def ism_policy(settings: OpenSearchSettings) -> dict:
    """The body of PUT _plugins/_ism/policies/{policy_id}."""
    age = min_index_age(settings.retention_months, settings.index_period)
    return {"policy": {
        "description": f"groundwatch verdict indices ({settings.index_period}ly): kept {settings.retention_months} "
                       f"months after their period ends, then deleted",
        "default_state": "hot",
        "states": [
            {"name": "hot", "actions": [],
             "transitions": [{"state_name": "delete", "conditions": {"min_index_age": age}}]},
            {"name": "delete", "actions": [{"delete": {}}], "transitions": []},
        ],
        "ism_template": [{"index_patterns": [f"{settings.index_prefix}-*"], "priority": 100}],
    }}


# -- periods in index names ----------------------------------------------------

def period_end(index: str, prefix: str, period: str) -> datetime | None:
    """When the period named by `{prefix}-YYYY.MM[.DD]` ends (UTC); None for any other name."""
    if not index.startswith(prefix + "-"):
        return None
    try:
        start = datetime.strptime(index[len(prefix) + 1:], PERIOD_FORMATS[period]).replace(tzinfo=timezone.utc)
    except ValueError:
        return None
    if period == "day":
        return datetime.fromordinal(start.toordinal() + 1).replace(tzinfo=timezone.utc)
    return _add_months(start, 1)


def _add_months(when: datetime, months: int) -> datetime:
    month = when.month - 1 + months
    year, month = when.year + month // 12, month % 12 + 1
    return when.replace(year=year, month=month, day=min(when.day, calendar.monthrange(year, month)[1]))


def expired(index: str, settings: OpenSearchSettings, now: datetime) -> bool:
    end = period_end(index, settings.index_prefix, settings.index_period)
    return end is not None and _add_months(end, settings.retention_months) <= now


# -- set-up ----------------------------------------------------------------------

@dataclass
class StoreState:
    """What init_store did; `ism` False means the job must sweep by itself."""

    template: bool = False
    index: str | None = None
    ism: bool = False
    policy: str = "unchanged"  # created | updated | unchanged | unsupported | forbidden
    attached: int = 0          # existing indices the policy was attached to
    notes: list[str] = field(default_factory=list)


def _status(exc) -> int:
    code = getattr(exc, "status_code", 0)
    return code if isinstance(code, int) else 0


def _no_ism(exc) -> bool:
    """The server has no ISM API: 'no handler found for uri' (400) or an unknown path (404/405)."""
    text = str(getattr(exc, "error", "")) + " " + str(getattr(exc, "info", ""))
    return "no handler found" in text or (_status(exc) in (404, 405) and "policy" not in text.lower())


def init_store(client, settings: OpenSearchSettings, now: datetime | None = None) -> StoreState:
    """Template, current index behind the alias, retention policy. Safe to run again and again."""
    from opensearchpy.exceptions import RequestError, TransportError

    now = now or datetime.now(timezone.utc)
    state = StoreState()
    body = index_template(settings.index_prefix, settings.alias, settings.number_of_shards,
                          settings.number_of_replicas)
    client.indices.put_index_template(name=settings.index_prefix, body=body)
    state.template = True
    index = f"{settings.index_prefix}-{now.strftime(PERIOD_FORMATS[settings.index_period])}"
    try:
        client.indices.create(index=index, body={"aliases": {settings.alias: {}}})
    except RequestError as exc:
        if exc.error != "resource_already_exists_exception":
            raise StoreSetupError(f"create index {index}: {exc.status_code} {exc.error}") from None
    state.index = index
    name, policy = policy_id(settings), ism_policy(settings)
    path = f"/_plugins/_ism/policies/{name}"
    try:
        current = client.transport.perform_request("GET", path)
    except TransportError as exc:
        if _no_ism(exc):
            state.policy = "unsupported"
            state.notes.append("no ISM API on this server: the job deletes expired indices itself")
            log.info("store_ready", index=index, ism=False, retention_months=settings.retention_months)
            return state
        if _status(exc) == 403:  # the job's user may not manage ISM: keep retention by deleting by name
            state.policy = "forbidden"
            state.notes.append("ISM API refused (403): the job deletes expired indices itself")
            log.warning("store_ism_forbidden", index=index, retention_months=settings.retention_months)
            return state
        if _status(exc) != 404:
            raise StoreSetupError(f"GET {path}: {_status(exc)} {exc.error}") from None
        current = None
    state.ism = True
    if current is None:
        client.transport.perform_request("PUT", path, body=policy)
        state.policy = "created"
    elif _policy_body(current) != _policy_body(policy):
        client.transport.perform_request("PUT", path, body=policy, params={
            "if_seq_no": current.get("_seq_no"), "if_primary_term": current.get("_primary_term")})
        state.policy = "updated"
    # ism_template attaches the policy to indices created from now on; existing ones need `add`.
    answer = client.transport.perform_request("POST", f"/_plugins/_ism/add/{settings.index_prefix}-*",
                                              body={"policy_id": name})
    state.attached = int((answer or {}).get("updated_indices", 0))
    log.info("store_ready", index=index, ism=True, policy=state.policy, attached=state.attached,
             retention_months=settings.retention_months)
    return state


def _policy_body(answer: dict) -> tuple:
    """What decides retention in a stored or a new policy (the server adds ids and timestamps)."""
    p = answer.get("policy", {})
    # The server fills in defaults (each action's `retry`, template timestamps): compare what we set.
    states = [(s.get("name"),
               tuple(sorted(k for a in s.get("actions", []) for k in a if k not in ("retry", "timeout"))),
               tuple((t.get("state_name"), repr(t.get("conditions"))) for t in s.get("transitions", [])))
              for s in p.get("states", [])]
    templates = [tuple(t.get("index_patterns", [])) for t in p.get("ism_template") or []]
    return p.get("default_state"), tuple(states), tuple(templates)


# -- the job's own sweep -------------------------------------------------------------

def sweep(client, settings: OpenSearchSettings, now: datetime | None = None,
          on_delete: Callable[[str], None] | None = None) -> list[str]:
    """Delete every `{prefix}-PERIOD` index whose period ended more than the retention ago."""
    from opensearchpy.exceptions import NotFoundError

    now = now or datetime.now(timezone.utc)
    try:
        names = sorted(client.indices.get(index=f"{settings.index_prefix}-*", params={"expand_wildcards": "open"}))
    except NotFoundError:
        return []
    deleted = []
    for index in names:
        if not expired(index, settings, now):
            continue
        try:
            client.indices.delete(index=index)
        except NotFoundError:
            continue  # another replica of the job was quicker
        deleted.append(index)
        log.info("retention_index_deleted", index=index, retention_months=settings.retention_months,
                 period_end=period_end(index, settings.index_prefix, settings.index_period).date().isoformat())
        if on_delete:
            on_delete(index)
    return deleted


class RetentionKeeper:
    """The job's store upkeep: init_store at start-up, then (without ISM) a sweep every interval.

    Runs on a daemon thread so an unreachable server never delays the job's start; a failed
    attempt is logged and tried again after `retry_s`."""

    def __init__(self, client, settings: OpenSearchSettings, on_delete: Callable[[str], None] | None = None,
                 retry_s: float = 60.0, clock: Callable[[], datetime] | None = None):
        self.client, self.settings, self.on_delete = client, settings, on_delete
        self.retry_s = retry_s
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.state: StoreState | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> float:
        """One round of upkeep; the seconds until the next."""
        try:
            if self.state is None:
                self.state = init_store(self.client, self.settings, self.clock())
            if not self.state.ism:
                sweep(self.client, self.settings, self.clock(), self.on_delete)
            return self.settings.retention_check_interval_s
        except Exception as exc:  # noqa: BLE001 - upkeep must never stop the job
            from opensearchpy.exceptions import ConnectionError as Unreachable

            # An unreachable store was said once, at start-up and by readiness; the retries stay at debug.
            (log.debug if isinstance(exc, Unreachable) else log.warning)(
                "store_upkeep_failed", error=type(exc).__name__, detail=str(exc)[:200])
            return self.retry_s

    def start(self) -> "RetentionKeeper":
        def loop() -> None:
            while not self._stop.is_set():
                self._stop.wait(self.tick())

        self._thread = threading.Thread(target=loop, name="groundwatch-retention", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
