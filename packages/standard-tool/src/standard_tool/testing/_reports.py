"""A reporter that records what tools report, for tests."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..run._report import LogLevel


@dataclass
class RecordingReporter:
    """A :class:`standard_tool.Reporter` that keeps every report, in order, from any thread.

    ``events`` holds ``("progress", progress, total, message)`` and
    ``("log", level, message, data)`` tuples.
    """

    events: list[tuple[Any, ...]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        with self._lock:
            self.events.append(("progress", progress, total, message))

    def log(self, level: LogLevel, message: str, data: Mapping[str, Any] | None) -> None:
        with self._lock:
            self.events.append(("log", level, message, None if data is None else dict(data)))
