"""smolagents tools as standard tools."""

from __future__ import annotations

import inspect
from functools import cached_property
from typing import Any

from smolagents import Tool, ToolCollection
from smolagents.agent_types import AgentType
from smolagents.tools import validate_tool_arguments

import standard_tool as st
from standard_tool.adapters import AdoptedTool, adopt_all, not_adoptable
from standard_tool.exceptions import Issue

from ._export import StandardSmolTool
from ._inputs import input_schema_of, output_schema_of

__all__ = ["SmolagentsTool", "from_smolagents", "from_smolagents_tools"]


class SmolagentsTool(AdoptedTool):
    """A standard tool that runs a smolagents ``Tool`` as its agents do (``tool(**arguments)``
    after smolagents' own check of the arguments against ``inputs``).

    The input schema is what ``inputs`` says (types, ``nullable``, descriptions, any JSON
    Schema keywords an entry carries; no other argument), checked here with full JSON Schema
    semantics; the output schema is ``output_schema``, else ``output_type``. smolagents'
    own refusals (``Argument x is required``...) are ``ToolValidationError``s naming the field.
    A tool made by ``to_smolagents`` comes back as the standard tool it runs.
    """

    framework = "smolagents"
    exported = (StandardSmolTool,)
    wrapped: Tool

    def __init__(self, native: Tool) -> None:
        named = native.standard_tool if isinstance(native, StandardSmolTool) else native
        super().__init__(
            native,
            name=getattr(named, "name", None),
            description=getattr(named, "description", None),
            metadata=getattr(native, "standard_metadata", None),
        )

    def native_input_schema(self) -> Any:
        return input_schema_of(self.wrapped.inputs)

    @cached_property
    def output_schema(self) -> Any:
        if self._ours:
            return st.output_json_schema(self.standard_tool)
        native = self.wrapped
        return output_schema_of(native.output_type, getattr(native, "output_schema", None))

    @cached_property
    def is_async(self) -> bool:
        if self._ours:
            return inspect.iscoroutinefunction(self.standard_tool.execute)
        return inspect.iscoroutinefunction(self.wrapped.forward)

    @property
    def has_async(self) -> bool:
        return self.is_async

    def _checked(self, input: Any) -> dict[str, Any]:
        """smolagents' own check, as its agents make it before a call."""
        arguments = dict(input)
        inputs = self.wrapped.inputs
        seen = {  # an integer is a number (smolagents 1.20's check says otherwise)
            key: float(value)
            if type(value) is int and (inputs.get(key) or {}).get("type") == "number"
            else value
            for key, value in arguments.items()
        }
        try:
            message = validate_tool_arguments(self.wrapped, seen)
        except (TypeError, ValueError) as exc:
            message = str(exc)
        if message:  # smolagents 1.20 returns the message, newer versions raise it
            path = tuple(key for key in arguments if f"Argument {key} " in message)
            if not path:
                path = tuple(key for key in self.wrapped.inputs if f"Argument {key} " in message)
            raise st.ToolValidationError(self.name, "input", [Issue(message.rstrip("."), path)])
        return arguments

    def _result(self, output: Any) -> Any:
        if isinstance(output, AgentType):  # text as itself; an image or audio as its file path
            return output.to_string()
        return output

    def run(self, input: Any, context: Any) -> Any:
        if isinstance(self.wrapped, StandardSmolTool):
            return st.call(self.wrapped.standard_tool, input, context)
        result = self.wrapped(**self._checked(input))
        if inspect.isawaitable(result):
            result = st.run_sync(result)
        return self._result(result)

    async def arun(self, input: Any, context: Any) -> Any:
        if isinstance(self.wrapped, StandardSmolTool):
            return await st.acall(self.wrapped.standard_tool, input, context)
        result = self.wrapped(**self._checked(input))
        if inspect.isawaitable(result):
            result = await result
        return self._result(result)


def from_smolagents(tool: Any) -> SmolagentsTool:
    """A standard tool that runs a smolagents ``Tool`` (``@tool`` functions, ``Tool``
    subclasses, ``Tool.from_langchain``, tools of a ``ToolCollection``) as its agents do."""
    if isinstance(tool, Tool):
        return SmolagentsTool(tool)
    raise not_adoptable(
        tool,
        "a smolagents tool",
        holders=(ToolCollection,),
        holder="a smolagents ToolCollection",
        many="from_smolagents_tools(collection)",
    )


def from_smolagents_tools(tools: Any) -> list[SmolagentsTool]:
    """Standard tools for a ``ToolCollection`` (its ``tools``), one tool, or an iterable of
    tools and collections."""
    return adopt_all(
        tools,
        from_smolagents,
        single=(Tool, ToolCollection),
        tools_of=lambda item: item.tools if isinstance(item, ToolCollection) else None,
    )
