"""One call's outcome directly and through each target (``checks.outcomes``), and the
assertion that a tool gives one verdict everywhere (``testing.assert_same_verdict``)."""

from __future__ import annotations

import pytest

import standard_tool as st
from standard_tool.checks import DIRECT, installed_targets, one_line, outcomes
from standard_tool.testing import assert_same_verdict

PROVIDERS = ["openai", "anthropic", "gemini", "hf"]


@st.tool
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


def test_outcomes_are_the_direct_call_and_each_runtime() -> None:
    found = outcomes(add, {"a": 2}, [DIRECT, *PROVIDERS])
    assert list(found) == [DIRECT, *PROVIDERS]
    assert {target: outcome.value for target, outcome in found.items()} == dict.fromkeys(found, 3)
    refused = outcomes(add, [], [DIRECT, *PROVIDERS])
    assert all(o.error is not None and "'add'" in o.error for o in refused.values()), refused
    assert len({one_line(o.error or "") for o in refused.values()}) == 1  # the direct call's words


def test_outcomes_default_to_every_installed_target() -> None:
    assert set(outcomes(add, {"a": 1})) <= set(installed_targets())
    assert {DIRECT, *PROVIDERS} <= set(outcomes(add, {"a": 1}))


def test_the_same_verdict_is_asserted_and_can_fail() -> None:
    assert assert_same_verdict(add, {"a": 2}, targets=PROVIDERS) == 3
    assert assert_same_verdict(add, {"a": [1]}, "a", targets=PROVIDERS) is None
    with pytest.raises(AssertionError):
        assert_same_verdict(add, {"a": 2}, "a", targets=PROVIDERS)  # it runs: not refused
    with pytest.raises(AssertionError):
        assert_same_verdict(add, {"a": [1]}, "b", targets=PROVIDERS)  # refused for a, not b
