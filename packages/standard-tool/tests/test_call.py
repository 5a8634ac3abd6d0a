"""call() and acall(): any conforming tool, sync or async, inside or outside a running loop."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
import threading
import time
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

import pytest

from standard_tool import Tool, ToolValidationError, acall, call, jsonable, tool
from standard_tool.exceptions import NotJsonError, ToolExecutionError
from standard_tool.testing import within


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
        """Where."""
        loops.append(asyncio.get_running_loop())
        return len(loops)

    call(where, {})
    call(where, {})
    assert loops[0] is loops[1]


def test_nested_sync_calls_from_an_async_tool_do_not_deadlock() -> None:
    @tool
    async def outer(n: int) -> int:
        """Outer."""
        total: int = call(async_add, {"a": n, "b": 1})  # a sync call made on the background loop
        return total

    assert call(outer, {"n": 1}) == 2


async def test_acall_runs_sync_tools_off_the_loop() -> None:
    ticks = []

    @tool
    def blocking() -> str:
        """Blocking."""
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
        """Nap."""
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
        title = input_schema = output_schema = None
        meta: Mapping[str, Any] = {}

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
        """Probe."""
        seen.append((blocked_loop(), asyncio.get_running_loop()))

    call(probe, {})  # no loop in this thread: nothing is blocked

    async def main() -> asyncio.AbstractEventLoop:
        call(probe, {})  # this thread's loop is blocked while probe runs
        await acall(probe, {})  # nothing is blocked
        return asyncio.get_running_loop()

    caller = asyncio.run(main())
    assert [blocked for blocked, _ in seen] == [None, caller, None]
    assert seen[0][1] is background_loop() and seen[1][1] is background_loop()


# -- tools that raise BaseException ----------------------------------------------------------


def _raiser(exc: BaseException, *, is_async: bool) -> Tool:
    if is_async:

        async def run(input: Any) -> Any:
            await asyncio.sleep(0)
            raise exc

    else:

        def run(input: Any) -> Any:  # type: ignore[misc]
            raise exc

    return Tool(name="argv", description="Parses arguments.", execute=run)


BASE_EXCEPTIONS = [SystemExit(2), KeyboardInterrupt(), SystemExit("usage: argv [-h]")]
BASE_IDS = ["exit-2", "interrupt", "exit-text"]


@pytest.mark.parametrize("exc", BASE_EXCEPTIONS, ids=BASE_IDS)
@pytest.mark.parametrize("is_async", [True, False], ids=["async", "sync"])
def test_base_exceptions_from_call_are_typed_errors(exc: BaseException, is_async: bool) -> None:
    with pytest.raises(ToolExecutionError) as raised:
        within(10, call, _raiser(exc, is_async=is_async), {})
    expected = type(exc).__name__ + (f": {exc}" if str(exc) else "")
    assert str(raised.value) == f"Tool 'argv' failed: {expected}"
    assert raised.value.tool == "argv" and raised.value.__cause__ is exc
    # the shared loop survived: every later call of an async tool still works
    assert within(10, call, async_add, {"a": 1, "b": 2}) == 3
    assert within(10, call, async_add, {"a": 2, "b": 2}) == 4


@pytest.mark.parametrize("exc", BASE_EXCEPTIONS, ids=BASE_IDS)
@pytest.mark.parametrize("is_async", [True, False], ids=["async", "sync"])
def test_base_exceptions_from_acall_are_typed_errors(exc: BaseException, is_async: bool) -> None:
    async def main() -> Any:
        with pytest.raises(ToolExecutionError) as raised:
            await acall(_raiser(exc, is_async=is_async), {})
        return raised.value, await acall(async_add, {"a": 1, "b": 1})

    error, after = within(10, asyncio.run, main())
    assert error.tool == "argv" and type(exc).__name__ in str(error) and after == 2


def test_sync_call_inside_a_running_loop_survives_system_exit() -> None:
    async def main() -> Any:
        with pytest.raises(ToolExecutionError, match="SystemExit: 2"):
            call(_raiser(SystemExit(2), is_async=True), {})
        return call(async_add, {"a": 1, "b": 1})

    assert within(10, asyncio.run, main()) == 2


def test_nested_sync_call_on_the_shared_loop_survives_system_exit() -> None:
    @tool
    async def outer() -> str:
        """Outer."""
        try:
            call(_raiser(SystemExit(3), is_async=True), {})
        except ToolExecutionError as error:
            return str(error)
        return "no error"

    assert within(10, call, outer, {}) == "Tool 'argv' failed: SystemExit: 3"
    assert within(10, call, async_add, {"a": 1, "b": 1}) == 2


@pytest.mark.parametrize("exc", BASE_EXCEPTIONS, ids=BASE_IDS)
def test_run_sync_reraises_base_exceptions_and_the_loop_survives(exc: BaseException) -> None:
    from standard_tool import run_sync

    async def fails() -> None:
        await asyncio.sleep(0)
        raise exc

    async def works() -> str:
        return "ok"

    with pytest.raises(type(exc)):
        within(10, run_sync, fails())
    assert within(10, run_sync, works()) == "ok"


def test_the_shared_loop_survives_a_callback_that_exits() -> None:
    from standard_tool import background_loop, run_sync

    background_loop().call_soon_threadsafe(sys.exit, 4)  # not a task: it stops run_forever

    async def works() -> str:
        return "ok"

    assert within(10, run_sync, works()) == "ok"


def test_cancellation_is_not_swallowed() -> None:
    @tool
    async def cancelled() -> None:
        """Cancelled."""
        raise asyncio.CancelledError

    async def main() -> None:
        await acall(cancelled, {})

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(main())


# -- hostile exceptions and outputs ----------------------------------------------------------


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message for you")


@pytest.mark.parametrize("runner", ["call", "acall"])
def test_an_exception_whose_str_raises_is_described_safely(runner: str) -> None:
    @tool
    def rude() -> None:
        """Rude."""
        raise Unprintable

    with pytest.raises(ToolExecutionError) as raised:
        if runner == "call":
            call(rude, {})
        else:
            asyncio.run(acall(rude, {}))
    assert str(raised.value) == "Tool 'rude' failed: Unprintable (its message cannot be read)"
    assert isinstance(raised.value.__cause__, Unprintable)


def _self_containing() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def _twice_self_containing() -> list[Any]:
    loop: list[Any] = []
    loop.extend([loop, loop])
    return loop


RETURNED: dict[str, Callable[[], Any]] = {
    "loop": _self_containing,
    "loop2": _twice_self_containing,
    "bytes": lambda: b"\xff",
    "nan": lambda: {"x": [float("nan")]},
    "deep": lambda: _nested(10_000),
}


@tool
def returns_any(kind: str) -> Any:
    """Returns a hostile value."""
    return RETURNED[kind]()


@tool
def returns_list() -> list:  # type: ignore[type-arg]
    """Returns a list nested 10,000 deep."""
    return _nested(10_000)


@tool
def returns_bytes() -> bytes:
    """Returns bytes that are not UTF-8."""
    return b"\xff"


@tool
def returns_float() -> float:
    """Returns NaN."""
    return float("nan")


UNSERIALIZABLE = [
    (returns_any, {"kind": "loop"}),
    (returns_any, {"kind": "loop2"}),
    (returns_any, {"kind": "bytes"}),
    (returns_any, {"kind": "nan"}),
    (returns_any, {"kind": "deep"}),
    (returns_list, {}),
    (returns_bytes, {}),
    (returns_float, {}),
]
UNSERIALIZABLE_IDS = [
    "loop",
    "loop-twice",
    "bytes-any",
    "nan-any",
    "deep-any",
    "deep-list",
    "bytes",
    "nan",
]


@pytest.mark.parametrize(("subject", "args"), UNSERIALIZABLE, ids=UNSERIALIZABLE_IDS)
def test_outputs_that_are_not_json_are_typed_errors(subject: Tool, args: dict[str, Any]) -> None:
    with pytest.raises(ToolValidationError) as raised:
        within(10, call, subject, args)
    assert (raised.value.tool, raised.value.target) == (subject.name, "output")
    assert str(raised.value).startswith(f"Invalid output for tool {subject.name!r}")
    with pytest.raises(ToolValidationError):
        within(10, asyncio.run, acall(subject, args))


def test_a_raw_output_schema_check_is_not_repeated(monkeypatch: pytest.MonkeyPatch) -> None:
    import standard_tool.run._call
    from standard_tool.schema._json import json_issues

    walked: list[Any] = []

    def counted(value: Any, *, convert: bool = False) -> Any:
        walked.append(value)
        return json_issues(value, convert=convert)

    monkeypatch.setattr(standard_tool.run._call, "json_issues", counted)
    results: list[Any] = [{"a": [1]}, {"a": float("nan")}, {"a": [{1, 2}]}, {"a": {1: 2}}]
    held = Tool(
        name="held",
        description="d",
        output_schema={"type": "object"},
        execute=lambda i: results[i["n"]],
    )
    free = Tool(name="free", description="d", execute=lambda i: results[i["n"]])
    assert call(held, {"n": 0}) == {"a": [1]} and walked == []
    assert call(free, {"n": 0}) == {"a": [1]} and len(walked) == 1
    for n in (1, 2, 3):
        with pytest.raises(ToolValidationError) as raised:
            call(held, {"n": n})  # refused by the tool's own output check
        assert raised.value.target == "output"


def test_outputs_that_serialize_to_json_pass() -> None:
    import datetime
    import enum

    from pydantic import BaseModel

    class Colour(enum.Enum):
        RED = "red"

    class Point(BaseModel):
        x: int

    values = [
        Point(x=1),
        datetime.date(2024, 1, 2),
        Colour.RED,
        {"a": (1, 2), "b": {1, 2}, "c": b"ok", 3: "int key"},
        _nested(200),
    ]
    for value in values:
        holder = Tool(name="holder", description="d", execute=(lambda v: lambda input: v)(value))
        assert call(holder, {}) is value


# -- common mistakes ---------------------------------------------------------------------------


def multiply(a: int, b: int) -> int:
    """Multiply."""
    return a * b


def test_calling_a_plain_function_is_a_usage_error() -> None:
    from standard_tool import UsageError

    with pytest.raises(UsageError) as raised:
        call(multiply, {"a": 1, "b": 2})  # type: ignore[arg-type]
    text = str(raised.value)
    assert "function 'multiply'" in text and "st.tool(multiply)" in text
    with pytest.raises(UsageError, match="st.tool"):
        asyncio.run(acall(multiply, {"a": 1, "b": 2}))  # type: ignore[arg-type]


def test_calling_a_foreign_tool_object_is_a_usage_error() -> None:
    from standard_tool import UsageError

    class FrameworkTool:
        name = "multiply"

        def invoke(self, input: Any) -> Any:
            return input

    with pytest.raises(UsageError) as raised:
        call(FrameworkTool(), {})  # type: ignore[arg-type]
    assert "FrameworkTool 'multiply'" in str(raised.value) and "st.adopt" in str(raised.value)


def test_an_attribute_error_inside_a_tool_is_still_a_tool_failure() -> None:
    @tool
    def broken() -> None:
        """Broken."""
        _ = None.missing  # type: ignore[attr-defined]

    with pytest.raises(ToolExecutionError, match="AttributeError"):
        call(broken, {})


# -- timeouts ----------------------------------------------------------------------------------


@tool
async def async_nap(seconds: float) -> str:
    """Sleep, asynchronously."""
    await asyncio.sleep(seconds)
    return "awake"


@tool
def sync_nap(seconds: float) -> str:
    """Sleep, blocking."""
    time.sleep(seconds)
    return "awake"


@pytest.mark.parametrize("subject", [async_nap, sync_nap], ids=["async", "sync"])
def test_call_timeout(subject: Tool) -> None:
    from standard_tool.exceptions import ToolTimeoutError

    start = time.monotonic()
    with pytest.raises(ToolTimeoutError) as raised:
        within(10, lambda: call(subject, {"seconds": 5}, timeout=0.2))
    assert time.monotonic() - start < 3
    error = raised.value
    assert isinstance(error, ToolExecutionError)
    assert (error.tool, error.seconds) == (subject.name, 0.2)
    assert str(error) == f"Tool {subject.name!r} failed: no result within 0.2 s (timed out)"
    assert within(10, lambda: call(subject, {"seconds": 0}, timeout=5)) == "awake"


@pytest.mark.parametrize("subject", [async_nap, sync_nap], ids=["async", "sync"])
def test_acall_timeout(subject: Tool) -> None:
    from standard_tool.exceptions import ToolTimeoutError

    async def main() -> Any:
        with pytest.raises(ToolTimeoutError, match="within 0.2 s"):
            await acall(subject, {"seconds": 5}, timeout=0.2)
        return await acall(subject, {"seconds": 0}, timeout=5)

    start = time.monotonic()
    assert within(10, asyncio.run, main()) == "awake"
    assert time.monotonic() - start < 4


def test_a_tool_declares_its_own_timeout() -> None:
    from standard_tool.exceptions import ToolTimeoutError

    @tool(timeout=0.2)
    async def slow() -> str:
        """Slow."""
        await asyncio.sleep(5)
        return "late"

    assert slow.timeout == 0.2
    with pytest.raises(ToolTimeoutError, match="'slow' failed: no result within 0.2 s"):
        within(10, call, slow, {})
    with pytest.raises(ToolTimeoutError):
        within(10, asyncio.run, acall(slow, {}))
    explicit = Tool(name="explicit", description="d", execute=lambda input: "x", timeout=3)
    assert explicit.timeout == 3 and call(explicit, {}) == "x"
    assert add.timeout is None


def test_any_conforming_tool_may_declare_a_timeout() -> None:
    from standard_tool.exceptions import ToolTimeoutError

    def execute(input: Any, context: Any = None) -> str:
        time.sleep(5)
        return "late"

    plain = SimpleNamespace(name="plain", description="d", timeout=0.2, execute=execute)
    with pytest.raises(ToolTimeoutError, match="within 0.2 s"):
        within(10, call, plain, {})


def test_an_explicit_timeout_overrides_the_tools() -> None:
    @tool(timeout=0.1)
    async def nap() -> str:
        """Nap."""
        await asyncio.sleep(0.3)
        return "awake"

    assert within(10, lambda: call(nap, {}, timeout=5)) == "awake"


def test_an_async_tool_that_ignores_cancellation_times_out() -> None:
    from standard_tool.exceptions import ToolTimeoutError

    @tool
    async def stubborn() -> str:
        """Stubborn."""
        for _ in range(30):
            try:
                await asyncio.sleep(0.1)
            except asyncio.CancelledError:
                pass
        return "finally"

    with pytest.raises(ToolTimeoutError):
        within(10, lambda: call(stubborn, {}, timeout=0.2))

    async def main() -> None:
        await acall(stubborn, {}, timeout=0.2)

    with pytest.raises(ToolTimeoutError):
        within(10, asyncio.run, main())


def test_an_async_tool_blocking_the_shared_loop_times_out_and_later_calls_work() -> None:
    from standard_tool.exceptions import ToolTimeoutError

    @tool
    async def hog() -> str:
        """Hog."""
        time.sleep(3)  # blocks the event loop it runs on
        return "done"

    with pytest.raises(ToolTimeoutError):
        within(10, lambda: call(hog, {}, timeout=0.2))
    assert within(2, call, async_add, {"a": 1, "b": 1}) == 2


@pytest.mark.parametrize("bad", [0, -1, float("nan"), "5", True])
def test_a_bad_timeout_is_a_usage_error(bad: Any) -> None:
    from standard_tool import UsageError

    with pytest.raises(UsageError, match="timeout"):
        call(add, {"a": 1, "b": 1}, timeout=bad)
    with pytest.raises(UsageError, match="timeout"):
        tool(timeout=bad)(multiply)


def test_a_timeout_keeps_context_variables() -> None:
    import contextvars

    var: contextvars.ContextVar[str] = contextvars.ContextVar("var", default="unset")

    @tool
    def read() -> str:
        """Read."""
        return var.get()

    var.set("set")
    assert call(read, {}, timeout=5) == "set"
    assert asyncio.run(acall(read, {}, timeout=5)) == "set"


def test_media_with_a_mime_type_is_a_serializable_output() -> None:
    from standard_tool import jsonable

    @dataclasses.dataclass(frozen=True)
    class Picture:
        data: bytes
        mime_type: str

    picture = Picture(b"\x89PNG\r\n\x1a\n\xff", "image/png")
    shows = Tool(name="shows", description="d", execute=lambda input: [picture, {"n": 1}])
    assert call(shows, {}) == [picture, {"n": 1}]  # adapters present media as binary content
    assert jsonable([picture, {"n": 1}]) == [
        {"data": "iVBORw0KGgr/", "mime_type": "image/png"},
        {"n": 1},
    ]
    bare = Tool(name="bare", description="d", execute=lambda input: {"raw": b"\xff"})
    with pytest.raises(ToolValidationError, match="raw: cannot be serialized as JSON"):
        call(bare, {})


def test_a_declared_timeout_of_another_tool_gets_a_margin() -> None:
    from standard_tool.exceptions import ToolTimeoutError

    async def execute(input: Any, context: Any = None) -> str:
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            raise
        return "late"

    async def enforcing(input: Any, context: Any = None) -> str:
        try:
            return await asyncio.wait_for(asyncio.sleep(5, "late"), 0.2)
        except asyncio.TimeoutError:
            raise ToolExecutionError("own", "no answer within 0.2 s, in its own words") from None

    plain = SimpleNamespace(name="plain", description="d", timeout=0.2, execute=execute)
    start = time.monotonic()
    with pytest.raises(ToolTimeoutError, match="'plain' failed: no result within 0.2 s"):
        within(10, call, plain, {})
    assert 0.6 <= time.monotonic() - start < 3  # 0.2 s and the half-second margin
    own = SimpleNamespace(name="own", description="d", timeout=0.2, execute=enforcing)
    with pytest.raises(ToolExecutionError, match="in its own words"):
        within(10, call, own, {})
    with pytest.raises(ToolExecutionError, match="in its own words"):
        within(10, asyncio.run, acall(own, {}))


def test_a_tool_that_bounds_itself_runs_in_the_callers_task() -> None:
    from standard_tool import UsageError
    from standard_tool.adapters import WrapperTool
    from standard_tool.exceptions import ToolTimeoutError

    class Bounded(WrapperTool):
        _bounds_itself = True  # its arun ends every call at its timeout itself
        is_async = True
        timeout = 0.2

        async def arun(self, input: Any, context: Any) -> Any:
            task = asyncio.current_task()
            await asyncio.sleep(input["seconds"])
            return {"same task": task is outer}

    bounded = Bounded(async_add)
    outer: asyncio.Task[Any] | None = None

    async def main(**options: Any) -> Any:
        nonlocal outer
        outer = asyncio.current_task()
        return await acall(bounded, {"seconds": 0.01}, **options)

    assert within(10, asyncio.run, main()) == {"same task": True}  # no task of acall's own
    assert within(10, asyncio.run, main(timeout=5)) == {"same task": False}  # acall bounds it
    with pytest.raises(ToolTimeoutError):  # a timeout given to acall still holds
        within(10, asyncio.run, acall(bounded, {"seconds": 5}, timeout=0.2))
    bounded.timeout = -1
    with pytest.raises(UsageError, match="timeout"):  # still checked
        within(10, asyncio.run, main())


def test_a_ctrl_c_while_waiting_is_the_callers_not_the_tools() -> None:
    import signal

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("a Ctrl-C reaches the main thread only")
    main = threading.main_thread().ident
    assert main is not None
    timer = threading.Timer(0.2, signal.pthread_kill, (main, signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call(async_nap, {"seconds": 5})  # the caller waits; Ctrl-C arrives meanwhile
    finally:
        timer.cancel()
    assert time.monotonic() - start < 3
    assert call(async_add, {"a": 1, "b": 1}) == 2


def test_an_iterator_returned_without_an_output_schema_is_refused_unread() -> None:
    read: list[int] = []

    def counting(n: int):  # type: ignore[no-untyped-def]
        """Count up to n."""
        for i in range(n):
            read.append(i)
            yield i

    subject = tool(counting)
    for run in (lambda: call(subject, {"n": 3}), lambda: asyncio.run(acall(subject, {"n": 3}))):
        with pytest.raises(ToolValidationError) as raised:
            within(10, run)
        assert (raised.value.tool, raised.value.target) == ("counting", "output")
        assert "is not JSON data (generator" in str(raised.value)
        assert "iterator" in str(raised.value)
    assert read == []  # nothing was consumed, nothing answered as []
    holder = Tool(name="holder", description="d", execute=lambda input: iter([1, 2]))
    with pytest.raises(ToolValidationError, match=r"not JSON data \(list_iterator"):
        call(holder, {})
    with pytest.raises(NotJsonError, match="iterator"):
        jsonable({"items": (i for i in range(2))})
