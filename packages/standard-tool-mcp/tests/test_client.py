"""Tools adopted from a session: results, content blocks, errors, context, loops, bad listings."""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import Mapping
from typing import Any

import mcp.types as types
import pytest

from standard_tool import acall, background_loop, call, tool, with_formatted_output
from standard_tool.exceptions import (
    ToolExecutionError,
    ToolTimeoutError,
    ToolValidationError,
    UsageError,
)
from standard_tool_mcp import (
    Audio,
    Image,
    MalformedToolWarning,
    Resource,
    ResourceLink,
    connect,
    load_mcp_tools,
    to_mcp_server,
)
from standard_tool_mcp._compat import make_server, memory_session

PNG = b"\x89PNG\r\n"
OPEN = {"type": "object", "properties": {}}


def _raw_server(descriptors: list[Any], results: Mapping[str, Any]) -> Any:
    """A server whose tools return prepared ``CallToolResult``s, right or wrong."""

    async def list_tools(ctx: Any) -> list[Any]:
        return descriptors

    async def call_tool(ctx: Any, name: str, arguments: dict[str, Any], meta: Any) -> Any:
        return types.CallToolResult.model_validate(results[name])

    return make_server("raw", list_tools, call_tool)


def _descriptor(name: str, **fields: Any) -> Any:
    return types.Tool.model_validate(
        {"name": name, "description": name, "inputSchema": OPEN, **fields}
    )


BLOCKS = {
    "text": ({"type": "text", "text": "hi"}, "hi"),
    "image": (
        {"type": "image", "data": base64.b64encode(PNG).decode(), "mimeType": "image/png"},
        Image(PNG, "image/png"),
    ),
    "audio": (
        {"type": "audio", "data": base64.b64encode(b"RIFF").decode(), "mimeType": "audio/wav"},
        Audio(b"RIFF", "audio/wav"),
    ),
    "link": (
        {"type": "resource_link", "uri": "file:///a.txt", "name": "a", "mimeType": "text/plain"},
        ResourceLink("file:///a.txt", "a", "text/plain"),
    ),
    "resource": (
        {
            "type": "resource",
            "resource": {"uri": "file:///b.txt", "mimeType": "text/plain", "text": "B"},
        },
        Resource("file:///b.txt", "text/plain", text="B"),
    ),
    "blob": (
        {
            "type": "resource",
            "resource": {"uri": "file:///c.bin", "blob": base64.b64encode(b"\x00").decode()},
        },
        Resource("file:///c.bin", data=b"\x00"),
    ),
}


@pytest.mark.parametrize("kind", sorted(BLOCKS))
async def test_content_blocks_become_python_values(kind: str) -> None:
    block, value = BLOCKS[kind]
    server = _raw_server([_descriptor(kind)], {kind: {"content": [block]}})
    async with connect(server) as tools:
        assert await acall(tools[0], {}) == value


async def test_several_blocks_become_a_list_and_structured_content_wins() -> None:
    both = {"content": [BLOCKS["text"][0], BLOCKS["text"][0]]}
    structured = {"content": [BLOCKS["text"][0]], "structuredContent": {"a": 1}}
    server = _raw_server(
        [_descriptor("both"), _descriptor("structured")], {"both": both, "structured": structured}
    )
    async with connect(server) as tools:
        by_name = {t.name: t for t in tools}
        assert await acall(by_name["both"], {}) == ["hi", "hi"]
        assert await acall(by_name["structured"], {}) == {"a": 1}


async def test_structured_content_is_validated_against_the_output_schema() -> None:
    output = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    server = _raw_server(
        [_descriptor("count", outputSchema=output)],
        {"count": {"content": [], "structuredContent": {"n": 1}}},
    )
    async with memory_session(server) as session:
        (adopted,) = await load_mcp_tools(session)
        assert await acall(adopted, {}) == {"n": 1}
        adopted.output_schema = type(adopted.output_schema)({"type": "object", "required": ["m"]})
        with pytest.raises(ToolValidationError) as raised:
            await acall(adopted, {})
        assert raised.value.target == "output"


async def test_a_result_that_breaks_the_servers_own_output_schema() -> None:
    output = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    results = {
        "wrong": {"content": [], "structuredContent": {"n": "secret"}},
        "missing": {"content": [BLOCKS["text"][0]]},
    }
    server = _raw_server([_descriptor(name, outputSchema=output) for name in results], results)
    fields = {}
    async with connect(server) as tools:
        for adopted in tools:
            with pytest.raises(ToolValidationError) as raised:
                await acall(adopted, {})
            assert raised.value.tool == adopted.name and raised.value.target == "output"
            assert "secret" not in str(raised.value)
            fields[adopted.name] = raised.value.fields
    assert fields == {"wrong": ("n",), "missing": ("<root>",)}


async def test_error_results_raise_and_format_as_data() -> None:
    server = _raw_server(
        [_descriptor("fail")],
        {"fail": {"content": [{"type": "text", "text": "disk full"}], "isError": True}},
    )
    async with connect(server) as (adopted,):
        with pytest.raises(ToolExecutionError) as raised:
            await acall(adopted, {})
        assert raised.value.tool == "fail" and "disk full" in str(raised.value)
        assert await acall(with_formatted_output(adopted), {}) == {
            "error": "Tool 'fail' failed: disk full"
        }


async def test_input_is_validated_before_sending() -> None:
    calls: list[str] = []

    @tool
    def count(n: int) -> int:
        """Count a call.

        Args:
            n: A number.
        """
        calls.append("called")
        return n

    async with connect(to_mcp_server([count])) as (adopted,):
        with pytest.raises(ToolValidationError):
            await acall(adopted, {"n": "one"})
    assert calls == []


@tool
def session_id(context: Any = None) -> dict[str, Any]:
    """The server session's identity and the request's metadata."""
    return {"session": id(context["session"]), "meta": context["meta"]}


async def test_calls_reuse_one_session_and_carry_meta() -> None:
    connection = connect(to_mcp_server([session_id]))
    async with connection as (adopted,):
        session = connection.session
        sent: list[str] = []
        original = session.call_tool

        async def spy(name: str, *args: Any, **kwargs: Any) -> Any:
            sent.append(name)
            return await original(name, *args, **kwargs)

        session.call_tool = spy
        first = await acall(adopted, {}, {"meta": {"trace": "1"}})
        second = await acall(adopted, {}, {"meta": {"trace": "2"}})
        assert adopted.session is session and sent == ["session_id", "session_id"]
    assert connection.session is None
    assert first["meta"]["trace"] == "1" and second["meta"]["trace"] == "2"


def test_plain_with_works_from_sync_code_and_from_any_loop() -> None:
    with connect(to_mcp_server([session_id])) as (adopted,):
        from_sync = call(adopted, {}, {"meta": {"k": "v"}})

        async def elsewhere() -> Any:
            return await acall(adopted, {}), call(adopted, {})

        from_async, from_sync_in_loop = asyncio.run(elsewhere())
    assert from_sync["meta"]["k"] == "v"
    assert "k" not in from_async["meta"] and "k" not in from_sync_in_loop["meta"]


async def test_sync_call_from_the_sessions_own_loop_is_refused() -> None:
    async with connect(to_mcp_server([session_id])) as (adopted,):
        with pytest.raises(UsageError, match="acall"):
            call(adopted, {})
        assert "session" in await acall(adopted, {})  # the session still works


async def test_acall_from_another_loop_hops_to_the_sessions_loop() -> None:
    async with connect(to_mcp_server([session_id])) as (adopted,):
        other = await asyncio.to_thread(lambda: asyncio.run(acall(adopted, {}, {"meta": {"x": 1}})))
    assert other["meta"]["x"] == 1


@tool
async def nap(seconds: float) -> float:
    """Sleep, then say how long."""
    await asyncio.sleep(seconds)
    return seconds


async def test_a_call_runs_in_the_callers_task_and_the_session_bounds_it() -> None:
    connection = connect(to_mcp_server([nap]))
    async with connection as (adopted,):
        tasks: list[Any] = []
        original = connection.session.call_tool

        async def spy(*args: Any, **kwargs: Any) -> Any:
            tasks.append(asyncio.current_task())
            return await original(*args, **kwargs)

        connection.session.call_tool = spy
        assert await acall(adopted, {"seconds": 0}) == 0
        assert tasks == [asyncio.current_task()]  # no task of its own around the request
        adopted.timeout = 0.3
        start = time.monotonic()
        with pytest.raises(
            ToolExecutionError, match=r"no answer from the MCP server within 0\.3 s"
        ):
            await acall(adopted, {"seconds": 5})
        assert time.monotonic() - start < 3
        adopted.timeout = 10
        assert await acall(adopted, {"seconds": 0.01}) == 0.01  # the session carries on


def test_a_call_from_another_loop_ends_when_the_sessions_loop_is_blocked() -> None:
    with connect(to_mcp_server([nap])) as (adopted,):
        adopted.timeout = 0.2
        background_loop().call_soon_threadsafe(time.sleep, 2)  # the session's loop, blocked
        start = time.monotonic()
        with pytest.raises(ToolTimeoutError, match=r"'nap' failed: no result within 0\.2 s"):
            asyncio.run(acall(adopted, {"seconds": 0}))
        assert time.monotonic() - start < 1.5  # the time limit and its half-second margin
        adopted.timeout = 10
        assert asyncio.run(acall(adopted, {"seconds": 0})) == 0  # once the loop is free again


async def test_a_malformed_tool_is_skipped_with_a_warning(raw_command: list[str]) -> None:
    with pytest.warns(MalformedToolWarning) as warned:
        async with connect(raw_command, timeout=10) as tools:
            by_name = {t.name: t for t in tools}
            assert sorted(by_name) == ["die", "good", "hang", "huge"]
            assert await acall(by_name["good"], {}) == "fine"
    messages = " ".join(str(w.message) for w in warned)
    assert "bad_schema" in messages and "no_schema" in messages


async def test_pagination_is_followed() -> None:
    descriptors = {f"t{i}": _descriptor(f"t{i}") for i in range(3)}

    async def list_tools(ctx: Any) -> list[Any]:
        return list(descriptors.values())

    server = make_server("paged", list_tools, None)  # type: ignore[arg-type]
    async with memory_session(server) as session:
        assert [t.name for t in await load_mcp_tools(session)] == ["t0", "t1", "t2"]


def test_calls_after_the_session_closed_fail_clearly() -> None:
    with connect(to_mcp_server([session_id])) as (after_with,):
        pass
    with pytest.raises(ToolExecutionError, match="session is closed"):
        call(after_with, {})

    async def open_and_close() -> Any:
        async with connect(to_mcp_server([session_id])) as (adopted,):
            pass
        with pytest.raises(ToolExecutionError, match="session is closed"):
            await acall(adopted, {})
        return adopted

    after_loop = asyncio.run(open_and_close())
    with pytest.raises(ToolExecutionError, match="session is closed"):
        call(after_loop, {})


def _sdk_server() -> Any:
    """The SDK's own high-level server (``MCPServer`` on 2.x, ``FastMCP`` on 1.x)."""
    from standard_tool_mcp._compat import MAJOR

    if MAJOR >= 2:
        from mcp.server.mcpserver import MCPServer

        server = MCPServer("sdk")
    else:
        from mcp.server.fastmcp import FastMCP

        server = FastMCP("sdk")

    @server.tool()
    def double(n: int) -> int:
        """Double a number."""
        return n * 2

    @server.tool()
    def pair(a: str, b: str) -> dict[str, str]:
        """Pair two strings."""
        return {"a": a, "b": b}

    return server


async def test_tools_of_the_sdks_own_server() -> None:
    async with connect(_sdk_server()) as tools:
        by_name = {t.name: t for t in tools}
        assert await acall(by_name["double"], {"n": 21}) == {"result": 42}
        assert await acall(by_name["pair"], {"a": "x", "b": "y"}) == {"a": "x", "b": "y"}
        with pytest.raises(ToolValidationError):
            await acall(by_name["double"], {"n": "x"})
