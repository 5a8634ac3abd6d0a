"""call() and acall(): any conforming tool, sync or async, inside or outside a running loop."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import pytest

from standard_tool import Tool, ToolValidationError, acall, call, tool
from standard_tool.exceptions import ToolExecutionError


@tool
def add(a: int, b: int) -> int:
    """Add."""
    return a + b


@tool
async def async_add(a: int, b: int) -> int:
    """Add, asynchronously."""
    await asyncio.sleep(0)
    return a + b


@tool
def fail(reason: str, context: Any = None) -> None:
    """Fail."""
    raise ValueError(f"cannot: {reason}")


@dataclasses.dataclass
class DataclassTool:
    name: str = "dc"
    description: str = "A dataclass tool."
    title: str | None = None
    input_schema: Any = None
    output_schema: Any = None
    meta: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def execute(self, input: Any, context: Any = None) -> Any:
        return {"got": input, "context": context}


@pytest.mark.parametrize("subject", [add, async_add], ids=["sync", "async"])
def test_call_outside_a_loop(subject: Tool) -> None:
    assert call(subject, {"a": 1, "b": 2}) == 3


@pytest.mark.parametrize("subject", [add, async_add], ids=["sync", "async"])
async def test_call_inside_a_running_loop(subject: Tool) -> None:
    assert call(subject, {"a": 1, "b": 2}) == 3
    assert await acall(subject, {"a": 2, "b": 2}) == 4


def test_async_tool_keeps_its_loop_between_sync_calls() -> None:
    loops = []

    @tool
    async def where() -> int:
        loops.append(asyncio.get_running_loop())
        return len(loops)

    call(where, {})
    call(where, {})
    assert loops[0] is loops[1]


def test_nested_sync_calls_from_an_async_tool_do_not_deadlock() -> None:
    @tool
    async def outer(n: int) -> int:
        return call(async_add, {"a": n, "b": 1})  # a sync call made on the background loop

    assert call(outer, {"n": 1}) == 2


async def test_acall_runs_sync_tools_off_the_loop() -> None:
    ticks = []

    @tool
    def blocking() -> str:
        time.sleep(0.3)
        return threading.current_thread().name

    async def ticker() -> None:
        for _ in range(5):
            ticks.append(time.monotonic())
            await asyncio.sleep(0.02)

    thread_name, _ = await asyncio.gather(acall(blocking, {}), ticker())
    assert thread_name != threading.current_thread().name
    assert len(ticks) == 5 and ticks[-1] - ticks[0] < 0.25  # the loop kept running


async def test_acall_runs_concurrently() -> None:
    @tool
    async def nap(seconds: float) -> float:
        await asyncio.sleep(seconds)
        return seconds

    start = time.monotonic()
    results = await asyncio.gather(*(acall(nap, {"seconds": 0.2}) for _ in range(10)))
    assert results == [0.2] * 10 and time.monotonic() - start < 1.5


@pytest.mark.parametrize("runner", ["call", "acall"])
def test_failures_become_typed_errors_naming_the_tool(runner: str) -> None:
    secret = {"token": "very-secret"}
    with pytest.raises(ToolExecutionError) as raised:
        if runner == "call":
            call(fail, {"reason": "disk full"}, secret)
        else:
            asyncio.run(acall(fail, {"reason": "disk full"}, secret))
    error = raised.value
    assert error.tool == "fail"
    assert str(error) == "Tool 'fail' failed: ValueError: cannot: disk full"
    assert isinstance(error.__cause__, ValueError)
    assert "very-secret" not in str(error) and "Traceback" not in str(error)


@pytest.mark.parametrize("runner", ["call", "acall"])
def test_validation_errors_pass_through(runner: str) -> None:
    with pytest.raises(ToolValidationError) as raised:
        if runner == "call":
            call(async_add, {"a": "x", "b": 1})
        else:
            asyncio.run(acall(async_add, {"a": "x", "b": 1}))
    assert raised.value.fields == ("a",)


def test_plain_objects_conform() -> None:
    namespace = SimpleNamespace(
        name="ns", description="d", execute=lambda input, context=None: [input, context]
    )
    assert call(namespace, {"x": 1}, "ctx") == [{"x": 1}, "ctx"]
    assert call(DataclassTool(), {"y": 2}) == {"got": {"y": 2}, "context": None}
    assert asyncio.run(acall(DataclassTool(), {"y": 3}, "c")) == {"got": {"y": 3}, "context": "c"}


def test_async_execute_on_a_plain_object() -> None:
    async def execute(input: Any, context: Any = None) -> Any:
        await asyncio.sleep(0)
        return input["v"]

    namespace = SimpleNamespace(name="ans", description="d", execute=execute)
    assert call(namespace, {"v": 7}) == 7
    assert asyncio.run(acall(namespace, {"v": 8})) == 8


def test_acall_prefers_aexecute_of_a_dual_tool() -> None:
    ran = []

    class Dual:
        name = "dual"
        description = "Both ways."

        def execute(self, input: Any, context: Any = None) -> str:
            ran.append("sync")
            return "sync"

        async def aexecute(self, input: Any, context: Any = None) -> str:
            ran.append("async")
            return "async"

    assert call(Dual(), {}) == "sync"
    assert asyncio.run(acall(Dual(), {})) == "async"
    assert ran == ["sync", "async"]


def test_blocked_loop_names_the_loop_a_sync_caller_blocks() -> None:
    from standard_tool import background_loop, blocked_loop

    seen = []

    @tool
    async def probe() -> None:
        seen.append((blocked_loop(), asyncio.get_running_loop()))

    call(probe, {})  # no loop in this thread: nothing is blocked

    async def main() -> asyncio.AbstractEventLoop:
        call(probe, {})  # this thread's loop is blocked while probe runs
        await acall(probe, {})  # nothing is blocked
        return asyncio.get_running_loop()

    caller = asyncio.run(main())
    assert [blocked for blocked, _ in seen] == [None, caller, None]
    assert seen[0][1] is background_loop() and seen[1][1] is background_loop()
