"""The gate's approvals: a held call waits for a person, bound to its caller's request id and
to the digest of its tool, arguments, actor and tenant; an approval lets that one call run,
once; the person is shown the call whole."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, TypedDict

import pytest

import standard_tool as st
from standard_tool.boundary import Approval, CallRequest, Decision, Gate, MemoryStore, record_key
from standard_tool.exceptions import UsageError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gate_kit import ARGUMENT, SECRET, Kit, invoke, record, refusal  # noqa: E402

ARGS = {"amount": 500, "to": ARGUMENT}
CONTEXT = {"actor": "alice", "tenant": "acme", "secret": SECRET}


class Who(TypedDict):
    tenant: str
    actor: str


WHO: Who = {"tenant": "acme", "actor": "alice"}
"""Whose calls the tests make, as a decision names them."""


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
    assert approval is not None
    assert list(approval) == ["id", "tool", "tenant", "actor", "arguments", "summary", "digest"]
    assert approval["id"] == "r-1" and approval["tool"] == "transfer"
    assert (approval["tenant"], approval["actor"]) == ("acme", "alice")
    assert approval["arguments"] == ARGS and json.loads(approval["summary"]) == ARGS
    assert approval["digest"].startswith("sha256:")
    assert "approval" not in str(error) and ARGUMENT not in str(error)
    assert gate.pending("r-1") is None  # another caller's request id "r-1" is not this one
    pending = gate.pending("r-1", **WHO)
    assert pending is not None and pending.request() == approval
    assert (pending.actor, pending.tenant, pending.status) == ("alice", "acme", "pending")
    # Small calls are not held.
    assert invoke(mode, guarded, {**ARGS, "amount": 5}, ctx("r-small"))["sent"] == 5


PAYMENT = {
    "type": "object",
    "properties": {
        "memo": {"type": "string"},
        "to_account": {"type": "string"},
        "amount": {"type": "integer"},
        "api_key": {"type": "string", "writeOnly": True},
        "card": {
            "type": "object",
            "properties": {"pin": {"type": "string", "format": "password"}, "last4": {}},
        },
    },
    "required": ["memo", "to_account", "amount"],
}


def _payment(runs: list[Any]) -> st.Tool:
    def execute(input: Any) -> int:
        runs.append(input)
        return len(runs)

    return st.Tool(name="pay", description="Pay.", input_schema=PAYMENT, execute=execute)


def test_the_person_is_shown_the_arguments_whole_as_they_will_run() -> None:
    """A padded field hides nothing: no clipping, no masking of a value that happens to equal a
    context value (a caller-chosen request id or tenant); only what the tool marks secret."""
    runs: list[Any] = []
    gate = Gate(approvals=lambda r: True)
    guarded = gate.guard(_payment(runs))
    call = {
        "memo": "x" * 5000,
        "to_account": "DE00-4242",
        "amount": 50_000,
        "api_key": "sk-the-key",
        "card": {"pin": "1234", "last4": "4242"},
    }
    context = {"actor": "alice", "tenant": "4242", "request_id": "DE00-4242", "secret": "4242"}
    error = refusal("held_for_review", st.call, guarded, call, context)
    assert error.approval is not None
    shown = error.approval["arguments"]
    hidden = {**call, "api_key": "<secret>", "card": {"pin": "<secret>", "last4": "4242"}}
    assert shown == hidden and json.loads(error.approval["summary"]) == hidden
    assert (
        "sk-the-key" not in error.approval["summary"] and '"1234"' not in error.approval["summary"]
    )
    # The approval keeps what was shown; the digest binds the real arguments, secrets too.
    pending = gate.pending("DE00-4242", tenant="4242", actor="alice")
    assert pending is not None and pending.arguments == hidden
    gate.approve("DE00-4242", tenant="4242", actor="alice", approver="carol")
    other_key = refusal("denied", st.call, guarded, {**call, "api_key": "sk-another"}, context)
    assert "another call" in other_key.message and runs == []
    assert st.call(guarded, call, context) == 1 and runs == [call]


def test_no_value_can_hide_or_reorder_another_in_what_a_person_reads() -> None:
    """A right-to-left override, zero-width characters, a line separator or a no-break space in
    one value would make the text on a screen say something else than the call: they are
    written as JSON escapes, and the text still reads back to the arguments exactly."""
    runs: list[Any] = []
    gate = Gate(approvals=lambda r: True)
    guarded = gate.guard(_payment(runs))
    tricky = "pay \u202eDE00-9999\u202c\u200b\u2028\xa0\U000e0041 \x00 é"
    call = {"memo": tricky, "to_account": "DE00-4242", "amount": 1}
    error = refusal("held_for_review", st.call, guarded, call, ctx("r-rlo"))
    assert error.approval is not None
    summary = error.approval["summary"]
    assert summary.isprintable() and "é" in summary
    for escape in ("\\u202e", "\\u200b", "\\u2028", "\\u00a0", "\\udb40\\udc41", "\\u0000"):
        assert escape in summary
    assert json.loads(summary) == call and error.approval["arguments"] == call


def test_a_typed_function_marks_its_secret_parameters() -> None:
    from pydantic import SecretStr

    @st.tool(name="login")
    def login(user: str, password: SecretStr, token: SecretStr | None = None) -> str:
        """Log in."""
        return user

    gate = Gate(approvals=lambda r: True)
    guarded = gate.guard(login)
    call = {"user": "bob", "password": "hunter2", "token": "t0k3n"}
    error = refusal("held_for_review", st.call, guarded, call, ctx("r-login"))
    assert error.approval is not None
    assert error.approval["arguments"] == {
        "user": "bob",
        "password": "<secret>",
        "token": "<secret>",
    }


def test_an_approved_call_runs_exactly_once(kit: Kit, mode: str) -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-2")))
    gate.approve("r-2", approver="carol", **WHO)
    assert gate.pending("r-2", **WHO) is None
    first = invoke(mode, guarded, ARGS, ctx("r-2"))
    assert first == {"sent": 500, "to": ARGUMENT, "n": 1}
    assert invoke(mode, guarded, ARGS, ctx("r-2")) == first  # its receipt answers
    assert len(kit.runs) == 1 and kit.runs[0]["request_id"] == "r-2"
    # The approval was for that request id: another one is held again.
    refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-3")))
    assert len(kit.runs) == 1


def test_other_arguments_under_the_request_id_need_a_new_approval(kit: Kit, mode: str) -> None:
    """A request id names one call of its caller: under it, other arguments are refused, and
    the approval a person gave, or is asked for, stays the first call's. Elsewhere (another
    request id, or another caller's same request id) the other call is held with a request of
    its own."""
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    held = refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-4")))
    bigger = {**ARGS, "amount": 50_000}
    error = refusal("denied", lambda: invoke(mode, guarded, bigger, ctx("r-4")))
    assert error.approval is None and "another call" in error.message
    theirs = refusal("held_for_review", invoke, mode, guarded, bigger, ctx("r-4", actor="mallory"))
    assert theirs.approval and theirs.approval["actor"] == "mallory"
    # What a person approves is still what they were shown.
    pending = gate.pending("r-4", **WHO)
    assert held.approval and pending and pending.request() == held.approval
    gate.approve("r-4", approver="carol", **WHO)
    refusal("denied", lambda: invoke(mode, guarded, bigger, ctx("r-4")))
    assert kit.runs == []
    again = refusal("held_for_review", lambda: invoke(mode, guarded, bigger, ctx("r-5")))
    assert again.approval and again.approval["digest"] != held.approval["digest"]
    assert "50000" in again.approval["summary"]
    assert invoke(mode, guarded, ARGS, ctx("r-4"))["sent"] == 500
    assert len(kit.runs) == 1


def test_an_approval_is_used_once() -> None:
    runs: list[int] = []

    @st.tool(name="transfer", timeout=0.05)
    async def transfer(amount: int, to: str) -> int:
        """Send money, too slowly (cancelled at the time limit)."""
        runs.append(amount)
        await asyncio.sleep(5)
        return amount

    gate = Gate(approvals=large, reconcile=lambda r: None)
    guarded = gate.guard(transfer)
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-6"))
    gate.approve("r-6", approver="carol", **WHO)
    refusal("timeout", st.call, guarded, ARGS, ctx("r-6"))
    # Its outcome is unknown and its approval used: running it again needs a new one.
    error = refusal("held_for_review", st.call, guarded, ARGS, ctx("r-6"))
    assert error.approval is not None and gate.pending("r-6", **WHO) is not None
    assert runs == [500]


def test_an_approved_call_left_running_past_its_limit_runs_once() -> None:
    """A sync tool past its time limit goes on in its thread: its request id stays running
    (its approval used), and once it ends its outcome is the receipt a retry reads."""
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
        gate.approve("r-6", approver="carol", **WHO)
        timeout = refusal("timeout", st.call, guarded, ARGS, ctx("r-6"))
        assert timeout.retryable is True
        running = refusal("unknown_outcome", st.call, guarded, ARGS, ctx("r-6"))
        assert "still running" in running.message
    finally:
        release.set()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        receipt = gate.store.receipt(record_key("acme", "alice", "r-6"))
        if receipt is not None and receipt.state == "succeeded":
            break
        time.sleep(0.01)
    assert st.call(guarded, ARGS, ctx("r-6")) == 500
    assert runs == [500]


def test_the_store_uses_an_approval_once() -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(Kit().tool)
    error = refusal("held_for_review", st.call, guarded, ARGS, ctx("r-7"))
    assert error.approval is not None
    gate.approve("r-7", approver="carol", **WHO)
    digest, now, key = error.approval["digest"], time.time(), record_key("acme", "alice", "r-7")
    assert gate.store.use_approval(key, "sha256:other", now) is None
    assert gate.store.use_approval("r-7", digest, now) is None  # the bare request id: no one's
    used = gate.store.use_approval(key, digest, now)
    assert used is not None and used.status == "used" and used.approver == "carol"
    assert gate.store.use_approval(key, digest, now) is None


def test_an_approval_expires(kit: Kit, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-8")))
    gate.approve("r-8", approver="carol", **WHO, expires_in=0.01)
    later = time.time() + 1.0
    monkeypatch.setattr(time, "time", lambda: later)
    error = refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-8")))
    assert error.approval is not None and gate.pending("r-8", **WHO) is not None
    assert kit.runs == []
    gate.approve("r-8", approver="carol", **WHO, expires_in=60)
    assert invoke(mode, guarded, ARGS, ctx("r-8"))["n"] == 1


def test_an_approval_expires_in_real_time(kit: Kit) -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-9"))
    gate.approve("r-9", approver="carol", **WHO, expires_in=0.001)
    time.sleep(0.05)
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-9"))
    assert kit.runs == []


def test_a_rejected_call_is_denied(kit: Kit, mode: str) -> None:
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-10")))
    gate.reject("r-10", approver="carol", reason=f"not with {SECRET}", **WHO)
    for _ in range(2):
        error = refusal("denied", lambda: invoke(mode, guarded, ARGS, ctx("r-10")))
        assert error.message == "A person rejected this call." and "not with" not in str(error)
    assert kit.runs == []
    held = gate.store.approval(record_key("acme", "alice", "r-10"))
    assert held is not None and (held.status, held.approver) == ("rejected", "carol")


def test_deciding_what_does_not_wait_is_a_usage_error() -> None:
    gate = Gate(approvals=large)
    with pytest.raises(UsageError, match="no call waits"):
        gate.approve("nobody", approver="carol")
    with pytest.raises(UsageError, match="no call waits"):
        gate.reject("nobody", approver="carol")
    refusal("held_for_review", st.call, gate.guard(Kit().tool), ARGS, ctx("r-11"))
    with pytest.raises(UsageError, match="no call waits"):
        gate.approve("r-11", approver="carol")  # not naming whose call it is: no one's
    gate.approve("r-11", approver="carol", **WHO)
    with pytest.raises(UsageError, match="was approved by 'carol' and has not run yet"):
        gate.approve("r-11", approver="dave", **WHO)  # decided already
    with pytest.raises(UsageError, match="decision is made once"):
        gate.reject("r-11", approver="dave", **WHO)
    assert gate.pending("nobody") is None
    refusal("held_for_review", st.call, gate.guard(Kit().tool), ARGS, ctx("r-12"))
    for wrong in (0, -1, "60", True, float("nan")):
        with pytest.raises(UsageError, match="expires_in"):
            gate.approve("r-12", approver="carol", **WHO, expires_in=wrong)  # type: ignore[arg-type]
    for approver in ("", None, 7):
        with pytest.raises(UsageError, match="approver"):
            gate.approve("r-12", approver=approver, **WHO)  # type: ignore[arg-type]
    assert gate.pending("r-12", **WHO) is not None


def _decided_at(gate: Gate, request_id: str) -> str:
    """``decided at <when>: ``, as a decision on the call decided already begins."""
    approval = gate.store.approval(record_key("acme", "alice", request_id))
    assert approval is not None and approval.decided is not None
    return f"decided at {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime(approval.decided))}: "


CALL = "the call under request id 'r-20' of actor 'alice' of tenant 'acme'"


def test_deciding_a_call_decided_already_says_when_by_whom_and_what_to_do() -> None:
    kit = Kit()
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-20"))
    gate.approve("r-20", approver="carol", **WHO)
    when = _decided_at(gate, "r-20")
    with pytest.raises(UsageError) as approved:
        gate.approve("r-20", approver="dave", **WHO)
    assert str(approved.value) == (
        f"{when}{CALL} was approved by 'carol' and has not run yet; a decision is made once"
    )
    st.call(guarded, ARGS, ctx("r-20"))  # the approval is used
    for decide in (gate.approve, gate.reject):
        with pytest.raises(UsageError) as used:
            decide("r-20", approver="dave", **WHO)
        assert str(used.value) == (
            f"{when}{CALL} was approved by 'carol' and has run; a decision is made once: made "
            "again under this request id, the call answers from its receipt; to run the tool "
            "again, call it under a new request id"
        )
    assert "\n" not in str(used.value) and len(kit.runs) == 1
    # What it says holds: the same call again answers from its receipt, a new request id asks.
    assert st.call(guarded, ARGS, ctx("r-20"))["n"] == 1
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-21"))


def test_deciding_a_rejected_call_says_it_is_refused_and_what_to_do() -> None:
    gate = Gate(approvals=large)
    refusal("held_for_review", st.call, gate.guard(Kit().tool), ARGS, ctx("r-20"))
    gate.reject("r-20", approver="carol", reason="no", **WHO)
    with pytest.raises(UsageError) as rejected:
        gate.approve("r-20", approver="dave", **WHO)
    assert str(rejected.value) == (
        f"{_decided_at(gate, 'r-20')}{CALL} was rejected by 'carol'; a decision is made once: "
        "made again under this request id, the call is refused (denied); to ask again, call "
        "under a new request id"
    )


def test_deciding_a_call_whose_approval_expired_says_it_waits_for_a_new_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kit = Kit()
    gate = Gate(approvals=large)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-20"))
    gate.approve("r-20", approver="carol", **WHO, expires_in=10)
    when = _decided_at(gate, "r-20")
    later = time.time() + 60
    monkeypatch.setattr(time, "time", lambda: later)
    with pytest.raises(UsageError) as expired:
        gate.approve("r-20", approver="dave", **WHO)
    assert str(expired.value) == (
        f"{when}{CALL} was approved by 'carol', and the approval expired before the call ran; "
        "a decision is made once: made again under this request id, the call waits for a new "
        "decision"
    )
    refusal("held_for_review", st.call, guarded, ARGS, ctx("r-20"))  # as it says
    gate.approve("r-20", approver="dave", **WHO)
    assert st.call(guarded, ARGS, ctx("r-20"))["n"] == 1


def test_a_decision_made_meanwhile_says_what_it_was() -> None:
    """Of two racing decisions, the one that loses the compare-and-set says who won."""

    class Racing(MemoryStore):
        def decide(self, decision: Approval) -> bool:
            held = self.approval(decision.key)
            assert held is not None
            super().decide(
                dataclasses.replace(held, status="rejected", approver="erin", decided=0.0)
            )
            return super().decide(decision)

    gate = Gate(approvals=large, store=Racing())
    refusal("held_for_review", st.call, gate.guard(Kit().tool), ARGS, ctx("r-20"))
    with pytest.raises(UsageError) as lost:
        gate.approve("r-20", approver="carol", **WHO)
    assert str(lost.value).startswith(
        f"decided at 1970-01-01 00:00:00 UTC: {CALL} was rejected by 'erin'; a decision is "
        "made once: "
    )


def test_a_call_no_one_waits_for_says_whose_calls_are_looked_in() -> None:
    gate = Gate(approvals=large)
    refusal("held_for_review", st.call, gate.guard(Kit().tool), ARGS, ctx("r-20"))
    with pytest.raises(UsageError) as nobody:
        gate.approve("r-20", approver="carol")
    assert str(nobody.value) == (
        "no call waits for approval under request id 'r-20'; a call is kept under its "
        "caller's tenant and actor: name them (tenant=, actor=) as its approval request does"
    )
    with pytest.raises(UsageError) as other:
        gate.approve("r-20", approver="carol", tenant="acme", actor="bob")
    assert str(other.value) == (
        "no call waits for approval under request id 'r-20' of actor 'bob' of tenant 'acme'"
    )
    gate.approve("r-20", approver="carol", **WHO)


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
    gate.approve("r-12", approver="carol", **WHO)
    assert invoke(mode, guarded, ARGS, ctx("r-12"))["n"] == 1


def test_approvals_are_shared_through_the_store(kit: Kit) -> None:
    store = MemoryStore()
    first = Gate(approvals=large, store=store)
    refusal("held_for_review", st.call, first.guard(kit.tool), ARGS, ctx("r-13"))
    Gate(store=store).approve("r-13", approver="carol", **WHO)  # another process, say
    assert st.call(Gate(approvals=large, store=store).guard(kit.tool), ARGS, ctx("r-13"))
    assert len(kit.runs) == 1


def test_approvals_and_receipts_round_trip_through_json() -> None:
    from standard_tool.boundary import Approval, Receipt

    approval = Approval("r", "transfer", "sha256:ab", "{}", "alice", None, "approved", "carol")
    approval.arguments = {"to": "é", "n": [1]}
    assert Approval.from_json(approval.to_json()) == approval
    receipt = Receipt("r", "transfer", "sha256:ab", "succeeded", {"n": [1, "é"]}, effect_id="e")
    receipt.tenant, receipt.actor = "acme", "alice"
    assert Receipt.from_json(receipt.to_json().encode()) == receipt
