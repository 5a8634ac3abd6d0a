"""LlamaIndex's own warnings, kept inside what runs LlamaIndex here.

LlamaIndex 0.12/0.13 warn when imported on newer pydantic releases (from pydantic's module),
and every agent LlamaIndex builds walks its pydantic members with ``inspect.getmembers``,
touching deprecated pydantic attributes (warnings attributed to ``inspect``). Such a warning
says nothing about a tool, yet under a tool author's ``-W error::DeprecationWarning`` or
``filterwarnings = error`` it would fail the call. :func:`framework_warnings_ignored` ignores
warnings attributed to the given modules while any call is inside it; a tool's own warnings,
attributed to its own module, surface as before.

``warnings.catch_warnings`` would swap the process's filter list and put it back on exit,
undoing what other threads did meanwhile. Here one filter per module pattern is added to the
front of the list when the first call enters and removed, by identity, when the last one
leaves.

Importing this module imports LlamaIndex with its import-time warnings ignored: each module
of the package that imports LlamaIndex imports this one first.
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from collections.abc import Iterator
from typing import Any, cast

__all__ = ["IMPORT_NOISE", "RUN_NOISE", "framework_warnings_ignored"]

RUN_NOISE = r"(?:llama_index|workflows)(?:\..*)?\Z|inspect\Z"
"""The modules LlamaIndex's own warnings come from while it builds and runs an agent."""
IMPORT_NOISE = r"(?:llama_index|workflows|pydantic)(?:\..*)?\Z|inspect\Z"
"""Those while LlamaIndex is imported, when pydantic warns about its model declarations."""

_lock = threading.Lock()
_held: dict[str, tuple[int, Any]] = {}
"""Per module pattern: how many calls are inside, and the filter they share."""


@contextlib.contextmanager
def framework_warnings_ignored(modules: str = RUN_NOISE) -> Iterator[None]:
    """Ignore the warnings attributed to a module matching ``modules`` while inside."""
    with _lock:
        depth, entry = _held.get(modules, (0, None))
        if depth == 0:
            warnings.filterwarnings("ignore", module=modules)
            entry = warnings.filters[0]
        _held[modules] = (depth + 1, entry)
    try:
        yield
    finally:
        with _lock:
            depth, entry = _held.pop(modules)
            if depth > 1:
                _held[modules] = (depth - 1, entry)
            else:  # gone already if a catch_warnings block put its list back meanwhile
                _remove(entry)


def _remove(entry: Any) -> None:
    filters = cast("list[Any]", warnings.filters)  # a list, typed as a sequence
    for index, item in enumerate(filters):
        if item is entry:
            del filters[index]
            return


with framework_warnings_ignored(IMPORT_NOISE):
    import llama_index.core  # noqa: F401
