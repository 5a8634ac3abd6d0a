"""The execution boundary: one gate between a model's proposal and its effect, the same in
every framework, MCP server and provider loop a standard tool reaches.

A :class:`Gate` guards tools (``gate.guard(tools)`` returns standard tools), and every call of
a guarded tool goes through its steps in order: visible to this caller, valid arguments, not
switched off, the policy, freshness, a receipt that answers a repeat, approval, the request id
claimed, budgets (all or none), then the tool runs once under that request id, its outcome is
kept as a receipt, and one audit event is written; a refused call spends no budget. A refused call
raises :class:`~standard_tool.exceptions.ToolRefusedError`, whose ``str()`` is the same
machine-readable line in every framework.
"""

from .._text import legible
from ._audit import JsonlAudit, LoggingAudit
from ._budget import Budget
from ._cedar import CedarPolicy
from ._gate import (
    REJECTED,
    Approver,
    Gate,
    GuardedTool,
    approver_name,
    check_approver,
    guarded_of,
    identity_of,
    report_effect,
    request_id_of,
    with_request_id,
)
from ._inbox import inbox
from ._otel import OpenTelemetryAudit
from ._redis import RedisStore
from ._sqlite import SqliteStore
from ._store import MemoryStore, Store
from ._types import Approval, AuditEvent, CallRequest, Decision, Receipt, call_digest, record_key

__all__ = [
    "REJECTED",
    "Approval",
    "Approver",
    "AuditEvent",
    "Budget",
    "CallRequest",
    "CedarPolicy",
    "Decision",
    "Gate",
    "GuardedTool",
    "JsonlAudit",
    "LoggingAudit",
    "MemoryStore",
    "OpenTelemetryAudit",
    "Receipt",
    "RedisStore",
    "SqliteStore",
    "Store",
    "approver_name",
    "call_digest",
    "check_approver",
    "guarded_of",
    "identity_of",
    "inbox",
    "legible",
    "record_key",
    "report_effect",
    "request_id_of",
    "with_request_id",
]
