"""The runtimes' shared half: arguments that are no JSON object refused as a direct call
refuses them (``non_object_refusal``, ``BaseRuntime.call``), the text the model reads
(``NativeOutcome.text``), what a framework makes of a result (``normalise``), and the error
of a tool a target cannot run."""

from __future__ import annotations

import pickle
from types import MappingProxyType, SimpleNamespace
from typing import Any

import pytest

import standard_tool as st
from standard_tool.adapters import BaseRuntime, NativeOutcome, non_object_refusal
from standard_tool.exceptions import UnsupportedToolError
from standard_tool.registry import runtime
from standard_tool.testing import sample_tools

NOT_OBJECTS: list[Any] = [[], [["a", 1]], "", None, 5, ("a", 1)]
PROVIDERS = ("openai", "anthropic", "gemini", "hf")


def _add(a: int, b: int = 1) -> int:
    """Add.

    Args:
        a: First.
        b: Second.
    """
    return a + b


def _direct(tool: Any, arguments: Any) -> st.ToolValidationError:
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(tool, arguments)
    return raised.value


class Recording(BaseRuntime):
    """A runtime that runs the tool directly and records what its ``run`` was given."""

    target = "recording"

    def __init__(self) -> None:
        self.given: list[Any] = []

    def native(self, tool: st.StandardTool) -> Any:
        return SimpleNamespace(standard_tool=tool)

    def run(self, native: Any, arguments: dict[str, Any], context: Any = None) -> NativeOutcome:
        self.given.append(arguments)
        return NativeOutcome(value=st.jsonable(st.call(native.standard_tool, arguments)))


# -- non_object_refusal ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["add", "search"])  # a pydantic model's check, a JSON Schema's
@pytest.mark.parametrize("arguments", NOT_OBJECTS, ids=repr)
def test_the_refusal_is_the_direct_calls_error(name: str, arguments: Any) -> None:
    tool = sample_tools()[name]
    refusal, direct = non_object_refusal(tool, arguments), _direct(tool, arguments)
    assert str(refusal) == str(direct)
    assert (refusal.tool, refusal.target, refusal.issues) == (name, "input", direct.issues)


def test_a_tool_that_takes_any_input_is_refused_by_the_json_type() -> None:
    anything = st.Tool(name="anything", description="Any.", input_schema={}, execute=repr)
    assert st.call(anything, 5) == "5"  # the tool takes it; no framework's call carries it
    refusal = non_object_refusal(anything, 5)
    assert (
        str(refusal)
        == "Invalid input for tool 'anything' (1 issue):\n  - <root>: must be of type object"
    )


def test_a_tool_whose_execute_checks_its_own_input_is_refused_by_the_json_type() -> None:
    plain = SimpleNamespace(name="plain", description="Plain.", execute=lambda input: input)
    refusal = non_object_refusal(plain, [])
    assert (refusal.tool, refusal.fields) == ("plain", ("<root>",))
    assert "must be of type object" in str(refusal)


# -- BaseRuntime.call -------------------------------------------------------------------


@pytest.mark.parametrize("arguments", NOT_OBJECTS, ids=repr)
def test_call_refuses_no_object_before_run(arguments: Any) -> None:
    recording = Recording()
    tool = st.tool(_add, name="add numbers.v2")
    outcome = recording.call(recording.native(tool), arguments)
    assert outcome == NativeOutcome(error=str(_direct(tool, arguments)))
    assert recording.given == []


def test_call_hands_run_a_plain_dict() -> None:
    recording = Recording()
    given = MappingProxyType({"a": 2})
    outcome = recording.call(recording.native(st.tool(_add)), given)
    assert outcome == NativeOutcome(value=3)
    assert [type(arguments) for arguments in recording.given] == [dict]


def test_the_standard_tool_is_the_one_native_runs_else_native_adopted() -> None:
    recording, tool = Recording(), st.tool(_add)
    assert recording.standard_tool(recording.native(tool)) is tool
    adopted = recording.standard_tool(_add)  # no standard_tool: adopted (a plain function)
    assert isinstance(adopted, st.Tool) and adopted.name == "_add"


def test_a_runtime_that_writes_no_run_says_so() -> None:
    class Silent(BaseRuntime):
        target = "silent"

    with pytest.raises(NotImplementedError, match="Silent does not run calls"):
        Silent().call(None, {})


def test_normalise_is_nothing_by_default() -> None:
    value = {"a": " b "}
    assert Recording().normalise(value) is value and Recording.normalisation == ""


# -- the providers' runtime -----------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("arguments", NOT_OBJECTS, ids=repr)
def test_a_provider_refuses_no_object_as_the_direct_call(provider: str, arguments: Any) -> None:
    registered = runtime(provider)
    assert registered is not None
    tool = st.tool(_add, name="add numbers.v2")  # a name no provider keeps
    native = registered.native(tool)
    assert native.name != tool.name
    outcome = registered.call(native, arguments)
    assert outcome == NativeOutcome(error=str(_direct(tool, arguments)))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_provider_keeps_the_text_the_model_reads(provider: str) -> None:
    registered = runtime(provider)
    assert registered is not None
    text = '{"method": "GET"}\n'
    echo = st.Tool(name="echo", description="Echo.", input_schema={}, execute=lambda i: text)
    outcome = registered.call(registered.native(echo), {})
    if provider == "gemini":  # its answer is an object holding the value
        assert (outcome.value, outcome.text) == (text, None)
    else:  # the text, and the JSON it holds
        assert (outcome.value, outcome.text) == ({"method": "GET"}, text)


# -- NativeOutcome and UnsupportedToolError -------------------------------------------------


def test_an_outcome_from_text_keeps_the_text() -> None:
    assert NativeOutcome.from_json_text("42\n", is_error=False) == NativeOutcome(42, None, "42\n")
    assert NativeOutcome.from_json_text("4 2", is_error=False) == NativeOutcome("4 2", None, "4 2")
    assert NativeOutcome.from_json_text("42", is_error=True) == NativeOutcome(error="42")


def test_an_unsupported_tool_names_the_tool_the_target_and_why() -> None:
    error = UnsupportedToolError("final_answer", "smolagents", "its name is reserved")
    assert str(error) == (
        "tool 'final_answer' cannot run through smolagents as it is: its name is reserved"
    )
    assert isinstance(error, st.StandardToolError) and st.UnsupportedToolError is type(error)
    back = pickle.loads(pickle.dumps(error))
    assert (back.tool, back.target, back.reason) == ("final_answer", "smolagents", error.reason)
