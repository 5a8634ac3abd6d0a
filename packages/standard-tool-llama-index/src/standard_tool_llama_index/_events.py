"""What a standard tool reports, as events of the LlamaIndex workflow that runs it.

Inside an agent (any workflow whose ``Context`` reaches the tool),
``standard_tool.report_progress`` and ``report_log`` become :class:`ToolProgressEvent` and
:class:`ToolLogEvent` on the run's event stream (``handler.stream_events()``). A reporter
already installed around the call receives them too.
"""

from __future__ import annotations

from . import _quiet  # noqa: F401  # isort: skip  (first: imports LlamaIndex quietly)
import asyncio
from collections.abc import Mapping
from typing import Any

from llama_index.core.workflow import Event

import standard_tool as st

__all__ = ["ToolLogEvent", "ToolProgressEvent", "WorkflowEvents"]


class ToolProgressEvent(Event):
    """A running tool's progress: ``progress`` out of ``total`` (if known)."""

    tool_name: str
    progress: float
    total: float | None = None
    message: str | None = None


class ToolLogEvent(Event):
    """A running tool's log message."""

    tool_name: str
    level: str
    message: str
    data: dict[str, Any] | None = None


class WorkflowEvents:
    """A :class:`standard_tool.Reporter` writing to a workflow run's event stream, from the
    tool's thread or the run's loop alike."""

    def __init__(self, workflow_ctx: Any, tool_name: str) -> None:
        self._ctx = workflow_ctx
        self._tool = tool_name
        self._loop = asyncio.get_running_loop()
        self._outer = st.current_reporter()

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        if self._outer is not None:
            self._outer.progress(progress, total, message)
        event = ToolProgressEvent(
            tool_name=self._tool, progress=progress, total=total, message=message
        )
        self._write(event)

    def log(self, level: st.LogLevel, message: str, data: Mapping[str, Any] | None) -> None:
        if self._outer is not None:
            self._outer.log(level, message, data)
        payload = None if data is None else dict(data)
        self._write(ToolLogEvent(tool_name=self._tool, level=level, message=message, data=payload))

    def _write(self, event: Event) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            self._ctx.write_event_to_stream(event)
        else:  # a sync tool's worker thread: the stream belongs to the run's loop
            self._loop.call_soon_threadsafe(self._ctx.write_event_to_stream, event)
