"""groundwatch: checks RAG answers claim by claim against their retrieved passages.

The command line lives in groundwatch.cli; the Python API (`from groundwatch import Checker`) in
groundwatch.api. Its names load on first use (PEP 562), so `import groundwatch.config` and the
CLI's start stay free of the model runtime.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from groundwatch.config.package_version import package_version

__version__ = package_version()  # pyproject.toml's version, from the package metadata

_LAZY = {
    "Checker": "groundwatch.api",
    "Result": "groundwatch.results",
    "Claim": "groundwatch.results",
    "Evidence": "groundwatch.results",
    "CheckOutcome": "groundwatch.results",
    "Action": "groundwatch.results",
    "Settings": "groundwatch.config.settings",
    "InvalidResponse": "groundwatch.scorers.errors",
    "ScoringError": "groundwatch.scorers.errors",
}

__all__ = ["__version__", *_LAZY]

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load in __getattr__
    from groundwatch.api import Checker
    from groundwatch.config.settings import Settings
    from groundwatch.results import Action, CheckOutcome, Claim, Evidence, Result
    from groundwatch.scorers.errors import InvalidResponse, ScoringError


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'groundwatch' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # the next lookup does not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
