"""Asking whether an object is a tool never breaks the asker: an object whose attributes raise
anything at all (a lazy proxy, a property raising ``SystemExit`` or ``KeyboardInterrupt``)
is "not a tool"."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import standard_tool as st
from standard_tool.adapters import Adapter, as_tools
from standard_tool.exceptions import UnsupportedObjectError, UsageError
from standard_tool.providers import to_openai
from standard_tool.registry import PluginManager, adopt_tools, is_standard_tool
from standard_tool.schema._json import is_media

RAISED = [RuntimeError("not loaded"), SystemExit(3), KeyboardInterrupt(), ValueError("lazy")]


def hostile(error: BaseException) -> Any:
    """An object every attribute of which raises ``error``, ``__class__`` included (which
    ``isinstance`` reads)."""

    class Hostile:
        def __getattribute__(self, name: str) -> Any:
            raise error

    return Hostile()


def hostile_properties(error: BaseException) -> Any:
    """A tool-shaped object whose ``name``, ``description`` and ``execute`` raise ``error``."""

    def raising(self: Any) -> Any:
        raise error

    kind = type(
        "Lazy",
        (),
        {field: property(raising) for field in ("name", "description", "execute", "timeout")},
    )
    return kind()


MAKERS = [hostile, hostile_properties]


@pytest.mark.parametrize("error", RAISED, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("make", MAKERS, ids=["every-attribute", "tool-properties"])
def test_a_probe_answers_not_a_tool(make: Any, error: BaseException) -> None:
    obj = make(error)
    assert is_standard_tool(obj) is False
    assert is_media(obj) is False
    for adopt in (st.adopt, adopt_tools, lambda o: adopt_tools([o]), to_openai):
        with pytest.raises(UnsupportedObjectError):
            adopt(obj)
    with pytest.raises(UnsupportedObjectError):
        st.convert(obj, to="openai")
    assert as_tools(obj) == [obj]


@pytest.mark.parametrize("error", RAISED, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("make", MAKERS, ids=["every-attribute", "tool-properties"])
def test_calling_an_object_that_is_not_a_tool_is_a_usage_error(
    make: Any, error: BaseException
) -> None:
    obj = make(error)
    with pytest.raises(UsageError, match="takes a standard tool"):
        st.call(obj, {})
    with pytest.raises(UsageError, match="takes a standard tool"):
        asyncio.run(st.acall(obj, {}))


class Native:
    """A framework's own tool object."""


class Owning(Adapter):
    """An adapter whose ``owns`` reads the object, as the MCP adapter's does."""

    def owns(self, obj: Any) -> bool:
        return hasattr(obj, "call_tool") or super().owns(obj)


@pytest.mark.parametrize("error", RAISED, ids=lambda e: type(e).__name__)
def test_an_adapters_lookup_answers_not_mine(
    plugin_manager: PluginManager, error: BaseException
) -> None:
    plugin_manager.register(
        Owning(
            target="native",
            distribution="standard-tool",
            adopt=f"{__name__}:Native",
            native=("collections.abc:Mapping", f"{__name__}:Native"),
            adopt_tools=f"{__name__}:Native",
            collections=("collections.abc:Sequence",),
        ),
        name="native",
    )
    for obj in (hostile(error), hostile_properties(error)):  # no hook raises, nor is skipped
        with pytest.raises(UnsupportedObjectError):  # with a warning (an error in the tests)
            st.adopt(obj)
        with pytest.raises(UnsupportedObjectError):
            adopt_tools(obj)
