"""Guarded tools (``standard_tool.boundary``) served over MCP, seen by real clients: the
request id, the authenticated caller, refusals as results, and per-caller tool lists."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest
from mcp.server.auth.provider import AccessToken

from standard_tool import tool
from standard_tool.boundary import CallRequest, Decision, Gate
from standard_tool_mcp import to_asgi_app, to_mcp_server
from standard_tool_mcp._boundary import REQUEST_ID_META
from standard_tool_mcp._compat import (
    MCPError,
    call_tool,
    dump,
    http_client_transport,
    list_tools_page,
    memory_session,
    open_session,
)
from standard_tool_mcp.testing import serving

TOKENS: dict[str, dict[str, Any]] = {
    "alice-token": {"client_id": "app-1", "subject": "alice", "claims": {"tenant": "acme"}},
    "bob-token": {"client_id": "app-1", "subject": "bob", "claims": {"tid": "globex"}},
    "service-token": {"client_id": "svc-9"},
}


class Verifier:
    """Bearer tokens of two people (a subject each, a tenant claim each) and of a service
    (a client id only)."""

    async def verify_token(self, token: str) -> AccessToken | None:
        known = TOKENS.get(token)
        return None if known is None else AccessToken(token=token, scopes=[], **known)


def counter() -> tuple[Any, list[Any]]:
    """A tool that counts its runs, and the contexts it ran with."""
    runs: list[Any] = []

    @tool
    def bump(n: int, context: Any = None) -> int:
        """Add n to a counter."""
        runs.append(context)
        return n + len(runs)

    return bump, runs


async def _call(
    server: Any, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    async with memory_session(server) as session:
        return dump(await call_tool(session, name, arguments, 10, meta))


@asynccontextmanager
async def http_session(url: str, token: str) -> AsyncIterator[Any]:
    headers = {"authorization": f"Bearer {token}"}
    async with open_session(http_client_transport(url, headers), 20) as session:
        yield session


async def _names(session: Any) -> list[str]:
    tools, _ = await list_tools_page(session, None)
    return [t.name for t in tools]


def _in_thread(function: Any, *args: Any) -> Any:
    """Run an async client in its own thread (the served app runs in another)."""
    return anyio.run(function, *args)


# Request ids


async def test_a_meta_request_id_reaches_the_tool_and_runs_the_call_once() -> None:
    bump, runs = counter()
    server = to_mcp_server(Gate().guard(bump))
    meta = {REQUEST_ID_META: "order-7"}
    first = await _call(server, "bump", {"n": 1}, meta)
    again = await _call(server, "bump", {"n": 1}, meta)
    assert first["structuredContent"] == again["structuredContent"] == {"result": 2}
    assert len(runs) == 1 and runs[0]["request_id"] == "order-7"
    other = await _call(server, "bump", {"n": 1}, {REQUEST_ID_META: "order-8"})
    assert other["structuredContent"] == {"result": 3} and len(runs) == 2


async def test_without_a_meta_request_id_each_call_runs() -> None:
    bump, runs = counter()
    server = to_mcp_server(Gate().guard(bump))
    await _call(server, "bump", {"n": 1})
    await _call(server, "bump", {"n": 1})
    assert len(runs) == 2 and runs[0]["request_id"] != runs[1]["request_id"]


@pytest.mark.parametrize("sent", [7, "", "x" * 201, ["a"]])
async def test_a_malformed_meta_request_id_is_an_invalid_params_error(sent: Any) -> None:
    bump, runs = counter()
    async with memory_session(to_mcp_server(Gate().guard(bump))) as session:
        with pytest.raises(MCPError, match="standard-tool/request-id"):
            await call_tool(session, "bump", {"n": 1}, 10, {REQUEST_ID_META: sent})
    assert runs == []


# Refusals


@tool
def double(n: int) -> int:
    """Double n."""
    return 2 * n


def _deny(request: CallRequest) -> Decision:
    return Decision.deny("denied", "Not for you.")


async def test_a_refusal_is_an_error_result_with_its_payload() -> None:
    server = to_mcp_server(Gate(policy=_deny).guard(double))  # an output schema: an integer
    result = await _call(server, "double", {"n": 2}, {REQUEST_ID_META: "refund-0042"})
    payload = {
        "code": "denied",
        "retryable": False,
        "message": "Not for you.",
        "request_id": "refund-0042",
    }
    assert result["isError"] is True
    assert [json.loads(block["text"]) for block in result["content"]] == [payload]
    assert result["structuredContent"] == payload


async def test_a_record_a_policy_says_does_not_exist_is_a_refusal_not_an_unknown_tool() -> None:
    def policy(request: CallRequest) -> Decision:
        return Decision.deny("not_found", "No such record.")

    server = to_mcp_server(Gate(policy=policy).guard(double))
    result = await _call(server, "double", {"n": 2}, {REQUEST_ID_META: "r-7"})
    assert result["isError"] is True
    assert result["structuredContent"]["code"] == "not_found"
    assert result["structuredContent"]["message"] == "No such record."


async def test_invalid_arguments_of_a_guarded_tool_are_refused_by_its_gate() -> None:
    result = await _call(to_mcp_server(Gate().guard(double)), "double", {"n": "two"})
    assert result["isError"] is True
    payload = result["structuredContent"]
    assert payload["code"] == "invalid_arguments" and payload["retryable"] is True
    assert "double" in payload["message"] and "n" in payload["message"]
    assert json.loads(result["content"][0]["text"]) == payload


async def test_a_held_call_runs_once_when_sent_again_after_the_gate_approves_it() -> None:
    bump, runs = counter()
    gate = Gate(approvals=lambda request: True)
    server = to_mcp_server(gate.guard(bump))
    held = await _call(server, "bump", {"n": 1})
    payload = held["structuredContent"]
    assert held["isError"] is True and payload["code"] == "held_for_review" and runs == []
    request_id = payload["request_id"]
    gate.approve(request_id, approver="lee")
    meta = {REQUEST_ID_META: request_id}
    first = await _call(server, "bump", {"n": 1}, meta)
    again = await _call(server, "bump", {"n": 1}, meta)
    assert first["structuredContent"] == again["structuredContent"] == {"result": 2}
    assert [context["request_id"] for context in runs] == [request_id]


# The authenticated caller


def test_the_authenticated_caller_reaches_the_policy_as_actor_and_tenant() -> None:
    seen: list[tuple[str | None, str | None]] = []

    def policy(request: CallRequest) -> bool:
        seen.append((request.actor, request.tenant))
        return request.actor != "bob"

    app = to_asgi_app(Gate(policy=policy).guard([double]), token_verifier=Verifier())

    async def calls(url: str) -> list[dict[str, Any]]:
        results = []
        for token in ("alice-token", "bob-token", "service-token"):
            async with http_session(url, token) as session:
                results.append(dump(await call_tool(session, "double", {"n": 2}, 10, None)))
        return results

    with serving(app) as url:
        alice, bob, service = _in_thread(calls, url)
    assert seen == [("alice", "acme"), ("bob", "globex"), ("svc-9", None)]
    assert alice["structuredContent"] == {"result": 4}
    assert bob["isError"] is True and bob["structuredContent"]["code"] == "denied"
    assert service["structuredContent"] == {"result": 4}


# Visibility


def test_a_hidden_tool_is_listed_only_for_whom_its_gate_shows_it() -> None:
    def visible(tool: Any, context: Any) -> bool:
        return tool.name != "double" or context.get("actor") == "alice"

    @tool
    def ping() -> str:
        """Answer pong."""
        return "pong"

    app = to_asgi_app(Gate(visible=visible).guard([double, ping]), token_verifier=Verifier())

    async def look(url: str) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for token in ("alice-token", "bob-token"):
            async with http_session(url, token) as session:
                names = await _names(session)
                try:
                    called: Any = dump(await call_tool(session, "double", {"n": 2}, 10, None))
                except MCPError as error:
                    called = str(error)
                try:
                    await call_tool(session, "nope", {}, 10, None)
                except MCPError as error:
                    unknown = str(error)
                seen[token] = (names, called, unknown)
        return seen

    with serving(app) as url:
        seen = _in_thread(look, url)
    names, called, _ = seen["alice-token"]
    assert names == ["double", "ping"] and called["structuredContent"] == {"result": 4}
    names, called, unknown = seen["bob-token"]
    assert names == ["ping"]
    assert called == unknown.replace("'nope'", "'double'")  # an unknown tool, word for word
    assert "'double'" not in unknown
