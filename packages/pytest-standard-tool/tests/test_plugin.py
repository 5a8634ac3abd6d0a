"""The plugin, run by pytest on test files as a tool author writes them (pytester), and on
the project's own sample tools."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from inline import run_inline

import standard_tool as st
from pytest_standard_tool import Conformance, assert_conforms
from standard_tool.checks import CHECKS, heading, installed_targets, legend
from standard_tool.registry import runtime
from standard_tool.testing import sample_tools

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
README = HERE.parent / "README.md"
ADAPTERS = {
    *("langchain", "pydantic-ai", "llama-index", "mcp", "openai-agents", "smolagents"),
    "google-adk",
    "agent-framework",
    "haystack",
    "agno",
    *("openai", "anthropic", "gemini", "hf"),
}
"""The targets this suite expects installed: every adapter of the project."""
PROVIDERS = {"openai", "anthropic", "gemini", "hf"}
WEATHER_TOOLS = ("get_forecast", "wait_and_echo", "multiply")


def readme_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def with_weather(pytester: pytest.Pytester) -> None:
    (pytester.path / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "weather.py", pytester.path / "examples" / "weather.py")


def broken(pytester: pytest.Pytester) -> None:
    """The ``broken`` adapter of ``broken_adapter.py``, registered for the run."""
    shutil.copy(HERE / "broken_adapter.py", pytester.path / "broken_adapter.py")
    pytester.makeconftest("import broken_adapter\n\nbroken_adapter.register()\n")


def test_every_adapter_of_the_project_is_installed_here() -> None:
    assert ADAPTERS <= set(installed_targets()), installed_targets()


def test_the_readme_example_is_five_lines() -> None:
    example = readme_blocks()[0]
    assert len([line for line in example.splitlines() if line.strip()]) == 5, example


def cell(target: str) -> str:
    """What the table shows for a weather tool through ``target``: the direct call runs two
    checks, a provider three and skips two (a declaration shows the provider's dialect of
    the schema, and nothing adopts it back), every other target runs all five."""
    if target == "standard":
        return "pass 2"
    if target in PROVIDERS:
        return "pass 3, skip 2"
    return "pass 4, skip 1" if own_dialect(target) else "pass 5"


def own_dialect(target: str) -> bool:
    """A framework target that shows a model its own dialect of the schema (smolagents):
    its schema check is skipped, the other four run (a dialect chosen per tool, as
    openai-agents' strict rendering, is checked)."""
    return target not in PROVIDERS and getattr(runtime(target), "dialect", False) is True


def test_the_readme_example_runs_each_tool_through_each_installed_target(
    pytester: pytest.Pytester,
) -> None:
    with_weather(pytester)
    pytester.makepyfile(test_tools=readme_blocks()[0])
    result = run_inline(pytester, "-v", "-p", "no:cacheprovider")
    targets = installed_targets()
    result.assert_outcomes(passed=len(WEATHER_TOOLS) * len(targets))
    result.stdout.fnmatch_lines(
        [
            *(
                f"*test_every_adapter?{tool}-{target}? PASSED*"
                for tool in WEATHER_TOOLS
                for target in targets
            ),
            "*= standard-tool conformance =*",
            heading(len(WEATHER_TOOLS), len(targets)),
            "tool * " + " * ".join(targets),
            *(f"{tool} * " + " * ".join(map(cell, targets)) for tool in WEATHER_TOOLS),
            *legend(targets),
            "skipped schema for "
            + ", ".join(t for t in targets if t in PROVIDERS or own_dialect(t))
            + ": *",
            f"skipped round trip for {', '.join(sorted(PROVIDERS, key=targets.index))}: *",
        ]
    )


def test_a_broken_adapter_fails_its_tests_with_the_reason(pytester: pytest.Pytester) -> None:
    with_weather(pytester)
    broken(pytester)
    pytester.makepyfile(test_tools=readme_blocks()[0])
    result = pytester.runpytest_subprocess(
        "--standard-tool-target", "standard", "--standard-tool-target", "broken"
    )
    result.assert_outcomes(passed=3, failed=3)
    result.stdout.fnmatch_lines(
        [
            "*_ test_every_adapter?get_forecast-broken? _*",
            "'get_forecast': 1 of 5 checks failed",
            "  get_forecast -> broken, schema: fail: a model is shown another input schema: "
            "required is missing",
            "*standard-tool conformance*",
            "tool * standard * broken",
            "get_forecast * pass 2 * FAIL 1, pass 4",
        ]
    )


def test_an_adapter_that_accepts_what_the_tool_refuses_fails_refuse(
    pytester: pytest.Pytester,
) -> None:
    broken(pytester)
    pytester.makepyfile(
        test_tools="""
        import pytest
        import standard_tool as st

        @st.tool
        def lenient(count: int) -> int:
            "Count."
            return count

        @pytest.mark.standard_tools(lenient)
        def test_it(conformance):
            conformance.check()
        """
    )
    result = pytester.runpytest_subprocess("--standard-tool-target", "broken")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "lenient -> broken, refuse: fail: it accepted" in out, out
    assert "lenient -> broken, call: fail" not in out  # the valid call is the same


def test_a_tool_that_accepts_what_its_schema_refuses_fails_the_direct_cell(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_tools="""
        import pytest

        class Loose:
            name = "loose"
            description = "Echo the input, unchecked."
            input_schema = {
                "type": "object",
                "properties": {"n": {"type": "integer"}},
                "required": ["n"],
            }

            def execute(self, input, context=None):
                return input

        @pytest.mark.standard_tools(Loose())
        def test_it(conformance):
            conformance.check()
        """
    )
    result = run_inline(pytester, "--standard-tool-target", "standard")
    result.assert_outcomes(failed=1)
    assert "loose -> standard, refuse: fail: it accepts an input its input schema refuses" in (
        result.stdout.str()
    )


def test_a_test_without_the_marker_is_a_collection_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_tools="def test_it(conformance):\n    conformance.check()\n")
    result = run_inline(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*mark the test with the tools to check*"])


def test_options_and_ini_choose_targets_samples_and_timeout(pytester: pytest.Pytester) -> None:
    with_weather(pytester)
    pytester.makeini("[pytest]\nstandard_tool_targets = standard mcp\nstandard_tool_samples = 2\n")
    pytester.makepyfile(
        test_tools=readme_blocks()[0]
        + "    assert (conformance.samples, conformance.timeout) == (2, 7.5)\n"
    )
    result = run_inline(pytester, "-v", "--standard-tool-timeout", "7.5")
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["*multiply-mcp? PASSED*"])
    overridden = run_inline(pytester, "--standard-tool-target", "langchain")
    overridden.assert_outcomes(failed=3)  # without the option, the timeout is 30 s


def test_an_unknown_target_fails_naming_what_is_installed(pytester: pytest.Pytester) -> None:
    with_weather(pytester)
    pytester.makepyfile(test_tools=readme_blocks()[0])
    result = run_inline(pytester, "--standard-tool-target", "no-such-target")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*no-such-target*convert: fail*"])


RUN = {name: tool for name, tool in sample_tools().items() if name != "explode"}
"""The sample tools that run: ``explode`` raises whatever its input (its ``call`` fails)."""


@pytest.mark.standard_tools(RUN)
def test_the_sample_tools_conform(conformance: Conformance) -> None:
    results = conformance.check()
    assert {r.target for r in results} == {conformance.target}
    passed = {r.check for r in results if r.status == "pass"}
    if conformance.target in ADAPTERS - PROVIDERS:
        shown = set() if own_dialect(conformance.target) else {"schema"}
        assert passed >= {"convert", "call", "refuse", *shown}
    elif conformance.target in PROVIDERS:
        assert passed == {"convert", "call", "refuse"}


@pytest.mark.parametrize("name", sorted(RUN))
def test_assert_conforms_returns_every_check_of_every_target(name: str) -> None:
    results = assert_conforms(sample_tools()[name])
    targets = installed_targets()
    assert [r.target for r in results if r.check == "convert"] == targets[1:]
    assert {r.check for r in results} == set(CHECKS)


def test_assert_conforms_raises_with_each_failure() -> None:
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    tool = st.tool(shout)
    with pytest.raises(AssertionError) as raised:
        assert_conforms(tool, ["standard", "no-such-target"])
    text = str(raised.value)
    assert text.startswith("'shout': 1 of 7 checks failed"), text
    assert "shout -> no-such-target, convert: fail" in text


def test_assert_conforms_fails_a_tool_that_never_runs() -> None:
    with pytest.raises(AssertionError) as raised:
        assert_conforms(sample_tools()["explode"], ["standard", "mcp"])
    lines = str(raised.value).splitlines()
    assert lines[0] == "'explode': 2 of 7 checks failed", lines
    assert lines[1].startswith("  explode -> standard, call: fail: no input ran: ")
    assert lines[2].startswith("  explode -> mcp, call: fail: no input ran: ")


def test_assert_conforms_takes_a_framework_tool() -> None:
    from langchain_core.tools import StructuredTool

    def multiply(a: int, b: int) -> int:
        """Multiply two integers."""
        return a * b

    native: Any = StructuredTool.from_function(multiply)
    results = assert_conforms(native, ["standard", "mcp", "pydantic-ai"])
    assert [r.status for r in results if r.check == "call"] == ["pass"] * 3
