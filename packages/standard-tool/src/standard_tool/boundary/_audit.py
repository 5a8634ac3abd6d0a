"""Audit sinks: where a gate's :class:`~standard_tool.boundary._types.AuditEvent` goes, one per
call. A sink is any callable taking the event; these write it to :mod:`logging` or to a JSON
Lines file (OpenTelemetry is in ``_otel``)."""

from __future__ import annotations

import logging
from typing import Any

from ..exceptions import UsageError
from ..schema._json import jsonable
from ._types import AuditEvent

__all__ = ["LoggingAudit", "audit_record"]


def audit_record(event: AuditEvent) -> dict[str, Any]:
    """``event``'s fields as JSON data, what every sink writes. Never raises: a value that is
    not JSON data (an attribute holding an object, a NaN) becomes ``"<not JSON: type>"``; a
    set, a date, an enum or a model become what :func:`~standard_tool.schema._json.jsonable`
    makes of them."""
    record = event.to_dict()
    attributes = record.pop("attributes")
    record = {key: _safe(value) for key, value in record.items()}
    if isinstance(attributes, dict):
        record["attributes"] = {str(key): _safe(value) for key, value in attributes.items()}
    else:
        record["attributes"] = {"value": _safe(attributes)}
    return record


def _safe(value: Any) -> Any:
    """``value`` as JSON data, or a placeholder naming its type (never its text, which may
    say what an audit record must not)."""
    try:
        return jsonable(value)
    except Exception:
        return f"<not JSON: {type(value).__name__}>"


class LoggingAudit:
    """Log each event as one record on ``logger`` (a name or a :class:`logging.Logger`) at
    ``level``.

    The message reads ``tool call <tool>: <outcome>`` (with the refusal code in brackets);
    the record carries the whole event as JSON data (see :func:`audit_record`) in its
    ``audit`` attribute, passed as ``extra={"audit": ...}``. A JSON formatter
    (python-json-logger's ``JsonFormatter``, structlog's ``ProcessorFormatter`` with
    ``ExtraAdder``) writes it as an ``audit`` object beside the message.
    """

    def __init__(
        self, logger: str | logging.Logger = "standard_tool.audit", level: int | str = logging.INFO
    ) -> None:
        if isinstance(level, str):
            number = logging.getLevelName(level.upper())
            if not isinstance(number, int):
                raise UsageError(f"an audit log level is a logging level, not {level!r}")
            level = number
        elif type(level) is not int:
            raise UsageError(f"an audit log level is a logging level, not {level!r}")
        self.logger = logging.getLogger(logger) if isinstance(logger, str) else logger
        self.level = level

    def __call__(self, event: AuditEvent) -> None:
        if not self.logger.isEnabledFor(self.level):
            return
        code = f" ({event.code})" if event.code else ""
        self.logger.log(
            self.level,
            "tool call %s: %s%s",
            event.tool,
            event.outcome,
            code,
            extra={"audit": audit_record(event)},
        )

    def __repr__(self) -> str:
        return f"LoggingAudit({self.logger.name!r}, level={logging.getLevelName(self.level)!r})"
