"""The boundary's audit sinks that need no extra: one log record, or one JSON line, per call."""

from __future__ import annotations

import datetime
import json
import logging
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from standard_tool.boundary import JsonlAudit, LoggingAudit
from standard_tool.boundary._types import AuditEvent


def _event(**changes: Any) -> AuditEvent:
    fields: dict[str, Any] = {
        "request_id": "req-1",
        "tool": "search",
        "schema_digest": "a" * 64,
        "digest": "b" * 64,
        "actor": "alice",
        "tenant": "acme",
        "outcome": "succeeded",
        "duration": 0.25,
        "time": 1_750_000_000.5,
        "attributes": {"attempt": 1},
    }
    fields.update(changes)
    return AuditEvent(**fields)


def _record(event: AuditEvent) -> dict[str, Any]:
    """What every sink writes of ``event``: its fields as JSON data."""
    return {
        "request_id": event.request_id,
        "tool": event.tool,
        "schema_digest": event.schema_digest,
        "digest": event.digest,
        "actor": event.actor,
        "tenant": event.tenant,
        "outcome": event.outcome,
        "code": event.code,
        "approval_id": event.approval_id,
        "approver": event.approver,
        "effect_id": event.effect_id,
        "duration": event.duration,
        "time": event.time,
        "attributes": event.attributes,
    }


# --- LoggingAudit ---------------------------------------------------------------------------


def test_logging_audit_logs_one_record_holding_the_event(caplog: pytest.LogCaptureFixture) -> None:
    sink = LoggingAudit()
    event = _event()
    with caplog.at_level(logging.INFO, logger="standard_tool.audit"):
        sink(event)
    [record] = caplog.records
    assert record.name == "standard_tool.audit"
    assert record.levelno == logging.INFO
    assert record.getMessage() == "tool call search: succeeded"
    assert record.__dict__["audit"] == _record(event)


def test_logging_audit_names_the_refusal_code(caplog: pytest.LogCaptureFixture) -> None:
    sink = LoggingAudit()
    event = _event(outcome="refused", code="denied", digest=None)
    with caplog.at_level(logging.INFO, logger="standard_tool.audit"):
        sink(event)
    [record] = caplog.records
    assert record.getMessage() == "tool call search: refused (denied)"
    assert record.__dict__["audit"]["code"] == "denied"
    assert record.__dict__["audit"]["digest"] is None


def test_logging_audit_takes_a_logger_and_a_level(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("app.tools.audit")
    sink = LoggingAudit(logger, level=logging.WARNING)
    with caplog.at_level(logging.WARNING, logger="app.tools.audit"):
        sink(_event(outcome="timeout"))
    [record] = caplog.records
    assert (record.name, record.levelno) == ("app.tools.audit", logging.WARNING)
    assert record.__dict__["audit"]["outcome"] == "timeout"


def test_logging_audit_logs_nothing_below_the_loggers_level(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sink = LoggingAudit(level=logging.DEBUG)
    with caplog.at_level(logging.INFO, logger="standard_tool.audit"):
        sink(_event())
    assert caplog.records == []


def test_logging_audit_record_is_json_data_whatever_the_attributes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Opaque:
        def __repr__(self) -> str:
            return "secret-token"

    sink = LoggingAudit()
    with caplog.at_level(logging.INFO, logger="standard_tool.audit"):
        sink(_event(attributes={"tags": {"b", "a"}, "opaque": Opaque(), "nan": float("nan")}))
    [record] = caplog.records
    attributes = record.__dict__["audit"]["attributes"]
    assert sorted(attributes["tags"]) == ["a", "b"]
    assert attributes["opaque"] == "<not JSON: Opaque>"
    assert attributes["nan"] == "<not JSON: float>"
    assert "secret-token" not in repr(record.__dict__)


def test_logging_audit_takes_a_level_by_name() -> None:
    assert LoggingAudit(level="warning").level == logging.WARNING


@pytest.mark.parametrize("level", ["loud", True, 2.5])
def test_logging_audit_refuses_a_level_that_is_not_one(level: Any) -> None:
    from standard_tool.exceptions import UsageError

    with pytest.raises(UsageError, match="level"):
        LoggingAudit(level=level)


# --- JsonlAudit -----------------------------------------------------------------------------


def _lines(path: Path) -> list[dict[str, Any]]:
    """Every line of ``path`` read as JSON: each one whole (ending in a newline) and valid
    UTF-8."""
    data = path.read_bytes()
    assert data.endswith(b"\n")
    lines = data.decode("utf-8").split("\n")[:-1]
    return [json.loads(line) for line in lines]


def test_jsonl_audit_appends_one_json_object_per_line(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    sink = JsonlAudit(path)
    first, second = _event(), _event(request_id="req-2", outcome="refused", code="denied")
    sink(first)
    sink(second)
    assert _lines(path) == [_record(first), _record(second)]
    JsonlAudit(str(path))(first)  # a second sink on the same file appends too
    assert len(_lines(path)) == 3


def test_jsonl_audit_lines_are_json_data_whatever_the_attributes(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    event = _event(
        actor="jos\u00e9 \ud800",
        duration=float("inf"),
        attributes={
            "when": datetime.date(2026, 1, 2),
            "raw": b"\xff",
            "lock": threading.Lock(),  # cannot even be copied
            3: "three",
            True: "yes",
            (1, 2): "pair",
        },
    )
    JsonlAudit(path)(event)
    [line] = _lines(path)
    assert line["actor"] == "<not JSON: str>"
    assert line["duration"] == "<not JSON: float>"
    assert line["attributes"] == {
        "when": "2026-01-02",
        "raw": "<not JSON: bytes>",
        "lock": "<not JSON: lock>",
        "3": "three",
        "true": "yes",
        "[1,2]": "pair",
    }
    assert "\\ud800" not in path.read_text("utf-8")


_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character :meth:`str.splitlines` ends a line at (``\\r\\n`` is two of them)."""


def test_jsonl_audit_lines_hold_no_character_a_reader_breaks_a_line_at(tmp_path: Path) -> None:
    assert all(f"a{c}b".splitlines() == ["a", "b"] for c in _LINE_BREAKS)
    path = tmp_path / "audit.jsonl"
    sink = JsonlAudit(path)
    events = [
        _event(
            request_id=f"req-{index}",
            tool=f"search{c}",
            actor=f"ali{c}ce",
            attributes={f"key{c}": f"value{c}", "nested": [{"text": f"a{c}\r\nb"}]},
        )
        for index, c in enumerate(_LINE_BREAKS)
    ]
    for event in events:
        sink(event)
    records = [_record(event) for event in events]
    text = path.read_text("utf-8")
    assert [json.loads(line) for line in text.splitlines()] == records
    assert _lines(path) == records
    with path.open(encoding="utf-8") as file:  # universal newlines
        assert [json.loads(line) for line in file] == records


def test_jsonl_audit_raises_what_the_write_raises(tmp_path: Path) -> None:
    """The sink itself raises; a gate is what logs a failing sink and carries on."""
    with pytest.raises(FileNotFoundError):
        JsonlAudit(tmp_path / "missing" / "audit.jsonl")(_event())


def test_jsonl_audit_refuses_a_path_that_is_not_one() -> None:
    from standard_tool.exceptions import UsageError

    with pytest.raises(UsageError, match="path"):
        JsonlAudit(3)  # type: ignore[arg-type]


_LARGE = "x" * 9000
"""Padding that makes each line larger than a page and than the usual write buffers."""

_CHILD = """
import os, sys, time
from standard_tool.boundary import JsonlAudit
from standard_tool.boundary._types import AuditEvent

path, go, writer, count, padding = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
deadline = time.monotonic() + 60
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.005)
sink = JsonlAudit(path)
for index in range(count):
    sink(AuditEvent(f"{writer}-{index}", "search", "a" * 64, None, writer, None, "succeeded",
                    attributes={"writer": writer, "index": index, "padding": "x" * padding}))
"""


def test_jsonl_audit_lines_stay_whole_across_threads_and_processes(tmp_path: Path) -> None:
    path, go = tmp_path / "audit.jsonl", tmp_path / "go"
    count, threads = 300, 4
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(path), str(go), f"process{n}", str(count), "9000"]
        )
        for n in range(2)
    ]
    sink = JsonlAudit(path)

    def write(writer: str) -> None:
        for index in range(count):
            sink(
                _event(
                    request_id=f"{writer}-{index}",
                    attributes={"writer": writer, "index": index, "padding": _LARGE},
                )
            )

    workers = [threading.Thread(target=write, args=(f"thread{n}",)) for n in range(threads)]
    go.touch()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    for child in children:
        assert child.wait(timeout=120) == 0
    assert not any(worker.is_alive() for worker in workers)

    lines = _lines(path)
    assert len(lines) == count * (threads + 2)
    seen: dict[str, list[int]] = {}
    for line in lines:
        attributes = line["attributes"]
        assert attributes["padding"] == _LARGE
        seen.setdefault(attributes["writer"], []).append(attributes["index"])
    expected = [f"thread{n}" for n in range(threads)] + ["process0", "process1"]
    assert sorted(seen) == sorted(expected)
    assert all(indexes == list(range(count)) for indexes in seen.values())


# --- OpenTelemetryAudit without its extra (its spans are tested in boundary_tests/) ----------


def test_opentelemetry_audit_without_the_api_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from standard_tool.boundary import OpenTelemetryAudit
    from standard_tool.exceptions import UsageError

    monkeypatch.setitem(sys.modules, "opentelemetry", None)  # what import finds not installed
    monkeypatch.setitem(sys.modules, "opentelemetry.trace", None)
    with pytest.raises(UsageError, match=r"standard-tool\[otel\]"):
        OpenTelemetryAudit()


def test_the_boundary_imports_no_optional_dependency() -> None:
    script = (
        "import sys, standard_tool.boundary\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in"
        " ('opentelemetry', 'redis', 'cedarpy')))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
