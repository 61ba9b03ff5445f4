"""Retention: the ISM policy body, periods read from index names, and the job's own sweep."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from groundwatch.config.settings import OpenSearchSettings
from groundwatch.export.retention import expired, init_store, ism_policy, min_index_age, period_end, sweep

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


def _settings(**kw) -> OpenSearchSettings:
    return OpenSearchSettings(index_prefix="gw", alias="gw-all", **kw)


def test_default_retention_is_thirteen_months():
    assert OpenSearchSettings().retention_months == 13


def test_ism_policy_deletes_monthly_indices_a_period_after_the_retention():
    policy = ism_policy(_settings())["policy"]
    states = {s["name"]: s for s in policy["states"]}
    assert policy["default_state"] == "hot"
    # 13 months of 31 days, plus the month the index collects documents in
    assert states["hot"]["transitions"] == [{"state_name": "delete", "conditions": {"min_index_age": "434d"}}]
    assert states["delete"]["actions"] == [{"delete": {}}]
    assert policy["ism_template"] == [{"index_patterns": ["gw-*"], "priority": 100}]


def test_ism_age_follows_the_period_and_the_setting():
    assert min_index_age(13, "month") == "434d"
    assert min_index_age(1, "day") == "32d"
    policy = ism_policy(_settings(index_period="day", retention_months=2))["policy"]
    assert policy["states"][0]["transitions"][0]["conditions"]["min_index_age"] == "63d"


@pytest.mark.parametrize(("name", "period", "end"), [
    ("gw-2025.10", "month", datetime(2025, 11, 1, tzinfo=timezone.utc)),
    ("gw-2025.12", "month", datetime(2026, 1, 1, tzinfo=timezone.utc)),
    ("gw-2025.10.31", "day", datetime(2025, 11, 1, tzinfo=timezone.utc)),
    ("gw-undated", "month", None),
    ("gw-other-2025.10", "month", None),
    ("gwx-2025.10", "month", None),
    ("gw-2025.10.31", "month", None),
])
def test_period_end_from_the_name(name, period, end):
    assert period_end(name, "gw", period) == end


def test_an_index_expires_retention_months_after_its_period_ends():
    s = _settings()
    assert expired("gw-2025.09", s, NOW)       # ended 2025-10-01; +13 months = 2026-11-01
    assert not expired("gw-2025.10", s, NOW)   # ended 2025-11-01; +13 months = 2026-12-01
    assert not expired("gw-undated", s, NOW)
    assert expired("gw-2025.10", _settings(retention_months=12), NOW)


class _Indices:
    def __init__(self, names, ism: bool):
        self.names, self.ism = set(names), ism
        self.templates, self.created, self.deleted = {}, [], []

    def get(self, index, **_):
        return {n: {} for n in self.names}

    def delete(self, index):
        self.names.discard(index)
        self.deleted.append(index)

    def put_index_template(self, name, body):
        self.templates[name] = body

    def create(self, index, body):
        self.created.append((index, body))
        self.names.add(index)


class _Transport:
    def __init__(self, ism: bool):
        self.ism, self.calls, self.policy = ism, [], None

    def perform_request(self, method, path, body=None, params=None):
        from opensearchpy.exceptions import NotFoundError, RequestError

        self.calls.append((method, path, body, params))
        if not self.ism:
            raise RequestError(400, f"no handler found for uri [{path}] and method [{method}]", {})
        if method == "GET":
            if self.policy is None:
                raise NotFoundError(404, "status_exception", {"error": {"reason": "Policy not found"}})
            stored = {"policy": {**self.policy["policy"], "policy_id": "gw", "states": [
                {**state, "actions": [{**a, "retry": {"count": 3}} for a in state["actions"]]}
                for state in self.policy["policy"]["states"]]}}  # as the server returns it
            return {**stored, "_id": "gw", "_seq_no": 3, "_primary_term": 1}
        if method == "PUT":
            self.policy = body
            return {}
        return {"updated_indices": 2}


class _Client:
    def __init__(self, names=(), ism=False):
        self.indices = _Indices(names, ism)
        self.transport = _Transport(ism)


def test_init_store_without_ism_leaves_the_sweep_to_the_job():
    client = _Client()
    state = init_store(client, _settings(), NOW)
    assert not state.ism and state.policy == "unsupported"
    assert client.indices.templates["gw"]["template"]["aliases"] == {"gw-all": {}}
    assert client.indices.created == [("gw-2026.11", {"aliases": {"gw-all": {}}})]


def test_init_store_with_ism_puts_the_policy_once_and_attaches_it():
    client = _Client(["gw-2025.01"], ism=True)
    first = init_store(client, _settings(), NOW)
    assert (first.ism, first.policy, first.attached) == (True, "created", 2)
    puts = [c for c in client.transport.calls if c[0] == "PUT"]
    assert puts == [("PUT", "/_plugins/_ism/policies/gw", ism_policy(_settings()), None)]
    assert ("POST", "/_plugins/_ism/add/gw-*", {"policy_id": "gw"}, None) in client.transport.calls

    again = init_store(client, _settings(), NOW)
    assert again.policy == "unchanged"
    changed = init_store(client, _settings(retention_months=24), NOW)
    assert changed.policy == "updated"
    assert client.transport.calls[-2][3] == {"if_seq_no": 3, "if_primary_term": 1}


def test_sweep_deletes_only_expired_periods_and_reports_each():
    client = _Client(["gw-2024.01", "gw-2025.09", "gw-2025.10", "gw-2026.11", "gw-undated"])
    seen = []
    assert sweep(client, _settings(), NOW, on_delete=seen.append) == ["gw-2024.01", "gw-2025.09"]
    assert seen == ["gw-2024.01", "gw-2025.09"]
    assert client.indices.names == {"gw-2025.10", "gw-2026.11", "gw-undated"}


def test_a_user_without_ism_rights_keeps_retention_by_the_sweep():
    from opensearchpy.exceptions import AuthorizationException

    client = _Client()

    def refuse(method, path, body=None, params=None):
        raise AuthorizationException(403, "security_exception", {})

    client.transport.perform_request = refuse
    state = init_store(client, _settings(), NOW)
    assert (state.ism, state.policy) == (False, "forbidden")
