"""``serve``: run an MCP server until stopped, over stdio or streamable HTTP."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from standard_tool.exceptions import UsageError

from . import _compat
from ._http import as_server, http_app, transport_security
from ._stdio_server import run_stdio

if TYPE_CHECKING:
    from mcp.server.auth.provider import TokenVerifier
    from mcp.server.auth.settings import AuthSettings

__all__ = ["serve"]


def serve(
    tools: Iterable[Any] | Any,
    transport: Literal["stdio", "streamable-http"] = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    name: str = "standard-tool",
    path: str = "/mcp",
    stateless: bool = False,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    token_verifier: TokenVerifier | None = None,
    auth: AuthSettings | None = None,
) -> None:
    """Serve ``tools`` until stopped: over stdin/stdout, or streamable HTTP at ``http://host:port/path``.

    ``tools`` is one tool, several, or a server built by :func:`to_mcp_server` (``name`` names
    a server built here). On start, one line on stderr says what is served and where. Over
    streamable HTTP the settings are those of :func:`to_asgi_app`, except that sessions are
    kept (``stateless=False``) and the Host check follows ``host``: loopback names for a
    loopback ``host``; for any other (``0.0.0.0``) a warning unless ``allowed_hosts`` is set.
    ``port=0`` takes a free port (the line on stderr says which).
    """
    import anyio

    server = as_server(tools, name)
    if transport == "stdio":
        http_only = {
            "allowed_hosts": allowed_hosts,
            "allowed_origins": allowed_origins,
            "token_verifier": token_verifier,
            "auth": auth,
        }
        given = [key for key, value in http_only.items() if value is not None]
        if given:
            raise UsageError(f"{', '.join(given)}: for transport='streamable-http' only")
        _announce(server.name, anyio.run(_tool_names, server), "over stdio")
        anyio.run(run_stdio, server)
        return
    if transport != "streamable-http":
        raise UsageError(f"unknown transport {transport!r}; use 'stdio' or 'streamable-http'")
    app = http_app(
        server,
        security=transport_security(host, allowed_hosts, allowed_origins),
        path=path,
        stateless=stateless,
        token_verifier=token_verifier,
        auth=auth,
    )
    names = anyio.run(_tool_names, server)
    shown = f"[{host}]" if ":" in host else host
    note = "; bearer token required" if token_verifier is not None else ""

    def started(bound: int) -> None:
        where = f"over streamable HTTP at http://{shown}:{bound}{path}{note}"
        _announce(server.name, names, where)

    _run_uvicorn(app, host, port, started)


def _announce(server: str, names: list[str], where: str) -> None:
    """The one line on stderr that says what is served, and where."""
    listing = f"{len(names)} tool{'' if len(names) == 1 else 's'} ({', '.join(names)})"
    print(f"{server}: serving {listing} {where}", file=sys.stderr, flush=True)


async def _tool_names(server: Any) -> list[str]:
    """The names of the tools ``server`` lists, asked once in memory."""
    names: list[str] = []
    cursor: str | None = None
    async with _compat.memory_session(server) as session:
        while True:
            page, cursor = await _compat.list_tools_page(session, cursor)
            names += [t.name for t in page]
            if not cursor:
                return names


def _run_uvicorn(app: Any, host: str, port: int, started: Callable[[int], None]) -> None:
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                started(self.servers[0].sockets[0].getsockname()[1])

    Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run()
