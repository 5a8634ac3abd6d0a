"""The marker's ``inputs=``, and the tests that fail when no input runs or a result breaks its
output schema, run by pytest on test files as a tool author writes them (pytester)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from inline import run_inline

import standard_tool as st
from pytest_standard_tool import assert_conforms

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "how-to" / "pytest-plugin.md"
TWO = ("--standard-tool-target", "standard", "--standard-tool-target", "langchain")
MARKED = (
    '@pytest.mark.standard_tools(utc_offset, inputs={"utc_offset": {"timezone": "Europe/Paris"}})'
)


def inputs_example() -> str:
    """The pytest plugin guide's example of ``inputs=``."""
    blocks: list[str] = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)
    (block,) = [block for block in blocks if "inputs=" in block]
    assert MARKED in block
    return block


def test_the_readme_example_passes_with_the_input_it_gives(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_offsets=inputs_example())
    result = run_inline(pytester, "-v", *TWO)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*test_utc_offset?utc_offset-langchain? PASSED*"])


def test_without_inputs_no_call_runs_and_every_test_fails(pytester: pytest.Pytester) -> None:
    unmarked = inputs_example().replace(MARKED, "@pytest.mark.standard_tools(utc_offset)")
    pytester.makepyfile(test_offsets=unmarked)
    result = run_inline(pytester, *TWO)
    result.assert_outcomes(failed=2)
    for target in ("standard", "langchain"):
        result.stdout.fnmatch_lines(
            [
                f"  utc_offset -> {target}, call: fail: no input ran: the direct call failed for "
                'each of the 5 inputs made from its schema, the first {"timezone": ""} '
                "with: Tool 'utc_offset' failed: ValueError: *; give one that runs: *"
                'inputs={"utc_offset": ...})'
            ]
        )
    result.stdout.fnmatch_lines(["utc_offset * FAIL 1, pass 1 * FAIL 1, pass 4"])


def test_one_target_alone_fails_when_no_input_runs(pytester: pytest.Pytester) -> None:
    unmarked = inputs_example().replace(MARKED, "@pytest.mark.standard_tools(utc_offset)")
    pytester.makepyfile(test_offsets=unmarked)
    result = run_inline(pytester, "--standard-tool-target", "langchain")
    result.assert_outcomes(failed=1)


def test_inputs_are_tried_in_order(pytester: pytest.Pytester) -> None:
    tried = inputs_example().replace(
        MARKED,
        "@pytest.mark.standard_tools(\n"
        '    utc_offset, inputs={"utc_offset": [{"timezone": "Nowhere/Else"}, '
        '{"timezone": "Asia/Tokyo"}]}\n'
        ")",
    )
    pytester.makepyfile(
        test_offsets=tried
        + "    direct = [r for r in conformance.results if r.check == 'call']\n"
        + "    assert conformance.target != 'standard' or direct[0].reason == "
        + '\'input {"timezone": "Asia/Tokyo"}, given\', direct\n'
    )
    result = run_inline(pytester, *TWO)
    result.assert_outcomes(passed=2)


def test_a_result_that_breaks_the_output_schema_fails_the_test(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_seconds="""
        from datetime import datetime
        from zoneinfo import ZoneInfo

        import pytest
        import standard_tool as st


        def seconds(input, context=None):
            offset = ZoneInfo(input["timezone"]).utcoffset(datetime(2024, 1, 1))
            return {"seconds": offset.total_seconds()}


        offset_seconds = st.Tool(
            name="offset_seconds",
            description="The UTC offset of a timezone in seconds.",
            input_schema={
                "type": "object",
                "properties": {"timezone": {"type": "string"}},
                "required": ["timezone"],
            },
            output_schema={
                "type": "object",
                "properties": {"seconds": {"type": "string"}},
                "required": ["seconds"],
            },
            execute=seconds,
        )


        @pytest.mark.standard_tools(
            offset_seconds, inputs={"offset_seconds": {"timezone": "Europe/Paris"}}
        )
        def test_it(conformance):
            conformance.check()
        """
    )
    result = run_inline(pytester, "--standard-tool-target", "langchain")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "  offset_seconds -> langchain, call: fail: its result fails its output schema, "
            'for input {"timezone": "Europe/Paris"}: Invalid output for tool '
            "'offset_seconds' (1 issue): seconds: must be of type string"
        ]
    )


@pytest.mark.parametrize(
    ("marker", "says"),
    [
        (
            '@pytest.mark.standard_tools(utc_offset, inputs={"nope": {}})',
            "inputs= names 'nope', which is no tool of the marker; its tools: utc_offset",
        ),
        (
            '@pytest.mark.standard_tools(utc_offset, inputs={"utc_offset": []})',
            "inputs= gives 'utc_offset' an empty list of inputs",
        ),
        (
            "@pytest.mark.standard_tools(utc_offset, inputs=[1])",
            "inputs= maps a tool's name to its input or a list of inputs",
        ),
        (
            "@pytest.mark.standard_tools(utc_offset, samples=3)",
            "takes tools and inputs=, not samples=",
        ),
    ],
)
def test_a_wrong_inputs_argument_is_a_collection_error(
    pytester: pytest.Pytester, marker: str, says: str
) -> None:
    pytester.makepyfile(test_offsets=inputs_example().replace(MARKED, marker))
    result = run_inline(pytester, *TWO)
    result.assert_outcomes(errors=1)
    assert says in result.stdout.str(), result.stdout.str()


def _offset(timezone: str) -> str:
    """The UTC offset of a timezone on 1 January 2024.

    Args:
        timezone: An IANA timezone name.
    """
    return str(ZoneInfo(timezone).utcoffset(datetime(2024, 1, 1)))


def test_assert_conforms_takes_inputs() -> None:
    tool = st.tool(_offset, name="utc_offset")
    with pytest.raises(AssertionError, match="call: fail: no input ran: "):
        assert_conforms(tool, ["standard", "mcp"])
    results = assert_conforms(tool, ["standard", "mcp"], inputs=[{"timezone": "Europe/Paris"}])
    assert [(r.target, r.status) for r in results if r.check == "call"] == [
        ("standard", "pass"),
        ("mcp", "pass"),
    ]
