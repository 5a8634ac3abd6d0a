"""Looking at an object that may not be a tool: a probe answers whatever the object does.

``getattr(obj, name, None)`` absorbs only ``AttributeError``; a lazy proxy, or a property
raising ``RuntimeError``, ``SystemExit`` or ``KeyboardInterrupt``, would break whatever
asked. ``isinstance`` reads ``__class__``, which may raise too. Every question the core
asks of an object it was handed (is it a tool, is it media, which adapter owns it) goes
through :func:`attribute`, :func:`is_instance` or :func:`holds`, and an object that
raises is simply not what was asked about.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["attribute", "holds", "is_instance"]


def attribute(obj: Any, name: str) -> Any:
    """``obj.name``, or ``None`` when it is absent or reading it raises anything at all."""
    try:
        return getattr(obj, name, None)
    except BaseException:  # the object's own failure, never the asker's
        return None


def holds(test: Callable[[Any], object], obj: Any) -> bool:
    """Whether ``test(obj)`` is true; false when it raises anything at all."""
    try:
        return bool(test(obj))
    except BaseException:
        return False


def is_instance(obj: Any, kinds: type | tuple[type, ...]) -> bool:
    """``isinstance(obj, kinds)``, false when the object's ``__class__`` raises."""
    try:
        return isinstance(obj, kinds)
    except BaseException:
        return False
