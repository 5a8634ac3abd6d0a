"""What a standard tool reports, as LangChain custom callback events.

Inside a LangChain run, ``standard_tool.report_progress`` and ``report_log`` become custom
events of the tool's run (``on_custom_event`` of callback handlers, ``astream_events``):
``standard_tool.progress`` with ``{"progress", "total", "message"}`` and ``standard_tool.log``
with ``{"level", "message", "data"}``. A reporter already installed around the run (an MCP
server serving this LangChain tool, say) receives them too.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Mapping
from typing import Any

import standard_tool as st

__all__ = ["LOG_EVENT", "PROGRESS_EVENT", "AsyncEvents", "Events", "events_for"]

PROGRESS_EVENT = "standard_tool.progress"
LOG_EVENT = "standard_tool.log"
_FLUSH_SECONDS = 5.0


class _Base:
    def __init__(self, manager: Any) -> None:
        self._manager = manager
        self._run_id = manager.parent_run_id
        self._outer = st.current_reporter()

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        if self._outer is not None:
            self._outer.progress(progress, total, message)
        self._send(PROGRESS_EVENT, {"progress": progress, "total": total, "message": message})

    def log(self, level: st.LogLevel, message: str, data: Mapping[str, Any] | None) -> None:
        if self._outer is not None:
            self._outer.log(level, message, data)
        payload = None if data is None else dict(data)
        self._send(LOG_EVENT, {"level": level, "message": message, "data": payload})

    def _send(self, name: str, data: dict[str, Any]) -> None:
        raise NotImplementedError


class Events(_Base):
    """Reports of a sync run, sent at once from the tool's thread."""

    def _send(self, name: str, data: dict[str, Any]) -> None:
        self._manager.on_custom_event(name, data, run_id=self._run_id)


class AsyncEvents(_Base):
    """Reports of an async run, sent on its event loop in order; :meth:`flush` waits for them."""

    def __init__(self, manager: Any) -> None:
        super().__init__(manager)
        self._loop = asyncio.get_running_loop()
        self._pending: list[concurrent.futures.Future[Any]] = []

    def _send(self, name: str, data: dict[str, Any]) -> None:
        event = self._manager.on_custom_event(name, data, run_id=self._run_id)
        self._pending.append(asyncio.run_coroutine_threadsafe(event, self._loop))

    async def flush(self) -> None:
        pending, self._pending = self._pending, []
        if pending:
            await asyncio.wait([asyncio.wrap_future(f) for f in pending], timeout=_FLUSH_SECONDS)


def events_for(
    config: Mapping[str, Any] | None, *, asynchronous: bool
) -> Events | AsyncEvents | None:
    """The reporter of the tool run whose child config is ``config``, if it has callbacks.

    A tool run's child config holds the callback manager of its children, whose parent is
    the tool's run: the events belong to that run, as with ``dispatch_custom_event``.
    """
    if not config or not config.get("callbacks"):
        return None
    from langchain_core.runnables.config import (
        get_async_callback_manager_for_config,
        get_callback_manager_for_config,
    )

    if asynchronous:
        manager: Any = get_async_callback_manager_for_config(config)  # type: ignore[arg-type]
        return AsyncEvents(manager) if manager.parent_run_id is not None else None
    manager = get_callback_manager_for_config(config)  # type: ignore[arg-type]
    return Events(manager) if manager.parent_run_id is not None else None
