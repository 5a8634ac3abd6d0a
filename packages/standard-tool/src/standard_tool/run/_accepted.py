"""A call checked once: an adapter whose framework validates a call's arguments before it runs
the tool checks them with the tool's own check (:func:`accepting`), and the call then runs the
rest of ``execute`` on the value that check returned (:func:`call_accepted`,
:func:`acall_accepted`), not the check a second time.

Only a tool whose ``execute`` splits so (the core's ``Tool``) is checked so:
:func:`accepting` and :func:`accepting_json` give ``None`` for any other, whose own
``execute`` decides what it takes, and the caller calls it as any tool. The call ends as
:func:`call`/:func:`acall` end it: the same time limit, the same typed errors, the result
held to JSON data.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from .._protocols import StandardTool
from ..exceptions import StandardToolError
from ..schema._json import MAX_INT, MIN_INT, SCALARS, is_json_data
from ._call import (
    Accepting,
    CoreTool,
    _check_output,
    _execute_fully,
    _expired,
    _failure,
    _limit,
    _passes_through,
    _redacted,
)
from ._waiting import Expired, Interrupted, start_thread, thread_within, wait, wait_for, within

__all__ = [
    "NOT_READ",
    "Accepted",
    "acall_accepted",
    "accepting",
    "accepting_json",
    "call_accepted",
    "calling_json",
    "raised",
]


class Accepted(NamedTuple):
    """An input a tool's own check accepted: what :func:`accepting` returns, and what
    :func:`call_accepted` and :func:`acall_accepted` run the rest of the tool's ``execute``
    on."""

    input: Any
    """The input as it came."""
    value: Any
    """What the tool's check made of it (a validated model's fields, or the input itself)."""
    split: Accepting
    """The tool's ``execute`` in two halves."""


_accepted = tuple.__new__


def _split(tool: Any) -> Accepting | None:
    if not isinstance(tool, CoreTool) or getattr(tool, "aexecute", None) is not None:
        return None
    return tool._accepting()


def accepting(tool: StandardTool) -> Callable[[Any], Accepted] | None:
    """The check of ``tool``'s input, done once: a function of an input that returns it
    :class:`Accepted`, or raises :class:`ToolValidationError` naming the tool and every
    failing field, as the tool's own ``execute`` would (input must be JSON data whatever the
    schema). ``None`` for a tool whose ``execute`` does not split (see the module)."""
    split = _split(tool)
    if split is None:
        return None
    check = split.check

    def accept(input: Any) -> Accepted:
        return _accepted(Accepted, (input, check(input), split))

    return accept


def accepting_json(
    tool: StandardTool, prepare: Callable[[Any], Any] | None = None
) -> Callable[[Any], Accepted | None] | None:
    """:func:`accepting` from the JSON text of the input: a function of the text that
    returns it read and :class:`Accepted`, or raises :class:`ToolValidationError` as
    :func:`accepting` does, or returns ``None`` when the text is not read here (not a
    ``str`` holding a JSON object, or refused by the reader): the caller then reads it its
    own way, says where it breaks, and checks it with :func:`accepting`. ``None`` for a tool
    whose ``execute`` does not split.

    The reader is pydantic-core's, several times faster than ``json.loads``, which reads
    every text both take to the same value (what one of them refuses is left to the
    caller's). A value it read from a text :func:`~._json.is_json_data` vouches for is JSON
    data as it is, and skips the JSON-data walk.

    ``prepare`` is what the value read goes through before it is checked (the providers'
    strict mode ``null`` for an absent property, removed); it may only remove parts of it."""
    from pydantic_core import from_json

    split = _split(tool)
    if split is None:
        return None
    check, check_read = split.check, split.check_read

    def accept_json(text: Any) -> Accepted | None:
        if type(text) is not str:
            return None
        try:
            value = from_json(text)
        except Exception:  # the caller reads it again, and says where it breaks
            return None
        if type(value) is not dict:
            return None
        if prepare is not None:
            value = prepare(value)
        if is_json_data(text):
            try:
                return _accepted(Accepted, (value, check_read(value), split))
            except Exception:  # refused: the full check says why
                pass
        return _accepted(Accepted, (value, check(value), split))

    return accept_json


class _NotRead:
    def __repr__(self) -> str:
        return "NOT_READ"


NOT_READ: Any = _NotRead()
"""What a function :func:`calling_json` made returns for a text it does not read."""


def calling_json(
    tool: StandardTool, prepare: Callable[[Any], Any] | None = None
) -> Callable[[Any, Any, float | None], Any] | None:
    """:func:`accepting_json` and :func:`call_accepted` in one: a function of the JSON text of
    the input, the context and the time limit that returns the call's result, or raises as
    they raise, or returns :data:`NOT_READ` where ``accepting_json``'s function returns
    ``None`` (the caller then reads the text its own way and calls the tool as any tool).
    ``None`` for a tool whose ``execute`` does not split.

    A sync tool with no time limit (neither its own nor the call's) is called in the same
    frame as its input is read and checked: a provider's call of a small tool spends more
    on the frames between than on the tool."""
    from pydantic_core import from_json

    accept_json = accepting_json(tool, prepare)
    if accept_json is None:
        return None

    def call_json_as_accepted(text: Any, context: Any, timeout: float | None) -> Any:
        accepted = accept_json(text)
        if accepted is None:
            return NOT_READ
        return call_accepted(tool, accepted, context, timeout=timeout)

    split = tool._accepting()  # type: ignore[attr-defined]
    if split.is_async or tool.timeout is not None:  # type: ignore[attr-defined]
        return call_json_as_accepted
    check, check_read, run = split.check, split.check_read, split.run

    def call_json(text: Any, context: Any, timeout: float | None) -> Any:
        if timeout is not None or type(text) is not str:
            return call_json_as_accepted(text, context, timeout)
        try:  # as accept_json reads and checks it
            value = from_json(text)
        except Exception:
            return NOT_READ
        if type(value) is not dict:
            return NOT_READ
        if prepare is not None:
            value = prepare(value)
        if is_json_data(text):
            try:
                value = check_read(value)
            except Exception:  # refused: the full check says why
                value = check(value)
        else:
            value = check(value)
        return _ran(tool, run, value, context)

    return call_json


def _ran(tool: StandardTool, run: Callable[..., Any], value: Any, context: Any) -> Any:
    """The rest of a sync tool's ``execute`` run on an accepted value, with no time limit,
    ended as :func:`call_accepted` ends it."""
    try:
        result = run(value, context)
        kind = type(result)
        if kind in SCALARS and (
            result.isascii() if kind is str else kind is not int or MIN_INT < result < MAX_INT
        ):
            return result
        if kind is not dict and kind is not list and inspect.isawaitable(result):
            result = wait(result, None)
    except Interrupted as stop:
        interrupt = stop.error
    except BaseException as exc:
        error = raised(tool, exc, context)
        if error is None:
            raise
        raise error from error.__cause__
    else:
        return _finished(tool, result, context)
    raise interrupt


def _finished(tool: StandardTool, result: Any, context: Any) -> Any:
    """The end of a call, once its result is in: the result held to JSON data."""
    try:
        kind = type(result)
        if kind not in SCALARS or not (
            result.isascii() if kind is str else kind is not int or MIN_INT < result < MAX_INT
        ):
            _check_output(tool, result)
        return result
    except BaseException as exc:
        error = raised(tool, exc, context)
        if error is None:
            raise
        raise error from error.__cause__


def call_accepted(
    tool: StandardTool, accepted: Accepted, context: Any = None, *, timeout: float | None = None
) -> Any:
    """:func:`~standard_tool.call` of ``tool`` with an input :func:`accepting` returned: the
    tool's check is not run again."""
    value, split = accepted.value, accepted.split
    run = split.run
    if timeout is None and tool.timeout is None:  # type: ignore[attr-defined]
        seconds = None  # a Tool's own timeout, checked when it was made, is exact
    else:
        seconds = _limit(tool, timeout)
    if seconds is None and not split.is_async:
        return _ran(tool, run, value, context)
    try:
        if split.is_async:
            result = wait(run(value, context), seconds)
        else:
            future = start_thread(_execute_fully, run, value, context)
            if not wait_for(future, seconds):
                raise Expired
            result = future.result()
    except Expired:
        return _expired(tool, timeout)
    except Interrupted as stop:
        interrupt = stop.error
    except BaseException as exc:
        error = raised(tool, exc, context)
        if error is None:
            raise
        raise error from error.__cause__
    else:
        return _finished(tool, result, context)
    raise interrupt


def acall_accepted(
    tool: StandardTool, accepted: Accepted, context: Any = None, *, timeout: float | None = None
) -> Awaitable[Any]:
    """:func:`~standard_tool.acall` of ``tool`` with an input :func:`accepting` returned:
    the tool's check is not run again; a sync tool runs in a worker thread. An awaitable:
    for an async tool with no time limit, the one coroutine that runs the rest of its
    ``execute`` (it ends as ``acall`` would, see ``checked_executor``)."""
    split = accepted.split
    if split.is_async and timeout is None and tool.timeout is None:  # type: ignore[attr-defined]
        run: Callable[[Any, Any], Awaitable[Any]] = split.run
        return run(accepted.value, context)
    return _acall_accepted(tool, split, accepted.value, context, timeout)


async def _acall_accepted(
    tool: StandardTool, split: Accepting, value: Any, context: Any, timeout: float | None
) -> Any:
    run = split.run
    seconds = _limit(tool, timeout)
    try:
        if split.is_async:
            coroutine = run(value, context)
            result = await (coroutine if seconds is None else within(coroutine, seconds))
        elif seconds is None:
            result = await _to_thread(run, value, context)
        else:
            result = await thread_within(seconds, _execute_fully, run, value, context)
    except Expired:
        return _expired(tool, timeout)
    except BaseException as exc:
        error = raised(tool, exc, context)
        if error is None:
            raise
        raise error from error.__cause__
    return _finished(tool, result, context)


def raised(tool: Any, exc: BaseException, context: Any) -> BaseException | None:
    """What a call of ``tool`` that ``exc`` ended raises (with its cause), as :func:`acall`
    makes it: the project's own error, with no value of ``context`` in its message;
    anything else as a :class:`ToolExecutionError`; ``None``: ``exc`` itself (cancellation,
    or an error that quotes nothing of ``context``)."""
    if isinstance(exc, StandardToolError):
        return _redacted(tool, exc, context)
    if _passes_through(exc):
        return None
    return _failure(tool, exc, context)


async def _to_thread(run: Callable[..., Any], value: Any, context: Any) -> Any:
    import asyncio

    result = await asyncio.to_thread(run, value, context)
    return await result if inspect.isawaitable(result) else result
