"""Google ADK tools as users have them, adopted as standard tools and called through their
``run_async`` with a real ``ToolContext``."""

from __future__ import annotations

from typing import Any

import pytest
from google.adk.agents.llm_agent import LlmAgent
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.base_toolset import BaseToolset
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

import standard_tool as st
from standard_tool.exceptions import ToolRefusedError, UnsupportedObjectError
from standard_tool.registry import adopt_tools
from standard_tool_google_adk import (
    GoogleAdkTool,
    from_google_adk,
    from_google_adk_tools,
    schema_to_json,
)


def multiply(x: int, y: int = 2) -> int:
    """Multiply two numbers."""
    return x * y


async def amultiply(x: int, y: int = 2) -> int:
    """Multiply two numbers, awaited."""
    return x * y


def whoami(tool_context: ToolContext) -> dict[str, Any]:
    """Say who calls, from the tool context."""
    return {
        "user": tool_context.user_id,
        "token": tool_context.state.get("token"),
        "call": tool_context.function_call_id,
    }


CATALOG = types.Schema(
    type=types.Type.OBJECT,
    property_ordering=["query", "limit"],
    properties={
        "limit": types.Schema(type=types.Type.INTEGER, minimum=1, maximum=50, nullable=True),
        "query": types.Schema(type=types.Type.STRING, min_length=1, description="What to find."),
        "size": types.Schema(type=types.Type.STRING, enum=["s", "m"], nullable=True),
        "level": types.Schema(type=types.Type.INTEGER, enum=["1", "2"]),
        "tags": types.Schema(
            type=types.Type.ARRAY, items=types.Schema(type=types.Type.STRING), max_items=3
        ),
        "when": types.Schema(type=types.Type.STRING, format="date-time", example="2026-01-01"),
        "either": types.Schema(
            any_of=[types.Schema(type=types.Type.STRING), types.Schema(type=types.Type.NUMBER)],
            nullable=True,
        ),
    },
    required=["query"],
)
CATALOG_JSON = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "What to find.", "minLength": 1},
        "limit": {"type": ["integer", "null"], "minimum": 1, "maximum": 50},
        "size": {"type": ["string", "null"], "enum": ["s", "m", None]},
        "level": {"type": "integer", "enum": [1, 2]},
        "tags": {"type": "array", "maxItems": 3, "items": {"type": "string"}},
        "when": {"type": "string", "format": "date-time", "examples": ["2026-01-01"]},
        "either": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]},
    },
    "required": ["query"],
}


class Catalog(BaseTool):
    """A hand-written ADK tool declared with a Gemini ``types.Schema``."""

    def __init__(self) -> None:
        super().__init__(name="catalog", description="Look up the catalog.")

    def _get_declaration(self) -> types.FunctionDeclaration:
        return types.FunctionDeclaration(
            name=self.name, description=self.description, parameters=CATALOG
        )

    async def run_async(self, *, args: dict[str, Any], tool_context: Any) -> Any:
        return {"found": args["query"], "limit": args.get("limit")}


class Raw(BaseTool):
    """A hand-written ADK tool declared with a raw JSON Schema."""

    SCHEMA = {
        "type": "object",
        "properties": {"n": {"type": "integer", "exclusiveMinimum": 0}},
        "required": ["n"],
        "additionalProperties": False,
    }

    def __init__(self, answer: Any = None) -> None:
        super().__init__(name="raw", description="Count.")
        self.answer = answer

    def _get_declaration(self) -> types.FunctionDeclaration:
        return types.FunctionDeclaration(
            name=self.name, description=self.description, parameters_json_schema=self.SCHEMA
        )

    async def run_async(self, *, args: dict[str, Any], tool_context: Any) -> Any:
        return self.answer if self.answer is not None else args["n"] + 1


@pytest.mark.parametrize("function", [multiply, amultiply], ids=["sync", "async"])
async def test_function_tools_run_as_adk_runs_them(function: Any) -> None:
    back = from_google_adk(FunctionTool(function))
    assert isinstance(back, GoogleAdkTool) and back.name == function.__name__
    assert back.description.startswith("Multiply two numbers")
    schema = back.input_schema
    assert schema["required"] == ["x"] and schema["properties"]["x"]["type"] == "integer"
    assert await st.acall(back, {"x": 3}) == 6
    assert st.call(back, {"x": 3, "y": 3}) == 9
    with pytest.raises(st.ToolValidationError) as raised:
        await st.acall(back, {"x": "three"})
    assert raised.value.tool == function.__name__ and "x" in raised.value.fields[0]


def test_the_standard_context_reaches_a_tool_through_its_tool_context() -> None:
    back = from_google_adk(FunctionTool(whoami))
    assert back.input_schema.get("properties", {}) == {}  # the tool context is not an argument
    context = {"actor": "alice", "token": "t-1", "request_id": "call-9"}
    assert st.call(back, {}, context) == {"user": "alice", "token": "t-1", "call": "call-9"}
    anonymous = st.call(back, {})
    assert anonymous["user"] == "user" and anonymous["call"].startswith("adk-")


def test_a_types_schema_declaration_is_rendered_to_json_schema() -> None:
    back = from_google_adk(Catalog())
    assert back.input_schema == CATALOG_JSON
    assert list(back.input_schema["properties"])[:2] == ["query", "limit"]
    assert st.call(back, {"query": "lamp", "limit": None}) == {"found": "lamp", "limit": None}
    for wrong, field in [({"query": ""}, "query"), ({"query": "a", "level": 3}, "level")]:
        with pytest.raises(st.ToolValidationError) as raised:
            st.call(back, wrong)
        assert field in raised.value.fields[0]


def test_schema_rendering_of_references_and_extra_properties() -> None:
    schema = types.Schema(
        type=types.Type.OBJECT,
        defs={"leaf": types.Schema(type=types.Type.BOOLEAN)},
        properties={"a": types.Schema(ref="#/$defs/leaf")},
        additional_properties=False,
        min_properties=1,
    )
    assert schema_to_json(schema) == {
        "type": "object",
        "minProperties": 1,
        "properties": {"a": {"$ref": "#/$defs/leaf"}},
        "additionalProperties": False,
        "$defs": {"leaf": {"type": "boolean"}},
    }
    assert schema_to_json(None) == {}
    assert schema_to_json({"type": "STRING", "nullable": True}) == {"type": ["string", "null"]}


def test_a_raw_json_schema_declaration_is_kept_exactly() -> None:
    back = from_google_adk(Raw())
    assert back.input_schema == Raw.SCHEMA
    assert st.call(back, {"n": 1}) == 2
    with pytest.raises(st.ToolValidationError):
        st.call(back, {"n": 0})
    with pytest.raises(st.ToolValidationError):
        st.call(back, {"n": 1, "extra": True})


def test_an_error_answer_of_the_tools_own_is_its_result() -> None:
    assert st.call(from_google_adk(Raw({"error": "out of stock"})), {"n": 1}) == {
        "error": "out of stock"
    }


def test_adks_own_argument_check_is_a_typed_error() -> None:
    class Loose(FunctionTool):
        """A function tool whose declaration leaves ``y`` out."""

        def _get_declaration(self) -> types.FunctionDeclaration:
            schema = {"type": "object", "properties": {"x": {"type": "integer"}}}
            return types.FunctionDeclaration(
                name=self.name, description=self.description, parameters_json_schema=schema
            )

    def strict(x: int, y: int) -> int:
        """Needs both."""
        return x + y

    with pytest.raises(st.ToolValidationError) as raised:
        st.call(from_google_adk(Loose(strict)), {"x": 1})
    assert raised.value.tool == "strict" and raised.value.fields == ("y",)


def test_a_tool_that_requires_confirmation_is_held_for_review() -> None:
    ran: list[int] = []

    def delete(item: int) -> str:
        """Delete an item."""
        ran.append(item)
        return "deleted"

    back = from_google_adk(FunctionTool(delete, require_confirmation=True))
    with pytest.raises(ToolRefusedError) as raised:
        st.call(back, {"item": 1}, {"request_id": "call-1"})
    assert (raised.value.code, raised.value.request_id) == ("held_for_review", "call-1")
    assert ran == []
    only_big = from_google_adk(FunctionTool(delete, require_confirmation=lambda item: item > 9))
    assert st.call(only_big, {"item": 1}) == "deleted"
    with pytest.raises(ToolRefusedError):
        st.call(only_big, {"item": 10})
    assert ran == [1]


def test_a_tool_that_asks_for_confirmation_itself_is_held_for_review() -> None:
    def ask(tool_context: ToolContext) -> dict[str, Any]:
        """Ask first."""
        tool_context.request_confirmation(hint="sure?")
        return {"error": "waiting"}

    with pytest.raises(ToolRefusedError) as raised:
        st.call(from_google_adk(FunctionTool(ask)), {})
    assert raised.value.code == "held_for_review"


def test_what_is_not_a_tool_that_runs_here_is_refused() -> None:
    class Hosted(BaseTool):
        pass

    with pytest.raises(UnsupportedObjectError, match="declaration"):
        from_google_adk(Hosted(name="search", description="Search."))
    with pytest.raises(UnsupportedObjectError, match="from_google_adk_tools"):
        from_google_adk(LlmAgent(name="a", tools=[multiply]))
    with pytest.raises(UnsupportedObjectError, match="not a Google ADK tool"):
        from_google_adk(multiply)


class Kit(BaseToolset):
    async def get_tools(self, readonly_context: Any = None) -> list[BaseTool]:
        return [FunctionTool(amultiply), Raw()]


def test_an_agents_tools_and_toolsets_are_adopted() -> None:
    agent = LlmAgent(name="a", tools=[multiply, FunctionTool(whoami), Kit()])
    tools = from_google_adk_tools(agent)
    assert [t.name for t in tools] == ["multiply", "whoami", "amultiply", "raw"]
    assert [t.name for t in adopt_tools(agent)] == [t.name for t in tools]
    assert [t.name for t in from_google_adk_tools(Kit())] == ["amultiply", "raw"]
    assert st.call(tools[3], {"n": 4}) == 5
