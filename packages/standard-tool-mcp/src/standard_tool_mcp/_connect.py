"""``connect``: one client session to a server, usable with ``async with`` and plain ``with``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import shlex
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from standard_tool import background_loop
from standard_tool.exceptions import UsageError

from . import _compat
from ._client import DEFAULT_TIMEOUT, MCPTool, load_mcp_tools

__all__ = ["Connection", "connect"]


class Connection:
    """One session to ``server``, and the tools it lists: ``async with`` or ``with`` yields them.

    ``server`` is a command (``"uvx mcp-server-time"`` or a list) run over stdio, an
    ``http(s)://`` URL of a streamable-HTTP server, ``StdioServerParameters``, or an
    in-process server (low-level ``Server``, ``FastMCP`` or ``MCPServer``), connected in memory.
    ``timeout`` bounds every request, in seconds.

    With ``async with`` the session lives on the caller's event loop; with plain ``with``
    it lives on the shared background loop of :func:`standard_tool.call`, so the tools work
    from sync code and from any event loop.
    """

    def __init__(
        self,
        server: Any,
        *,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        self.server = server
        self.args = list(args)
        self.env = dict(env) if env is not None else None
        self.cwd = cwd
        self.headers = dict(headers or {})
        self.timeout = timeout
        self.session: Any = None
        self.tools: list[MCPTool] = []
        self._stack: AsyncExitStack | None = None
        self._held: concurrent.futures.Future[None] | None = None
        self._release: asyncio.Event | None = None

    def _transport(self) -> Any:
        server = self.server
        if isinstance(server, str) and server.startswith(("http://", "https://")):
            return _compat.open_session(
                _compat.http_client_transport(server, self.headers), self.timeout
            )
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        if isinstance(server, StdioServerParameters):
            params = server
        elif isinstance(server, (str, list, tuple)):
            command = shlex.split(server) if isinstance(server, str) else list(server)
            if not command:
                raise UsageError("connect() needs a command, a URL or a server")
            params = StdioServerParameters(
                command=command[0], args=[*command[1:], *self.args], env=self.env, cwd=self.cwd
            )
        elif hasattr(server, "run") or hasattr(server, "_mcp_server"):
            return _compat.memory_session(server, self.timeout)
        else:
            raise UsageError(
                f"connect() takes a command, an http(s) URL, StdioServerParameters or an "
                f"in-process MCP server, not {type(server).__name__}"
            )
        return _compat.open_session(stdio_client(params), self.timeout)

    @asynccontextmanager
    async def _open(self) -> AsyncIterator[list[MCPTool]]:
        async with self._transport() as session:
            self.session = session
            try:
                self.tools = await load_mcp_tools(session, timeout=self.timeout)
                yield self.tools
            finally:
                self.session = None

    async def __aenter__(self) -> list[MCPTool]:
        stack = AsyncExitStack()
        tools = await stack.enter_async_context(self._open())
        self._stack = stack
        return tools

    async def __aexit__(self, *exc: object) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.aclose()

    def __enter__(self) -> list[MCPTool]:
        loop = background_loop()
        ready: concurrent.futures.Future[list[MCPTool]] = concurrent.futures.Future()
        self._held = asyncio.run_coroutine_threadsafe(self._hold(ready), loop)
        waiting: list[concurrent.futures.Future[Any]] = [ready, self._held]
        done, _ = concurrent.futures.wait(waiting, return_when="FIRST_COMPLETED")
        if ready in done:
            return ready.result()
        self._held.result()  # raises why the session could not open
        raise RuntimeError("the MCP session closed while opening")  # pragma: no cover

    async def _hold(self, ready: concurrent.futures.Future[list[MCPTool]]) -> None:
        """Open the session, hand the tools over, and keep it open until released."""
        self._release = asyncio.Event()
        async with self._open() as tools:
            ready.set_result(tools)
            await self._release.wait()

    def __exit__(self, *exc: object) -> None:
        held, self._held = self._held, None
        if held is None:
            return
        release = self._release
        if release is not None:
            background_loop().call_soon_threadsafe(release.set)
        held.result(timeout=None if self.timeout is None else self.timeout + 10)


connect = Connection
"""``connect(server, *, args=(), env=None, cwd=None, headers=None, timeout=60.0)``: the
:class:`Connection` to ``server``, for ``async with`` or ``with``."""
