"""An argument the schema requires and allows ``null`` for (an Agents SDK strict tool's
``Optional``): ``inputs`` can only call it ``nullable``, which agents read as "may be left
out", so the exported tool passes ``null`` for one left out."""

from __future__ import annotations

from typing import Any, Optional

import pytest

import standard_tool as st
from standard_tool_smolagents import to_smolagents
from standard_tool_smolagents._scripted import code, run_code_agent, run_tool_calling_agent

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "title": {"type": ["string", "null"]},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "days": {"type": ["integer", "null"], "default": 1},
    },
    "required": ["city", "title", "note"],
    "additionalProperties": False,
}
"""``title`` and ``note`` required and nullable (both spellings); ``days`` nullable, optional."""


def label() -> st.Tool:
    return st.Tool(
        name="label",
        description="Label a city.",
        input_schema=SCHEMA,
        execute=lambda input: {"given": input},
    )


def test_required_nullable_arguments_are_nullable_in_inputs() -> None:
    inputs = to_smolagents(label()).inputs
    assert [key for key, entry in inputs.items() if entry.get("nullable")] == [
        "title",
        "note",
        "days",
    ]


def test_a_tool_calling_agent_passes_null_for_one_left_out() -> None:
    run = run_tool_calling_agent([to_smolagents(label())], [[("label", {"city": "Lyon"})]])
    assert run.steps[0].error is None, run.steps[0].error
    assert run.outputs[0].output == {"given": {"city": "Lyon", "title": None, "note": None}}


def test_a_given_value_is_kept() -> None:
    arguments = {"city": "Lyon", "title": "Mayor", "days": 2}
    run = run_tool_calling_agent([to_smolagents(label())], [[("label", arguments)]])
    assert run.outputs[0].output == {"given": {**arguments, "note": None}}


def test_a_code_agent_passes_null_for_one_left_out() -> None:
    run = run_code_agent(
        [to_smolagents(label())], [code('r = label(city="Lyon", note="n")\nfinal_answer(r)')]
    )
    assert run.steps[0].error is None, run.steps[0].error
    assert run.answer == {"given": {"city": "Lyon", "title": None, "note": "n"}}


def test_called_positionally_the_rest_is_null() -> None:
    assert to_smolagents(label())("Nice") == {
        "given": {"city": "Nice", "title": None, "note": None}
    }


def test_the_check_still_refuses_a_missing_required_argument() -> None:
    with pytest.raises(st.ToolValidationError) as raised:
        to_smolagents(label())(title="Mayor")
    assert raised.value.fields == ("city",)


def test_an_agents_sdk_strict_tool_with_an_optional_through_a_tool_calling_agent() -> None:
    pytest.importorskip("standard_tool_openai_agents")
    from agents import function_tool

    @function_tool
    def tag(city: str, title: Optional[str]) -> str:  # noqa: UP045  # the form users write
        """Tag a city.

        Args:
            city: The city.
            title: A title, or null.
        """
        return f"{city}: {title}"

    schema = tag.params_json_schema
    assert tag.strict_json_schema and schema["required"] == ["city", "title"]
    native = to_smolagents(st.adopt(tag))
    run = run_tool_calling_agent([native], [[("tag", {"city": "Lyon"})]])
    assert run.steps[0].error is None, run.steps[0].error
    assert run.steps[0].observations == "Lyon: None"
