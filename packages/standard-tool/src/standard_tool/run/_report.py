"""Progress and log messages from inside a tool, to whichever framework runs it.

A tool calls :func:`report_progress` and :func:`report_log` wherever it runs; the caller (an
adapter, or your own code) decides where they go by installing a :class:`Reporter` around the
call with :func:`reporting`. With no reporter installed both are no-ops, so a tool never
depends on a framework to report. The reporter is held in a context variable: it follows the
call into worker threads and onto the shared background loop of :func:`standard_tool.call`.
"""

from __future__ import annotations

import contextvars
import logging
import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Literal, Protocol, runtime_checkable

from ..exceptions import UsageError

__all__ = [
    "LOG_LEVELS",
    "LogLevel",
    "Reporter",
    "current_reporter",
    "report_log",
    "report_progress",
    "reporting",
]

LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
LOG_LEVELS: tuple[LogLevel, ...] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)
"""The log levels, least severe first (those of syslog, which MCP uses too)."""

_logger = logging.getLogger("standard_tool")


@runtime_checkable
class Reporter(Protocol):
    """Receives what a running tool reports. Adapters map it to their framework's own means
    (MCP notifications, LangChain custom events...). Methods are called from the thread the
    tool runs in, sync or async; they must not block for long, and what they raise is logged
    and dropped: reporting never fails a tool."""

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        """``progress`` so far (never decreasing within a call), out of ``total`` if known."""

    def log(self, level: LogLevel, message: str, data: Mapping[str, Any] | None) -> None:
        """A log message at ``level``, with optional JSON ``data``."""


_current: contextvars.ContextVar[Reporter | None] = contextvars.ContextVar(
    "standard_tool_reporter", default=None
)


def current_reporter() -> Reporter | None:
    """The reporter installed around the running call, if any."""
    return _current.get()


@contextmanager
def reporting(reporter: Reporter | None) -> Iterator[Reporter | None]:
    """Send the reports of tools called inside the block to ``reporter`` (``None``: nowhere)."""
    if reporter is not None and not isinstance(reporter, Reporter):
        raise UsageError(
            f"reporting() takes a Reporter (progress and log methods), not {type(reporter).__name__}"
        )
    token = _current.set(reporter)
    try:
        yield reporter
    finally:
        _current.reset(token)


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise UsageError(f"report_progress(): {what} must be a finite number")
    return float(value)


def report_progress(
    progress: float, total: float | None = None, message: str | None = None
) -> None:
    """Report how far the running tool has come: ``progress`` out of ``total`` (if known).

    A no-op when no reporter is installed around the call.
    """
    reporter = _current.get()
    value = _number(progress, "progress")
    whole = None if total is None else _number(total, "total")
    if message is not None and not isinstance(message, str):
        raise UsageError("report_progress(): message must be a string")
    if reporter is None:
        return
    try:
        reporter.progress(value, whole, message)
    except Exception:
        _logger.warning("a progress reporter failed; the report was dropped", exc_info=True)


def report_log(
    message: str, *, level: LogLevel = "info", data: Mapping[str, Any] | None = None
) -> None:
    """Send a log message from the running tool to its caller's framework.

    A no-op when no reporter is installed around the call.
    """
    if level not in LOG_LEVELS:
        raise UsageError(f"report_log(): level must be one of {', '.join(LOG_LEVELS)}")
    if not isinstance(message, str):
        raise UsageError("report_log(): message must be a string")
    if data is not None and not isinstance(data, Mapping):
        raise UsageError("report_log(): data must be a mapping")
    reporter = _current.get()
    if reporter is None:
        return
    try:
        reporter.log(level, message, data)
    except Exception:
        _logger.warning("a log reporter failed; the message was dropped", exc_info=True)
