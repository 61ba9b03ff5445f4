"""The package version, read from the installed package's metadata (pyproject.toml's `version`).

One source for `groundwatch --version`, `groundwatch.__version__`, the serve /docs page and the container
labels. Verdict records carry the scorer version instead (scorers/version.py), whose code part is raised
only when a verdict can change; the package version is never below it.
"""

from __future__ import annotations

from importlib.metadata import version

PACKAGE = "groundwatch"


def package_version() -> str:
    return version(PACKAGE)
