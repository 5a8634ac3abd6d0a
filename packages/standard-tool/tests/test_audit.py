"""The boundary's audit sinks that need no extra: one log record, or one JSON line, per call."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from standard_tool.boundary import LoggingAudit
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
