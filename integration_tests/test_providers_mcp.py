"""A third-party MCP server's tools declared to every model provider, and the calls a model
would make run through ``run_tool_calls`` against the live server (stdio)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from standard_tool.providers import run_tool_calls, to_anthropic, to_gemini, to_hf, to_openai
from standard_tool_mcp import MCPTool, connect

pytest.importorskip("mcp_server_time")

ARGS = {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}


@pytest.fixture(scope="module")
def tools() -> Iterator[list[MCPTool]]:
    command = [sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC"]
    with connect(command, timeout=30) as listed:
        yield list(listed)


def test_every_provider_declares_the_servers_tools(tools: list[MCPTool]) -> None:
    for declared in (to_openai(tools), to_openai(tools, api="chat", strict=False)):
        assert {d.get("name") or d["function"]["name"] for d in declared} == {
            "get_current_time",
            "convert_time",
        }
    assert all(d["input_schema"]["type"] == "object" for d in to_anthropic(tools))
    assert all(d["parameters"]["type"] == "object" for d in to_gemini(tools))
    assert all(d["function"]["parameters"]["type"] == "object" for d in to_hf(tools))


def _calls(provider: str, arguments: dict[str, Any]) -> Any:
    if provider == "openai":
        text = json.dumps(arguments)
        return [
            {"type": "function_call", "call_id": "c1", "name": "convert_time", "arguments": text}
        ]
    if provider == "anthropic":
        return [{"type": "tool_use", "id": "c1", "name": "convert_time", "input": arguments}]
    if provider == "gemini":
        return [{"functionCall": {"id": "c1", "name": "convert_time", "args": arguments}}]
    return [
        {
            "type": "function",
            "id": "c1",
            "function": {"name": "convert_time", "arguments": arguments},
        }
    ]


def _text(provider: str, answer: dict[str, Any]) -> Any:
    if provider == "openai":
        return json.loads(answer["output"])
    if provider == "gemini":
        response = answer["functionResponse"]["response"]
        return response.get("output", response)
    return json.loads(answer["content"])


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "hf"])
def test_a_models_call_reaches_the_server_and_comes_back(
    tools: list[MCPTool], provider: str
) -> None:
    [answer] = run_tool_calls(tools, _calls(provider, ARGS), provider=provider)
    assert _text(provider, answer)["target"]["timezone"] == "Asia/Tokyo"
    [refused] = run_tool_calls(tools, _calls(provider, {"time": "12:00"}), provider=provider)
    error = _text(provider, refused) if provider != "anthropic" else {"error": refused["content"]}
    assert "'convert_time'" in error["error"] and "source_timezone" in error["error"]
