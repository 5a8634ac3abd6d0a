"""The runtime's reading of a call: the text the model reads, what smolagents makes of a
result first (``normalise``), and a tool named ``final_answer``, whose result no model reads."""

from __future__ import annotations

from typing import Any

import pytest

import standard_tool as st
from standard_tool.registry import runtime
from standard_tool_smolagents import to_smolagents, to_smolagents_tools
from standard_tool_smolagents._runtime import SmolagentsRuntime
from standard_tool_smolagents._scripted import code, run_code_agent, run_tool_calling_agent

RUNTIME = runtime("smolagents")
RESULTS: list[Any] = [
    " spaced \n",
    "\u00a0x\u2003",
    "  ",
    "null",
    '{"method": "GET"}\n',
    None,
    True,
    1.5,
    1e-7,
    10**20,
    {"a": " b "},
    [" c ", 1],
]
"""Results of every JSON type, texts with whitespace around them (Unicode's too)."""


def giving(value: Any, name: str = "give") -> st.Tool:
    return st.Tool(
        name=name,
        description="Give a fixed value.",
        input_schema={"type": "object", "properties": {}},
        execute=lambda input: value,
    )


def test_the_runtime_is_the_registered_one() -> None:
    assert isinstance(RUNTIME, SmolagentsRuntime)
    assert "stripped" in RUNTIME.normalisation


@pytest.mark.parametrize("value", RESULTS, ids=repr)
def test_normalise_says_what_the_model_reads(value: Any) -> None:
    outcome = RUNTIME.call(to_smolagents(giving(value)), {})
    assert outcome.error is None, outcome.error
    if isinstance(value, str):
        assert outcome.text == RUNTIME.normalise(value) == value.strip()
    else:  # JSON text, which stripping leaves whole
        assert outcome.value == RUNTIME.normalise(value) == value
        assert outcome.text is not None and outcome.text == outcome.text.strip()


@pytest.mark.parametrize("name", ["final_answer", "final answer"])
def test_a_final_answer_tool_is_not_run_by_the_runtime(name: str) -> None:
    native = to_smolagents(giving("done", name), name="final_answer")
    with pytest.raises(st.UnsupportedToolError) as raised:
        RUNTIME.call(native, {})
    error = raised.value
    assert (error.tool, error.target) == (name, "smolagents")
    assert "final answer tool" in error.reason and "'final_answer'" in error.reason
    assert str(error).startswith(f"tool {name!r} cannot run through smolagents as it is: ")


def test_a_tool_named_final_answer_takes_the_final_answer_tools_place() -> None:
    """As smolagents lets a user's own ``final_answer`` tool do: its result is the answer."""
    answer = st.Tool(
        name="final_answer",
        description="Give the answer, upper-cased.",
        input_schema={
            "type": "object",
            "properties": {"answer": {"type": "string"}},
            "required": ["answer"],
        },
        execute=lambda input: input["answer"].upper(),
    )
    native = to_smolagents(answer)
    assert native.name == "final_answer"
    calling = run_tool_calling_agent([native], [[("final_answer", {"answer": "done"})]])
    coding = run_code_agent([native], [code('final_answer("done")')])
    assert (calling.answer, coding.answer) == ("DONE", "DONE")
    assert (len(calling.steps), len(coding.steps)) == (1, 1)


def test_a_name_made_final_answer_is_not_the_final_answer_tool() -> None:
    one = to_smolagents(giving("x", "final answer"))
    (listed,) = to_smolagents_tools([giving("x", "final-answer")])
    assert (one.name, listed.name) == ("final_answer_", "final_answer_")
    run = run_tool_calling_agent([one], [[("final_answer_", {})]])
    assert [step.observations for step in run.steps] == ["x", "done"]
    assert run.answer == "done"
    assert st.adopt(one).name == "final answer"
