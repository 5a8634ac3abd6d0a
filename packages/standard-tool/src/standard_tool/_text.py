"""Text chosen by someone else (a model's keys, a developer's names) in messages: clipped,
or made legible for a person."""

from __future__ import annotations

import json

__all__ = ["clip", "legible"]


def clip(text: str, limit: int = 64) -> str:
    """``text`` cut to at most ``limit`` characters (``...`` marks the cut), as valid
    Unicode: a message that names a key or a name stays short, and can be sent as UTF-8
    whatever the key or name was."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")


def legible(text: str) -> str:
    """JSON text as a person reads it: every character that does not show as itself (a
    control, a bidirectional override, a zero-width or other format character, a line or
    paragraph separator, a space other than the plain one) written as its JSON escape, so no
    value can hide or reorder another on a screen. Such characters stand only inside JSON
    strings: the text is still JSON, and reads back the same."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in text)
