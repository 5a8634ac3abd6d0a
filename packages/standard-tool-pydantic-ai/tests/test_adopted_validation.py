"""An adopted PydanticAI tool accepts what the JSON Schema a model is shown for it accepts
(JSON types strict), directly and through every installed framework's runtime; PydanticAI's
own validation runs on top; a tool exported here keeps its standard tool's rule."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import pytest
from agent_runs import answers, is_retry, outcome, run_agent
from pydantic import AfterValidator
from pydantic_ai import RunContext, Tool
from pydantic_ai.exceptions import ModelRetry
from pydantic_ai.toolsets import FunctionToolset

import standard_tool as st
from standard_tool import registry
from standard_tool.checks import DIRECT, outcomes
from standard_tool.testing import assert_same_verdict
from standard_tool_pydantic_ai import (
    PydanticAIArguments,
    PydanticAITool,
    from_pydantic_ai,
    from_pydantic_ai_toolset,
    to_pydantic_ai,
)

FRAMEWORKS = ("langchain", "pydantic-ai", "llama-index", "mcp", "openai-agents", "smolagents")
RUNTIMES = [t.name for t in registry.targets() if t.name in FRAMEWORKS]
"""The installed frameworks whose runtimes run the adopted tools."""


def add(a: int, b: int = 1) -> int:
    """Add two integers.

    Args:
        a: The first addend.
        b: The second addend.
    """
    return a + b


def scale(ctx: RunContext[int], x: int) -> int:
    """Multiply by the run's factor."""
    return ctx.deps * x


@pytest.mark.parametrize(
    ("arguments", "refused"),
    [
        ({"a": 2}, None),
        ({"a": 2, "b": 3}, None),
        ({"a": "5"}, "a"),
        ({"a": True}, "a"),
        ({"a": 2.5}, "a"),
        ({"a": 2, "b": "3"}, "b"),
        ({}, "a"),
    ],
)
def test_a_function_tool_takes_json_types_strictly(arguments: Any, refused: str | None) -> None:
    adopted = from_pydantic_ai(Tool(add))
    assert adopted.validate_input and adopted.input_by_json_schema
    value = assert_same_verdict(adopted, arguments, refused, targets=RUNTIMES)
    if refused is None:
        assert value == arguments["a"] + arguments.get("b", 1)


def test_pydantic_ai_itself_would_coerce() -> None:
    validator = Tool(add).function_schema.validator
    assert validator.validate_python({"a": "5"}) == {"a": 5, "b": 1}
    assert validator.validate_python({"a": True}) == {"a": 1, "b": 1}
    adopted = from_pydantic_ai(Tool(add))
    with pytest.raises(st.ToolValidationError) as raised:
        asyncio.run(st.acall(adopted, {"a": "5"}))
    assert raised.value.tool == "add" and raised.value.fields == ("a",)


def test_the_schema_object_follows_the_same_rule() -> None:
    adopted = from_pydantic_ai(Tool(add))
    assert isinstance(adopted.input_schema, PydanticAIArguments)
    for bad in ({"a": "5"}, {"a": True}):
        issues = adopted.input_schema.validate(bad).issues
        assert issues is not None and [issue.path for issue in issues] == [("a",)]
    assert adopted.input_schema.validate({"a": 5}).issues is None


def test_a_tool_taking_the_run_context() -> None:
    adopted = from_pydantic_ai(Tool(scale))
    assert st.call(adopted, {"x": 2}, 3) == 6
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(adopted, {"x": "2"}, 3)
    assert raised.value.fields == ("x",)


def test_a_toolsets_tools_follow_the_rule() -> None:
    (adopted,) = from_pydantic_ai_toolset(FunctionToolset([Tool(add)]).prefixed("m"))
    assert st.call(adopted, {"a": 2}) == 3
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(adopted, {"a": "2"})
    assert raised.value.tool == "m_add" and raised.value.fields == ("a",)


def even(n: int) -> int:
    if n % 2:
        raise ValueError("must be even")
    return n


def halve(n: Annotated[int, AfterValidator(even)]) -> int:
    """Halve an even number."""
    return n // 2


def test_pydantic_ais_own_validation_still_refuses_more() -> None:
    adopted = from_pydantic_ai(Tool(halve))
    assert assert_same_verdict(adopted, {"n": 4}, None, targets=RUNTIMES) == 2
    assert_same_verdict(
        adopted, {"n": 12345}, "n", targets=RUNTIMES
    )  # the JSON Schema accepts it; the model not
    assert_same_verdict(adopted, {"n": "4"}, "n", targets=RUNTIMES)


def test_a_retry_from_an_arguments_validator_surfaces_as_before() -> None:
    def positive(ctx: RunContext[Any], a: int, b: int = 1) -> None:
        if a < 0:
            raise ModelRetry("a must not be negative, try again")

    adopted = from_pydantic_ai(Tool(add, args_validator=positive))
    assert st.call(adopted, {"a": 2}) == 3
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(adopted, {"a": -2})
    assert raised.value.target == "input"
    assert raised.value.issues[0].message == "a must not be negative, try again"
    with pytest.raises(st.ToolValidationError) as strict:
        st.call(adopted, {"a": "-2"})  # the JSON Schema first: never reaches the validator
    assert strict.value.fields == ("a",)
    assert "try again" in (outcomes(adopted, {"a": -2}, ["pydantic-ai"])["pydantic-ai"].error or "")


def test_exported_again_an_agent_run_retries_what_the_original_coerces() -> None:
    native = Tool(add)
    again = to_pydantic_ai(from_pydantic_ai(native))
    steps = [[("add", {"a": "5"})]]
    _, original = run_agent(steps, tools=[native])
    _, converted = run_agent(steps, tools=[again])
    assert outcome(answers(original)[0]).value == 6  # PydanticAI's own run coerces "5"
    (retry,) = answers(converted)
    assert is_retry(retry) and "a: must be of type integer" in (outcome(retry).error or "")


def test_a_common_tool() -> None:
    x_search = pytest.importorskip("pydantic_ai.common_tools.x_search")
    from pydantic_ai.messages import ModelResponse, TextPart
    from pydantic_ai.models.function import FunctionModel
    from pydantic_ai.native_tools import XSearchTool

    answered = FunctionModel(lambda messages, info: ModelResponse(parts=[TextPart("3 posts")]))
    adopted = from_pydantic_ai(x_search.x_search_tool(answered, XSearchTool()))
    assert assert_same_verdict(adopted, {"query": "owls"}, None, targets=RUNTIMES) == "3 posts"
    assert_same_verdict(adopted, {"query": 424242}, "query", targets=RUNTIMES)
    assert_same_verdict(adopted, {}, "query", targets=RUNTIMES)


# -- a tool exported here, adopted back, keeps its standard tool's rule ------------------


@st.tool
def plus(a: int, b: int = 1) -> int:
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
    back = from_pydantic_ai(to_pydantic_ai(plus))
    assert isinstance(back, PydanticAITool) and not back.validate_input
    assert outcomes(back, arguments, [DIRECT]) == outcomes(plus, arguments, [DIRECT])
    assert st.call(back, {"a": "5"}) == 6


@pytest.mark.parametrize("target", RUNTIMES)
def test_a_round_trip_behaves_as_the_original_through_each_runtime(target: str) -> None:
    back = from_pydantic_ai(to_pydantic_ai(plus))
    for arguments in ROUND_TRIP_CALLS:
        assert (
            outcomes(back, arguments, [target])[target]
            == outcomes(plus, arguments, [target])[target]
        ), arguments
