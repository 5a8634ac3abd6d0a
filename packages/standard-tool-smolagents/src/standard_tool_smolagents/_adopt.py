"""smolagents tools as standard tools."""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from functools import cached_property
from typing import Any

from smolagents import Tool, ToolCollection
from smolagents.agent_types import AgentType
from smolagents.tools import validate_tool_arguments

import standard_tool as st
from standard_tool.adapters import WrapperTool, unpack_metadata
from standard_tool.exceptions import ConversionError, Issue, UnsupportedObjectError

from ._export import StandardSmolTool
from ._inputs import input_schema_of, output_schema_of

__all__ = ["SmolagentsTool", "from_smolagents", "from_smolagents_tools"]


class SmolagentsTool(WrapperTool):
    """A standard tool that runs a smolagents ``Tool`` as its agents do (``tool(**arguments)``
    after smolagents' own check of the arguments against ``inputs``).

    The input schema is what ``inputs`` says (types, ``nullable``, descriptions, any JSON
    Schema keywords an entry carries; no other argument), checked here with full JSON Schema
    semantics; the output schema is ``output_schema``, else ``output_type``. smolagents'
    own refusals (``Argument x is required``...) are ``ToolValidationError``s naming the field.
    A tool made by ``to_smolagents`` comes back as the standard tool it runs.
    """

    wrapped: Tool

    def __init__(self, native: Tool) -> None:
        name = getattr(native, "name", None)
        if not isinstance(name, str) or not name:
            raise ConversionError(f"a smolagents tool without a name: {type(native).__name__}")
        description = getattr(native, "description", None)
        if not isinstance(description, str):
            raise ConversionError(f"smolagents tool {name!r}: the description must be a string")
        fields: dict[str, Any] = {"name": name, "description": description}
        if isinstance(native, StandardSmolTool):
            standard = native.standard_tool
            fields = {
                **unpack_metadata(native.standard_metadata).fields(),
                "name": standard.name,
                "description": standard.description,
            }
        super().__init__(native, **fields)

    @property
    def native(self) -> Tool:
        """The smolagents tool."""
        return self.wrapped

    @cached_property
    def _ours(self) -> bool:
        return isinstance(self.wrapped, StandardSmolTool)

    @cached_property
    def input_schema(self) -> Any:
        if isinstance(self.wrapped, StandardSmolTool):
            return st.input_json_schema(self.wrapped.standard_tool)
        return input_schema_of(self.wrapped.inputs)

    @cached_property
    def output_schema(self) -> Any:
        if isinstance(self.wrapped, StandardSmolTool):
            return st.output_json_schema(self.wrapped.standard_tool)
        native = self.wrapped
        return output_schema_of(native.output_type, getattr(native, "output_schema", None))

    @cached_property
    def validate_input(self) -> bool:  # type: ignore[override]
        """Checked here, except by tools of this package, which check their own input."""
        return not self._ours

    @cached_property
    def validate_output(self) -> bool:  # type: ignore[override]
        return not self._ours

    @cached_property
    def is_async(self) -> bool:
        native = self.wrapped
        if isinstance(native, StandardSmolTool):
            return inspect.iscoroutinefunction(native.standard_tool.execute)
        return inspect.iscoroutinefunction(native.forward)

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

    def __repr__(self) -> str:
        return f"SmolagentsTool({self.name!r})"


def from_smolagents(tool: Any) -> SmolagentsTool:
    """A standard tool that runs a smolagents ``Tool`` (``@tool`` functions, ``Tool``
    subclasses, ``Tool.from_langchain``, tools of a ``ToolCollection``) as its agents do."""
    if isinstance(tool, Tool):
        return SmolagentsTool(tool)
    if isinstance(tool, ToolCollection):
        raise UnsupportedObjectError(
            "a smolagents ToolCollection holds several tools: adopt them with "
            "from_smolagents_tools(collection)"
        )
    raise UnsupportedObjectError(
        f"not a smolagents tool: {type(tool).__module__}.{type(tool).__qualname__}"
    )


def from_smolagents_tools(tools: Any) -> list[SmolagentsTool]:
    """Standard tools for a ``ToolCollection`` (its ``tools``), one tool, or an iterable of
    tools and collections."""
    items: Iterable[Any]
    if isinstance(tools, (Tool, ToolCollection)):
        items = [tools]
    else:
        items = tools
    out: list[SmolagentsTool] = []
    for item in items:
        if isinstance(item, ToolCollection):
            out.extend(from_smolagents(tool) for tool in item.tools)
        else:
            out.append(from_smolagents(item))
    return out
