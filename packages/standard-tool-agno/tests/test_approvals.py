"""A held call in Agno's own confirmation, driven by real agent runs with a scripted model:
the gate decides (its approval request, bound to the call's digest, approved or rejected
under a named approver, used once); Agno carries the question (the run pauses with the call
in ``tools_requiring_confirmation``) and the answer (``requirement.confirm()`` /
``.reject()``, then ``continue_run``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agno.agent import Agent

import standard_tool as st
from standard_tool.boundary import Approval, Gate, record_key
from standard_tool.exceptions import ToolRefusedError, UsageError
from standard_tool_agno import acontinue_run, arun_agent, continue_run, run_agent, to_agno

ACME = {"actor": "alice", "tenant": "acme"}
BIG = {"customer": "ada", "amount": 500}
SMALL = {"customer": "bob", "amount": 5}


class Desk:
    """A refund tool whose gate holds refunds over 100, exported with an approver."""

    def __init__(self, approver: Any = "lead") -> None:
        self.refunds: list[dict[str, Any]] = []

        @st.tool
        def refund(customer: str, amount: int) -> dict[str, Any]:
            """Refund a customer."""
            self.refunds.append({"customer": customer, "amount": amount})
            return {"refunded": customer}

        self.refund = refund
        self.gate = Gate(approvals=lambda request: request.arguments["amount"] > 100)
        self.tool = to_agno(self.gate.guard(refund), approver=approver)

    def run(self, *turns: Any, context: Any = ACME) -> Any:
        return run_agent([self.tool], [*turns, "done"], context)

    def approval(self, call_id: str, tenant: str | None = "acme") -> Approval | None:
        return self.gate.store.approval(record_key(tenant, "alice", call_id))


def paused(desk: Desk, *calls: dict[str, Any]) -> Any:
    """A first run whose model asks for ``calls`` of the refund tool (ids c0, c1...); it
    pauses on the held one, which has not run."""
    run = desk.run([("refund", call, f"c{i}") for i, call in enumerate(calls)])
    assert run.output.is_paused
    return run


def tool_results(output: Any) -> dict[str, tuple[str, bool]]:
    """Each tool message of a run, by call id: its text and whether it is an error."""
    return {
        m.tool_call_id: (m.get_content_string(), bool(m.tool_call_error))
        for m in output.messages or []
        if m.role == "tool"
    }


def test_a_held_call_pauses_the_run_and_waits_in_the_gate() -> None:
    desk = Desk()
    run = paused(desk, BIG)
    [waiting] = run.output.tools_requiring_confirmation
    assert (waiting.tool_call_id, waiting.tool_args) == ("c0", BIG)
    assert desk.refunds == [] and len(run.model.seen_messages) == 1
    pending = desk.gate.pending("c0", **ACME)
    assert pending is not None and pending.arguments == BIG


def test_calls_the_gate_lets_run_never_ask() -> None:
    desk = Desk()
    run = desk.run([("refund", SMALL, "c0")])
    assert not run.output.is_paused and run.output.tools_requiring_confirmation in (None, [])
    assert desk.refunds == [SMALL]
    assert tool_results(run.output) == {"c0": ('{"refunded": "bob"}', False)}


def test_a_confirmed_call_runs_once_under_the_gates_approval() -> None:
    desk = Desk()
    run = paused(desk, BIG)
    [requirement] = run.output.active_requirements
    requirement.confirm()
    resumed = continue_run(run.agent, run.output, dependencies=ACME)
    assert desk.refunds == [BIG]
    assert tool_results(resumed)["c0"] == ('{"refunded": "ada"}', False)
    used = desk.approval("c0")
    assert used is not None and (used.status, used.approver) == ("used", "lead")
    again = continue_run(run.agent, resumed, dependencies=ACME)  # a replayed resume
    assert desk.refunds == [BIG] and again is not None


async def test_an_async_run_pauses_and_resumes() -> None:
    desk = Desk()
    run = await arun_agent([desk.tool], [[("refund", BIG, "c0")], "done"], ACME)
    assert run.output.is_paused and desk.refunds == []
    run.output.active_requirements[0].confirm()
    await acontinue_run(run.agent, run.output, dependencies=ACME)
    assert desk.refunds == [BIG]


def test_a_rejected_call_never_runs_and_the_gate_records_it() -> None:
    desk = Desk()
    run = paused(desk, BIG)
    run.output.active_requirements[0].reject("too much")
    resumed = continue_run(run.agent, run.output, dependencies=ACME)
    assert desk.refunds == []
    assert tool_results(resumed)["c0"] == ("too much", True)
    rejected = desk.approval("c0")
    assert rejected is not None and (rejected.status, rejected.approver) == ("rejected", "lead")
    assert rejected.reason == "too much"
    with pytest.raises(ToolRefusedError) as refused:  # the call id stays refused
        st.call(desk.gate.guard(desk.refund), BIG, {**ACME, "request_id": "c0"})
    assert refused.value.code == "denied" and desk.refunds == []


def test_a_model_calling_again_under_a_paused_calls_id_is_asked_again() -> None:
    """No approval is read from a call id: the model repeats the held call, with its id, in
    a later run of the same agent, and nothing runs; the person is asked again."""
    desk = Desk()
    paused(desk, BIG)
    again = desk.run([("refund", BIG, "c0")])
    assert again.output.is_paused and desk.refunds == []
    [asked] = again.output.tools_requiring_confirmation
    assert asked.tool_call_id == "c0"
    waiting = desk.gate.pending("c0", **ACME)
    assert waiting is not None and waiting.status == "pending"


def test_a_resume_without_recorded_answers_runs_nothing() -> None:
    """``agent.continue_run`` alone: Agno runs the confirmed call, which the gate still
    holds, so the model reads its held_for_review refusal."""
    desk = Desk()
    run = paused(desk, BIG)
    run.output.active_requirements[0].confirm()
    resumed = run.agent.continue_run(run.output, dependencies=ACME)
    assert desk.refunds == []
    text, failed = tool_results(resumed)["c0"]
    assert failed and json.loads(text)["code"] == "held_for_review"


def test_a_resume_under_another_tenant_runs_nothing() -> None:
    desk = Desk()
    run = paused(desk, BIG)
    run.output.active_requirements[0].confirm()
    other = {"actor": "alice", "tenant": "other"}
    resumed = continue_run(run.agent, run.output, dependencies=other)
    assert desk.refunds == []
    text, failed = tool_results(resumed)["c0"]
    assert failed and json.loads(text)["code"] == "held_for_review"
    waiting = desk.gate.pending("c0", **ACME)
    assert waiting is not None and waiting.status == "pending"  # acme's stays undecided


@pytest.mark.parametrize(
    ("approver", "says"),
    [("alice", "may not approve a call of their own"), (None, "approver")],
    ids=["self-approval", "no-approver"],
)
def test_an_answer_the_gate_cannot_record_reaches_the_app(approver: Any, says: str) -> None:
    desk = Desk(approver=approver)
    run = paused(desk, BIG)
    run.output.active_requirements[0].confirm()
    with pytest.raises(UsageError, match=says):
        continue_run(run.agent, run.output, dependencies=ACME)
    assert desk.refunds == [] and desk.gate.pending("c0", **ACME) is not None


def test_in_a_turn_with_a_held_call_the_tools_other_calls_wait_too() -> None:
    """Agno pauses per function: a call the gate would let run waits with the held one in
    the same turn, and runs once confirmed (the gate has nothing to record for it)."""
    desk = Desk()
    run = paused(desk, SMALL, BIG)
    assert [t.tool_call_id for t in run.output.tools_requiring_confirmation] == ["c0", "c1"]
    for requirement in run.output.active_requirements:
        requirement.confirm()
    continue_run(run.agent, run.output, dependencies=ACME)
    assert desk.refunds == [SMALL, BIG]


def test_the_call_id_is_the_request_id() -> None:
    seen: list[Any] = []

    @st.tool
    def note(text: str, context: Any = None) -> str:
        """Note a text."""
        seen.append(context)
        return text

    run = run_agent([to_agno(Gate().guard(note))], [[("note", {"text": "hi"}, "call-7")]], ACME)
    assert run.texts == ["hi"] and seen == [{**ACME, "request_id": "call-7"}]


def test_an_agent_built_by_hand_pauses_too() -> None:
    from standard_tool_agno import ScriptedModel

    desk = Desk()
    model = ScriptedModel(replies=[[("refund", BIG, "c9")], "done"])
    output = Agent(model=model, tools=[desk.tool]).run("go", dependencies=ACME)
    assert output.is_paused and desk.refunds == []
