"""Guarded tools (``standard_tool.boundary``) served over MCP, seen by real clients: the
request id (each anonymous connection's own), the authenticated caller, refusals as results
(and read back as refusals by an adopted tool), per-caller tool lists, and a held call
confirmed in a client that declares elicitation, when its gate lets a caller approve its own
calls, and only a call the gate held itself."""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp.server.auth.provider import AccessToken

from standard_tool import acall, call, tool
from standard_tool.boundary import Approval, AuditEvent, CallRequest, Decision, Gate, record_key
from standard_tool.exceptions import REFUSAL_CODES, ToolExecutionError, ToolRefusedError
from standard_tool_mcp import connect, to_asgi_app, to_mcp_server
from standard_tool_mcp._boundary import (
    MAX_MESSAGE,
    MAX_NAME,
    MAX_SUMMARY,
    REQUEST_ID_META,
    refusal_of,
    refusal_result,
)
from standard_tool_mcp._compat import (
    MAJOR,
    MCPError,
    call_tool,
    dump,
    http_client_transport,
    list_tools_page,
    make_server,
    memory_session,
    open_session,
)
from standard_tool_mcp.testing import serving

from .conftest import SERVERS

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


LEGACY: dict[str, Any] = {"mode": "legacy"} if MAJOR >= 2 else {}
"""A 2.x client that keeps one connection for its requests (the initialize handshake); a 1.x
in-memory session always does. With protocol 2026-07-28 each request is a connection."""


def audited(**steps: Any) -> tuple[Gate, list[AuditEvent]]:
    """A gate with ``steps`` (``self_approval``...) whose audit events are kept: where a
    person deciding elsewhere finds the request id an anonymous caller's call runs under."""
    events: list[AuditEvent] = []
    return Gate(audit=[events.append], **steps), events


def kept(gate: Gate, event: AuditEvent) -> Approval | None:
    """The approval request (any status) of the call of the audit event ``event``."""
    return gate.store.approval(record_key(event.tenant, event.actor, event.request_id))


@asynccontextmanager
async def http_session(
    url: str, token: str, callbacks: dict[str, Any] | None = None
) -> AsyncIterator[Any]:
    headers = {"authorization": f"Bearer {token}"}
    async with open_session(http_client_transport(url, headers), 20, callbacks) as session:
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
    async with memory_session(server, callbacks=LEGACY) as session:
        first = dump(await call_tool(session, "bump", {"n": 1}, 10, meta))
        again = dump(await call_tool(session, "bump", {"n": 1}, 10, meta))
        other = dump(await call_tool(session, "bump", {"n": 1}, 10, {REQUEST_ID_META: "order-8"}))
    assert first["structuredContent"] == again["structuredContent"] == {"result": 2}
    assert other["structuredContent"] == {"result": 3} and len(runs) == 2
    # An anonymous caller's request id, in its connection's namespace.
    assert re.fullmatch(r"anon-[0-9a-f]{32}/order-7", runs[0]["request_id"])
    assert runs[1]["request_id"] == runs[0]["request_id"].replace("order-7", "order-8")


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
    gate, events = audited(approvals=lambda request: True)
    server = to_mcp_server(gate.guard(bump))
    async with memory_session(server, callbacks=LEGACY) as session:
        held = dump(await call_tool(session, "bump", {"n": 1}, 10, None))
        payload = held["structuredContent"]
        assert held["isError"] is True and payload["code"] == "held_for_review" and runs == []
        request_id = payload["request_id"]  # the client's: an id the server made for it
        assert re.fullmatch(r"[0-9a-f]{32}", request_id)
        (event,) = events  # the gate's: in the anonymous connection's namespace
        assert event.request_id.endswith(f"/{request_id}") and event.actor is None
        gate.approve(event.request_id, approver="lee")
        meta = {REQUEST_ID_META: request_id}
        first = dump(await call_tool(session, "bump", {"n": 1}, 10, meta))
        again = dump(await call_tool(session, "bump", {"n": 1}, 10, meta))
    assert first["structuredContent"] == again["structuredContent"] == {"result": 2}
    assert [context["request_id"] for context in runs] == [event.request_id]


# Refusals read back by an adopted tool


def _refused_locally(gate: Gate, target: Any, arguments: dict[str, Any], rid: str) -> Any:
    with pytest.raises(ToolRefusedError) as raised:
        call(gate.guard(target), arguments, {"request_id": rid})
    return raised.value


async def test_an_adopted_tool_raises_the_refusal_a_local_gate_raises() -> None:
    server = to_mcp_server(Gate(policy=_deny).guard(double))
    async with connect(server) as (adopted,):
        with pytest.raises(ToolRefusedError) as raised:
            await acall(adopted, {"n": 2}, {"meta": {REQUEST_ID_META: "refund-0042"}})
    refusal = raised.value
    local = _refused_locally(Gate(policy=_deny), double, {"n": 2}, "refund-0042")
    assert (refusal.tool, refusal.code, refusal.retryable) == ("double", "denied", False)
    assert refusal.payload == local.payload and str(refusal) == str(local)
    assert refusal.approval is None


def test_an_adopted_held_call_runs_once_when_sent_again_after_approval() -> None:
    """An authenticated caller: its request ids are its own (its tenant and actor) on every
    connection, so that a person approves its call by the id the client read, and the retry
    (a new request, over stateless HTTP a new connection) runs it once."""
    bump, runs = counter()
    gate = Gate(approvals=lambda request: True)
    app = to_asgi_app(gate.guard(bump), token_verifier=Verifier())
    bearer = {"authorization": "Bearer alice-token"}
    with serving(app) as url, connect(url, headers=bearer, timeout=20) as (adopted,):
        with pytest.raises(ToolRefusedError) as raised:
            call(adopted, {"n": 1})
        held = raised.value
        assert held.code == "held_for_review" and held.request_id and runs == []
        gate.approve(held.request_id, tenant="acme", actor="alice", approver="lee")
        again = {"meta": {REQUEST_ID_META: held.request_id}}
        assert call(adopted, {"n": 1}, again) == call(adopted, {"n": 1}, again) == 2
    assert [context["request_id"] for context in runs] == [held.request_id]


def test_a_guarded_tool_served_over_stdio_refuses_through_the_adopted_tool() -> None:
    command = [sys.executable, str(SERVERS / "gated_server.py")]
    with connect(command, timeout=20) as (refund, _):
        assert call(refund, {"customer": "ada"}) == {"refunded": "ada", "amount": 10}
        with pytest.raises(ToolRefusedError) as unknown:
            call(refund, {"customer": "mallory"}, {"meta": {REQUEST_ID_META: "r-1"}})
        with pytest.raises(ToolRefusedError) as held:
            call(refund, {"customer": "ada", "amount": 500})
    assert unknown.value.payload == {
        "code": "not_found",
        "retryable": False,
        "message": "Unknown customer.",
        "request_id": "r-1",
    }
    assert unknown.value.tool == "refund"
    assert held.value.code == "held_for_review" and held.value.request_id


def test_an_anonymous_stdio_client_is_answered_by_its_receipts() -> None:
    """A stdio server has one client, the process that started it: its anonymous retries keep
    one namespace of request ids, so a retry is answered, never run again (on every protocol,
    though SDK 2.x makes a connection per request of protocol 2026-07-28)."""
    command = [sys.executable, str(SERVERS / "gated_server.py")]
    with connect(command, timeout=20) as tools:
        count = next(t for t in tools if t.name == "count")
        first = call(count, {}, {"meta": {REQUEST_ID_META: "c-1"}})
        assert call(count, {}, {"meta": {REQUEST_ID_META: "c-1"}}) == first
        assert call(count, {}, {"meta": {REQUEST_ID_META: "c-2"}}) == first + 1


PAYLOAD: dict[str, Any] = {
    "code": "denied",
    "retryable": False,
    "message": "Not for you.",
    "request_id": "r-1",
}
APPROVAL: dict[str, Any] = {
    "id": "r-1",
    "tool": "refund",
    "tenant": "acme",
    "actor": "alice",
    "arguments": {"customer": "ada"},
    "summary": '{"customer": "ada"}',
    "digest": "sha256:" + "0" * 64,
}
HELD = {**PAYLOAD, "code": "held_for_review", "approval": APPROVAL}


def _answering(structured: Any) -> Any:
    """A server whose tool ``refund`` answers every call with an error result: the text
    ``declined`` and ``structured`` as its structured content."""
    descriptor = types.Tool.model_validate(
        {"name": "refund", "inputSchema": {"type": "object", "properties": {}}}
    )

    async def list_tools(ctx: Any) -> list[Any]:
        return [descriptor]

    async def call_tool(ctx: Any, name: str, arguments: dict[str, Any], meta: Any) -> Any:
        return types.CallToolResult.model_validate(
            {
                "content": [{"type": "text", "text": "declined"}],
                "structuredContent": structured,
                "isError": True,
            }
        )

    return make_server("answering", list_tools, call_tool)


async def _adopted_call(structured: Any) -> Any:
    async with connect(_answering(structured)) as (adopted,):
        with pytest.raises((ToolRefusedError, ToolExecutionError)) as raised:
            await acall(adopted, {})
    return raised.value


@pytest.mark.parametrize(
    "structured",
    [PAYLOAD, {**PAYLOAD, "request_id": None}, HELD, {**PAYLOAD, "approval": None}],
    ids=["payload", "no-request-id", "held", "approval-null"],
)
async def test_a_refusal_payload_from_any_server_is_a_refusal(structured: Any) -> None:
    refusal = await _adopted_call(structured)
    assert isinstance(refusal, ToolRefusedError) and refusal.tool == "refund"
    assert {**refusal.payload, "approval": refusal.approval} == {"approval": None, **structured}


MALFORMED: dict[str, Any] = {
    "unknown-code": {**PAYLOAD, "code": "teapot"},
    "code-not-a-string": {**PAYLOAD, "code": ["denied"]},
    "code-an-object": {**PAYLOAD, "code": {"denied": True}},
    "retryable-a-string": {**PAYLOAD, "retryable": "false"},
    "retryable-a-number": {**PAYLOAD, "retryable": 0},
    "retryable-not-the-codes": {**PAYLOAD, "retryable": True},
    "message-a-number": {**PAYLOAD, "message": 7},
    "message-null": {**PAYLOAD, "message": None},
    "request-id-a-number": {**PAYLOAD, "request_id": 7},
    "request-id-empty": {**PAYLOAD, "request_id": ""},
    "request-id-too-long": {**PAYLOAD, "request_id": "r" * 201},
    "extra-key": {**PAYLOAD, "trace": "x"},
    "missing-key": {k: v for k, v in PAYLOAD.items() if k != "message"},
    "approval-a-string": {**HELD, "approval": "approved"},
    "approval-extra-key": {**HELD, "approval": {**APPROVAL, "approved": True}},
    "approval-missing-key": {**HELD, "approval": {k: v for k, v in APPROVAL.items() if k != "id"}},
    "approval-of-another-call": {**HELD, "approval": {**APPROVAL, "id": "r-2"}},
    "approval-digest-malformed": {**HELD, "approval": {**APPROVAL, "digest": "md5:00"}},
    "approval-summary-a-number": {**HELD, "approval": {**APPROVAL, "summary": 7}},
    "approval-tool-empty": {**HELD, "approval": {**APPROVAL, "tool": ""}},
    "approval-tool-too-long": {**HELD, "approval": {**APPROVAL, "tool": "t" * (MAX_NAME + 1)}},
    "approval-tenant-a-number": {**HELD, "approval": {**APPROVAL, "tenant": 7}},
    "approval-actor-a-list": {**HELD, "approval": {**APPROVAL, "actor": ["alice"]}},
    "approval-actor-too-long": {**HELD, "approval": {**APPROVAL, "actor": "a" * (MAX_NAME + 1)}},
    "approval-the-old-shape": {
        **HELD,
        "approval": {k: APPROVAL[k] for k in ("id", "tool", "digest", "summary")},
    },
    # What a person is shown must be what the approval is for, whole.
    "approval-arguments-not-the-summary": {
        **HELD,
        "approval": {**APPROVAL, "arguments": {"customer": "ada", "amount": 10_000}},
    },
    "approval-summary-not-json": {**HELD, "approval": {**APPROVAL, "summary": "customer ada"}},
    "approval-summary-nan": {
        **HELD,
        "approval": {**APPROVAL, "summary": '{"amount": NaN}', "arguments": {"amount": 0}},
    },
    "approval-summary-too-long": {
        **HELD,
        "approval": {
            **APPROVAL,
            "summary": json.dumps({"note": "n" * MAX_SUMMARY}),
            "arguments": {"note": "n" * MAX_SUMMARY},
        },
    },
    "approval-a-lone-surrogate": {**HELD, "approval": {**APPROVAL, "actor": "al\ud800ice"}},
    "approval-summary-a-lone-surrogate": {
        **HELD,
        "approval": {**APPROVAL, "summary": '{"c": "\\ud800"}', "arguments": {"c": "\ud800"}},
    },
}
if MAJOR >= 2:  # structured content that is no object (protocol 2026-07-28; 1.x refuses it)
    MALFORMED["a-list"] = [PAYLOAD]


@pytest.mark.parametrize("structured", MALFORMED.values(), ids=MALFORMED.keys())
async def test_anything_else_in_an_error_result_stays_a_failure(structured: Any) -> None:
    error = await _adopted_call(structured)
    assert type(error) is ToolExecutionError
    assert error.tool == "refund" and error.message == "declined"


async def test_a_huge_message_is_clipped_and_a_long_approval_read_whole() -> None:
    note = "n" * (MAX_SUMMARY - len('{"note": ""}'))  # a summary of MAX_SUMMARY characters
    approval = {
        **APPROVAL,
        "tenant": None,
        "actor": "a" * MAX_NAME,
        "arguments": {"note": note},
        "summary": json.dumps({"note": note}),
    }
    assert len(approval["summary"]) == MAX_SUMMARY
    refusal = await _adopted_call({**HELD, "message": "m" * 1_000_000, "approval": approval})
    assert isinstance(refusal, ToolRefusedError)
    assert len(refusal.message) == MAX_MESSAGE and refusal.message.endswith("m...")
    assert refusal.approval == approval  # never clipped: one more character, and it is not read
    assert len(str(refusal)) < MAX_MESSAGE + 200


def test_text_that_is_not_valid_unicode_is_read_as_valid_unicode() -> None:
    refusal = refusal_of("refund", {**PAYLOAD, "message": "bad \ud800 text"})
    assert refusal is not None and refusal.message == "bad ? text"
    refusal.message.encode("utf-8")


@pytest.mark.parametrize("code", sorted(REFUSAL_CODES))
def test_every_refusal_the_server_sends_reads_back_as_itself(code: str) -> None:
    sent = ToolRefusedError("double", code, "Because.", "r-9")
    structured = dump(refusal_result(sent))["structuredContent"]
    read = refusal_of("double", structured)
    assert read is not None and read.payload == sent.payload and str(read) == str(sent)


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


# Confirmation in the client


class Person:
    """An elicitation callback that records what it was asked and answers as told."""

    def __init__(self, action: str, content: dict[str, Any] | None = None) -> None:
        self.action, self.content = action, content
        self.asked: list[Any] = []

    async def __call__(self, context: Any, params: Any) -> Any:
        self.asked.append(dump(params))
        return types.ElicitResult(action=self.action, content=self.content)  # type: ignore[arg-type]


class Reviewed:
    """A gate that holds every call for review and lets a caller approve its own
    (``self_approval``, unless told otherwise), the counter it guards (``bump``), the
    contexts it ran with and the gate's audit events."""

    def __init__(self, self_approval: bool = True) -> None:
        bump, self.runs = counter()
        self.gate, self.events = audited(
            approvals=lambda request: True, self_approval=self_approval
        )
        self.bump = self.gate.guard(bump)

    def approval(self) -> Approval:
        """The approval request (any status) of the first call."""
        approval = kept(self.gate, self.events[0])
        assert approval is not None
        return approval


ASKED_IN = ["a request", "a result"] if MAJOR >= 2 else ["a request"]
"""How the server asks the client: with an ``elicitation/create`` request of its own (the
initialize handshake's protocols), or in an ``input_required`` result the client answers by
sending the call again (protocol 2026-07-28, SDK 2.x)."""


def _options(answer: Any, asked_in: str = "a request") -> dict[str, Any]:
    options: dict[str, Any] = {} if answer is None else {"elicitation_callback": answer}
    if MAJOR >= 2:
        options["mode"] = "legacy" if asked_in == "a request" else "2026-07-28"
    return options


async def _ask(
    server: Any, answer: Any, arguments: dict[str, Any], asked_in: str = "a request"
) -> dict[str, Any]:
    async with memory_session(server, callbacks=_options(answer, asked_in)) as session:
        return dump(await call_tool(session, "bump", arguments, 10, None))


def _refusal(result: dict[str, Any]) -> dict[str, Any]:
    assert result["isError"] is True
    payload: dict[str, Any] = result["structuredContent"]
    assert [json.loads(block["text"]) for block in result["content"]] == [payload]
    return payload


@pytest.mark.parametrize("asked_in", ASKED_IN)
async def test_an_approval_in_the_client_runs_the_call_once(asked_in: str) -> None:
    reviewed = Reviewed()
    person = Person("accept", {"approve": True})
    result = await _ask(to_mcp_server(reviewed.bump), person, {"n": 1}, asked_in)
    assert result.get("isError") is not True and result["structuredContent"] == {"result": 2}
    (context,) = reviewed.runs
    approval = reviewed.approval()
    assert approval.request_id == context["request_id"]
    assert approval.status == "used" and approval.approver == "mcp-client"
    (asked,) = person.asked
    assert '"bump"' in asked["message"] and approval.summary in asked["message"]
    schema = asked["requestedSchema"]
    assert schema["required"] == ["approve"]
    assert schema["properties"]["approve"]["type"] == "boolean"


@pytest.mark.parametrize(
    ("action", "content"),
    [("decline", None), ("cancel", None), ("accept", {"approve": False})],
    ids=["decline", "cancel", "accept-no"],
)
@pytest.mark.parametrize("asked_in", ASKED_IN)
async def test_a_refusal_in_the_client_rejects_the_call(
    action: str, content: Any, asked_in: str
) -> None:
    reviewed = Reviewed()
    answer = Person(action, content)
    payload = _refusal(await _ask(to_mcp_server(reviewed.bump), answer, {"n": 1}, asked_in))
    assert payload["code"] == "denied" and reviewed.runs == []
    approval = reviewed.approval()
    assert approval.request_id.endswith(f"/{payload['request_id']}")  # the client's own id
    assert approval.status == "rejected"
    assert approval.approver == "mcp-client" and approval.reason == "declined in the client"
    assert len(answer.asked) == 1


async def _held(
    reviewed: Reviewed, answer: Any, asked_in: str = "a request", **options: Any
) -> None:
    server = to_mcp_server(reviewed.bump, **options)
    payload = _refusal(await _ask(server, answer, {"n": 1}, asked_in))
    assert payload["code"] == "held_for_review" and reviewed.runs == []
    assert reviewed.approval().status == "pending"
    assert reviewed.events[-1].request_id.endswith(f"/{payload['request_id']}")


@pytest.mark.parametrize("asked_in", ASKED_IN)
async def test_a_client_without_elicitation_gets_the_held_result(asked_in: str) -> None:
    await _held(Reviewed(), None, asked_in)


@pytest.mark.parametrize("asked_in", ASKED_IN)
async def test_with_elicit_approvals_off_a_held_call_is_not_asked_about(asked_in: str) -> None:
    person = Person("accept", {"approve": True})
    await _held(Reviewed(), person, asked_in, elicit_approvals=False)
    assert person.asked == []


@pytest.mark.parametrize("asked_in", ASKED_IN)
@pytest.mark.parametrize("content", [{"approve": "yes"}, {}, None])
async def test_an_answer_without_a_boolean_leaves_the_call_held(
    content: Any, asked_in: str
) -> None:
    person = Person("accept", content)
    await _held(Reviewed(), person, asked_in)
    assert len(person.asked) == 1


async def test_a_failed_elicitation_request_leaves_the_call_held() -> None:
    async def broken(context: Any, params: Any) -> Any:
        return types.ErrorData(code=-32603, message="no person here")

    await _held(Reviewed(), broken)


async def test_an_unanswered_elicitation_leaves_the_call_held_at_the_time_limit() -> None:
    gave_up = anyio.Event()

    class Watch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "TimeoutError" in record.getMessage():
                gave_up.set()

    answered = anyio.Event()
    notices: list[Any] = []

    async def away(context: Any, params: Any) -> Any:
        try:
            await gave_up.wait()  # answers only once the server stopped waiting
        finally:
            answered.set()  # or is cancelled: a client that honours the server's cancellation
        return types.ElicitResult(action="accept", content={"approve": True})

    async def notice(params: Any) -> None:
        notices.append(params)

    reviewed = Reviewed()
    server = to_mcp_server(reviewed.bump, timeout=0.5)
    logger, watch = logging.getLogger("standard_tool_mcp"), Watch()
    logger.addHandler(watch)
    level = logger.level
    logger.setLevel(logging.INFO)
    callbacks = {**_options(away), "logging_callback": notice}
    try:
        async with memory_session(server, callbacks=callbacks) as session:
            result = dump(await call_tool(session, "bump", {"n": 1}, 10, None))
            await answered.wait()  # the late answer (if any) is on its way; a call after it
            assert "bump" in await _names(session)
    finally:
        logger.removeHandler(watch)
        logger.setLevel(level)
    payload = _refusal(result)
    assert payload["code"] == "held_for_review" and reviewed.runs == []
    assert reviewed.approval().status == "pending"
    assert notices == []  # the late answer is dropped: no error is reported to the client


@pytest.mark.parametrize("asked_in", ASKED_IN)
async def test_a_call_refused_for_another_reason_is_not_asked_about(asked_in: str) -> None:
    bump, runs = counter()
    gate = Gate(approvals=lambda request: True, self_approval=True)
    gate.disable("bump")
    person = Person("accept", {"approve": True})
    payload = _refusal(await _ask(to_mcp_server(gate.guard(bump)), person, {"n": 1}, asked_in))
    assert payload["code"] == "disabled" and person.asked == [] and runs == []


def test_the_authenticated_caller_is_the_approver() -> None:
    reviewed = Reviewed()
    person = Person("accept", {"approve": True})
    app = to_asgi_app(reviewed.bump, stateless=False, token_verifier=Verifier())

    async def calls(url: str) -> dict[str, Any]:
        callbacks = {"elicitation_callback": person}
        async with http_session(url, "alice-token", callbacks) as session:
            return dump(await call_tool(session, "bump", {"n": 1}, 10, None))

    with serving(app) as url:
        result = anyio.run(calls, url)
    assert result["structuredContent"] == {"result": 2}
    (context,) = reviewed.runs
    approval = reviewed.gate.store.approval(record_key("acme", "alice", context["request_id"]))
    assert approval is not None and approval.approver == "alice" and approval.actor == "alice"
    assert approval.status == "used" and not context["request_id"].startswith("anon-")
    (asked,) = person.asked
    assert 'tenant: "acme"' in asked["message"] and 'actor: "alice"' in asked["message"]
