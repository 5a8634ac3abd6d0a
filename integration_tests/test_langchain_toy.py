"""LangChain and the toy third-party plugin, converted into each other through the registry."""

from __future__ import annotations

import json

from langchain_core.tools import StructuredTool

from standard_tool import convert, input_json_schema, tool
from standard_tool_toy import ToyTool, run_tool_call


def divide(a: float, b: float) -> float:
    """Divide a by b.

    Args:
        a: The dividend.
        b: The divisor.
    """
    return a / b


def test_a_langchain_tool_runs_in_the_toy_runtime() -> None:
    native = StructuredTool.from_function(divide, parse_docstring=True)
    toy = convert(native, to="toy")
    assert isinstance(toy, ToyTool)
    assert run_tool_call(toy, json.dumps({"a": 6, "b": 3})) == (True, "2.0")
    ok, text = run_tool_call(toy, json.dumps({"a": 1, "b": 0}))
    assert not ok and "divide" in text and "Traceback" not in text


def test_a_toy_tool_runs_as_a_langchain_tool() -> None:
    toy = convert(tool(divide), to="toy")
    native = convert(toy, to="langchain")
    assert native.tool_call_schema == toy.parameters == input_json_schema(tool(divide))
    message = native.invoke({"type": "tool_call", "name": "divide", "args": {"a": 1}, "id": "c"})
    assert message.status == "error" and "b" in message.content
    message = native.invoke(
        {"type": "tool_call", "name": "divide", "args": {"a": 9, "b": 3}, "id": "c"}
    )
    assert message.artifact == 3.0 and message.content == "3.0"
