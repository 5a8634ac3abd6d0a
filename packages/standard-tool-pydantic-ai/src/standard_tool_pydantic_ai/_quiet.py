"""PydanticAI's first-run banner, kept out of the runtime's scripted agent runs.

PydanticAI shows a banner on the first agent run of a process when a person or a coding agent
reads its stderr. The runtime's runs (``standard-tool check``, the pytest plugin) are nobody's
first run: inside :func:`no_banner` PydanticAI's own setting, ``pydantic_ai.BANNER_ENABLED``,
is off, so such a run neither shows the banner nor uses it up; the user's own first run still
gets it. The setting is turned off when the first call enters and put back when the last one
leaves (unless it was changed meanwhile). Releases without a banner have no such setting.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import pydantic_ai

__all__ = ["no_banner"]

_SETTING = "BANNER_ENABLED"
_lock = threading.Lock()
_inside = 0
_saved: Any = None


@contextlib.contextmanager
def no_banner() -> Iterator[None]:
    """No PydanticAI banner for the agent runs made while inside."""
    global _inside, _saved
    with _lock:
        if _inside == 0 and hasattr(pydantic_ai, _SETTING):
            _saved = getattr(pydantic_ai, _SETTING)
            setattr(pydantic_ai, _SETTING, False)
        _inside += 1
    try:
        yield
    finally:
        with _lock:
            _inside -= 1
            if _inside == 0 and getattr(pydantic_ai, _SETTING, None) is False:
                setattr(pydantic_ai, _SETTING, _saved)
