"""Adopted PydanticAI tools and toolsets that misbehave end in the project's typed errors."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic_ai import RunContext, Tool
from pydantic_ai.exceptions import ModelRetry
from pydantic_ai.toolsets import AbstractToolset, FunctionToolset, ToolsetTool

import standard_tool as st
from standard_tool.exceptions import ConversionError, ToolTimeoutError, ToolValidationError
from standard_tool_pydantic_ai import from_pydantic_ai, from_pydantic_ai_toolset

# -- a retry whose text looks like PydanticAI's time limit ------------------------------


def odd_limit() -> str:
    """Ask again, in words PydanticAI uses for its time limit."""
    raise ModelRetry("Timed out after 1.2.3 seconds.")


def own_limit() -> str:
    """Ask again, exactly in PydanticAI's words, after a time limit of its own."""
    try:
        raise TimeoutError
    except TimeoutError:
        raise ModelRetry("Timed out after 0.5 seconds.") from None


@pytest.mark.parametrize(
    ("function", "message"),
    [(odd_limit, "Timed out after 1.2.3 seconds."), (own_limit, "Timed out after 0.5 seconds.")],
)
def test_a_tools_own_retry_is_a_retry_whatever_it_says(function: Any, message: str) -> None:
    with pytest.raises(ToolValidationError) as raised:
        st.call(from_pydantic_ai(Tool(function)), {})
    assert raised.value.target == "input"
    assert raised.value.issues[0].message == message


async def slow() -> str:
    """Take too long."""
    await asyncio.sleep(5)
    return "late"


def test_a_toolsets_time_limit_is_a_timeout_error() -> None:
    (adopted,) = from_pydantic_ai_toolset(FunctionToolset([Tool(slow)], timeout=0.1))
    with pytest.raises(ToolTimeoutError) as raised:
        st.call(adopted, {})
    assert raised.value.seconds == 0.1


# -- toolsets whose listing fails or returns garbage ------------------------------------


class Listing(AbstractToolset[Any]):
    """A toolset whose ``get_tools`` runs ``listing``."""

    def __init__(self, listing: Any) -> None:
        self.listing = listing

    @property
    def id(self) -> str | None:
        return "odd"

    @property
    def label(self) -> str:
        return "OddToolset"

    async def get_tools(self, ctx: RunContext[Any]) -> Any:
        return self.listing()

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        raise AssertionError("never called")


def raising(kind: type[BaseException]) -> Any:
    def listing() -> Any:
        raise kind("listing")

    return listing


@pytest.mark.parametrize(
    "listing",
    [
        raising(SystemExit),
        raising(KeyboardInterrupt),
        raising(AttributeError),
        lambda: None,
        lambda: ["add"],
        lambda: {"add": "not a tool"},
        lambda: {"add": None},
    ],
    ids=["exit", "interrupt", "error", "none", "list", "str", "none-tool"],
)
def test_a_listing_that_fails_or_returns_garbage_is_a_conversion_error(listing: Any) -> None:
    with pytest.raises(ConversionError, match="OddToolset"):
        from_pydantic_ai_toolset(Listing(listing))
    # the shared background loop still runs
    assert from_pydantic_ai_toolset([Tool(slow)])[0].name == "slow"


async def test_the_async_loader_too_turns_an_exit_into_a_conversion_error() -> None:
    from standard_tool_pydantic_ai import load_pydantic_ai_toolset

    with pytest.raises(ConversionError, match="OddToolset"):
        await load_pydantic_ai_toolset(Listing(raising(SystemExit)))
