"""The server built by ``to_mcp_server``, seen by a real in-memory client."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import mcp.types as types
import pytest

from standard_tool import tool
from standard_tool.exceptions import ToolNameError
from standard_tool_mcp import Image, to_mcp_server
from standard_tool_mcp._compat import MCPError, call_tool, dump, list_tools_page, memory_session


async def _call(
    server: Any, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    async with memory_session(server) as session:
        return dump(await call_tool(session, name, arguments, 10, meta))


@tool
def pause(seconds: float) -> float:
    """Block for a while.

    Args:
        seconds: How long.
    """
    time.sleep(seconds)
    return seconds


@tool
def echo_meta(context: Any = None) -> dict[str, Any]:
    """Return the request metadata the tool received."""
    return {"meta": context["meta"], "has_session": context["session"] is not None}


class Plain:
    """A conforming tool that is not a ``standard_tool.Tool``: the server validates for it."""

    name = "plain"
    title = None
    description = "Doubles n."
    input_schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    output_schema = {"type": "integer"}
    meta: dict[str, Any] = {}

    def execute(self, input: Any, context: Any = None) -> Any:
        return input["n"] * 2 if input["n"] >= 0 else "negative"


async def test_unknown_tool_is_an_invalid_params_error() -> None:
    async with memory_session(to_mcp_server([pause])) as session:
        with pytest.raises(MCPError) as raised:
            await call_tool(session, "nope", {}, 10, None)
    error = raised.value.error if hasattr(raised.value, "error") else raised.value
    assert error.code == -32602 and "nope" in error.message and "pause" in error.message


async def test_invalid_input_is_an_error_result_without_traceback() -> None:
    result = await _call(to_mcp_server([pause]), "pause", {"seconds": "long", "x": 1})
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "pause" in text and "seconds" in text and "x" in text and "Traceback" not in text


async def test_structured_content_matches_the_output_schema() -> None:
    result = await _call(to_mcp_server([pause]), "pause", {"seconds": 0})
    assert result["structuredContent"] == {"result": 0}
    assert result["content"] == [{"type": "text", "text": "0.0"}]


async def test_request_meta_reaches_the_context() -> None:
    result = await _call(to_mcp_server([echo_meta]), "echo_meta", {}, {"trace": "abc"})
    assert result["structuredContent"]["meta"]["trace"] == "abc"
    assert result["structuredContent"]["has_session"] is True


async def test_sync_tools_run_concurrently_off_the_loop() -> None:
    server = to_mcp_server([pause])
    async with memory_session(server) as session:
        start = time.perf_counter()
        results = await asyncio.gather(
            *(call_tool(session, "pause", {"seconds": 0.3}, 10, None) for _ in range(4))
        )
        elapsed = time.perf_counter() - start
    assert all(not dump(r).get("isError") for r in results)
    assert elapsed < 0.9, elapsed


async def test_foreign_tools_are_validated_by_the_server() -> None:
    server = to_mcp_server([Plain()])
    assert (await _call(server, "plain", {"n": 2}))["structuredContent"] == {"result": 4}
    bad_input = await _call(server, "plain", {"n": "x"})
    assert bad_input["isError"] and "plain" in bad_input["content"][0]["text"]
    bad_output = await _call(server, "plain", {"n": -1})
    assert bad_output["isError"] and "output" in bad_output["content"][0]["text"]


async def test_media_values_become_content_blocks() -> None:
    @tool
    def picture():  # type: ignore[no-untyped-def]
        """A one-pixel image."""
        return Image(b"\x89PNG", "image/png")

    result = await _call(to_mcp_server([picture]), "picture", {})
    assert (
        result["content"][0]["type"] == "image" and result["content"][0]["mimeType"] == "image/png"
    )


async def test_a_call_tool_result_passes_through() -> None:
    @tool
    def raw():  # type: ignore[no-untyped-def]
        """Return a prepared result."""
        return types.CallToolResult(content=[types.TextContent(type="text", text="as is")])

    assert (await _call(to_mcp_server([raw]), "raw", {}))["content"][0]["text"] == "as is"


async def test_names_are_sanitized_and_collisions_refused() -> None:
    renamed = tool(lambda: 1, name="a tool", description="One.")  # type: ignore[arg-type]
    async with memory_session(to_mcp_server([renamed])) as session:
        assert [t.name for t in (await list_tools_page(session, None))[0]] == ["a_tool"]
    with pytest.raises(ToolNameError):
        to_mcp_server([pause, pause])


def test_serve_refuses_an_unknown_transport() -> None:
    from standard_tool.exceptions import UsageError
    from standard_tool_mcp import serve

    with pytest.raises(UsageError, match="transport"):
        serve([pause], transport="carrier-pigeon")  # type: ignore[arg-type]


async def test_one_tool_or_a_plain_function_is_served() -> None:
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    for tools in (pause, shout, (shout,)):
        async with memory_session(to_mcp_server(tools)) as session:
            assert len((await list_tools_page(session, None))[0]) == 1
    assert (await _call(to_mcp_server(shout), "shout", {"text": "a"}))["content"][0]["text"] == "A"
    from standard_tool_mcp import to_mcp_tool

    assert to_mcp_tool(shout).name == "shout"  # to_mcp_tool adopts what it is given
