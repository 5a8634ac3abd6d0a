"""An adopted LangChain tool accepts what the JSON Schema a model is shown for it accepts
(JSON types strict), directly and through every installed framework's runtime; LangChain's
own validation runs on top; a tool made by ``to_langchain`` keeps its standard tool's rule."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import pytest
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import (
    BaseTool,
    InjectedToolArg,
    InjectedToolCallId,
    StructuredTool,
    Tool,
    tool,
)
from pydantic import BaseModel, field_validator

import standard_tool as st
from standard_tool import registry
from standard_tool.checks import DIRECT, outcomes
from standard_tool.testing import assert_same_verdict
from standard_tool_langchain import LangChainTool, from_langchain, to_langchain

FRAMEWORKS = ("langchain", "pydantic-ai", "llama-index", "mcp", "openai-agents", "smolagents")
RUNTIMES = [t.name for t in registry.targets() if t.name in FRAMEWORKS]
"""The installed frameworks whose runtimes run the adopted tools."""


@tool(parse_docstring=True)
def multiply(a: int, b: int = 2) -> int:
    """Multiply two numbers.

    Args:
        a: The first factor.
        b: The second factor.
    """
    return a * b


class Lookup(BaseTool):
    """A ``BaseTool`` subclass with only ``_run``, no ``args_schema``: LangChain shows the
    model ``_run``'s signature and checks nothing."""

    name: str = "lookup"
    description: str = "Look a word up."

    def _run(self, query: str) -> str:
        return f"found {query}"


@pytest.mark.parametrize(
    ("arguments", "refused"),
    [
        ({"a": 4}, None),
        ({"a": 4, "b": 3}, None),
        ({"a": "4"}, "a"),
        ({"a": True}, "a"),
        ({"a": 4.5}, "a"),
        ({"a": 4, "b": "3"}, "b"),
        ({}, "a"),
    ],
)
def test_a_typed_tool_takes_json_types_strictly(arguments: Any, refused: str | None) -> None:
    value = assert_same_verdict(from_langchain(multiply), arguments, refused, targets=RUNTIMES)
    if refused is None:
        assert value == arguments["a"] * arguments.get("b", 2)


def test_the_rule_holds_for_async_calls() -> None:
    adopted = from_langchain(multiply)
    with pytest.raises(st.ToolValidationError) as raised:
        asyncio.run(st.acall(adopted, {"a": "4"}))
    assert raised.value.fields == ("a",)
    assert asyncio.run(st.acall(adopted, {"a": 4})) == 8


def test_a_base_tool_with_only_run_is_checked_here() -> None:
    assert Lookup().invoke({"query": 5}) == "found 5"  # LangChain checks nothing
    adopted = from_langchain(Lookup())
    assert st.input_json_schema(adopted)["required"] == ["query"]
    assert assert_same_verdict(adopted, {"query": "owl"}, None, targets=RUNTIMES) == "found owl"
    assert_same_verdict(adopted, {"query": 5}, "query", targets=RUNTIMES)
    assert_same_verdict(adopted, {"query": None}, "query", targets=RUNTIMES)
    assert_same_verdict(adopted, {}, "query", targets=RUNTIMES)  # not a TypeError of _run


@pytest.mark.parametrize(
    ("arguments", "refused"),
    [({"__arg1": "abc"}, None), ({"__arg1": 5}, "__arg1"), ({"__arg1": True}, "__arg1")],
)
def test_a_single_input_tool(arguments: Any, refused: str | None) -> None:
    adopted = from_langchain(Tool(name="upper", description="Upper-case.", func=str.upper))
    value = assert_same_verdict(adopted, arguments, refused, targets=RUNTIMES)
    assert value == (None if refused else "ABC")


class Even(BaseModel):
    n: int

    @field_validator("n")
    @classmethod
    def even(cls, n: int) -> int:
        if n % 2:
            raise ValueError("must be even")
        return n


@pytest.mark.parametrize("handled", [False, True], ids=["raised", "handled"])
def test_langchains_own_validation_still_refuses_more(handled: bool) -> None:
    """A validator of the tool's model refuses an input the JSON Schema accepts, named as a
    field, even when ``handle_validation_error`` would turn it into text."""
    native = StructuredTool.from_function(
        lambda n: n // 2,
        name="half",
        description="Halve an even number.",
        args_schema=Even,
        handle_validation_error=handled,
    )
    adopted = from_langchain(native)
    assert (
        str(assert_same_verdict(adopted, {"n": 4}, None, targets=RUNTIMES)) == "2"
    )  # text, from a ToolMessage
    assert_same_verdict(adopted, {"n": 12345}, "n", targets=RUNTIMES)
    assert_same_verdict(adopted, {"n": "4"}, "n", targets=RUNTIMES)


@tool
def whoami(
    label: str,
    user: Annotated[str, InjectedToolArg],
    call_id: Annotated[str, InjectedToolCallId],
    config: RunnableConfig,
) -> str:
    """Say who asks."""
    return f"{label}:{user}:{call_id}:{config['configurable'].get('tenant')}"


def test_injected_arguments_are_filled_after_the_check() -> None:
    adopted = from_langchain(whoami)
    assert set(st.input_json_schema(adopted)["properties"]) == {"label"}
    context = {"user": "ada", "tool_call_id": "call-7", "tenant": "t1"}
    assert st.call(adopted, {"label": "x"}, context) == "x:ada:call-7:t1"
    # the frameworks that hand the context on (MCP's runtime calls without one)
    runtimes = [name for name in RUNTIMES if name != "mcp"]
    assert_same_verdict(adopted, {"label": "x"}, None, context=context, targets=runtimes)
    assert_same_verdict(adopted, {"label": 5}, "label", context=context, targets=runtimes)
    assert_same_verdict(adopted, {"label": "x"}, "user", context={"tenant": "t1"}, targets=runtimes)


class Who(BaseTool):
    """A ``BaseTool`` subclass with an injected argument and no ``args_schema``."""

    name: str = "who"
    description: str = "Say who asks."

    def _run(self, label: str, user: Annotated[str, InjectedToolArg]) -> str:
        return f"{label}:{user}"


def test_injected_arguments_of_a_tool_with_only_run() -> None:
    adopted = from_langchain(Who())
    assert set(st.input_json_schema(adopted)["properties"]) == {"label"}
    assert st.call(adopted, {"label": "x"}, {"user": "ada"}) == "x:ada"
    assert_same_verdict(
        adopted, {"label": 5}, "label", context={"user": "ada"}, targets=["langchain"]
    )
    # no user in the context: a refusal naming it, not a TypeError of _run
    assert_same_verdict(adopted, {"label": "x"}, "user", context={}, targets=["langchain"])


def test_injected_state_of_a_langgraph_tool() -> None:
    injected = pytest.importorskip("langgraph.prebuilt").InjectedState

    def count(word: str, state: dict[str, Any]) -> int:
        """Count the messages that hold a word."""
        return sum(word in message for message in state["messages"])

    count.__annotations__.update(word=str, state=Annotated[dict[str, Any], injected])
    adopted = from_langchain(tool(count))
    assert set(st.input_json_schema(adopted)["properties"]) == {"word"}
    context = {"state": {"messages": ["an owl", "a cat", "owls"]}}
    assert st.call(adopted, {"word": "owl"}, context) == 2
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(adopted, {"word": 5}, context)
    assert raised.value.fields == ("word",)


# -- a round trip of a standard tool keeps the standard tool's rule ----------------------


@st.tool
def add(a: int, b: int = 1) -> int:
    """Add two integers.

    Args:
        a: The first addend.
        b: The second addend.
    """
    return a + b


ROUND_TRIP_CALLS = [{"a": 5}, {"a": "5"}, {"a": "five"}, {"a": True}, {}]
"""What the original accepts (``5``, and ``"5"`` and ``true``, which pydantic coerces) and
refuses."""


@pytest.mark.parametrize("arguments", ROUND_TRIP_CALLS)
def test_a_round_trip_behaves_as_the_original(arguments: dict[str, Any]) -> None:
    back = from_langchain(to_langchain(add))
    assert isinstance(back, LangChainTool) and not back.validate_input
    assert outcomes(back, arguments, [DIRECT]) == outcomes(add, arguments, [DIRECT])


@pytest.mark.parametrize("target", RUNTIMES)
def test_a_round_trip_behaves_as_the_original_through_each_runtime(target: str) -> None:
    back = from_langchain(to_langchain(add))
    for arguments in ROUND_TRIP_CALLS:
        assert (
            outcomes(back, arguments, [target])[target]
            == outcomes(add, arguments, [target])[target]
        ), arguments


def test_the_original_accepts_what_pydantic_coerces_and_so_does_its_round_trip() -> None:
    back = from_langchain(to_langchain(add))
    assert st.call(add, {"a": "5"}) == 6
    assert st.call(back, {"a": "5"}) == 6
    assert asyncio.run(st.acall(back, {"a": "5"})) == 6
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(back, {"a": "five"})
    assert raised.value.tool == "add" and raised.value.fields == ("a",)
