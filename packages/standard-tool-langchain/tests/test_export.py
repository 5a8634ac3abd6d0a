"""Standard tools as LangChain tools, run by LangChain's own runtime."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool

import standard_tool as st
from standard_tool.exceptions import ToolNameError
from standard_tool.testing import SECRET, sample_tools, within
from standard_tool_langchain import METADATA_KEY, to_langchain, to_langchain_tools

PLAIN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1, "description": "City name."},
        "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 1},
        "units": {"enum": ["metric", "imperial"]},
        "at": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
    },
    "required": ["city"],
    "additionalProperties": False,
}


def forecast(input: dict[str, Any]) -> dict[str, Any]:
    return {
        "city": input["city"],
        "days": input.get("days", 1),
        "temps": [20.5] * input.get("days", 1),
    }


def weather_tool() -> st.Tool:
    return st.Tool(
        name="forecast",
        description="Weather forecast.",
        input_schema=PLAIN_SCHEMA,
        execute=forecast,
    )


def add(a: int, b: int = 1) -> int:
    """Add two integers.

    Args:
        a: The first addend.
        b: The second addend.
    """
    return a + b


def call_of(name: str, args: dict[str, Any], id: str = "call_1") -> dict[str, Any]:
    return {"type": "tool_call", "name": name, "args": args, "id": id}


# -- what the model sees ----------------------------------------------------------------


def test_result_is_a_structured_tool_with_the_raw_schema() -> None:
    native = to_langchain(weather_tool())
    assert isinstance(native, StructuredTool)
    assert native.tool_call_schema == PLAIN_SCHEMA
    assert native.args == PLAIN_SCHEMA["properties"]
    assert native.func is not None and native.coroutine is not None


def test_openai_tool_presents_the_schema_and_description_exactly() -> None:
    native = to_langchain(weather_tool())
    assert convert_to_openai_tool(native) == {
        "type": "function",
        "function": {
            "name": "forecast",
            "description": "Weather forecast.",
            "parameters": PLAIN_SCHEMA,
        },
    }


@pytest.mark.parametrize("name", ["add", "greet", "search", "whoami"])
def test_openai_tool_matches_a_native_tool_with_the_same_schema(name: str) -> None:
    # LangChain's converter inlines $ref and drops titles of any tool; ours is shown exactly
    # as a native LangChain tool declaring the same JSON Schema would be.
    tool = sample_tools()[name]
    native = StructuredTool.from_function(
        lambda **kwargs: kwargs,
        name=name,
        description=tool.description,
        args_schema=st.input_json_schema(tool),
    )
    assert convert_to_openai_tool(to_langchain(tool)) == convert_to_openai_tool(native)


def test_openai_tool_matches_langchain_own_tool_for_the_same_function() -> None:
    ours, theirs = (
        to_langchain(st.tool(add)),
        StructuredTool.from_function(add, parse_docstring=True),
    )
    ours_openai, theirs_openai = convert_to_openai_tool(ours), convert_to_openai_tool(theirs)
    # the standard tool forbids extra keys (LangChain would silently drop them)
    assert ours_openai["function"]["parameters"].pop("additionalProperties") is False
    assert ours_openai == theirs_openai


def test_bind_tools_sends_the_schema_to_the_model(tool_loop: Any) -> None:
    native = to_langchain(weather_tool())
    model, _ = tool_loop([AIMessage("no tools needed")], [native])
    assert model.seen_tools == [[convert_to_openai_tool(native)]]
    assert model.seen_tools[0][0]["function"]["parameters"] == PLAIN_SCHEMA


# -- calls ---------------------------------------------------------------------------------


def test_invoke_with_a_dict_returns_the_value() -> None:
    native = to_langchain(weather_tool())
    assert native.invoke({"city": "Oslo", "days": 2}) == {
        "city": "Oslo",
        "days": 2,
        "temps": [20.5, 20.5],
    }
    assert to_langchain(st.tool(add)).invoke({"a": 2, "b": 3}) == 5


def test_invoke_with_a_tool_call_returns_json_content_and_the_artifact() -> None:
    native = to_langchain(weather_tool())
    message = native.invoke(call_of("forecast", {"city": "Oslo"}, "c-42"))
    assert isinstance(message, ToolMessage)
    assert (
        message.tool_call_id == "c-42"
        and message.name == "forecast"
        and message.status == "success"
    )
    assert json.loads(str(message.content)) == {"city": "Oslo", "days": 1, "temps": [20.5]}
    assert message.artifact == {"city": "Oslo", "days": 1, "temps": [20.5]}


def test_string_results_are_content_as_is() -> None:
    greet = to_langchain(sample_tools()["greet"])
    message = greet.invoke(call_of("greet", {"person": {"name": "Ada"}}))
    assert message.content == "Hello, Ada" and message.artifact == "Hello, Ada"


async def test_sync_tool_in_ainvoke() -> None:
    native = to_langchain(st.tool(add))
    assert await native.ainvoke({"a": 1, "b": 1}) == 2
    message = await native.ainvoke(call_of("add", {"a": 1}))
    assert message.artifact == 2 and message.content == "2"


def test_async_tool_in_invoke_outside_and_inside_a_running_loop() -> None:
    greet = to_langchain(sample_tools()["greet"])
    args = {"person": {"name": "Ada"}, "shout": True}
    assert greet.invoke(args) == "HELLO, ADA"

    async def inside() -> Any:
        return greet.invoke(args), await greet.ainvoke(args)

    assert asyncio.run(inside()) == ("HELLO, ADA", "HELLO, ADA")


async def test_ainvoke_many_calls_concurrently() -> None:
    greet = to_langchain(sample_tools()["greet"])
    results = await asyncio.gather(
        *(greet.ainvoke({"person": {"name": f"n{i}"}}) for i in range(20))
    )
    assert results == [f"Hello, n{i}" for i in range(20)]


# -- validation and errors -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"days": 2}, "city"),
        ({"city": "Oslo", "days": 30}, "days"),
        ({"city": "Oslo", "wind": True}, "wind"),
    ],
)
def test_invalid_tool_call_gives_an_error_message_naming_the_field(
    args: dict[str, Any], field: str
) -> None:
    message = to_langchain(weather_tool()).invoke(call_of("forecast", args))
    assert message.status == "error" and message.tool_call_id == "call_1"
    assert "forecast" in message.content and field in message.content
    assert "Traceback" not in message.content


def test_no_coercion_of_raw_schema_input() -> None:
    message = to_langchain(weather_tool()).invoke(
        call_of("forecast", {"city": "Oslo", "days": "2"})
    )
    assert message.status == "error" and "days" in message.content


def test_invalid_dict_invoke_raises_the_typed_error() -> None:
    with pytest.raises(st.ToolValidationError) as raised:
        to_langchain(weather_tool()).invoke({"city": "", "days": 0})
    assert raised.value.tool == "forecast" and set(raised.value.fields) == {"city", "days"}


async def test_invalid_dict_ainvoke_raises_the_typed_error() -> None:
    with pytest.raises(st.ToolValidationError):
        await to_langchain(weather_tool()).ainvoke({"days": 1})


def test_failing_tool_on_the_tool_call_path_and_directly() -> None:
    explode = to_langchain(sample_tools()["explode"])
    message = explode.invoke(
        call_of("explode", {"reason": "boom"}), config={"configurable": {"token": SECRET}}
    )
    assert message.status == "error"
    assert message.content == "Tool 'explode' failed: RuntimeError: exploded: boom"
    with pytest.raises(st.ToolExecutionError) as raised:
        explode.invoke({"reason": "boom"})
    assert raised.value.tool == "explode" and isinstance(raised.value.__cause__, RuntimeError)


def test_tool_loop_reports_errors_to_the_model_and_continues(tool_loop: Any) -> None:
    native = to_langchain(weather_tool())
    replies = [
        AIMessage(
            "", tool_calls=[{"name": "forecast", "args": {"city": "Oslo", "days": 99}, "id": "c1"}]
        ),
        AIMessage(
            "", tool_calls=[{"name": "forecast", "args": {"city": "Oslo", "days": 2}, "id": "c2"}]
        ),
        AIMessage("Two days of 20.5 degrees."),
    ]
    _, messages = tool_loop(replies, [native])
    results = [m for m in messages if isinstance(m, ToolMessage)]
    assert [m.status for m in results] == ["error", "success"]
    assert [m.tool_call_id for m in results] == ["c1", "c2"]
    assert "days" in results[0].content and results[1].artifact["days"] == 2
    assert messages[-1].content == "Two days of 20.5 degrees."


# -- metadata, context, names --------------------------------------------------------------


def test_title_output_schema_and_meta_travel_in_metadata() -> None:
    search = sample_tools()["search"]
    native = to_langchain(search)
    assert native.metadata == {
        METADATA_KEY: {
            "title": "Search",
            "output_schema": st.output_json_schema(search),
            "meta": dict(search.meta),
        }
    }
    assert native.return_direct is False


def test_return_direct_comes_from_meta() -> None:
    tool = st.tool(add, meta={"return_direct": True})
    assert to_langchain(tool).return_direct is True


def test_context_is_the_configurable_mapping() -> None:
    seen: list[Any] = []

    def probe(input: dict[str, Any], context: Any) -> str:
        seen.append(context)
        return "ok"

    native = to_langchain(st.Tool(name="probe", description="Probe.", execute=probe))
    native.invoke({}, config={"configurable": {"token": SECRET, "__pregel_send": object()}})
    native.invoke(call_of("probe", {}), config={"configurable": {"user": "u1"}})
    native.invoke({})
    asyncio.run(native.ainvoke({}, config={"configurable": {"user": "u2"}}))
    assert seen == [{"token": SECRET}, {"user": "u1"}, None, {"user": "u2"}]


def test_context_getter_option_and_convert_options() -> None:
    seen: list[Any] = []

    def probe(input: dict[str, Any], context: Any) -> str:
        seen.append(context)
        return "ok"

    tool = st.Tool(name="probe", description="Probe.", execute=probe)
    native = st.convert(tool, to="langchain", context=lambda config: (config or {}).get("tags"))
    native.invoke({}, config={"tags": ["a"]})
    assert seen == [["a"]]


def test_context_never_reaches_the_model() -> None:
    whoami = to_langchain(sample_tools()["whoami"])
    message = whoami.invoke(
        call_of("whoami", {"label": "x"}), config={"configurable": {"token": SECRET}}
    )
    assert SECRET not in message.content and json.loads(message.content)["has_context"] is True


@pytest.mark.parametrize(
    "names", [("config", "run_manager", "callbacks"), ("self", "tool_input", "kwargs")]
)
def test_reserved_argument_names_pass_through(names: tuple[str, ...]) -> None:
    schema = {
        "type": "object",
        "properties": {name: {"type": "string"} for name in names},
        "required": list(names),
        "additionalProperties": False,
    }
    tool = st.Tool(
        name="echo", description="Echo.", input_schema=schema, execute=lambda input: input
    )
    native = to_langchain(tool)
    args = {name: f"value of {name}" for name in names}
    assert native.invoke(args) == args
    assert native.invoke(call_of("echo", args)).artifact == args
    assert asyncio.run(native.ainvoke(args)) == args
    assert convert_to_openai_tool(native)["function"]["parameters"] == schema


def test_to_langchain_tools_refuses_duplicate_names() -> None:
    tools = to_langchain_tools([sample_tools()["add"], weather_tool()])
    assert [t.name for t in tools] == ["add", "forecast"]
    with pytest.raises(ToolNameError):
        to_langchain_tools([weather_tool(), weather_tool()])


def test_a_plain_function_is_adopted_first() -> None:
    assert to_langchain(add).invoke({"a": 1}) == 2


def test_schemas_are_derived_on_first_use_and_dumped() -> None:
    native = to_langchain(sample_tools()["search"])
    assert "args_schema" not in native.__dict__ and "metadata" not in native.__dict__
    dumped = native.model_dump(exclude={"func", "coroutine"})
    assert dumped["args_schema"] == st.input_json_schema(sample_tools()["search"])
    assert dumped["metadata"][METADATA_KEY]["title"] == "Search"
    fresh = to_langchain(weather_tool())
    assert fresh.invoke({"city": "Rome"})["city"] == "Rome"
    assert fresh.__dict__["args_schema"] == PLAIN_SCHEMA


def test_the_openai_dict_form_sends_the_schema_untouched(tool_loop: Any) -> None:
    search = sample_tools()["search"]
    native = to_langchain(search)
    spec = {
        "type": "function",
        "function": {
            "name": native.name,
            "description": native.description,
            "parameters": native.tool_call_schema,
        },
    }
    model, _ = tool_loop([AIMessage("ok")], [spec])
    assert model.seen_tools[0][0]["function"]["parameters"] == st.input_json_schema(search)


def test_names_follow_the_chat_models_rule_and_come_back() -> None:
    from standard_tool_langchain import from_langchain

    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    native, plain = to_langchain_tools([st.tool(shout, name="weather.v2 now"), shout])
    assert (native.name, plain.name) == ("weather_v2_now", "shout")
    assert (native.metadata or {})[METADATA_KEY]["name"] == "weather.v2 now"
    assert from_langchain(native).name == "weather.v2 now"
    assert [t.name for t in to_langchain_tools(shout)] == ["shout"]
    with pytest.raises(ToolNameError, match="both become"):
        to_langchain_tools([st.tool(shout, name="a b"), st.tool(shout, name="a_b")])


# -- hostile tools: the host survives, the model gets an error result ------------------------


def _loop() -> list[Any]:
    value: list[Any] = []
    value.append(value)
    return value


def _deep() -> list[Any]:
    value: list[Any] = []
    for _ in range(10_000):
        value = [value]
    return value


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message")


def _misbehave(kind: str) -> Any:
    if kind == "exit":
        raise SystemExit(2)
    if kind == "interrupt":
        raise KeyboardInterrupt
    if kind == "unprintable":
        raise Unprintable
    makers: dict[str, Callable[[], Any]] = {
        "loop": _loop,
        "deep": _deep,
        "bytes": lambda: b"\xff",
        "nan": lambda: {"temperature": float("nan")},
        "generator": lambda: (n for n in range(3)),
    }
    return makers[kind]()


def hostile(kind: str) -> Any:
    """Misbehaves on request."""
    return _misbehave(kind)


async def ahostile(kind: str) -> Any:
    """Misbehaves on request, asynchronously."""
    await asyncio.sleep(0)
    return _misbehave(kind)


HOSTILE = [
    ("exit", "Tool '{name}' failed: SystemExit: 2"),
    ("interrupt", "Tool '{name}' failed: KeyboardInterrupt"),
    ("unprintable", "Tool '{name}' failed: Unprintable (its message cannot be read)"),
    ("loop", "Invalid output for tool '{name}'"),
    ("deep", "Invalid output for tool '{name}'"),
    ("bytes", "Invalid output for tool '{name}'"),
    ("nan", "Invalid output for tool '{name}'"),
    (
        "generator",
        "Invalid output for tool '{name}' (1 issue):\n  - <root>: is not JSON data (generator",
    ),
]


@pytest.mark.parametrize(("kind", "expected"), HOSTILE, ids=[k for k, _ in HOSTILE])
@pytest.mark.parametrize("function", [hostile, ahostile], ids=["sync", "async"])
def test_hostile_tool_call_ends_as_an_error_message(
    function: Any, kind: str, expected: str
) -> None:
    native = to_langchain(st.tool(function))
    name = function.__name__
    for invoke in (native.invoke, lambda call: asyncio.run(native.ainvoke(call))):
        message = within(10, invoke, call_of(name, {"kind": kind}))
        assert isinstance(message, ToolMessage) and message.status == "error"
        assert str(message.content).startswith(expected.format(name=name))
        assert "Traceback" not in str(message.content)
    # the host and the shared loop survived: the next call works
    greet = to_langchain(sample_tools()["greet"])
    assert within(10, greet.invoke, {"person": {"name": "Ada"}}) == "Hello, Ada"


@pytest.mark.parametrize("function", [hostile, ahostile], ids=["sync", "async"])
def test_hostile_direct_invoke_raises_typed_errors(function: Any) -> None:
    native = to_langchain(st.tool(function))
    with pytest.raises(st.ToolExecutionError, match="SystemExit: 2"):
        within(10, native.invoke, {"kind": "exit"})
    with pytest.raises(st.ToolValidationError, match="Invalid output"):
        within(10, native.invoke, {"kind": "loop"})


def test_output_schema_violation_leaves_the_value_out() -> None:
    secret = "token=sk-live-0123456789"
    leaky = st.Tool(
        name="leaky",
        description="Leaks.",
        output_schema={"type": "object", "properties": {"count": {"type": "integer"}}},
        execute=lambda input: {"count": secret},
    )
    message = to_langchain(leaky).invoke(call_of("leaky", {}))
    assert message.status == "error"
    assert message.content == (
        "Invalid output for tool 'leaky' (1 issue):\n  - count: must be of type integer"
    )


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_a_tool_timeout_is_honoured(is_async: bool) -> None:
    import time

    if is_async:

        async def slow() -> str:
            """Sleeps."""
            await asyncio.sleep(5)
            return "late"

    else:

        def slow() -> str:  # type: ignore[misc]
            """Sleeps."""
            time.sleep(5)
            return "late"

    native = to_langchain(st.tool(slow, timeout=0.2))
    started = time.monotonic()
    message = within(10, native.invoke, call_of("slow", {}))
    assert message.status == "error"
    assert message.content == "Tool 'slow' failed: no result within 0.2 s (timed out)"
    message = within(10, lambda: asyncio.run(native.ainvoke(call_of("slow", {}))))
    assert message.status == "error" and "within 0.2 s" in message.content
    with pytest.raises(st.ToolExecutionError, match="timed out"):
        within(10, native.invoke, {})
    assert time.monotonic() - started < 5


def test_a_result_that_stops_serializing_is_an_error_message() -> None:
    class Flaky:
        """Serializes once (when the call checks it), then no more."""

        calls = 0

        def __str__(self) -> str:
            Flaky.calls += 1
            if Flaky.calls > 1:
                raise RuntimeError("gone")
            return "flaky"

    tool = st.Tool(name="flaky", description="Flaky.", execute=lambda input: {"v": Flaky()})
    message = to_langchain(tool).invoke(call_of("flaky", {}))
    assert message.status == "error"
    assert message.content == (
        "Invalid output for tool 'flaky' (1 issue):\n  - v: cannot be serialized as JSON (Flaky)"
    )


def test_calling_a_langchain_tool_directly_is_a_usage_error() -> None:
    native = StructuredTool.from_function(add)
    with pytest.raises(st.UsageError) as raised:
        st.call(native, {"a": 1})  # type: ignore[arg-type]
    assert "StructuredTool 'add'" in str(raised.value) and "st.adopt" in str(raised.value)
    assert st.call(st.adopt(native), {"a": 1}) == 2
