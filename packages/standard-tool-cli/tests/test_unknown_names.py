"""A name the command does not know (``call --via``, ``check --target``, ``show --as``,
``lint --target``) is a usage error that lists the names it knows, and the close one when a
typo is likely."""

from __future__ import annotations

import pytest
from script import WEATHER, Run

import standard_tool as st

CALL = ["call", WEATHER, "multiply", "--input", '{"a": 1, "b": 2}']


@pytest.mark.parametrize(
    ("args", "option"),
    [
        ([*CALL, "--via", "langchian"], "--via 'langchian'"),
        (["check", WEATHER, "--target", "langchian"], "--target 'langchian'"),
        (["show", WEATHER, "multiply", "--as", "langchian"], "--as 'langchian'"),
        (["lint", WEATHER, "--target", "langchian"], "--target 'langchian'"),
    ],
)
def test_a_typo_is_a_usage_error_that_says_the_close_name(
    run: Run, args: list[str], option: str
) -> None:
    out = run(*args)
    assert out.returncode == 2 and out.stdout == "", out.stderr
    (line,) = out.stderr.splitlines()
    assert line.startswith(f"standard-tool {args[0]}: {option}"), line
    assert line.endswith("; did you mean 'langchain'?"), line
    for target in st.targets():  # the names it knows, every installed target among them
        assert target.name in line, (target.name, line)


@pytest.mark.parametrize(
    "args",
    [
        [*CALL, "--via", "zzz"],
        ["check", WEATHER, "--target", "zzz"],
        ["lint", WEATHER, "--target", "zzz"],
    ],
)
def test_a_name_close_to_none_lists_the_known_ones_only(run: Run, args: list[str]) -> None:
    out = run(*args)
    assert out.returncode == 2
    (line,) = out.stderr.splitlines()
    assert "'zzz'" in line and "langchain" in line and "did you mean" not in line, line
