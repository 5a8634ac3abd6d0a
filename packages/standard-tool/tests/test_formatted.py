"""with_formatted_output: failures as data, applied once."""

from __future__ import annotations

import asyncio
from typing import Any

from standard_tool import acall, call, input_json_schema, tool, with_formatted_output


@tool(title="Divide", meta={"read_only": True})
def divide(a: float, b: float) -> float:
    """Divide a by b."""
    return a / b


@tool
async def adivide(a: float, b: float) -> float:
    """Divide a by b, asynchronously."""
    return a / b


def test_success_passes_through_and_definition_is_kept() -> None:
    wrapped = with_formatted_output(divide)
    assert call(wrapped, {"a": 1, "b": 4}) == 0.25
    assert (wrapped.name, wrapped.title, wrapped.description, dict(wrapped.meta)) == (
        "divide",
        "Divide",
        "Divide a by b.",
        {"read_only": True},
    )
    assert input_json_schema(wrapped) == input_json_schema(divide)


def test_failures_become_error_data() -> None:
    wrapped = with_formatted_output(divide)
    assert call(wrapped, {"a": 1, "b": 0}) == {
        "error": "Tool 'divide' failed: ZeroDivisionError: float division by zero"
    }
    invalid = call(wrapped, {"a": "x"})
    assert set(invalid) == {"error"}
    assert "divide" in invalid["error"] and "a:" in invalid["error"] and "b:" in invalid["error"]


def test_async_tools_stay_async() -> None:
    wrapped = with_formatted_output(adivide)
    assert asyncio.iscoroutinefunction(wrapped.execute)
    assert asyncio.run(acall(wrapped, {"a": 1, "b": 0}))["error"].startswith(
        "Tool 'adivide' failed"
    )


def test_custom_format_and_applied_once() -> None:
    def short(error: Any) -> str:
        return f"ERR {type(error).__name__}"

    once = with_formatted_output(divide, short)
    assert with_formatted_output(once, short) is once
    assert call(once, {"a": 1, "b": 0}) == "ERR ToolExecutionError"
    replaced = with_formatted_output(once)
    assert replaced.tool is divide  # never formatted twice
    assert call(replaced, {"a": 1, "b": 0})["error"].startswith("Tool 'divide'")
