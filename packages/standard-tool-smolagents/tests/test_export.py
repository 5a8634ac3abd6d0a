"""``to_smolagents``: names, the ``inputs`` smolagents' format can say, hostile schemas."""

from __future__ import annotations

import copy
import json
from types import SimpleNamespace
from typing import Any

import pytest
from smolagents.tools import AUTHORIZED_TYPES

import standard_tool as st
from standard_tool.exceptions import ConversionError, ToolNameError
from standard_tool.testing import sample_tools
from standard_tool_smolagents import NAMES, StandardSmolTool, to_smolagents, to_smolagents_tools
from standard_tool_smolagents._inputs import integers_are_numbers
from standard_tool_smolagents._scripted import run_tool_calling_agent


def raw(schema: Any, name: str = "t") -> st.Tool:
    return st.Tool(name=name, description="d", input_schema=schema, execute=lambda i: i)


def test_names_become_python_identifiers_and_collisions_are_refused() -> None:
    assert to_smolagents(sample_tools()["catalog.lookup"]).name == "catalog_lookup"
    assert to_smolagents(raw({"type": "object"}, "class")).name == "class_"
    assert NAMES.accepts("get_weather") and not NAMES.accepts("2fast")
    with pytest.raises(ToolNameError):
        to_smolagents(sample_tools()["add"], name="not valid")
    with pytest.raises(ToolNameError):
        to_smolagents_tools([raw({"type": "object"}, "a.b"), raw({"type": "object"}, "a-b")])


def test_an_object_whose_description_is_not_text_is_refused() -> None:
    odd = SimpleNamespace(name="odd", description=3, execute=lambda i, c=None: 1)
    with pytest.raises(ConversionError):
        to_smolagents(odd)


def test_every_sample_passes_smolagents_own_attribute_check() -> None:
    for tool in sample_tools().values():
        native = to_smolagents(tool)
        type(native).__mro__[1].validate_arguments(native)  # smolagents' Tool check, as is
        for entry in native.inputs.values():
            kinds = entry["type"] if isinstance(entry["type"], list) else [entry["type"]]
            assert set(kinds) <= set(AUTHORIZED_TYPES)
        assert native.output_type in AUTHORIZED_TYPES


@pytest.mark.parametrize(
    ("prop", "kind", "nullable"),
    [
        ({"type": "string"}, "string", False),
        ({"type": ["integer", "null"]}, "integer", True),
        (
            {"anyOf": [{"type": "string"}, {"type": "number"}]},
            ["string", "integer", "number"],
            False,
        ),
        ({"enum": ["a", 1, None]}, ["string", "integer"], True),
        ({"const": True}, "boolean", False),
        ({}, "any", False),
        (True, "any", False),
        ({"anyOf": [{"type": "string"}, {}]}, "any", False),
        ({"$ref": "#/$defs/Node"}, "object", False),
        ({"$ref": "#/$defs/Missing"}, "any", False),
        ({"allOf": [{"type": "array"}]}, "array", False),
    ],
)
def test_inputs_say_what_smolagents_can(prop: Any, kind: Any, nullable: bool) -> None:
    schema = {
        "type": "object",
        "properties": {"x": prop},
        "required": ["x"],
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
    }
    entry = to_smolagents(raw(schema)).inputs["x"]
    assert entry["type"] == kind and entry.get("nullable", False) is nullable


def test_a_recursive_schema_is_shown_with_its_definitions_once() -> None:
    schema = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node", "description": "A tree."}},
        "required": ["tree"],
        "$defs": {
            "Node": {"type": "object", "properties": {"kids": {"items": {"$ref": "#/$defs/Node"}}}},
            "Unused": {"type": "string"},
        },
    }
    description = to_smolagents(raw(schema)).inputs["tree"]["description"]
    text, shown = description.split("\nJSON Schema: ")
    assert text == "A tree." and json.loads(shown) == {
        "$ref": "#/$defs/Node",
        "$defs": {"Node": schema["$defs"]["Node"]},
    }


def test_a_schema_without_properties_has_no_inputs_and_validates_in_full() -> None:
    native = to_smolagents(raw({"type": "object", "additionalProperties": {"type": "integer"}}))
    assert native.inputs == {}
    assert native(a=1) == {"a": 1}
    with pytest.raises(st.ToolValidationError) as raised:
        native(a="x")
    assert raised.value.fields == ("a",)


def test_hostile_input_is_refused_by_the_standard_tool_without_its_value() -> None:
    native = to_smolagents(sample_tools()["search"])
    secret = "hunter2-" * 10
    for arguments in (
        {"query": secret, "limit": 10**30},
        {"query": secret, "unexpected": secret},
        {"query": {"nested": [secret] * 3}},
    ):
        with pytest.raises(st.ToolValidationError) as raised:
            native(**arguments)
        assert raised.value.tool == "search" and secret not in str(raised.value)
    deep: Any = "x"
    for _ in range(300):
        deep = [deep]
    with pytest.raises(st.ToolValidationError):
        native(query=deep)


def test_exported_tools_deep_copy_and_derive_once() -> None:
    native = to_smolagents(sample_tools()["plan"])
    assert "inputs" not in native.__dict__  # derived on first use, not at conversion
    inputs = native.inputs
    assert native.inputs is inputs and isinstance(native, StandardSmolTool)
    copied = copy.deepcopy(native)
    assert copied(steps=[{"title": "a", "minutes": 1}])["total"] == 1


def test_an_integer_for_a_number_argument_runs_through_a_tool_calling_agent() -> None:
    @st.tool
    def wait(seconds: float, label: str | float = "x") -> float:
        """Wait, in seconds."""
        return seconds * 2

    native = to_smolagents(wait)
    run = run_tool_calling_agent([native], [[("wait", {"seconds": 3, "label": 1})]])
    assert run.steps[0].error is None, run.steps[0].error  # smolagents 1.20 refused 3
    assert run.outputs[0].output == 6
    assert native.inputs["label"]["type"] == ["string", "integer", "number"]
    if not integers_are_numbers():
        assert native.inputs["seconds"]["type"] == ["integer", "number"]
