"""LlamaIndex tools as standard tools: functions, subclasses, specs, query engines.

No ``from __future__ import annotations`` here: LlamaIndex finds a ``Context`` parameter by
its evaluated annotation.
"""

import asyncio
import copy
from typing import Any

import pytest
from llama_index.core.query_engine import CustomQueryEngine
from llama_index.core.tools import FunctionTool, QueryEngineTool, ToolMetadata
from llama_index.core.tools.tool_spec.base import BaseToolSpec
from llama_index.core.tools.types import AsyncBaseTool, BaseTool, ToolOutput
from llama_index.core.workflow import Context

import standard_tool as st
from standard_tool.exceptions import ToolExecutionError, ToolValidationError, UnsupportedObjectError
from standard_tool_llama_index import (
    CONTEXT_KEY,
    LlamaIndexTool,
    from_llama_index,
    from_llama_index_tools,
    to_llama_index,
)


def multiply(a: int, b: int = 2) -> int:
    """Multiply two integers."""
    return a * b


async def amultiply(a: int, b: int = 2) -> int:
    """Multiply two integers, asynchronously."""
    await asyncio.sleep(0)
    return a * b


def parameters(tool: BaseTool) -> dict[str, Any]:
    return tool.metadata.get_parameters_dict()


# -- FunctionTool ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "native",
    [
        FunctionTool.from_defaults(multiply),
        FunctionTool.from_defaults(async_fn=amultiply, name="multiply"),
        FunctionTool.from_defaults(amultiply, name="multiply"),
        FunctionTool.from_defaults(multiply, async_fn=amultiply),
    ],
    ids=["sync", "async_fn", "async", "both"],
)
def test_function_tools_run_sync_async_and_inside_a_loop(native: FunctionTool) -> None:
    back = from_llama_index(native)
    assert back.name == "multiply" and back.description == native.metadata.description
    assert st.input_json_schema(back) == parameters(native)
    assert st.call(back, {"a": 3}) == 6

    async def inside() -> tuple[Any, Any]:
        return st.call(back, {"a": 4, "b": 3}), await st.acall(back, {"a": 5})

    assert asyncio.run(inside()) == (12, 10)


def test_both_functions_each_serve_their_side() -> None:
    seen: list[str] = []

    def run(x: int) -> int:
        """Double."""
        seen.append("sync")
        return 2 * x

    async def arun(x: int) -> int:
        seen.append("async")
        return 2 * x

    back = from_llama_index(FunctionTool.from_defaults(run, async_fn=arun))
    assert st.call(back, {"x": 1}) == 2
    assert asyncio.run(st.acall(back, {"x": 1})) == 2
    assert seen == ["sync", "async"]


def test_input_is_checked_against_the_schema_the_model_sees() -> None:
    back = from_llama_index(FunctionTool.from_defaults(multiply))
    with pytest.raises(ToolValidationError) as raised:
        st.call(back, {"a": "3"})  # LlamaIndex itself would pass "3" on: "33"
    assert raised.value.tool == "multiply" and raised.value.fields == ("a",)
    with pytest.raises(ToolValidationError) as raised:
        st.call(back, {"a": 3, "c": 1})
    assert raised.value.fields == ("c",) and "not an input" in str(raised.value)


def test_partial_params_are_hidden_applied_and_not_overridable() -> None:
    def greet(name: str, greeting: str) -> str:
        """Greet someone."""
        return f"{greeting}, {name}"

    native = FunctionTool.from_defaults(greet, partial_params={"greeting": "Hi"})
    back = from_llama_index(native)
    assert set(st.input_json_schema(back)["properties"]) == {"name"}
    assert st.call(back, {"name": "Ada"}) == "Hi, Ada"
    with pytest.raises(ToolValidationError) as raised:
        st.call(back, {"name": "Ada", "greeting": "Bye"})
    assert raised.value.fields == ("greeting",) and "bound by the tool" in str(raised.value)


async def whoami(ctx: Context, label: str) -> dict[str, Any]:
    """Who calls, as the workflow Context tells."""
    store = getattr(ctx, "store", None)
    get = store.get if store is not None else ctx.get
    return {
        "label": label,
        "user": await get("user", default=None),
        "context": await get(CONTEXT_KEY, default=None),
    }


def test_a_context_parameter_is_hidden_and_filled_from_the_standard_context() -> None:
    back = from_llama_index(FunctionTool.from_defaults(whoami))
    assert st.input_json_schema(back)["properties"].keys() == {"label"}
    result = st.call(back, {"label": "x"}, {"user": "ada"})
    assert result == {"label": "x", "user": "ada", "context": {"user": "ada"}}
    assert st.call(back, {"label": "y"}, "token") == {
        "label": "y",
        "user": None,
        "context": "token",
    }
    assert st.call(back, {"label": "z"}) == {"label": "z", "user": None, "context": None}


async def test_a_workflow_context_is_passed_as_it_is() -> None:
    back = from_llama_index(FunctionTool.from_defaults(whoami))
    agent_like = Context(native_workflow())
    store = getattr(agent_like, "store", None)
    await (store.set("user", "bo") if store is not None else agent_like.set("user", "bo"))
    assert (await st.acall(back, {"label": "x"}, agent_like))["user"] == "bo"


def native_workflow() -> Any:
    from llama_index.core.workflow import StartEvent, StopEvent, Workflow, step

    class Echo(Workflow):
        @step
        async def echo(self, ev: StartEvent) -> StopEvent:
            return StopEvent()

    return Echo()


def test_tool_metadata_return_direct_becomes_meta() -> None:
    native = FunctionTool.from_defaults(multiply, return_direct=True)
    assert from_llama_index(native).meta == {"return_direct": True}


# -- other tools -----------------------------------------------------------------------------


class Lookup(BaseTool):
    """A plain BaseTool: one ``input`` string, as LlamaIndex's default schema has it."""

    @property
    def metadata(self) -> ToolMetadata:
        return ToolMetadata(name="lookup", description="Look a word up.", fn_schema=None)

    def __call__(self, input: Any) -> ToolOutput:
        return ToolOutput(
            content=f"{input}: found",
            tool_name="lookup",
            raw_input={"input": input},
            raw_output=None,
        )


class Checker(AsyncBaseTool):
    """An async tool reporting failures as error outputs, as LlamaIndex tools may."""

    @property
    def metadata(self) -> ToolMetadata:
        return ToolMetadata(name="check", description="Check a value.")

    def call(self, input: Any) -> ToolOutput:
        return self._check(input)

    async def acall(self, input: Any) -> ToolOutput:
        return self._check(input)

    def _check(self, value: Any) -> ToolOutput:
        ok = value == "ok"
        return ToolOutput(
            content="fine" if ok else "check failed: not ok",
            tool_name="check",
            raw_input={"input": value},
            raw_output={"ok": True} if ok else None,
            is_error=not ok,
        )


def test_base_tool_subclasses_run_as_agents_run_them() -> None:
    lookup = from_llama_index(Lookup())
    assert st.input_json_schema(lookup) == {
        "type": "object",
        "properties": {"input": {"title": "input query string", "type": "string"}},
        "required": ["input"],
    }
    assert st.call(lookup, {"input": "cat"}) == "cat: found"  # the text, raw_output being None
    assert asyncio.run(st.acall(lookup, {"input": "dog"})) == "dog: found"
    with pytest.raises(ToolValidationError):
        st.call(lookup, {})


def test_error_outputs_raise_typed_errors() -> None:
    check = from_llama_index(Checker())
    assert st.call(check, {"input": "ok"}) == {"ok": True}
    with pytest.raises(ToolExecutionError) as raised:
        asyncio.run(st.acall(check, {"input": "bad"}))
    assert raised.value.tool == "check" and raised.value.message == "check failed: not ok"


class Echo(CustomQueryEngine):
    """A query engine answering without a model."""

    def custom_query(self, query_str: str) -> str:
        return f"answer to {query_str}"


def test_query_engine_tools_take_the_input_the_model_sees_and_return_the_answer() -> None:
    native = QueryEngineTool.from_defaults(Echo(), name="ask", description="Ask the docs.")
    back = from_llama_index(native)
    assert st.input_json_schema(back) == parameters(native)
    assert list(st.input_json_schema(back)["properties"]) == ["input"]
    assert st.call(back, {"input": "why"}) == "answer to why"
    assert asyncio.run(st.acall(back, {"input": "how"})) == "answer to how"


# -- tool specs --------------------------------------------------------------------------------


class NotesSpec(BaseToolSpec):
    """A tool spec with a sync, an async and a sync-and-async function."""

    spec_functions = ["add_note", "count_notes", ("find_note", "afind_note")]

    def __init__(self) -> None:
        self.notes: list[str] = []

    def add_note(self, text: str) -> int:
        """Add a note and return how many there are."""
        self.notes.append(text)
        return len(self.notes)

    async def count_notes(self) -> int:
        """Count the notes."""
        return len(self.notes)

    def find_note(self, word: str) -> list[str]:
        """Find notes containing a word."""
        return [note for note in self.notes if word in note]

    async def afind_note(self, word: str) -> list[str]:
        return self.find_note(word)


def test_a_tool_spec_adopts_whole_or_as_its_tool_list() -> None:
    spec = NotesSpec()
    tools = {tool.name: tool for tool in from_llama_index_tools(spec)}
    assert list(tools) == [tool.metadata.name for tool in spec.to_tool_list()]
    assert [t.name for t in from_llama_index_tools(spec.to_tool_list())] == list(tools)
    assert st.call(tools["add_note"], {"text": "buy milk"}) == 1
    assert st.call(tools["add_note"], {"text": "call Ada"}) == 2
    # llama-index-core 0.12.38 names an async-only spec function "patched_sync"
    assert "count_notes" in tools or list(tools)[1] == "patched_sync"
    if "count_notes" in tools:
        assert st.call(tools["count_notes"], {}) == 2
    assert asyncio.run(st.acall(tools["find_note"], {"word": "Ada"})) == ["call Ada"]
    with pytest.raises(UnsupportedObjectError, match="from_llama_index_tools"):
        from_llama_index(spec)
    whole = st.registry.adopt_tools([spec])  # the registry takes a spec whole
    assert [tool.name for tool in whole] == list(tools)


# -- refusal, copies, round trips ------------------------------------------------------------


def test_foreign_objects_are_refused() -> None:
    with pytest.raises(UnsupportedObjectError, match="not a LlamaIndex tool"):
        from_llama_index(multiply)
    assert isinstance(st.adopt(FunctionTool.from_defaults(multiply)), LlamaIndexTool)


def test_an_adopted_tool_deep_copies() -> None:
    back = copy.deepcopy(from_llama_index(FunctionTool.from_defaults(amultiply, name="m")))
    assert st.call(back, {"a": 2}) == 4


@pytest.mark.parametrize(
    "native",
    [
        FunctionTool.from_defaults(multiply),
        FunctionTool.from_defaults(async_fn=amultiply, name="amultiply"),
        QueryEngineTool.from_defaults(Echo(), name="ask", description="Ask the docs."),
    ],
    ids=["sync", "async", "query-engine"],
)
def test_round_trip_presents_accepts_and_returns_the_same(native: BaseTool) -> None:
    again = to_llama_index(from_llama_index(native))
    assert again.metadata.to_openai_tool() == native.metadata.to_openai_tool()
    arguments = {"input": "why"} if isinstance(native, QueryEngineTool) else {"a": 3}
    want, got = native.call(**arguments), again.call(**arguments)
    assert str(got.raw_output) == str(want.raw_output)
    assert got.content == want.content
    with pytest.raises(ToolValidationError):
        again.call(**{name: [] for name in arguments})
