"""Standard tools as LlamaIndex tools, run by LlamaIndex's own runtime."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from llama_index.core.tools import FunctionTool
from llama_index.core.tools.calling import acall_tool, call_tool
from pydantic import BaseModel

import standard_tool as st
from standard_tool.exceptions import ConversionError, ToolNameError
from standard_tool.testing import sample_tools
from standard_tool_llama_index import (
    StandardFunctionTool,
    StandardToolMetadata,
    to_llama_index,
    to_llama_index_tools,
)

PLAIN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Forecast input",
    "properties": {
        "city": {"type": "string", "minLength": 1, "description": "City name."},
        "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 1},
        "units": {"enum": ["metric", "imperial"]},
        "at": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
        "place": {"$ref": "#/$defs/Place"},
    },
    "required": ["city"],
    "additionalProperties": False,
    "$defs": {
        "Place": {
            "type": "object",
            "title": "Place",
            "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
            "required": ["lat", "lon"],
            "additionalProperties": False,
        }
    },
}


def forecast(input: dict[str, Any]) -> dict[str, Any]:
    days = input.get("days", 1)
    return {"city": input["city"], "days": days, "temps": [20.5] * days}


def weather_tool(**fields: Any) -> st.Tool:
    return st.Tool(
        name="forecast",
        description="Weather forecast.",
        input_schema=PLAIN_SCHEMA,
        execute=forecast,
        **fields,
    )


def add(a: int, b: int = 1) -> int:
    """Add two integers.

    Args:
        a: The first addend.
        b: The second addend.
    """
    return a + b


# -- what the model sees ----------------------------------------------------------------


def test_result_is_a_function_tool_presenting_the_raw_schema_exactly() -> None:
    native = to_llama_index(weather_tool())
    assert isinstance(native, FunctionTool) and isinstance(native, StandardFunctionTool)
    metadata = native.metadata
    assert isinstance(metadata, StandardToolMetadata)
    assert metadata.get_parameters_dict() == PLAIN_SCHEMA
    assert json.loads(metadata.fn_schema_str) == PLAIN_SCHEMA
    assert metadata.fn_schema is not None
    assert metadata.fn_schema.model_json_schema() == PLAIN_SCHEMA
    assert metadata.fn_schema.__name__ == "forecast"
    assert metadata.to_openai_tool() == {
        "type": "function",
        "function": {
            "name": "forecast",
            "description": "Weather forecast.",
            "parameters": PLAIN_SCHEMA,
        },
    }


def test_a_native_tool_with_the_same_model_loses_what_the_converted_one_keeps() -> None:
    class Input(BaseModel, extra="forbid"):
        city: str

    def run(city: str) -> str:
        return city

    native = FunctionTool.from_defaults(run, name="run", fn_schema=Input)
    ours = to_llama_index(st.Tool(name="run", description="d", input_schema=Input, execute=run))
    assert Input.model_json_schema()["additionalProperties"] is False
    assert "additionalProperties" not in native.metadata.get_parameters_dict()
    assert ours.metadata.get_parameters_dict() == st.input_json_schema(st.adopt(ours))
    assert ours.metadata.get_parameters_dict()["additionalProperties"] is False


def test_parameters_are_a_fresh_copy_each_time() -> None:
    metadata = to_llama_index(weather_tool()).metadata
    metadata.get_parameters_dict()["properties"].clear()  # as a strict-mode client may do
    assert metadata.get_parameters_dict() == PLAIN_SCHEMA


class CountingTool:
    """A standard tool that counts how often its input schema is read."""

    name = "counted"
    title = None
    description = "Counted."
    output_schema = None
    meta: dict[str, Any] = {}

    def __init__(self) -> None:
        self.reads = 0

    @property
    def input_schema(self) -> dict[str, Any]:
        self.reads += 1
        return {"type": "object", "properties": {"x": {"type": "integer"}}}

    def execute(self, input: Any, context: Any = None) -> Any:
        return input["x"]


def test_the_schema_is_derived_on_first_use_and_once() -> None:
    tool = CountingTool()
    native = to_llama_index(tool)
    assert tool.reads == 0
    parameters = native.metadata.to_openai_tool()["function"]["parameters"]
    reads = tool.reads
    assert reads >= 1 and parameters["properties"] == {"x": {"type": "integer"}}
    native.metadata.get_parameters_dict()
    native.metadata.fn_schema_str  # noqa: B018
    native.metadata.fn_schema  # noqa: B018
    assert tool.reads == reads


def test_an_object_schema_without_properties_gets_empty_ones() -> None:
    tool = st.Tool(
        name="ping", description="Ping.", input_schema={"type": "object"}, execute=lambda i: "pong"
    )
    native = to_llama_index(tool)
    assert native.metadata.get_parameters_dict() == {"type": "object", "properties": {}}
    assert call_tool(native, {}).content == "pong"


def test_a_schema_that_is_not_an_object_is_refused() -> None:
    tool = st.Tool(
        name="echo", description="Echo.", input_schema={"type": "string"}, execute=lambda i: i
    )
    native = to_llama_index(tool)
    with pytest.raises(ConversionError, match="'echo'.*object schema"):
        native.metadata.get_parameters_dict()


# -- names and descriptions ---------------------------------------------------------------


def test_a_name_models_refuse_is_sanitized_and_restored() -> None:
    native = to_llama_index(st.tool(add, name="add numbers.v2"))
    assert native.metadata.name == "add_numbers_v2"
    assert native.metadata.to_openai_tool()["function"]["name"] == "add_numbers_v2"
    assert native.metadata.standard_tool["name"] == "add numbers.v2"
    assert st.adopt(native).name == "add numbers.v2"


def test_a_long_name_is_shortened_for_models() -> None:
    native = to_llama_index(st.tool(add, name="a" * 100))
    assert len(native.metadata.get_name()) == 64


def test_an_explicit_name_is_checked() -> None:
    assert to_llama_index(st.tool(add), name="plus").metadata.name == "plus"
    with pytest.raises(ToolNameError, match="not valid"):
        to_llama_index(st.tool(add), name="plus one")


def test_colliding_names_raise() -> None:
    with pytest.raises(ToolNameError, match="both become"):
        to_llama_index_tools([st.tool(add, name="a.b"), st.tool(add, name="a b")])
    tools = to_llama_index_tools([st.tool(add), weather_tool()])
    assert [tool.metadata.name for tool in tools] == ["add", "forecast"]


def test_a_description_too_long_for_llama_index_is_refused_at_conversion() -> None:
    tool = st.tool(add, description="x" * 1025)
    with pytest.raises(ConversionError) as raised:
        to_llama_index(tool)
    assert "'add'" in str(raised.value) and "1,024" in str(raised.value)
    assert "1,025" in str(raised.value)
    longest = to_llama_index(st.tool(add, description="x" * 1024))
    assert len(longest.metadata.to_openai_tool()["function"]["description"]) == 1024


# -- calls ----------------------------------------------------------------------------------


def test_call_returns_the_result_as_raw_output_and_json_text() -> None:
    native = to_llama_index(weather_tool())
    output = native.call(city="Lyon", days=2)
    assert output.raw_output == {"city": "Lyon", "days": 2, "temps": [20.5, 20.5]}
    assert json.loads(output.content) == output.raw_output
    assert output.content == '{"city": "Lyon", "days": 2, "temps": [20.5, 20.5]}'
    assert output.tool_name == "forecast" and not output.is_error
    assert output.raw_input == {"args": (), "kwargs": {"city": "Lyon", "days": 2}}


def test_strings_stay_text_and_models_become_json() -> None:
    class Point(BaseModel):
        x: int
        label: str = "é"

    def point() -> Point:
        """A point."""
        return Point(x=1)

    def name() -> str:
        """A name."""
        return "Ada"

    output = to_llama_index(st.tool(point)).call()
    assert output.content == '{"x": 1, "label": "é"}' and output.raw_output == Point(x=1)
    assert to_llama_index(st.tool(name)).call().content == "Ada"


@pytest.mark.parametrize("how", ["call", "__call__", "acall"])
def test_every_entry_point_validates_with_full_json_schema(how: str) -> None:
    native = to_llama_index(weather_tool())

    def run(**kwargs: Any) -> Any:
        if how == "acall":
            return asyncio.run(native.acall(**kwargs))
        return getattr(native, how)(**kwargs)

    assert run(city="Lyon").raw_output["days"] == 1
    with pytest.raises(st.ToolValidationError) as raised:
        run(city="Lyon", days="2")  # no coercion
    assert raised.value.fields == ("days",)
    with pytest.raises(st.ToolValidationError) as raised:
        run(city="Lyon", wind=True)  # no silently dropped keys
    assert "wind" in str(raised.value)
    with pytest.raises(st.ToolValidationError) as raised:
        run(city="Lyon", place={"lat": 1})
    assert raised.value.fields == ("place.lon",)


def test_call_tool_reports_errors_as_error_outputs() -> None:
    native = to_llama_index(weather_tool())
    output = call_tool(native, {"city": "", "days": 9})
    assert output.is_error
    assert "forecast" in output.content and "city" in output.content and "days" in output.content
    assert "Traceback" not in output.content
    exception = getattr(output, "exception", None)  # kept from llama-index-core 0.14.8 on
    assert exception is None or isinstance(exception, st.ToolValidationError)
    assert call_tool(native, {"city": "Lyon"}).raw_output["city"] == "Lyon"


def test_acall_tool_reports_tool_failures_as_error_outputs() -> None:
    output = asyncio.run(
        acall_tool(to_llama_index(sample_tools()["explode"]), {"reason": "on purpose"})
    )
    assert output.is_error
    assert "explode" in output.content and "exploded: on purpose" in output.content
    assert "Traceback" not in output.content


def test_a_single_property_tool_is_called_with_its_argument() -> None:
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    native = to_llama_index(st.tool(shout))
    assert call_tool(native, {"text": "hi"}).content == "HI"
    assert asyncio.run(acall_tool(native, {"text": "hi"})).content == "HI"
    assert native("hi").content == "HI"  # positionally, as call_tool may pass it
    with pytest.raises(st.ToolValidationError, match="positional"):
        to_llama_index(st.tool(add)).call(1, 2)


def test_an_async_tool_runs_from_sync_code_inside_a_running_loop() -> None:
    native = to_llama_index(sample_tools()["greet"])

    async def inside() -> tuple[Any, Any]:
        return native.call(person={"name": "Ada"}), await native.acall(person={"name": "Bo"})

    from_sync, from_async = asyncio.run(inside())
    assert (from_sync.content, from_async.content) == ("Hello, Ada", "Hello, Bo")


def test_a_sync_tool_called_async_does_not_block_the_loop() -> None:
    def slow(seconds: float) -> float:
        """Sleep."""
        time.sleep(seconds)
        return seconds

    native = to_llama_index(st.tool(slow))

    async def main() -> list[Any]:
        start = time.perf_counter()
        outputs = await asyncio.gather(*(native.acall(seconds=0.2) for _ in range(4)))
        assert time.perf_counter() - start < 0.7
        return [output.raw_output for output in outputs]

    assert asyncio.run(main()) == [0.2] * 4


def test_partial_params_bind_arguments_and_are_validated() -> None:
    native = to_llama_index(st.tool(add))
    native.partial_params = {"b": 10}
    assert native(a=1).raw_output == 11
    native.partial_params = {"b": "ten"}
    assert call_tool(native, {"a": 1}).is_error


# -- hostile tools ----------------------------------------------------------------------------


def test_nothing_a_tool_does_takes_the_host_down() -> None:
    def leave() -> str:
        """Leave."""
        raise SystemExit(3)

    def interrupt() -> str:
        """Interrupt."""
        raise KeyboardInterrupt

    def opaque() -> float:
        """Return something that is not JSON."""
        return float("nan")

    def hang() -> str:
        """Hang."""
        time.sleep(5)
        return "late"

    natives = to_llama_index_tools(
        [st.tool(leave), st.tool(interrupt), st.tool(opaque), st.tool(hang, timeout=0.2)]
    )
    for native in natives:
        for output in (call_tool(native, {}), asyncio.run(acall_tool(native, {}))):
            assert output.is_error, native.metadata.name
            assert native.metadata.get_name() in output.content
            assert "Traceback" not in output.content
    assert "timed out" in call_tool(natives[3], {}).content
    assert "output" in call_tool(natives[2], {}).content
    assert call_tool(to_llama_index(st.tool(add)), {"a": 1}).raw_output == 2


# -- metadata -----------------------------------------------------------------------------


def test_title_output_schema_and_meta_are_in_the_metadata() -> None:
    native = to_llama_index(
        weather_tool(
            title="Forecast",
            output_schema={"type": "object"},
            meta={"read_only": True, "return_direct": True},
        )
    )
    assert native.metadata.standard_tool == {
        "title": "Forecast",
        "output_schema": {"type": "object"},
        "meta": {"read_only": True, "return_direct": True},
    }
    assert native.metadata.return_direct is True
    back = st.adopt(native)
    assert (back.title, back.output_schema, back.meta) == (
        "Forecast",
        {"type": "object"},
        {"read_only": True, "return_direct": True},
    )


def test_convert_reaches_the_adapter() -> None:
    native = st.convert(st.tool(add), to="llama-index")
    assert isinstance(native, StandardFunctionTool) and native(a=2).raw_output == 3
    assert native.standard_tool.name == "add"
