"""Per-call cost of a converted tool against Haystack's native function ``Tool``, and
conversion time.

Run ``python benchmarks/haystack_bench.py`` with standard-tool-haystack installed. Each call is
the Agent's tool step for one model's tool call, as ``Agent.run`` / ``run_async`` make it:
``_run_tool`` / ``_run_tool_async`` (Haystack's own) with the pending call message and the
run's ``State``: the call resolved, its arguments prepared, the tool invoked on the step's
worker thread (or awaited) with its span, its result made the tool message. The rows
"invoke alone" time ``Tool.invoke(**arguments)`` by itself, for scale: Haystack's own tool
checks nothing there (about 0.3 µs), a converted one validates the input.
"""

from __future__ import annotations

import asyncio
import types
import typing
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from haystack.components.agents.state.state import State
from haystack.components.agents.tool_calling import _run_tool, _run_tool_async
from haystack.dataclasses import ChatMessage, ToolCall
from haystack.tools.from_function import create_tool_from_function
from haystack.tools.tool import Tool

import standard_tool as st
from standard_tool_haystack import to_haystack

from _timing import (
    SCHEMA,
    aadd,
    acompare,
    add,
    conversions,
    native_reference,
    pair_us,
    ratio_row,
    schema_tool,
)

REPEAT = 7
ROUNDS = 50
ARGUMENTS = {"a": 2, "b": 3}
WIDTH = 44
PENDING = [ChatMessage.from_assistant(tool_calls=[ToolCall("add", dict(ARGUMENTS), id="c1")])]


def _resolved(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A copy of ``fn`` with its annotations evaluated: ``_timing`` postpones them (text), which
    Haystack would resolve again on every call of its own tool (``get_type_hints``); the
    native side is timed as for a module that does not."""
    assert isinstance(fn, types.FunctionType)
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__)
    copy.__doc__, copy.__annotations__ = fn.__doc__, typing.get_type_hints(fn)
    return copy


NATIVE_ADD = _resolved(add)
NATIVE_AADD = _resolved(aadd)


def _state() -> State:
    return State(schema={"messages": {"type": list[ChatMessage]}})


def _native_async() -> Tool:
    return Tool(
        name="add", description="Add two integers.", parameters=SCHEMA, async_function=NATIVE_AADD
    )


def _result(messages: Any) -> bool:
    [message] = messages[0]
    result = message.tool_call_result
    return result is not None and not result.error and result.result == "5"


async def calls(number: int = 50) -> None:
    state = _state()

    async def step(tool: Tool) -> Any:
        return _run_tool(messages=PENDING, state=state, tools=[tool], raise_on_failure=False)

    async def astep(tool: Tool) -> Any:
        return await _run_tool_async(
            messages=PENDING, state=state, tools=[tool], raise_on_failure=False
        )

    await acompare(
        [
            (
                "run step, sync function",
                create_tool_from_function(NATIVE_ADD),
                to_haystack(st.tool(add)),
            ),
            (
                "run step, raw JSON Schema tool",
                create_tool_from_function(NATIVE_ADD),
                to_haystack(schema_tool()),
            ),
        ],
        step,
        _result,
        number=number,
        rounds=ROUNDS,
        width=WIDTH,
    )
    await acompare(
        [
            (
                "run_async step, async function",
                _native_async(),
                to_haystack(st.tool(aadd, name="add")),
            ),
            (
                "run_async step, sync function",
                create_tool_from_function(NATIVE_ADD),
                to_haystack(st.tool(add)),
            ),
        ],
        astep,
        _result,
        number=number,
        rounds=ROUNDS,
        width=WIDTH,
    )
    native, ours = create_tool_from_function(NATIVE_ADD), to_haystack(st.tool(add))
    sides = pair_us(
        lambda: native.invoke(**ARGUMENTS), lambda: ours.invoke(**ARGUMENTS), number=2000, rounds=20
    )
    print(ratio_row("invoke alone (no Agent step), for scale", *sides, width=WIDTH))


def convert(tools: list[Any], declare: bool) -> None:
    """``to_haystack`` each tool, then (``declare``) its ``tool_spec``, as a chat generator
    reads it to send the model its tools."""
    for each in tools:
        native = to_haystack(each)
        if declare:
            _ = native.tool_spec


if __name__ == "__main__":
    print(
        f"haystack-ai {version('haystack-ai')}; "
        f"per call: min / median of {ROUNDS} alternating rounds; conversions: of {REPEAT} runs"
    )
    asyncio.run(calls())
    conversions(convert, shown="tool_spec", width=48)
    native_reference(
        "create_tool_from_function + tool_spec",
        lambda n: [create_tool_from_function(add).tool_spec for _ in range(n)],
        width=48,
    )
