"""A LangChain tool served over MCP and adopted back runs as a LangChain tool again; a guarded
tool's refusal, served and adopted, reads in LangChain (and every installed framework's
runtime) as the same tool guarded here reads."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("standard_tool_langchain")

from langchain_core.messages import ToolMessage  # noqa: E402
from langchain_core.tools import tool as langchain_tool  # noqa: E402
from runtimes import refusal_payload  # noqa: E402

from standard_tool import adopt, convert, input_json_schema, targets  # noqa: E402
from standard_tool.boundary import AuditEvent, CallRequest, Decision, Gate  # noqa: E402
from standard_tool.registry import runtime  # noqa: E402
from standard_tool_mcp import connect, to_mcp_server  # noqa: E402


@langchain_tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@langchain_tool
async def describe(name: str, tags: list[str] | None = None) -> dict[str, Any]:
    """Describe a thing with optional tags."""
    return {"name": name, "tags": tags or []}


def _message(tool: Any, arguments: dict[str, Any]) -> ToolMessage:
    call = {"type": "tool_call", "id": "call-1", "name": tool.name, "args": arguments}
    return tool.invoke(call)


async def _amessage(tool: Any, arguments: dict[str, Any]) -> ToolMessage:
    call = {"type": "tool_call", "id": "call-1", "name": tool.name, "args": arguments}
    return await tool.ainvoke(call)


CASES = [
    (multiply, {"a": 6, "b": 7}),
    (describe, {"name": "lamp", "tags": ["a", "b"]}),
]


@pytest.mark.parametrize(("original", "arguments"), CASES, ids=["sync", "async"])
def test_langchain_to_mcp_to_langchain_gives_the_same_messages(
    original: Any, arguments: dict[str, Any]
) -> None:
    server = to_mcp_server([adopt(original)])
    with connect(server, timeout=20) as (adopted,):
        again = convert(adopted, to="langchain")
        assert again.name == original.name and again.description == original.description
        assert input_json_schema(adopt(again)) == input_json_schema(adopt(original))
        got = _message(again, arguments)
    if original.func is not None:  # LangChain runs an async-only tool only through ainvoke
        want = _message(original, arguments)
        assert got.content == want.content and got.status == want.status
    else:
        assert got.status == "success" and "lamp" in str(got.content)


async def test_round_trip_inside_a_running_loop() -> None:
    server = to_mcp_server([adopt(describe)])
    async with connect(server, timeout=20) as (adopted,):
        again = convert(adopted, to="langchain")
        want = await _amessage(describe, {"name": "x"})
        got = await _amessage(again, {"name": "x"})
    assert got.content == want.content


def test_invalid_input_is_an_error_message_naming_the_field() -> None:
    server = to_mcp_server([adopt(multiply)])
    with connect(server, timeout=20) as (adopted,):
        message = _message(convert(adopted, to="langchain"), {"a": 6, "b": "seven"})
    assert (
        message.status == "error" and "b" in message.content and "Traceback" not in message.content
    )


def _refuse_zero(request: CallRequest) -> Decision | bool:
    if request.arguments["a"] == 0:
        return Decision.deny("not_found", "No such factor.")
    return True


def _guarded() -> Any:
    """``multiply`` behind a gate that answers a zero factor as unknown (``not_found``)."""
    return Gate(policy=_refuse_zero).guard(adopt(multiply))


def _payload(message: ToolMessage) -> dict[str, Any]:
    assert message.status == "error" and isinstance(message.content, str)
    payload: dict[str, Any] = json.loads(message.content)
    return payload


def test_a_served_guarded_tools_refusal_reads_in_langchain_as_a_local_one() -> None:
    local = convert(_guarded(), to="langchain")
    want = _payload(_message(local, {"a": 0, "b": 7}))
    with connect(to_mcp_server(_guarded()), timeout=20) as (adopted,):
        remote = convert(adopted, to="langchain")
        got = _payload(_message(remote, {"a": 0, "b": 7}))
        allowed = _message(remote, {"a": 6, "b": 7})
    assert got["code"] == want["code"] == "not_found"
    assert {**got, "request_id": None} == {**want, "request_id": None}
    assert want["request_id"] == "call-1" and got["request_id"]  # the server's own id
    assert allowed.status == "success" and allowed.content == "42"


async def test_a_held_call_of_a_served_guarded_tool_reads_as_held_in_langchain() -> None:
    events: list[AuditEvent] = []
    gate = Gate(approvals=lambda request: True, audit=[events.append])
    async with connect(to_mcp_server(gate.guard(adopt(multiply))), timeout=20) as (adopted,):
        got = _payload(await _amessage(convert(adopted, to="langchain"), {"a": 6, "b": 7}))
    assert (got["code"], got["retryable"]) == ("held_for_review", False)
    # An anonymous MCP caller: the gate keeps the call under its connection's namespace, and the
    # model reads the client's own request id.
    (event,) = events
    assert event.request_id.endswith(f"/{got['request_id']}")
    assert gate.pending(event.request_id) is not None


RUNTIMES = [info.name for info in targets() if info.name != "mcp" and runtime(info.name)]


@pytest.mark.parametrize("target", RUNTIMES)
def test_a_served_guarded_tools_refusal_reaches_every_runtime_with_its_code(target: str) -> None:
    framework = runtime(target)
    assert framework is not None
    want = framework.call(framework.native(_guarded()), {"a": 0, "b": 7}, None)
    with connect(to_mcp_server(_guarded()), timeout=20) as (adopted,):
        got = framework.call(framework.native(adopted), {"a": 0, "b": 7}, None)
    assert got.error is not None and want.error is not None
    remote, local = refusal_payload(got.error), refusal_payload(want.error)
    assert remote["code"] == local["code"] == "not_found"
    assert remote["message"] == local["message"] == "No such factor."
