"""Running any conforming tool from sync or async code, inside or outside an event loop."""

from __future__ import annotations

import contextvars
import inspect
import os
import threading
from collections.abc import Awaitable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from ._protocols import StandardTool
from .exceptions import StandardToolError, ToolExecutionError

if TYPE_CHECKING:
    import asyncio

__all__ = ["acall", "background_loop", "blocked_loop", "call", "run_sync"]

T = TypeVar("T")


class _Portal:
    """One daemon thread running an event loop, where sync callers run coroutines."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._pid = 0

    def loop(self) -> asyncio.AbstractEventLoop:
        loop = self._loop
        if loop is not None and self._pid == os.getpid():
            return loop
        import asyncio

        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def run() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()

                thread = threading.Thread(target=run, name="standard-tool-portal", daemon=True)
                thread.start()
                ready.wait()
                self._loop, self._thread, self._pid = loop, thread, os.getpid()
            return self._loop

    def is_current(self) -> bool:
        return self._thread is threading.current_thread()


_portal = _Portal()
_blocked: contextvars.ContextVar[asyncio.AbstractEventLoop | None] = contextvars.ContextVar(
    "standard_tool_blocked_loop", default=None
)


def background_loop() -> asyncio.AbstractEventLoop:
    """The shared event loop (on a daemon thread) where sync callers run coroutines."""
    return _portal.loop()


def blocked_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that a sync :func:`run_sync` caller is blocking, seen from the coroutine
    it runs (``None`` elsewhere). Work that needs that loop would deadlock: refuse it."""
    return _blocked.get()


async def _blocking(coroutine: Coroutine[Any, Any, T], loop: asyncio.AbstractEventLoop | None) -> T:
    _blocked.set(loop)
    return await coroutine


def run_sync(awaitable: Awaitable[T]) -> T:
    """Wait for an awaitable from sync code, whether or not this thread runs an event loop.

    The awaitable runs on a shared background loop, so a running loop in this thread is not
    re-entered and objects bound to that background loop survive from call to call.
    """
    import asyncio

    coroutine = awaitable if inspect.iscoroutine(awaitable) else _await(awaitable)
    try:
        caller = asyncio.get_running_loop()
    except RuntimeError:
        caller = None
    coroutine = _blocking(coroutine, caller)
    if _portal.is_current():  # called from a tool running on the portal itself
        nested: T = _run_in_new_thread(coroutine)
        return nested
    future = asyncio.run_coroutine_threadsafe(coroutine, _portal.loop())
    result: T = future.result()
    return result


async def _await(awaitable: Awaitable[T]) -> T:
    return await awaitable


def _run_in_new_thread(coroutine: Coroutine[Any, Any, T]) -> T:
    import asyncio

    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # re-raised in the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="standard-tool-nested")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value


def _failure(tool: Any, exc: Exception) -> ToolExecutionError:
    name = getattr(tool, "name", type(tool).__name__)
    text = str(exc)
    message = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    error = ToolExecutionError(name, message)
    error.__cause__ = exc
    return error


def call(tool: StandardTool, input: Any, context: Any = None) -> Any:
    """Run any conforming tool from sync code and return its result.

    An async tool runs on a background event loop, so this works inside a running loop too.
    Errors other than the project's own become :class:`ToolExecutionError` naming the tool.
    """
    try:
        result = tool.execute(input, context)
        if inspect.isawaitable(result):
            result = run_sync(result)
    except StandardToolError:
        raise
    except Exception as exc:
        raise _failure(tool, exc) from exc
    return result


async def acall(tool: StandardTool, input: Any, context: Any = None) -> Any:
    """Run any conforming tool from async code; a sync tool runs in a worker thread.

    A tool with both a sync ``execute`` and an async ``aexecute`` runs ``aexecute`` here.
    """
    import asyncio

    execute = tool.execute
    try:
        aexecute = getattr(tool, "aexecute", None)
        if aexecute is not None and inspect.iscoroutinefunction(aexecute):
            return await aexecute(input, context)
        if inspect.iscoroutinefunction(execute):
            return await execute(input, context)
        result = await asyncio.to_thread(execute, input, context)
        if inspect.isawaitable(result):
            result = await result
        return result
    except StandardToolError:
        raise
    except Exception as exc:
        raise _failure(tool, exc) from exc
