"""The direct calls a tool's checks compare with: the inputs tried and what each gave."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._protocols import NativeOutcome
from ..exceptions import InputGenerationError, StandardToolError, ToolValidationError
from ..run._call import call
from ..schema._schema import jsonable
from ..tools._json_schemas import input_json_schema
from ._sample_inputs import invalid_inputs, sample_inputs

__all__ = ["CONTEXT", "Probe", "clipped", "direct_call", "not_run", "one_line", "probe", "shown"]

CONTEXT: Mapping[str, Any] = {"caller": "standard-tool checks"}
"""The per-call context of every call the checks make, direct or through a target (a
framework such as MCP always hands a tool some context, so none is never compared)."""
_SHOWN = 120
"""Characters of an input shown in a reason, at most."""
_ERROR = 300
"""Characters of an error quoted in a reason, at most."""


@dataclass
class Probe:
    """The direct calls a tool's checks compare with: the inputs used and what they gave.

    The input the checks use (:attr:`input`) is the first that ran, else the first whose
    result fails the tool's output schema, else the first tried.
    """

    input: Any = None
    outcome: NativeOutcome | None = None
    """What the direct call of :attr:`input` gave; ``None`` when no input could be generated."""
    reason: str = ""
    """Why no input could be generated, when none was."""
    deterministic: bool = True
    """Whether :attr:`input`, called again, gave the same result."""
    tried: list[Any] = field(default_factory=list)
    """Every input called, in order."""
    invalid: Any = None
    """An input the tool's input schema refuses, derived from :attr:`input`."""
    invalid_outcome: NativeOutcome | None = None
    """What the direct call made of :attr:`invalid` (``None``: no such input was found)."""
    given: bool = False
    """Whether the inputs tried were given (``probe(tool, inputs=...)``), none generated."""
    error_kind: str | None = None
    """What the direct call of :attr:`input` raised: ``"input"`` or ``"output"`` for a
    :class:`~standard_tool.exceptions.ToolValidationError` on that side, else the error's
    class name (``"ToolExecutionError"``...); ``None`` when it ran."""

    @property
    def ran(self) -> bool:
        """Whether an input ran directly: the checks have a result to compare with."""
        return self.outcome is not None and self.outcome.error is None


def one_line(text: str) -> str:
    """``text`` on one line: its lines joined with ``; `` (an error that lists issues)."""
    out = ""
    for line in (line.strip().removeprefix("- ") for line in text.splitlines()):
        if line:
            out += ("" if not out else " " if out.endswith(":") else "; ") + line
    return out


def clipped(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ``…`` marking the cut."""
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def shown(value: Any, limit: int = _SHOWN) -> str:
    """A JSON value as JSON on one line, shortened to ``limit`` characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):  # not JSON data: what it is, never its contents
        text = f"<{type(value).__name__}>"
    return clipped(text, limit)


def direct_call(
    tool: Any, value: Any, timeout: float | None, context: Any = CONTEXT
) -> tuple[NativeOutcome, str | None]:
    """The direct call of ``tool`` with ``value``, and the kind of error it raised."""
    try:
        given = dict(context) if isinstance(context, Mapping) else context
        result = call(tool, value, given, timeout=timeout)
    except ToolValidationError as error:
        return NativeOutcome(error=one_line(str(error))), error.target
    except StandardToolError as error:
        return NativeOutcome(error=one_line(str(error))), type(error).__name__
    return NativeOutcome(value=jsonable(result)), None


def probe(
    tool: Any,
    *,
    inputs: Iterable[Any] | None = None,
    samples: int = 5,
    timeout: float | None = 30,
) -> Probe:
    """Call ``tool`` directly with each of ``inputs`` (given: only those are tried), else with
    inputs made from its input schema (``samples`` at most: the values the schema gives, then
    hypothesis-jsonschema's draws), until one runs or its result fails the tool's output
    schema; then with an input the schema refuses, derived from the one kept."""
    schema = input_json_schema(tool)
    found = Probe(given=inputs is not None)
    if inputs is not None:
        values = list(inputs)
    else:
        try:
            values = sample_inputs(schema, samples)
        except InputGenerationError as error:
            found.reason = str(error)
            return found
    if not values:
        found.reason = "no input was given"
        return found
    for value in values:
        outcome, kind = direct_call(tool, value, timeout)
        found.tried.append(value)
        if found.outcome is None or outcome.error is None or kind == "output":
            found.input, found.outcome, found.error_kind = value, outcome, kind
        if outcome.error is None:
            found.deterministic = direct_call(tool, value, timeout)[0] == outcome
            break
        if kind == "output":  # the tool ran and broke its own output schema: a failure to show
            break
    for value in invalid_inputs(schema, found.input):
        found.invalid, found.invalid_outcome = value, direct_call(tool, value, timeout)[0]
        break
    return found


def not_run(name: str, found: Probe) -> str:
    """Why the ``call`` check of the tool ``name`` fails, directly and through every target,
    when no input ran (empty when one did): what was tried, and how to give an input."""
    if found.ran:
        return ""
    error = clipped(found.outcome.error or "", _ERROR) if found.outcome is not None else ""
    if found.error_kind == "output":
        return f"its result fails its output schema, for input {shown(found.input)}: {error}"
    how = (
        f"give one that runs: standard-tool check --input {name}=JSON, or "
        f"@pytest.mark.standard_tools(..., inputs={{{json.dumps(name)}: ...}})"
    )
    if found.outcome is None:
        return f"no input ran: {found.reason}; {how}"
    origin = "given" if found.given else "made from its schema"
    count = len(found.tried)
    each = "the one input" if count == 1 else f"each of the {count} inputs"
    return (
        f"no input ran: the direct call failed for {each} {origin}, the first "
        f"{shown(found.input)} with: {error}; {how}"
    )
