"""Guarded tools (``standard_tool.boundary``) served over MCP, seen by real clients: the
request id, the authenticated caller, refusals as results (and read back as refusals by an
adopted tool), per-caller tool lists, and a held call confirmed in a client that declares
elicitation."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp.server.auth.provider import AccessToken

from standard_tool import acall, call, tool
from standard_tool.boundary import CallRequest, Decision, Gate
from standard_tool.exceptions import REFUSAL_CODES, ToolExecutionError, ToolRefusedError
from standard_tool_mcp import connect, to_asgi_app, to_mcp_server
from standard_tool_mcp._boundary import (
    MAX_MESSAGE,
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


async def test_an_adopted_held_call_runs_once_when_sent_again_after_approval() -> None:
    bump, runs = counter()
    gate = Gate(approvals=lambda request: True)
    async with connect(to_mcp_server(gate.guard(bump))) as (adopted,):
        with pytest.raises(ToolRefusedError) as raised:
            await acall(adopted, {"n": 1})
        held = raised.value
        assert held.code == "held_for_review" and held.request_id and runs == []
        gate.approve(held.request_id, approver="lee")
        again = {"meta": {REQUEST_ID_META: held.request_id}}
        assert await acall(adopted, {"n": 1}, again) == await acall(adopted, {"n": 1}, again) == 2
    assert [context["request_id"] for context in runs] == [held.request_id]


def test_a_guarded_tool_served_over_stdio_refuses_through_the_adopted_tool() -> None:
    command = [sys.executable, str(SERVERS / "gated_server.py")]
    with connect(command, timeout=20) as (refund,):
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


PAYLOAD: dict[str, Any] = {
    "code": "denied",
    "retryable": False,
    "message": "Not for you.",
    "request_id": "r-1",
}
APPROVAL: dict[str, Any] = {
    "id": "r-1",
    "tool": "refund",
    "digest": "sha256:" + "0" * 64,
    "summary": '{"customer": "ada"}',
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
}
if MAJOR >= 2:  # structured content that is no object (protocol 2026-07-28; 1.x refuses it)
    MALFORMED["a-list"] = [PAYLOAD]


@pytest.mark.parametrize("structured", MALFORMED.values(), ids=MALFORMED.keys())
async def test_anything_else_in_an_error_result_stays_a_failure(structured: Any) -> None:
    error = await _adopted_call(structured)
    assert type(error) is ToolExecutionError
    assert error.tool == "refund" and error.message == "declined"


async def test_a_huge_message_and_summary_are_clipped() -> None:
    approval = {**APPROVAL, "summary": "s" * 100_000}
    refusal = await _adopted_call({**HELD, "message": "m" * 1_000_000, "approval": approval})
    assert isinstance(refusal, ToolRefusedError)
    assert len(refusal.message) == MAX_MESSAGE and refusal.message.endswith("m...")
    assert refusal.approval is not None and len(refusal.approval["summary"]) == MAX_SUMMARY
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


def reviewed() -> tuple[Gate, Any, list[Any]]:
    """A gate that holds every call for review, and a counter behind it."""
    bump, runs = counter()
    gate = Gate(approvals=lambda request: True)
    return gate, gate.guard(bump), runs


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
    gate, bump, runs = reviewed()
    person = Person("accept", {"approve": True})
    result = await _ask(to_mcp_server(bump), person, {"n": 1}, asked_in)
    assert result.get("isError") is not True and result["structuredContent"] == {"result": 2}
    (context,) = runs
    approval = gate.store.approval(context["request_id"])
    assert approval is not None
    assert approval.status == "used" and approval.approver == "mcp-client"
    (asked,) = person.asked
    assert "'bump'" in asked["message"] and approval.summary in asked["message"]
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
    gate, bump, runs = reviewed()
    answer = Person(action, content)
    payload = _refusal(await _ask(to_mcp_server(bump), answer, {"n": 1}, asked_in))
    assert payload["code"] == "denied" and runs == []
    approval = gate.store.approval(payload["request_id"])
    assert approval is not None and approval.status == "rejected"
    assert approval.approver == "mcp-client" and approval.reason == "declined in the client"
    assert len(answer.asked) == 1


async def _held(
    server: Any, gate: Gate, runs: list[Any], answer: Any, asked_in: str = "a request"
) -> None:
    payload = _refusal(await _ask(server, answer, {"n": 1}, asked_in))
    assert payload["code"] == "held_for_review" and runs == []
    assert gate.pending(payload["request_id"]) is not None


@pytest.mark.parametrize("asked_in", ASKED_IN)
async def test_a_client_without_elicitation_gets_the_held_result(asked_in: str) -> None:
    gate, bump, runs = reviewed()
    await _held(to_mcp_server(bump), gate, runs, None, asked_in)


@pytest.mark.parametrize("asked_in", ASKED_IN)
async def test_with_elicit_approvals_off_a_held_call_is_not_asked_about(asked_in: str) -> None:
    gate, bump, runs = reviewed()
    person = Person("accept", {"approve": True})
    await _held(to_mcp_server(bump, elicit_approvals=False), gate, runs, person, asked_in)
    assert person.asked == []


@pytest.mark.parametrize("asked_in", ASKED_IN)
@pytest.mark.parametrize("content", [{"approve": "yes"}, {}, None])
async def test_an_answer_without_a_boolean_leaves_the_call_held(
    content: Any, asked_in: str
) -> None:
    gate, bump, runs = reviewed()
    person = Person("accept", content)
    await _held(to_mcp_server(bump), gate, runs, person, asked_in)
    assert len(person.asked) == 1


async def test_a_failed_elicitation_request_leaves_the_call_held() -> None:
    async def broken(context: Any, params: Any) -> Any:
        return types.ErrorData(code=-32603, message="no person here")

    gate, bump, runs = reviewed()
    await _held(to_mcp_server(bump), gate, runs, broken)


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

    gate, bump, runs = reviewed()
    server = to_mcp_server(bump, timeout=0.5)
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
    assert payload["code"] == "held_for_review" and runs == []
    assert gate.pending(payload["request_id"]) is not None
    assert notices == []  # the late answer is dropped: no error is reported to the client


@pytest.mark.parametrize("asked_in", ASKED_IN)
async def test_a_call_refused_for_another_reason_is_not_asked_about(asked_in: str) -> None:
    bump, runs = counter()
    gate = Gate(approvals=lambda request: True)
    gate.disable("bump")
    person = Person("accept", {"approve": True})
    payload = _refusal(await _ask(to_mcp_server(gate.guard(bump)), person, {"n": 1}, asked_in))
    assert payload["code"] == "disabled" and person.asked == [] and runs == []


def test_the_authenticated_caller_is_the_approver() -> None:
    gate, bump, runs = reviewed()
    person = Person("accept", {"approve": True})
    app = to_asgi_app(bump, stateless=False, token_verifier=Verifier())

    async def calls(url: str) -> dict[str, Any]:
        callbacks = {"elicitation_callback": person}
        async with http_session(url, "alice-token", callbacks) as session:
            return dump(await call_tool(session, "bump", {"n": 1}, 10, None))

    with serving(app) as url:
        result = anyio.run(calls, url)
    assert result["structuredContent"] == {"result": 2}
    (context,) = runs
    approval = gate.store.approval(context["request_id"])
    assert approval is not None and approval.approver == "alice" and approval.actor == "alice"
