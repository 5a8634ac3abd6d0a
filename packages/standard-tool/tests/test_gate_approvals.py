"""The gate's approvals: a held call waits for a person, bound to its request id and to the
digest of its tool, arguments and actor; an approval lets that one call run, once."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import standard_tool as st
from standard_tool.boundary import CallRequest, Decision, Gate, MemoryStore
from standard_tool.exceptions import UsageError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gate_kit import ARGUMENT, SECRET, Kit, invoke, record, refusal  # noqa: E402

ARGS = {"amount": 500, "to": ARGUMENT}
CONTEXT = {"actor": "alice", "tenant": "acme", "secret": SECRET}


@pytest.fixture(params=["sync", "async", "raw"])
def kit(request: pytest.FixtureRequest) -> Kit:
    return Kit(request.param)


@pytest.fixture(params=["call", "acall"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def ctx(request_id: str, **more: Any) -> dict[str, Any]:
    return {**CONTEXT, "request_id": request_id, **more}


def large(request: CallRequest) -> bool:
    return bool(request.arguments["amount"] >= 100)


def test_a_held_call_says_what_a_person_approves(kit: Kit, mode: str) -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    error = refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-1")))
    assert error.retryable is False and kit.runs == []
    assert error.message == "This call waits for a person's review."
    approval = error.approval
    assert approval is not None and set(approval) == {"id", "tool", "digest", "summary"}
    assert approval["id"] == "r-1" and approval["tool"] == "transfer"
    assert approval["digest"].startswith("sha256:")
    assert ARGUMENT in approval["summary"] and '"amount": 500' in approval["summary"]
    assert "approval" not in str(error) and ARGUMENT not in str(error)
    pending = gate.pending("r-1")
    assert pending is not None and pending.request() == approval
    assert (pending.actor, pending.tenant, pending.status) == ("alice", "acme", "pending")
    # Small calls are not held.
    assert invoke(mode, guarded, {**ARGS, "amount": 5}, ctx("r-small"))["sent"] == 5


def test_a_summary_shows_no_context_value_and_is_clipped(kit: Kit) -> None:
    guarded = Gate(approvals=large).guard(kit.tool)
    error = refusal("held_for_review", st.call, guarded, {**ARGS, "to": SECRET * 50}, ctx("r-s"))
    assert error.approval is not None
    summary = error.approval["summary"]
    assert SECRET not in summary and "[context value]" in summary
    assert len(summary) <= 500 and summary.endswith("...")


def test_an_approved_call_runs_exactly_once(kit: Kit, mode: str) -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-2")))
    gate.approve("r-2", approver="carol")
    assert gate.pending("r-2") is None
    first = invoke(mode, guarded, ARGS, ctx("r-2"))
    assert first == {"sent": 500, "to": ARGUMENT, "n": 1}
    assert invoke(mode, guarded, ARGS, ctx("r-2")) == first  # its receipt answers
    assert len(kit.runs) == 1 and kit.runs[0]["request_id"] == "r-2"
    # The approval was for that request id: another one is held again.
    refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-3")))
    assert len(kit.runs) == 1


def test_other_arguments_under_the_request_id_need_a_new_approval(kit: Kit, mode: str) -> None:
    """A request id names one call: under it, other arguments (or another actor) are refused,
    and the approval a person gave, or is asked for, stays the first call's. Elsewhere the
    other call is held with a request of its own."""
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    held = refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-4")))
    bigger = {**ARGS, "amount": 50_000}
    for context in (ctx("r-4"), ctx("r-4", actor="mallory")):
        error = refusal("denied", lambda c=context: invoke(mode, guarded, bigger, c))
        assert error.approval is None and "another call" in error.message
    # What a person approves is still what they were shown.
    pending = gate.pending("r-4")
    assert held.approval and pending and pending.request() == held.approval
    gate.approve("r-4", approver="carol")
    refusal("denied", lambda: invoke(mode, guarded, bigger, ctx("r-4")))
    assert kit.runs == []
    again = refusal("held_for_review", lambda: invoke(mode, guarded, bigger, ctx("r-5")))
    assert again.approval and again.approval["digest"] != held.approval["digest"]
    assert "50000" in again.approval["summary"]
    assert invoke(mode, guarded, ARGS, ctx("r-4"))["sent"] == 500
    assert len(kit.runs) == 1


def test_an_approval_is_used_once() -> None:
    release = threading.Event()
    runs: list[int] = []

    @st.tool(name="transfer", timeout=0.05)
    def transfer(amount: int, to: str) -> int:
        """Send money, too slowly."""
        runs.append(amount)
        release.wait(5)
        return amount

    gate = Gate(approvals=large, reconcile=lambda r: None)
    guarded = gate.guard(transfer)
    try:
        refusal("held_for_review", st.call, guarded, ARGS, ctx("r-6"))
        gate.approve("r-6", approver="carol")
        refusal("timeout", st.call, guarded, ARGS, ctx("r-6"))
        # Its outcome is unknown and its approval used: running it again needs a new one.
        error = refusal("held_for_review", st.call, guarded, ARGS, ctx("r-6"))
        assert error.approval is not None and gate.pending("r-6") is not None
        assert runs == [500]
    finally:
        release.set()


def test_the_store_uses_an_approval_once() -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(Kit().tool)
    error = refusal("held_for_review", st.call, guarded, ARGS, ctx("r-7"))
    assert error.approval is not None
    gate.approve("r-7", approver="carol")
    digest, now = error.approval["digest"], time.time()
    assert gate.store.use_approval("r-7", "sha256:other", now) is None
    used = gate.store.use_approval("r-7", digest, now)
    assert used is not None and used.status == "used" and used.approver == "carol"
    assert gate.store.use_approval("r-7", digest, now) is None


def test_an_approval_expires(kit: Kit, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-8")))
    gate.approve("r-8", approver="carol", expires_in=0.01)
    later = time.time() + 1.0
    monkeypatch.setattr(time, "time", lambda: later)
    error = refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-8")))
    assert error.approval is not None and gate.pending("r-8") is not None
    assert kit.runs == []
    gate.approve("r-8", approver="carol", expires_in=60)
    assert invoke(mode, guarded, ARGS, ctx("r-8"))["n"] == 1


def test_an_approval_expires_in_real_time(kit: Kit) -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-9"))
    gate.approve("r-9", approver="carol", expires_in=0.001)
    time.sleep(0.05)
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-9"))
    assert kit.runs == []


def test_a_rejected_call_is_denied(kit: Kit, mode: str) -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-10")))
    gate.reject("r-10", approver="carol", reason=f"not with {SECRET}")
    for _ in range(2):
        error = refusal("denied", lambda: invoke(mode, guarded, ARGS, ctx("r-10")))
        assert error.message == "A person rejected this call." and "not with" not in str(error)
    assert kit.runs == []
    held = gate.store.approval("r-10")
    assert held is not None and (held.status, held.approver) == ("rejected", "carol")


def test_deciding_what_does_not_wait_is_a_usage_error() -> None:
    gate = Gate(approvals=large)
    with pytest.raises(UsageError, match="no call waits"):
        gate.approve("nobody", approver="carol")
    with pytest.raises(UsageError, match="no call waits"):
        gate.reject("nobody", approver="carol")
    refusal("held_for_review", st.call, gate.guard(Kit().tool), ARGS, ctx("r-11"))
    gate.approve("r-11", approver="carol")
    with pytest.raises(UsageError):
        gate.approve("r-11", approver="dave")  # decided already
    with pytest.raises(UsageError):
        gate.reject("r-11", approver="dave")
    assert gate.pending("nobody") is None
    refusal("held_for_review", st.call, gate.guard(Kit().tool), ARGS, ctx("r-12"))
    for wrong in (0, -1, "60", True, float("nan")):
        with pytest.raises(UsageError, match="expires_in"):
            gate.approve("r-12", approver="carol", expires_in=wrong)  # type: ignore[arg-type]
    assert gate.pending("r-12") is not None


@pytest.mark.parametrize("step", ["policy", "freshness"])
def test_a_step_that_holds_holds_the_call(kit: Kit, mode: str, step: str) -> None:
    asked: list[Any] = []
    hold = Decision.hold(message="A second person signs transfers.")
    steps: dict[str, Any] = {step: lambda r: hold, "approvals": record(asked, False)}
    gate = Gate(**steps)
    guarded = gate.guard(kit.tool)
    error = refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-12")))
    assert error.message == "A second person signs transfers." and error.approval
    assert asked == [] and kit.runs == []
    gate.approve("r-12", approver="carol")
    assert invoke(mode, guarded, ARGS, ctx("r-12"))["n"] == 1


def test_approvals_are_shared_through_the_store(kit: Kit) -> None:
    store = MemoryStore()
    first = Gate(approvals=large, store=store)
    refusal("held_for_review", st.call, first.guard(kit.tool), ARGS, ctx("r-13"))
    Gate(store=store).approve("r-13", approver="carol")  # another process, say
    assert st.call(Gate(approvals=large, store=store).guard(kit.tool), ARGS, ctx("r-13"))
    assert len(kit.runs) == 1


def test_approvals_and_receipts_round_trip_through_json() -> None:
    from standard_tool.boundary import Approval, Receipt

    approval = Approval("r", "transfer", "sha256:ab", "{}", "alice", None, "approved", "carol")
    assert Approval.from_json(approval.to_json()) == approval
    receipt = Receipt("r", "transfer", "sha256:ab", "succeeded", {"n": [1, "é"]}, effect_id="e")
    assert Receipt.from_json(receipt.to_json().encode()) == receipt
