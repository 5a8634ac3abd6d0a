"""Pins: a snapshot held against the tools a source lists now, so that a tool whose
description or schemas drifted after review (an MCP server's "rug pull") is refused."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .._protocols import StandardTool
from ..exceptions import PinMismatchError
from ._digest import declaration
from ._snapshot import entry, load_snapshot

__all__ = ["Pin"]

_PARTS = ("description", "input", "output")


class Pin:
    """What a snapshot promised, tool by tool: ``Pin(snapshot)`` takes a snapshot (data, or the
    path of a ``tools.lock.json``), read with :func:`load_snapshot` (digests computed again).

    :meth:`changes` says what differs for one tool; :meth:`check` raises
    :class:`~standard_tool.exceptions.PinMismatchError` for a tool that differs, or that the
    pin does not name unless ``allow_unpinned``.
    """

    def __init__(
        self,
        snapshot: str | os.PathLike[str] | Mapping[str, Any],
        *,
        allow_unpinned: bool = False,
    ) -> None:
        loaded = load_snapshot(snapshot)
        self.allow_unpinned = allow_unpinned
        self.digests: dict[str, dict[str, Any]] = {
            item["name"]: item["digests"] for item in loaded["tools"]
        }

    def __repr__(self) -> str:
        count = len(self.digests)
        tools = "tool" if count == 1 else "tools"
        return f"Pin({count} {tools}, allow_unpinned={self.allow_unpinned})"

    def changes(self, tool: StandardTool) -> tuple[str, ...]:
        """What of ``tool`` differs from the pin (``description``, ``input``, ``output``), or
        ``("unpinned",)`` when the pin does not name it; ``()`` when it is as pinned."""
        pinned = self.digests.get(tool.name)
        if pinned is None:
            return ("unpinned",)
        now = entry(declaration(tool))["digests"]
        return tuple(part for part in _PARTS if now[part] != pinned[part])

    def check(self, tool: StandardTool, source: str | None = None) -> None:
        """Raise :class:`~standard_tool.exceptions.PinMismatchError` unless ``tool`` is as
        pinned (or unpinned and ``allow_unpinned``)."""
        changed = self.changes(tool)
        if changed and not (changed == ("unpinned",) and self.allow_unpinned):
            raise PinMismatchError(tool.name, changed, source)
