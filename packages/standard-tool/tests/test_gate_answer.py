"""What a framework's own pause and resume asks of a gate: whether a call would be held
(``needs_approval``: every step up to approval, nothing after), and a decision made in the
framework, recorded for exactly the call it was asked about (``answer``)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

import standard_tool as st
from standard_tool.boundary import AuditEvent, Budget, CallRequest, Decision, Gate, record_key
from standard_tool.exceptions import UsageError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gate_kit import ARGUMENT, SECRET, Kit, refusal  # noqa: E402

ARGS = {"amount": 500, "to": ARGUMENT}
WHO = {"tenant": "acme", "actor": "alice"}


def ctx(request_id: str, **more: Any) -> dict[str, Any]:
    return {**WHO, "secret": SECRET, "request_id": request_id, **more}


def large(request: CallRequest) -> bool:
    return bool(request.arguments["amount"] >= 100)


@pytest.fixture(params=["sync", "async"])
def asks(request: pytest.FixtureRequest) -> Any:
    """``gate.needs_approval``, or its async twin run to its end."""
    if request.param == "sync":
        return lambda gate, *args: gate.needs_approval(*args)
    return lambda gate, *args: asyncio.run(gate.aneeds_approval(*args))


def test_a_call_that_would_be_held_is_asked_about_and_nothing_runs(asks: Any) -> None:
    kit = Kit("sync")
    events: list[AuditEvent] = []
    gate = Gate(approvals=large, budgets=[Budget(limit=1)], audit=[events.append])
    guarded = gate.guard(kit.tool)
    held = asks(gate, guarded, ARGS, ctx("r-1"))
    assert held is not None and held.status == "pending"
    assert (held.request_id, held.tenant, held.actor) == ("r-1", "acme", "alice")
    assert held.arguments == ARGS
    assert gate.pending("r-1", **WHO) == held  # kept, for an inbox to list
    assert kit.runs == [] and events == []
    assert gate.store.receipt(record_key("acme", "alice", "r-1")) is None
    # Asked again, the same request: not a second one.
    assert asks(gate, guarded, ARGS, ctx("r-1")) == held
    # A small call would run; a call the policy would refuse is not put to a person.
    assert asks(gate, guarded, {**ARGS, "amount": 5}, ctx("r-2")) is None
    assert kit.runs == []
    # The budget of one call was never spent by asking.
    assert st.call(guarded, {**ARGS, "amount": 5}, ctx("r-2"))["sent"] == 5


def test_a_call_refused_for_another_reason_is_not_asked_about(asks: Any) -> None:
    kit = Kit("sync")
    gate = Gate(policy=lambda request: request.actor != "mallory", approvals=large)
    guarded = gate.guard(kit.tool)
    assert asks(gate, guarded, ARGS, ctx("r-1", actor="mallory")) is None
    assert asks(gate, guarded, {"amount": "lots"}, ctx("r-2")) is None
    assert gate.pending("r-1", tenant="acme", actor="mallory") is None
    refusal("denied", st.call, guarded, ARGS, ctx("r-1", actor="mallory"))


def test_a_hold_step_is_asked_about_too(asks: Any) -> None:
    kit = Kit("sync")
    gate = Gate(policy=lambda request: Decision.hold())
    held = asks(gate, gate.guard(kit.tool), ARGS, ctx("r-1"))
    assert held is not None and held.status == "pending" and kit.runs == []


def test_an_answer_approves_exactly_the_call_it_was_asked_about(asks: Any) -> None:
    kit = Kit("sync")
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    held = asks(gate, guarded, ARGS, ctx("r-1"))
    assert held is not None
    # Other arguments under the request id: nothing is recorded, and the call is refused.
    other = {**ARGS, "amount": 900}
    kept = gate.answer(guarded, other, ctx("r-1"), approved=True, approver="bob")
    assert kept is not None and kept.status == "pending"
    refusal("denied", st.call, guarded, other, ctx("r-1"))
    # The call asked about: approved by bob, bound to its digest, run once.
    decided = gate.answer(guarded, ARGS, ctx("r-1"), approved=True, approver="bob")
    assert decided is not None and (decided.status, decided.approver) == ("approved", "bob")
    assert decided.digest == held.digest
    assert asks(gate, guarded, ARGS, ctx("r-1")) is None  # it would run now
    assert st.call(guarded, ARGS, ctx("r-1"))["sent"] == 500
    # A second resume: nothing recorded, the receipt answers, the tool ran once.
    again = gate.answer(guarded, ARGS, ctx("r-1"), approved=True, approver="carol")
    assert again is not None and (again.status, again.approver) == ("used", "bob")
    assert st.call(guarded, ARGS, ctx("r-1"))["sent"] == 500
    assert len(kit.runs) == 1


def test_an_answer_rejects_and_the_call_is_denied() -> None:
    kit = Kit("sync")
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    assert gate.needs_approval(guarded, ARGS, ctx("r-1")) is not None
    decided = gate.answer(
        guarded, ARGS, ctx("r-1"), approved=False, approver="bob", reason="not today"
    )
    assert decided is not None and (decided.status, decided.reason) == ("rejected", "not today")
    assert gate.needs_approval(guarded, ARGS, ctx("r-1")) is None
    error = refusal("denied", st.call, guarded, ARGS, ctx("r-1"))
    assert "not today" not in str(error)
    # A later approval changes nothing: a decision is made once.
    after = gate.answer(guarded, ARGS, ctx("r-1"), approved=True, approver="bob")
    assert after is not None and after.status == "rejected"
    assert kit.runs == []


def test_an_answer_is_for_its_own_caller_only() -> None:
    kit = Kit("sync")
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    assert gate.needs_approval(guarded, ARGS, ctx("r-1")) is not None
    # Another tenant, or another actor, naming the same request id decides nothing.
    for who in ({"tenant": "globex"}, {"actor": "mallory"}):
        assert gate.answer(guarded, ARGS, ctx("r-1", **who), approved=True, approver="bob") is None
    assert gate.pending("r-1", **WHO) is not None


def test_an_answer_keeps_the_rules_of_a_decision() -> None:
    kit = Kit("sync")
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    assert gate.needs_approval(guarded, ARGS, ctx("r-1")) is not None
    with pytest.raises(UsageError, match="may not approve a call of their own"):
        gate.answer(guarded, ARGS, ctx("r-1"), approved=True, approver="alice")
    with pytest.raises(UsageError, match="name them"):
        gate.answer(guarded, ARGS, ctx("r-1"), approved=True, approver=None)
    with pytest.raises(UsageError, match="gives no request_id"):
        gate.answer(guarded, ARGS, WHO, approved=True, approver="bob")
    with pytest.raises(UsageError, match="not a tool this gate guards"):
        Gate().answer(guarded, ARGS, ctx("r-1"), approved=True, approver="bob")
    assert gate.pending("r-1", **WHO) is not None
    # The approver may be a function of the call's context.
    decided = gate.answer(
        guarded,
        ARGS,
        ctx("r-1", reviewer="dave"),
        approved=True,
        approver=lambda context: context["reviewer"],
        expires_in=60,
    )
    assert decided is not None and decided.approver == "dave"
    assert decided.expires_at is not None


def test_an_answered_approval_expires() -> None:
    kit = Kit("sync")
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    assert gate.needs_approval(guarded, ARGS, ctx("r-1")) is not None
    gate.answer(guarded, ARGS, ctx("r-1"), approved=True, approver="bob", expires_in=0.001)
    asyncio.run(asyncio.sleep(0.05))
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-1"))
    assert kit.runs == []


def test_a_rejection_may_name_only_its_call() -> None:
    kit = Kit("sync")
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    with pytest.raises(UsageError, match="names the arguments"):
        assert gate.needs_approval(guarded, ARGS, ctx("r-1")) is not None
        gate.answer(guarded, None, ctx("r-1"), approved=True, approver="bob")
    assert gate.pending("r-1", **WHO) is not None
    # Another tool of the gate, under the same request id, rejects nothing of this one's.
    other = gate.guard(st.Tool(name="other", description="d", execute=lambda i, c=None: 1))
    kept = gate.answer(other, None, ctx("r-1"), approved=False, approver="bob")
    assert kept is not None and kept.status == "pending"
    decided = gate.answer(guarded, None, ctx("r-1"), approved=False, approver="bob")
    assert decided is not None and (decided.status, decided.approver) == ("rejected", "bob")
    refusal("denied", st.call, guarded, ARGS, ctx("r-1"))
    assert kit.runs == []
