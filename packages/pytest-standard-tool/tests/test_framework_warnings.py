"""A framework's own warnings do not fail a tool author's checks, nor flood their report;
the author's own warnings still show."""

from __future__ import annotations

import re

import pytest

from standard_tool.checks import installed_targets

TOOLS = '''
import warnings

import pytest

import standard_tool as st


@st.tool
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


@st.tool
def shout(text: str) -> str:
    """Shout, and say so."""
    warnings.warn("shout is loud", UserWarning, stacklevel=1)
    return text.upper()


@pytest.mark.standard_tools([add, shout])
def test_every_adapter(conformance):
    conformance.check()
'''


@pytest.mark.skipif("llama-index" not in installed_targets(), reason="needs llama-index")
def test_deprecation_warnings_as_errors_leave_llama_index_checks_passing(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_tools=TOOLS)
    result = pytester.runpytest_subprocess(
        "-W",
        "error::DeprecationWarning",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:asyncio",
        "--standard-tool-target",
        "llama-index",
    )
    result.assert_outcomes(passed=2)
    shown = [line for line in result.outlines if re.match(r"\s+\S+:\d+: \w+: ", line)]
    assert shown and all(line.endswith("UserWarning: shout is loud") for line in shown), shown
