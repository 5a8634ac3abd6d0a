"""with_formatted_output: failures as data, applied once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

from standard_tool import Tool, acall, call, input_json_schema, tool, with_formatted_output
from standard_tool.adapters import WrapperTool
from standard_tool.exceptions import ToolTimeoutError
from standard_tool.testing import within


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


# -- hostile tools: every failure comes back as data ---------------------------------------


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message")


def _loop() -> list[Any]:
    value: list[Any] = []
    value.append(value)
    return value


def _deep() -> list[Any]:
    value: list[Any] = []
    for _ in range(10_000):
        value = [value]
    return value


HOSTILE_RESULTS: dict[str, Callable[[], Any]] = {
    "loop": _loop,
    "deep": _deep,
    "bytes": lambda: b"\xff",
    "nan": lambda: float("nan"),
}


@tool
def hostile(kind: str) -> Any:
    """Misbehaves on request."""
    if kind == "unprintable":
        raise Unprintable
    if kind == "exit":
        raise SystemExit(2)
    return HOSTILE_RESULTS[kind]()


@tool
async def ahostile(kind: str) -> Any:
    """Misbehaves on request, asynchronously."""
    if kind == "exit":
        raise SystemExit(2)
    if kind == "interrupt":
        raise KeyboardInterrupt
    return HOSTILE_RESULTS[kind]()


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("unprintable", "Tool 'hostile' failed: Unprintable (its message cannot be read)"),
        ("exit", "Tool 'hostile' failed: SystemExit: 2"),
        ("loop", "Invalid output for tool 'hostile'"),
        ("deep", "Invalid output for tool 'hostile'"),
        ("bytes", "Invalid output for tool 'hostile'"),
        ("nan", "Invalid output for tool 'hostile'"),
    ],
)
def test_hostile_sync_tool_gives_error_data(kind: str, expected: str) -> None:
    wrapped = with_formatted_output(hostile)
    result = within(10, call, wrapped, {"kind": kind})
    assert set(result) == {"error"} and result["error"].startswith(expected)
    assert "Traceback" not in result["error"]
    assert within(10, asyncio.run, acall(wrapped, {"kind": kind}))["error"].startswith(expected)


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("exit", "Tool 'ahostile' failed: SystemExit: 2"),
        ("interrupt", "Tool 'ahostile' failed: KeyboardInterrupt"),
        ("loop", "Invalid output for tool 'ahostile'"),
        ("deep", "Invalid output for tool 'ahostile'"),
        ("bytes", "Invalid output for tool 'ahostile'"),
    ],
)
def test_hostile_async_tool_gives_error_data(kind: str, expected: str) -> None:
    wrapped = with_formatted_output(ahostile)
    assert within(10, call, wrapped, {"kind": kind})["error"].startswith(expected)
    assert within(10, asyncio.run, acall(wrapped, {"kind": kind}))["error"].startswith(expected)
    assert within(10, call, adivide, {"a": 1, "b": 2}) == 0.5  # the shared loop still works


def test_a_timeout_gives_error_data() -> None:
    @tool(timeout=0.2)
    async def slow() -> str:
        """Slow."""
        await asyncio.sleep(5)
        return "late"

    wrapped = with_formatted_output(slow)
    assert within(10, call, wrapped, {}) == {
        "error": "Tool 'slow' failed: no result within 0.2 s (timed out)"
    }


@tool
async def asleep(seconds: float) -> str:
    """Sleep, asynchronously."""
    await asyncio.sleep(seconds)
    return "woke"


@tool
def sleep(seconds: float) -> str:
    """Sleep."""
    time.sleep(seconds)
    return "woke"


@pytest.mark.parametrize("subject", [asleep, sleep], ids=["async", "sync"])
def test_a_timeout_given_to_the_call_gives_error_data(subject: Tool) -> None:
    expected = {"error": f"Tool {subject.name!r} failed: no result within 0.2 s (timed out)"}
    wrapped = with_formatted_output(subject)
    started = time.monotonic()
    assert within(10, lambda: call(wrapped, {"seconds": 5}, timeout=0.2)) == expected
    assert within(10, asyncio.run, acall(wrapped, {"seconds": 5}, timeout=0.2)) == expected
    assert time.monotonic() - started < 4  # neither call waited for the tool
    assert call(wrapped, {"seconds": 0}, timeout=5) == "woke"  # in time: the result


def test_a_plain_wrapper_still_raises_the_timeout() -> None:
    wrapped = WrapperTool(asleep)
    with pytest.raises(ToolTimeoutError, match="'asleep' failed: no result within 0.2 s") as raised:
        within(10, lambda: call(wrapped, {"seconds": 5}, timeout=0.2))
    assert raised.value.__cause__ is None and raised.value.__suppress_context__
