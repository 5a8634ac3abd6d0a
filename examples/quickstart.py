"""Convert the example tools to every installed target, and call them there."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from weather import TOOLS  # noqa: E402

import standard_tool as st  # noqa: E402

CALLS: dict[str, dict[str, Any]] = {
    "get_forecast": {"location": {"city": "Lyon"}, "day": "2026-12-02"},
    "wait_and_echo": {"message": "hello", "seconds": 0.01},
    "multiply": {"a": 6, "b": 7},
}


def through_langchain(example: st.StandardTool, arguments: dict[str, Any]) -> str:
    """A model's tool call, run by LangChain's own runtime."""
    native = st.convert(example, to="langchain")
    message = native.invoke(
        {"type": "tool_call", "name": native.name, "args": arguments, "id": "call-1"}
    )
    return f"ToolMessage(status={message.status!r}, content={message.content!r})"


def through_llama_index(example: st.StandardTool, arguments: dict[str, Any]) -> str:
    """A model's tool call, run by LlamaIndex's own runtime (``call_tool``)."""
    from llama_index.core.tools.calling import call_tool

    output = call_tool(st.convert(example, to="llama-index"), arguments)
    return f"ToolOutput(is_error={output.is_error!r}, content={output.content!r})"


def through_mcp(example: st.StandardTool, arguments: dict[str, Any]) -> str:
    """Served by an MCP server, called by an MCP client session in memory, adopted back."""
    from standard_tool_mcp import connect, to_mcp_server

    with connect(to_mcp_server([example], name="examples")) as tools:
        return json.dumps(st.jsonable(st.call(tools[0], arguments)))


def through_pydantic_ai(example: st.StandardTool, arguments: dict[str, Any]) -> str:
    """A model's tool call, run by a PydanticAI agent (a scripted model: no network)."""
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    native = st.convert(example, to="pydantic-ai")

    def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart(native.name, arguments)])
        return ModelResponse(parts=[TextPart("done")])

    result = Agent(FunctionModel(model), tools=[native]).run_sync("go")
    (reply,) = [
        part
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if part.part_kind == "tool-return"
    ]
    return f"ToolReturnPart(content={json.dumps(st.jsonable(reply.content))})"


RUNTIMES = {
    "langchain": through_langchain,
    "llama-index": through_llama_index,
    "mcp": through_mcp,
    "pydantic-ai": through_pydantic_ai,
}


def main() -> None:
    installed = st.targets()
    print(
        "installed targets:",
        ", ".join(f"{t.name} ({t.distribution} {t.version})" for t in installed),
    )
    for example in TOOLS:
        arguments = CALLS[example.name]
        print(f"\n== {example.name}: {example.description.splitlines()[0]}")
        print("input schema:", json.dumps(st.input_json_schema(example)))
        print("call:", json.dumps(st.jsonable(st.call(example, arguments))))
        for target in installed:
            converted = st.convert(example, to=target.name)
            print(
                f"  -> {target.name}: {type(converted).__module__}.{type(converted).__qualname__}"
            )
            if target.name in RUNTIMES:
                print(f"     called there: {RUNTIMES[target.name](example, arguments)}")
        failed = st.call(st.with_formatted_output(example), {"unexpected": 1})
        print("bad input:", failed["error"].replace("\n", " | "))


if __name__ == "__main__":
    main()
