"""Every check of a tool through installed targets, each a :class:`CheckResult`."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from .._protocols import NativeOutcome, Runtime, StandardTool
from ..exceptions import (
    InputGenerationError,
    PluginError,
    StandardToolError,
    StepTimeoutError,
    UnsupportedObjectError,
)
from ..plugins._registry import adopt, convert, runtime, targets
from ..run._call import call
from ..run._waiting import start_thread, wait_for
from ..schema._schema import jsonable
from ..schema.dialects._registry import convert_schema
from ..tools._json_schemas import input_json_schema, output_json_schema
from ._sample_inputs import invalid_inputs, sample_inputs

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
    "heading",
    "installed_targets",
    "legend",
    "one_line",
    "probe",
    "skipped",
    "tally",
]

T = TypeVar("T")
Status = Literal["pass", "fail", "skip"]
CONTEXT: Mapping[str, Any] = {"caller": "standard-tool checks"}
"""The per-call context of every call the checks make, direct or through a target (a
framework such as MCP always hands a tool some context, so none is never compared)."""
DIRECT = "standard"
"""The core's own target: the tool called directly."""
CHECKS = ("convert", "schema", "round trip", "call", "refuse")
"""What runs for each tool and target, in order."""
DESCRIPTIONS: Mapping[str, str] = {
    "convert": "the tool converts to the target",
    "schema": "a model is shown the tool's input schema, unchanged",
    "round trip": "adopted back, it has the same name, title, description, meta and schemas",
    "call": "an input generated from its schema gives the direct call's result (or error)",
    "refuse": "an input its schema refuses is refused as directly, the error naming the tool",
}
"""Each check of :data:`CHECKS` in a few words: when it passes."""
_WORDS: dict[Status, str] = {"fail": "FAIL", "pass": "pass", "skip": "skip"}
"""How a table of results writes each status, a failure first and in capitals."""
_FIELDS = ("name", "title", "description")
_TRACEBACK = "Traceback (most recent call last)"


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


@dataclass
class Probe:
    """The direct calls a tool's checks compare with: the inputs used and what they gave."""

    input: Any = None
    outcome: NativeOutcome | None = None
    """``None`` when no input could be generated."""
    reason: str = ""
    deterministic: bool = True
    tried: list[Any] = field(default_factory=list)
    invalid: Any = None
    """An input the tool's input schema refuses, derived from :attr:`input`."""
    invalid_outcome: NativeOutcome | None = None
    """What the direct call made of :attr:`invalid` (``None``: no such input was found)."""


def one_line(text: str) -> str:
    """``text`` on one line: its lines joined with ``; `` (an error that lists issues)."""
    out = ""
    for line in (line.strip().removeprefix("- ") for line in text.splitlines()):
        if line:
            out += ("" if not out else " " if out.endswith(":") else "; ") + line
    return out


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


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def heading(tools: int, targets: int) -> str:
    """The title of a tool x target table of results: what was checked."""
    return f"Checked {_plural(tools, 'tool')} x {_plural(targets, 'target')}: {', '.join(CHECKS)}"


def tally(results: Iterable[CheckResult], separator: str = ", ") -> str:
    """The cell of one tool and target in a table of results: how many checks failed,
    passed and were skipped, e.g. ``pass 3, skip 2`` (``-`` when none ran)."""
    counts = Counter(result.status for result in results)
    shown = [f"{word} {counts[status]}" for status, word in _WORDS.items() if counts[status]]
    return separator.join(shown) or "-"


def legend(targets: Iterable[str] = ()) -> list[str]:
    """The lines that explain a table of results whose columns are ``targets``: the checks a
    cell counts and what its words mean."""
    width = max(len(check) for check in CHECKS)
    lines = ["A cell counts the checks of one tool through one target:"]
    lines += [f"  {check.ljust(width)}  {DESCRIPTIONS[check]}" for check in CHECKS]
    if DIRECT in targets:
        lines.append(
            f"{DIRECT}: the tool called directly, the reference for the other targets "
            "(call and refuse only)"
        )
    lines += [
        f"{_WORDS['pass']} N: N checks passed",
        f"{_WORDS['skip']} N: N checks do not apply to that target, each listed with the reason "
        "(not a failure)",
        f"{_WORDS['fail']} N: N checks failed, each listed with the reason",
    ]
    return lines


def skipped(results: Iterable[CheckResult]) -> list[str]:
    """One line per reason checks were skipped, naming the checks and the targets."""
    where: dict[tuple[str, str], list[str]] = {}
    for result in results:
        if result.status == "skip":
            targets = where.setdefault((result.check, result.reason), [])
            if result.target not in targets:
                targets.append(result.target)
    grouped: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for (check, reason), names in where.items():
        grouped.setdefault((reason, tuple(names)), []).append(check)
    lines = []
    for (reason, skipped_for), checks in grouped.items():
        checks.sort(key=lambda check: CHECKS.index(check) if check in CHECKS else len(CHECKS))
        lines.append(f"skipped {', '.join(checks)} for {', '.join(skipped_for)}: {reason}")
    return lines


def _error_text(error: BaseException) -> str:
    text = one_line(str(error))
    return text if isinstance(error, StandardToolError) else f"{type(error).__name__}: {text}"


def _direct(tool: Any, value: Any, timeout: float | None) -> NativeOutcome:
    try:
        result = call(tool, value, dict(CONTEXT), timeout=timeout)
    except StandardToolError as error:
        return NativeOutcome(error=one_line(str(error)))
    return NativeOutcome(value=jsonable(result))


def probe(tool: Any, *, samples: int = 5, timeout: float | None = 30) -> Probe:
    """Call ``tool`` directly with inputs generated from its input schema until one is
    accepted (``samples`` at most), then with an input the schema refuses."""
    schema = input_json_schema(tool)
    try:
        inputs = sample_inputs(schema, samples)
    except InputGenerationError as error:
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
    for value in invalid_inputs(schema, found.input):
        found.invalid, found.invalid_outcome = value, _direct(tool, value, timeout)
        break
    return found


def check_tool(
    tool: StandardTool,
    targets: Sequence[str] | None = None,
    *,
    runtimes: Mapping[str, Runtime | None] | None = None,
    timeout: float | None = 30,
    samples: int = 5,
    probed: Probe | None = None,
    progress: Callable[[str], None] = lambda target: None,
) -> list[CheckResult]:
    """Every check of ``tool`` through each of ``targets`` (default: every installed one;
    :data:`DIRECT` is the direct call), in the order of :data:`CHECKS`.

    A target is reached through ``runtimes[target]`` when given, else through the runtime
    its adapter registers (:func:`standard_tool.registry.runtime`); a target with none
    (``None``) is converted, and the checks that need a runtime are skipped. A runtime with
    a true ``dialect`` attribute shows a model its own dialect of the schema: ``schema``
    is skipped there; one with a true ``prechecks`` attribute refuses some calls itself,
    before the tool runs, with an error that names no tool: ``refuse`` then asks only that
    the call is refused. ``probed`` reuses the direct calls of an earlier :func:`probe` of ``tool``.
    Each step is bounded by ``timeout`` seconds; ``progress(target)`` is called after
    each target.
    """
    found = probed if probed is not None else probe(tool, samples=samples, timeout=timeout)
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
    if found.outcome is None:
        out.append(CheckResult(name, DIRECT, "call", "skip", found.reason))
    elif found.outcome.error is not None:
        out.append(
            CheckResult(
                name,
                DIRECT,
                "call",
                "skip",
                f"the direct call failed for each of {len(found.tried)} generated inputs, so each "
                f"target is checked to fail on the first as it does: {_shown(found.input)} -> "
                f"{found.outcome.error}",
            )
        )
    else:
        out.append(CheckResult(name, DIRECT, "call", "pass", f"input {_shown(found.input)}"))
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
                f"it accepts an input its input schema refuses: {_shown(found.invalid)}",
            )
        )
    else:
        out.append(CheckResult(name, DIRECT, "refuse", "pass", f"input {_shown(found.invalid)}"))
    return out


def _shown(value: Any) -> str:
    return json.dumps(value)[:120]


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
    except Exception as error:
        yield result("convert", "fail", _error_text(error))
        for check in CHECKS[1:]:
            yield result(check, "skip", "not converted")
        return
    yield result("convert", "pass", f"{type(native).__module__}.{type(native).__qualname__}")
    yield _schema(registered, native, tool, result, timeout)
    yield _round_trip(registered, native, tool, result, timeout)
    yield _call(registered, native, found, result, timeout)
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
        shown = bounded(timeout, registered.input_schema, native)
    except Exception as error:
        return result("schema", "fail", _error_text(error))
    difference = first_difference(expected, shown)
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
    """What the target's runtime gives the model, or why that is a failure."""
    try:
        outcome = bounded(timeout, registered.call, native, value, dict(CONTEXT))
    except Exception as error:
        return _error_text(error)
    if outcome.error is not None and _TRACEBACK in outcome.error:
        return "a traceback reaches the model"
    return outcome


def _call(
    registered: Runtime | None, native: Any, found: Probe, result: ResultOf, timeout: float | None
) -> CheckResult:
    if registered is None:
        return result("call", "skip", "the adapter has no runtime to call through")
    if found.outcome is None:
        return result("call", "skip", found.reason)
    outcome = _run(registered, native, found.input, timeout)
    if isinstance(outcome, str):
        return result("call", "fail", outcome)
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
    outcome = _run(registered, native, found.invalid, timeout)
    if isinstance(outcome, str):
        return result("refuse", "fail", outcome)
    if (outcome.error is None) != (direct.error is None):
        verdict = "accepted" if outcome.error is None else "refused"
        return result(
            "refuse", "fail", f"it {verdict} {_shown(found.invalid)}, which the direct call did not"
        )
    shown = getattr(native, "name", None)  # the name the target gives the tool, if another
    names = [name, *([shown] if isinstance(shown, str) and shown else [])]
    if outcome.error is not None and not any(known in outcome.error for known in names):
        if getattr(registered, "prechecks", False):
            return result(
                "refuse", "pass", "refused by the framework's own check, which names no tool"
            )
        return result("refuse", "fail", "its error does not name the tool")
    return result("refuse", "pass")


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
