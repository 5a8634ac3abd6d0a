"""PydanticAI tools and toolsets as standard tools, run through PydanticAI's own runtime."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agent_runs import V2, answers, is_retry, outcome, run_agent
from pydantic_ai import RunContext, Tool
from pydantic_ai.exceptions import ModelRetry
from pydantic_ai.messages import ToolReturn
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset, FunctionToolset, ToolsetTool

import standard_tool as st
from standard_tool.exceptions import (
    ConversionError,
    ServerError,
    ToolExecutionError,
    ToolTimeoutError,
    ToolValidationError,
    UnsupportedObjectError,
    UsageError,
)
from standard_tool.testing import sample_tools
from standard_tool_pydantic_ai import (
    PydanticAIArguments,
    PydanticAITool,
    from_pydantic_ai,
    from_pydantic_ai_toolset,
    load_pydantic_ai_toolset,
    to_pydantic_ai,
    to_pydantic_ai_toolset,
)


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


async def lookup(city: str) -> dict[str, Any]:
    """Look a city up; unknown cities ask the model to try again."""
    await asyncio.sleep(0)
    if city != "Paris":
        raise ModelRetry(f"unknown city {city!r}, try a capital")
    return {"city": city, "country": "FR"}


def crash(reason: str) -> str:
    """Fail."""
    raise ValueError(reason)


def rich(x: int) -> ToolReturn:
    """Return a ToolReturn."""
    return ToolReturn(return_value={"x": x}, metadata={"seen": True})


RAW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"query": {"type": "string", "minLength": 1}, "limit": {"type": "integer"}},
    "required": ["query"],
    "additionalProperties": False,
}


def search(**arguments: Any) -> list[str]:
    return [arguments["query"]] * arguments.get("limit", 1)


def from_schema() -> Tool[Any]:
    return Tool.from_schema(search, name="search", description="Search.", json_schema=RAW_SCHEMA)


# -- single tools ----------------------------------------------------------------------


def test_a_function_tool_keeps_its_definition_and_runs() -> None:
    native = Tool(add)
    adopted = from_pydantic_ai(native)
    assert isinstance(adopted, PydanticAITool) and adopted.native is native
    assert adopted.name == "add"
    assert adopted.description == native.tool_def.description
    assert st.input_json_schema(adopted) == native.tool_def.parameters_json_schema
    assert st.output_json_schema(adopted) == {"type": "integer"}
    assert adopted.title is None and dict(adopted.meta) == {}
    assert st.call(adopted, {"a": 2, "b": 3}) == 5


def test_the_input_is_checked_as_the_json_schema_the_model_sees() -> None:
    adopted = from_pydantic_ai(Tool(add))
    native_validator = Tool(add).function_schema.validator
    assert native_validator.validate_python({"a": "5"}) == {"a": 5, "b": 1}  # lax
    assert st.call(adopted, {"a": 5}) == 6
    for bad in ({"a": "5"}, {"a": "five"}):
        with pytest.raises(ToolValidationError) as raised:
            st.call(adopted, bad)
        assert raised.value.tool == "add" and raised.value.fields == ("a",)


def test_a_tool_taking_the_run_context_gets_the_standard_context_as_deps() -> None:
    native = Tool(scale)
    adopted = from_pydantic_ai(native)
    assert "ctx" not in str(st.input_json_schema(adopted))
    assert list(st.input_json_schema(adopted)["properties"]) == ["x"]
    assert st.call(adopted, {"x": 2}, 3) == 6

    async def inside_a_loop() -> int:
        result: int = await st.acall(adopted, {"x": 5}, 2)
        return result

    assert asyncio.run(inside_a_loop()) == 10


def test_a_run_context_given_as_the_standard_context_is_used() -> None:
    from pydantic_ai.usage import RunUsage

    from standard_tool_pydantic_ai._context import run_context_for

    ctx = run_context_for(7, "anything")
    assert isinstance(ctx, RunContext) and isinstance(ctx.usage, RunUsage)
    assert st.call(from_pydantic_ai(Tool(scale)), {"x": 2}, ctx) == 14


def test_a_tool_asking_the_model_outside_a_run_gets_a_clear_error() -> None:
    async def ask(ctx: RunContext[None], question: str) -> str:
        """Ask the run's model."""
        from pydantic_ai.direct import model_request
        from pydantic_ai.messages import ModelRequest

        model: Any = ctx.model  # its declared type differs between PydanticAI versions
        response = await model_request(model, [ModelRequest.user_text_prompt(question)])
        return str(response.parts[0])

    with pytest.raises(UsageError, match="outside an agent run"):
        st.call(from_pydantic_ai(Tool(ask)), {"question": "hi"})


def test_a_raw_schema_tool_is_checked_against_its_schema() -> None:
    """PydanticAI runs a ``Tool.from_schema`` tool with any arguments; adopted, it is checked,
    and exported again the model gets a retry where the original would have crashed."""
    adopted = from_pydantic_ai(from_schema())
    assert st.input_json_schema(adopted) == RAW_SCHEMA and adopted.validate_input
    assert st.call(adopted, {"query": "lamp", "limit": 2}) == ["lamp", "lamp"]
    for bad, field in [
        ({"limit": 2}, "query"),
        ({"query": ""}, "query"),
        ({"query": "x", "z": 1}, "z"),
    ]:
        with pytest.raises(ToolValidationError) as raised:
            st.call(adopted, bad)
        assert any(field in location for location in raised.value.fields), raised.value
    _, result = run_agent([[("search", {"limit": 2})]], tools=[to_pydantic_ai(adopted)])
    assert is_retry(answers(result)[0])


def test_a_retry_is_a_validation_error_with_the_tools_message() -> None:
    adopted = from_pydantic_ai(Tool(lookup))
    assert st.call(adopted, {"city": "Paris"}) == {"city": "Paris", "country": "FR"}
    with pytest.raises(ToolValidationError) as raised:
        st.call(adopted, {"city": "Lyon"})
    assert raised.value.target == "input"
    assert raised.value.issues[0].message == "unknown city 'Lyon', try a capital"


@pytest.mark.skipif(not V2, reason="ToolFailed is PydanticAI 2.x")
def test_tool_failed_is_an_execution_error() -> None:
    from pydantic_ai.exceptions import ToolFailed

    def gone(name: str) -> str:
        """Fail for good."""
        raise ToolFailed(f"{name} was deleted")

    with pytest.raises(ToolExecutionError) as raised:
        st.call(from_pydantic_ai(Tool(gone)), {"name": "x"})
    assert raised.value.message == "x was deleted"


def test_an_exception_is_an_execution_error_with_its_cause() -> None:
    with pytest.raises(ToolExecutionError) as raised:
        st.call(from_pydantic_ai(Tool(crash)), {"reason": "bad day"})
    assert raised.value.message == "ValueError: bad day"
    assert isinstance(raised.value.__cause__, ValueError)


def test_pydantic_ais_timeout_is_a_timeout_error() -> None:
    async def slow() -> str:
        """Take too long."""
        await asyncio.sleep(5)
        return "late"

    adopted = from_pydantic_ai(Tool(slow, timeout=0.1))
    assert adopted.timeout == 0.1
    with pytest.raises(ToolTimeoutError) as raised:
        st.call(adopted, {})
    assert raised.value.seconds == 0.1


def test_a_tool_return_gives_its_return_value() -> None:
    assert st.call(from_pydantic_ai(Tool(rich)), {"x": 1}) == {"x": 1}


def test_a_tool_its_prepare_function_leaves_out_is_not_available() -> None:
    async def only_for_admins(ctx: RunContext[Any], definition: ToolDefinition) -> Any:
        return definition if ctx.deps == "admin" else None

    adopted = from_pydantic_ai(Tool(add, prepare=only_for_admins))
    assert st.call(adopted, {"a": 1}, "admin") == 2
    with pytest.raises(ToolExecutionError, match="not available"):
        st.call(adopted, {"a": 1}, "guest")


def test_foreign_objects_are_refused() -> None:
    with pytest.raises(UnsupportedObjectError, match="not a PydanticAI Tool"):
        from_pydantic_ai(add)
    with pytest.raises(UnsupportedObjectError, match="from_pydantic_ai_toolset"):
        from_pydantic_ai(FunctionToolset([add]))
    with pytest.raises(UnsupportedObjectError):
        from_pydantic_ai_toolset([add, object()])


# -- round trips -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("native", "calls"),
    [
        (Tool(add), [{"a": 1, "b": 2}, {"a": "x"}, {"a": 3.0}]),
        (Tool(lookup), [{"city": "Paris"}, {"city": "Lyon"}, {}]),
        (from_schema(), [{"query": "q", "limit": 2}, {"query": "r"}]),
    ],
    ids=["function", "retrying", "from_schema"],
)
def test_a_round_trip_presents_and_behaves_as_the_original(
    native: Tool[Any], calls: list[dict[str, Any]]
) -> None:
    again = to_pydantic_ai(from_pydantic_ai(native))
    ours, theirs = again.tool_def, native.tool_def
    assert (ours.name, ours.description) == (theirs.name, theirs.description)
    assert ours.parameters_json_schema == theirs.parameters_json_schema
    steps = [[(native.name, arguments)] for arguments in calls]
    _, original = run_agent(steps, tools=[native], retries=len(calls))
    _, converted = run_agent(steps, tools=[again], retries=len(calls))
    for want, got in zip(answers(original), answers(converted), strict=True):
        assert is_retry(got) == is_retry(want), (want, got)
        if not is_retry(want):
            assert outcome(got).value == outcome(want).value


# -- toolsets --------------------------------------------------------------------------


def test_a_function_toolset_is_adopted_in_order() -> None:
    toolset = FunctionToolset([Tool(lookup), Tool(add), scale])
    adopted = from_pydantic_ai_toolset(toolset, deps=4)
    assert [tool.name for tool in adopted] == ["lookup", "add", "scale"]
    assert st.call(adopted[1], {"a": 1}) == 2
    assert st.call(adopted[2], {"x": 2}, 10) == 20  # each call's context is its deps


def test_a_list_of_tools_is_adopted() -> None:
    adopted = from_pydantic_ai_toolset([Tool(add), Tool(lookup)])
    assert [tool.name for tool in adopted] == ["add", "lookup"]


def test_the_registry_adopts_a_toolset_whole() -> None:
    toolset = FunctionToolset([Tool(add), Tool(lookup)]).prefixed("m")
    adopted = st.registry.adopt_tools([toolset, Tool(add)])
    assert [tool.name for tool in adopted] == ["m_add", "m_lookup", "add"]
    assert st.call(adopted[0], {"a": 2}) == 3


@pytest.mark.parametrize("wrapper", ["prefixed", "filtered", "renamed"])
def test_wrapped_toolsets_are_adopted_under_their_names(wrapper: str) -> None:
    toolset = FunctionToolset([Tool(add), Tool(lookup)])
    wrapped: AbstractToolset[Any]
    if wrapper == "prefixed":
        wrapped, names = toolset.prefixed("m"), ["m_add", "m_lookup"]
    elif wrapper == "filtered":
        wrapped, names = toolset.filtered(lambda ctx, td: td.name == "add"), ["add"]
    else:
        wrapped, names = toolset.renamed({"plus": "add"}), ["plus", "lookup"]
    adopted = from_pydantic_ai_toolset(wrapped)
    assert [tool.name for tool in adopted] == names
    assert st.call(adopted[0], {"a": 2}) == 3


def test_an_approval_required_toolset_refuses_unapproved_calls() -> None:
    (adopted,) = from_pydantic_ai_toolset(FunctionToolset([Tool(add)]).approval_required())
    with pytest.raises(ToolExecutionError, match="approval"):
        st.call(adopted, {"a": 1})


class PerUserToolset(AbstractToolset[Any]):
    """Lists its tools only for a user: it needs the run's deps."""

    def __init__(self) -> None:
        self.inner = FunctionToolset([Tool(add)])
        self.entered_on: list[asyncio.AbstractEventLoop] = []

    @property
    def id(self) -> str | None:
        return "per-user"

    async def __aenter__(self) -> PerUserToolset:
        self.entered_on.append(asyncio.get_running_loop())
        return self

    async def __aexit__(self, *args: Any) -> bool | None:
        return None

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        if ctx.deps is None:
            raise RuntimeError("no user")
        return await self.inner.get_tools(ctx)

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        return await self.inner.call_tool(name, tool_args, ctx, tool)


def test_a_toolset_that_cannot_list_outside_a_run_is_a_clear_error() -> None:
    with pytest.raises(ConversionError, match="cannot list the tools of .*outside an agent run"):
        from_pydantic_ai_toolset(PerUserToolset())
    (adopted,) = from_pydantic_ai_toolset(PerUserToolset(), deps="ada")
    assert st.call(adopted, {"a": 1}, "ada") == 2


class HangingToolset(PerUserToolset):
    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def test_a_toolset_that_never_lists_its_tools_times_out() -> None:
    with pytest.raises(ServerError, match="not listed within 0.2 s"):
        from_pydantic_ai_toolset(HangingToolset(), timeout=0.2)


async def test_the_async_loader_lists_on_the_callers_loop() -> None:
    toolset = PerUserToolset()
    (adopted,) = await load_pydantic_ai_toolset(toolset, deps="ada")
    assert toolset.entered_on == [asyncio.get_running_loop()]
    assert await st.acall(adopted, {"a": 1}, "ada") == 2
    with pytest.raises(ServerError):
        await load_pydantic_ai_toolset(HangingToolset(), timeout=0.1)


def test_an_exported_toolset_adopted_back_raises_the_typed_errors() -> None:
    tools = sample_tools()
    adopted = {t.name: t for t in from_pydantic_ai_toolset(to_pydantic_ai_toolset(tools.values()))}
    assert [t.name for t in adopted.values()] == list(tools)
    assert adopted["search"].title == "Search" and dict(adopted["greet"].meta) == {
        "read_only": True,
        "category": "social",
    }
    with pytest.raises(ToolValidationError) as raised:
        st.call(adopted["search"], {"query": "lamp", "limit": 500})
    assert raised.value.fields == ("limit",)
    with pytest.raises(ToolExecutionError) as failed:
        st.call(adopted["explode"], {"reason": "x"})
    assert failed.value.message == "RuntimeError: exploded: x"


def test_an_agent_run_inside_a_tool_reports_to_its_own_model() -> None:
    """A standard caller gets typed errors from the exported tool it calls, not from the
    exported tools of an agent run inside it."""

    def explode(reason: str) -> str:
        """Fail."""
        raise RuntimeError(reason)

    inner = to_pydantic_ai(st.tool(explode))

    def delegate(task: str) -> str:
        """Hand the task to another agent."""
        _, result = run_agent([[("explode", {"reason": task})]], tools=[inner])
        (answer,) = answers(result)
        return f"{result.output}: {answer.content}"

    adopted = from_pydantic_ai(to_pydantic_ai(st.tool(delegate)))
    assert st.call(adopted, {"task": "x"}) == "done: Tool 'explode' failed: RuntimeError: x"
    with pytest.raises(ToolValidationError):
        st.call(adopted, {"task": 1})


class StubbornToolset(PerUserToolset):
    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        for _ in range(50):  # ignores cancellation for up to 5 s
            try:
                await asyncio.sleep(0.1)
            except asyncio.CancelledError:
                pass
        return {}


def test_a_listing_that_ignores_cancellation_still_times_out() -> None:
    import time

    start = time.monotonic()
    with pytest.raises(ServerError, match="not listed within 0.2 s"):
        from_pydantic_ai_toolset(StubbornToolset(), timeout=0.2)
    assert time.monotonic() - start < 3


def test_an_exported_tool_adopted_and_exported_again_names_the_fields() -> None:
    search = sample_tools()["search"]
    bad = {"query": "x", "limit": 500}
    issues = st.as_schema(search.input_schema).validate(bad).issues  # type: ignore[union-attr]
    assert issues and [issue.path for issue in issues] == [("limit",)]
    twice = to_pydantic_ai(from_pydantic_ai(to_pydantic_ai(search)))
    adopted = from_pydantic_ai(twice)
    assert isinstance(adopted.input_schema, PydanticAIArguments)
    assert adopted.input_schema.validate(bad).issues == issues
    _, result = run_agent([[("search", bad)]], tools=[twice])
    (retry,) = answers(result)
    assert is_retry(retry)
    assert outcome(retry).error == str(ToolValidationError("search", "input", issues))
