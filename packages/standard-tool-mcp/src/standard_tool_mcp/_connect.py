"""``connect``: one client session to a server, usable with ``async with`` and plain ``with``.

The session runs in a task of its own (on the caller's loop with ``async with``, on the
shared background loop with ``with``), so a transport that fails takes down that task and
never the caller's: calls then fail with a :class:`ToolExecutionError`, and leaving the block
does not raise.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import math
import shlex
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib.metadata import version
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

from standard_tool import background_loop
from standard_tool.exceptions import PinMismatchError, ServerError, UsageError

from . import _compat
from ._client import (
    CLOSED,
    DEFAULT_TIMEOUT,
    GONE,
    MCPTool,
    PinSource,
    ProgressCallback,
    SessionState,
    as_pin,
    load_mcp_tools as load_mcp_tools,
)
from ._stdio import ServerProcess, stdio_transport

__all__ = [
    "Connection",
    "ElicitationCallback",
    "LoggingCallback",
    "SamplingCallback",
    "connect",
]

_logger = logging.getLogger("standard_tool_mcp")

ElicitationCallback = Callable[[Any, Any], Awaitable[Any]]
"""``async (context, params: mcp.types.ElicitRequestParams) -> mcp.types.ElicitResult |
mcp.types.ErrorData``: the SDK's ``ElicitationFnT``."""
SamplingCallback = Callable[[Any, Any], Awaitable[Any]]
"""``async (context, params: mcp.types.CreateMessageRequestParams) ->
mcp.types.CreateMessageResult | mcp.types.ErrorData``: the SDK's ``SamplingFnT``."""
LoggingCallback = Callable[[Any], Awaitable[None]]
"""``async (params: mcp.types.LoggingMessageNotificationParams) -> None``: the SDK's
``LoggingFnT``."""

_PYTHON_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL,
    "emergency": logging.CRITICAL,
}
_DETAIL_CHARS = 500
_LOG_CHARS = 4000
_VERSION = version("standard-tool-mcp")


class Connection:
    """One session to ``server``, and the tools it lists: ``async with`` or ``with`` yields them.

    ``server`` is a command (``"uvx mcp-server-time"`` or a list) run over stdio, an
    ``http(s)://`` URL of a streamable-HTTP server, ``StdioServerParameters``, or an
    in-process server (low-level ``Server``, ``FastMCP`` or ``MCPServer``), connected in memory.
    ``timeout`` bounds connecting (start, handshake and ``tools/list`` together) and every
    request, in seconds; failing to connect raises :class:`~standard_tool.exceptions.ServerError`
    naming the server and the cause.

    A stdio server gets a reduced environment (``docs/how-to/adopt-mcp-server.md``): the SDK's safe list (``PATH``,
    ``HOME``...) and the certificate variables (``SSL_CERT_FILE``...), then ``env``, which maps
    a variable's name to its value, or to ``None`` to pass this process's variable of that name
    through (``env={"GITHUB_TOKEN": None, "LOG_LEVEL": "debug"}``).

    Callbacks (``docs/how-to/adopt-mcp-server.md``): ``elicitation`` and ``sampling`` answer the server's requests
    during a call (the SDK's ``ElicitationFnT`` and ``SamplingFnT``); ``progress`` receives every
    call's progress notifications (as does the caller's
    :func:`standard_tool.current_reporter`); ``logging`` receives the server's log messages,
    which otherwise go to the Python logger ``standard_tool_mcp``. ``errlog`` receives a stdio
    server's stderr (default: ``sys.stderr``).

    ``pin`` (a snapshot, see :mod:`standard_tool.contracts`) holds the server's tools to what
    was reviewed: a tool whose description, input or output schema differs from the pin, or
    that the pin does not name (unless ``allow_unpinned``), fails the connection with a
    :class:`~standard_tool.exceptions.PinMismatchError`; after the server says its tool list
    changed, the list is checked again at the next call, and a tool that now differs is
    refused with that error.

    With ``async with`` the session lives on the caller's event loop; with plain ``with``
    it lives on the shared background loop of :func:`standard_tool.call`, so the tools work
    from sync code and from any event loop.
    """

    def __init__(
        self,
        server: Any,
        *,
        args: Sequence[str] = (),
        env: Mapping[str, str | None] | None = None,
        cwd: str | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        elicitation: ElicitationCallback | None = None,
        sampling: SamplingCallback | None = None,
        progress: ProgressCallback | None = None,
        logging: LoggingCallback | None = None,
        errlog: TextIO | None = None,
        pin: PinSource | None = None,
        allow_unpinned: bool = False,
    ) -> None:
        self.server = server
        self.args = list(args)
        self.env = _environment(env)
        self.cwd = cwd
        self.headers = dict(headers or {})
        self.timeout = timeout
        self.elicitation = elicitation
        self.sampling = sampling
        self.progress = progress
        self.logging = logging
        self.errlog = errlog
        self.pin = as_pin(pin, allow_unpinned)
        """The pin the server's tools are held to (when listed, and again after the server
        says its list changed), if any."""
        self.name = _name(server, self.args)
        """The server as errors and logs name it: the command line, the URL, or the server."""
        self.session: Any = None
        self.tools: list[MCPTool] = []
        self.process: ServerProcess | None = None
        """A stdio server's process, while the session is open."""
        self._state = SessionState()
        self._stop: asyncio.Event | None = None
        self._scope: Any = None
        self._abandoned = False
        self._ending: asyncio.Task[None] | None = None
        self._cut: Callable[[], None] | None = None
        self._lost: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._held: concurrent.futures.Future[None] | None = None

    # -- opening -------------------------------------------------------------------------

    def _target(self) -> tuple[str, Any]:
        """How to reach the server: ``("http", url)``, ``("stdio", params)`` or
        ``("memory", server)``; a ``UsageError`` for what ``connect()`` cannot reach."""
        server = self.server
        if isinstance(server, str) and server.startswith(("http://", "https://")):
            return "http", server
        from mcp import StdioServerParameters

        if isinstance(server, StdioServerParameters):
            return "stdio", server
        if isinstance(server, (str, list, tuple)):
            command = shlex.split(server) if isinstance(server, str) else list(server)
            if not command:
                raise UsageError("connect() needs a command, a URL or a server")
            params = StdioServerParameters(
                command=command[0], args=[*command[1:], *self.args], cwd=self.cwd
            )
            return "stdio", params
        if hasattr(server, "run") or hasattr(server, "_mcp_server"):
            return "memory", server
        raise UsageError(
            f"connect() takes a command, an http(s) URL, StdioServerParameters or an "
            f"in-process MCP server, not {type(server).__name__}"
        )

    def _session(self, kind: str, target: Any) -> AbstractAsyncContextManager[Any]:
        """The SDK session's context manager."""
        callbacks = self._callbacks()
        if kind == "http":
            return _compat.open_session(self._http(target), self.timeout, callbacks)
        if kind == "memory":
            return _compat.memory_session(target, self.timeout, callbacks)
        return _compat.open_session(self._stdio(target), self.timeout, callbacks)

    @asynccontextmanager
    async def _stdio(self, params: Any) -> AsyncIterator[tuple[Any, Any]]:
        transport = stdio_transport(
            params.command,
            params.args,
            env={**(params.env or {}), **(self.env or {})},
            cwd=params.cwd,
            encoding=params.encoding,
            errors=params.encoding_error_handler,
            errlog=self.errlog,
            on_exit=self._exited,
        )
        async with transport as (read, write, process):
            self.process = process
            yield read, write

    @asynccontextmanager
    async def _http(self, url: str) -> AsyncIterator[tuple[Any, Any]]:
        """The HTTP transport's streams, with what the server sends relayed, so that a server
        found gone can end the session's incoming stream (and the calls waiting on it)."""
        import anyio

        relay, incoming = anyio.create_memory_object_stream[Any](0)

        async def pump(read: Any) -> None:
            try:
                async with relay:
                    async for item in read:
                        await relay.send(item)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                pass

        transport = _compat.http_client_transport(url, self.headers, self._unreachable)
        async with transport as streams, anyio.create_task_group() as group:
            group.start_soon(pump, streams[0])
            self._cut = relay.close
            try:
                yield incoming, streams[1]
            finally:
                self._cut = None
                group.cancel_scope.cancel()
                incoming.close()
                streams[0].close()

    def _unreachable(self, exc: BaseException) -> None:
        """A request found no HTTP server: once connected, the session ends."""
        if self.session is None or self._state.ended is not None:
            return
        self._state.ended = GONE
        self._lost = exc
        if self._cut is not None:
            self._cut()  # the session fails the calls in flight
        self._end_soon(asyncio.sleep(0.05))

    def _callbacks(self) -> dict[str, Any]:
        import mcp.types as types

        return {
            "client_info": types.Implementation(name="standard-tool-mcp", version=_VERSION),
            "elicitation_callback": self.elicitation,
            "sampling_callback": self.sampling,
            "logging_callback": self.logging or self._log,
            "message_handler": self._notified if self.pin is not None else None,
            "log_level": "debug" if self.logging else _mcp_level(_logger.getEffectiveLevel()),
        }

    async def _notified(self, message: Any) -> None:
        """A server's notification: a changed tool list is checked against the pin again, at
        the next call of one of its tools (listing it here would hold up the session)."""
        notification = getattr(message, "root", message)
        if getattr(notification, "method", None) == "notifications/tools/list_changed":
            self._state.stale = True

    async def _log(self, params: Any) -> None:
        """A server's log message, to the Python logger ``standard_tool_mcp``."""
        level = _PYTHON_LEVELS.get(str(getattr(params, "level", "")), logging.WARNING)
        if not _logger.isEnabledFor(level):
            return
        data = getattr(params, "data", None)
        text = data if isinstance(data, str) else json.dumps(data, default=str)
        if len(text) > _LOG_CHARS:
            text = text[:_LOG_CHARS] + "..."
        source = getattr(params, "logger", None)
        where = f"{self.name} ({source})" if isinstance(source, str) and source else self.name
        _logger.log(level, "%s: %s", where, text)

    @asynccontextmanager
    async def _open(self, kind: str, target: Any) -> AsyncIterator[list[MCPTool]]:
        async with self._session(kind, target) as session:
            self.session = session
            try:
                tools = await load_mcp_tools(session, timeout=self.timeout, progress=self.progress)
                if self.pin is not None:
                    self._state.pin, self._state.source = self.pin, self.name
                    for tool in tools:
                        self.pin.check(tool, self.name)
                for tool in tools:
                    tool._state = self._state
                self.tools = tools
                yield tools
            finally:
                self.session = None

    # -- the session's own task ----------------------------------------------------------

    async def _run(
        self, ready: concurrent.futures.Future[list[MCPTool]], kind: str, target: Any
    ) -> None:
        """Open the session, hand the tools over, and hold it until released or lost."""
        import anyio

        self._stop = asyncio.Event()
        failure: Exception | None = None
        scope = anyio.CancelScope()
        self._scope = scope
        if self._abandoned:
            scope.cancel()
        try:
            with scope:
                if self.timeout is not None:
                    scope.deadline = anyio.current_time() + self.timeout
                async with self._open(kind, target) as tools:
                    scope.deadline = math.inf
                    if not _resolve(ready, tools):
                        return  # nobody waits for the session any more: close it
                    await self._stop.wait()
        except asyncio.CancelledError:
            if self._state.ended is None:  # the loop ends (asyncio.run returning, say)
                self._state.ended = CLOSED
            raise
        except Exception as exc:
            failure = exc
        finally:
            if ready.cancelled():
                pass
            elif not ready.done():
                refused = _leaf(failure)
                if isinstance(refused, PinMismatchError):  # it answered: it is not as pinned
                    ready.set_exception(refused)
                else:
                    error = self._failure(
                        failure, stdio=kind == "stdio", timed_out=scope.cancel_called
                    )
                    ready.set_exception(error)
            elif self._state.ended in (None, GONE) or self._state.lost:
                if self._state.ended is None:  # else left first, once a call found it gone
                    self._state.ended = GONE
                cause = self._cause(failure or self._lost)
                _logger.warning("MCP server %s is gone: %s", self.name, cause)
            self.process = None

    def _exited(self, process: ServerProcess) -> None:
        """A stdio server closed its stdout, or the transport ended the session (a message
        too long): once connected, the session ends."""
        if self.session is None or self._state.ended is not None:
            return
        if process.failure is not None:
            self._state.ended = f"the MCP session was closed: {process.failure}"
            self._end_soon(asyncio.sleep(0.05))
            return
        self._state.ended = GONE  # meanwhile the session fails the calls in flight
        self._end_soon(process.settle(1.0))

    def _end_soon(self, pause: Awaitable[Any]) -> None:
        """End the session after ``pause`` (time for it to fail the calls in flight)."""
        stop = self._stop

        async def end() -> None:
            await pause
            if stop is not None:
                stop.set()

        self._ending = asyncio.get_running_loop().create_task(end())

    def _failure(self, exc: Exception | None, *, stdio: bool, timed_out: bool) -> ServerError:
        """The error for a session that could not open (``exc`` is its cause)."""
        leaf = _leaf(exc)
        process = self.process
        if stdio and isinstance(leaf, OSError) and process is None and not timed_out:
            message = f"could not start the server: {leaf.strerror or leaf}"
        elif timed_out:
            cause = f"no answer within {self.timeout:g} s" if self.timeout is not None else ""
            if process is not None:
                cause = f"{cause}; {process.describe()}"
            message = f"could not connect: {cause}"
        else:
            message = f"could not connect: {self._cause(exc)}"
        if process is not None and process.returncode is not None and not process.stopped:
            note = process.environment_note()  # it exited: for want of a variable, maybe
            message = f"{message}\n{note}" if note else message
        error = ServerError(self.name, message)
        error.__cause__ = exc
        return error

    def _cause(self, exc: BaseException | None) -> str:
        """What ended or broke the session: the server process, else the exception."""
        process = self.process
        if process is not None and process.failure is not None:
            return process.failure
        if process is not None and process.returncode is not None:
            return process.describe()
        leaf = _leaf(exc)
        if leaf is None:
            return "the connection closed"
        text = f"{type(leaf).__name__}: {leaf}" if str(leaf) else type(leaf).__name__
        text = text if len(text) <= _DETAIL_CHARS else text[:_DETAIL_CHARS] + "..."
        if process is not None:
            text = f"{text}; {process.describe()}"
        return text

    # -- async with ----------------------------------------------------------------------

    def _start(self) -> tuple[str, Any]:
        target = self._target()
        self._state = SessionState()
        self._stop = self._scope = self._lost = None
        self._abandoned = False
        return target

    async def __aenter__(self) -> list[MCPTool]:
        kind, target = self._start()
        ready: concurrent.futures.Future[list[MCPTool]] = concurrent.futures.Future()
        self._loop = loop = asyncio.get_running_loop()
        task = loop.create_task(self._run(ready, kind, target))
        self._task = task
        try:
            return await asyncio.wrap_future(ready)
        except asyncio.CancelledError:
            self._abandon(ready)
            raise
        except (ServerError, PinMismatchError):
            self._task = None
            await asyncio.wait([task])
            raise

    async def __aexit__(self, *exc: object) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        self._release()
        await asyncio.wait([task])

    # -- plain with ----------------------------------------------------------------------

    def __enter__(self) -> list[MCPTool]:
        kind, target = self._start()
        ready: concurrent.futures.Future[list[MCPTool]] = concurrent.futures.Future()
        self._loop = loop = background_loop()
        self._held = asyncio.run_coroutine_threadsafe(self._run(ready, kind, target), loop)
        try:
            return ready.result()
        except (ServerError, PinMismatchError):
            self._held = None
            raise
        except BaseException:  # KeyboardInterrupt, say
            self._abandon(ready)
            raise

    def __exit__(self, *exc: object) -> None:
        held, self._held = self._held, None
        if held is None:
            return
        self._release()
        concurrent.futures.wait([held])

    # -- ending --------------------------------------------------------------------------

    def _release(self) -> None:
        """Close the session (from any thread): calls from now on fail as closed."""
        if self._state.ended is None:
            self._state.ended = CLOSED
        stop, loop = self._stop, self._loop
        if stop is not None and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stop.set)

    def _abandon(self, ready: concurrent.futures.Future[list[MCPTool]]) -> None:
        """The caller stopped waiting for the session: close it, or stop opening it."""
        if ready.done() and not ready.cancelled():
            self._release()
        else:
            self._cancel()

    def _cancel(self) -> None:
        """Stop opening the session (from any thread)."""
        self._abandoned = True
        scope, loop = self._scope, self._loop
        if scope is not None and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(scope.cancel)


connect = Connection
"""``connect(server, *, args=(), env=None, cwd=None, headers=None, timeout=60.0,
elicitation=None, sampling=None, progress=None, logging=None, errlog=None, pin=None,
allow_unpinned=False)``: the
:class:`Connection` to ``server``, for ``async with`` or ``with``."""


def _name(server: Any, args: Sequence[str]) -> str:
    """The server as messages name it (a URL without its credentials or query)."""
    if isinstance(server, str) and server.startswith(("http://", "https://")):
        parts = urlsplit(server)
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        netloc = f"{host}:{parts.port}" if parts.port else host
        return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
    if isinstance(server, str):
        try:
            return shlex.join([*shlex.split(server), *args])
        except ValueError:
            return server
    if isinstance(server, (list, tuple)):
        return shlex.join([*map(str, server), *args])
    command = getattr(server, "command", None)
    if isinstance(command, str):
        return shlex.join([command, *getattr(server, "args", [])])
    name = getattr(server, "name", None) or getattr(
        getattr(server, "_mcp_server", None), "name", None
    )
    return f"in-process MCP server {name!r}" if name else "in-process MCP server"


def _environment(env: Any) -> dict[str, str | None] | None:
    """``env`` checked: variable names, each with a value or ``None`` (pass it through)."""
    if env is None:
        return None
    if not isinstance(env, Mapping) or not all(
        isinstance(name, str) and name and "=" not in name and isinstance(value, (str, type(None)))
        for name, value in env.items()
    ):
        raise UsageError(
            "connect(): env must map variable names to a value (a string) or to None, "
            "to pass the variable of that name through from this process"
        )
    return dict(env)


def _resolve(ready: concurrent.futures.Future[list[MCPTool]], tools: list[MCPTool]) -> bool:
    """Hand the tools to whoever waits for them; ``False`` when nobody does any more."""
    try:
        ready.set_result(tools)
    except concurrent.futures.InvalidStateError:  # cancelled by the waiter
        return False
    return True


def _leaf(exc: BaseException | None) -> BaseException | None:
    """The first exception in ``exc`` that is not a group and not a cancellation."""
    if exc is None:
        return None
    group = getattr(exc, "exceptions", None)
    if isinstance(group, (list, tuple)):  # an exception group
        for inner in group:
            leaf = _leaf(inner)
            if leaf is not None:
                return leaf
        return None
    if isinstance(exc, asyncio.CancelledError) or type(exc).__name__ == "Cancelled":
        return None
    return exc


def _mcp_level(python_level: int) -> str:
    """The MCP log level matching a Python logging level."""
    for name, value in (("debug", 10), ("info", 20), ("warning", 30), ("error", 40)):
        if python_level <= value:
            return name
    return "critical"
