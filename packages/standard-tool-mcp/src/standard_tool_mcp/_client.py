"""MCP tools adopted from a live client session, as standard tools."""

from __future__ import annotations

import asyncio
import copy
import logging
import math
import os
import warnings
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from types import MappingProxyType
from typing import Any, Protocol

from standard_tool import JsonSchema, Reporter, background_loop, blocked_loop, current_reporter
from standard_tool.adapters import WrapperTool
from standard_tool.contracts import Pin, tool_digest
from standard_tool.exceptions import (
    Issue,
    PinMismatchError,
    ServerError,
    StandardToolError,
    ToolExecutionError,
    ToolTimeoutError,
    ToolValidationError,
    UsageError,
)

from . import _compat
from ._boundary import refusal_of
from ._content import from_content
from ._descriptors import fields_of

__all__ = [
    "DEFAULT_TIMEOUT",
    "MCPTool",
    "MalformedToolWarning",
    "PinSource",
    "ProgressCallback",
    "as_pin",
    "from_mcp_tool",
    "load_mcp_tools",
]

DEFAULT_TIMEOUT = 60.0
"""Seconds a ``tools/call`` or ``tools/list`` may take before it fails."""
_MAX_PAGES = 1000
_MARGIN = 0.5
"""Seconds a call waits beyond :attr:`MCPTool.timeout` where the session does not bound it
(the session's own limit, when it does, reports first, in its own words)."""
_logger = logging.getLogger("standard_tool_mcp")

ProgressCallback = Callable[[float, float | None, str | None], Awaitable[None]]
"""``async (progress, total, message) -> None``: the SDK's ``ProgressFnT``."""
PinSource = Pin | str | os.PathLike[str] | Mapping[str, Any]
"""A pin: a :class:`~standard_tool.contracts.Pin`, or a snapshot (data, or a file's path)."""

GONE = "the MCP server is gone (the connection closed)"
CLOSED = "the MCP session is closed"


class SessionState:
    """How a connection's session stands, shared by the tools adopted through it."""

    __slots__ = ("ended", "lost", "pin", "refused", "source", "stale")

    def __init__(self) -> None:
        self.ended: str | None = None
        """Why the session no longer works (:data:`CLOSED` or :data:`GONE`), once it does not."""
        self.lost = False
        """Whether a call found the connection closed while the session was still open (the
        server is gone, though the block may be left before the transport says so)."""
        self.pin: Pin | None = None
        """The pin the session's tools are held to, if any."""
        self.source: str | None = None
        """The server, as errors name it."""
        self.stale = False
        """Whether the server said its tool list changed since it was last checked."""
        self.refused: dict[str, PinMismatchError] = {}
        """The tools that no longer match the pin, found when the list was checked again."""


class MalformedToolWarning(UserWarning):
    """A server listed a tool that cannot be adopted; the other tools still are."""


class Session(Protocol):
    """An MCP ``ClientSession`` (SDK 1.x or 2.x) or a 2.x ``mcp.Client``."""

    async def call_tool(
        self, name: str, arguments: Any = None, *args: Any, **kwargs: Any
    ) -> Any: ...


class MCPTool(WrapperTool):
    """A tool of an MCP server, called through one long-lived client session.

    It wraps the server's descriptor: the fields come from it (a name the server changed for
    MCP is restored), input is validated before the call and structured output after it.
    """

    validate_input = True
    validate_output = True
    is_async = True

    def __init__(
        self,
        descriptor: Any,
        session: Session,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        loop: asyncio.AbstractEventLoop | None = None,
        progress: ProgressCallback | None = None,
    ) -> None:
        self.remote = fields = fields_of(descriptor)
        super().__init__(
            descriptor,
            name=fields.original_name or fields.name,
            title=fields.title,
            description=fields.description,
            input_schema=JsonSchema(fields.input_schema),
            output_schema=None
            if fields.output_schema is None
            else JsonSchema(fields.output_schema),
            meta=MappingProxyType(fields.meta),
        )
        self.session = session
        self.timeout = timeout
        self.progress = progress
        """Also receives the progress notifications of every call (besides the caller's
        :func:`standard_tool.current_reporter`)."""
        self._loop = _home(loop)
        self._state: SessionState | None = None

    def __repr__(self) -> str:
        return f"MCPTool(name={self.name!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> MCPTool:
        """The same session: a copy calls the same server."""
        copy = MCPTool(
            self.wrapped,
            self.session,
            timeout=self.timeout,
            loop=self._loop,
            progress=self.progress,
        )
        copy._state = self._state
        return copy

    _bounds_itself = True  # the session bounds the request; arun bounds the rest

    def arun(self, input: Any, context: Any) -> Coroutine[Any, Any, Any]:
        """Call the tool on its session (from any event loop): a coroutine returning its result
        (made here, not awaited here: one coroutine less on every call's path).

        The server's progress notifications for the call go to the caller's
        :func:`standard_tool.current_reporter` (on the caller's loop) and to :attr:`progress`.

        The session ends the request at :attr:`timeout`; what it cannot bound (the list
        checked again against the pin, the hop to the session's loop from another loop) is
        bounded here, the whole call ending at most :data:`_MARGIN` later with a
        :class:`~standard_tool.exceptions.ToolTimeoutError`, as :func:`standard_tool.acall`
        ends a tool that does not bound itself.
        """
        state = self._state
        here = asyncio.get_running_loop()
        call = self._call(input, context, here)
        if here is not self._loop or (state is not None and state.stale):
            return self._bounded(call)
        return call

    async def _call(self, input: Any, context: Any, here: asyncio.AbstractEventLoop) -> Any:
        state = self._state
        if state is not None:
            if state.ended:
                raise ToolExecutionError(self.name, state.ended)
            if state.stale:
                await self._recheck(state)
            if state.refused:
                refused = state.refused.get(self.name)
                if refused is not None:
                    raise refused
        meta = None  # no abc check of a call without context, on every call's path
        if context is not None and (type(context) is dict or isinstance(context, Mapping)):
            meta = context.get("meta")
            if meta is not None and not isinstance(meta, Mapping):
                meta = None
        reporter = current_reporter()
        progress = None  # none asked of the server when nobody listens
        if reporter is not None or self.progress is not None:
            progress = _Progress(
                self.name, reporter, None if here is self._loop else here, self.progress
            ).__call__
        session, name = self.session, self.remote.name
        try:
            _compat.skip_output_check(session, name)
            request = _compat.call_tool(
                session,
                name,
                input,
                self.timeout,
                meta,
                progress,
            )
            result = await (request if here is self._loop else self._hop(request))
        except StandardToolError:
            raise
        except Exception as exc:  # transport, protocol and SDK failures
            raise ToolExecutionError(self.name, self._describe(exc)) from exc
        return self._result(result)

    async def _bounded(self, call: Coroutine[Any, Any, Any]) -> Any:
        """``call`` ended, with a ``ToolTimeoutError``, :data:`_MARGIN` after :attr:`timeout`."""
        if self.timeout is None:
            return await call
        try:
            return await asyncio.wait_for(call, self.timeout + _MARGIN)
        except asyncio.TimeoutError:
            raise ToolTimeoutError(self.name, self.timeout) from None

    @property
    def digest(self) -> str:
        """The digest of the tool as the server described it
        (:func:`standard_tool.contracts.tool_digest`): for a tool served by standard-tool, the
        digest it was served with."""
        return tool_digest(self)

    async def _recheck(self, state: SessionState) -> None:
        """The server said its tool list changed: list it again and hold every tool to the
        pin once more; a tool that now differs is refused from here on."""
        state.stale = False
        pin = state.pin
        if pin is None:
            return
        relisted = load_mcp_tools(self.session, timeout=self.timeout)
        here = asyncio.get_running_loop()
        tools = await (relisted if here is self._loop else self._hop(relisted))
        refused: dict[str, PinMismatchError] = {}
        for tool in tools:
            try:
                pin.check(tool, state.source)
            except PinMismatchError as error:
                refused[tool.name] = error
        state.refused = refused

    def _describe(self, exc: Exception) -> str:
        if _closed(exc):
            state = self._state
            if state is None:
                return CLOSED
            if state.ended is None:
                state.lost = True
            return state.ended or GONE
        return _describe(exc, self.timeout)

    async def _hop(self, request: Any) -> Any:
        """Run ``request`` on the session's loop, from any other loop."""
        if self._loop.is_closed() or not self._loop.is_running():
            request.close()
            raise ToolExecutionError(
                self.name, "the MCP session is closed (its event loop has stopped)"
            )
        if blocked_loop() is self._loop:
            request.close()
            raise UsageError(
                f"tool {self.name!r} uses an MCP session on the event loop of the calling thread: "
                "a sync call() there would deadlock; use 'await acall(...)', or open the session "
                "with plain 'with connect(...)'"
            )
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(request, self._loop))

    def _result(self, result: Any) -> Any:
        is_error, content, structured = _compat.result_parts(result)
        if is_error:
            refusal = refusal_of(self.name, structured)
            if refusal is not None:  # a gated server's refusal: the same error as a local one
                raise refusal
            text = "\n".join(v if isinstance(v, str) else repr(v) for v in _values(content))
            raise ToolExecutionError(self.name, text.removeprefix(f"Tool {self.name!r} failed: "))
        if self.output_schema is not None:
            if structured is None:
                raise ToolValidationError(
                    self.name, "output", [Issue("the server returned no structured content")]
                )
            if self.remote.wrapped and isinstance(structured, dict):
                return structured.get("result")
            return structured
        if structured is not None:
            return structured
        return from_content(content)


def _values(content: Any) -> list[Any]:
    value = from_content(content)
    return value if isinstance(value, list) else [value]


_CLOSED = ("ClosedResourceError", "BrokenResourceError", "EndOfStream")


def _closed(exc: BaseException) -> bool:
    """Whether ``exc`` says the session's connection has closed."""
    text = str(exc)
    return (
        type(exc).__name__ in _CLOSED
        or text == "Connection closed"
        or "within an async context manager" in text
    )


def _describe(exc: Exception, timeout: float | None) -> str:
    text = str(exc) or type(exc).__name__
    if "timed out" in text.lower() or isinstance(exc, TimeoutError):
        return f"no answer from the MCP server within {timeout} s ({text})"
    return f"{type(exc).__name__}: {text}"


class _Progress:
    """The progress callback of one call: to the caller's reporter and the tool's callback."""

    def __init__(
        self,
        tool: str,
        reporter: Reporter | None,
        loop: asyncio.AbstractEventLoop | None,
        callback: ProgressCallback | None,
    ) -> None:
        self.tool = tool
        self.reporter = reporter
        self.loop = loop
        self.callback = callback
        self.last = -math.inf

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        if not _finite(progress) or progress < self.last:
            return  # not a number, or going backwards: dropped
        self.last = progress = float(progress)
        total = float(total) if total is not None and _finite(total) else None
        message = message if isinstance(message, str) else None
        if self.reporter is not None:
            if self.loop is None or self.loop.is_closed():
                self._report(progress, total, message)
            else:
                self.loop.call_soon_threadsafe(self._report, progress, total, message)
        if self.callback is not None:
            try:
                await self.callback(progress, total, message)
            except Exception:
                _logger.warning(
                    "a progress callback of MCP tool %r failed", self.tool, exc_info=True
                )

    def _report(self, progress: float, total: float | None, message: str | None) -> None:
        assert self.reporter is not None
        try:
            self.reporter.progress(progress, total, message)
        except Exception:
            _logger.warning("a progress reporter failed; the report was dropped", exc_info=True)


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _home(loop: asyncio.AbstractEventLoop | None) -> asyncio.AbstractEventLoop:
    """The loop a session lives on (default: the caller's loop, else the background loop)."""
    if loop is not None:
        return loop
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return background_loop()


def from_mcp_tool(
    descriptor: Any,
    session: Session,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    loop: asyncio.AbstractEventLoop | None = None,
    progress: ProgressCallback | None = None,
) -> MCPTool:
    """A standard tool that calls ``descriptor``'s tool through ``session``.

    ``loop`` is the event loop the session lives on: by default the running loop, or the
    shared background loop of :func:`standard_tool.call` when there is none. ``progress``
    also receives the progress notifications of every call.
    """
    return MCPTool(descriptor, session, timeout=timeout, loop=loop, progress=progress)


async def load_mcp_tools(
    session: Session,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    progress: ProgressCallback | None = None,
    pin: PinSource | None = None,
    allow_unpinned: bool = False,
) -> list[MCPTool]:
    """Every tool the session's server lists, adopted; a malformed one is skipped with a warning.

    ``timeout`` and ``progress`` are given to each tool (see :func:`from_mcp_tool`). With a
    ``pin`` (a snapshot, see :mod:`standard_tool.contracts`), a tool whose description, input
    or output schema differs from the pin raises
    :class:`~standard_tool.exceptions.PinMismatchError` naming the tool and what changed, as
    does a tool the pin does not name unless ``allow_unpinned``.
    """
    held = as_pin(pin, allow_unpinned)
    tools: list[MCPTool] = []
    cursor: str | None = None
    for _ in range(_MAX_PAGES):
        descriptors, cursor = await _page(session, cursor, timeout)
        for descriptor in descriptors:
            tool = _adopt_one(descriptor, session, timeout, progress)
            if tool is not None:
                tools.append(tool)
        if not cursor:
            break
    if held is not None:
        for tool in tools:
            held.check(tool)
    return tools


def as_pin(pin: PinSource | None, allow_unpinned: bool = False) -> Pin | None:
    """``pin`` as a :class:`~standard_tool.contracts.Pin` (a snapshot is read as one)."""
    if pin is None:
        return None
    if not isinstance(pin, Pin):
        return Pin(pin, allow_unpinned=allow_unpinned)
    if allow_unpinned and not pin.allow_unpinned:
        pin = copy.copy(pin)
        pin.allow_unpinned = True
    return pin


async def _page(
    session: Session, cursor: str | None, timeout: float | None
) -> tuple[list[Any], str | None]:
    from pydantic import ValidationError

    try:
        return await asyncio.wait_for(_compat.list_tools_page(session, cursor), timeout)
    except ValidationError:
        return await _compat.list_tools_raw(session, cursor)
    except TimeoutError as exc:
        raise ServerError(
            "tools/list", f"no answer from the MCP server within {timeout} s"
        ) from exc


def _adopt_one(
    descriptor: Any, session: Session, timeout: float | None, progress: ProgressCallback | None
) -> MCPTool | None:
    import mcp.types as types

    name = (
        descriptor.get("name")
        if isinstance(descriptor, dict)
        else getattr(descriptor, "name", None)
    )
    try:
        if isinstance(descriptor, dict):
            descriptor = types.Tool.model_validate(descriptor)
            _compat.remember_output_schema(session, descriptor)
        tool = MCPTool(descriptor, session, timeout=timeout, progress=progress)
        tool.input_schema.check()
        if tool.output_schema is not None:
            tool.output_schema.check()
    except Exception as exc:
        warnings.warn(
            f"MCP tool {name!r} was skipped: {type(exc).__name__}: {str(exc)[:300]}",
            MalformedToolWarning,
            stacklevel=3,
        )
        return None
    return tool


def adopt_pair(pair: tuple[Any, Session]) -> MCPTool:
    """A ``(descriptor, session)`` pair adopted, as the registry's ``adopt`` does."""
    descriptor, session = pair
    return from_mcp_tool(descriptor, session)
