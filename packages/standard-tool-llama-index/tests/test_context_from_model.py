"""The per-call context never comes from a model's arguments.

LlamaIndex hands an exported tool its workflow ``Context`` under the tool's
``ctx_param_name``; a model's call reaches the same ``call``/``acall`` with its own keyword
arguments. An argument named like the context parameter is input as any other, checked
against the schema.

No ``from __future__ import annotations`` here: LlamaIndex finds a ``Context`` parameter by
its evaluated annotation.
"""

import asyncio
from typing import Any

import pytest
from llama_index.core.tools.calling import acall_tool, call_tool

import standard_tool as st
from standard_tool.testing import SECRET
from standard_tool_llama_index import CONTEXT_KEY, to_llama_index

MODEL_KEY = "_standard_tool_context"
"""What a model would name the context parameter, having read this package's source."""


def recorder(closed: bool) -> tuple[st.Tool, list[Any]]:
    """A tool that records the context it is called with; ``closed``: its schema refuses
    keys it does not declare."""
    seen: list[Any] = []

    def run(input: Any, context: Any = None) -> Any:
        seen.append(context)
        return {"input": input}

    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    }
    if closed:
        schema["additionalProperties"] = False
    tool = st.Tool(name="where", description="Where.", input_schema=schema, execute=run)
    return tool, seen


GETTERS = {"default": None, "identity": lambda ctx: ctx}


@pytest.mark.parametrize("getter", sorted(GETTERS))
@pytest.mark.parametrize("how", ["call_tool", "acall_tool"])
def test_a_model_naming_the_context_is_an_input_error(how: str, getter: str) -> None:
    tool, seen = recorder(closed=True)
    native = to_llama_index(tool, context=GETTERS[getter])
    arguments = {"city": "Lyon", MODEL_KEY: {"token": SECRET}}
    if how == "call_tool":
        output = call_tool(native, arguments)
    else:
        output = asyncio.run(acall_tool(native, arguments))
    assert output.is_error and seen == []
    assert "Invalid input for tool 'where'" in output.content and MODEL_KEY in output.content
    assert SECRET not in output.content
    exception = getattr(output, "exception", None)  # kept from llama-index-core 0.14.8 on
    assert exception is None or exception.fields == (MODEL_KEY,)


@pytest.mark.parametrize("getter", sorted(GETTERS))
def test_under_an_open_schema_it_is_ordinary_input(getter: str) -> None:
    tool, seen = recorder(closed=False)
    native = to_llama_index(tool, context=GETTERS[getter])
    output = call_tool(native, {"city": "Lyon", MODEL_KEY: "mine"})
    assert not output.is_error, output.content
    assert output.raw_output == {"input": {"city": "Lyon", MODEL_KEY: "mine"}}
    assert seen == [None]


def test_the_context_parameter_is_private_to_the_process() -> None:
    native = to_llama_index(recorder(closed=True)[0])
    assert native.ctx_param_name != MODEL_KEY
    assert native.ctx_param_name not in native.metadata.get_parameters_dict()["properties"]


def test_only_a_workflow_context_is_taken_as_one() -> None:
    tool, seen = recorder(closed=True)
    native = to_llama_index(tool, context=lambda ctx: ctx)
    with pytest.raises(st.ToolExecutionError, match="workflow Context") as raised:
        native.call(city="Lyon", **{native.ctx_param_name: {"token": SECRET}})
    assert SECRET not in str(raised.value) and seen == []


async def test_in_an_agent_run_the_context_is_the_runs_and_the_models_key_is_refused(
    agent: Any,
) -> None:
    tool, seen = recorder(closed=True)
    native = to_llama_index(tool)
    run = await agent(
        [native],
        [
            [("where", {"city": "Lyon", MODEL_KEY: {"tenant": "forged"}})],
            [("where", {"city": "Nice"})],
            "done",
        ],
        {CONTEXT_KEY: {"tenant": "t1"}},
    )
    refused, answered = run.outputs
    assert refused.is_error and MODEL_KEY in refused.content
    assert "forged" not in refused.content
    assert not answered.is_error and answered.raw_output == {"input": {"city": "Nice"}}
    assert seen == [{"tenant": "t1"}]
