"""LangChain tools of every kind as standard tools, run through their own invoke/ainvoke."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import (
    BaseTool,
    BaseToolkit,
    InjectedToolArg,
    InjectedToolCallId,
    StructuredTool,
    Tool,
    ToolException,
    tool,
)
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field

import standard_tool as st
from standard_tool.exceptions import UnsupportedObjectError
from standard_tool_langchain import (
    LangChainTool,
    from_langchain,
    from_langchain_tools,
    to_langchain,
)
from standard_tool_langchain._plugin import adapter


@tool(parse_docstring=True)
def multiply(a: int, b: int = 2) -> int:
    """Multiply two numbers.

    Args:
        a: The first factor.
        b: The second factor.
    """
    return a * b


@tool
async def shout(text: str) -> str:
    """Shout a text."""
    await asyncio.sleep(0)
    return text.upper()


class Point(BaseModel):
    x: float = Field(description="Horizontal.")
    y: float = Field(description="Vertical.")


def norm(x: float, y: float) -> dict[str, float]:
    return {"norm": (x * x + y * y) ** 0.5}


RAW: dict[str, Any] = {
    "type": "object",
    "properties": {"n": {"type": "integer", "minimum": 0}},
    "required": ["n"],
    "additionalProperties": False,
}


class Subtract(BaseTool):
    name: str = "subtract"
    description: str = "Subtract b from a."

    def _run(self, a: int, b: int) -> int:
        return a - b

    async def _arun(self, a: int, b: int) -> int:
        return a - b


class AsyncOnly(BaseTool):
    name: str = "async_only"
    description: str = "Only async."

    def _run(self, q: str) -> str:
        raise NotImplementedError("async only")

    async def _arun(self, q: str) -> str:
        await asyncio.sleep(0)
        return f"async {q}"


def both(tool: Any, input: dict[str, Any], context: Any = None) -> tuple[Any, Any]:
    """Run a standard tool with ``call`` and ``acall``, both inside a running loop."""

    async def inside() -> tuple[Any, Any]:
        return st.call(tool, input, context), await st.acall(tool, input, context)

    return asyncio.run(inside())


def test_tool_decorator_with_parsed_docstring() -> None:
    adopted = from_langchain(multiply)
    assert isinstance(adopted, LangChainTool)
    assert adopted.name == "multiply" and adopted.description == "Multiply two numbers."
    schema = st.input_json_schema(adopted)
    assert schema["properties"]["a"]["description"] == "The first factor."
    assert schema["required"] == ["a"]
    assert st.call(adopted, {"a": 3}) == 6 and both(adopted, {"a": 3, "b": 3}) == (9, 9)


def test_a_pydantic_schema_is_checked_as_the_json_schema_the_model_sees() -> None:
    adopted = from_langchain(multiply)
    assert multiply.invoke({"a": "4"}) == 8  # LangChain's own pydantic model coerces
    assert st.call(adopted, {"a": 4}) == 8
    for bad in ({"a": "4"}, {"a": True}, {"a": "four"}):
        with pytest.raises(st.ToolValidationError) as raised:
            st.call(adopted, bad)
        assert raised.value.tool == "multiply" and raised.value.fields == ("a",)


def test_async_tool_is_async_and_callable_from_sync_code() -> None:
    adopted = from_langchain(shout)
    assert asyncio.iscoroutinefunction(adopted.execute)
    assert st.call(adopted, {"text": "hi"}) == "HI" and both(adopted, {"text": "a"}) == ("A", "A")


def test_structured_tool_with_a_pydantic_schema() -> None:
    native = StructuredTool.from_function(
        norm, name="norm", description="Vector norm.", args_schema=Point
    )
    adopted = from_langchain(native)
    assert st.input_json_schema(adopted)["properties"]["x"]["description"] == "Horizontal."
    assert st.call(adopted, {"x": 3, "y": 4}) == {"norm": 5.0}


def test_structured_tool_with_a_dict_schema_is_validated_here() -> None:
    native = StructuredTool.from_function(
        lambda n: n + 1, name="inc", description="Increment.", args_schema=RAW
    )
    adopted = from_langchain(native)
    assert st.input_json_schema(adopted) == RAW
    assert st.call(adopted, {"n": 1}) == 2
    for bad, field in [({"n": -1}, "n"), ({"n": "1"}, "n"), ({"n": 1, "z": 0}, "z"), ({}, "n")]:
        with pytest.raises(st.ToolValidationError) as raised:
            st.call(adopted, bad)
        assert raised.value.fields == (field,)


def test_single_string_tool() -> None:
    native = Tool(name="upper", description="Upper-case a text.", func=str.upper)
    adopted = from_langchain(native)
    assert st.input_json_schema(adopted) == convert_to_openai_tool(native)["function"]["parameters"]
    assert st.call(adopted, {"__arg1": "abc"}) == "ABC"
    with pytest.raises(st.ToolValidationError):
        st.call(adopted, {"__arg1": 5})


def test_base_tool_subclasses_sync_and_async_only() -> None:
    subtract = from_langchain(Subtract())
    assert st.input_json_schema(subtract)["required"] == ["a", "b"]
    assert both(subtract, {"a": 5, "b": 2}) == (3, 3)
    async_only = from_langchain(AsyncOnly())
    assert st.call(async_only, {"q": "x"}) == "async x"
    assert both(async_only, {"q": "y"}) == ("async y", "async y")


def test_async_only_structured_tool() -> None:
    async def twice(n: int) -> int:
        return 2 * n

    native = StructuredTool.from_function(coroutine=twice, name="twice", description="Double.")
    adopted = from_langchain(native)
    assert asyncio.iscoroutinefunction(adopted.execute)
    assert both(adopted, {"n": 4}) == (8, 8)


def test_content_and_artifact_tool_returns_the_content() -> None:
    @tool(response_format="content_and_artifact")
    def fetch(key: str) -> tuple[str, dict[str, str]]:
        """Fetch a record."""
        return f"record {key}", {"key": key, "raw": "x"}

    assert st.call(from_langchain(fetch), {"key": "k"}) == "record k"


def test_return_direct_is_kept_in_meta_and_restored() -> None:
    native = StructuredTool.from_function(
        norm, name="norm", description="N.", args_schema=Point, return_direct=True
    )
    adopted = from_langchain(native)
    assert adopted.meta == {"return_direct": True}
    assert to_langchain(adopted).return_direct is True


def test_injected_arguments_come_from_the_context() -> None:
    @tool
    def whoami(
        label: str,
        user: Annotated[str, InjectedToolArg],
        call_id: Annotated[str, InjectedToolCallId],
        config: RunnableConfig,
    ) -> str:
        """Say who asks."""
        return f"{label}:{user}:{call_id}:{config['configurable'].get('tenant')}"

    adopted = from_langchain(whoami)
    schema = st.input_json_schema(adopted)
    assert set(schema["properties"]) == {"label"}
    context = {"user": "ada", "tool_call_id": "call-7", "tenant": "t1"}
    assert st.call(adopted, {"label": "x"}, context) == "x:ada:call-7:t1"
    assert asyncio.run(st.acall(adopted, {"label": "y"}, context)) == "y:ada:call-7:t1"
    with pytest.raises(st.ToolValidationError) as raised:  # no user in the context
        st.call(adopted, {"label": "x"}, {"tenant": "t1"})
    assert "user" in raised.value.fields


def test_tool_exception_and_error_messages_become_typed_errors() -> None:
    def fail(q: str) -> str:
        """Fail."""
        raise ToolException(f"cannot {q}")

    raising = from_langchain(StructuredTool.from_function(fail))
    handled = from_langchain(StructuredTool.from_function(fail, handle_tool_error=True))
    for adopted in (raising, handled):
        with pytest.raises(st.ToolExecutionError) as raised:
            st.call(adopted, {"q": "go"})
        assert raised.value.tool == "fail" and str(raised.value) == "Tool 'fail' failed: cannot go"


def test_handled_validation_errors_still_name_the_fields() -> None:
    native = StructuredTool.from_function(
        norm, name="norm", description="N.", args_schema=Point, handle_validation_error=True
    )
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(from_langchain(native), {"x": "left", "y": 1})
    assert raised.value.fields == ("x",)


def test_other_exceptions_become_execution_errors_through_call() -> None:
    def crash(q: str) -> str:
        """Crash."""
        raise KeyError(q)

    with pytest.raises(st.ToolExecutionError) as raised:
        st.call(from_langchain(StructuredTool.from_function(crash)), {"q": "k"})
    assert isinstance(raised.value.__cause__, KeyError)


def test_the_tool_callbacks_run() -> None:
    class Recorder(BaseCallbackHandler):
        def __init__(self) -> None:
            self.events: list[str] = []

        def on_tool_start(self, serialized: Any, input_str: str, **kwargs: Any) -> None:
            self.events.append("start")

        def on_tool_end(self, output: Any, **kwargs: Any) -> None:
            self.events.append("end")

    recorder = Recorder()
    native = StructuredTool.from_function(
        norm, name="norm", description="N.", args_schema=Point, callbacks=[recorder]
    )
    st.call(from_langchain(native), {"x": 1, "y": 0})
    assert recorder.events == ["start", "end"]


def test_toolkits_and_lists() -> None:
    class MathToolkit(BaseToolkit):
        def get_tools(self) -> list[BaseTool]:
            return [multiply, Subtract()]

    assert [t.name for t in from_langchain_tools(MathToolkit())] == ["multiply", "subtract"]
    assert [t.name for t in from_langchain_tools([shout])] == ["shout"]
    tools = st.registry.adopt_tools([MathToolkit(), shout])  # the registry takes toolkits whole
    assert [t.name for t in tools] == ["multiply", "subtract", "shout"]
    assert all(isinstance(t, LangChainTool) for t in tools)


def test_adopt_through_the_registry_and_refusals() -> None:
    assert isinstance(st.adopt(multiply), LangChainTool)
    assert adapter.standard_tool_adopt(obj=object()) is None
    with pytest.raises(UnsupportedObjectError):
        from_langchain(object())


@pytest.mark.parametrize(
    ("native", "good", "bad"),
    [
        (multiply, {"a": 2, "b": 5}, {"a": "x"}),
        (
            StructuredTool.from_function(
                lambda n: n + 1, name="inc", description="I.", args_schema=RAW
            ),
            {"n": 2},
            {"n": -2},
        ),
        (Subtract(), {"a": 9, "b": 1}, {"a": 1}),
    ],
)
def test_round_trip_presents_and_behaves_the_same(
    native: BaseTool, good: dict[str, Any], bad: dict[str, Any]
) -> None:
    again = to_langchain(from_langchain(native))
    assert convert_to_openai_tool(again) == convert_to_openai_tool(native)
    assert again.invoke(good) == native.invoke(good)
    call = {"type": "tool_call", "name": native.name, "args": bad, "id": "c1"}
    assert again.invoke(call).status == "error"


def test_a_non_mapping_context_is_passed_as_configurable_context() -> None:
    @tool
    def probe(config: RunnableConfig) -> str:
        """Report the configured context."""
        return repr(config["configurable"].get("context"))

    adopted = from_langchain(probe)
    assert st.input_json_schema(adopted)["properties"] == {}
    assert st.call(adopted, {}, ("a", 1)) == "('a', 1)"
    assert st.call(adopted, {}) == "None"


def test_acall_uses_the_async_implementation_of_a_dual_tool() -> None:
    ran: list[str] = []

    def sync_echo(text: str) -> str:
        ran.append("func")
        return text

    async def async_echo(text: str) -> str:
        ran.append("coroutine")
        return text

    native = StructuredTool.from_function(
        func=sync_echo, coroutine=async_echo, name="echo", description="Echo."
    )
    adopted = from_langchain(native)
    assert st.call(adopted, {"text": "a"}) == "a"
    assert asyncio.run(st.acall(adopted, {"text": "b"})) == "b"
    assert ran == ["func", "coroutine"]
