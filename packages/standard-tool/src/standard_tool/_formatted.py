"""Failures as data: a tool wrapper for consumers that want errors returned, not raised."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from ._call import acall, call
from ._protocols import StandardTool
from .exceptions import ToolExecutionError, ToolValidationError

__all__ = ["FormattedTool", "with_formatted_output"]

ErrorFormat = Callable[[ToolValidationError | ToolExecutionError], Any]


def default_format(error: ToolValidationError | ToolExecutionError) -> dict[str, str]:
    """``{"error": message}``, the message naming the tool and the failing fields."""
    return {"error": str(error)}


class FormattedTool:
    """A tool whose validation and execution failures come back as values."""

    __slots__ = ("execute", "format", "tool")

    def __init__(self, tool: StandardTool, format: ErrorFormat) -> None:
        self.tool = tool
        self.format = format
        self.execute = (
            self._execute_async if inspect.iscoroutinefunction(tool.execute) else self._execute_sync
        )

    name = property(lambda self: self.tool.name)
    title = property(lambda self: getattr(self.tool, "title", None))
    description = property(lambda self: self.tool.description)
    input_schema = property(lambda self: getattr(self.tool, "input_schema", None))
    output_schema = property(lambda self: getattr(self.tool, "output_schema", None))

    @property
    def meta(self) -> Mapping[str, Any]:
        return getattr(self.tool, "meta", None) or {}

    def _execute_sync(self, input: Any, context: Any = None) -> Any:
        try:
            return call(self.tool, input, context)
        except (ToolValidationError, ToolExecutionError) as error:
            return self.format(error)

    async def _execute_async(self, input: Any, context: Any = None) -> Any:
        try:
            return await acall(self.tool, input, context)
        except (ToolValidationError, ToolExecutionError) as error:
            return self.format(error)

    def __repr__(self) -> str:
        return f"FormattedTool({self.tool!r})"


def with_formatted_output(tool: StandardTool, format: ErrorFormat | None = None) -> FormattedTool:
    """Wrap ``tool`` so failures are returned as ``format(error)`` (default ``{"error": msg}``).

    Applied once: wrapping an already wrapped tool returns it unchanged when the format is
    the same, and replaces the format otherwise (never formatting twice).
    """
    format = format or default_format
    if isinstance(tool, FormattedTool):
        return tool if tool.format is format else FormattedTool(tool.tool, format)
    return FormattedTool(tool, format)
