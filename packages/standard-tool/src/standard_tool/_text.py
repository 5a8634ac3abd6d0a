"""Text chosen by someone else (a model's keys, a developer's names) in messages: clipped."""

from __future__ import annotations

__all__ = ["clip"]


def clip(text: str, limit: int = 64) -> str:
    """``text`` cut to at most ``limit`` characters (``...`` marks the cut), as valid
    Unicode: a message that names a key or a name stays short, and can be sent as UTF-8
    whatever the key or name was."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")
