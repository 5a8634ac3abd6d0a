"""Waiting for work that runs elsewhere: on the shared background loop, on a thread, in a task.

Every wait can have a time limit, and none lets a ``SystemExit`` or ``KeyboardInterrupt``
raised by the awaited work stop an event loop: the shared loop serves every caller, so it
survives them, and a loop blocked past a time limit is replaced for later calls.
"""

from __future__ import annotations

import contextvars
import inspect
import math
import os
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from ..exceptions import UsageError

if TYPE_CHECKING:
    import asyncio
    import concurrent.futures

__all__ = [
    "Expired",
    "Interrupted",
    "background_loop",
    "blocked_loop",
    "run_sync",
    "running_threads",
    "start_thread",
    "thread_within",
    "started_threads",
    "timeout_seconds",
    "wait",
    "wait_for",
    "within",
]

T = TypeVar("T")

_STUCK_AFTER = 0.25
"""Seconds the shared loop has, after a timeout, to show it is not blocked by the tool."""


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
                thread = threading.Thread(
                    target=_serve, args=(loop, ready), name="standard-tool-portal", daemon=True
                )
                thread.start()
                ready.wait()
                self._loop, self._thread, self._pid = loop, thread, os.getpid()
            return self._loop

    def is_current(self) -> bool:
        return self._thread is threading.current_thread()

    def check(self, loop: asyncio.AbstractEventLoop) -> None:
        """After a timeout: if ``loop`` does not answer at once, a tool is blocking it, and
        later calls get a new loop (the blocked one runs on in its own thread)."""
        answered = threading.Event()
        try:
            loop.call_soon_threadsafe(answered.set)
        except RuntimeError:  # closed
            return
        if not answered.wait(_STUCK_AFTER):
            with self._lock:
                if self._loop is loop:
                    self._loop = None


def _serve(loop: asyncio.AbstractEventLoop, ready: threading.Event | None) -> None:
    """Run ``loop`` until it is stopped. A callback raising ``SystemExit`` or
    ``KeyboardInterrupt`` leaves ``run_forever``; the loop is simply run again."""
    import asyncio

    asyncio.set_event_loop(loop)
    if ready is not None:
        loop.call_soon(ready.set)
    while True:
        try:
            loop.run_forever()
        except (SystemExit, KeyboardInterrupt):  # a callback's: the loop serves every caller
            continue
        return


def _serve_once(loop: asyncio.AbstractEventLoop) -> None:
    """Run ``loop`` for one coroutine (stopped when it is done), then close it."""
    import asyncio

    try:
        _serve(loop, None)
    finally:
        try:
            tasks = asyncio.all_tasks(loop)
            for task in tasks:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()


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


class _Escaped(Exception):
    """Carries ``SystemExit`` or ``KeyboardInterrupt`` out of a task without stopping its loop."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error


class Expired(Exception):
    """The time limit passed before the result came."""


class Interrupted(Exception):
    """The caller, not the tool, was interrupted while waiting (Ctrl-C): not a tool failure."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error


async def _contained(coroutine: Awaitable[T]) -> T:
    try:
        return await coroutine
    except (SystemExit, KeyboardInterrupt) as exc:  # a task re-raises these into its loop
        raise _Escaped(exc) from None


async def _blocking(coroutine: Awaitable[T], loop: asyncio.AbstractEventLoop | None) -> T:
    _blocked.set(loop)
    return await _contained(coroutine)


async def _await(awaitable: Awaitable[T]) -> T:
    return await awaitable


def _outcome(future: concurrent.futures.Future[T]) -> T:
    """The result of a finished future, with an escaped exception raised as itself."""
    try:
        return future.result()
    except _Escaped as escaped:
        error = escaped.error
    raise error


def run_sync(awaitable: Awaitable[T], timeout: float | None = None) -> T:
    """Wait for an awaitable from sync code, whether or not this thread runs an event loop.

    The awaitable runs on a shared background loop, so a running loop in this thread is not
    re-entered and objects bound to that background loop survive from call to call. What it
    raises is raised here, ``SystemExit`` and ``KeyboardInterrupt`` included, and the shared
    loop carries on. After ``timeout`` seconds the awaitable is cancelled and
    :class:`TimeoutError` is raised.
    """
    seconds = None if timeout is None else timeout_seconds(timeout, "run_sync(): ")
    try:
        return wait(awaitable, seconds)
    except Expired:
        raise TimeoutError(f"no result within {seconds:g} s") from None
    except Interrupted as stop:
        interrupt = stop.error
    raise interrupt


def wait(awaitable: Awaitable[T], seconds: float | None) -> T:
    import asyncio

    coroutine = awaitable if inspect.iscoroutine(awaitable) else _await(awaitable)
    try:
        caller = asyncio.get_running_loop()
    except RuntimeError:
        caller = None
    coroutine = _blocking(coroutine, caller)
    loop: asyncio.AbstractEventLoop | None = None
    future: concurrent.futures.Future[T]
    if _portal.is_current():  # called from a tool running on the portal itself
        future = _start_on_new_loop(coroutine)
    else:
        loop = _portal.loop()
        future = asyncio.run_coroutine_threadsafe(coroutine, loop)
    if not wait_for(future, seconds):
        future.cancel()
        if loop is not None:
            _portal.check(loop)
        raise Expired
    return _outcome(future)


def wait_for(future: concurrent.futures.Future[Any], seconds: float | None) -> bool:
    """Whether ``future`` is done within ``seconds`` (``None``: wait for it)."""
    import concurrent.futures

    try:
        done, _ = concurrent.futures.wait((future,), seconds)
    except BaseException as exc:  # raised in this thread while it waited: the caller's own
        future.cancel()
        raise Interrupted(exc) from None
    return bool(done)


def _start_on_new_loop(coroutine: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
    import asyncio

    loop = asyncio.new_event_loop()
    future = asyncio.run_coroutine_threadsafe(coroutine, loop)
    future.add_done_callback(lambda _: loop.call_soon_threadsafe(loop.stop))
    threading.Thread(
        target=_serve_once, args=(loop,), name="standard-tool-nested", daemon=True
    ).start()
    return future


class _Workers:
    """Daemon threads for calls with a time limit, kept a while after each job for the next.

    A thread that outlives its caller's time limit keeps running its job and is not reused
    until it finishes; a job never waits for another one: with no idle thread, a new one
    starts. Daemon threads never keep the process from exiting.
    """

    IDLE_SECONDS = 10.0

    def __init__(self) -> None:
        import queue

        self._lock = threading.Lock()
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._idle = 0
        self._pid = os.getpid()

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._pid != os.getpid():  # a forked child has none of the parent's threads
                self.__init__()  # type: ignore[misc]
            if self._idle:
                self._idle -= 1
                self._jobs.put(job)
                return
        threading.Thread(
            target=self._work, args=(job,), name="standard-tool-worker", daemon=True
        ).start()

    def _work(self, job: Callable[[], None]) -> None:
        import queue

        while True:
            job()
            del job
            with self._lock:
                self._idle += 1
            try:
                job = self._jobs.get(timeout=self.IDLE_SECONDS)
            except queue.Empty:
                with self._lock:  # a job given to this thread just now is still taken
                    try:
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        self._idle -= 1
                        return


_workers = _Workers()
_started: set[concurrent.futures.Future[Any]] = set()
_started_lock = threading.Lock()

started_threads: contextvars.ContextVar[list[concurrent.futures.Future[Any]] | None] = (
    contextvars.ContextVar("standard_tool_started_threads", default=None)
)
"""Where :func:`start_thread` also lists each call it starts, when a caller has set a list
here: a caller that stops waiting at a time limit can then learn when the call it left
behind ends (the execution boundary keeps such a call's request id running until then)."""


def _finished(future: concurrent.futures.Future[Any]) -> None:
    with _started_lock:
        _started.discard(future)


def running_threads() -> int:
    """How many calls started by :func:`start_thread` are still running: steps whose caller
    stopped waiting at a time limit, say. A program that must not wait for them at exit
    (a framework may run the tool on a thread that Python joins at exit) can end with
    ``os._exit`` when this is not 0."""
    with _started_lock:
        return sum(not future.done() for future in _started)


def start_thread(fn: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
    """Run ``fn(*args)`` on a daemon worker thread, in a copy of the caller's context."""
    import concurrent.futures

    future: concurrent.futures.Future[T] = concurrent.futures.Future()
    future.set_running_or_notify_cancel()
    with _started_lock:
        _started.add(future)
    future.add_done_callback(_finished)
    listed = started_threads.get()
    if listed is not None:
        listed.append(future)
    context = contextvars.copy_context()

    def run() -> None:
        try:
            value = context.run(fn, *args)
        except BaseException as exc:  # handed to the caller, whatever it is
            future.set_exception(exc)
        else:
            future.set_result(value)

    _workers.submit(run)
    return future


def timeout_seconds(value: Any, where: str = "") -> float:
    """``value`` if it is a positive number of seconds, else a :class:`UsageError`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise UsageError(f"{where}timeout must be a positive number of seconds, not {value!r}")
    return float(value)


async def within(coroutine: Coroutine[Any, Any, T], seconds: float) -> T:
    """Await ``coroutine`` for at most ``seconds``; then cancel it and stop waiting, even if
    it ignores the cancellation."""
    import asyncio

    loop = asyncio.get_running_loop()
    task = loop.create_task(_contained(coroutine))
    waiter: asyncio.Future[None] = loop.create_future()
    task.add_done_callback(lambda _: _settle(waiter))
    timer = loop.call_later(seconds, _settle, waiter)
    try:
        await waiter
    except BaseException:  # the caller was cancelled: so is the tool
        task.cancel()
        raise
    finally:
        timer.cancel()
    if not task.done():
        task.cancel()
        task.add_done_callback(_forget)
        raise Expired
    try:
        return task.result()
    except _Escaped as escaped:
        error = escaped.error
    raise error


def _forget(task: asyncio.Future[Any]) -> None:
    """Retrieve the outcome of a task nobody waits for any more (no "never retrieved" log)."""
    if not task.cancelled():
        task.exception()


async def thread_within(seconds: float, fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` on a daemon thread and wait for at most ``seconds``."""
    import asyncio

    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[None] = loop.create_future()

    def wake(_: Any) -> None:  # in the worker thread
        try:
            loop.call_soon_threadsafe(_settle, waiter)
        except RuntimeError:  # the caller's loop has closed: nobody is waiting
            pass

    future = start_thread(fn, *args)
    future.add_done_callback(wake)
    done, _ = await asyncio.wait((waiter,), timeout=seconds)
    if not done:
        waiter.cancel()
        raise Expired
    return future.result()


def _settle(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
