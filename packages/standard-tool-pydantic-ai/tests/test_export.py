"""Standard tools as PydanticAI tools: what the model sees, and what a call returns."""

from __future__ import annotations

import copy
import json
from typing import Annotated, Any

import pytest
from agent_runs import V2, Script, answers, is_error, is_retry, outcome, run_agent, run_sync
from pydantic import AfterValidator
from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults, RunContext, Tool
from pydantic_ai.exceptions import ModelRetry
from pydantic_ai.models.test import TestModel
from pydantic_ai.toolsets import AbstractToolset
from pydantic_ai.usage import RunUsage

import standard_tool as st
from standard_tool.exceptions import ToolNameError, UsageError
from standard_tool.testing import SECRET, sample_tools
from standard_tool_pydantic_ai import (
    METADATA_KEY,
    StandardPydanticAITool,
    from_pydantic_ai,
    to_pydantic_ai,
    to_pydantic_ai_toolset,
)

ORDER_SCHEMA: dict[str, Any] = {
    "title": "PlaceOrder",
    "type": "object",
    "properties": {
        "item": {"$ref": "#/$defs/Item"},
        "quantity": {"type": "integer", "minimum": 1, "default": 1, "description": "How many."},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "speed": {"enum": ["standard", "express"]},
        "extras": {"type": "object", "additionalProperties": {"type": "number"}},
    },
    "required": ["item", "speed"],
    "additionalProperties": False,
    "$defs": {
        "Item": {
            "title": "Item",
            "type": "object",
            "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]+$"}},
            "required": ["sku"],
            "additionalProperties": False,
        }
    },
}
RECEIPT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"sku": {"type": "string"}, "total": {"type": "integer"}},
    "required": ["sku", "total"],
}


def place_order(input: dict[str, Any]) -> dict[str, Any]:
    return {"sku": input["item"]["sku"], "total": input.get("quantity", 1)}


def order_tool(**fields: Any) -> st.Tool:
    options: dict[str, Any] = {
        "name": "place_order",
        "title": "Place an order",
        "description": "Place an order for one item.",
        "input_schema": ORDER_SCHEMA,
        "output_schema": RECEIPT_SCHEMA,
        "execute": place_order,
        "meta": {"destructive": True},
    }
    return st.Tool(**{**options, **fields})


VALID_ORDER = {"item": {"sku": "ABC-1"}, "quantity": 2, "speed": "express"}


# -- what the model sees ----------------------------------------------------------------


def test_the_model_sees_the_input_schema_unchanged() -> None:
    script, _ = run_agent([], tools=[to_pydantic_ai(order_tool())])
    (definition,) = script.tools[0]
    assert definition.parameters_json_schema == ORDER_SCHEMA  # title, $defs, additionalProperties
    assert definition.name == "place_order"
    assert definition.description == "Place an order for one item."


def test_the_tool_definition_carries_every_field() -> None:
    definition = to_pydantic_ai(order_tool()).tool_def
    assert definition.parameters_json_schema == ORDER_SCHEMA
    assert definition.return_schema == RECEIPT_SCHEMA
    assert definition.metadata == {
        METADATA_KEY: {
            "title": "Place an order",
            "output_schema": RECEIPT_SCHEMA,
            "meta": {"destructive": True},
        }
    }
    assert definition.strict is None  # left to PydanticAI


def test_strict_is_set_only_when_asked() -> None:
    assert to_pydantic_ai(order_tool(), strict=True).tool_def.strict is True
    assert to_pydantic_ai(order_tool(), strict=False).tool_def.strict is False


def test_a_tool_without_output_schema_has_no_return_schema() -> None:
    tool = st.Tool(name="ping", description="Ping.", input_schema={"type": "object"}, execute=dict)
    assert to_pydantic_ai(tool).tool_def.return_schema is None


def test_include_return_schemas_shows_the_output_schema_to_the_model() -> None:
    toolset = to_pydantic_ai_toolset([order_tool()])
    shown, _ = run_agent([], toolsets=[toolset.include_return_schemas()])
    hidden, _ = run_agent([], toolsets=[toolset])
    (with_schema,), (without,) = shown.tools[0], hidden.tools[0]
    assert json.dumps(RECEIPT_SCHEMA, indent=2) in (with_schema.description or "")
    assert without.description == "Place an order for one item." and without.return_schema is None


def test_a_name_no_model_accepts_is_made_valid_and_restored() -> None:
    native = to_pydantic_ai(order_tool(name="orders.place now"))
    assert native.name == "orders_place_now"
    assert native.tool_def.metadata[METADATA_KEY]["name"] == "orders.place now"  # type: ignore[index]
    assert from_pydantic_ai(native).name == "orders.place now"
    assert to_pydantic_ai(order_tool(), name="buy").name == "buy"


def test_converting_derives_nothing_until_used() -> None:
    reads: list[str] = []

    class Counting:
        name = "place_order"
        description = "Place an order."
        execute = staticmethod(place_order)

        @property
        def input_schema(self) -> Any:
            reads.append("input_schema")
            return ORDER_SCHEMA

        @property
        def output_schema(self) -> Any:
            reads.append("output_schema")
            return RECEIPT_SCHEMA

    native = to_pydantic_ai(Counting())
    assert reads == []
    assert native.tool_def.return_schema == RECEIPT_SCHEMA
    assert set(reads) == {"input_schema", "output_schema"}


def test_a_deep_copy_runs_like_the_original() -> None:
    native = copy.deepcopy(to_pydantic_ai(order_tool()))
    assert isinstance(native, StandardPydanticAITool) and isinstance(native, Tool)
    _, result = run_agent([[("place_order", VALID_ORDER)]], tools=[native])
    assert outcome(answers(result)[0]).value == {"sku": "ABC-1", "total": 2}


def test_bad_options_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="on_failure"):
        to_pydantic_ai(order_tool(), on_failure="ignore")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="context"):
        to_pydantic_ai(order_tool(), context="everything")  # type: ignore[arg-type]


# -- invalid input: a retry the model recovers from ---------------------------------------


def test_invalid_arguments_are_a_retry_naming_every_field_and_the_model_recovers() -> None:
    bad = {"item": {"sku": "nope"}, "quantity": 0, "speed": "express", "colour": "red"}
    _, result = run_agent(
        [[("place_order", bad)], [("place_order", VALID_ORDER)]],
        tools=[to_pydantic_ai(order_tool())],
    )
    first, second = answers(result)
    assert is_retry(first)
    text = outcome(first).error or ""
    assert "place_order" in text
    for field in ("item.sku", "quantity", "colour"):
        assert field in text, text
    assert "nope" not in text and "red" not in text  # the offending values are not quoted
    assert outcome(second).value == {"sku": "ABC-1", "total": 2}
    assert result.output == "done"


@pytest.mark.parametrize(
    "arguments",
    ["{not json", "[1, 2]", '"text"', json.dumps({"item": {"sku": "ABC-1"}, "speed": None})],
    ids=["not-json", "a-list", "a-string", "null-enum"],
)
def test_hostile_arguments_are_retries_without_traceback(arguments: str) -> None:
    _, result = run_agent(
        [[("place_order", arguments)], [("place_order", VALID_ORDER)]],
        tools=[to_pydantic_ai(order_tool())],
    )
    first, second = answers(result)
    assert is_retry(first)
    text = outcome(first).error or ""
    assert "place_order" in text and "Traceback" not in text
    assert outcome(second).error is None


def test_a_number_too_large_to_read_is_a_retry_saying_so() -> None:
    big = "1" * 5000
    _, result = run_agent(
        [[("place_order", f'{{"quantity": {big}}}')], [("place_order", VALID_ORDER)]],
        tools=[to_pydantic_ai(order_tool())],
    )
    first, second = answers(result)
    assert is_retry(first)
    text = outcome(first).error or ""
    assert "too large" in text and "not valid JSON" not in text and big not in text, text
    assert outcome(second).error is None


CHECKED: list[int] = []


def _checked(value: int) -> int:
    CHECKED.append(value)
    return value


@st.tool
def add_checked(a: Annotated[int, AfterValidator(_checked)], b: int = 1) -> int:
    """Add, counting each check of ``a``."""
    return a + b


@st.tool
async def add_checked_async(a: Annotated[int, AfterValidator(_checked)], b: int = 1) -> int:
    """Add, counting each check of ``a``."""
    return a + b


@pytest.mark.parametrize("tool", [add_checked, add_checked_async], ids=["sync", "async"])
def test_arguments_are_checked_once_per_call(tool: st.Tool) -> None:
    """PydanticAI's validation step checks the arguments with the tool's own check; the call
    runs on what it accepted, without a second check."""
    CHECKED.clear()
    _, result = run_agent(
        [[(tool.name, {"a": 2})], [(tool.name, {"a": 5, "b": 2})]], tools=[to_pydantic_ai(tool)]
    )
    assert [outcome(part).value for part in answers(result)] == [3, 7]
    assert CHECKED == [2, 5]


def test_arguments_changed_after_the_check_are_checked_again() -> None:
    """A hook that changes the validated arguments in place between PydanticAI's validation
    step and the call: the call checks them as they are then, and runs on them."""
    toolset = to_pydantic_ai_toolset([add_checked])

    async def call(change: dict[str, Any]) -> Any:
        ctx = RunContext(deps=None, model=TestModel(), usage=RunUsage())
        tool = (await toolset.get_tools(ctx))["add_checked"]
        arguments = tool.args_validator.validate_json('{"a": 2}')
        arguments.update(change)
        return await toolset.call_tool("add_checked", arguments, ctx, tool)

    assert run_sync(call({})) == 3
    assert run_sync(call({"a": 10})) == 11
    with pytest.raises(ModelRetry) as refused:
        run_sync(call({"a": "ten"}))
    assert "add_checked" in str(refused.value) and "ten" not in str(refused.value)


def test_invalid_arguments_are_refused_before_approval_is_asked() -> None:
    toolset = to_pydantic_ai_toolset([order_tool()]).approval_required()
    script, result = run_agent(
        [[("place_order", {"item": {}})], [("place_order", VALID_ORDER)]],
        toolsets=[toolset],
        output_type=[str, DeferredToolRequests],
    )
    (retry,) = answers(result)
    assert is_retry(retry) and "item.sku" in (outcome(retry).error or "")
    assert isinstance(result.output, DeferredToolRequests)
    (approval,) = result.output.approvals
    assert approval.tool_name == "place_order" and approval.args_as_dict() == VALID_ORDER


# -- failures of the tool --------------------------------------------------------------


def explode(reason: str, context: Any = None) -> str:
    """Fail on purpose."""
    raise RuntimeError(f"exploded: {reason}")


def exit_now() -> str:
    """Exit the process."""
    raise SystemExit(3)


def interrupt() -> str:
    """Raise KeyboardInterrupt."""
    raise KeyboardInterrupt


def not_json() -> Any:
    """Return something that is not JSON data."""
    return {"ratio": float("nan")}


OPAQUE = object()


def opaque() -> Any:
    """Return an object pydantic cannot serialize."""
    return OPAQUE


def wrong_output(input: dict[str, Any]) -> dict[str, Any]:
    return {"sku": 1}


def sleepy() -> str:
    """Sleep past the time limit."""
    import time

    time.sleep(2)
    return "late"


def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


def failing_tools() -> list[Any]:
    return [
        st.tool(explode),
        st.tool(exit_now),
        st.tool(interrupt),
        st.tool(not_json),
        order_tool(name="wrong_output", execute=wrong_output),
        st.tool(sleepy, timeout=0.2),
        st.tool(add),
    ]


FAILURES = {
    "explode": ({"reason": "on purpose"}, "RuntimeError: exploded: on purpose"),
    "exit_now": ({}, "SystemExit"),
    "interrupt": ({}, "KeyboardInterrupt"),
    "not_json": ({}, "ratio: "),
    "wrong_output": (VALID_ORDER, "Invalid output for tool 'wrong_output'"),
    "sleepy": ({}, "timed out"),
}


@pytest.mark.parametrize("name", sorted(FAILURES))
def test_a_failing_tool_is_a_failed_result_and_the_run_goes_on(name: str) -> None:
    arguments, expected = FAILURES[name]
    toolset = to_pydantic_ai_toolset(failing_tools())
    _, result = run_agent(
        [[(name, arguments)], [(name, arguments)], [("add", {"a": 1})]],
        toolsets=[toolset],
        deps={"token": SECRET},
        retries=0,
    )
    failed, again, added = answers(result)
    for answer in (failed, again):  # no retry budget is spent: 0 retries allowed
        assert is_error(answer) and not is_retry(answer)
        text = outcome(answer).error or ""
        assert expected in text and name in text, text
        assert "Traceback" not in text and SECRET not in text
    if V2:
        assert failed.outcome == "failed"
    assert outcome(added).value == 2
    assert result.output == "done"


def test_an_object_with_no_json_form_is_a_failure_of_the_tool_not_a_crash() -> None:
    _, result = run_agent(
        [[("opaque", {})], [("opaque", {})]], tools=[to_pydantic_ai(st.tool(opaque))]
    )
    first, second = answers(result)
    for answer in (first, second):
        error = outcome(answer).error or ""
        assert "cannot be serialized as JSON" in error and not is_retry(answer)
        assert str(OPAQUE) not in error


def test_an_output_that_breaks_its_schema_names_the_field_not_the_value() -> None:
    tool = order_tool(name="wrong_output", execute=wrong_output)
    _, result = run_agent([[("wrong_output", VALID_ORDER)]], tools=[to_pydantic_ai(tool)])
    (answer,) = answers(result)
    text = outcome(answer).error or ""
    assert "sku" in text and "total" in text and not is_retry(answer)


def test_on_failure_retry_asks_the_model_again_within_the_retry_budget() -> None:
    from pydantic_ai.exceptions import UnexpectedModelBehavior

    native = to_pydantic_ai(st.tool(explode), on_failure="retry")
    _, result = run_agent([[("explode", {"reason": "x"})]], tools=[native], retries=1)
    (answer,) = answers(result)
    assert is_retry(answer) and "exploded: x" in (outcome(answer).error or "")
    with pytest.raises(UnexpectedModelBehavior, match="explode"):
        run_agent([[("explode", {"reason": "x"})]] * 3, tools=[native], retries=1)


def test_on_failure_raise_ends_the_run_with_the_typed_error() -> None:
    native = to_pydantic_ai(st.tool(explode), on_failure="raise")
    with pytest.raises(st.ToolExecutionError) as raised:
        run_agent([[("explode", {"reason": "x"})]], tools=[native])
    assert raised.value.tool == "explode" and isinstance(raised.value.__cause__, RuntimeError)


def test_invalid_input_is_a_retry_whatever_on_failure_says() -> None:
    native = to_pydantic_ai(st.tool(add), on_failure="raise")
    _, result = run_agent([[("add", {"a": "one"})], [("add", {"a": 1})]], tools=[native])
    retry, done = answers(result)
    assert is_retry(retry) and outcome(done).value == 2


# -- context ---------------------------------------------------------------------------


def whose(label: str, context: Any = None) -> str:
    """Say whose call this is."""
    return f"{label}: {context['user']}"


def describe_context(context: Any = None) -> dict[str, Any]:
    """Describe the context received."""
    return {
        "kind": type(context).__name__,
        "deps": context.deps,
        "tool_name": context.tool_name,
        "has_call_id": bool(context.tool_call_id),
    }


def test_the_context_is_the_runs_deps_by_default() -> None:
    _, result = run_agent(
        [[("whose", {"label": "x"})]], tools=[to_pydantic_ai(st.tool(whose))], deps={"user": "ada"}
    )
    assert outcome(answers(result)[0]).value == "x: ada"


def test_the_context_can_be_the_whole_run_context() -> None:
    native = to_pydantic_ai(st.tool(describe_context), context="run_context")
    _, result = run_agent([[("describe_context", {})]], tools=[native], deps={"user": "ada"})
    assert outcome(answers(result)[0]).value == {
        "kind": "RunContext",
        "deps": {"user": "ada"},
        "tool_name": "describe_context",
        "has_call_id": True,
    }


def test_the_context_can_be_built_from_the_run_context() -> None:
    native = to_pydantic_ai(st.tool(whose), context=lambda ctx: {"user": ctx.deps.upper()})
    _, result = run_agent([[("whose", {"label": "x"})]], tools=[native], deps="ada")
    assert outcome(answers(result)[0]).value == "x: ADA"


# -- toolsets --------------------------------------------------------------------------


def test_a_toolset_keeps_order_and_names() -> None:
    tools = sample_tools()
    order = ["search", "add", "whoami", "greet", "explode"]
    toolset = to_pydantic_ai_toolset([tools[name] for name in order])
    script, _ = run_agent([], toolsets=[toolset])
    assert [definition.name for definition in script.tools[0]] == order
    assert list(toolset.tools) == order


def test_a_toolset_takes_one_tool() -> None:
    assert list(to_pydantic_ai_toolset(st.tool(add)).tools) == ["add"]


def test_duplicate_names_are_refused_naming_both_tools() -> None:
    tools = sample_tools()
    other = st.Tool(name="search", description="Find a product.", execute=dict)
    with pytest.raises(ToolNameError) as raised:
        to_pydantic_ai_toolset([tools["search"], tools["add"], other])
    message = str(raised.value)
    assert "#0 'search' (Search the catalogue.)" in message
    assert "#2 'search' (Find a product.)" in message


def test_names_that_collide_once_made_valid_are_refused_naming_both_tools() -> None:
    first, second = st.tool(add, name="add.v2"), st.tool(add, name="add v2")
    with pytest.raises(ToolNameError) as raised:
        to_pydantic_ai_toolset([first, second])
    assert "'add.v2'" in str(raised.value) and "'add v2'" in str(raised.value)
    assert "add_v2" in str(raised.value)


@pytest.mark.parametrize("wrapper", ["prefixed", "filtered", "renamed"])
def test_the_toolset_works_under_pydantic_ais_wrappers(wrapper: str) -> None:
    toolset = to_pydantic_ai_toolset(failing_tools())
    wrapped: AbstractToolset[Any]
    if wrapper == "prefixed":
        wrapped, name = toolset.prefixed("math"), "math_add"
    elif wrapper == "filtered":
        wrapped, name = toolset.filtered(lambda ctx, td: td.name == "add"), "add"
    else:
        wrapped, name = toolset.renamed({"plus": "add"}), "plus"
    script, result = run_agent(
        [[(name, {"a": 1, "b": 2})], [(name, {"a": "x"})]], toolsets=[wrapped]
    )
    if wrapper == "filtered":
        assert [definition.name for definition in script.tools[0]] == ["add"]
    assert name in [definition.name for definition in script.tools[0]]
    added, retry = answers(result)
    assert outcome(added).value == 3
    assert is_retry(retry) and "Invalid input for tool 'add'" in (outcome(retry).error or "")


def test_an_approved_call_runs() -> None:
    toolset = to_pydantic_ai_toolset([order_tool()]).approval_required()
    script = Script([[("place_order", VALID_ORDER)]])
    agent: Agent[None, Any] = Agent(
        script.model(), toolsets=[toolset], output_type=[str, DeferredToolRequests]
    )
    first = run_sync(agent.run("go"))
    assert isinstance(first.output, DeferredToolRequests)
    (request,) = first.output.approvals
    results = DeferredToolResults(approvals={request.tool_call_id: True})
    second = run_sync(
        agent.run(message_history=first.all_messages(), deferred_tool_results=results)
    )
    assert outcome(answers(second)[-1]).value == {"sku": "ABC-1", "total": 2}


def test_a_toolset_names_an_element_that_is_not_a_tool_by_its_index() -> None:
    with pytest.raises(st.UnsupportedObjectError) as raised:
        to_pydantic_ai_toolset([order_tool(), 3])
    assert str(raised.value).startswith("element 1 of the list (an int) is not a tool")
