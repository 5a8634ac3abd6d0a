"""A call checked once (``standard_tool.adapters.accepting``, ``accepting_json``,
``call_accepted``, ``acall_accepted``): the input is refused or accepted exactly as the tool's
own ``execute`` refuses or accepts it, the call then ends exactly as ``call``/``acall`` end
(result, typed errors, time limits, context kept out of messages), and the tool's check is not
run a second time."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings, strategies as hs
from pydantic import AfterValidator, BaseModel, Field

import standard_tool as st
from standard_tool.adapters import (
    Accepted,
    WrapperTool,
    acall_accepted,
    accepting,
    accepting_json,
    call_accepted,
)
from standard_tool.exceptions import (
    ToolExecutionError,
    ToolTimeoutError,
    ToolValidationError,
)
from standard_tool.run._accepted import NOT_READ, calling_json
from standard_tool.schema._json import is_json_data
from standard_tool.tools._execution import keywords_validator

CHECKS: list[int] = []


def _counted(value: int) -> int:
    CHECKS.append(value)
    return value


Counted = Annotated[int, AfterValidator(_counted)]


@st.tool
def add(a: Counted, b: int = 1) -> int:
    """Add."""
    return a + b


@st.tool
async def add_async(a: Counted, b: int = 1) -> int:
    """Add."""
    await asyncio.sleep(0)
    return a + b


RAW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a"],
    "additionalProperties": False,
}
raw = st.Tool(
    name="raw",
    description="Add.",
    input_schema=RAW_SCHEMA,
    execute=lambda v: v["a"] + v.get("b", 1),
)

open_raw = st.Tool(name="open", description="Echo.", input_schema={"type": "object"}, execute=len)


@st.tool
def echo(a: Any = None, b: Any = None, c: Any = None) -> Any:
    """Echo any JSON."""
    return [a, b, c]


ANY_JSON = [add, raw, open_raw, echo]


def accept(tool: Any) -> Callable[[Any], Accepted]:
    check = accepting(tool)
    assert check is not None
    return check


def accept_json(tool: Any) -> Callable[[Any], Accepted | None]:
    check = accepting_json(tool)
    assert check is not None
    return check


def run(tool: Any, accepted: Accepted, how: str, **options: Any) -> Any:
    if how == "call":
        return call_accepted(tool, accepted, **options)
    return asyncio.run(_awaited(acall_accepted(tool, accepted, **options)))


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


@pytest.mark.parametrize("how", ["call", "acall"])
@pytest.mark.parametrize("tool", [add, add_async, raw], ids=["sync", "async", "raw"])
def test_the_check_runs_once_and_the_result_is_calls(tool: st.Tool, how: str) -> None:
    CHECKS.clear()
    accepted = accept(tool)({"a": 2, "b": 3})
    assert run(tool, accepted, how) == 5 == st.call(tool, {"a": 2, "b": 3})
    if tool is not raw:
        assert CHECKS == [2, 2]  # once here, once in st.call: never twice for one call


@pytest.mark.parametrize("tool", [add, add_async, raw], ids=["sync", "async", "raw"])
def test_from_json_text_the_check_runs_once(tool: st.Tool) -> None:
    CHECKS.clear()
    accepted = accept_json(tool)('{"a": 2, "b": 3}')
    assert accepted is not None
    assert run(tool, accepted, "acall") == 5
    assert CHECKS == ([] if tool is raw else [2])


@pytest.mark.parametrize(
    "value",
    [
        {"a": "x"},
        {"b": 2},
        {"a": 1, "c": 2},
        {"a": math.inf},
        {"a": 1, "b": {"x": "\ud800"}},
        [1, 2],
        "text",
    ],
)
@pytest.mark.parametrize("tool", [add, add_async, raw], ids=["sync", "async", "raw"])
def test_refusals_are_executes_own(tool: st.Tool, value: Any) -> None:
    with pytest.raises(ToolValidationError) as ours:
        accept(tool)(value)
    with pytest.raises(ToolValidationError) as theirs:
        st.call(tool, value)
    assert str(ours.value) == str(theirs.value)
    assert ours.value.tool == tool.name and ours.value.target == "input"


@pytest.mark.parametrize(
    "text",
    [
        '{"a": NaN}',
        '{"a": 1e400}',
        '{"a": -Infinity}',
        '{"a": 1, "b": "\\ud800"}',
        '{"a": "1"}',
        '{"a": 1, "zz": [' + "[" * 300 + "]" * 300 + "]}",
        '{"a": ' + "9" * 5000 + "}",
        '{"a": 1,}',
        "[1]",
        "",
    ],
)
@pytest.mark.parametrize("tool", ANY_JSON, ids=["function", "raw", "open", "echo"])
def test_hostile_text_is_refused_as_execute_refuses_it(tool: st.Tool, text: str) -> None:
    """What the fast reader refuses is left to the caller (``None``); what it reads is
    refused with execute's own issues, naming no value."""
    try:
        value = json.loads(text)
    except ValueError:
        value = ValueError
    try:
        accepted = accept_json(tool)(text)
    except ToolValidationError as error:
        with pytest.raises(ToolValidationError) as theirs:
            st.call(tool, value)
        assert str(error) == str(theirs.value)
        assert "Traceback" not in str(error) and "1e400" not in str(error)
        return
    if accepted is None:
        return  # read by the caller, with its own words
    assert value is not ValueError and accepted.input == value
    assert run(tool, accepted, "call") == st.call(tool, value)


JSON = hs.recursive(
    hs.none() | hs.booleans() | hs.integers() | hs.floats() | hs.text(),
    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(hs.dictionaries(hs.sampled_from(["a", "b", "c", "é"]), JSON, max_size=3))
def test_json_text_reads_as_json_loads_reads_it(value: dict[str, Any]) -> None:
    """Any object, its text written by ``json.dumps`` (NaN and infinities included): what the
    text is read as equals what ``json.loads`` reads, and the verdict is execute's."""
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False)):
        read = json.loads(text)
        for tool in ANY_JSON:
            try:
                accepted = accept_json(tool)(text)
            except ToolValidationError as error:
                with pytest.raises(ToolValidationError) as theirs:
                    tool.execute(read)
                assert str(error) == str(theirs.value)
                continue
            if accepted is None:
                continue
            assert json.dumps(accepted.input, sort_keys=True) == json.dumps(read, sort_keys=True)
            assert run(tool, accepted, "call") == tool.execute(read)


@pytest.mark.parametrize(
    "text",
    ['{"a": 1}', '{"a": 1e5}', '{"a": "NaN"}', '{"Infinity": 1}', "{" + '"a": 1, ' * 60 + "}"],
)
def test_is_json_data_never_vouches_for_a_number_that_may_not_be_finite(text: str) -> None:
    assert is_json_data(text) == (text == '{"a": 1}')


class Place(BaseModel):
    city: str


def every_kind(
    a: int,
    place: Place,
    b: Annotated[int, Field(gt=0)] = 3,
    tags: list[str] = [],  # noqa: B006 - a mutable default, copied per call as pydantic does
    mode: Literal["x", "y"] = "x",
    note: str | None = None,
) -> dict[str, Any]:
    """Echo."""
    return {"a": a, "city": place.city, "b": b, "tags": tags, "mode": mode, "note": note}


@pytest.mark.parametrize(
    "value",
    [
        {"a": 1, "place": {"city": "P"}},
        {"a": "2", "place": {"city": "P"}, "b": 5, "tags": ["x"], "mode": "y", "note": "n"},
        {"a": 1},
        {"a": 1, "place": {"city": "P"}, "extra": 1},
        {"a": 1, "place": {"city": "P"}, "b": 0},
        {"a": 1.5, "place": {"city": "P"}},
        {"a": True, "place": {"city": 1}},
    ],
)
def test_the_keywords_validator_accepts_what_the_model_accepts(value: dict[str, Any]) -> None:
    tool = st.tool(every_kind)
    schema = tool.input_schema
    assert isinstance(schema, st.PydanticSchema)
    fast = keywords_validator(schema)
    assert fast is not None
    model = schema.validator
    try:
        expected = model.validate_python(value).__dict__
    except ValueError:
        with pytest.raises(ValueError):
            fast(value)
        return
    assert fast(value) == expected
    accepted = accept_json(tool)(json.dumps(value))
    assert accepted is not None
    assert call_accepted(tool, accepted) == st.call(tool, value)


def test_a_mutable_default_is_not_shared_between_calls() -> None:
    tool = st.tool(every_kind)
    first = accept_json(tool)('{"a": 1, "place": {"city": "P"}}')
    second = accept_json(tool)('{"a": 1, "place": {"city": "P"}}')
    assert first is not None and second is not None
    assert first.value["tags"] == [] and first.value["tags"] is not second.value["tags"]


@pytest.mark.parametrize("how", ["call", "acall"])
def test_time_limits_are_calls(how: str) -> None:
    @st.tool(timeout=0.05)
    async def slow(a: int) -> int:
        """Sleep."""
        await asyncio.sleep(5)
        return a

    @st.tool(timeout=0.05)
    def slow_sync(a: int) -> int:
        """Sleep."""
        time.sleep(0.3)
        return a

    for tool in (slow, slow_sync):
        accepted = accept(tool)({"a": 1})
        with pytest.raises(ToolTimeoutError):
            run(tool, accepted, how)
    accepted = accept(add_async)({"a": 1})
    with pytest.raises(ToolTimeoutError):
        run(slow, accept(slow)({"a": 1}), how, timeout=0.01)
    assert run(add_async, accepted, how, timeout=5) == 2


@pytest.mark.parametrize("how", ["call", "acall"])
@pytest.mark.parametrize("is_async", [False, True])
def test_failures_are_typed_and_quote_no_context_value(how: str, is_async: bool) -> None:
    def fails(reason: str, context: Any = None) -> None:
        """Fail."""
        raise ValueError(f"cannot: {reason} with {context['token']}")

    async def fails_async(reason: str, context: Any = None) -> None:
        """Fail."""
        fails(reason, context)

    tool = st.tool(fails_async if is_async else fails, name="fails")
    accepted = accept(tool)({"reason": "x"})
    with pytest.raises(ToolExecutionError) as caught:
        run(tool, accepted, how, context={"token": "s3cret-value"})
    assert caught.value.tool == "fails" and "s3cret-value" not in str(caught.value)
    assert isinstance(caught.value.__cause__, ValueError)


@pytest.mark.parametrize("how", ["call", "acall"])
def test_output_is_checked_as_calls(how: str) -> None:
    @st.tool
    async def wrong(a: int) -> int:
        """Return a string."""
        return "nope"  # type: ignore[return-value]

    @st.tool
    async def not_json(a: int) -> Any:
        """Return an object with no JSON form."""
        return {"a": object()}

    for tool in (wrong, not_json):
        with pytest.raises(ToolValidationError) as caught:
            run(tool, accept(tool)({"a": 1}), how)
        with pytest.raises(ToolValidationError) as theirs:
            st.call(tool, {"a": 1})
        assert caught.value.target == "output" and str(caught.value) == str(theirs.value)


def test_a_tool_that_does_not_split_is_left_to_its_own_execute() -> None:
    """Only a ``Tool`` splits its ``execute``: any other tool, which may check its input
    its own way (or not at all), gets no check here and is called as any tool."""

    class Doubling(WrapperTool):
        def run(self, input: Any, context: Any) -> Any:
            return 2 * st.call(self.wrapped, input, context)

    class Loose:
        name = "loose"
        description = "Echo, unchecked."
        input_schema = RAW_SCHEMA

        def execute(self, input: Any, context: Any = None) -> Any:
            return input

    tools: list[Any] = [Doubling(raw), Loose()]
    for tool in tools:
        assert accepting(tool) is None and accepting_json(tool) is None
    assert accepting(add) is not None and accepting_json(add) is not None


def _fails(a: int, context: Any = None) -> int:
    """Fail, quoting the context."""
    raise SystemExit(f"bye {context}")


async def _later(a: int) -> int:
    """Return the input, from a coroutine."""
    return a


def _returns_awaitable(a: int) -> Any:
    """Return an awaitable from a sync function."""
    return _later(a)


def _garbage(a: int) -> Any:
    """Return what is no JSON data, by the input."""
    return [math.nan, 10**5000, {1, 2}, b"x", "\ud800", {"ok": [a]}][a % 6]


ENDS: list[st.Tool] = [
    add,
    add_async,
    raw,
    open_raw,
    echo,
    st.tool(_fails, name="fails"),
    st.tool(_returns_awaitable, name="returns_awaitable"),
    st.tool(_garbage, name="garbage"),
    st.tool(_later, name="timed_async", timeout=5),
    st.tool(_garbage, name="timed_garbage", timeout=5),
]


def _ended(run: Callable[[], Any]) -> Any:
    """What a call ended as: its result, or its error's type and words."""
    try:
        return ("result", run())
    except Exception as error:
        return (type(error).__name__, str(error))


@pytest.mark.parametrize("timeout", [None, 5.0])
@pytest.mark.parametrize(
    "text",
    [
        '{"a": 2, "b": 3}',
        '{"a": 0}',
        '{"a": 1}',
        '{"a": 4}',
        '{"a": 5}',
        '{"a": "x"}',
        '{"a": NaN}',
        '{"a": 1e400}',
        '{"a": ' + "9" * 5000 + "}",
        '{"a": 1, "zz": [' + "[" * 300 + "]" * 300 + "]}",
        '{"a": 1,}',
        "[1]",
        "",
    ],
)
@pytest.mark.parametrize("tool", ENDS, ids=[tool.name for tool in ENDS])
def test_read_checked_and_called_at_once_ends_as_in_two_steps(
    tool: st.Tool, text: str, timeout: float | None
) -> None:
    """``calling_json`` (the providers' sync call) reads, checks and calls in one frame; every
    call ends as the two steps end it: the same result, the same typed error and words,
    the same text left to the caller."""
    call_json = calling_json(tool)
    assert call_json is not None
    context = {"token": "s3cret-value"}
    at_once = _ended(lambda: call_json(text, context, timeout))

    def in_two_steps() -> Any:
        accepted = accept_json(tool)(text)
        return (
            NOT_READ
            if accepted is None
            else call_accepted(tool, accepted, context, timeout=timeout)
        )

    assert at_once == _ended(in_two_steps)
    assert "s3cret-value" not in repr(at_once) and "Traceback" not in repr(at_once)
