"""The adapter kit: WrapperTool, metadata packing, exporting lists, Adapter, lazy names,
errors that pickle, tools that copy, and dialects open to new names."""

from __future__ import annotations

import asyncio
import copy
import inspect
import pickle
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

import standard_tool as st
from standard_tool import exceptions
from standard_tool.adapters import (
    METADATA_KEY,
    Adapter,
    WrapperTool,
    as_tools,
    export_tools,
    pack_metadata,
    unpack_metadata,
)
from standard_tool.dialects import Dialect, convert_schema, dialects, register_dialect
from standard_tool.exceptions import (
    Issue,
    ToolExecutionError,
    ToolNameError,
    ToolValidationError,
    UnsupportedObjectError,
    UsageError,
)
from standard_tool.hookspecs import hookimpl
from standard_tool.names import MCP_NAMES, OPENAI_NAMES
from standard_tool.testing import sample_tools


def _add(a: int, b: int = 1) -> int:
    """Add.

    Args:
        a: First.
        b: Second.
    """
    return a + b


# -- WrapperTool ----------------------------------------------------------------------------


def test_a_plain_wrapper_behaves_like_the_wrapped_tool() -> None:
    for name in ("add", "greet", "search"):
        original = sample_tools()[name]
        wrapper = WrapperTool(original)
        for field in ("name", "title", "description", "input_schema", "output_schema"):
            assert getattr(wrapper, field) is getattr(original, field), field
        assert dict(wrapper.meta) == dict(original.meta)
        assert inspect.iscoroutinefunction(wrapper.execute) == inspect.iscoroutinefunction(
            original.execute
        )
    wrapper = WrapperTool(sample_tools()["greet"])
    arguments = {"person": {"name": "Ada"}}
    assert st.call(wrapper, arguments) == "Hello, Ada"
    assert asyncio.run(st.acall(wrapper, arguments)) == "Hello, Ada"
    with pytest.raises(ToolValidationError):
        st.call(wrapper, {"person": {"name": ""}})


class Native:
    """A framework's tool: a name, a schema, and a runner that raises its own errors."""

    name = "halve"
    description = "Halve an even number."
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "required": ["n"],
        "additionalProperties": False,
    }

    def run(self, arguments: dict[str, Any]) -> Any:
        if arguments["n"] % 2:
            raise ArithmeticError("odd")
        return {"half": arguments["n"] // 2} if arguments["n"] else {"half": "zero"}


class Adopted(WrapperTool):
    validate_input = True
    validate_output = True
    seen: list[Any] = []

    @property
    def input_schema(self) -> Any:
        return self.wrapped.schema

    @property
    def output_schema(self) -> Any:
        return {"type": "object", "properties": {"half": {"type": "integer"}}}

    def run(self, input: Any, context: Any) -> Any:
        self.seen.append(input)
        return self.wrapped.run(input)

    def translate(self, exc: Exception) -> Exception:
        if isinstance(exc, ArithmeticError):
            return ToolExecutionError(self.name, f"cannot halve: {exc}")
        return exc


def test_a_subclass_overrides_only_what_differs() -> None:
    adopted = Adopted(Native())
    assert (adopted.name, adopted.description, adopted.title) == ("halve", Native.description, None)
    assert st.call(adopted, {"n": 4}) == {"half": 2}
    assert adopted.seen[-1] == {"n": 4}  # checked, not transformed
    with pytest.raises(ToolValidationError) as invalid:
        st.call(adopted, {"n": "4", "x": 1})
    assert invalid.value.target == "input" and set(invalid.value.fields) == {"n", "x"}
    with pytest.raises(ToolExecutionError) as failed:
        st.call(adopted, {"n": 3})
    assert failed.value.message == "cannot halve: odd"
    assert isinstance(failed.value.__cause__, ArithmeticError)
    with pytest.raises(ToolValidationError) as output:
        st.call(adopted, {"n": 0})
    assert output.value.target == "output" and output.value.fields == ("half",)
    formatted = st.call(st.with_formatted_output(adopted), {"n": 0})
    assert formatted["error"].startswith("Invalid output for tool 'halve'")


class Half(BaseModel):
    half: int


class ModelAdopted(Adopted):
    """A framework whose tools return Python objects (a model), checked by their JSON form."""

    def run(self, input: Any, context: Any) -> Any:
        result = self.wrapped.run(input)
        return Half(half=result["half"]) if isinstance(result["half"], int) else {"half": object()}


def test_a_returned_model_is_checked_by_its_json_form() -> None:
    adopted = ModelAdopted(Native())
    assert st.call(adopted, {"n": 4}) == Half(half=2)  # checked, not transformed
    with pytest.raises(ToolValidationError) as output:
        st.call(adopted, {"n": 0})
    assert output.value.target == "output" and output.value.fields == ("half",)
    assert "object at 0x" not in str(output.value)  # the value itself is never shown


def test_a_wrapper_re_reads_a_schema_that_changed() -> None:
    adopted = Adopted(Native())
    assert st.call(adopted, {"n": 2}) == {"half": 1}
    adopted.wrapped.schema = {"type": "object", "required": ["m"]}
    with pytest.raises(ToolValidationError, match="m"):
        st.call(adopted, {"n": 2})


# -- metadata and names ---------------------------------------------------------------------


def test_pack_and_unpack_metadata_round_trip() -> None:
    search = sample_tools()["search"]
    entry = pack_metadata(search)
    assert entry == {
        "title": "Search",
        "output_schema": st.output_json_schema(search),
        "meta": {"destructive": False, "idempotent": True},
    }
    stored = unpack_metadata({METADATA_KEY: entry, "other": 1})
    assert (stored.name, stored.title, stored.meta) == (None, "Search", dict(search.meta))
    assert stored.output_schema == st.output_json_schema(search)
    renamed = pack_metadata(search, name="search_v2", slots=("title", "output_schema", "meta"))
    assert renamed == {"name": "search"}
    assert unpack_metadata(renamed).name == "search"


@pytest.mark.parametrize(
    "metadata",
    [None, 3, "x", [1], {METADATA_KEY: "x"}, {METADATA_KEY: {"name": 1, "title": [], "meta": 2}}],
)
def test_foreign_metadata_is_ignored_not_trusted(metadata: Any) -> None:
    stored = unpack_metadata(metadata)
    assert (stored.name, stored.title, stored.output_schema, stored.meta) == (None, None, None, {})


def test_export_tools_takes_one_or_many_and_refuses_collisions() -> None:
    tools = sample_tools()
    pairs = export_tools(tools["add"], lambda tool, name: (tool.name, name), OPENAI_NAMES)
    assert pairs == [("add", "add")]

    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    renamed = st.tool(shout, name="my tool.v2")
    names = export_tools([renamed, shout], lambda tool, name: name, OPENAI_NAMES)
    assert names == ["my_tool_v2", "shout"]
    assert export_tools((renamed,), lambda tool, name: name, MCP_NAMES) == ["my_tool.v2"]
    with pytest.raises(ToolNameError, match="'my tool.v2' and 'my_tool.v2' both become"):
        export_tools([renamed, st.tool(shout, name="my_tool.v2")], lambda t, n: n, OPENAI_NAMES)
    with pytest.raises(ToolNameError, match="two tools are named 'add'"):
        export_tools([tools["add"], tools["add"]], lambda t, n: n, OPENAI_NAMES)
    assert as_tools(x for x in [shout]) == [shout]


class FieldsTool:
    """A framework's tool object that iterates over its fields (as a pydantic model does)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __iter__(self) -> Any:
        return iter([("name", self.name), ("description", "A field tool.")])


class FieldsAdapter:
    """A plugin that adopts :class:`FieldsTool`."""

    @hookimpl
    def standard_tool_adopt(self, obj: Any) -> Any:
        if isinstance(obj, FieldsTool):
            return st.Tool(name=obj.name, description="A field tool.", execute=lambda i: i)
        return None


def test_an_iterable_tool_an_adapter_adopts_is_one_tool(plugin_manager: Any) -> None:
    from standard_tool.boundary import Gate, GuardedTool
    from standard_tool.contracts import snapshot
    from standard_tool.providers import to_openai

    tool = FieldsTool("fields")
    assert len(as_tools(tool)) == 2  # no adapter adopts it: its items, as before
    plugin_manager.register(FieldsAdapter(), name="fields")
    assert as_tools(tool) == [tool]
    guarded = Gate().guard(tool)
    assert isinstance(guarded, GuardedTool) and guarded.name == "fields"
    assert st.call(guarded, {"k": 1}) == {"k": 1}
    assert to_openai(tool)["name"] == "fields"  # one declaration, not a list of one
    assert [entry["name"] for entry in snapshot(tool)["tools"]] == ["fields"]
    other = FieldsTool("other")
    for several in ([tool, other], (tool, other), (t for t in [tool, other])):
        assert [g.name for g in Gate().guard(several)] == ["fields", "other"]
    assert as_tools({tool}) == [tool] and as_tools(frozenset([tool])) == [tool]
    assert as_tools({"a": tool}.values()) == [tool]  # a view: no adapter adopts it, several


def test_an_element_that_is_not_a_tool_is_named_by_its_index() -> None:
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    for several in ([shout, 3], (shout, 3)):
        kind = type(several).__name__
        with pytest.raises(UnsupportedObjectError) as raised:
            export_tools(several, lambda tool, name: name, OPENAI_NAMES)
        assert str(raised.value).startswith(
            f"element 1 of the {kind} (an int) is not a tool: no installed adapter can adopt "
            "builtins.int"
        ), str(raised.value)
        with pytest.raises(UnsupportedObjectError) as raised:
            st.registry.adopt_tools(several)
        assert str(raised.value).startswith(f"element 1 of the {kind} (an int) is not a tool")
    with pytest.raises(UnsupportedObjectError) as raised:
        st.registry.adopt_tools([shout, [shout, 3]])
    assert str(raised.value).startswith(
        "element 1 of the list: element 1 of the list (an int) is not a tool"
    )
    with pytest.raises(UnsupportedObjectError) as raised:
        export_tools([shout, shout, [shout]], lambda tool, name: name, OPENAI_NAMES)
    assert str(raised.value).startswith("element 2 of the list (a list) is not a tool")
    with pytest.raises(UnsupportedObjectError) as raised:
        export_tools(3, lambda tool, name: name, OPENAI_NAMES)  # one object: named as it was
    assert str(raised.value).startswith("no installed adapter can adopt builtins.int")


def test_a_provider_names_an_element_that_is_not_a_tool_by_its_index() -> None:
    from standard_tool import providers

    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    call = {"id": "c1", "type": "function", "function": {"name": "shout", "arguments": "{}"}}
    ways: list[Callable[[list[Any]], object]] = [
        lambda tools: providers.to_openai(tools),
        lambda tools: providers.to_anthropic(tools),
        lambda tools: providers.to_gemini(tools),
        lambda tools: providers.run_tool_calls(tools, [call], provider="openai"),
    ]
    for way in ways:
        with pytest.raises(UnsupportedObjectError) as raised:
            way([shout, 3])
        assert str(raised.value).startswith("element 1 of the list (an int) is not a tool")


# -- Adapter --------------------------------------------------------------------------------


def test_an_adapter_asks_only_modules_already_imported(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "kit_framework.py").write_text("class Thing:\n    name = 'thing'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    adapter = Adapter(
        target="kit",
        distribution="standard-tool",
        adopt="standard_tool.testing:sample_tools",
        native=("kit_framework:Thing",),
    )
    sys.modules.pop("kit_framework", None)
    assert adapter.standard_tool_adopt(obj=object()) is None
    assert "kit_framework" not in sys.modules
    import kit_framework  # type: ignore[import-not-found]  # written by this test

    assert adapter.owns(kit_framework.Thing()) and not adapter.owns(object())
    assert (
        adapter.standard_tool_export(tool=sample_tools()["add"], target="kit", options={}) is None
    )
    [info] = adapter.standard_tool_targets()
    assert (info.name, info.distribution) == ("kit", "standard-tool") and info.version


# -- errors and copies ----------------------------------------------------------------------


ERRORS = [
    exceptions.ToolValidationError("t", "output", [Issue("bad", ("a", 0))]),
    exceptions.ToolExecutionError("t", "ValueError: boom"),
    exceptions.ServerError("tools/list", "no answer"),
    exceptions.ToolTimeoutError("t", 1.5),
    exceptions.ToolRefusedError("t", "held_for_review", "Wait.", "r-1", {"id": "r-1"}),
    exceptions.NotJsonError([Issue("not a number", ("a",))]),
    exceptions.SchemaNotExpressibleError("openapi-3.0", "prefixItems", "/a", "one items"),
    exceptions.SchemaNotExpressibleError("gemini", "$ref", "/a", "recursive", tool="t"),
    exceptions.ModelOutputError("tool call 1 is cut off"),
    exceptions.UnknownTargetError("mcp", ["standard"], "standard-tool-mcp"),
    exceptions.UnsupportedObjectError("no adapter"),
    exceptions.UnsupportedToolError("final_answer", "smolagents", "its name is reserved"),
    exceptions.ConversionError("no"),
    exceptions.PluginError("no"),
    exceptions.UsageError("no"),
    exceptions.ToolNameError("no"),
    exceptions.InputGenerationError("no input can be generated from the schema"),
    exceptions.StepTimeoutError("no answer within 1 s"),
    exceptions.ToolRefusedError("t", "held_for_review", "waits", "r1", {"id": "r1"}),
    exceptions.PinMismatchError("t", ("description", "input"), "mcp-server-time"),
    exceptions.PinMismatchError("t", ("unpinned",)),
    exceptions.StoreError("the store's file /tmp/x.db was deleted"),
    exceptions.StandardToolError("no"),
]


def test_every_error_class_is_covered() -> None:
    classes = {
        obj
        for obj in vars(exceptions).values()
        if isinstance(obj, type) and issubclass(obj, exceptions.StandardToolError)
    }
    assert classes == {type(error) for error in ERRORS}


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_every_error_pickles_with_its_attributes(error: Exception) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)
    assert vars(back) == vars(error)


def test_execution_errors_keep_the_message() -> None:
    error = ToolExecutionError("t", "ValueError: boom")
    assert error.message == "ValueError: boom" and str(error) == "Tool 't' failed: ValueError: boom"


def test_a_tool_deep_copies_with_its_own_meta() -> None:
    for original in sample_tools().values():
        clone = copy.deepcopy(original)
        assert (clone.name, clone.input_schema, dict(clone.meta)) == (
            original.name,
            original.input_schema,
            dict(original.meta),
        )
        assert copy.copy(original) is original
    greet = sample_tools()["greet"]
    clone = copy.deepcopy(greet)
    assert asyncio.run(st.acall(clone, {"person": {"name": "Ada"}})) == "Hello, Ada"
    tool = st.Tool(name="m", description="d", execute=len, meta={"tags": ["a"]})
    clone = copy.deepcopy(tool)
    assert clone.meta["tags"] == ["a"] and clone.meta["tags"] is not tool.meta["tags"]
    assert st.call(clone, {"x": 1}) == 1


def test_a_tool_pickles_where_its_function_does(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "kit_tools.py").write_text(
        textwrap.dedent(
            '''
            import standard_tool as st

            @st.tool(meta={"k": 1})
            def double(n: int) -> int:
                """Double."""
                return 2 * n
            '''
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import kit_tools  # type: ignore[import-not-found]  # written by this test

    assert pickle.loads(pickle.dumps(kit_tools.double)) is kit_tools.double
    made = st.tool(_add, name="adder", meta={"m": True})
    back = pickle.loads(pickle.dumps(made))
    assert (back.name, dict(back.meta), st.call(back, {"a": 2})) == ("adder", {"m": True}, 3)
    search = sample_tools()["search"]
    back = pickle.loads(pickle.dumps(search))
    assert st.call(back, {"query": "q", "limit": 1}) == {"hits": ["q-0"], "total": 1}
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(st.Tool(name="l", description="d", execute=lambda input: input))


# -- dialects -------------------------------------------------------------------------------


def _const_to_enum(dialect: Dialect, schema: dict[str, Any], pointer: str) -> dict[str, Any]:
    if "const" in schema:
        schema["enum"] = [schema.pop("const")]
    return schema


def _no_titles(dialect: Dialect, schema: dict[str, Any], pointer: str) -> dict[str, Any]:
    if "title" in schema and not pointer.endswith("/properties"):
        schema.pop("title")
    return schema


class Enumerated(Dialect):
    steps = (_const_to_enum, _no_titles)


def test_a_registered_dialect_applies_its_steps_everywhere() -> None:
    register_dialect("test-enumerated", Enumerated)
    assert "test-enumerated" in dialects()
    schema = {
        "title": "T",
        "type": "object",
        "properties": {
            "kind": {"const": "a", "title": "Kind"},
            "items": {"type": "array", "items": {"const": 1}},
        },
        "$defs": {"D": {"const": True}},
    }
    assert convert_schema(schema, "test-enumerated") == {
        "type": "object",
        "properties": {"kind": {"enum": ["a"]}, "items": {"type": "array", "items": {"enum": [1]}}},
        "$defs": {"D": {"enum": [True]}},
    }
    draft_07 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"D": {"const": 1}},
    }
    assert convert_schema(draft_07, "test-enumerated") == {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"D": {"enum": [1]}},
    }

    @st.tool
    def pick(kind: str = "a") -> str:
        """Pick."""
        return kind

    assert st.input_json_schema(pick, target="test-enumerated") == {
        "type": "object",
        "properties": {"kind": {"default": "a", "type": "string"}},
        "additionalProperties": False,
    }


def test_dialect_names_are_checked() -> None:
    with pytest.raises(UsageError, match="unknown schema dialect 'nope'.*draft-07"):
        convert_schema({}, "nope")
    with pytest.raises(UsageError, match="built-in"):
        register_dialect("draft-07", Enumerated)
    with pytest.raises(UsageError, match="Dialect subclass"):
        register_dialect("x", dict)  # type: ignore[arg-type]


async def test_keyword_functions_run_the_tool_with_keyword_input() -> None:
    from standard_tool.adapters import keyword_functions

    @st.tool
    def add(a: int, b: int = 1) -> int:
        """Add."""
        return a + b

    run, arun = keyword_functions(add)
    assert run(a=2) == 3 and await arun(a=2, b=5) == 7
    with pytest.raises(ToolValidationError):
        run(a="x")
