"""``check``: every tool through every installed target, each cell a list of check results."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import standard_tool as st
from standard_tool.adapters import NativeOutcome, Runtime
from standard_tool.registry import runtime

from ._bounded import StepTimeout, bounded
from ._errors import one_line
from ._inputs import GenerationError, sample_inputs

__all__ = ["CHECKS", "DIRECT", "Probe", "Result", "Status", "check_tool", "probe"]

Status = Literal["pass", "fail", "skip"]
DIRECT = "standard"
"""The core's own target: the tool called directly."""
CHECKS = ("convert", "schema", "round trip", "call")
"""What runs for each tool and target, in order."""
_FIELDS = ("name", "title", "description")


@dataclass(frozen=True)
class Result:
    """One check of one tool through one target."""

    tool: str
    target: str
    check: str
    status: Status
    reason: str = ""


@dataclass
class Probe:
    """The direct call a tool's checks compare with: the input used and what it gave."""

    input: Any = None
    outcome: NativeOutcome | None = None
    """``None`` when no input could be generated."""
    reason: str = ""
    deterministic: bool = True
    tried: list[Any] = field(default_factory=list)


def _error_text(error: BaseException) -> str:
    text = one_line(str(error))
    return text if isinstance(error, st.StandardToolError) else f"{type(error).__name__}: {text}"


def _direct(tool: Any, value: Any, timeout: float | None) -> NativeOutcome:
    try:
        result = st.call(tool, value, timeout=timeout)
    except st.StandardToolError as error:
        return NativeOutcome(error=one_line(str(error)))
    return NativeOutcome(value=st.jsonable(result))


def probe(tool: Any, *, samples: int = 5, timeout: float | None = 30) -> Probe:
    """Call ``tool`` directly with generated inputs until one is accepted (``samples`` at most)."""
    try:
        inputs = sample_inputs(st.input_json_schema(tool), samples)
    except GenerationError as error:
        return Probe(reason=str(error))
    found = Probe()
    for value in inputs:
        outcome = _direct(tool, value, timeout)
        found.tried.append(value)
        if found.outcome is None or (found.outcome.error is not None and outcome.error is None):
            found.input, found.outcome = value, outcome
        if outcome.error is None:
            again = _direct(tool, value, timeout)
            found.deterministic = again == outcome
            break
    return found


def check_tool(
    tool: Any,
    targets: Sequence[str],
    *,
    timeout: float | None = 30,
    samples: int = 5,
    progress: Callable[[str], None] = lambda target: None,
) -> list[Result]:
    """Every check of ``tool`` through each of ``targets`` (``standard``: the direct call);
    ``progress(target)`` is called when a target's checks are done."""
    found = probe(tool, samples=samples, timeout=timeout)
    results: list[Result] = []
    for target in targets:
        if target == DIRECT:
            results.append(_direct_result(tool.name, found))
        else:
            results += list(_through(tool, target, found, timeout))
        progress(target)
    return results


def _direct_result(name: str, found: Probe) -> Result:
    if found.outcome is None:
        return Result(name, DIRECT, "call", "skip", found.reason)
    if found.outcome.error is not None:
        return Result(
            name,
            DIRECT,
            "call",
            "skip",
            f"the tool refused each of {len(found.tried)} generated inputs, so each target is "
            f"checked to refuse the first as it does: {json.dumps(found.input)[:120]} -> "
            f"{found.outcome.error}",
        )
    return Result(name, DIRECT, "call", "pass", f"input {json.dumps(found.input)[:120]}")


def _through(tool: Any, target: str, found: Probe, timeout: float | None) -> Iterator[Result]:
    name = tool.name

    def result(check: str, status: Status, reason: str = "") -> Result:
        return Result(name, target, check, status, reason)

    try:
        registered = runtime(target)
        native = bounded(timeout, registered.native if registered else _converter(target), tool)
    except (Exception, StepTimeout) as error:
        yield result("convert", "fail", _error_text(error))
        for check in CHECKS[1:]:
            yield result(check, "skip", "not converted")
        return
    yield result("convert", "pass", f"{type(native).__module__}.{type(native).__qualname__}")
    yield _schema(registered, native, tool, result, timeout)
    yield _round_trip(registered, native, tool, result, timeout)
    yield _call(registered, native, found, result, timeout)


def _converter(target: str) -> Callable[[Any], Any]:
    return lambda tool: st.convert(tool, to=target)


ResultOf = Callable[..., Result]


def _schema(
    registered: Runtime | None, native: Any, tool: Any, result: ResultOf, timeout: float | None
) -> Result:
    if registered is None:
        return result("schema", "skip", "the adapter has no runtime to say what a model is shown")
    try:
        shown = bounded(timeout, registered.input_schema, native)
    except (Exception, StepTimeout) as error:
        return result("schema", "fail", _error_text(error))
    difference = first_difference(st.input_json_schema(tool), shown)
    if difference:
        return result("schema", "fail", f"a model is shown another input schema: {difference}")
    return result("schema", "pass")


def _round_trip(
    registered: Runtime | None, native: Any, tool: Any, result: ResultOf, timeout: float | None
) -> Result:
    def compare() -> str:
        if registered is not None:
            with registered.adopted(native) as back:
                return _definition_difference(tool, back)
        return _definition_difference(tool, st.adopt(native))

    try:
        difference = bounded(timeout, compare)
    except st.UnsupportedObjectError:
        return result("round trip", "skip", "an export-only target: nothing adopts it back")
    except (Exception, StepTimeout) as error:
        return result("round trip", "fail", _error_text(error))
    if difference:
        return result("round trip", "fail", f"adopted back, {difference}")
    return result("round trip", "pass")


def _definition_difference(tool: Any, back: Any) -> str:
    for name in _FIELDS:
        if getattr(back, name, None) != getattr(tool, name, None):
            return f"its {name} differs"
    if dict(getattr(back, "meta", None) or {}) != dict(getattr(tool, "meta", None) or {}):
        return "its meta differs"
    for side, schema_of in (("input", st.input_json_schema), ("output", st.output_json_schema)):
        difference = first_difference(schema_of(tool), schema_of(back))
        if difference:
            return f"its {side} schema differs: {difference}"
    return ""


def _call(
    registered: Runtime | None, native: Any, found: Probe, result: ResultOf, timeout: float | None
) -> Result:
    if registered is None:
        return result("call", "skip", "the adapter has no runtime to call through")
    if found.outcome is None:
        return result("call", "skip", found.reason)
    try:
        outcome = bounded(timeout, registered.call, native, found.input, None)
    except (Exception, StepTimeout) as error:
        return result("call", "fail", _error_text(error))
    direct = found.outcome
    if direct.error is None and outcome.error is not None:
        return result("call", "fail", f"it failed here, not directly: {one_line(outcome.error)}")
    if direct.error is not None:
        if outcome.error is None:
            return result("call", "fail", "it accepted an input the tool refuses directly")
        return result("call", "pass", "refused as directly")
    if outcome.value != direct.value:
        if not found.deterministic:
            return result("call", "pass", "ran; results vary from call to call, not compared")
        difference = first_difference(direct.value, outcome.value) or "another value"
        return result("call", "fail", f"its result differs from the direct call's: {difference}")
    return result("call", "pass")


def first_difference(want: Any, got: Any, path: str = "") -> str:
    """Where two JSON values first differ, in words (empty when they are equal)."""
    where = path or "the root"
    if isinstance(want, Mapping) and isinstance(got, Mapping):
        for key in [*want, *(k for k in got if k not in want)]:
            if key not in got:
                return f"{_join(path, key)} is missing"
            if key not in want:
                return f"{_join(path, key)} is added"
            found = first_difference(want[key], got[key], _join(path, key))
            if found:
                return found
        return ""
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return f"{where} has {len(got)} items, not {len(want)}"
        for index, (a, b) in enumerate(zip(want, got, strict=True)):
            found = first_difference(a, b, _join(path, index))
            if found:
                return found
        return ""
    if want != got or type(want) is not type(got):
        return f"{where} differs"
    return ""


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)
