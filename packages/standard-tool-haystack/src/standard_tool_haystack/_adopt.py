"""Haystack tools as standard tools."""

from __future__ import annotations

import copy
from typing import Any

from haystack.components.agents import Agent
from haystack.tools.errors import ToolInvocationError
from haystack.tools.tool import Tool
from haystack.tools.toolset import Toolset
from haystack.tools.utils import flatten_tools_or_toolsets

import standard_tool as st
from standard_tool.adapters import METADATA_KEY, AdoptedTool, adopt_all, not_adoptable

from ._export import StandardHaystackTool

__all__ = ["HaystackTool", "from_haystack", "from_haystack_tools"]


class HaystackTool(AdoptedTool):
    """A standard tool that runs a Haystack ``Tool`` (a function tool, a ``ComponentTool``,
    any subclass) as the Agent does: ``Tool.invoke`` with the arguments as keywords
    (``invoke_async`` from async code).

    The input schema is ``parameters`` exactly, checked here with full JSON Schema semantics
    (Haystack checks no argument); the result is the tool's own value, not the text a model
    would read. A failure (``ToolInvocationError``) is a ``ToolExecutionError`` with the
    message of the exception behind it (Haystack's own message quotes the arguments).
    """

    framework = "Haystack"
    exported = (StandardHaystackTool,)
    wrapped: Tool

    def __init__(self, native: Tool) -> None:
        metadata = getattr(native, "metadata", None)
        super().__init__(
            native,
            name=native.name,
            description=native.description or "",
            metadata=metadata.get(METADATA_KEY) if isinstance(metadata, dict) else None,
        )

    def native_input_schema(self) -> Any:
        return copy.deepcopy(self.wrapped.parameters)

    @property
    def is_async(self) -> bool:
        """A tool with only an async function runs only from async code."""
        return self.standard_tool is None and self.wrapped.function is None

    @property
    def has_async(self) -> bool:
        return self.is_async or getattr(self.wrapped, "async_function", None) is not None

    def run(self, input: Any, context: Any) -> Any:
        if self.standard_tool is not None:
            return st.call(self.standard_tool, input, context)
        return self.wrapped.invoke(**input)

    async def arun(self, input: Any, context: Any) -> Any:
        if self.standard_tool is not None:
            return await st.acall(self.standard_tool, input, context)
        return await self.wrapped.invoke_async(**input)

    def translate(self, exc: Exception) -> Exception:
        if isinstance(exc, ToolInvocationError):
            cause = exc.__cause__
            if isinstance(cause, Exception):
                return cause  # the tool's own failure, reported as any tool's
            return st.ToolExecutionError(self.name, "the tool could not be invoked")
        return exc


def from_haystack(tool: Any) -> HaystackTool:
    """A standard tool that runs a Haystack ``Tool`` (``@tool``, ``create_tool_from_function``,
    ``Tool(...)``, a ``ComponentTool``, or exported here) as the Agent does."""
    if isinstance(tool, Tool):
        return HaystackTool(tool)
    raise not_adoptable(
        tool,
        "a Haystack tool",
        holders=(Toolset, Agent),
        holder="a Haystack toolset or agent",
        many="from_haystack_tools",
    )


def from_haystack_tools(tools: Any) -> list[HaystackTool]:
    """Standard tools for a ``Toolset``'s tools, an Agent's tools, one ``Tool``, or an
    iterable of them."""
    return adopt_all(
        tools,
        from_haystack,
        single=(Tool, Toolset, Agent),
        tools_of=_tools_of,
    )


def _tools_of(item: Any) -> list[Any] | None:
    if isinstance(item, Toolset):
        return list(item)
    if isinstance(item, Agent):
        return flatten_tools_or_toolsets(item.tools)
    return None
