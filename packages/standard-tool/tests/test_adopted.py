"""The adapter kit's adopted-tool base, its refusals and listing, and a result's model text."""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

import standard_tool as st
from standard_tool.adapters import (
    AdoptedTool,
    adopt_all,
    not_adoptable,
    pack_metadata,
    result_text,
)
from standard_tool.exceptions import ConversionError, UnsupportedObjectError

SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
}


@dataclass
class Native:
    """A framework's own tool, as a framework keeps one: a name, a schema, a function."""

    name: Any
    description: Any = "Add two integers."
    parameters: dict[str, Any] = field(default_factory=lambda: dict(SCHEMA))
    fn: Callable[..., Any] = lambda a, b: a + b
    metadata: dict[str, Any] = field(default_factory=dict)


class Exported(Native):
    """The adapter's own export: a native tool that runs a standard tool."""

    def __init__(self, standard: st.StandardTool) -> None:
        super().__init__(name=standard.name, description=standard.description)
        self.standard_tool = standard
        self.metadata = {"standard_tool": pack_metadata(standard)}


class Holder:
    """A framework object that holds several tools (an agent, a toolkit)."""

    def __init__(self, *tools: Native) -> None:
        self.tools = list(tools)


class ToyTool(AdoptedTool):
    framework = "Toy"
    exported = (Exported,)
    wrapped: Native

    def __init__(self, native: Native) -> None:
        super().__init__(
            native, name=native.name, description=native.description, metadata=native.metadata
        )

    def native_input_schema(self) -> Any:
        return self.wrapped.parameters

    def run(self, input: Any, context: Any) -> Any:
        if self._ours:
            return st.call(self.standard_tool, input, context)
        return self.wrapped.fn(**input)


def from_toy(obj: Any) -> ToyTool:
    if isinstance(obj, Native):
        return ToyTool(obj)
    raise not_adoptable(
        obj, "a Toy tool", holders=(Holder,), holder="a Toy holder", many="from_toy_tools(h)"
    )


def from_toy_tools(tools: Any) -> list[ToyTool]:
    return adopt_all(
        tools,
        from_toy,
        single=(Native, Holder),
        tools_of=lambda item: item.tools if isinstance(item, Holder) else None,
    )


def test_a_native_tool_is_checked_here_against_what_the_framework_shows() -> None:
    tool = ToyTool(Native(name="add"))
    assert (tool.name, tool.description, tool.native.name) == ("add", "Add two integers.", "add")
    assert tool.input_schema == SCHEMA and tool.validate_input and tool.validate_output
    assert st.call(tool, {"a": 2, "b": 3}) == 5
    with pytest.raises(st.ToolValidationError) as caught:
        st.call(tool, {"a": 2, "b": "3"})
    assert caught.value.tool == "add" and caught.value.issues[0].path == ("b",)
    assert repr(tool) == "ToyTool('add')"


def test_an_exported_tool_comes_back_as_the_standard_tool_it_runs() -> None:
    standard = st.Tool(
        name="add",
        title="Add",
        description="Add two integers.",
        input_schema=SCHEMA,
        output_schema={"type": "integer"},
        meta={"k": 1},
        execute=lambda i: i["a"] + i["b"],
    )
    tool = ToyTool(Exported(standard))
    assert tool.standard_tool is standard
    assert tool.input_schema == st.input_json_schema(standard)
    assert not tool.validate_input and not tool.validate_output  # the standard tool checks
    assert (tool.title, tool.output_schema, tool.meta) == ("Add", {"type": "integer"}, {"k": 1})
    with pytest.raises(st.ToolValidationError):  # checked, once, by the tool it runs
        st.call(tool, {"a": 2})


@pytest.mark.parametrize("name", [None, "", 3])
def test_a_tool_without_a_name_is_refused_naming_the_framework(name: Any) -> None:
    with pytest.raises(ConversionError, match=r"^Toy tool without a name \(Native\)"):
        ToyTool(Native(name=name))


def test_a_description_that_is_no_string_is_refused() -> None:
    with pytest.raises(ConversionError, match=r"^Toy tool 'add': the description must be"):
        ToyTool(Native(name="add", description=["not", "text"]))


def test_foreign_metadata_is_ignored_not_trusted() -> None:
    native = Native(name="add", metadata={"standard_tool": {"name": 5, "meta": "x"}})
    tool = ToyTool(native)
    assert (tool.name, tool.meta, tool.title) == ("add", {}, None)


def test_from_x_refuses_a_holder_pointing_to_from_x_tools_and_anything_else_by_type() -> None:
    with pytest.raises(UnsupportedObjectError, match=r"^Holder is a Toy holder, which holds .*"):
        from_toy(Holder())
    with pytest.raises(UnsupportedObjectError) as caught:
        from_toy(object())
    assert str(caught.value) == "not a Toy tool: builtins.object"


def test_from_x_tools_adopts_one_object_or_each_of_several() -> None:
    one, two, three = Native(name="one"), Native(name="two"), Native(name="three")
    assert [t.name for t in from_toy_tools(one)] == ["one"]
    assert [t.name for t in from_toy_tools(Holder(one, two))] == ["one", "two"]
    assert [t.name for t in from_toy_tools([Holder(one), two, three])] == ["one", "two", "three"]
    assert [t.name for t in from_toy_tools(iter([three]))] == ["three"]
    with pytest.raises(UnsupportedObjectError, match="not a Toy tool"):
        from_toy_tools([one, 5])


@pytest.mark.parametrize(
    ("result", "text"),
    [
        ("as it is: {\"a\"", "as it is: {\"a\""),
        (7, "7"),
        (True, "true"),
        (None, "null"),
        ({"ä": [1, 2.5]}, '{"ä": [1, 2.5]}'),
        (datetime.date(2026, 12, 6), '"2026-12-06"'),
        ((1, "x"), '[1, "x"]'),
    ],
)
def test_a_result_is_the_text_a_model_reads(result: Any, text: str) -> None:
    assert result_text("tool", result) == text


@pytest.mark.parametrize("result", [math.nan, {"x": object()}, {"n": math.inf}])
def test_a_result_with_no_json_form_is_an_invalid_output_of_the_tool(result: Any) -> None:
    with pytest.raises(st.ToolValidationError) as caught:
        result_text("lookup", result)
    assert (caught.value.tool, caught.value.target) == ("lookup", "output")
    assert "object at" not in str(caught.value)  # no value shown
