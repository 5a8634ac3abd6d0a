"""PydanticAI with the other frameworks: LangChain and MCP tools in a real PydanticAI agent run,
and PydanticAI tools run by LangChain and served over MCP."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("standard_tool_pydantic_ai")
pytest.importorskip("standard_tool_langchain")

from langchain_core.messages import ToolMessage  # noqa: E402
from langchain_core.tools import (  # noqa: E402
    StructuredTool,
    ToolException,
    tool as langchain_tool,  # noqa: E402
)
from pydantic_ai import Agent, RunContext, Tool  # noqa: E402
from pydantic_ai.exceptions import ModelRetry  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402
from pydantic_ai.models.test import TestModel  # noqa: E402

import standard_tool as st  # noqa: E402
from standard_tool.testing import sample_tools  # noqa: E402
from standard_tool_mcp import connect, to_mcp_server  # noqa: E402
from standard_tool_pydantic_ai import (  # noqa: E402
    to_pydantic_ai,
    to_pydantic_ai_toolset,
)

Calls = Sequence[Sequence[tuple[str, dict[str, Any]]]]


def scripted(steps: Calls) -> FunctionModel:
    """A model that makes the given tool calls, one step at a time, then answers ``done``."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        step = sum(isinstance(message, ModelResponse) for message in messages)
        if step < len(steps):
            return ModelResponse(
                parts=[ToolCallPart(name, json.dumps(args)) for name, args in steps[step]]
            )
        return ModelResponse(parts=[TextPart("done")])

    return FunctionModel(respond, model_name="script")


def replies(result: Any) -> list[Any]:
    """The parts answering the run's tool calls, in order."""
    return [
        part
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if part.part_kind in ("tool-return", "retry-prompt")
    ]


def retried(part: Any) -> bool:
    return part.part_kind == "retry-prompt" or getattr(part, "outcome", None) == "retried"


def failed(part: Any) -> bool:
    if retried(part) or getattr(part, "outcome", None) == "failed":
        return True
    metadata = part.metadata if isinstance(part.metadata, dict) else {}
    return "error" in metadata.get("standard_tool", {})  # PydanticAI 1.x: no failed outcome


def run(agent: Agent[Any, Any], deps: Any = None) -> Any:
    return asyncio.run(agent.run("go", deps=deps))


# -- LangChain tools in a PydanticAI agent ------------------------------------------------


@langchain_tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@langchain_tool
async def describe(name: str, tags: list[str] | None = None) -> dict[str, Any]:
    """Describe a thing with optional tags."""
    return {"name": name, "tags": tags or []}


def _refuse(reason: str) -> str:
    raise ToolException(f"refused: {reason}")


refuse = StructuredTool.from_function(_refuse, name="refuse", description="Always refuse.")
ranked = StructuredTool(
    name="ranked",
    description="Rank a word.",
    args_schema={
        "type": "object",
        "properties": {"word": {"type": "string", "minLength": 2}},
        "required": ["word"],
        "additionalProperties": False,
    },
    func=lambda word: {"word": word, "rank": len(word)},
)
LANGCHAIN = [multiply, describe, refuse, ranked]


def test_test_model_calls_every_langchain_tool_and_gets_langchain_results() -> None:
    toolset = to_pydantic_ai_toolset([multiply, describe, ranked])
    result = run(Agent(TestModel(), toolsets=[toolset]))
    calls = {
        part.tool_call_id: part
        for message in result.all_messages()
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, ToolCallPart)
    }
    by_name = {tool.name: tool for tool in LANGCHAIN}
    answered = replies(result)
    assert sorted(part.tool_name for part in answered) == ["describe", "multiply", "ranked"]
    for part in answered:
        assert not failed(part), part
        native = by_name[part.tool_name]
        arguments = calls[part.tool_call_id].args_as_dict()
        expected = asyncio.run(native.ainvoke(arguments))
        assert st.jsonable(part.content) == st.jsonable(expected)


def test_the_model_sees_the_langchain_schemas_and_recovers_from_a_retry() -> None:
    seen: list[Any] = []
    steps = [
        [("multiply", {"a": 6, "b": "seven"}), ("ranked", {"word": "a", "extra": 1})],
        [("multiply", {"a": 6, "b": 7}), ("ranked", {"word": "abc"})],
        [("refuse", {"reason": "no"})],
        [("describe", {"name": "lamp"})],
    ]
    model = scripted(steps)

    def watch(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append({tool.name: tool.parameters_json_schema for tool in info.function_tools})
        return model.function(messages, info)  # type: ignore[misc]

    toolset = to_pydantic_ai_toolset(LANGCHAIN)
    result = run(Agent(FunctionModel(watch, model_name="watch"), toolsets=[toolset], retries=2))
    for tool in LANGCHAIN:
        assert seen[0][tool.name] == st.input_json_schema(st.adopt(tool)), tool.name
    bad_b, bad_word, product, rank, refused, described = replies(result)
    assert retried(bad_b) and "b" in str(bad_b.content)
    assert (
        retried(bad_word) and "extra" in str(bad_word.content) and "word" in str(bad_word.content)
    )
    assert (product.content, rank.content) == (42, {"word": "abc", "rank": 3})
    assert failed(refused) and not retried(refused) and "refused: no" in str(refused.content)
    assert described.content == {"name": "lamp", "tags": []}
    assert result.output == "done"


# -- MCP tools in a PydanticAI agent ------------------------------------------------------


def test_mcp_tools_run_in_a_pydantic_ai_agent() -> None:
    tools = sample_tools()
    with connect(to_mcp_server(list(tools.values())), timeout=20) as served:
        toolset = to_pydantic_ai_toolset(served)
        steps = [
            [("add", {"a": 2, "b": 3}), ("search", {"query": "lamp", "limit": 500})],
            [("search", {"query": "lamp", "limit": 2})],
            [("explode", {"reason": "on purpose"})],
            [("whoami", {"label": "x"})],
        ]
        result = run(Agent(scripted(steps), toolsets=[toolset]), deps={"token": "t"})
        test_model = run(Agent(TestModel(call_tools=["add", "greet"]), toolsets=[toolset]))
    added, bad, found, exploded, whoami = replies(result)
    assert added.content == 5
    assert retried(bad) and "limit" in str(bad.content)
    assert found.content == {"hits": ["lamp-0", "lamp-1"], "total": 2}
    assert failed(exploded) and "exploded: on purpose" in str(exploded.content)
    assert whoami.content["label"] == "x"
    assert {part.tool_name for part in replies(test_model)} == {"add", "greet"}
    assert not any(failed(part) for part in replies(test_model))


# -- PydanticAI tools run by LangChain and served over MCP ------------------------------

CAPITALS = {"FR": "Paris", "JP": "Tokyo"}


def capital(country: str) -> dict[str, str]:
    """The capital of a country, by ISO code."""
    if country not in CAPITALS:
        raise ModelRetry(f"unknown country {country!r}, use an ISO code")
    return {"country": country, "capital": CAPITALS[country]}


def signed(ctx: RunContext[dict[str, Any]], text: str) -> str:
    """Sign a text with the name of the user the request's meta names."""
    return f"{text} -- {ctx.deps['meta']['user']}"


def crash(reason: str) -> str:
    """Fail."""
    raise ValueError(reason)


def pydantic_ai_tools() -> list[Tool[Any]]:
    return [Tool(capital), Tool(signed), Tool(crash)]


USER = {"meta": {"user": "ada"}}


def _message(tool: Any, arguments: dict[str, Any], config: Any = None) -> ToolMessage:
    call = {"type": "tool_call", "id": "call-1", "name": tool.name, "args": arguments}
    return tool.invoke(call, config=config)


def test_pydantic_ai_tools_run_in_langchain() -> None:
    capital_tool, signed_tool, crash_tool = (
        st.convert(tool, to="langchain") for tool in pydantic_ai_tools()
    )
    assert capital_tool.tool_call_schema == Tool(capital).tool_def.parameters_json_schema
    ok = _message(capital_tool, {"country": "JP"})
    assert ok.status == "success" and json.loads(ok.content) == {
        "country": "JP",
        "capital": "Tokyo",
    }
    unknown = _message(capital_tool, {"country": "XX"})
    assert unknown.status == "error" and "unknown country 'XX'" in unknown.content
    invalid = _message(capital_tool, {"nation": "FR"})
    assert invalid.status == "error" and "country" in invalid.content
    # LangChain's configurable is the standard context, and the RunContext's deps
    assert _message(signed_tool, {"text": "hi"}, {"configurable": USER}).content == "hi -- ada"
    crashed = _message(crash_tool, {"reason": "bad day"})
    assert crashed.status == "error" and "ValueError: bad day" in crashed.content
    assert "Traceback" not in crashed.content


def test_pydantic_ai_tools_served_over_mcp_behave_as_the_originals_in_an_agent() -> None:
    steps = [
        [("capital", {"country": "FR"}), ("signed", {"text": "hi"})],
        [("capital", {"country": "XX"})],
        [("capital", {})],
    ]
    server = to_mcp_server([st.adopt(tool) for tool in pydantic_ai_tools()])
    with connect(server, timeout=20) as served:
        by_name = {tool.name: tool for tool in served}
        assert (
            st.input_json_schema(by_name["capital"])
            == Tool(capital).tool_def.parameters_json_schema
        )
        assert st.call(by_name["signed"], {"text": "hi"}, USER) == "hi -- ada"  # meta goes along
        with pytest.raises(st.ToolExecutionError, match="ValueError: bad day"):
            st.call(by_name["crash"], {"reason": "bad day"})
        tools = [to_pydantic_ai(tool) for tool in served]
        ours = replies(run(Agent(scripted(steps), tools=tools, retries=3), USER))
        # the original's exception would end agent.run; served, it is a failed result
        crashed = replies(run(Agent(scripted([[("crash", {"reason": "x"})]]), tools=tools)))
    theirs = replies(run(Agent(scripted(steps), tools=pydantic_ai_tools(), retries=3), USER))
    assert [part.tool_name for part in ours] == [part.tool_name for part in theirs]
    capital_fr, signed_hi, unknown, missing = ours
    assert (capital_fr.content, signed_hi.content) == (theirs[0].content, theirs[1].content)
    assert retried(missing) and retried(theirs[3])  # refused before it is sent to the server
    # MCP has one error flag: the tool's ModelRetry comes back as a failed result, same words
    assert retried(theirs[2]) and failed(unknown) and not retried(unknown)
    assert "unknown country 'XX', use an ISO code" in str(unknown.content)
    assert failed(crashed[0]) and "ValueError: x" in str(crashed[0].content)
