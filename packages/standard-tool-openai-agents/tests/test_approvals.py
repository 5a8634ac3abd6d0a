"""A held call in the Agents SDK's own pause and resume: the gate decides (its approval
request, bound to the call's digest, approved or rejected under a named approver, used once);
the SDK carries the question (``result.interruptions``) and the answer (``state.approve`` /
``state.reject``, then ``Runner.run(agent, state)``). On an SDK without pauses (0.2.x) a held
call is the ``held_for_review`` refusal the model reads, and each test asserts that there."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, cast

import pytest
from agents import Agent, RunConfig, Runner
from agents.exceptions import ModelBehaviorError, UserError
from agents.items import ToolCallOutputItem

import standard_tool as st
from standard_tool.boundary import Approval, Gate, SqliteStore, record_key
from standard_tool.exceptions import UsageError
from standard_tool_openai_agents import ScriptedModel, rejection_formatter, to_openai_agents
from standard_tool_openai_agents._approvals import PAUSES

LONG_NOTE = "please refund the whole order, the parcel arrived opened and damaged"
CONTEXT = {"actor": "alice"}
CALL = {"customer": "ada", "note": LONG_NOTE}
HELD = {
    "code": "held_for_review",
    "retryable": False,
    "message": "This call waits for a person's review.",
}
REJECTED = {"code": "denied", "retryable": False, "message": "A person rejected this call."}


class Desk:
    """A refund tool whose gate holds every call, exported with an approver, and an agent
    whose scripted model calls it once (strict mode: an absent ``note`` is sent as null)."""

    def __init__(self, store: Any = None, approver: Any = "lead", call: Any = None) -> None:
        self.refunds: list[dict[str, Any]] = []

        @st.tool
        def refund(customer: str, note: str = "") -> dict[str, Any]:
            """Refund a customer's last order."""
            self.refunds.append({"customer": customer, "note": note})
            return {"refunded": customer}

        self.gate = Gate(approvals=lambda request: True, store=store)
        self.tool = to_openai_agents(self.gate.guard(refund), approver=approver)
        self.model = ScriptedModel([[("refund", CALL if call is None else call)], "done"])
        self.agent: Agent[Any] = Agent(name="desk", model=self.model, tools=[self.tool])

    def config(self) -> RunConfig:
        if not PAUSES or self.tool.approver is None:  # type: ignore[attr-defined]
            return RunConfig(tracing_disabled=True)
        formatter = rejection_formatter([self.tool])
        return RunConfig(tracing_disabled=True, tool_error_formatter=formatter)

    async def start(self, context: Any = CONTEXT) -> Any:
        return await Runner.run(self.agent, "go", context=context, run_config=self.config())

    async def resume(self, state: Any) -> Any:
        return await Runner.run(self.agent, state, run_config=self.config())

    def approval(self, request_id: str, actor: str = "alice") -> Approval | None:
        return self.gate.store.approval(record_key(None, actor, request_id))


def outputs(result: Any) -> list[str]:
    """The tool outputs of a run, as the model reads them."""
    items = [item for item in result.new_items if isinstance(item, ToolCallOutputItem)]
    return [str(cast(Any, item.raw_item)["output"]) for item in items]


def line(text: str) -> dict[str, Any]:
    """A refusal's one JSON line, without its request id."""
    assert "\n" not in text
    payload: dict[str, Any] = json.loads(text)
    payload.pop("request_id")
    return payload


async def paused(desk: Desk, context: Any = CONTEXT) -> Any | None:
    """The first run. Where the SDK pauses: its result, paused on one interruption for the
    call, which has not run; else ``None``, once the model has read the held refusal."""
    result = await desk.start(context)
    assert desk.refunds == []
    if not PAUSES:
        assert [line(text) for text in outputs(result)] == [HELD]
        return None
    assert outputs(result) == []
    [item] = result.interruptions
    assert item.raw_item.name == "refund"
    assert json.loads(item.raw_item.arguments) == {**CALL}
    return result


async def test_approved_in_the_sdk_the_call_runs_once_under_the_gates_approval() -> None:
    desk = Desk()
    result = await paused(desk)
    if result is None:
        return
    [item] = result.interruptions
    call_id = item.raw_item.call_id
    waiting = desk.gate.pending(call_id, actor="alice")
    assert waiting is not None and waiting.tool == "refund"
    state = result.to_state()
    state.approve(item)
    resumed = await desk.resume(state)
    assert desk.refunds == [{"customer": "ada", "note": LONG_NOTE}]
    assert [json.loads(text) for text in outputs(resumed)] == [{"refunded": "ada"}]
    used = desk.approval(call_id)
    assert used is not None and (used.status, used.approver) == ("used", "lead")
    assert used.digest == waiting.digest
    receipt = desk.gate.store.receipt(record_key(None, "alice", call_id))
    assert receipt is not None and receipt.state == "succeeded" and receipt.digest == used.digest


async def test_the_approval_request_shows_the_arguments_whole() -> None:
    desk = Desk(call={"customer": "ada", "note": LONG_NOTE * 3})
    result = await desk.start()
    if not PAUSES:
        assert [line(text) for text in outputs(result)] == [HELD] and desk.refunds == []
        return
    [item] = result.interruptions
    waiting = desk.gate.pending(item.raw_item.call_id, actor="alice")
    assert waiting is not None
    assert waiting.arguments == {"customer": "ada", "note": LONG_NOTE * 3}
    assert json.loads(waiting.summary) == waiting.arguments
    assert waiting.request()["arguments"] == waiting.arguments
    assert desk.refunds == []


async def test_rejected_in_the_sdk_the_tool_never_runs_and_the_model_reads_denied() -> None:
    desk = Desk()
    result = await paused(desk)
    if result is None:
        return
    [item] = result.interruptions
    call_id = item.raw_item.call_id
    state = result.to_state()
    state.reject(item)
    resumed = await desk.resume(state)
    [text] = outputs(resumed)
    assert line(text) == REJECTED and json.loads(text)["request_id"] == call_id
    assert desk.refunds == []
    rejected = desk.approval(call_id)
    assert rejected is not None and (rejected.status, rejected.approver) == ("rejected", "lead")
    assert desk.gate.pending(call_id, actor="alice") is None


async def test_an_approval_that_lapsed_before_the_resume_does_not_run() -> None:
    desk = Desk()
    result = await paused(desk)
    if result is None:
        return
    [item] = result.interruptions
    call_id = item.raw_item.call_id
    desk.gate.approve(call_id, approver="lead", actor="alice", expires_in=0.05)
    await asyncio.sleep(0.1)
    state = result.to_state()
    state.approve(item)
    resumed = await desk.resume(state)
    assert [line(text) for text in outputs(resumed)] == [HELD]
    assert desk.refunds == []
    again = desk.gate.pending(call_id, actor="alice")  # asked anew
    assert again is not None and again.approver is None


async def test_arguments_changed_between_pause_and_resume_are_refused() -> None:
    desk = Desk()
    result = await paused(desk)
    if result is None:
        return
    [item] = result.interruptions
    call_id = item.raw_item.call_id
    state = result.to_state()
    state.approve(item)
    tampered = json.loads(json.dumps(state.to_json()).replace('\\"ada\\"', '\\"mallory\\"'))
    # The SDK keeps a fingerprint of each call: it refuses the changed state itself.
    with pytest.raises(ModelBehaviorError):
        await desk.resume(await type(state).from_json(desk.agent, tampered))
    assert desk.refunds == []
    # Without it, the SDK asks again, and shows the changed call; approved, the gate refuses
    # it: the approval it holds for this request id is bound to the other arguments.
    tampered["context"]["tool_invocations"] = {}
    restored = await type(state).from_json(desk.agent, tampered)
    [changed] = restored.get_interruptions()
    assert json.loads(changed.raw_item.arguments)["customer"] == "mallory"
    restored.approve(changed)
    resumed = await desk.resume(restored)
    [text] = outputs(resumed)
    assert json.loads(text) == {
        "code": "denied",
        "retryable": False,
        "message": "This request id belongs to another call.",
        "request_id": call_id,
    }
    assert desk.refunds == []
    waiting = desk.gate.pending(call_id, actor="alice")
    assert waiting is not None and waiting.arguments["customer"] == "ada"


async def test_a_second_resume_of_the_same_approved_state_runs_nothing_more() -> None:
    desk = Desk()
    result = await paused(desk)
    if result is None:
        return
    [item] = result.interruptions
    state = result.to_state()
    state.approve(item)
    saved = state.to_json()
    first = await desk.resume(await type(state).from_json(desk.agent, saved))
    desk.model.replies.append("done")
    second = await desk.resume(await type(state).from_json(desk.agent, saved))
    assert outputs(first) == outputs(second) and json.loads(outputs(first)[0]) == {
        "refunded": "ada"
    }
    assert desk.refunds == [{"customer": "ada", "note": LONG_NOTE}]
    used = desk.approval(item.raw_item.call_id)
    assert used is not None and used.status == "used"


@pytest.mark.parametrize(
    ("approver", "says"),
    [("alice", "may not approve a call of their own"), (None, "recorded with its approver")],
    ids=["self-approval", "no-approver"],
)
async def test_an_approval_the_gate_cannot_record_reaches_the_app(
    approver: str | None, says: str
) -> None:
    desk = Desk(approver=approver)
    result = await paused(desk)
    if result is None:
        return
    [item] = result.interruptions
    state = result.to_state()
    state.approve(item)
    with pytest.raises(UserError) as raised:
        await desk.resume(state)
    assert isinstance(raised.value.__cause__, UsageError)
    assert says in str(raised.value.__cause__)
    assert desk.refunds == []
    assert desk.gate.pending(item.raw_item.call_id, actor="alice") is not None


def test_a_rejection_formatter_needs_each_guarded_tools_approver() -> None:
    desk = Desk(approver=None)
    with pytest.raises(UsageError, match="approver="):
        rejection_formatter(desk.agent)
    assert callable(rejection_formatter(Desk().agent))


@pytest.mark.parametrize("decision", ["approve", "reject"])
async def test_resumed_in_another_process_from_the_states_json(
    tmp_path: Path, decision: str
) -> None:
    path = tmp_path / "gate.db"
    context = {"actor": "alice", "reviewer": "lead"}
    first = Desk(store=SqliteStore(path))
    result = await paused(first, context)
    if result is None:
        return
    saved = json.dumps(result.to_state().to_json())
    call_id = result.interruptions[0].raw_item.call_id

    # Another process: the same tool and gate made anew over the same database.
    desk = Desk(store=SqliteStore(path), approver=lambda context: context["reviewer"])
    state = await type(result.to_state()).from_json(desk.agent, json.loads(saved))
    [item] = state.get_interruptions()
    assert item.raw_item.call_id == call_id
    getattr(state, decision)(item)
    resumed = await desk.resume(state)
    decided = desk.approval(call_id)
    assert decided is not None and decided.approver == "lead"
    [text] = outputs(resumed)
    if decision == "approve":
        assert json.loads(text) == {"refunded": "ada"} and decided.status == "used"
        assert desk.refunds == [{"customer": "ada", "note": LONG_NOTE}]
    else:
        assert line(text) == REJECTED and decided.status == "rejected"
        assert desk.refunds == []
    assert first.refunds == []


async def test_an_sdk_approval_for_every_call_approves_only_the_one_shown() -> None:
    desk = Desk()
    result = await paused(desk)
    if result is None:
        return
    [item] = result.interruptions
    desk.model.replies[:] = [[("refund", {"customer": "bob", "note": None})], "done"]
    state = result.to_state()
    state.approve(item, always_approve=True)
    resumed = await desk.resume(state)
    ran, held = outputs(resumed)
    assert json.loads(ran) == {"refunded": "ada"} and line(held) == HELD
    assert desk.refunds == [{"customer": "ada", "note": LONG_NOTE}]
    later = desk.gate.pending(json.loads(held)["request_id"], actor="alice")
    assert later is not None and later.arguments == {"customer": "bob"}
