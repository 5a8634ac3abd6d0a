"""``to_asgi_app`` under a real uvicorn on 127.0.0.1: mounted, Host/Origin checks, bearer auth."""

from __future__ import annotations

import http.client
import json
import warnings
from typing import Any
from urllib.parse import urlsplit

import pytest
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route

from standard_tool import call, tool
from standard_tool.exceptions import ToolExecutionError, UsageError
from standard_tool_mcp import connect, serve, to_asgi_app, to_mcp_server
from standard_tool_mcp._http import as_server, transport_security
from standard_tool_mcp.testing import serving

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}


@tool
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


@tool
def whoami(context: Any = None) -> dict[str, Any]:
    """Say who the request's bearer token belongs to."""
    auth = context["auth"]
    if auth is None:
        return {"client": None, "scopes": None}
    return {"client": auth.client_id, "scopes": auth.scopes}


RESOURCE = "https://mcp.example.com/tools/mcp"


class Verifier:
    """``good``: client c1 with scope ``tools`` for :data:`RESOURCE`; ``narrow``: no scope;
    ``elsewhere``: issued for another resource; anything else is refused."""

    async def verify_token(self, token: str) -> AccessToken | None:
        known = {
            "good": (["tools"], RESOURCE),
            "narrow": ([], RESOURCE),
            "elsewhere": (["tools"], "https://other.example.com/mcp"),
        }
        if token not in known:
            return None
        scopes, resource = known[token]
        return AccessToken(token=token, client_id="c1", scopes=scopes, resource=resource)


def post(url: str, body: Any = INITIALIZE, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP POST of a JSON-RPC message: status, headers (lowercase) and body."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        sent = {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            **{k.replace("_", "-"): v for k, v in headers.items()},
        }
        connection.request("POST", parts.path, json.dumps(body), sent)
        response = connection.getresponse()
        return (
            response.status,
            {k.lower(): v for k, v in response.getheaders()},
            response.read(),
        )
    finally:
        connection.close()


def get(url: str) -> tuple[int, bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request("GET", parts.path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _by_name(tools: list[Any]) -> dict[str, Any]:
    return {t.name: t for t in tools}


# Mounting and lifespans


def test_mounted_in_starlette_without_a_lifespan() -> None:
    outer = Starlette(routes=[Mount("/tools", app=to_asgi_app([add, whoami]))])
    with serving(outer, path="/tools/mcp") as url, connect(url, timeout=20) as tools:
        by_name = _by_name(tools)
        assert [call(by_name["add"], {"a": n, "b": n}) for n in range(5)] == [0, 2, 4, 6, 8]
        assert call(by_name["whoami"], {}) == {"client": None, "scopes": None}


def test_a_top_level_app_is_stateless_and_runs_under_its_own_lifespan() -> None:
    with serving(to_asgi_app(to_mcp_server([add], name="adder"))) as url:
        status, headers, _ = post(url)
        assert status == 200 and "mcp-session-id" not in headers
        with connect(url, timeout=20) as tools:
            assert call(_by_name(tools)["add"], {"a": 40, "b": 2}) == 42


def test_a_stateful_app_keeps_sessions() -> None:
    with serving(to_asgi_app(add, stateless=False)) as url:
        status, headers, _ = post(url)
        assert status == 200 and headers["mcp-session-id"]
        with connect(url, timeout=20) as tools:
            assert call(tools[0], {"a": 1}) == 2


def test_a_mounted_stateful_app_runs_with_the_documented_lifespan() -> None:
    mcp_app = to_asgi_app([add], stateless=False)
    outer = Starlette(
        routes=[Mount("/", app=mcp_app)],
        lifespan=lambda _: mcp_app.router.lifespan_context(mcp_app),
    )
    with serving(outer) as url, connect(url, timeout=20) as tools:
        assert call(tools[0], {"a": 1, "b": 1}) == 2


def test_a_mounted_stateful_app_without_its_lifespan_fails_loudly() -> None:
    outer = Starlette(routes=[Mount("/", app=to_asgi_app([add], stateless=False))])
    with serving(outer) as url:
        status, _, _ = post(url)
    assert status == 500


# Host and Origin (DNS rebinding)


def test_a_loopback_app_refuses_foreign_hosts_and_origins() -> None:
    with serving(to_asgi_app([add])) as url:
        real = urlsplit(url).netloc
        assert post(url, host=real)[0] == 200
        assert post(url, host=real.replace("127.0.0.1", "localhost"))[0] == 200
        assert post(url, host="evil.example.com")[0] == 421
        assert post(url, host="evil.example.com:80")[0] == 421
        assert post(url, origin="http://evil.example.com")[0] == 403
        assert post(url, origin=f"http://{real}")[0] == 200


def test_allowed_hosts_replace_the_loopback_names() -> None:
    app = to_asgi_app([add], allowed_hosts=["mcp.example.com"])
    with serving(app) as url:
        assert post(url, host="mcp.example.com")[0] == 200
        assert post(url, host="mcp.example.com", origin="https://mcp.example.com")[0] == 200
        assert post(url, host="mcp.example.com", origin="https://evil.example.com")[0] == 403
        assert post(url)[0] == 421  # 127.0.0.1 is not allowed any more
        assert post(url, host="evil.example.com")[0] == 421


def test_any_host_when_asked_for() -> None:
    with serving(to_asgi_app([add], allowed_hosts=["*"])) as url:
        assert post(url, host="evil.example.com", origin="http://evil.example.com")[0] == 200


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7"])
def test_a_public_bind_without_allowed_hosts_warns(host: str) -> None:
    with pytest.warns(UserWarning, match="DNS-rebinding protection is off"):
        settings = transport_security(host)
    assert settings.enable_dns_rebinding_protection is False


def test_serve_warns_on_a_public_bind_before_it_binds() -> None:
    # an invalid path stops serve() after the settings are built and before anything binds
    with pytest.warns(UserWarning, match="without allowed_hosts"), pytest.raises(UsageError):
        serve([add], "streamable-http", host="0.0.0.0", path="no-slash")


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", None])
def test_loopback_binds_check_the_loopback_names(host: str | None) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        settings = transport_security(host)
    assert settings.enable_dns_rebinding_protection is True
    assert "127.0.0.1:*" in settings.allowed_hosts and "localhost:*" in settings.allowed_hosts
    assert "http://127.0.0.1:*" in settings.allowed_origins


def test_configured_hosts_do_not_warn_and_give_their_origins() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        settings = transport_security("0.0.0.0", ["mcp.example.com", "mcp.example.com:*"])
    assert settings.enable_dns_rebinding_protection is True
    assert settings.allowed_hosts == ["mcp.example.com", "mcp.example.com:*"]
    assert "https://mcp.example.com" in settings.allowed_origins
    assert "http://mcp.example.com:*" in settings.allowed_origins
    explicit = transport_security(None, ["a.example"], ["https://app.example"])
    assert explicit.allowed_origins == ["https://app.example"]


@pytest.mark.parametrize(
    "hosts, origins",
    [
        ("mcp.example.com", None),
        (["*"], ["https://a.example"]),
        (["*", "a.example"], None),
        ([1], None),
    ],
)
def test_malformed_host_settings_are_usage_errors(hosts: Any, origins: Any) -> None:
    with pytest.raises(UsageError):
        to_asgi_app([add], allowed_hosts=hosts, allowed_origins=origins)


# Authentication


def test_a_bearer_token_is_required_and_reaches_the_tool() -> None:
    with serving(to_asgi_app([add, whoami], token_verifier=Verifier())) as url:
        status, headers, _ = post(url)
        assert status == 401 and headers["www-authenticate"].startswith("Bearer ")
        assert post(url, authorization="Bearer wrong")[0] == 401
        assert post(url, authorization="Bearer good")[0] == 200
        headers_ok = {"authorization": "Bearer good"}
        with connect(url, timeout=20, headers=headers_ok) as tools:
            assert call(_by_name(tools)["whoami"], {}) == {"client": "c1", "scopes": ["tools"]}
            assert call(_by_name(tools)["add"], {"a": 1}) == 2


def test_an_oauth_resource_server_mounted_at_the_root_checks_scopes_and_serves_metadata() -> None:
    settings = AuthSettings(
        issuer_url="https://auth.example.com",  # type: ignore[arg-type]
        resource_server_url=RESOURCE,  # type: ignore[arg-type]
        required_scopes=["tools"],
        validate_token_resource=True,
    )
    app = to_asgi_app([whoami], path="/tools/mcp", token_verifier=Verifier(), auth=settings)
    site = Starlette(
        routes=[Route("/health", lambda _: PlainTextResponse("ok")), Mount("/", app=app)]
    )
    with serving(site, path="") as base:
        assert get(f"{base}/health") == (200, b"ok")
        status, body = get(f"{base}/.well-known/oauth-protected-resource/tools/mcp")
        metadata = json.loads(body)
        assert status == 200 and metadata["resource"] == RESOURCE
        assert [s.rstrip("/") for s in metadata["authorization_servers"]] == [
            "https://auth.example.com"
        ]
        assert metadata["scopes_supported"] == ["tools"]
        status, headers, _ = post(f"{base}/tools/mcp")
        assert status == 401
        expected = "https://mcp.example.com/.well-known/oauth-protected-resource/tools/mcp"
        assert f'resource_metadata="{expected}"' in headers["www-authenticate"]
        assert post(f"{base}/tools/mcp", authorization="Bearer narrow")[0] == 403
        assert post(f"{base}/tools/mcp", authorization="Bearer elsewhere")[0] == 401
        assert post(f"{base}/tools/mcp", authorization="Bearer good")[0] == 200
        good = {"authorization": "Bearer good"}
        with connect(f"{base}/tools/mcp", timeout=20, headers=good) as tools:
            assert call(tools[0], {}) == {"client": "c1", "scopes": ["tools"]}


def test_auth_settings_without_a_verifier_are_a_usage_error() -> None:
    settings = AuthSettings(
        issuer_url="https://auth.example.com",  # type: ignore[arg-type]
        resource_server_url=None,
    )
    with pytest.raises(UsageError, match="token_verifier"):
        to_asgi_app([add], auth=settings)


# What the functions accept


def test_a_built_server_is_served_as_it_is() -> None:
    server = to_mcp_server([add], name="adder")
    assert as_server(server) is server
    assert as_server(add).name == "standard-tool"
    assert as_server([add], "named").name == "named"


def test_stdio_refuses_http_settings() -> None:
    with pytest.raises(UsageError, match="token_verifier"):
        serve([add], token_verifier=Verifier())
    with pytest.raises(UsageError, match="allowed_hosts"):
        serve([add], "stdio", allowed_hosts=["a.example"])


def test_a_served_tool_error_stays_a_tool_error_over_http() -> None:
    @tool
    def fail(reason: str) -> str:
        """Fail."""
        raise ValueError(reason)

    with serving(to_asgi_app([fail])) as url, connect(url, timeout=20) as tools:
        with pytest.raises(ToolExecutionError, match="fail"):
            call(tools[0], {"reason": "bad"})
