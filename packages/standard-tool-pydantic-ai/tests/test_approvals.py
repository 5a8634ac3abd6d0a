"""One approval is enough: a guarded tool's held call, decided in PydanticAI's deferred tools
(``DeferredToolResults``), is recorded in its gate (with the approver the export names, bound
to the call's digest, used once) and runs, or is refused, through the gate. Real agent runs
with scripted models."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from agent_runs import Script, answers, is_error, run_sync
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessagesTypeAdapter
from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults, ToolApproved, ToolDenied

from standard_tool import tool
from standard_tool.adapters import METADATA_KEY
from standard_tool.boundary import (
    Approval,
    CallRequest,
    Gate,
    MemoryStore,
    SqliteStore,
    Store,
    record_key,
)
from standard_tool.exceptions import UsageError
from standard_tool_pydantic_ai import to_pydantic_ai, to_pydantic_ai_toolset

ANN = {"actor": "ann"}
"""The context of the run whose model makes the call."""
LEE = {"actor": "ann", "reviewer": "lee"}
"""The context of the resume: the same caller, and who decided."""


def reviewer(context: Any) -> str:
    """The approver, read from the call's context."""
    name: str = context["reviewer"]
    return name


def counter() -> tuple[Any, list[Any]]:
    """A tool that counts its runs, and the arguments and request ids it ran with."""
    runs: list[Any] = []

    @tool
    def bump(n: int, context: Any = None) -> int:
        """Add n to a counter."""
        runs.append((n, context["request_id"]))
        return n + len(runs)

    return bump, runs


class Held:
    """A gate that holds every call, a counting tool behind it exported to PydanticAI, and an
    agent whose scripted model calls it once, with ``n=1``."""

    def __init__(self, store: Store | None = None, *, toolset: bool = False, **export: Any):
        self.gate = Gate(approvals=lambda request: True, store=store or MemoryStore())
        self.tool, self.runs = counter()
        self.script = Script([[("bump", {"n": 1})]])
        export.setdefault("approver", reviewer)
        guarded = self.gate.guard(self.tool)
        if toolset:
            tools: dict[str, Any] = {"toolsets": [to_pydantic_ai_toolset([guarded], **export)]}
        else:
            tools = {"tools": [to_pydantic_ai(guarded, **export)]}
        self.agent: Agent[Any, Any] = Agent(
            self.script.model(), output_type=[str, DeferredToolRequests], **tools
        )

    def run(self) -> Any:
        """The first run: the call is held, and the run ends with ``DeferredToolRequests``."""
        result = run_sync(self.agent.run("go", deps=ANN))
        assert isinstance(result.output, DeferredToolRequests) and self.runs == []
        return result

    def resume(self, messages: Any, decision: Any, deps: Any = LEE) -> Any:
        """A resume of the run whose messages are ``messages``, with ``decision`` for its call."""
        [call_id] = [
            p.tool_call_id for m in messages for p in m.parts if p.part_kind == "tool-call"
        ]
        return run_sync(
            self.agent.run(
                deps=deps,
                message_history=messages,
                deferred_tool_results=DeferredToolResults(approvals={call_id: decision}),
            )
        )

    def approval(self, request_id: str) -> Approval:
        """The gate's approval of ann's call ``request_id``."""
        kept = self.gate.store.approval(record_key(None, "ann", request_id))
        assert kept is not None
        return kept


def held_request(result: Any) -> dict[str, Any]:
    """The approval request a held call's ``DeferredToolRequests`` carries."""
    [call] = result.output.approvals
    request: dict[str, Any] = result.output.metadata[call.tool_call_id][METADATA_KEY]["approval"]
    return request


def call_id_of(result: Any) -> str:
    [call] = result.output.approvals
    call_id: str = call.tool_call_id
    return call_id


@pytest.mark.parametrize("decision", [True, ToolApproved()], ids=["true", "tool-approved"])
def test_one_approval_in_pydantic_ai_runs_the_held_call_once(decision: Any) -> None:
    held = Held()
    first = held.run()
    call_id = call_id_of(first)
    request = held_request(first)
    pending = held.approval(call_id)
    assert pending.status == "pending"
    assert request == {
        "id": call_id,
        "tool": "bump",
        "tenant": None,
        "actor": "ann",
        "arguments": {"n": 1},
        "summary": '{"n": 1}',
        "digest": pending.digest,
    }

    resumed = held.resume(first.all_messages(), decision)
    assert resumed.output == "done"
    assert held.runs == [(1, call_id)]
    assert [answer.content for answer in answers(resumed)] == [2]
    used = held.approval(call_id)
    assert (used.status, used.approver, used.digest) == ("used", "lee", request["digest"])
    assert used.decided is not None and used.expires_at is None


def test_a_second_resume_with_the_same_history_runs_nothing_more() -> None:
    held = Held()
    first = held.run()
    call_id = call_id_of(first)
    held.resume(first.all_messages(), True)
    used = held.approval(call_id)

    again = held.resume(first.all_messages(), True)
    assert held.runs == [(1, call_id)]  # the gate's receipt answered the second
    assert [answer.content for answer in answers(again)] == [2]
    assert held.approval(call_id) == used


@pytest.mark.parametrize(
    ("decision", "reason"),
    [
        (False, "The tool call was denied."),
        (ToolDenied("Not this counter."), "Not this counter."),
    ],
    ids=["false", "tool-denied"],
)
@pytest.mark.parametrize("toolset", [False, True], ids=["tool", "toolset"])
def test_a_denial_in_pydantic_ai_is_a_rejection_in_the_gate(
    decision: Any, reason: str, toolset: bool
) -> None:
    held = Held(toolset=toolset)
    first = held.run()
    call_id = call_id_of(first)

    resumed = held.resume(first.all_messages(), decision)
    assert held.runs == [] and resumed.output == "done"
    [answer] = answers(resumed)
    assert answer.content == reason and getattr(answer, "outcome", None) == "denied"
    assert held.script.requests[-1].parts == [answer]  # what the model read
    rejected = held.approval(call_id)
    assert (rejected.status, rejected.approver, rejected.reason) == ("rejected", "lee", reason)
    assert rejected.digest == held_request(first)["digest"]

    held.resume(first.all_messages(), decision)  # a second resume records nothing more
    assert held.approval(call_id) == rejected and held.runs == []
    with pytest.raises(UsageError, match="was rejected by 'lee'"):
        held.gate.approve(call_id, actor="ann", approver="kim")
    approved = held.resume(first.all_messages(), True)  # approved in PydanticAI later: refused
    [answer] = answers(approved)
    assert is_error(answer) and json.loads(answer.content)["code"] == "denied"
    assert held.runs == [] and held.approval(call_id) == rejected


class Decisions(MemoryStore):
    """A memory store that keeps every decision it recorded."""

    def __init__(self) -> None:
        super().__init__()
        self.decisions: list[Approval] = []

    def decide(self, decision: Approval) -> bool:
        made = super().decide(decision)
        if made:
            self.decisions.append(decision)
        return made


def test_an_approval_that_lapses_before_the_call_runs_holds_it_again() -> None:
    """``approval_expires_in``: behind a policy slower than that, the approval recorded at the
    resume has lapsed when the gate reaches it: the call is held anew, not run."""

    def slow(request: CallRequest) -> bool:
        time.sleep(0.05)
        return True

    store = Decisions()
    held = Held(store, approval_expires_in=0.01)
    held.gate.policy = slow
    first = held.run()
    call_id = call_id_of(first)
    created = held.approval(call_id).created

    again = held.resume(first.all_messages(), True)
    assert isinstance(again.output, DeferredToolRequests) and held.runs == []
    [decision] = store.decisions
    assert (decision.status, decision.approver) == ("approved", "lee")
    assert decision.expires_at is not None and decision.decided is not None
    assert decision.expires_at == pytest.approx(decision.decided + 0.01)
    fresh = held.approval(call_id)
    assert fresh.status == "pending" and fresh.created > created
    assert held_request(again)["digest"] == fresh.digest


def test_an_approval_made_in_the_gate_that_lapsed_holds_the_call_again() -> None:
    held = Held()
    first = held.run()
    call_id = call_id_of(first)
    held.gate.approve(call_id, actor="ann", approver="kim", expires_in=0.01)
    time.sleep(0.05)

    again = held.resume(first.all_messages(), True)
    assert isinstance(again.output, DeferredToolRequests) and held.runs == []
    fresh = held.approval(call_id)
    assert (fresh.status, fresh.approver) == ("pending", None)
    assert held_request(again) == fresh.request()


def test_changed_arguments_are_held_for_their_own_approval() -> None:
    held = Held()
    first = held.run()
    call_id = call_id_of(first)
    old = held.approval(call_id)
    changed = ToolApproved(override_args={"n": 5})

    again = held.resume(first.all_messages(), changed)
    assert isinstance(again.output, DeferredToolRequests) and held.runs == []
    request = held_request(again)
    new_id = request["id"]
    assert new_id.startswith(call_id + "+") and new_id != call_id
    assert request["arguments"] == {"n": 5} and request["digest"] != old.digest
    pending = held.approval(new_id)
    assert pending.status == "pending" and pending.digest == request["digest"]
    replaced = held.approval(call_id)
    assert (replaced.status, replaced.approver) == ("rejected", "lee")
    assert replaced.reason is not None and new_id in replaced.reason

    plain = held.resume(first.all_messages(), True)  # the arguments held: replaced, not run
    [answer] = answers(plain)
    assert is_error(answer) and json.loads(answer.content)["code"] == "denied"
    assert held.runs == []

    done = held.resume(first.all_messages(), changed)  # approved as shown: runs once
    assert done.output == "done" and held.runs == [(5, new_id)]
    assert [answer.content for answer in answers(done)] == [6]
    used = held.approval(new_id)
    assert (used.status, used.approver, used.digest) == ("used", "lee", request["digest"])
    assert held.approval(call_id).status == "rejected"

    held.resume(first.all_messages(), changed)
    assert held.runs == [(5, new_id)]


def test_a_person_may_not_approve_their_own_call() -> None:
    held = Held()
    first = held.run()
    call_id = call_id_of(first)
    with pytest.raises(UsageError, match="may not approve a call of their own"):
        held.resume(first.all_messages(), True, deps={"actor": "ann", "reviewer": "ann"})
    assert held.runs == [] and held.approval(call_id).status == "pending"


@pytest.mark.parametrize("decision", [True, False], ids=["approved", "denied"])
def test_a_decision_with_no_approver_named_raises_out_of_the_run(decision: bool) -> None:
    held = Held(approver=None)
    first = held.run()
    call_id = call_id_of(first)
    with pytest.raises(UsageError, match="approver="):
        held.resume(first.all_messages(), decision)
    assert held.runs == [] and held.approval(call_id).status == "pending"
    assert len(held.script.tools) == 1  # the model was not asked again


def test_a_fixed_approver_name_and_the_options_checked() -> None:
    held = Held(approver="lee")
    first = held.run()
    held.resume(first.all_messages(), True, deps=ANN)
    assert held.approval(call_id_of(first)).approver == "lee" and len(held.runs) == 1
    for option in ({"approver": ""}, {"approver": 3}, {"approval_expires_in": 0}):
        with pytest.raises(UsageError):
            to_pydantic_ai(held.gate.guard(held.tool), **option)


def test_a_store_shared_across_processes(tmp_path: Path) -> None:
    """The call is held in one process and approved in another: a fresh gate, tool and agent
    over the same SQLite file, resumed from the messages as JSON."""
    path = tmp_path / "gate.db"
    stores: list[SqliteStore] = []

    def process() -> Held:
        stores.append(SqliteStore(path))
        return Held(stores[-1])

    try:
        first = process().run()
        call_id = call_id_of(first)
        saved = ModelMessagesTypeAdapter.dump_json(first.all_messages())
        digest = held_request(first)["digest"]

        second = process()
        second.script.steps = []
        resumed = second.resume(ModelMessagesTypeAdapter.validate_json(saved), True)
        assert resumed.output == "done" and second.runs == [(1, call_id)]
        used = second.approval(call_id)
        assert (used.status, used.approver, used.digest) == ("used", "lee", digest)

        third = process()
        third.script.steps = []
        again = third.resume(ModelMessagesTypeAdapter.validate_json(saved), True)
        assert third.runs == [] and [a.content for a in answers(again)] == [2]
    finally:
        for store in stores:
            store.close()


def test_two_held_calls_decided_apart_in_one_resume() -> None:
    held = Held()
    held.script.steps = [[("bump", {"n": 1}), ("bump", {"n": 2})]]
    first = held.run()
    one, two = (call.tool_call_id for call in first.output.approvals)

    resumed = run_sync(
        held.agent.run(
            deps=LEE,
            message_history=first.all_messages(),
            deferred_tool_results=DeferredToolResults(
                approvals={one: True, two: ToolDenied("Not two.")}
            ),
        )
    )
    assert resumed.output == "done" and held.runs == [(1, one)]
    assert (held.approval(one).status, held.approval(one).approver) == ("used", "lee")
    assert (held.approval(two).status, held.approval(two).reason) == ("rejected", "Not two.")


@dataclass(frozen=True)
class Caller:
    """A typed context with no ``request_id`` field."""

    actor: str
    reviewer: str | None = None


def test_a_decision_on_a_call_whose_context_has_no_request_id_raises() -> None:
    """The context cannot carry the tool call's id, so the gate made the call's request id: a
    decision in PydanticAI cannot name the call."""
    held = Held(context=lambda ctx: Caller(**ctx.deps), approver="lee")
    first = held.run()
    assert held_request(first)["id"] != call_id_of(first)
    with pytest.raises(UsageError, match="gives no request_id"):
        held.resume(first.all_messages(), True)
    assert held.runs == []
