"""What differs between PydanticAI 1.x and 2.x."""

from __future__ import annotations

from typing import Any

__all__ = ["ToolFailed"]

ToolFailed: Any
"""``pydantic_ai.exceptions.ToolFailed`` (2.x): a failed tool result, with no retry; ``None``
on 1.x, which has no failed tool result."""
try:
    from pydantic_ai.exceptions import ToolFailed
except ImportError:  # pragma: no cover - PydanticAI 1.x
    ToolFailed = None
