"""Settings problems as one line each: a settings file that is missing, not JSON or holds an unknown key,
a value of the wrong type, and GROUNDWATCH_* variables that name no setting.

Messages name the file, key or variable and never the value: pydantic's own messages quote the input,
and the input may be a password.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any, Mapping, get_args, get_origin

from pydantic import BaseModel, ValidationError

PREFIX = "GROUNDWATCH_"
# GROUNDWATCH_* names that are not settings but are read by the tools around them.
OTHER_VARIABLES = {"GROUNDWATCH_DATA_DIR", "GROUNDWATCH_ORT"}
# What Kubernetes injects for a Service named groundwatch(-...): GROUNDWATCH_SERVICE_HOST, GROUNDWATCH_PORT,
# GROUNDWATCH_PORT_8080_TCP_ADDR, ... (service links). They are expected, never a misspelt setting.
SERVICE_LINK = re.compile(r"^GROUNDWATCH(_[A-Z0-9_]+?)?_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|"
                          r"PORT_\d+_(TCP|UDP|SCTP)(_PROTO|_PORT|_ADDR)?)$")
# The bare GROUNDWATCH[_NAME]_PORT link holds tcp://host:port; with any other value it may be a misspelt
# GROUNDWATCH_SERVE__PORT and is warned about.
PORT_LINK = re.compile(r"^GROUNDWATCH(_[A-Z0-9_]+?)?_PORT$")
LINK_VALUE = re.compile(r"^(tcp|udp|sctp)://")


# Top-level keys a settings file may carry besides settings: the provenance `groundwatch eval --calibrate`
# writes beside the thresholds (scorers/calibration.json, the chart's calibration ConfigMap).
NOT_SETTINGS = {"calibration"}


class SettingsError(ValueError):
    """A settings problem a user can fix; str() is one line naming the file, key or variable."""


def read_config_file(path: str | Path) -> dict:
    """The JSON object in a --config file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SettingsError(f"--config {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"--config {path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettingsError(f"--config {path}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict):
        raise SettingsError(f"--config {path}: expected a JSON object of settings, found {type(data).__name__}")
    return data


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The settings section class behind a field's type (`KafkaSettings`, `list[PolicyRule]` -> PolicyRule)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation) if get_origin(annotation) is not None else ():
        found = _model_of(arg)
        if found is not None:
            return found
    return None


def _suggest(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def check_keys(data: Any, model: type[BaseModel], source: str, where: str = "") -> None:
    """Refuse a key the settings do not have: a misspelt key would otherwise be ignored silently."""
    if not isinstance(data, dict):
        return  # a wrong type is the validator's to report
    fields = model.model_fields
    for key, value in data.items():
        path = f"{where}{key}"
        if not where and key in NOT_SETTINGS:
            continue
        if key not in fields:
            raise SettingsError(f"{source}: unknown setting {path!r}{_suggest(key, list(fields))}")
        inner = _model_of(fields[key].annotation)
        if inner is None:
            continue
        for i, item in enumerate(value if isinstance(value, list) else [value]):
            check_keys(item, inner, source, f"{path}[{i}]." if isinstance(value, list) else f"{path}.")


def _env_known(parts: list[str], model: type[BaseModel]) -> tuple[bool, str]:
    """Whether GROUNDWATCH_A__B__C names a field; else the spelling that is closest."""
    fields = {name.upper(): info for name, info in model.model_fields.items()}
    head, rest = parts[0], parts[1:]
    if head not in fields:
        close = difflib.get_close_matches(head, list(fields), n=1, cutoff=0.6)
        return False, close[0] if close else ""
    if not rest:
        return True, ""
    inner = _model_of(fields[head].annotation)
    if inner is None:
        return False, ""
    known, close = _env_known(rest, inner)
    return known, f"{head}__{close}" if close else ""


def unknown_variables(environ: Mapping[str, str], model: type[BaseModel]) -> list[tuple[str, str]]:
    """(variable, suggestion) for each GROUNDWATCH_* variable that names no setting; the caller warns
    (a variable set for another purpose must not stop the job). Service links are left out."""
    out = []
    for name in sorted(environ):
        upper = name.upper()
        if not upper.startswith(PREFIX) or upper in OTHER_VARIABLES or SERVICE_LINK.match(upper):
            continue
        if PORT_LINK.match(upper) and LINK_VALUE.match(environ[name]):
            continue
        rest = upper[len(PREFIX):]
        known, close = _env_known(rest.split("__"), model)
        if not known:
            suggestion = _single_underscore(rest, model) or close
            out.append((name, PREFIX + suggestion if suggestion else ""))
    return out


def _single_underscore(rest: str, model: type[BaseModel]) -> str:
    """KAFKA_BOOTSTRAP_SERVERS -> KAFKA__BOOTSTRAP_SERVERS: a section and its field joined by one underscore."""
    parts = rest.split("_")
    for i in range(1, len(parts)):
        candidate = ["_".join(parts[:i]), "_".join(parts[i:])]
        if _env_known(candidate, model)[0]:
            return "__".join(candidate)
    return ""


def describe(exc: ValidationError, source: str | None, environ: Mapping[str, str]) -> str:
    """One line for a ValidationError: each bad field with the variable or file it came from, no values."""
    problems = []
    for error in exc.errors(include_url=False, include_input=False, include_context=False):
        loc = [str(part) for part in error["loc"]]
        message = error["msg"].removeprefix("Value error, ")
        # The variable that set this field or a section holding it (GROUNDWATCH_POLICY__RULES for policy.rules.0).
        variable = next((v for v in (PREFIX + "__".join(loc[:n]).upper() for n in range(len(loc), 0, -1))
                         if v in environ), None)
        if variable:
            problems.append(f"{variable}{'' if variable.endswith('__'.join(loc).upper()) else ' ' + '.'.join(loc)}: "
                            f"{message}")
        else:
            # A section's own rule names its fields ("serve.publish needs serve.auth_token"): no second prefix.
            where = "" if not loc or message.startswith(loc[0] + ".") else ".".join(loc) + ": "
            problems.append(f"{source + ': ' if source else ''}{where}{message}")
    return "; ".join(problems)
