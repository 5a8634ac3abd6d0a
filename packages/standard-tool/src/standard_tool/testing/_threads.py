"""A bound on how long a test waits, so that a hang fails the test instead of the run."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

__all__ = ["within"]

T = TypeVar("T")


def within(seconds: float, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` run in a daemon thread: its result, or what it raised, raised again.

    Fails the test if ``fn`` has not ended after ``seconds``: for tests of time limits and
    cancellation, where a bug shows as a hang. The thread is left running (it cannot be
    stopped) and does not keep the interpreter alive.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = fn(*args)
        except BaseException as exc:  # handed to the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=target, name="standard-tool-within", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"still running after {seconds} s: it hangs")
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value
