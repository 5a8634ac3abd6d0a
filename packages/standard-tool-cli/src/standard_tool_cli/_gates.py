"""A gate left out: the gates SOURCE's module defines that guard none of the tools served or
called without ``--gate``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from standard_tool.boundary import Gate, guarded_of

from ._options import warn
from ._sources import is_file, source_module

__all__ = ["unused_gates", "warn_unused_gates"]


def unused_gates(source: str, tools: Sequence[Any]) -> list[str]:
    """The names of the gates SOURCE's module defines at its top level (a public attribute
    holding a :class:`~standard_tool.boundary.Gate`) that guard none of ``tools``, sorted;
    none for an MCP server."""
    module = source_module(source)
    if module is None:
        return []
    guarding = [guarded.gate for guarded in map(guarded_of, tools) if guarded is not None]
    return sorted(
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and isinstance(value, Gate)
        and not any(value is gate for gate in guarding)
    )


def warn_unused_gates(source: str, tools: Sequence[Any]) -> None:
    """A warning on stderr, one line, naming the gates of :func:`unused_gates` and how to
    guard the tools with one: the tools go on unguarded, as asked."""
    names = unused_gates(source, tools)
    if not names:
        return
    where = source.rpartition(":")[0]
    short = Path(where).name if is_file(where) else where
    shown = ", ".join(f"{short}:{name}" for name in names)
    one = len(names) == 1
    warn(
        f"{where} defines {'a gate' if one else 'gates'} ({shown}) that "
        f"{'is' if one else 'are'} not in use: pass --gate {where}:{names[0]}"
        f"{'' if one else ' (or another of them)'} to guard its tools"
    )
