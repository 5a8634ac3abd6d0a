"""A bound on how long a test waits, so that a hang fails the test instead of the run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from ..run._waiting import start_thread, wait_for

__all__ = ["within"]

T = TypeVar("T")


def within(seconds: float, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` run on a daemon worker thread: its result, or what it raised, raised again.

    Fails the test if ``fn`` has not ended after ``seconds``: for tests of time limits and
    cancellation, where a bug shows as a hang. The thread is left running (it cannot be
    stopped) and does not keep the interpreter alive.
    """
    future = start_thread(fn, *args)
    if not wait_for(future, seconds):
        pytest.fail(f"still running after {seconds} s: it hangs")
    return future.result()
