"""The adapter kit: the adopted-tool base, its refusals and listing, a result's model text,
what ``to_x`` exports under which name, and a call's context."""

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
    AmbientContext,
    BaseRuntime,
    WrapperTool,
    adopt_all,
    build_context,
    not_adoptable,
    pack_metadata,
    result_text,
    to_export,
)
from standard_tool.exceptions import ConversionError, ToolNameError, UnsupportedObjectError

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
        ('as it is: {"a"', 'as it is: {"a"'),
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


def test_to_export_adopts_and_names_the_tool_under_the_targets_rule() -> None:
    from standard_tool.names import OPENAI_NAMES

    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    standard, name = to_export(add, None, OPENAI_NAMES)
    assert (standard.name, name) == ("add", "add")
    dotted = st.Tool(name="math.add", description="Add.", input_schema=SCHEMA, execute=len)
    assert to_export(dotted, None, OPENAI_NAMES)[1] == "math_add"  # made valid
    assert to_export(dotted, "plus", OPENAI_NAMES)[1] == "plus"
    with pytest.raises(ToolNameError):
        to_export(dotted, "no spaces", OPENAI_NAMES)  # a given name is checked, not changed
    with pytest.raises(UnsupportedObjectError):  # no tool: no description to send
        to_export(WrapperTool(dotted, name="x", description=None), None, OPENAI_NAMES)


def test_a_context_getter_that_raises_is_the_calls_failure_naming_only_its_type() -> None:
    assert build_context("t", lambda ctx: {"user": ctx}, "ann") == {"user": "ann"}

    def leaky(ctx: Any) -> Any:
        raise KeyError("secret-token-123")

    with pytest.raises(st.ToolExecutionError) as caught:
        build_context("lookup", leaky, "ann")
    assert caught.value.tool == "lookup"
    assert "KeyError" in str(caught.value) and "secret" not in str(caught.value)
    assert isinstance(caught.value.__cause__, KeyError)  # kept for the developer, not shown


async def test_an_ambient_context_is_the_value_set_around_a_run_in_each_task() -> None:
    import asyncio
    import copy

    ambient = AmbientContext("test_ambient")
    assert ambient.get() is None and ambient.get("a framework's per-call object") is None
    seen: list[Any] = []

    async def call() -> None:
        await asyncio.sleep(0)
        seen.append(ambient.get())

    with ambient.around({"user": "ann"}):
        task = asyncio.create_task(call())  # a task started in the run copies it
        with ambient.around({"user": "bob"}):
            assert ambient.get() == {"user": "bob"}
        assert copy.deepcopy(ambient.get)() == {"user": "ann"}  # a copied tool reads the same
        await task
    assert seen == [{"user": "ann"}] and ambient.get() is None


@pytest.mark.parametrize(
    "declared",
    [
        {"type": "function", "function": {"name": "add", "parameters": SCHEMA}},
        {"name": "add", "parameters": SCHEMA},
        {"name": "add", "parameters": None, "parameters_json_schema": SCHEMA},
        {"name": "add", "inputSchema": SCHEMA},
    ],
    ids=["openai-chat", "parameters", "parameters_json_schema", "inputSchema"],
)
def test_a_runtime_reads_the_input_schema_from_its_declaration(declared: dict[str, Any]) -> None:
    class Shown(BaseRuntime):
        target = "shown"

        def declaration(self, native: Any) -> dict[str, Any]:
            return declared

    assert Shown().input_schema(object()) == SCHEMA


def test_a_runtime_whose_declaration_holds_no_schema_says_so() -> None:
    class Bare(BaseRuntime):
        target = "bare"

        def declaration(self, native: Any) -> dict[str, Any]:
            return {"name": "add"}

    with pytest.raises(LookupError, match="Bare: the declaration holds no input schema"):
        Bare().input_schema(object())
