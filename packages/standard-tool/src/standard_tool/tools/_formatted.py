"""Failures as data: a tool wrapper for consumers that want errors returned, not raised."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._protocols import StandardTool
from ..exceptions import StandardToolError, ToolExecutionError, ToolValidationError
from ._wrapper import WrapperTool

__all__ = ["FormattedTool", "with_formatted_output"]

ErrorFormat = Callable[[ToolValidationError | ToolExecutionError], Any]


def default_format(error: ToolValidationError | ToolExecutionError) -> dict[str, str]:
    """``{"error": message}``, the message naming the tool and the failing fields."""
    return {"error": str(error)}


class FormattedTool(WrapperTool):
    """A tool whose validation and execution failures come back as values."""

    def __init__(self, tool: StandardTool, format: ErrorFormat) -> None:
        super().__init__(tool)
        self.format = format

    @property
    def tool(self) -> StandardTool:
        """The wrapped tool."""
        tool: StandardTool = self.wrapped
        return tool

    def handle(self, error: StandardToolError) -> Any:
        if isinstance(error, (ToolValidationError, ToolExecutionError)):
            return self.format(error)
        raise error


def with_formatted_output(tool: StandardTool, format: ErrorFormat | None = None) -> FormattedTool:
    """Wrap ``tool`` so failures are returned as ``format(error)`` (default ``{"error": msg}``).

    Applied once: wrapping an already wrapped tool returns it unchanged when the format is
    the same, and replaces the format otherwise (never formatting twice).
    """
    format = format or default_format
    if isinstance(tool, FormattedTool):
        return tool if tool.format is format else FormattedTool(tool.tool, format)
    return FormattedTool(tool, format)
