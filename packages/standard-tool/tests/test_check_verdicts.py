"""What ``standard_tool.checks`` decides when no input runs, when inputs are given, when a
result breaks its output schema, when a framework hands the model text or changes a result,
and when a runtime cannot run a tool."""

from __future__ import annotations

import itertools
from contextlib import nullcontext
from datetime import datetime
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

import pytest
from pydantic import BaseModel, Field

import standard_tool as st
from standard_tool.adapters import NativeOutcome
from standard_tool.checks import (
    CHECKS,
    DIRECT,
    CheckResult,
    check_tool,
    failed,
    failures,
    legend,
    probe,
    sample_inputs,
    skipped,
)
from standard_tool.exceptions import UnsupportedToolError
from standard_tool.testing import sample_tools

PROVIDERS = ["openai", "anthropic", "gemini", "hf"]


def _offset(timezone: str) -> str:
    """The UTC offset of a timezone on 1 January 2024.

    Args:
        timezone: An IANA timezone name, such as Europe/Paris.
    """
    return str(ZoneInfo(timezone).utcoffset(datetime(2024, 1, 1)))


utc_offset = st.tool(_offset, name="utc_offset")
"""A tool whose schema says "a string" where only a timezone's name runs, as mcp-server-time's
tools do: no input generated from the schema runs."""


@st.tool
def offset_of(
    timezone: Annotated[str, Field(examples=["Europe/Paris", "Asia/Tokyo"])],
) -> str:
    """The UTC offset of a timezone on 1 January 2024.

    Args:
        timezone: An IANA timezone name.
    """
    return _offset(timezone)


def _wrong_offset(input: dict[str, Any], context: Any = None) -> dict[str, Any]:
    offset = ZoneInfo(input["timezone"]).utcoffset(datetime(2024, 1, 1))
    return {"seconds": offset.total_seconds() if offset else 0}  # a number, not the string declared


wrong_offset = st.Tool(
    name="wrong_offset",
    description="The UTC offset of a timezone, in seconds.",
    input_schema={
        "type": "object",
        "properties": {"timezone": {"type": "string", "examples": ["Europe/Paris"]}},
        "required": ["timezone"],
    },
    output_schema={
        "type": "object",
        "properties": {"seconds": {"type": "string"}},
        "required": ["seconds"],
    },
    execute=_wrong_offset,
)
"""A tool whose every result breaks its own output schema."""


def _echo(text: str) -> str:
    """Give the text back.

    Args:
        text: What to give back.
    """
    return text


echo = st.tool(_echo, name="echo")


def calls(results: list[CheckResult]) -> dict[str, CheckResult]:
    return {r.target: r for r in results if r.check == "call"}


# -- no input runs -------------------------------------------------------------------------


def test_when_no_generated_input_runs_call_fails_directly_and_through_every_target() -> None:
    results = check_tool(utc_offset, [DIRECT, "toy", *PROVIDERS])
    by_target = calls(results)
    assert {r.status for r in by_target.values()} == {"fail"}
    (reason,) = {r.reason for r in by_target.values()}  # one cause, one reason
    assert reason.startswith(
        "no input ran: the direct call failed for each of the 5 inputs made from its "
        'schema, the first {"timezone": ""} with: Tool \'utc_offset\' failed: ValueError: '
    ), reason
    assert "give one that runs: standard-tool check --input utc_offset=JSON" in reason
    assert 'inputs={"utc_offset": ...}' in reason
    assert "\n" not in reason
    # every other check still runs and passes where it applies
    others = [r for r in results if r.check != "call"]
    assert not failures(others), [str(r) for r in failures(others)]
    assert failed(results) == [
        f"FAIL utc_offset, call -> {', '.join([DIRECT, 'toy', *PROVIDERS])}: {reason}"
    ]


def test_one_target_alone_fails_too() -> None:
    """As the pytest plugin runs it: one target, without the direct call beside it."""
    (call,) = [r for r in check_tool(utc_offset, ["toy"]) if r.check == "call"]
    assert call.status == "fail" and call.reason.startswith("no input ran: ")


def test_a_tool_that_always_raises_fails_call_everywhere() -> None:
    results = check_tool(sample_tools()["explode"], [DIRECT, "toy"])
    assert [(r.target, r.status) for r in results if r.check == "call"] == [
        (DIRECT, "fail"),
        ("toy", "fail"),
    ]
    assert "RuntimeError: exploded:" in calls(results)[DIRECT].reason


# -- inputs given ----------------------------------------------------------------------------


def test_given_inputs_are_the_only_ones_tried_in_order_until_one_runs() -> None:
    given = [{"timezone": "Nowhere/Else"}, {"timezone": "Europe/Paris"}, {"timezone": "UTC"}]
    found = probe(utc_offset, inputs=given)
    assert found.given and found.ran
    assert found.tried == given[:2]  # the third is not needed
    assert (found.input, found.outcome) == (given[1], NativeOutcome(value="1:00:00"))
    assert found.invalid is not None and found.invalid != given[1]


def test_a_given_input_makes_every_check_pass() -> None:
    given = [{"timezone": "Europe/Paris"}]
    results = check_tool(utc_offset, [DIRECT, "toy", *PROVIDERS], inputs=given)
    assert not failures(results), [str(r) for r in failures(results)]
    assert calls(results)[DIRECT].reason == 'input {"timezone": "Europe/Paris"}, given'
    assert {r.status for r in calls(results).values()} == {"pass"}


def test_given_inputs_that_all_fail_say_so() -> None:
    results = check_tool(utc_offset, [DIRECT], inputs=[{"timezone": "Nowhere/Else"}])
    reason = calls(results)[DIRECT].reason
    assert reason.startswith(
        "no input ran: the direct call failed for the one input given, the first "
        '{"timezone": "Nowhere/Else"} with: '
    ), reason


def test_no_input_given_is_no_input_run() -> None:
    (call,) = [r for r in check_tool(utc_offset, [DIRECT], inputs=[]) if r.check == "call"]
    assert (call.status, call.reason.split(";")[0]) == ("fail", "no input ran: no input was given")


# -- values the schema gives -----------------------------------------------------------------


def test_a_schema_example_is_tried_first() -> None:
    found = probe(offset_of)
    assert found.tried == [{"timezone": "Europe/Paris"}]
    results = check_tool(offset_of, [DIRECT, "toy", *PROVIDERS])
    assert not failures(results), [str(r) for r in failures(results)]


class Place(BaseModel):
    city: str = Field(examples=["Lyon"])
    country: str = "FR"


def test_examples_defaults_and_enums_fill_each_property_nested_ones_included() -> None:
    @st.tool
    def locate(place: Place, unit: Literal["km", "mi"], zoom: int = 3) -> str:
        """Locate a place."""
        return place.city

    schema = st.input_json_schema(locate)
    first, second, *rest = sample_inputs(schema, 5)
    assert first == {"place": {"city": "Lyon", "country": "FR"}, "unit": "km", "zoom": 3}
    assert second == {"place": {"city": "Lyon", "country": "FR"}, "unit": "mi", "zoom": 3}
    assert len(rest) == 3  # then hypothesis' draws, up to the count
    assert sample_inputs(schema, 5) == [first, second, *rest]  # the same on every run
    assert sample_inputs(schema, 1) == [first]


def test_values_the_schema_refuses_are_left_out() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer", "minimum": 10, "examples": [3, 12]}},
        "required": ["n"],
    }
    values = sample_inputs(schema, 3)
    assert {"n": 3} not in values
    assert values[0] == {"n": 12}


def test_the_root_values_come_first() -> None:
    schema = {"type": "string", "enum": ["north", "south"]}
    assert sample_inputs(schema, 5) == ["north", "south"]
    assert sample_inputs({"type": "object", "examples": [{"q": "lamp"}]}, 2)[0] == {"q": "lamp"}


# -- a result that breaks the output schema ----------------------------------------------------


def test_a_result_that_breaks_the_output_schema_fails_call_everywhere() -> None:
    found = probe(wrong_offset)
    assert found.error_kind == "output" and not found.ran
    assert found.tried == [{"timezone": "Europe/Paris"}]  # the first that ran is kept
    results = check_tool(wrong_offset, [DIRECT, "toy", *PROVIDERS], probed=found)
    by_target = calls(results)
    assert {r.status for r in by_target.values()} == {"fail"}
    (reason,) = {r.reason for r in by_target.values()}
    assert reason.startswith(
        'its result fails its output schema, for input {"timezone": "Europe/Paris"}: '
        "Invalid output for tool 'wrong_offset' (1 issue): seconds: "
    ), reason
    assert len(failed(results)) == 1


def test_the_probe_keeps_the_kind_of_error() -> None:
    assert probe(utc_offset).error_kind == "ToolExecutionError"
    assert probe(utc_offset, inputs=[["not", "an", "object"]]).error_kind == "input"
    assert probe(utc_offset, inputs=[{"timezone": "UTC"}]).error_kind is None


# -- text, normalisation, and both values shown --------------------------------------------------


class Texts:
    """A runtime whose framework hands the model text: a string result as it is, any other
    as its JSON; ``keep_text=False`` reads the text back as JSON and keeps no text, as a
    framework that loses it would; ``strip`` strips every result, as smolagents does."""

    target = "texts"

    def __init__(self, *, keep_text: bool = True, strip: bool = False) -> None:
        self.keep_text = keep_text
        self.strip = strip

    def native(self, tool: Any) -> Any:
        return tool

    def declaration(self, native: Any) -> dict[str, Any]:
        return {}

    def input_schema(self, native: Any) -> dict[str, Any]:
        return st.input_json_schema(native)

    def call(self, native: Any, arguments: Any, context: Any = None) -> NativeOutcome:
        import json

        try:
            value = st.jsonable(st.call(native, arguments, context))
        except st.StandardToolError as error:
            return NativeOutcome(error=str(error))
        text = value if isinstance(value, str) else json.dumps(value)
        text = text.strip() if self.strip else text
        outcome = NativeOutcome.from_json_text(text, is_error=False)
        return outcome if self.keep_text else NativeOutcome(value=outcome.value)

    def adopted(self, native: Any) -> Any:
        return nullcontext(native)


class Stripping(Texts):
    """:class:`Texts` that strips, and says so."""

    normalisation = "a text result's surrounding whitespace is stripped"

    def __init__(self) -> None:
        super().__init__(strip=True)

    def normalise(self, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value


@pytest.mark.parametrize("text", ["42\n", '{"method": "GET"}', "plain"])
def test_a_text_result_is_compared_with_the_text_the_model_reads(text: str) -> None:
    results = check_tool(echo, ["texts"], runtimes={"texts": Texts()}, inputs=[{"text": text}])
    assert calls(results)["texts"].status == "pass", calls(results)["texts"]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("42\n", 'directly "42\\n", here 42'),
        ('{"method": "GET"}', 'directly "{\\"method\\": \\"GET\\"}", here {"method": "GET"}'),
    ],
)
def test_a_framework_that_loses_the_text_fails_showing_both_values(text: str, shown: str) -> None:
    runtimes = {"texts": Texts(keep_text=False)}
    results = check_tool(echo, ["texts"], runtimes=runtimes, inputs=[{"text": text}])
    call = calls(results)["texts"]
    assert (call.status, call.reason) == (
        "fail",
        f"its result differs from the direct call's: {shown}",
    )


def test_both_values_are_shown_shortened_on_one_line() -> None:
    long = "line\n" * 100
    runtimes = {"texts": Texts(strip=True)}
    results = check_tool(echo, ["texts"], runtimes=runtimes, inputs=[{"text": long}])
    reason = calls(results)["texts"].reason
    assert reason.startswith("its result differs from the direct call's: directly \"line\\nline")
    assert "\n" not in reason and len(reason) < 200
    assert reason.count("…") == 2  # each value cut


def test_a_result_is_compared_after_the_frameworks_normalisation() -> None:
    inputs = [{"text": " 42\n"}]
    stripped = check_tool(echo, ["texts"], runtimes={"texts": Texts(strip=True)}, inputs=inputs)
    assert calls(stripped)["texts"].reason == (
        'its result differs from the direct call\'s: directly " 42\\n", here "42"'
    )
    said = check_tool(echo, ["texts"], runtimes={"texts": Stripping()}, inputs=inputs)
    assert calls(said)["texts"].status == "pass"
    lines = legend([DIRECT, "texts"], runtimes={"texts": Stripping()})
    assert (
        "texts: compared as the model reads it: a text result's surrounding whitespace is stripped"
        in lines
    )
    assert not any(line.startswith("texts:") for line in legend([DIRECT, "texts"]))


def test_a_providers_text_is_compared_as_text() -> None:
    """The provider envelopes hand the model a text result as it is."""
    results = check_tool(echo, PROVIDERS, inputs=[{"text": "42\n"}])
    assert {r.status for r in calls(results).values()} == {"pass"}, calls(results)


def test_a_result_that_varies_is_compared_with_a_second_direct_call() -> None:
    """As a clock's: the same twice at first, then another value by the time the target runs."""
    made = itertools.count()

    def _ticked() -> bool:
        """Whether the clock has ticked: not for the first two calls, then it has."""
        return next(made) >= 2

    results = check_tool(st.tool(_ticked, name="ticked"), ["toy"])
    assert calls(results)["toy"].status == "pass"
    assert calls(results)["toy"].reason == "the same as a second direct call: results vary"
    assert next(made) == 4  # two direct calls, the target's, and the second direct call


# -- a runtime that cannot run a tool ----------------------------------------------------------


class Reserved(Texts):
    """A runtime that cannot run a tool named ``final_answer``: at conversion (``native``)
    or when it is called (``call``)."""

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where

    def _refuse(self, name: str) -> None:
        if name == "final_answer":
            raise UnsupportedToolError(name, "reserved", "the framework keeps that name")

    def native(self, tool: Any) -> Any:
        if self.where == "native":
            self._refuse(tool.name)
        return tool

    def call(self, native: Any, arguments: Any, context: Any = None) -> NativeOutcome:
        self._refuse(native.name)
        return super().call(native, arguments, context)


final_answer = st.tool(_echo, name="final_answer")
_SAID = "tool 'final_answer' cannot run through reserved as it is: the framework keeps that name"


def test_a_runtime_that_cannot_convert_a_tool_skips_every_check() -> None:
    results = check_tool(final_answer, ["reserved"], runtimes={"reserved": Reserved("native")})
    assert [(r.check, r.status, r.reason) for r in results] == [
        (check, "skip", _SAID) for check in CHECKS
    ]
    assert skipped(results) == [f"skipped {', '.join(CHECKS)} for reserved: {_SAID}"]


def test_a_runtime_that_cannot_call_a_tool_skips_call_and_refuse() -> None:
    results = check_tool(final_answer, ["reserved"], runtimes={"reserved": Reserved("call")})
    assert {r.check: (r.status, r.reason) for r in results} == {
        "convert": ("pass", results[0].reason),
        "schema": ("pass", ""),
        "round trip": ("pass", ""),
        "call": ("skip", _SAID),
        "refuse": ("skip", _SAID),
    }
    other = check_tool(echo, ["reserved"], runtimes={"reserved": Reserved("call")})
    assert not failures(other) and {r.status for r in other} == {"pass"}


# -- the failure listing ---------------------------------------------------------------------


def test_failures_with_one_reason_read_as_one_line_naming_the_targets() -> None:
    results = [
        CheckResult("t", DIRECT, "call", "fail", "no input ran"),
        CheckResult("t", "mcp", "call", "fail", "no input ran"),
        CheckResult("t", "mcp", "refuse", "fail", "its error does not name the tool"),
        CheckResult("t", "langchain", "call", "fail", "no input ran"),
        CheckResult("u", "mcp", "call", "fail", "no input ran"),
        CheckResult("t", "hf", "schema", "skip", "its own dialect"),
    ]
    assert failed(results) == [
        "FAIL t, call -> standard, mcp, langchain: no input ran",
        "FAIL t, refuse -> mcp: its error does not name the tool",
        "FAIL u, call -> mcp: no input ran",
    ]
    assert failed(results[-1:]) == []
