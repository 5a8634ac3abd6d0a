"""MCP tools adopted from a live client session, as standard tools."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Protocol

from standard_tool import JsonSchema, background_loop, blocked_loop
from standard_tool.adapters import WrapperTool
from standard_tool.exceptions import (
    ServerError,
    StandardToolError,
    ToolExecutionError,
    UsageError,
)

from . import _compat
from ._content import from_content
from ._descriptors import fields_of

__all__ = ["DEFAULT_TIMEOUT", "MCPTool", "MalformedToolWarning", "from_mcp_tool", "load_mcp_tools"]

DEFAULT_TIMEOUT = 60.0
"""Seconds a ``tools/call`` or ``tools/list`` may take before it fails."""
_MAX_PAGES = 1000


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
        self._loop = _home(loop)

    def __repr__(self) -> str:
        return f"MCPTool(name={self.name!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> MCPTool:
        """The same session: a copy calls the same server."""
        return MCPTool(self.wrapped, self.session, timeout=self.timeout, loop=self._loop)

    async def arun(self, input: Any, context: Any) -> Any:
        """Call the tool on its session (from any event loop) and return its result."""
        meta = context.get("meta") if isinstance(context, Mapping) else None
        request = self._request(input, meta if isinstance(meta, Mapping) else None)
        if asyncio.get_running_loop() is self._loop:
            result = await request
        else:
            result = await self._hop(request)
        return self._result(result)

    async def _request(self, arguments: Any, meta: Mapping[str, Any] | None) -> Any:
        try:
            return await _compat.call_tool(
                self.session, self.remote.name, arguments, self.timeout, meta
            )
        except StandardToolError:
            raise
        except Exception as exc:  # transport, protocol and SDK validation failures
            raise ToolExecutionError(self.name, _describe(exc, self.timeout)) from exc

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
            text = "\n".join(v if isinstance(v, str) else repr(v) for v in _values(content))
            raise ToolExecutionError(self.name, text.removeprefix(f"Tool {self.name!r} failed: "))
        if self.output_schema is not None:
            if structured is None:
                raise ToolExecutionError(self.name, "the server returned no structured content")
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


def _describe(exc: Exception, timeout: float | None) -> str:
    text = str(exc) or type(exc).__name__
    if type(exc).__name__ in _CLOSED or "within an async context manager" in text:
        return "the MCP session is closed"
    if "timed out" in text.lower() or isinstance(exc, TimeoutError):
        return f"no answer from the MCP server within {timeout} s ({text})"
    return f"{type(exc).__name__}: {text}"


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
) -> MCPTool:
    """A standard tool that calls ``descriptor``'s tool through ``session``.

    ``loop`` is the event loop the session lives on: by default the running loop, or the
    shared background loop of :func:`standard_tool.call` when there is none.
    """
    return MCPTool(descriptor, session, timeout=timeout, loop=loop)


async def load_mcp_tools(
    session: Session, *, timeout: float | None = DEFAULT_TIMEOUT
) -> list[MCPTool]:
    """Every tool the session's server lists, adopted; a malformed one is skipped with a warning."""
    tools: list[MCPTool] = []
    cursor: str | None = None
    for _ in range(_MAX_PAGES):
        descriptors, cursor = await _page(session, cursor, timeout)
        for descriptor in descriptors:
            tool = _adopt_one(descriptor, session, timeout)
            if tool is not None:
                tools.append(tool)
        if not cursor:
            break
    return tools


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


def _adopt_one(descriptor: Any, session: Session, timeout: float | None) -> MCPTool | None:
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
        tool = MCPTool(descriptor, session, timeout=timeout)
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
