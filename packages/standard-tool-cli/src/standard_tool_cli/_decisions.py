"""What a person deciding on a held call reads (``pending``, ``approve``, ``reject``): the
call's approval request whole, found under the request id of the caller whose call it is (its
tenant and actor), and what became of a call that waits for no decision."""

from __future__ import annotations

import json
from typing import Any

from standard_tool.boundary import Approval, Gate, MemoryStore, legible, record_key

from ._errors import CommandError

__all__ = ["decided", "pending", "readable", "request_text", "waiting", "whose"]


def waiting(
    gate: Gate, gate_spec: str, request_id: str, tenant: str | None, actor: str | None
) -> Approval:
    """The approval request of the call ``request_id`` of ``actor`` in ``tenant``, kept in the
    gate's store whatever its status; a usage error when there is none, saying where it may
    be."""
    approval = gate.store.approval(record_key(tenant, actor, request_id))
    if approval is not None:
        return approval
    hints = []
    if tenant is None and actor is None:
        hints.append(
            "a call is kept under the tenant and actor of its caller: give them with "
            "--tenant and --actor"
        )
    if isinstance(gate.store, MemoryStore):
        hints.append(
            "the gate keeps its approvals in a MemoryStore, which lives in one process: give "
            "it a store that processes share"
        )
    raise CommandError(
        f"no call waits for approval under request id {request_id!r}{whose(tenant, actor)} in "
        f"the store of --gate {gate_spec!r}" + "".join(f"; {hint}" for hint in hints)
    )


def pending(approval: Approval) -> Approval:
    """``approval``, when it waits for a decision; else a usage error that says what became
    of its call."""
    fate = approval.fate()
    if fate is None:
        return approval
    raise CommandError(
        f"the call under request id {approval.request_id!r}"
        f"{whose(approval.tenant, approval.actor)} {fate}; it waits for no decision"
    )


def whose(tenant: str | None, actor: str | None) -> str:
    """`` of actor 'a' of tenant 't'``, with whichever of the two is given (as the gate names
    a call)."""
    of = f" of actor {actor!r}" if actor is not None else ""
    return of + (f" of tenant {tenant!r}" if tenant is not None else "")


def request_text(approval: Approval) -> str:
    """The approval request as a person reads it: indented JSON of ``Approval.request()``."""
    return readable(json.dumps(approval.request(), indent=2, ensure_ascii=False))


def decided(word: str, approval: Approval, **decision: Any) -> str:
    """One line saying what was decided on which call: ``word`` (``approved``, ``rejected``),
    then JSON of the call's approval request (its arguments whole; ``summary``, their text,
    left out) and of ``decision`` (the approver, the reason, the expiry)."""
    request = {k: v for k, v in approval.request().items() if k != "summary"}
    return f"{word} {readable(json.dumps({**request, **decision}, ensure_ascii=False))}"


def readable(text: str) -> str:
    """JSON text as the gate shows it to a person (``standard_tool.boundary.legible``: no
    argument can pass for another line or read as other text), the line breaks of an indented
    document kept."""
    return "\n".join(map(legible, text.split("\n")))
