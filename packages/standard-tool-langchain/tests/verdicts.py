"""The verdict on one input of an adopted tool, directly and through each installed
framework's runtime: the same everywhere."""

from __future__ import annotations

from typing import Any

import standard_tool as st
from standard_tool import registry

__all__ = ["FRAMEWORKS", "RUNTIMES", "assert_everywhere", "direct", "through"]

FRAMEWORKS = ("langchain", "pydantic-ai", "llama-index", "mcp", "openai-agents", "smolagents")
RUNTIMES = [t.name for t in registry.targets() if t.name in FRAMEWORKS]
"""The installed frameworks whose runtimes run the adopted tools (LangChain's at least)."""


def direct(tool: Any, arguments: Any, context: Any = None) -> tuple[Any, tuple[Any, ...] | None]:
    """A direct call: its result, or the fields its typed refusal names."""
    try:
        return st.call(tool, arguments, context), None
    except st.ToolValidationError as error:
        assert error.tool == tool.name and error.target == "input"
        return None, error.fields


def through(target: str, tool: Any, arguments: Any, context: Any = None) -> Any:
    """What a model is told when ``target``'s runtime runs the tool for its call."""
    runtime = registry.runtime(target)
    assert runtime is not None
    return runtime.call(runtime.native(tool), arguments, context)


def assert_everywhere(
    tool: Any,
    arguments: Any,
    refused: str | None,
    context: Any = None,
    runtimes: list[str] = RUNTIMES,
) -> Any:
    """The same verdict directly and through each runtime: refused naming the field
    ``refused`` (and the tool), without ever quoting an argument; or run. The direct result."""
    value, fields = direct(tool, arguments, context)
    assert (fields is None) == (refused is None), (arguments, fields)
    if refused is not None:
        assert fields is not None and any(refused in str(path) for path in fields)
    for target in runtimes:
        outcome = through(target, tool, arguments, context)
        assert (outcome.error is None) == (refused is None), (target, arguments, outcome)
        if refused is not None:
            assert refused in outcome.error, (target, outcome.error)
            if target != "smolagents":  # its agent quotes the arguments in its own words
                assert f"'{tool.name}'" in outcome.error, (target, outcome.error)
                for quoted in map(str, arguments.values()):
                    assert quoted not in outcome.error.replace(refused, ""), (target, quoted)
    return value
