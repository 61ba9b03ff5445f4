"""Which request metadata becomes metric labels, with bounded cardinality.

Verdict counters carry `scorer_version` (one per deployed scorer) and `app`; `tenant` and
`retriever` only when the settings list the values to keep (metrics.label_tenants /
metrics.label_retrievers). A value outside its allow-list counts as "other"; a missing one as
"none". Without an app allow-list the first `metrics.max_apps` distinct apps are kept and later
ones count as "other", so a misbehaving producer cannot create unbounded series.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

OTHER = "other"
NONE = "none"


@dataclass
class LabelPolicy:
    apps: tuple[str, ...] = ()           # allow-list; empty: first-seen, up to max_apps
    max_apps: int = 50
    tenants: tuple[str, ...] | None = None  # None: no tenant label
    retrievers: tuple[str, ...] | None = None  # None: no retriever label
    _seen_apps: set[str] = field(default_factory=set, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def from_settings(cls, section) -> "LabelPolicy":
        """From config.settings.MetricsSettings (None: the defaults)."""
        if section is None:
            return cls()
        return cls(tuple(section.label_apps), section.max_apps,
                   tuple(section.label_tenants) or None, tuple(section.label_retrievers) or None)

    def names(self) -> list[str]:
        """The metadata label names, in order, after `verdict` (and `severity` on claims)."""
        return (["scorer_version", "app"] + (["tenant"] if self.tenants else [])
                + (["retriever"] if self.retrievers else []))

    def values(self, scorer_version: str, metadata: dict | None) -> tuple[str, ...]:
        metadata = metadata or {}
        out = [scorer_version or NONE, self._app(metadata.get("app"))]
        if self.tenants:
            out.append(_allowed(metadata.get("tenant"), self.tenants))
        if self.retrievers:
            out.append(_allowed(metadata.get("retriever"), self.retrievers))
        return tuple(out)

    def _app(self, app) -> str:
        if not app:
            return NONE
        app = str(app)
        if self.apps:
            return app if app in self.apps else OTHER
        with self._lock:
            if app in self._seen_apps:
                return app
            if len(self._seen_apps) < self.max_apps:
                self._seen_apps.add(app)
                return app
        return OTHER


def _allowed(value, allowed: tuple[str, ...]) -> str:
    if not value:
        return NONE
    return str(value) if str(value) in allowed else OTHER
