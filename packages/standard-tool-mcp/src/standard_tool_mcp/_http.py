"""Standard tools as an ASGI app: streamable HTTP with Host/Origin checks and bearer-token auth.

Everything here is the SDK's own machinery (``StreamableHTTPSessionManager``,
``TransportSecuritySettings``, ``mcp.server.auth``), assembled the same way for both majors.
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from standard_tool.exceptions import UsageError

if TYPE_CHECKING:
    from mcp.server.auth.provider import TokenVerifier
    from mcp.server.auth.settings import AuthSettings
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.types import Receive, Scope, Send

__all__ = ["as_server", "http_app", "to_asgi_app", "transport_security"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
LOOPBACK_HOSTS = ("127.0.0.1", "127.0.0.1:*", "localhost", "localhost:*", "[::1]", "[::1]:*")


def as_server(tools: Iterable[Any] | Any, name: str = "standard-tool") -> Any:
    """``tools`` itself when it is a low-level MCP server, else ``to_mcp_server(tools, name=name)``."""
    from mcp.server.lowlevel import Server

    from ._server import to_mcp_server

    return tools if isinstance(tools, Server) else to_mcp_server(tools, name=name)


def _names(value: Sequence[str] | None, what: str) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"{what} takes a list of strings, such as ['mcp.example.com']")
    return list(value)


def transport_security(
    host: str | None,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
) -> TransportSecuritySettings:
    """The Host and Origin check (DNS-rebinding protection) of an app bound to ``host``.

    ``host`` is ``None`` when the app does not know where it is bound (:func:`to_asgi_app`).
    Without ``allowed_hosts``, a loopback or unknown ``host`` accepts only the loopback
    names, and any other ``host`` (such as ``0.0.0.0``) accepts every Host and Origin, with a
    warning. ``allowed_hosts=["*"]`` accepts every Host and Origin, without one. Origins
    default to ``http://`` and ``https://`` of each allowed host.
    """
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = _names(allowed_hosts, "allowed_hosts")
    origins = _names(allowed_origins, "allowed_origins")
    if hosts == ["*"]:
        if origins is not None:
            raise UsageError("allowed_origins cannot be checked when allowed_hosts is ['*']")
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    if "*" in (hosts or ()):
        raise UsageError("'*' in allowed_hosts must stand alone: ['*'] accepts every host")
    if hosts is None:
        if host is not None and host not in LOOPBACK:
            warnings.warn(
                f"serving on {host} without allowed_hosts: the Host and Origin headers are not "
                f"checked, so DNS-rebinding protection is off; pass allowed_hosts (the names "
                f"clients use, such as ['mcp.example.com']), or ['*'] to accept any host",
                UserWarning,
                stacklevel=3,
            )
            return TransportSecuritySettings(enable_dns_rebinding_protection=False)
        hosts = list(LOOPBACK_HOSTS)
    if origins is None:
        origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


class _Endpoint:
    """The streamable-HTTP endpoint, and the lifespan that runs its shared session manager.

    While the app's lifespan runs, requests go to one session manager. Without it (an app
    mounted in another Starlette app, whose mounted apps' lifespans never run), a stateless
    endpoint runs a session manager for each request.
    """

    def __init__(self, server: Any, stateless: bool, security: TransportSecuritySettings) -> None:
        self.server = server
        self.stateless = stateless
        self.security = security
        self.shared: Any = None

    def _manager(self) -> Any:
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

        return StreamableHTTPSessionManager(
            app=self.server, stateless=self.stateless, security_settings=self.security
        )

    @asynccontextmanager
    async def lifespan(self, app: object) -> AsyncIterator[None]:
        manager = self._manager()
        async with manager.run():
            self.shared = manager
            try:
                yield
            finally:
                self.shared = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.shared is not None:
            await self.shared.handle_request(scope, receive, send)
        elif self.stateless:
            manager = self._manager()
            async with manager.run():
                await manager.handle_request(scope, receive, send)
        else:
            raise UsageError(
                "a stateful MCP app needs its lifespan to run; when mounting it, pass "
                "lifespan=lambda _: mcp_app.router.lifespan_context(mcp_app) to the outer app, "
                "or use stateless=True"
            )


def http_app(
    server: Any,
    *,
    security: TransportSecuritySettings,
    path: str = "/mcp",
    stateless: bool = True,
    token_verifier: TokenVerifier | None = None,
    auth: AuthSettings | None = None,
) -> Starlette:
    """A Starlette app serving the low-level ``server`` over streamable HTTP at ``path``."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Route

    if not path.startswith("/"):
        raise UsageError(f"path must start with '/', not {path!r}")
    if auth is not None and token_verifier is None:
        raise UsageError("auth (AuthSettings) needs a token_verifier to check bearer tokens")
    endpoint = _Endpoint(server, stateless, security)
    routes: list[Any] = []
    middleware: list[Middleware] = []
    served: Any = endpoint
    if token_verifier is not None:
        from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
        from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
        from mcp.server.auth.routes import (
            build_resource_metadata_url,
            create_protected_resource_routes,
        )
        from starlette.middleware.authentication import AuthenticationMiddleware

        resource = auth.resource_server_url if auth is not None else None
        bound = resource if auth is not None and auth.validate_token_resource else None
        backend = BearerAuthBackend(token_verifier, resource_server_url=bound)
        middleware = [
            Middleware(AuthenticationMiddleware, backend=backend),
            Middleware(AuthContextMiddleware),
        ]
        scopes = list(auth.required_scopes or []) if auth is not None else []
        metadata_url = build_resource_metadata_url(resource) if resource is not None else None
        served = RequireAuthMiddleware(endpoint, scopes, metadata_url)
        if auth is not None and resource is not None:
            routes = create_protected_resource_routes(
                resource_url=resource,
                authorization_servers=[auth.issuer_url],
                scopes_supported=auth.required_scopes,
            )
    return Starlette(
        routes=[Route(path, endpoint=served), *routes],
        middleware=middleware,
        lifespan=endpoint.lifespan,
    )


def to_asgi_app(
    tools: Iterable[Any] | Any,
    *,
    path: str = "/mcp",
    stateless: bool = True,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    token_verifier: TokenVerifier | None = None,
    auth: AuthSettings | None = None,
) -> Starlette:
    """An ASGI (Starlette) app serving ``tools`` over streamable HTTP at ``path``.

    Run it with any ASGI server, any number of workers (``uvicorn module:app --workers 4``),
    or mount it in a Starlette or FastAPI app; see "Serving" in
    ``docs/how-to/frameworks/mcp.md``.

    Args:
        tools: One tool, several, or a server built by :func:`to_mcp_server`.
        path: Where the MCP endpoint answers.
        stateless: Each request stands alone (no ``Mcp-Session-Id``), so any worker can
            answer any request. ``False`` keeps sessions in the process that opened them.
        allowed_hosts: The ``Host`` values to accept (``"name:*"`` for any port); by default
            only loopback names. ``["*"]`` accepts any host and origin.
        allowed_origins: The ``Origin`` values to accept; by default those of the allowed hosts.
        token_verifier: Checks each request's bearer token (``mcp.server.auth.provider.TokenVerifier``);
            requests without a valid one get HTTP 401. The ``AccessToken`` reaches tools as
            ``context["auth"]``.
        auth: ``mcp.server.auth.settings.AuthSettings`` of an OAuth resource server: the
            scopes every token needs, and the protected-resource metadata served at
            ``/.well-known/oauth-protected-resource/...``. Needs ``token_verifier``.
    """
    return http_app(
        as_server(tools),
        security=transport_security(None, allowed_hosts, allowed_origins),
        path=path,
        stateless=stateless,
        token_verifier=token_verifier,
        auth=auth,
    )
