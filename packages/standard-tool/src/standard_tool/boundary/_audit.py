"""Audit sinks: where a gate's :class:`~standard_tool.boundary._types.AuditEvent` goes, one per
call. A sink is any callable taking the event; these write it to :mod:`logging` or to a JSON
Lines file (OpenTelemetry is in ``_otel``)."""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
from dataclasses import fields
from typing import Any

from ..exceptions import UsageError
from ..schema._json import jsonable
from ._types import AuditEvent

__all__ = ["JsonlAudit", "LoggingAudit", "audit_record"]


def audit_record(event: AuditEvent) -> dict[str, Any]:
    """``event``'s fields as JSON data, what every sink writes. Never raises: a value that is
    not JSON data (an attribute holding an object, a NaN) becomes ``"<not JSON: type>"``; a
    set, a date, an enum or a model become what :func:`~standard_tool.schema._json.jsonable`
    makes of them."""
    record = {field.name: getattr(event, field.name) for field in fields(event)}  # no copies
    attributes = record.pop("attributes")
    record = {key: _safe(value) for key, value in record.items()}
    if isinstance(attributes, dict):
        record["attributes"] = {_key(key): _safe(value) for key, value in attributes.items()}
    else:
        record["attributes"] = {"value": _safe(attributes)}
    return record


def _key(key: Any) -> str:
    """An attribute's name as a string: a number as JSON writes it (``3``, ``true``), anything
    that is not a string or JSON data as a placeholder."""
    text = _safe(key)
    return text if isinstance(text, str) else json.dumps(text, separators=(",", ":"))


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


class JsonlAudit:
    """Append each event to the file at ``path`` as one line of JSON (JSON Lines): the event
    as JSON data (see :func:`audit_record`), in UTF-8. Text is written as it is, except the
    characters that some readers end a line at (every one :meth:`str.splitlines` does: U+0085,
    U+2028 and U+2029 besides the control characters), which are written as JSON escapes
    (``\\u2028``): each event is one line for any reader, and reads back the same.

    Several sinks, threads and processes may append to the same file. Each event opens the
    file in append mode (creating it as :func:`open` would), takes an exclusive lock on it
    (``flock``; not on Windows, where appends do not interleave), writes the complete line in
    one ``write`` and closes it, so every line is whole and a rotated file is followed.

    A write that fails (a missing folder, a full disk) raises ``OSError`` from the sink. A
    :class:`~standard_tool.boundary.Gate` catches it, as it does any sink's exception: it logs
    it as an error on the ``standard_tool.boundary`` logger, gives the event to the next sink,
    and leaves the call's outcome as it is; nothing writes the event to the file again.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise UsageError(f"an audit file's path is a str or a path, not {type(path).__name__}")
        self.path: str = os.fspath(path)
        self._lock = threading.Lock()

    def __call__(self, event: AuditEvent) -> None:
        line = json.dumps(audit_record(event), ensure_ascii=False, separators=(",", ":"))
        line = line.translate(_LINE_BREAKS)
        _append(self.path, (line + "\n").encode("utf-8", "backslashreplace"), self._lock)

    def __repr__(self) -> str:
        return f"JsonlAudit({self.path!r})"


_LINE_BREAKS = {ord(c): f"\\u{ord(c):04x}" for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}
"""Every character :meth:`str.splitlines` ends a line at, as its JSON escape. JSON escapes the
control characters among them already; U+0085, U+2028 and U+2029 it writes as they are (here
always inside a string, where the escape reads back as the same character)."""

_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)


def _append(path: str, data: bytes, lock: threading.Lock) -> None:
    """Append ``data`` to ``path`` whole, holding ``lock`` (this process's threads) and an
    exclusive lock on the file (other processes)."""
    with lock:
        fd = os.open(path, _FLAGS, 0o666)
        try:
            if sys.platform != "win32":
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX)  # released when the file is closed
            view = memoryview(data)
            while view:  # one write, unless the system takes only part of it
                written = os.write(fd, view)
                if written <= 0:
                    raise OSError(f"could not append to the audit file {path!r}")
                view = view[written:]
        finally:
            os.close(fd)
