"""A step of work with a time limit, in a daemon thread that cannot keep the process alive."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["StepTimeout", "bounded"]

T = TypeVar("T")


class StepTimeout(Exception):
    """A step did not end within its time limit (it may still be running, in the background)."""


def bounded(seconds: float | None, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, its result or what it raised; :class:`StepTimeout` after ``seconds``."""
    if seconds is None:
        return fn(*args)
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = fn(*args)
        except BaseException as exc:  # handed to the waiting thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="standard-tool-step", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise StepTimeout(f"no answer within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value
