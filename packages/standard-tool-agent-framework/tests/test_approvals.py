"""A guarded tool's held call in real agent runs: the framework's pause, a person's answer in
the same session, and the gate's record of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from agent_framework import Content, Message

import standard_tool as st
from standard_tool.boundary import Gate, record_key
from standard_tool.exceptions import ToolRefusedError
from standard_tool_agent_framework import gate_approvals, to_agent_framework
from standard_tool_agent_framework._scripted import AgentRun


def _refund_tool() -> tuple[list[str], st.StandardTool]:
    done: list[str] = []

    @st.tool
    def refund(customer: str) -> str:
        """Refund a customer's last order."""
        done.append(customer)
        return f"refunded {customer}"

    return done, refund


CONTEXT = {"actor": "alice", "tenant": "acme"}


def _gate() -> Gate:
    """A gate holding every call for ``ada``, letting the others run."""
    return Gate(approvals=lambda request: request.arguments.get("customer") == "ada")


def _answer(run: AgentRun, approved: bool) -> Message:
    [request] = run.response.user_input_requests
    return Message(role="user", contents=[request.to_function_approval_response(approved=approved)])


def _results(response: Any) -> list[Content]:
    return [c for m in response.messages for c in m.contents if c.type == "function_result"]


async def _paused(
    agent: Callable[..., Any],
    done: list[str],
    refund: Any,
    *,
    approver: str | None = "lead",
) -> tuple[AgentRun, Any]:
    gate = _gate()
    native = to_agent_framework(gate.guard(refund), approver=approver)
    run = await agent(
        [native],
        [[("refund", {"customer": "ada"}), ("refund", {"customer": "bob"})], "done", "done"],
        {"actor": "alice", "tenant": "acme"},
        session=True,
        middleware=[gate_approvals([native])],
    )
    return run, gate


async def test_only_the_held_call_is_an_approval_request(agent: Callable[..., Any]) -> None:
    done, refund = _refund_tool()
    run, gate = await _paused(agent, done, refund)
    requests = run.response.user_input_requests
    assert [r.type for r in requests] == ["function_approval_request"]
    [request] = requests
    assert request.function_call.name == "refund"
    assert request.function_call.parse_arguments() == {"customer": "ada"}
    assert done == ["bob"]  # the call the gate lets run ran; the held one did not
    assert [r.call_id for r in _results(run.response)] != [request.function_call.call_id]
    pending = gate.pending(request.function_call.call_id, actor="alice", tenant="acme")
    assert pending is not None and pending.arguments == {"customer": "ada"}


async def test_an_approved_call_runs_once(agent: Callable[..., Any]) -> None:
    done, refund = _refund_tool()
    run, gate = await _paused(agent, done, refund)
    call_id = run.response.user_input_requests[0].function_call.call_id
    answer = _answer(run, approved=True)
    resumed = await run.agent.run(
        answer, session=run.session, function_invocation_kwargs={"actor": "alice", "tenant": "acme"}
    )
    assert [r.result for r in _results(resumed)] == ["refunded ada"]
    assert done == ["bob", "ada"]
    approval = gate.store.approval(record_key("acme", "alice", call_id))
    assert approval is not None and (approval.status, approval.approver) == ("used", "lead")

    again = await run.agent.run(
        answer, session=run.session, function_invocation_kwargs={"actor": "alice", "tenant": "acme"}
    )
    assert _results(again) == []
    assert done == ["bob", "ada"]  # a replayed approval runs nothing more


async def test_an_approval_resumed_by_another_tenant_runs_nothing(
    agent: Callable[..., Any],
) -> None:
    done, refund = _refund_tool()
    run, gate = await _paused(agent, done, refund)
    call_id = run.response.user_input_requests[0].function_call.call_id
    resumed = await run.agent.run(
        _answer(run, approved=True),
        session=run.session,
        function_invocation_kwargs={"actor": "alice", "tenant": "other"},
    )
    [result] = _results(resumed)
    assert '"held_for_review"' in str(result.result)  # the other tenant's call waits anew
    assert done == ["bob"]
    pending = gate.pending(call_id, actor="alice", tenant="acme")
    assert pending is not None and pending.status == "pending"  # acme's stays undecided


async def test_a_rejected_call_never_runs_and_the_gate_records_it(
    agent: Callable[..., Any],
) -> None:
    done, refund = _refund_tool()
    run, gate = await _paused(agent, done, refund)
    call_id = run.response.user_input_requests[0].function_call.call_id
    resumed = await run.agent.run(
        _answer(run, approved=False),
        session=run.session,
        function_invocation_kwargs={"actor": "alice", "tenant": "acme"},
    )
    [result] = _results(resumed)
    assert "rejected" in str(result.result) and done == ["bob"]
    decided = gate.store.approval(record_key("acme", "alice", call_id))
    assert decided is not None and (decided.status, decided.approver) == ("rejected", "lead")
    assert gate.pending(call_id, actor="alice", tenant="acme") is None
    # the same call id under the rejection is refused by the gate, whatever comes next
    with pytest.raises(ToolRefusedError) as refused:
        await st.acall(
            gate.guard(refund),
            {"customer": "ada"},
            {"actor": "alice", "tenant": "acme", "request_id": call_id},
        )
    assert refused.value.code == "denied" and done == ["bob"]


async def test_a_model_calling_again_under_a_paused_calls_id_is_asked_again(
    agent: Callable[..., Any],
) -> None:
    """No approval is read from a call id: the model repeats the held call, with its id,
    in the next turn of the session, and nothing runs; the person is asked again."""
    done, refund = _refund_tool()
    run, gate = await _paused(agent, done, refund)
    [request] = run.response.user_input_requests
    call_id = request.function_call.call_id
    run.client.replies[:] = [[("refund", {"customer": "ada"}, call_id)], "done"]
    again = await run.agent.run("carry on", session=run.session, function_invocation_kwargs=CONTEXT)
    assert done == ["bob"]  # never ran
    [asked] = again.user_input_requests
    assert asked.function_call.call_id == call_id
    waiting = gate.pending(call_id, actor="alice", tenant="acme")
    assert waiting is not None and waiting.status == "pending"  # not approved by the replay


async def test_without_function_middleware_a_held_call_is_refused(
    agent: Callable[..., Any],
) -> None:
    """No answer could be told from a model's own call: the model reads held_for_review."""
    done, refund = _refund_tool()
    native = to_agent_framework(_gate().guard(refund), approver="lead")
    run = await agent([native], [[("refund", {"customer": "ada"})]], CONTEXT, session=True)
    assert run.response.user_input_requests == []
    [text] = run.texts
    assert '"held_for_review"' in text and done == []


async def test_a_rejection_with_no_approver_named_ends_the_run(
    agent: Callable[..., Any],
) -> None:
    done, refund = _refund_tool()
    run, gate = await _paused(agent, done, refund, approver=None)
    with pytest.raises(Exception, match="approver") as raised:
        await run.agent.run(
            _answer(run, approved=False),
            session=run.session,
            function_invocation_kwargs={"actor": "alice", "tenant": "acme"},
        )
    assert isinstance(raised.value.__cause__, st.UsageError) and done == ["bob"]


async def test_an_approval_with_no_approver_ends_the_run(agent: Callable[..., Any]) -> None:
    done, refund = _refund_tool()
    gate = _gate()
    native = to_agent_framework(gate.guard(refund))
    run = await agent(
        [native],
        [[("refund", {"customer": "ada"})]],
        {"actor": "alice"},
        session=True,
        middleware=[gate_approvals(native)],
    )
    with pytest.raises(Exception, match="approver") as raised:
        await run.agent.run(
            _answer(run, approved=True),
            session=run.session,
            function_invocation_kwargs={"actor": "alice"},
        )
    assert isinstance(raised.value.__cause__, st.UsageError)
    assert done == []


async def test_without_a_session_a_held_call_is_refused(agent: Callable[..., Any]) -> None:
    done, refund = _refund_tool()
    native = to_agent_framework(_gate().guard(refund), approver="lead")
    run = await agent(
        [native],
        [[("refund", {"customer": "ada"})]],
        {"actor": "alice"},
        middleware=[gate_approvals(native)],
    )
    assert run.response.user_input_requests == []
    [text] = run.texts
    assert '"held_for_review"' in text
    assert done == []


async def test_the_call_id_is_the_request_id(agent: Callable[..., Any]) -> None:
    seen: list[Any] = []

    @st.tool
    def note(text: str, context: Any = None) -> str:
        """Note a text."""
        seen.append(context)
        return text

    native = to_agent_framework(Gate().guard(note))
    run = await agent([native], [[("note", {"text": "hi"})]], {"actor": "alice"})
    [result] = run.results
    assert seen == [{"actor": "alice", "request_id": result.call_id}]
