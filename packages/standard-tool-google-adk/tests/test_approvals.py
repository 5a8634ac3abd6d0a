"""A held call in Google ADK's own confirmation, driven by real ``InMemoryRunner`` runs of an
``LlmAgent`` with a scripted model: the gate decides (its approval request, bound to the
call's digest, approved or rejected under a named approver, used once); ADK carries the
question (an ``adk_request_confirmation`` function call) and the answer (a
``ToolConfirmation`` function response, in the same session)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from google.adk.events.event import Event
from google.adk.tools.tool_confirmation import ToolConfirmation

import standard_tool as st
from standard_tool.boundary import Approval, Gate, record_key
from standard_tool.exceptions import UsageError
from standard_tool_google_adk import Conversation, standard_context, to_google_adk, tool_context
from standard_tool_google_adk._scripted import (
    CONFIRMATION,
    confirmation,
    function_calls,
    function_responses,
)

CONTEXT = {"actor": "alice"}
BIG = {"customer": "ada", "amount": 500}
SMALL = {"customer": "bob", "amount": 5}


class Desk:
    """A refund tool whose gate holds refunds over 100, exported with an approver, in one
    ADK session whose scripted model calls it with ``calls`` and then answers ``"done"``."""

    def __init__(self, *calls: dict[str, Any], approver: Any = "lead") -> None:
        self.refunds: list[dict[str, Any]] = []

        @st.tool
        def refund(customer: str, amount: int) -> dict[str, Any]:
            """Refund a customer."""
            self.refunds.append({"customer": customer, "amount": amount})
            return {"refunded": customer}

        self.gate = Gate(approvals=lambda request: request.arguments["amount"] > 100)
        self.tool = to_google_adk(self.gate.guard(refund), approver=approver)
        replies: list[Any] = [[("refund", call) for call in calls], "done"]
        self.conversation = Conversation([self.tool], replies)

    @property
    def model_turns(self) -> int:
        return len(self.conversation.model.requests)

    async def send(self, *message: Any) -> list[Event]:
        with standard_context(CONTEXT):
            return await self.conversation.send(*message)

    def approval(self, request_id: str) -> Approval | None:
        return self.gate.store.approval(record_key(None, "alice", request_id))


def asked(events: list[Event]) -> list[Any]:
    """The ``adk_request_confirmation`` calls of a run."""
    return [call for call in function_calls(events) if call.name == CONFIRMATION]


def results(events: list[Event]) -> list[dict[str, Any]]:
    """The refund tool's responses in a run, as the model would read them."""
    return [dict(r.response or {}) for r in function_responses(events) if r.name == "refund"]


async def held(desk: Desk) -> tuple[str, str]:
    """The first run: it ends on one confirmation request for the held call, which has not
    run, and the model was called only once. Returns (the confirmation call's id, the held
    call's id)."""
    events = await desk.send("go")
    [ask] = asked(events)
    assert desk.refunds == [] and desk.model_turns == 1
    original = ask.args["originalFunctionCall"]
    assert original["name"] == "refund" and original["args"] == BIG
    payload = ask.args["toolConfirmation"]["payload"]
    waiting = desk.gate.pending(original["id"], actor="alice")
    assert waiting is not None and payload == json.loads(json.dumps(waiting.request()))
    assert payload["arguments"] == BIG and payload["id"] == original["id"]
    assert "refund" in ask.args["toolConfirmation"]["hint"]
    [result] = results(events)
    assert json.loads(result["error"])["code"] == "held_for_review"
    return ask.id, original["id"]


async def test_only_held_calls_ask_and_allowed_calls_run_at_once() -> None:
    desk = Desk(SMALL, BIG)
    events = await desk.send("go")
    [ask] = asked(events)
    assert ask.args["originalFunctionCall"]["args"] == BIG
    assert desk.refunds == [SMALL]
    allowed, waiting = results(events)
    assert allowed == {"refunded": "bob"} and "error" in waiting


async def test_allowed_calls_never_ask() -> None:
    desk = Desk(SMALL)
    events = await desk.send("go")
    assert asked(events) == [] and desk.refunds == [SMALL]
    assert results(events) == [{"refunded": "bob"}] and desk.model_turns == 2


async def test_confirmed_the_call_runs_once_under_the_gates_approval() -> None:
    desk = Desk(BIG)
    ask_id, call_id = await held(desk)
    events = await desk.send(confirmation(ask_id, True))
    assert desk.refunds == [BIG]
    assert results(events) == [{"refunded": "ada"}]
    used = desk.approval(call_id)
    assert used is not None and (used.status, used.approver) == ("used", "lead")
    receipt = desk.gate.store.receipt(record_key(None, "alice", call_id))
    assert receipt is not None and receipt.state == "succeeded"
    assert desk.model_turns == 2  # called again only once the call ran


async def test_rejected_the_tool_never_runs_and_the_model_reads_denied() -> None:
    desk = Desk(BIG)
    ask_id, call_id = await held(desk)
    events = await desk.send(confirmation(ask_id, False))
    [result] = results(events)
    refusal = json.loads(result["error"])
    assert refusal == {
        "code": "denied",
        "retryable": False,
        "message": "A person rejected this call.",
        "request_id": call_id,
    }
    assert desk.refunds == []
    rejected = desk.approval(call_id)
    assert rejected is not None and (rejected.status, rejected.approver) == ("rejected", "lead")
    assert desk.gate.pending(call_id, actor="alice") is None


async def test_a_replayed_confirmation_runs_nothing_more() -> None:
    desk = Desk(BIG)
    ask_id, call_id = await held(desk)
    await desk.send(confirmation(ask_id, True))
    assert desk.refunds == [BIG]
    desk.conversation.model.replies.append("done")
    await desk.send(confirmation(ask_id, True))
    assert desk.refunds == [BIG]


async def test_a_confirmation_the_tool_sees_twice_is_answered_by_the_receipt() -> None:
    """Past ADK's own check for a consumed confirmation: the gate runs a request id once."""
    desk = Desk(BIG)
    ask_id, call_id = await held(desk)
    first = await desk.send(confirmation(ask_id, True))
    context = tool_context({**CONTEXT, "request_id": call_id})
    context.tool_confirmation = ToolConfirmation(confirmed=True)
    with standard_context(CONTEXT):
        again = await desk.tool.run_async(args=dict(BIG), tool_context=context)
    assert again == results(first)[0] == {"refunded": "ada"}
    assert desk.refunds == [BIG]


@pytest.mark.parametrize(
    ("approver", "says"),
    [("alice", "may not approve a call of their own"), (None, "approver")],
    ids=["self-approval", "no-approver"],
)
async def test_an_approval_the_gate_cannot_record_reaches_the_app(
    approver: str | None, says: str
) -> None:
    desk = Desk(BIG, approver=approver)
    ask_id, call_id = await held(desk)
    with pytest.raises(UsageError, match=says):
        await desk.send(confirmation(ask_id, True))
    assert desk.refunds == []
    assert desk.gate.pending(call_id, actor="alice") is not None


async def test_a_confirmation_resumed_for_another_tenant_runs_nothing() -> None:
    """The held call was alice's in tenant acme; the same session resumed with another
    tenant's context decides nothing for acme, and runs nothing."""
    desk = Desk(BIG)
    with standard_context({"actor": "alice", "tenant": "acme"}):
        events = await desk.conversation.send("go")
    [ask] = asked(events)
    call_id = ask.args["originalFunctionCall"]["id"]
    with standard_context({"actor": "alice", "tenant": "other"}):
        resumed = await desk.conversation.send(confirmation(ask.id, True))
    assert desk.refunds == []
    [result] = results(resumed)
    assert json.loads(result["error"])["code"] == "held_for_review"
    waiting = desk.gate.pending(call_id, actor="alice", tenant="acme")
    assert waiting is not None and waiting.status == "pending"
