"""Running any conforming tool from sync or async code, inside or outside an event loop.

Whatever a tool does, a call ends, with its result or with a typed error:

- any exception, ``SystemExit`` and ``KeyboardInterrupt`` included, becomes a
  :class:`ToolExecutionError` (cancellation alone passes through), and the shared background
  loop survives it;
- a result that does not serialize to JSON data is a :class:`ToolValidationError` on the output;
- a time limit (the ``timeout`` argument, else the tool's ``timeout`` attribute) ends the wait
  with a :class:`ToolTimeoutError`. An async tool is cancelled; a sync tool's thread cannot be
  stopped, so it runs on and its result is dropped.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from types import FunctionType, MethodType
from typing import Any, ClassVar, NamedTuple

from .._probe import attribute, holds, is_instance
from .._protocols import StandardTool
from .._text import clip
from ..exceptions import (
    StandardToolError,
    ToolExecutionError,
    ToolTimeoutError,
    ToolValidationError,
    UsageError,
)
from ..schema._json import MAX_INT, MIN_INT, SCALARS, json_issues, plain
from ._redact import redact_error, secrets_of
from ._waiting import (
    Expired,
    Interrupted,
    background_loop,
    blocked_loop,
    run_sync,
    start_thread,
    thread_within,
    timeout_seconds,
    wait,
    wait_for,
    within,
)

__all__ = ["acall", "background_loop", "blocked_loop", "call", "run_sync"]


def _execute_fully(execute: Callable[..., Any], input: Any, context: Any) -> Any:
    result = execute(input, context)
    return wait(result, None) if inspect.isawaitable(result) else result


def _name(tool: Any) -> str:
    name = attribute(tool, "name")
    return name if is_instance(name, str) else type(tool).__name__


class CoreTool:
    """The base of the tools the core builds (``Tool``, ``WrapperTool``): what :func:`call`
    and :func:`acall` may ask of them beyond a conforming tool's fields."""

    __slots__ = ()

    _exact_timeout: ClassVar[bool] = False
    """Whether ``execute`` itself ends a call at the declared ``timeout`` (no margin added)."""

    _bounds_itself: ClassVar[bool] = False
    """Whether an async ``execute`` ends every call at the declared ``timeout`` itself, so that
    :func:`acall` without a ``timeout`` argument waits for it as it is (no task of its own)."""

    def _output_is_json(self) -> bool:
        """Whether ``execute`` has already held every result to JSON data."""
        return False

    def _expired(self, error: ToolTimeoutError) -> Any:
        """What a call past its time limit returns; by default ``error`` is raised."""
        raise error

    def _accepting(self) -> Accepting | None:
        """``execute`` in two halves, when it splits so (see ``_accepted``)."""
        return None


class Accepting(NamedTuple):
    """``execute`` in two halves: ``check`` returns the value the input is accepted as (or
    raises :class:`ToolValidationError`), and ``run(value, context)`` does the rest of
    ``execute`` with it (a coroutine function when ``is_async``). ``check_read`` is a quick
    ``check`` of a value known to be JSON data (read from JSON text): the schema alone; it
    raises anything on a refusal, and ``check`` then says why."""

    check: Callable[[Any], Any]
    check_read: Callable[[Any], Any]
    run: Callable[..., Any]
    is_async: bool


_MARGIN = 0.5
"""Seconds a call waits beyond the timeout a tool other than :class:`Tool` declares: such a
tool may enforce its limit itself, and then reports it first, in its own words."""

_INFINITY = float("inf")
_COROUTINE = inspect.CO_COROUTINE


def _declared(tool: Any) -> float | None:
    declared = getattr(tool, "timeout", None)
    if declared is None:
        return None
    if type(declared) is float and 0 < declared < _INFINITY:  # every call's path: no message made
        return declared
    return timeout_seconds(declared, f"tool {_name(tool)!r}: ")


def _limit(tool: Any, timeout: Any) -> float | None:
    """How long a call waits: ``timeout`` if given, else the tool's declared ``timeout``."""
    if timeout is not None:
        return timeout_seconds(timeout)
    declared = _declared(tool)
    if declared is None or (isinstance(tool, CoreTool) and tool._exact_timeout):
        return declared
    return declared + _MARGIN


def _timed_out(tool: Any, timeout: Any) -> ToolTimeoutError:
    limit = timeout_seconds(timeout) if timeout is not None else _declared(tool)
    return ToolTimeoutError(_name(tool), limit or 0.0)


def _expired(tool: Any, timeout: Any) -> Any:
    """A call past its time limit: :class:`ToolTimeoutError`, or, for a wrapper, what its
    ``handle`` makes of it (a :class:`FormattedTool` returns it as a value)."""
    error = _timed_out(tool, timeout)
    error.__suppress_context__ = True  # the wait's own exception is no part of it
    if not isinstance(tool, CoreTool):
        raise error
    result = tool._expired(error)
    _check_output(tool, result)
    return result


def _describe(exc: BaseException, context: Any, name: str) -> str:
    """``Type: message``, the message quoting no value of ``context`` (see ``_redact``); an
    exception whose ``str()`` fails is described by its type alone."""
    kind = type(exc).__name__
    try:
        text = str(exc)
    except BaseException:  # its __str__ is broken: say so, and carry on
        return f"{kind} (its message cannot be read)"
    if text and context is not None:
        text = secrets_of(context).redact(text, (name, kind))
    return f"{kind}: {text}" if text else kind


def _redacted(tool: Any, error: StandardToolError, context: Any) -> StandardToolError | None:
    """``error`` again with no value of ``context`` in its message, or ``None`` when it quotes
    none (then it is raised as it is)."""
    if context is None:
        return None
    redacted = redact_error(error, context, _name(tool))
    return None if redacted is error else redacted


def _failure(tool: Any, exc: BaseException, context: Any) -> ToolExecutionError:
    name = _name(tool)
    error = ToolExecutionError(name, _describe(exc, context, name))
    error.__cause__ = exc
    return error


def _passes_through(exc: BaseException) -> bool:
    """Cancellation is the caller's, never the tool's failure."""
    asyncio = sys.modules.get("asyncio")
    return isinstance(exc, GeneratorExit) or (
        asyncio is not None and isinstance(exc, asyncio.CancelledError)
    )


def _not_a_tool(obj: Any, caller: str) -> UsageError:
    if holds(inspect.isroutine, obj):
        name = attribute(obj, "__name__")
        name = clip(name) if is_instance(name, str) else "function"
        return UsageError(
            f"{caller}() takes a standard tool, not the function {name!r}: "
            f"make it one with st.tool({name})"
        )
    name = attribute(obj, "name")
    what = type(obj).__name__ + (f" {clip(name)!r}" if is_instance(name, str) else "")
    return UsageError(
        f"{caller}() takes a standard tool (name, description, execute), not a {what}: "
        "st.adopt(obj) turns a framework's tool into one"
    )


def _check_output(tool: Any, result: Any) -> None:
    """A result must serialize to JSON data (see :func:`standard_tool.jsonable`)."""
    kind = type(result)
    if kind in SCALARS and plain(result):
        return
    if isinstance(tool, CoreTool) and tool._output_is_json():
        return  # its execute held the result to JSON data already
    issues = json_issues(result, convert=True)
    if issues is not None:
        raise ToolValidationError(_name(tool), "output", issues)


def call(
    tool: StandardTool, input: Any, context: Any = None, *, timeout: float | None = None
) -> Any:
    """Run any conforming tool from sync code and return its result.

    An async tool runs on a background event loop, so this works inside a running loop too.
    Errors other than the project's own become :class:`ToolExecutionError` naming the tool;
    a result that is not JSON data is a :class:`ToolValidationError`. ``timeout`` (seconds,
    default: the tool's ``timeout`` attribute) ends the wait with :class:`ToolTimeoutError`;
    a declared timeout of a tool other than :class:`Tool`, which may enforce it itself, is
    given half a second more.
    """
    try:  # inline, not through attribute(): this is every call's path
        execute = tool.execute
    except BaseException:  # the object's own failure: it is not a tool
        execute = None
    if not callable(execute):
        raise _not_a_tool(tool, "call")
    if timeout is None:
        try:
            seconds = tool.timeout  # type: ignore[attr-defined]
        except AttributeError:  # a conforming tool need not declare one
            seconds = None
        if seconds is not None:
            seconds = _limit(tool, None)
    else:
        seconds = _limit(tool, timeout)
    try:
        if seconds is None:
            result = execute(input, context)
            kind = type(result)
            if kind in SCALARS and (
                result.isascii() if kind is str else kind is not int or MIN_INT < result < MAX_INT
            ):
                return result
            if kind is not dict and kind is not list and inspect.isawaitable(result):
                result = wait(result, None)
        elif inspect.iscoroutinefunction(execute):
            result = wait(execute(input, context), seconds)
        else:
            future = start_thread(_execute_fully, execute, input, context)
            if not wait_for(future, seconds):
                raise Expired
            result = future.result()
        _check_output(tool, result)
        return result
    except StandardToolError as error:
        redacted = _redacted(tool, error, context)
        if redacted is None:
            raise
        raise redacted from redacted.__cause__
    except Expired:
        return _expired(tool, timeout)
    except Interrupted as stop:
        interrupt = stop.error
    except BaseException as exc:
        if _passes_through(exc):
            raise
        raise _failure(tool, exc, context) from exc
    raise interrupt


async def acall(
    tool: StandardTool, input: Any, context: Any = None, *, timeout: float | None = None
) -> Any:
    """Run any conforming tool from async code; a sync tool runs in a worker thread.

    A tool with both a sync ``execute`` and an async ``aexecute`` runs ``aexecute`` here.
    Errors, results and ``timeout`` are as for :func:`call`.
    """
    import asyncio

    try:  # inline, not through attribute(): this is every call's path
        execute = tool.execute
    except BaseException:  # the object's own failure: it is not a tool
        execute = None
    if not callable(execute):
        raise _not_a_tool(tool, "acall")
    seconds = _limit(tool, timeout)  # checked even where the tool bounds itself
    if timeout is None and isinstance(tool, CoreTool) and tool._bounds_itself:
        seconds = None
    try:
        aexecute = getattr(tool, "aexecute", None)
        if aexecute is not None and (
            # a method defined with async def, seen without inspect's five calls
            (
                type(aexecute) is MethodType
                and type(function := aexecute.__func__) is FunctionType
                and function.__code__.co_flags & _COROUTINE
            )
            or inspect.iscoroutinefunction(aexecute)
        ):
            coroutine = aexecute(input, context)
        elif inspect.iscoroutinefunction(execute):
            coroutine = execute(input, context)
        else:
            coroutine = None
        if coroutine is not None:
            result = await (coroutine if seconds is None else within(coroutine, seconds))
        elif seconds is None:
            result = await asyncio.to_thread(execute, input, context)
            if inspect.isawaitable(result):
                result = await result
        else:
            result = await thread_within(seconds, _execute_fully, execute, input, context)
        _check_output(tool, result)
        return result
    except StandardToolError as error:
        redacted = _redacted(tool, error, context)
        if redacted is None:
            raise
        raise redacted from redacted.__cause__
    except Expired:
        return _expired(tool, timeout)
    except BaseException as exc:
        if isinstance(exc, (asyncio.CancelledError, GeneratorExit)):
            raise
        raise _failure(tool, exc, context) from exc
