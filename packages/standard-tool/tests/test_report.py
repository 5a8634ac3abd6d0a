"""Progress and log reports reach the reporter installed around a call, on every path."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

import standard_tool as st
from standard_tool.exceptions import UsageError
from standard_tool.testing import RecordingReporter

EXPECTED = [
    ("progress", 0.0, 2.0, "start"),
    ("log", "info", "working", {"step": 1}),
    ("progress", 2.0, 2.0, None),
]


def _report() -> str:
    st.report_progress(0, 2, "start")
    st.report_log("working", data={"step": 1})
    st.report_progress(2, total=2)
    return "done"


@st.tool
def sync_tool() -> str:
    """Report from a sync tool."""
    return _report()


@st.tool
async def async_tool() -> str:
    """Report from an async tool."""
    await asyncio.sleep(0)
    return _report()


TOOLS = [sync_tool, async_tool]


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
@pytest.mark.parametrize("timeout", [None, 5.0])
def test_call_reports(tool: st.Tool, timeout: float | None) -> None:
    reporter = RecordingReporter()
    with st.reporting(reporter):
        assert st.call(tool, {}, timeout=timeout) == "done"
    assert reporter.events == EXPECTED


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
@pytest.mark.parametrize("timeout", [None, 5.0])
async def test_acall_reports(tool: st.Tool, timeout: float | None) -> None:
    reporter = RecordingReporter()
    with st.reporting(reporter):
        assert await st.acall(tool, {}, timeout=timeout) == "done"
    assert reporter.events == EXPECTED


def test_execute_reports_directly() -> None:
    reporter = RecordingReporter()
    with st.reporting(reporter):
        sync_tool.execute({})
    assert reporter.events == EXPECTED


async def test_concurrent_calls_keep_their_own_reporter() -> None:
    first, second = RecordingReporter(), RecordingReporter()

    async def run(reporter: RecordingReporter) -> None:
        with st.reporting(reporter):
            await st.acall(async_tool, {})
            await st.acall(sync_tool, {})

    await asyncio.gather(run(first), run(second))
    assert first.events == second.events == EXPECTED * 2


def test_no_reporter_is_a_no_op_and_the_block_restores_the_previous_one() -> None:
    assert st.current_reporter() is None
    assert st.call(sync_tool, {}) == "done"
    outer, inner = RecordingReporter(), RecordingReporter()
    with st.reporting(outer):
        with st.reporting(inner):
            assert st.current_reporter() is inner
        with st.reporting(None):
            st.report_log("dropped")
        assert st.current_reporter() is outer
    assert st.current_reporter() is None
    assert outer.events == inner.events == []


class Broken:
    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        raise RuntimeError("reporter down")

    def log(self, level: Any, message: str, data: Any) -> None:
        raise SystemError("reporter down")


def test_a_failing_reporter_never_fails_the_tool(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="standard_tool"), st.reporting(Broken()):
        assert st.call(sync_tool, {}) == "done"
    assert [r.getMessage() for r in caplog.records] == [
        "a progress reporter failed; the report was dropped",
        "a log reporter failed; the message was dropped",
        "a progress reporter failed; the report was dropped",
    ]


@pytest.mark.parametrize(
    "report",
    [
        lambda: st.report_progress(float("nan")),
        lambda: st.report_progress(True),
        lambda: st.report_progress("1"),  # type: ignore[arg-type]
        lambda: st.report_progress(1, float("inf")),
        lambda: st.report_progress(1, 2, 3),  # type: ignore[arg-type]
        lambda: st.report_log("x", level="verbose"),  # type: ignore[arg-type]
        lambda: st.report_log(1),  # type: ignore[arg-type]
        lambda: st.report_log("x", data=[1]),  # type: ignore[arg-type]
    ],
)
def test_bad_reports_are_usage_errors_even_without_a_reporter(report: Any) -> None:
    with pytest.raises(UsageError):
        report()


def test_reporting_refuses_what_is_not_a_reporter() -> None:
    with pytest.raises(UsageError, match="Reporter"):
        with st.reporting(object()):  # type: ignore[arg-type]
            pass


def test_log_levels_are_ordered() -> None:
    assert st.LOG_LEVELS[0] == "debug" and st.LOG_LEVELS[-1] == "emergency"
    assert len(set(st.LOG_LEVELS)) == 8
