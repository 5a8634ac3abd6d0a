"""A gate's decisions on held calls: ``pending``, ``approve`` and ``reject``, and what a
person deciding reads: the call's approval request whole, found under the request id of the
caller whose call it is (its tenant and actor), and what became of a call that waits for no
decision."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

import standard_tool as st
from standard_tool.boundary import Approval, Gate, MemoryStore, legible, record_key
from standard_tool.checks import one_line

from ._errors import CommandError
from ._options import GATE_HELP, debug_option, described, gate_option
from ._sources import load_gate

__all__ = [
    "approve",
    "decided",
    "pending",
    "readable",
    "reject",
    "request_text",
    "still_pending",
    "waiting",
    "whose",
]

F = TypeVar("F", bound=Callable[..., Any])


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


def still_pending(approval: Approval) -> Approval:
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


_DECISION = """The gate's store must be one that the process which made the call shares (a
file or a database, not a MemoryStore)."""


def _whose(command: F) -> F:
    """``--tenant`` and ``--actor``: the caller whose call it is, as its approval request names
    them (a gate keeps each caller's request ids apart)."""
    command = click.option(
        "--actor", help="Who made the call (its approval request's actor), if anyone."
    )(command)
    return click.option(
        "--tenant", help="For whom the call was made (its approval request's tenant), if anyone."
    )(command)


@click.command(
    epilog="""\b
Examples:
  standard-tool pending order-42 --gate my_gate.py:GATE --tenant acme --actor alice"""
)
@click.argument("request_id")
@gate_option(required=True)
@_whose
@debug_option
def pending(request_id: str, gate_spec: str, tenant: str | None, actor: str | None) -> None:
    """The call waiting for approval under REQUEST_ID, of the caller --tenant and --actor name
    (as the call gave them), as JSON: its approval request whole (id, tool, tenant, actor, the
    arguments exactly as they will run but for values the tool marks secret, their JSON text
    as summary, and the digest an approval is bound to)."""
    gate = load_gate(gate_spec)
    approval = still_pending(waiting(gate, gate_spec, request_id, tenant, actor))
    click.echo(request_text(approval))


@click.command(
    epilog="""\b
Examples:
  standard-tool approve order-42 --gate my_gate.py:GATE --tenant acme --actor alice --approver bob
  standard-tool approve order-42 --gate my_gate.py:GATE --actor alice --approver bob \\
    --expires-in 600"""
)
@click.argument("request_id")
@gate_option(required=True)
@_whose
@click.option("--approver", required=True, help="Who approves (kept with the approval).")
@click.option(
    "--expires-in",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Seconds the approval holds (default: until the call is made).",
)
@debug_option
def approve(
    request_id: str,
    gate_spec: str,
    tenant: str | None,
    actor: str | None,
    approver: str,
    expires_in: float | None,
) -> None:
    """Approve the call waiting under REQUEST_ID, of the caller --tenant and --actor name: made
    again by that caller with that request id and the same arguments, it runs once. Prints
    what was approved, whole. Unless the gate allows it (self_approval), the approver may not
    be the call's actor."""
    gate = load_gate(gate_spec)
    approval = waiting(gate, gate_spec, request_id, tenant, actor)
    try:
        gate.approve(
            request_id, tenant=tenant, actor=actor, approver=approver, expires_in=expires_in
        )
    except st.UsageError as error:  # decided already (it says what became of it), or refused
        raise CommandError(one_line(str(error))) from None
    decision: dict[str, Any] = {"approver": approver}
    if expires_in is not None:
        decision["expires_in"] = expires_in
    click.echo(decided("approved", approval, **decision))


@click.command(
    epilog="""\b
Examples:
  standard-tool reject order-42 --gate my_gate.py:GATE --actor alice --approver bob \\
    --reason 'wrong account'"""
)
@click.argument("request_id")
@gate_option(required=True)
@_whose
@click.option("--approver", required=True, help="Who rejects (kept with the decision).")
@click.option("--reason", default="", help="Why, kept with the decision (not shown to a model).")
@debug_option
def reject(
    request_id: str,
    gate_spec: str,
    tenant: str | None,
    actor: str | None,
    approver: str,
    reason: str,
) -> None:
    """Reject the call waiting under REQUEST_ID, of the caller --tenant and --actor name: made
    again, it is refused (`denied`). Prints what was rejected, whole."""
    gate = load_gate(gate_spec)
    approval = waiting(gate, gate_spec, request_id, tenant, actor)
    try:
        gate.reject(request_id, tenant=tenant, actor=actor, approver=approver, reason=reason)
    except st.UsageError as error:  # decided already: it says what became of it
        raise CommandError(one_line(str(error))) from None
    click.echo(decided("rejected", approval, approver=approver, reason=reason))


for _command in (pending, approve, reject):
    described(_command, f"{GATE_HELP} {_DECISION}")
