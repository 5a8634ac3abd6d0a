"""Every check of a tool through installed targets, each a :class:`CheckResult`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

from .._protocols import NativeOutcome, Runtime, StandardTool
from ..exceptions import (
    PluginError,
    StandardToolError,
    StepTimeoutError,
    UnsupportedObjectError,
    UnsupportedToolError,
)
from ..plugins._registry import adopt, convert, runtime, targets
from ..run._waiting import start_thread, wait_for
from ..schema.dialects._registry import convert_schema
from ..tools._json_schemas import input_json_schema, output_json_schema
from ._direct import CONTEXT, Probe, clipped, direct_call, not_run, one_line, probe, shown

__all__ = [
    "CHECKS",
    "CONTEXT",
    "DESCRIPTIONS",
    "DIRECT",
    "CheckResult",
    "Probe",
    "Status",
    "bounded",
    "check_tool",
    "definition_difference",
    "expected_schema",
    "failures",
    "first_difference",
    "installed_targets",
    "one_line",
    "outcomes",
    "probe",
]

T = TypeVar("T")
Status = Literal["pass", "fail", "skip"]
DIRECT = "standard"
"""The core's own target: the tool called directly."""
CHECKS = ("convert", "schema", "round trip", "call", "refuse")
"""What runs for each tool and target, in order."""
DESCRIPTIONS: Mapping[str, str] = {
    "convert": "the tool converts to the target",
    "schema": "a model is shown the tool's input schema, unchanged",
    "round trip": "adopted back, it has the same name, title, description, meta and schemas",
    "call": "an input that runs directly (given, else made from its schema) gives the same result",
    "refuse": "an input its schema refuses is refused as directly, the error naming the tool",
}
"""Each check of :data:`CHECKS` in a few words: when it passes."""
_FIELDS = ("name", "title", "description")
_TRACEBACK = "Traceback (most recent call last)"
_VALUE = 60
"""Characters of each value shown where two results differ, at most."""
_ERROR = 300
"""Characters of an error quoted in a reason, at most."""


@dataclass(frozen=True)
class CheckResult:
    """One check of one tool through one target."""

    tool: str
    target: str
    check: str
    status: Status
    reason: str = ""

    def __str__(self) -> str:
        reason = f": {self.reason}" if self.reason else ""
        return f"{self.tool} -> {self.target}, {self.check}: {self.status}{reason}"


def bounded(seconds: float | None, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on a daemon worker thread: its result or what it raised;
    :class:`StepTimeoutError` after ``seconds`` (``None``: no limit), ``fn`` running on in
    its thread, which never keeps the process alive. A ``SystemExit`` or
    ``KeyboardInterrupt`` that ``fn`` raises is a :class:`PluginError`: it ends the step,
    not the process."""
    future = start_thread(fn, *args)
    if not wait_for(future, seconds):
        raise StepTimeoutError(f"no answer within {seconds:g} s")
    try:
        return future.result()
    except Exception:
        raise
    except BaseException as exc:  # SystemExit or KeyboardInterrupt raised by the step itself
        raise PluginError(f"the step raised {type(exc).__name__}") from exc


def installed_targets() -> list[str]:
    """Every installed target, the direct call (:data:`DIRECT`) first."""
    return [DIRECT, *(info.name for info in targets() if info.name != DIRECT)]


def failures(results: Iterable[CheckResult]) -> list[CheckResult]:
    """The failed ones among ``results``."""
    return [result for result in results if result.status == "fail"]


def _error_text(error: BaseException) -> str:
    text = one_line(str(error))
    return text if isinstance(error, StandardToolError) else f"{type(error).__name__}: {text}"


def outcomes(
    tool: StandardTool,
    arguments: Any,
    targets: Sequence[str] | None = None,
    *,
    context: Any = CONTEXT,
    timeout: float | None = 30,
) -> dict[str, NativeOutcome]:
    """What one call of ``tool`` with ``arguments`` gives directly (:data:`DIRECT`) and through
    each of ``targets`` that has a runtime (default: every installed one), as the model would
    be told: the verdicts a tool owes every target alike (accepted, or refused). A runtime
    that cannot run the tool raises :class:`~standard_tool.exceptions.UnsupportedToolError`."""
    found: dict[str, NativeOutcome] = {}
    for target in installed_targets() if targets is None else targets:
        if target == DIRECT:
            found[target] = direct_call(tool, arguments, timeout, context)[0]
            continue
        registered = runtime(target)
        if registered is not None:
            native = bounded(timeout, registered.native, tool)
            given = dict(context) if isinstance(context, Mapping) else context
            found[target] = bounded(timeout, registered.call, native, arguments, given)
    return found


def check_tool(
    tool: StandardTool,
    targets: Sequence[str] | None = None,
    *,
    runtimes: Mapping[str, Runtime | None] | None = None,
    timeout: float | None = 30,
    samples: int = 5,
    inputs: Iterable[Any] | None = None,
    probed: Probe | None = None,
    progress: Callable[[str], None] = lambda target: None,
) -> list[CheckResult]:
    """Every check of ``tool`` through each of ``targets`` (default: every installed one;
    :data:`DIRECT` is the direct call), in the order of :data:`CHECKS`.

    The direct calls come first (:func:`probe`): with each of ``inputs`` when given (only
    those), else with ``samples`` inputs made from the tool's input schema at most, until one
    runs. When none runs, or the result breaks the tool's output schema, ``call`` fails
    directly and through every target, with the same reason. ``probed`` reuses the direct
    calls of an earlier :func:`probe` of ``tool``.

    A target is reached through ``runtimes[target]`` when given, else through the runtime
    its adapter registers (:func:`standard_tool.registry.runtime`); a target with none
    (``None``) is converted, and the checks that need a runtime are skipped. A runtime with
    a true ``dialect`` attribute shows a model its own dialect of the schema: ``schema``
    is skipped there; one with a true ``prechecks`` attribute refuses some calls itself,
    before the tool runs, with an error that names no tool: ``refuse`` then asks only that
    the call is refused. A runtime's ``normalise(value)``, when it has one, is what its
    framework does to every result (its ``normalisation`` says what, in words): the direct
    result is compared after it. A direct result that is a string is compared with the text
    the model reads (:attr:`NativeOutcome.text`) when the framework hands it text. A result
    that differs is compared with a second direct call, made then: results that vary (a
    clock's) pass when it gives the same, and are not compared when it differs from the
    first direct call too. A runtime
    that raises :class:`~standard_tool.exceptions.UnsupportedToolError` cannot run the tool:
    the checks it stops are skipped with its message. Each step is bounded by ``timeout``
    seconds; ``progress(target)`` is called after each target.
    """
    found = (
        probed
        if probed is not None
        else probe(tool, inputs=inputs, samples=samples, timeout=timeout)
    )
    results: list[CheckResult] = []
    for target in installed_targets() if targets is None else targets:
        if target == DIRECT:
            results += _direct_results(tool.name, found)
        else:
            results += _through(tool, target, found, timeout, runtimes or {})
        progress(target)
    return results


def _direct_results(name: str, found: Probe) -> list[CheckResult]:
    out = []
    if found.ran:
        given = ", given" if found.given else ""
        out.append(CheckResult(name, DIRECT, "call", "pass", f"input {shown(found.input)}{given}"))
    else:
        out.append(CheckResult(name, DIRECT, "call", "fail", not_run(name, found)))
    invalid = found.invalid_outcome
    if invalid is None:
        out.append(CheckResult(name, DIRECT, "refuse", "skip", "no input the schema refuses"))
    elif invalid.error is None:
        out.append(
            CheckResult(
                name,
                DIRECT,
                "refuse",
                "fail",
                f"it accepts an input its input schema refuses: {shown(found.invalid)}",
            )
        )
    else:
        out.append(CheckResult(name, DIRECT, "refuse", "pass", f"input {shown(found.invalid)}"))
    return out


def _through(
    tool: Any,
    target: str,
    found: Probe,
    timeout: float | None,
    runtimes: Mapping[str, Runtime | None],
) -> Iterator[CheckResult]:
    name = tool.name

    def result(check: str, status: Status, reason: str = "") -> CheckResult:
        return CheckResult(name, target, check, status, reason)

    try:
        registered = runtimes[target] if target in runtimes else runtime(target)
        make = registered.native if registered is not None else _converter(target)
        native = bounded(timeout, make, tool)
    except UnsupportedToolError as error:  # the framework cannot run this tool at all
        for check in CHECKS:
            yield result(check, "skip", _error_text(error))
        return
    except Exception as error:
        yield result("convert", "fail", _error_text(error))
        for check in CHECKS[1:]:
            yield result(check, "skip", "not converted")
        return
    yield result("convert", "pass", f"{type(native).__module__}.{type(native).__qualname__}")
    yield _schema(registered, native, tool, result, timeout)
    yield _round_trip(registered, native, tool, result, timeout)
    yield _call(registered, native, found, result, timeout, tool)
    yield _refuse(registered, native, found, result, timeout, name)


def _converter(target: str) -> Callable[[Any], Any]:
    return lambda tool: convert(tool, to=target)


ResultOf = Callable[..., CheckResult]


def _schema(
    registered: Runtime | None, native: Any, tool: Any, result: ResultOf, timeout: float | None
) -> CheckResult:
    if registered is None:
        return result("schema", "skip", "the adapter has no runtime to say what a model is shown")
    try:
        expected = bounded(timeout, expected_schema, registered, native, tool)
    except Exception as error:
        return result("schema", "fail", _error_text(error))
    if expected is None:
        return result("schema", "skip", "a model is shown the target's own dialect of the schema")
    try:
        shown_schema = bounded(timeout, registered.input_schema, native)
    except Exception as error:
        return result("schema", "fail", _error_text(error))
    difference = first_difference(expected, shown_schema)
    if difference:
        return result("schema", "fail", f"a model is shown another input schema: {difference}")
    return result("schema", "pass")


def expected_schema(registered: Runtime, native: Any, tool: Any) -> dict[str, Any] | None:
    """The input schema a model must be shown for ``native``, made from ``tool``: the tool's
    own, or its rendering in the dialect the runtime's ``dialect`` names for ``native`` when
    ``dialect`` is a function (it returns a dialect's name, or ``None`` for the schema itself);
    ``None`` when ``dialect`` is true and names none (not compared)."""
    dialect = getattr(registered, "dialect", False)
    if callable(dialect):
        name = dialect(native)
        if name is not None:
            rendered = convert_schema(input_json_schema(tool), name)
            return rendered if isinstance(rendered, dict) else {}
    elif dialect:
        return None
    return input_json_schema(tool)


def _round_trip(
    registered: Runtime | None, native: Any, tool: Any, result: ResultOf, timeout: float | None
) -> CheckResult:
    def compare() -> str:
        adopted = registered.adopted(native) if registered else nullcontext(adopt(native))
        with adopted as back:
            return definition_difference(tool, back)

    try:
        difference = bounded(timeout, compare)
    except UnsupportedObjectError:
        return result("round trip", "skip", "an export-only target: nothing adopts it back")
    except Exception as error:
        return result("round trip", "fail", _error_text(error))
    if difference:
        return result("round trip", "fail", f"adopted back, {difference}")
    return result("round trip", "pass")


def definition_difference(tool: Any, back: Any) -> str:
    """How ``back`` differs from ``tool`` in name, title, description, meta or either schema
    (empty when it does not)."""
    for name in _FIELDS:
        if getattr(back, name, None) != getattr(tool, name, None):
            return f"its {name} differs"
    if dict(getattr(back, "meta", None) or {}) != dict(getattr(tool, "meta", None) or {}):
        return "its meta differs"
    for side, schema_of in (("input", input_json_schema), ("output", output_json_schema)):
        difference = first_difference(schema_of(tool), schema_of(back))
        if difference:
            return f"its {side} schema differs: {difference}"
    return ""


def _run(
    registered: Runtime, native: Any, value: Any, timeout: float | None
) -> NativeOutcome | str:
    """What the target's runtime gives the model, or why that is a failure; a runtime that
    cannot run the tool raises :class:`UnsupportedToolError` on."""
    try:
        outcome = bounded(timeout, registered.call, native, value, dict(CONTEXT))
    except UnsupportedToolError:
        raise
    except Exception as error:
        return _error_text(error)
    if outcome.error is not None and _TRACEBACK in outcome.error:
        return "a traceback reaches the model"
    return outcome


def _call(
    registered: Runtime | None,
    native: Any,
    found: Probe,
    result: ResultOf,
    timeout: float | None,
    tool: Any,
) -> CheckResult:
    if registered is None:
        return result("call", "skip", "the adapter has no runtime to call through")
    if found.outcome is None:  # no input to call with
        return result("call", "fail", not_run(tool.name, found))
    try:
        outcome = _run(registered, native, found.input, timeout)
    except UnsupportedToolError as error:
        return result("call", "skip", _error_text(error))
    if isinstance(outcome, str):
        return result("call", "fail", outcome)
    direct = found.outcome
    if direct.error is None and outcome.error is not None:
        here = clipped(one_line(outcome.error), _ERROR)
        return result("call", "fail", f"it failed here, not directly: {here}")
    if direct.error is not None:
        if outcome.error is None:
            there = clipped(direct.error, _ERROR)
            return result("call", "fail", f"it ran here, and failed directly: {there}")
        return result("call", "fail", not_run(tool.name, found))  # failed alike: nothing compared
    return _compared(
        registered, outcome, found, result, lambda: direct_call(tool, found.input, timeout)[0]
    )


def _compared(
    registered: Runtime,
    outcome: NativeOutcome,
    found: Probe,
    result: ResultOf,
    again: Callable[[], NativeOutcome],
) -> CheckResult:
    """The ``call`` check of a target whose runtime gave ``outcome`` for the input that ran
    directly: the direct result, after the runtime's ``normalise``, as the text the model
    reads when the direct result is a string and the framework hands it text. A result that
    differs is compared with a second direct call (``again``), made then: the same passes
    (results vary, as a clock's do); when the second differs from the first too, results
    vary from call to call and are not compared."""
    normalise = getattr(registered, "normalise", None)

    def seen(value: Any) -> Any:
        return normalise(value) if callable(normalise) else value

    def read(value: Any) -> Any:
        return (
            outcome.text if isinstance(value, str) and outcome.text is not None else outcome.value
        )

    direct = cast("NativeOutcome", found.outcome)
    try:
        want = seen(direct.value)
        if read(direct.value) == want:
            return result("call", "pass")
        fresh = again()
        if fresh.error is None and read(fresh.value) == seen(fresh.value):
            return result("call", "pass", "the same as a second direct call: results vary")
    except Exception as error:
        return result("call", "fail", f"its normalise failed: {_error_text(error)}")
    if found.deterministic and fresh == direct:
        difference = _contrast(want, read(direct.value))
        return result("call", "fail", f"its result differs from the direct call's: {difference}")
    found.deterministic = False
    return result("call", "pass", "ran; results vary from call to call, not compared")


def _refuse(
    registered: Runtime | None,
    native: Any,
    found: Probe,
    result: ResultOf,
    timeout: float | None,
    name: str,
) -> CheckResult:
    if registered is None:
        return result("refuse", "skip", "the adapter has no runtime to call through")
    direct = found.invalid_outcome
    if direct is None:
        return result("refuse", "skip", "no input the schema refuses")
    try:
        outcome = _run(registered, native, found.invalid, timeout)
    except UnsupportedToolError as error:
        return result("refuse", "skip", _error_text(error))
    if isinstance(outcome, str):
        return result("refuse", "fail", outcome)
    if (outcome.error is None) != (direct.error is None):
        verdict = "accepted" if outcome.error is None else "refused"
        return result(
            "refuse", "fail", f"it {verdict} {shown(found.invalid)}, which the direct call did not"
        )
    given = getattr(native, "name", None)  # the name the target gives the tool, if another
    names = [name, *([given] if isinstance(given, str) and given else [])]
    if outcome.error is not None and not any(known in outcome.error for known in names):
        if getattr(registered, "prechecks", False):
            return result(
                "refuse", "pass", "refused by the framework's own check, which names no tool"
            )
        return result("refuse", "fail", "its error does not name the tool")
    return result("refuse", "pass")


_ABSENT = object()
"""Where one of two values has no member at a path."""


def _first(want: Any, got: Any, path: tuple[Any, ...] = ()) -> tuple[tuple[Any, ...], Any, Any]:
    """The path where two JSON values first differ, and what each holds there (``_ABSENT``
    for a missing member); an empty path and ``_ABSENT`` twice when they are equal."""
    if isinstance(want, Mapping) and isinstance(got, Mapping):
        for key in [*want, *(k for k in got if k not in want)]:
            here = (*path, key)
            if key not in got or key not in want:
                return here, want.get(key, _ABSENT), got.get(key, _ABSENT)
            found = _first(want[key], got[key], here)
            if found[1] is not _ABSENT or found[2] is not _ABSENT:
                return found
        return (), _ABSENT, _ABSENT
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return path, want, got
        for index, (a, b) in enumerate(zip(want, got, strict=True)):
            found = _first(a, b, (*path, index))
            if found[1] is not _ABSENT or found[2] is not _ABSENT:
                return found
        return (), _ABSENT, _ABSENT
    if want != got or type(want) is not type(got):
        return path, want, got
    return (), _ABSENT, _ABSENT


def first_difference(want: Any, got: Any, path: str = "") -> str:
    """Where two JSON values first differ, in words (empty when they are equal)."""
    where, a, b = _first(want, got)
    if a is _ABSENT and b is _ABSENT:
        return ""
    place = ".".join(str(part) for part in (*([path] if path else []), *where)) or "the root"
    if b is _ABSENT:
        return f"{place} is missing"
    if a is _ABSENT:
        return f"{place} is added"
    if isinstance(a, list) and isinstance(b, list):
        return f"{place} has {len(b)} items, not {len(a)}"
    return f"{place} differs"


def _contrast(want: Any, got: Any) -> str:
    """Where two JSON values first differ and what each holds there, shortened, on one line
    (e.g. ``directly "42\\n", here 42``); empty when they are equal."""
    where, a, b = _first(want, got)
    if a is _ABSENT and b is _ABSENT:
        return ""
    place = ".".join(str(part) for part in where)
    if b is _ABSENT:
        return f"{place} is missing (directly {shown(a, _VALUE)})"
    if a is _ABSENT:
        return f"{place} is added (here {shown(b, _VALUE)})"
    both = f"directly {shown(a, _VALUE)}, here {shown(b, _VALUE)}"
    return f"{place}: {both}" if place else both
