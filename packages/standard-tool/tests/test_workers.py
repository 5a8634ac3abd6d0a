"""Calls with a time limit run on daemon worker threads that are reused, never waited for."""

from __future__ import annotations

import threading
import time

import pytest

import standard_tool as st


@st.tool
def where() -> str:
    """The name of the thread running the call."""
    return threading.current_thread().name + f":{threading.get_ident()}"


@st.tool
def block(seconds: float) -> float:
    """Block the thread."""
    time.sleep(seconds)
    return seconds


def _workers() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "standard-tool-worker")


SLACK = 4
"""Threads a run of 50 calls may start beyond the idle ones: a thread counts itself idle just
after its job's result is handed over, so on a loaded machine the next call can come first
and start another. Without reuse, the 50 calls would start 50."""


def test_sequential_calls_reuse_one_daemon_thread() -> None:
    idle = _workers()  # idle ones from earlier tests may serve these calls too
    idents = {st.call(where, {}, timeout=5) for _ in range(50)}
    assert len(idents) <= idle + SLACK  # threads are reused: 50 calls start a few at most
    assert _workers() <= idle + SLACK
    assert all(ident.startswith("standard-tool-worker:") for ident in idents)


async def test_async_callers_reuse_them_too() -> None:
    idle = _workers()
    idents = {await st.acall(where, {}, timeout=5) for _ in range(50)}
    assert len(idents) <= idle + SLACK
    assert _workers() <= idle + SLACK


def test_a_stuck_thread_is_not_reused_and_does_not_delay_others() -> None:
    with pytest.raises(st.ToolTimeoutError):
        st.call(block, {"seconds": 1.0}, timeout=0.05)
    start = time.monotonic()
    assert st.call(block, {"seconds": 0}, timeout=5) == 0
    assert time.monotonic() - start < 0.5
    workers = [t for t in threading.enumerate() if t.name == "standard-tool-worker"]
    assert workers and all(t.daemon for t in workers)
