"""The gate (``standard_tool.boundary.Gate``): its steps, in order, through ``st.call`` and
``st.acall`` of guarded tools; refusals the model may read; receipts; unknown outcomes;
budgets; the audit trail; a failing store; concurrent calls under one request id."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
import time
from pathlib import Path
from typing import Any, TypedDict

import pytest

import standard_tool as st
from standard_tool.boundary import (
    AuditEvent,
    Budget,
    CallRequest,
    Decision,
    Gate,
    GuardedTool,
    JsonlAudit,
    MemoryStore,
    Receipt,
    record_key,
)
from standard_tool.boundary._store import refill
from standard_tool.exceptions import REFUSAL_CODES, ToolRefusedError, UsageError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gate_kit import ARGUMENT, SECRET, Kit, invoke, model_facing, record, refusal  # noqa: E402

KINDS = ["sync", "async", "raw"]
MODES = ["call", "acall"]
ARGS = {"amount": 5, "to": ARGUMENT}
CONTEXT = {"actor": "alice", "tenant": "acme", "secret": SECRET}


class Who(TypedDict):
    tenant: str
    actor: str


WHO: Who = {"tenant": "acme", "actor": "alice"}
"""Whose calls the tests make (``CONTEXT``'s tenant and actor), as a decision names them."""


def key(request_id: str) -> str:
    """Where the store keeps a receipt or approval of ``request_id`` of ``CONTEXT``'s caller."""
    return record_key("acme", "alice", request_id)


@pytest.fixture(params=KINDS)
def kit(request: pytest.FixtureRequest) -> Kit:
    return Kit(request.param)


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def ctx(request_id: str | None = None, **more: Any) -> dict[str, Any]:
    context = dict(CONTEXT, **more)
    if request_id is not None:
        context["request_id"] = request_id
    return context


# -- the order of the steps --------------------------------------------------------------


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync-steps", "async-steps"])
def test_the_steps_run_in_order_then_the_tool(kit: Kit, mode: str, asynchronous: bool) -> None:
    seen: list[str] = []

    def step(name: str, answer: Any) -> Any:
        def sync(*args: Any) -> Any:
            seen.append(name)
            return answer

        async def asynchronous_(*args: Any) -> Any:
            await asyncio.sleep(0)
            seen.append(name)
            return answer

        return asynchronous_ if asynchronous else sync

    gate = Gate(
        visible=step("visible", True),
        policy=step("policy", Decision.allow()),
        freshness=step("freshness", True),
        approvals=step("approvals", False),
    )
    result = invoke(mode, gate.guard(kit.tool), ARGS, ctx("r-order"))
    assert result == {"sent": 5, "to": ARGUMENT, "n": 1}
    assert seen == ["visible", "policy", "freshness", "approvals"]
    assert len(kit.runs) == 1 and kit.runs[0]["request_id"] == "r-order"


def test_each_step_is_given_the_call(kit: Kit) -> None:
    requests: list[CallRequest] = []
    visible_args: list[Any] = []

    def visible(tool: Any, context: Any) -> bool:
        visible_args.append((tool, context))
        return True

    gate = Gate(visible=visible, policy=record(requests))
    st.call(gate.guard(kit.tool), ARGS, ctx("r-given"))
    [request] = requests
    assert (request.tool, request.arguments, request.actor, request.tenant) == (
        "transfer",
        ARGS,
        "alice",
        "acme",
    )
    assert request.request_id == "r-given" and request.context["secret"] == SECRET
    assert request.digest.startswith("sha256:") and request.schema_digest.startswith("sha256:")
    [(tool, context)] = visible_args
    assert tool is kit.tool and context["request_id"] == "r-given"


@pytest.mark.parametrize("arguments", [ARGS, {"amount": ARGUMENT}, {"x": [ARGUMENT] * 3}])
def test_a_hidden_tool_reads_exactly_like_an_unknown_one(
    kit: Kit, mode: str, arguments: Any
) -> None:
    asked: list[Any] = []
    gate = Gate(visible=lambda tool, context: False, policy=record(asked))
    guarded = gate.guard(kit.tool)
    gate.disable("transfer")  # hidden comes first: a switched-off tool says nothing either
    error = refusal("not_found", lambda: invoke(mode, guarded, arguments, ctx("r-hidden")))
    assert error.payload == {
        "code": "not_found",
        "retryable": False,
        "message": "Unknown tool: 'transfer'.",
        "request_id": "r-hidden",
    }
    assert asked == [] and kit.runs == []


def test_visible_filters_tools_by_the_same_rule(kit: Kit) -> None:
    other = st.Tool(name="balance", description="Read.", execute=lambda i: 1)

    def visible(tool: Any, context: Any) -> bool:
        return bool(tool.name != "transfer" or context.get("actor") == "alice")

    gate = Gate(visible=visible)
    tools = [kit.tool, other]
    assert [t.name for t in gate.visible(tools, {"actor": "alice"})] == ["transfer", "balance"]
    assert [t.name for t in gate.visible(tools, {"actor": "bob"})] == ["balance"]
    guarded = gate.guard(kit.tool)
    refusal("not_found", lambda: st.call(guarded, ARGS, {"actor": "bob"}))
    assert st.call(guarded, ARGS, {"actor": "alice"})["sent"] == 5

    async def asynchronous(tool: Any, context: Any) -> bool:
        return visible(tool, context)

    broken = Gate(visible=_raises)
    assert [t.name for t in Gate(visible=asynchronous).visible(tools, {"actor": "bob"})] == [
        "balance"
    ]
    assert broken.visible(tools, {"actor": "alice"}) == []


def test_visible_gives_a_guarded_tools_rule_the_tool_it_guards(kit: Kit) -> None:
    other = st.Tool(name="balance", description="Read.", execute=lambda i: 1)
    shown = {id(kit.tool)}
    gate = Gate(visible=lambda tool, context: id(tool) in shown)
    guarded = gate.guard([kit.tool, other])
    assert gate.visible(guarded, {}) == [guarded[0]]
    assert st.call(guarded[0], ARGS, ctx())["n"] == 1
    refusal("not_found", st.call, guarded[1], {}, ctx())


def test_invalid_arguments_name_the_tool_and_fields_and_never_reach_the_policy(
    kit: Kit, mode: str
) -> None:
    asked: list[Any] = []
    gate = Gate(policy=record(asked))
    bad = {"amount": ARGUMENT, "extra": ARGUMENT}
    error = refusal("invalid_arguments", lambda: invoke(mode, gate.guard(kit.tool), bad, ctx()))
    assert error.retryable is True
    assert "'transfer'" in error.message
    for field in ("amount", "to", "extra"):
        assert f"- {field}:" in error.message
    assert asked == [] and kit.runs == []


@pytest.mark.parametrize("typed", [True, False], ids=["function", "json-schema"])
def test_arguments_that_are_not_json_data_are_invalid(mode: str, typed: bool) -> None:
    """A call's arguments are JSON data, what a model sends: a date or a tuple given from
    Python, which a typed function's schema would accept, is refused before any step."""
    import datetime

    runs: list[Any] = []

    @st.tool(name="note")
    def note(when: datetime.date, tags: list[str]) -> None:
        """Keep a note."""
        runs.append(when)

    loose = st.Tool(
        name="note",
        description="Keep a note.",
        input_schema={"type": "object"},
        execute=lambda input: runs.append(input),
    )
    asked: list[Any] = []
    events: list[AuditEvent] = []
    guarded = Gate(policy=record(asked), audit=[events.append]).guard(note if typed else loose)
    odd = {"when": datetime.date(2026, 1, 1), "tags": {ARGUMENT}}
    error = refusal("invalid_arguments", lambda: invoke(mode, guarded, odd, ctx()))
    assert "- when:" in error.message and "- tags:" in error.message
    assert asked == [] and runs == []
    assert [(e.outcome, e.code) for e in events] == [("refused", "invalid_arguments")]


def test_the_kill_switch(kit: Kit, mode: str) -> None:
    asked: list[Any] = []
    store = MemoryStore()
    gate = Gate(policy=record(asked), store=store)
    guarded = gate.guard(kit.tool)
    gate.disable("transfer")
    error = refusal("disabled", lambda: invoke(mode, guarded, ARGS, ctx()))
    assert error.retryable is False and asked == [] and kit.runs == []
    # Another gate sharing the store is switched off too.
    refusal("disabled", lambda: invoke(mode, Gate(store=store).guard(kit.tool), ARGS, ctx()))
    gate.enable("transfer")
    assert invoke(mode, guarded, ARGS, ctx())["n"] == 1


# -- refusals ------------------------------------------------------------------------------


def _scenarios() -> dict[str, Any]:
    """For each refusal code, a way to get it (gate, kit, context) -> the call."""

    def invalid(kit: Kit) -> Any:
        return Gate().guard(kit.tool), {"amount": ARGUMENT}

    def hidden(kit: Kit) -> Any:
        return Gate(visible=lambda t, c: False).guard(kit.tool), ARGS

    def denied(kit: Kit) -> Any:
        return Gate(policy=lambda r: False).guard(kit.tool), ARGS

    def stale(kit: Kit) -> Any:
        return Gate(freshness=lambda r: False).guard(kit.tool), ARGS

    def held(kit: Kit) -> Any:
        return Gate(approvals=lambda r: True).guard(kit.tool), ARGS

    def budget(kit: Kit) -> Any:
        return Gate(budgets=[Budget(0)]).guard(kit.tool), ARGS

    def disabled(kit: Kit) -> Any:
        gate = Gate()
        gate.disable("transfer")
        return gate.guard(kit.tool), ARGS

    def timeout(kit: Kit) -> Any:
        return Gate().guard(_slow_tool(Kit("sync"))), ARGS

    def unknown(kit: Kit) -> Any:
        return Gate().guard(kit.tool), ARGS

    def unavailable(kit: Kit) -> Any:
        return Gate(store=_Broken("is_disabled")).guard(kit.tool), ARGS

    def failed(kit: Kit) -> Any:
        kit.fail = True
        return Gate().guard(kit.tool), ARGS

    return {
        "invalid_arguments": invalid,
        "not_found": hidden,
        "denied": denied,
        "stale": stale,
        "held_for_review": held,
        "budget_exceeded": budget,
        "disabled": disabled,
        "timeout": timeout,
        "unknown_outcome": unknown,
        "failed": failed,
        "unavailable": unavailable,
    }


SCENARIOS = _scenarios()


def test_every_refusal_code_is_covered() -> None:
    assert set(SCENARIOS) == set(REFUSAL_CODES)


@pytest.mark.parametrize("code", list(SCENARIOS))
def test_every_refusal_is_one_safe_json_line(kit: Kit, mode: str, code: str) -> None:
    guarded, arguments = SCENARIOS[code](kit)
    context = ctx("r-code")
    if code == "unknown_outcome":  # the stored receipt must be this call's
        guarded.gate.store.save(
            Receipt("r-code", "transfer", _digest(guarded, arguments), "unknown_outcome", **WHO)
        )
    error = refusal(code, lambda: invoke(mode, guarded, arguments, context))
    assert error.request_id == "r-code" and error.tool == "transfer"
    assert json.loads(str(error)) == error.payload
    if code == "failed":
        assert "bank refused" in error.message  # the tool's words, less the context's


def test_a_caller_request_id_is_shown_as_it_is(kit: Kit, mode: str) -> None:
    """A refusal quotes the caller's own request id, even though it is a context value."""
    guarded = Gate(policy=lambda r: False).guard(kit.tool)
    rid = "req-2026-12-04-000123"
    error = refusal("denied", lambda: invoke(mode, guarded, ARGS, ctx(rid, who="denied")))
    assert error.request_id == rid and error.code == "denied"


def test_a_failing_tool_quotes_no_context_value(kit: Kit, mode: str) -> None:
    kit.fail = True
    error = refusal("failed", lambda: invoke(mode, Gate().guard(kit.tool), ARGS, ctx()))
    assert error.message.startswith("The tool failed: ValueError: bank refused: key ")
    assert SECRET not in error.message and "[context value]" in error.message


# -- the steps' answers ------------------------------------------------------------------


async def _async_false(request: CallRequest) -> bool:
    return False


async def _async_deny(request: CallRequest) -> Decision:
    return Decision.deny("stale", "The price moved.")


@pytest.mark.parametrize(
    ("step", "answer", "code", "message"),
    [
        ("policy", lambda r: False, "denied", "This call is not allowed."),
        ("policy", lambda r: Decision.deny(), "denied", "This call is not allowed."),
        ("policy", lambda r: Decision.deny("stale", "Old."), "stale", "Old."),
        ("policy", _async_false, "denied", "This call is not allowed."),
        ("freshness", lambda r: False, "stale", "What this call relies on has changed."),
        ("freshness", _async_deny, "stale", "The price moved."),
        ("freshness", lambda r: Decision.deny("denied", "No."), "denied", "No."),
    ],
)
def test_policy_and_freshness_answer_bools_decisions_or_coroutines(
    kit: Kit, mode: str, step: str, answer: Any, code: str, message: str
) -> None:
    steps: dict[str, Any] = {step: answer}
    guarded = Gate(**steps).guard(kit.tool)
    error = refusal(code, lambda: invoke(mode, guarded, ARGS, ctx()))
    assert error.message == message and kit.runs == []
    steps = {step: lambda r: Decision.allow()}
    allowed = Gate(**steps).guard(kit.tool)
    assert invoke(mode, allowed, ARGS, ctx())["n"] == 1


class _Boom(Exception):
    pass


def _raises(*args: Any) -> Any:
    raise _Boom(f"internal detail {SECRET}")


async def _araises(*args: Any) -> Any:
    raise _Boom(f"internal detail {SECRET}")


GARBAGE = ["yes", None, 1, {"verdict": "allow"}, Decision]


@pytest.mark.parametrize("step", ["visible", "policy", "freshness", "approvals"])
@pytest.mark.parametrize(
    "answer",
    [_raises, _araises, *(lambda *a, g=g: g for g in GARBAGE)],
    ids=["raises", "async-raises", *(repr(g) for g in GARBAGE)],
)
def test_a_step_that_raises_or_answers_garbage_fails_closed(
    kit: Kit, mode: str, step: str, answer: Any, caplog: pytest.LogCaptureFixture
) -> None:
    guarded = Gate(**{step: answer}).guard(kit.tool)
    code = "not_found" if step == "visible" else "denied"
    with caplog.at_level(logging.WARNING, "standard_tool.boundary"):
        error = refusal(code, lambda: invoke(mode, guarded, ARGS, ctx()))
    assert kit.runs == []
    assert "internal detail" not in str(error) and "_Boom" not in str(error)
    if answer in (_raises, _araises):
        assert any(r.exc_info and isinstance(r.exc_info[1], _Boom) for r in caplog.records)


def test_a_decision_with_an_unknown_verdict_fails_closed(kit: Kit) -> None:
    with pytest.raises(UsageError):
        Decision("maybe", "denied")  # type: ignore[arg-type]
    odd = Decision.allow()
    object.__setattr__(odd, "verdict", "maybe")
    refusal("denied", lambda: st.call(Gate(policy=lambda r: odd).guard(kit.tool), ARGS, ctx()))
    assert kit.runs == []


# -- receipts ----------------------------------------------------------------------------


def test_a_repeated_request_id_answers_with_its_receipt(kit: Kit, mode: str) -> None:
    events: list[AuditEvent] = []
    guarded = Gate(audit=[events.append]).guard(kit.tool)
    first = invoke(mode, guarded, ARGS, ctx("r-once"))
    again = invoke(mode, guarded, ARGS, ctx("r-once"))
    assert first == again == {"sent": 5, "to": ARGUMENT, "n": 1}
    assert len(kit.runs) == 1
    assert [e.outcome for e in events] == ["succeeded", "replayed"]
    assert events[1].effect_id == "tx-1"
    # Another request id runs again.
    assert invoke(mode, guarded, ARGS, ctx("r-twice"))["n"] == 2


def test_a_repeat_after_a_failure_fails_the_same_without_running(kit: Kit, mode: str) -> None:
    kit.fail = True
    guarded = Gate().guard(kit.tool)
    first = refusal("failed", lambda: invoke(mode, guarded, ARGS, ctx("r-fail")))
    kit.fail = False
    again = refusal("failed", lambda: invoke(mode, guarded, ARGS, ctx("r-fail")))
    assert first.payload == again.payload
    assert len(kit.runs) == 1


def test_a_request_id_reused_for_other_arguments_is_refused(kit: Kit, mode: str) -> None:
    guarded = Gate().guard(kit.tool)
    invoke(mode, guarded, ARGS, ctx("r-reuse"))
    error = refusal("denied", lambda: invoke(mode, guarded, {**ARGS, "amount": 6}, ctx("r-reuse")))
    assert "another call" in error.message
    assert len(kit.runs) == 1
    # Another actor's request id is theirs: the same id names their own call, which runs.
    assert invoke(mode, guarded, ARGS, ctx("r-reuse", actor="mallory"))["n"] == 2


def test_the_tool_sees_the_request_id(kit: Kit, mode: str) -> None:
    guarded = Gate().guard(kit.tool)
    invoke(mode, guarded, ARGS, ctx("r-mine"))
    invoke(mode, guarded, ARGS, {"actor": "alice"})
    invoke(mode, guarded, ARGS)
    ids = [run["request_id"] for run in kit.runs]
    assert ids[0] == "r-mine"
    assert len(set(ids)) == 3 and all(isinstance(i, str) and len(i) >= 16 for i in ids[1:])


def test_a_generated_request_id_is_the_one_a_refusal_names(kit: Kit) -> None:
    kit.fail = True
    error = refusal("failed", lambda: st.call(Gate().guard(kit.tool), ARGS, {"actor": "a"}))
    assert error.request_id == kit.runs[0]["request_id"]


# -- unknown outcomes ----------------------------------------------------------------------


def _slow_tool(kit: Kit, release: threading.Event | None = None) -> st.Tool:
    """A sync transfer past its time limit the first time: its thread goes on after the
    call has timed out, until ``release`` is set (5 s at most)."""
    runs = kit.runs
    gate = release or threading.Event()

    @st.tool(name="transfer", timeout=0.05)
    def transfer(amount: int, to: str, context: Any = None) -> dict[str, Any]:
        """Send money, slowly the first time."""
        runs.append(dict(context or {}))
        if len(runs) == 1:
            gate.wait(5)
        return {"sent": amount, "to": to, "n": len(runs)}

    return transfer


def _cancelled_tool(kit: Kit) -> st.Tool:
    """An async transfer past its time limit the first time: cancelled there, so nothing of
    it goes on, and its outcome is not known."""
    runs = kit.runs

    @st.tool(name="transfer", timeout=0.05)
    async def transfer(amount: int, to: str, context: Any = None) -> dict[str, Any]:
        """Send money, slowly the first time."""
        runs.append(dict(context or {}))
        if len(runs) == 1:
            await asyncio.sleep(5)
        return {"sent": amount, "to": to, "n": len(runs)}

    return transfer


@pytest.fixture
def release() -> Any:
    event = threading.Event()
    yield event
    event.set()


def _timed_out(kit: Kit, release: threading.Event, **steps: Any) -> GuardedTool:
    """A guarded call cancelled at its time limit: a retry can read its effect back only
    with ``reconcile`` (the refusal is then ``timeout``, retryable), else its outcome stays
    unknown (``unknown_outcome``, not retryable): the refusal says what a retry gets."""
    asked: list[CallRequest] = steps.pop("asked", [])
    guarded: GuardedTool = Gate(**steps).guard(_cancelled_tool(kit))
    code = "timeout" if steps.get("reconcile") is not None else "unknown_outcome"
    error = refusal(code, lambda: st.call(guarded, ARGS, ctx("r-slow")))
    assert error.retryable is (code == "timeout") and len(kit.runs) == 1 and asked == []
    receipt = guarded.gate.store.receipt(key("r-slow"))
    assert receipt is not None and receipt.state == "unknown_outcome"
    return guarded


def test_reconcile_that_finds_the_effect_answers_without_running(
    mode: str, release: threading.Event
) -> None:
    kit, asked = Kit(), []
    found = {"sent": 5, "to": ARGUMENT, "n": 1, "found": True}

    def reconcile(request: CallRequest) -> Any:
        asked.append(request)
        return found

    events: list[AuditEvent] = []
    guarded = _timed_out(kit, release, reconcile=reconcile, asked=asked, audit=[events.append])
    assert invoke(mode, guarded, ARGS, ctx("r-slow")) == found
    assert len(asked) == 1 and asked[0].request_id == "r-slow" and len(kit.runs) == 1
    # It is the receipt now: asked no more.
    assert invoke(mode, guarded, ARGS, ctx("r-slow")) == found
    assert len(asked) == 1
    assert [e.outcome for e in events] == ["timeout", "reconciled", "replayed"]


def test_reconcile_that_finds_nothing_runs_the_call_once_more(
    mode: str, release: threading.Event
) -> None:
    kit, asked = Kit(), []

    async def reconcile(request: CallRequest) -> Any:
        asked.append(request)
        return None

    guarded = _timed_out(kit, release, reconcile=reconcile, asked=asked)
    assert invoke(mode, guarded, ARGS, ctx("r-slow"))["n"] == 2
    assert invoke(mode, guarded, ARGS, ctx("r-slow"))["n"] == 2
    assert len(asked) == 1 and len(kit.runs) == 2


def test_no_reconcile_leaves_the_outcome_unknown(mode: str, release: threading.Event) -> None:
    kit = Kit()
    guarded = _timed_out(kit, release)
    error = refusal("unknown_outcome", lambda: invoke(mode, guarded, ARGS, ctx("r-slow")))
    assert error.retryable is False and len(kit.runs) == 1


def test_reconcile_that_raises_leaves_the_outcome_unknown(
    mode: str, release: threading.Event
) -> None:
    kit = Kit()
    guarded = _timed_out(kit, release, reconcile=_raises)
    error = refusal("unknown_outcome", lambda: invoke(mode, guarded, ARGS, ctx("r-slow")))
    assert "internal detail" not in str(error) and len(kit.runs) == 1


def test_other_arguments_under_an_unknown_request_id_are_refused(
    mode: str, release: threading.Event
) -> None:
    kit, asked = Kit(), []
    guarded = _timed_out(kit, release, reconcile=lambda r: asked.append(r), asked=asked)
    other = {**ARGS, "amount": 500}
    refusal("denied", lambda: invoke(mode, guarded, other, ctx("r-slow")))
    assert asked == [] and len(kit.runs) == 1


def _digest(
    guarded: GuardedTool, arguments: Any, actor: str | None = "alice", tenant: str | None = "acme"
) -> str:
    from standard_tool.boundary import call_digest
    from standard_tool.schema._canonical import digest

    schema = digest(st.input_json_schema(guarded))
    return call_digest("transfer", schema, arguments, actor, tenant)


def test_a_claim_whose_lease_still_runs_is_refused_without_running(kit: Kit, mode: str) -> None:
    store = MemoryStore()
    gate = Gate(store=store, reconcile=lambda r: pytest.fail("asked"), budgets=[Budget(1)])
    guarded = gate.guard(kit.tool)
    now = time.time()
    store.claim(
        Receipt(
            "r-lease", "transfer", _digest(guarded, ARGS), started=now, lease_until=now + 60, **WHO
        )
    )
    for _ in range(3):
        error = refusal("unknown_outcome", lambda: invoke(mode, guarded, ARGS, ctx("r-lease")))
        assert "still running" in error.message and kit.runs == []
    # Turned away before the budget: it is all still there.
    assert invoke(mode, guarded, ARGS, ctx("r-other"))["n"] == 1


def test_a_claim_whose_lease_ran_out_goes_to_reconcile(kit: Kit, mode: str) -> None:
    store, asked = MemoryStore(), []
    guarded = Gate(store=store, reconcile=lambda r: asked.append(r)).guard(kit.tool)
    now = time.time()
    store.claim(
        Receipt(
            "r-dead",
            "transfer",
            _digest(guarded, ARGS),
            started=now - 9,
            lease_until=now - 1,
            **WHO,
        )
    )
    assert invoke(mode, guarded, ARGS, ctx("r-dead"))["n"] == 1
    assert len(asked) == 1 and len(kit.runs) == 1


# -- budgets ---------------------------------------------------------------------------------


def test_a_budget_per_tool_counts_exactly(kit: Kit, mode: str) -> None:
    other = st.Tool(name="balance", description="Read.", execute=lambda i: 0)
    gate = Gate(budgets=[Budget(3)])
    guarded, balance = gate.guard([kit.tool, other])
    for i in range(3):
        invoke(mode, guarded, ARGS, ctx(f"r-{i}"))
    error = refusal("budget_exceeded", lambda: invoke(mode, guarded, ARGS, ctx("r-3")))
    assert error.retryable is True and len(kit.runs) == 3
    for i in range(3):
        invoke(mode, balance, {}, ctx(f"b-{i}"))  # another tool, another count
    refusal("budget_exceeded", lambda: invoke(mode, balance, {}, ctx("b-3")))


@pytest.mark.parametrize("key", ["actor", "tenant"])
def test_a_budget_per_actor_or_tenant(kit: Kit, key: str) -> None:
    guarded = Gate(budgets=[Budget(2, key=key)]).guard(kit.tool)  # type: ignore[arg-type]
    for i in range(2):
        st.call(guarded, ARGS, ctx(f"a-{i}"))
    refusal("budget_exceeded", lambda: st.call(guarded, ARGS, ctx("a-2")))
    for i in range(2):
        st.call(guarded, ARGS, ctx(f"b-{i}", **{key: "someone-else"}))
    refusal("budget_exceeded", lambda: st.call(guarded, ARGS, ctx("b-2", **{key: "someone-else"})))
    # No actor (or tenant): its own count, under the empty name.
    anonymous = {k: v for k, v in ctx().items() if k != key}
    for i in range(2):
        st.call(guarded, ARGS, {**anonymous, "request_id": f"c-{i}"})
    refusal("budget_exceeded", lambda: st.call(guarded, ARGS, {**anonymous, "request_id": "c-2"}))
    assert len(kit.runs) == 6


def test_a_budget_scoped_to_tools(kit: Kit) -> None:
    other = st.Tool(name="balance", description="Read.", execute=lambda i: 0)
    guarded, balance = Gate(budgets=[Budget(1, key="actor", tools=["transfer"])]).guard(
        [kit.tool, other]
    )
    st.call(guarded, ARGS, ctx("t-0"))
    refusal("budget_exceeded", lambda: st.call(guarded, ARGS, ctx("t-1")))
    for i in range(5):
        assert st.call(balance, {}, ctx(f"b-{i}")) == 0


def test_a_budget_scoped_to_tools_matches_whole_names() -> None:
    budget = Budget(1, tools=("transfer",))
    assert budget.tools == frozenset({"transfer"})
    guarded = Gate(budgets=[budget]).guard(
        [st.Tool(name=n, description="Read.", execute=lambda i: 0) for n in ("trans", "fer")]
    )
    for tool in guarded:
        for i in range(3):
            assert st.call(tool, {}, ctx(f"{tool.name}-{i}")) == 0


def test_refused_calls_and_replays_spend_no_budget(kit: Kit) -> None:
    fresh = {"ok": False}
    gate = Gate(
        budgets=[Budget(2)],
        freshness=lambda r: fresh["ok"],
        visible=lambda t, c: c.get("actor") != "ghost",
    )
    guarded = gate.guard(kit.tool)
    for i in range(5):
        refusal("stale", st.call, guarded, ARGS, ctx(f"s-{i}"))
        refusal("invalid_arguments", st.call, guarded, {}, ctx(f"i-{i}"))
        refusal("not_found", st.call, guarded, ARGS, ctx(f"n-{i}", actor="ghost"))
    fresh["ok"] = True
    st.call(guarded, ARGS, ctx("ok-0"))
    for _ in range(5):
        st.call(guarded, ARGS, ctx("ok-0"))  # replays
    st.call(guarded, ARGS, ctx("ok-1"))
    refusal("budget_exceeded", lambda: st.call(guarded, ARGS, ctx("ok-2")))
    assert len(kit.runs) == 2


def test_a_held_call_spends_no_budget(kit: Kit) -> None:
    gate = Gate(budgets=[Budget(1)], approvals=lambda r: r.arguments["amount"] > 100)
    guarded = gate.guard(kit.tool)
    big = {**ARGS, "amount": 500}
    for i in range(3):
        refusal("held_for_review", st.call, guarded, big, ctx(f"h{i}"))
    assert st.call(guarded, ARGS, ctx("small"))["n"] == 1


def test_a_call_one_budget_refuses_takes_nothing_from_the_others(kit: Kit, mode: str) -> None:
    gate = Gate(budgets=[Budget(5), Budget(1, key="actor")])
    guarded = gate.guard(kit.tool)
    invoke(mode, guarded, ARGS, ctx("a-0"))
    for i in range(1, 4):  # alice's own budget is spent: the tool's is not touched
        refusal("budget_exceeded", invoke, mode, guarded, ARGS, ctx(f"a-{i}"))
        assert gate.store.receipt(key(f"a-{i}")) is None  # its request id is free again
    for i in range(4):
        invoke(mode, guarded, ARGS, ctx(f"u-{i}", actor=f"user-{i}"))
    refusal("budget_exceeded", invoke, mode, guarded, ARGS, ctx("u-4", actor="user-4"))
    assert len(kit.runs) == 5


def test_a_held_call_then_approved_spends_one_unit(kit: Kit, mode: str) -> None:
    gate = Gate(budgets=[Budget(2)], approvals=lambda r: r.arguments["amount"] > 100)
    guarded = gate.guard(kit.tool)
    big = {**ARGS, "amount": 500}
    for _ in range(3):
        refusal("held_for_review", invoke, mode, guarded, big, ctx("h"))
    gate.approve("h", approver="carol", **WHO)
    assert invoke(mode, guarded, big, ctx("h"))["n"] == 1
    assert invoke(mode, guarded, big, ctx("h"))["n"] == 1  # a replay
    assert invoke(mode, guarded, ARGS, ctx("small"))["n"] == 2
    refusal("budget_exceeded", invoke, mode, guarded, ARGS, ctx("small-2"))
    assert len(kit.runs) == 2


class _Rejecting(MemoryStore):
    """A store where a person, in another process, rejects the approved call ``request_id``
    between the moment the call takes its budget and the moment it uses its approval."""

    def __init__(self, request_id: str) -> None:
        super().__init__()
        self.request_id = request_id

    def take_all(self, buckets: Any, now: float) -> bool:
        taken = super().take_all(buckets, now)
        approval = self.approval(key(self.request_id))
        if approval is not None and approval.status == "approved":
            approval.status = "rejected"
            self.save_approval(approval)
        return taken


def test_an_approval_that_cannot_be_used_spends_nothing(kit: Kit, mode: str) -> None:
    store = _Rejecting("r-ap")
    gate = Gate(store=store, budgets=[Budget(1)], approvals=lambda r: r.arguments["amount"] > 9)
    guarded = gate.guard(kit.tool)
    big = {**ARGS, "amount": 500}
    refusal("held_for_review", invoke, mode, guarded, big, ctx("r-ap"))
    gate.approve("r-ap", approver="carol", **WHO)
    refusal("held_for_review", invoke, mode, guarded, big, ctx("r-ap"))  # rejected meanwhile
    assert kit.runs == [] and store.receipt(key("r-ap")) is None
    refusal("denied", invoke, mode, guarded, big, ctx("r-ap"))  # the rejection, read
    assert invoke(mode, guarded, ARGS, ctx("small"))["n"] == 1  # the unit came back
    refusal("budget_exceeded", invoke, mode, guarded, ARGS, ctx("small-2"))


def test_reconciling_a_found_effect_spends_no_budget(kit: Kit, mode: str) -> None:
    store = MemoryStore()
    gate = Gate(store=store, reconcile=lambda r: {"found": True}, budgets=[Budget(1)])
    guarded = gate.guard(kit.tool)
    now = time.time()
    store.claim(
        Receipt(
            "r-dead",
            "transfer",
            _digest(guarded, ARGS),
            started=now - 9,
            lease_until=now - 1,
            **WHO,
        )
    )
    assert invoke(mode, guarded, ARGS, ctx("r-dead")) == {"found": True}
    assert invoke(mode, guarded, ARGS, ctx("r-dead")) == {"found": True}  # a replay
    assert kit.runs == []
    assert invoke(mode, guarded, ARGS, ctx("r-new"))["n"] == 1
    refusal("budget_exceeded", invoke, mode, guarded, ARGS, ctx("r-new-2"))


def test_a_reconciled_call_its_budget_refuses_keeps_its_receipt(kit: Kit, mode: str) -> None:
    """Nothing found, the call would run, but its budget is spent: the request id's receipt
    is the one it had (its outcome still unknown), not a claim of a call that never ran."""
    store, asked = MemoryStore(), []
    gate = Gate(store=store, reconcile=lambda r: asked.append(r), budgets=[Budget(0)])
    guarded = gate.guard(kit.tool)
    now = time.time()
    dead = Receipt(
        "r-dead", "transfer", _digest(guarded, ARGS), started=now - 9, lease_until=now - 1, **WHO
    )
    store.claim(dead)
    for _ in range(2):
        refusal("budget_exceeded", invoke, mode, guarded, ARGS, ctx("r-dead"))
    assert store.receipt(key("r-dead")) is dead and len(asked) == 2 and kit.runs == []


class _Gathering(MemoryStore):
    """A store whose claims wait (up to 5 s) until ``parties`` calls have come to claim: every
    call has read no receipt for its request id before one of them claims it."""

    def __init__(self, parties: int) -> None:
        super().__init__()
        self.gathering: threading.Barrier | None = threading.Barrier(parties)

    def claim(self, receipt: Receipt) -> Receipt | None:
        if self.gathering is not None:
            try:
                self.gathering.wait(5)
            except threading.BrokenBarrierError:
                pass
        return super().claim(receipt)


def test_calls_racing_one_request_id_spend_one_unit() -> None:
    kit, store = Kit(), _Gathering(8)
    guarded = Gate(store=store, budgets=[Budget(3)]).guard(kit.tool)
    results: list[Any] = []

    def worker() -> None:
        try:
            results.append(st.call(guarded, ARGS, ctx("r-race")))
        except ToolRefusedError as error:
            results.append(error.code)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    store.gathering = None
    assert len(kit.runs) == 1 and len(results) == 8
    assert all(r in ("unknown_outcome", {"sent": 5, "to": ARGUMENT, "n": 1}) for r in results)
    for i in range(2):
        assert st.call(guarded, ARGS, ctx(f"r-{i}"))["n"] == 2 + i
    refusal("budget_exceeded", st.call, guarded, ARGS, ctx("r-2"))


def test_a_token_bucket_refills_evenly() -> None:
    store = MemoryStore()

    def take(key: str, limit: int, per: float | None, now: float) -> bool:
        return store.take_all([(key, limit, per)], now)

    assert [take("k", 2, 10.0, 100.0) for _ in range(3)] == [True, True, False]
    assert take("k", 2, 10.0, 104.0) is False  # 0.8 of a token
    assert take("k", 2, 10.0, 105.1) is True  # past one token
    assert take("k", 2, 10.0, 105.2) is False
    assert take("k", 2, 10.0, 1000.0) is True  # full again, never past the limit
    assert take("k", 2, 10.0, 1000.0) is True
    assert take("k", 2, 10.0, 1000.0) is False
    assert take("never", 1, None, 0.0) is True
    assert take("never", 1, None, 1e9) is False  # no period: never refilled
    # A clock that reads earlier refills nothing, then or later.
    assert take("skew", 1, 10.0, 100.0) is True
    assert take("skew", 1, 10.0, 50.0) is False
    assert take("skew", 1, 10.0, 100.0) is False
    assert take("skew", 1, 10.0, 110.5) is True
    assert refill(0.0, 0.0, 4, 8.0, 2.0) == (0.0, True)
    assert refill(0.5, 0.0, 4, 8.0, 0.0) == (0.5, False)
    assert refill(4.0, 0.0, 4, 8.0, 100.0) == (3.0, True)


def test_a_budget_refills_through_the_gate(kit: Kit, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    guarded = Gate(budgets=[Budget(1, per=60)]).guard(kit.tool)
    st.call(guarded, ARGS, ctx("p-0"))
    refusal("budget_exceeded", lambda: st.call(guarded, ARGS, ctx("p-1")))
    clock[0] += 61
    assert st.call(guarded, ARGS, ctx("p-1"))["n"] == 2


@pytest.mark.parametrize(
    "terms",
    [
        {"limit": -1},
        {"limit": 1.5},
        {"limit": True},
        {"limit": 1, "per": 0},
        {"limit": 1, "per": True},
        {"limit": 1, "key": "ip"},
        {"limit": 1, "tools": "transfer"},
        {"limit": 1, "tools": ["transfer", 3]},
    ],
)
def test_a_budget_with_wrong_terms_is_a_usage_error(terms: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        Budget(**terms)
    with pytest.raises(UsageError):
        Gate(budgets=[{"limit": 1}])  # type: ignore[list-item]


# -- the audit trail -------------------------------------------------------------------------


def _event_text(event: AuditEvent) -> str:
    """The event as JSON, less its clock readings (their digits could match anything)."""
    fields = {k: v for k, v in event.to_dict().items() if k not in ("duration", "time")}
    return json.dumps(fields, default=str)


def test_one_audit_event_per_call_with_its_fields(kit: Kit, mode: str) -> None:
    events: list[AuditEvent] = []
    gate = Gate(audit=[events.append], approvals=lambda r: r.arguments["amount"] > 100)
    guarded = gate.guard(kit.tool)
    invoke(mode, guarded, ARGS, ctx("r-a"))
    big = {**ARGS, "amount": 987654}
    refusal("held_for_review", lambda: invoke(mode, guarded, big, ctx("r-b")))
    gate.approve("r-b", approver="carol", **WHO)
    invoke(mode, guarded, big, ctx("r-b"))
    refusal("invalid_arguments", lambda: invoke(mode, guarded, {"amount": ARGUMENT}, ctx("r-c")))
    assert [(e.request_id, e.outcome, e.code) for e in events] == [
        ("r-a", "succeeded", None),
        ("r-b", "refused", "held_for_review"),
        ("r-b", "succeeded", None),
        ("r-c", "refused", "invalid_arguments"),
    ]
    ok, held, approved, invalid = events
    for event in events:
        assert event.tool == "transfer" and event.schema_digest.startswith("sha256:")
        assert (event.actor, event.tenant) == ("alice", "acme")
        assert event.duration > 0 and abs(event.time - time.time()) < 60
        text = _event_text(event)
        assert SECRET not in text and ARGUMENT not in text and "987654" not in text
    assert ok.digest and ok.digest.startswith("sha256:") and ok.effect_id == "tx-1"
    assert held.digest == approved.digest != ok.digest
    assert held.approval_id == "r-b" and held.approver is None
    assert approved.approval_id == "r-b" and approved.approver == "carol"
    assert approved.effect_id == "tx-2"
    assert invalid.digest is None and invalid.effect_id is None


def test_the_audit_event_of_a_failure_and_a_timeout(release: threading.Event) -> None:
    events: list[AuditEvent] = []
    kit = Kit()
    kit.fail = True
    refusal("failed", lambda: st.call(Gate(audit=[events.append]).guard(kit.tool), ARGS, ctx()))
    slow = Gate(audit=[events.append]).guard(_slow_tool(Kit(), release))
    refusal("timeout", lambda: st.call(slow, ARGS, ctx("r-t")))
    refusal("unknown_outcome", lambda: st.call(slow, ARGS, ctx("r-t")))  # still running
    assert [(e.outcome, e.code) for e in events] == [
        ("failed", "failed"),
        ("timeout", "timeout"),
        ("refused", "unknown_outcome"),
    ]
    assert all(SECRET not in _event_text(e) for e in events)


def test_an_audit_sink_that_raises_changes_nothing(
    kit: Kit, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    events: list[AuditEvent] = []

    def broken(event: AuditEvent) -> None:
        raise RuntimeError("sink down")

    guarded = Gate(audit=[broken, events.append], policy=lambda r: r.arguments["amount"] < 9)
    guarded = guarded.guard(kit.tool)
    with caplog.at_level(logging.ERROR, "standard_tool.boundary"):
        assert invoke(mode, guarded, ARGS, ctx("r-s"))["n"] == 1
        refusal("denied", lambda: invoke(mode, guarded, {**ARGS, "amount": 9}, ctx("r-d")))
    assert [e.outcome for e in events] == ["succeeded", "refused"]
    failures = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(failures) == 2
    assert all(r.exc_info and "sink down" in str(r.exc_info[1]) for r in failures)


def test_audit_takes_one_sink_or_several(kit: Kit, tmp_path: Path) -> None:
    events: list[AuditEvent] = []
    one = Gate(audit=JsonlAudit(tmp_path / "audit.jsonl"))
    several = Gate(audit=[events.append, JsonlAudit(tmp_path / "more.jsonl")])
    assert isinstance(one.audit, tuple) and len(one.audit) == 1
    assert isinstance(several.audit, tuple) and len(several.audit) == 2
    assert Gate(audit=(sink for sink in [events.append])).audit == (events.append,)
    st.call(one.guard(kit.tool), ARGS, ctx("r-one"))
    st.call(several.guard(kit.tool), ARGS, ctx("r-several"))
    written = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [(e["request_id"], e["outcome"]) for e in written] == [("r-one", "succeeded")]
    more = (tmp_path / "more.jsonl").read_text().splitlines()
    assert [e.request_id for e in events] == [json.loads(more[0])["request_id"]] == ["r-several"]


@pytest.mark.parametrize(
    ("audit", "named"),
    [
        (3, "int"),
        ("audit.jsonl", "str"),
        (None, "NoneType"),
        ({"sink": print}, "dict"),
        ([print, "audit.jsonl"], "str"),
        (JsonlAudit, "the class JsonlAudit (make one: JsonlAudit(...))"),
        ([JsonlAudit], "the class JsonlAudit (make one: JsonlAudit(...))"),
    ],
)
def test_audit_of_another_type_is_a_usage_error_naming_it(audit: Any, named: str) -> None:
    with pytest.raises(UsageError) as caught:
        Gate(audit=audit)
    message = str(caught.value)
    assert message.startswith("audit ") and message.endswith(f", not {named}")
    assert "audit.jsonl" not in message and "\n" not in message


def test_budgets_take_one_budget_or_several(kit: Kit) -> None:
    one = Gate(budgets=Budget(1, key="tool"))
    assert len(one.budgets) == 1
    guarded = one.guard(kit.tool)
    st.call(guarded, ARGS, ctx("r-b1"))
    refusal("budget_exceeded", st.call, guarded, ARGS, ctx("r-b2"))
    assert len(Gate(budgets=[Budget(1), Budget(2)]).budgets) == 2
    with pytest.raises(UsageError, match="^budgets is a Budget or a list of them, not int$"):
        Gate(budgets=3)  # type: ignore[arg-type]


def test_an_async_audit_sink_is_awaited(kit: Kit, mode: str) -> None:
    events: list[AuditEvent] = []

    async def sink(event: AuditEvent) -> None:
        await asyncio.sleep(0)
        events.append(event)

    async def broken(event: AuditEvent) -> None:
        raise RuntimeError("sink down")

    gate = Gate(audit=[broken, sink], policy=lambda r: r.arguments["amount"] < 9)
    guarded = gate.guard(kit.tool)
    assert invoke(mode, guarded, ARGS, ctx("r-as"))["n"] == 1
    refusal("denied", lambda: invoke(mode, guarded, {**ARGS, "amount": 9}, ctx("r-ad")))
    assert [(e.request_id, e.outcome) for e in events] == [
        ("r-as", "succeeded"),
        ("r-ad", "refused"),
    ]


# -- a failing store -------------------------------------------------------------------------


class _Broken(MemoryStore):
    def __init__(self, method: str) -> None:
        super().__init__()
        self.method = method

    def __getattribute__(self, name: str) -> Any:
        if name == object.__getattribute__(self, "method"):
            raise_ = object.__getattribute__(self, "_fail")
            return raise_
        return object.__getattribute__(self, name)

    def _fail(self, *args: Any) -> Any:
        raise OSError(f"store down {SECRET}")


@pytest.mark.parametrize(
    "method",
    [
        "is_disabled",
        "receipt",
        "approval",
        "save_approval",
        "use_approval",
        "take_all",
        "claim_checked",
    ],
)
def test_a_failing_store_fails_closed(
    kit: Kit, mode: str, method: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = _Broken(method)
    if method == "use_approval":
        gate = Gate(store=store, approvals=lambda r: True)
        guarded = gate.guard(kit.tool)
        refusal("held_for_review", lambda: invoke(mode, guarded, ARGS, ctx("r-x")))
        gate.approve("r-x", approver="carol", **WHO)
    else:
        gate = Gate(store=store, approvals=lambda r: True, budgets=[Budget(5)])
        if method not in ("receipt", "approval", "save_approval"):
            gate.approvals = None
        guarded = gate.guard(kit.tool)
    with caplog.at_level(logging.WARNING, "standard_tool.boundary"):
        error = refusal("unavailable", lambda: invoke(mode, guarded, ARGS, ctx("r-x")))
    assert error.retryable is True
    assert "store down" not in str(error) and kit.runs == []
    assert any(r.exc_info and isinstance(r.exc_info[1], OSError) for r in caplog.records)


def test_a_store_that_cannot_keep_the_outcome_changes_no_answer(
    kit: Kit, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The tool has run: its result (or failure) is the answer, though the store could not
    keep it; the request id then reads as still running, never as a call to make again."""
    store = _Broken("save")
    guarded = Gate(store=store).guard(kit.tool)
    with caplog.at_level(logging.ERROR, "standard_tool.boundary"):
        assert invoke(mode, guarded, ARGS, ctx("r-save"))["n"] == 1
    assert any(r.exc_info and isinstance(r.exc_info[1], OSError) for r in caplog.records)
    refusal("unknown_outcome", lambda: invoke(mode, guarded, ARGS, ctx("r-save")))
    kit.fail = True
    refusal("failed", lambda: invoke(mode, guarded, ARGS, ctx("r-save-2")))
    assert len(kit.runs) == 2


def test_a_store_that_cannot_release_changes_no_refusal(
    kit: Kit, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A call its budget refuses gives its request id back; a store that fails then keeps the
    refusal as it is, and the request id claimed (running, until its lease ends)."""
    guarded = Gate(store=_Broken("release"), budgets=[Budget(0)]).guard(kit.tool)
    with caplog.at_level(logging.ERROR, "standard_tool.boundary"):
        refusal("budget_exceeded", invoke, mode, guarded, ARGS, ctx("r-back"))
    assert any(r.exc_info and isinstance(r.exc_info[1], OSError) for r in caplog.records)
    refusal("unknown_outcome", invoke, mode, guarded, ARGS, ctx("r-back"))
    assert kit.runs == []


class _NoRefund(_Rejecting):
    def refund(self, buckets: Any, now: float) -> None:
        raise OSError(f"store down {SECRET}")


def test_a_store_that_cannot_refund_changes_no_refusal(
    kit: Kit, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The units stay spent, the refusal is the same, the request id is given back."""
    store = _NoRefund("r-back")
    gate = Gate(store=store, budgets=[Budget(1)], approvals=lambda r: r.arguments["amount"] > 9)
    guarded = gate.guard(kit.tool)
    big = {**ARGS, "amount": 500}
    refusal("held_for_review", invoke, mode, guarded, big, ctx("r-back"))
    gate.approve("r-back", approver="carol", **WHO)
    with caplog.at_level(logging.ERROR, "standard_tool.boundary"):
        refusal("held_for_review", invoke, mode, guarded, big, ctx("r-back"))
    assert any(r.exc_info and isinstance(r.exc_info[1], OSError) for r in caplog.records)
    assert store.receipt(key("r-back")) is None and kit.runs == []
    refusal("budget_exceeded", invoke, mode, guarded, ARGS, ctx("small"))


# -- concurrency -----------------------------------------------------------------------------


def test_one_request_id_from_many_threads_runs_once() -> None:
    """While the call runs, the same request id is refused as ``unknown_outcome`` (its outcome
    is not known yet); once it has run, the receipt answers with the same result."""
    runs: list[int] = []
    refused = threading.Semaphore(0)

    @st.tool(name="transfer")
    def transfer(amount: int, to: str) -> dict[str, Any]:
        """Send money."""
        runs.append(amount)
        for _ in range(19):  # until every other thread has been turned away
            refused.acquire(timeout=5)
        return {"sent": amount, "n": len(runs)}

    guarded = Gate().guard(transfer)
    results: list[Any] = []
    start = threading.Barrier(20)

    def worker() -> None:
        start.wait(5)
        try:
            results.append(st.call(guarded, ARGS, ctx("r-race")))
        except ToolRefusedError as error:
            results.append(error.code)
            if error.code == "unknown_outcome":
                refused.release()

    threads = [threading.Thread(target=worker) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(runs) == 1
    assert sorted(map(str, results)) == sorted(
        ["unknown_outcome"] * 19 + [str({"sent": 5, "n": 1})]
    )
    assert st.call(guarded, ARGS, ctx("r-race")) == {"sent": 5, "n": 1}
    assert len(runs) == 1


async def test_one_request_id_from_many_tasks_runs_once() -> None:
    kit = Kit("async")
    guarded = Gate().guard(kit.tool)
    results = await asyncio.gather(
        *(st.acall(guarded, ARGS, ctx("r-tasks")) for _ in range(20)), return_exceptions=True
    )
    assert len(kit.runs) == 1
    values = [r for r in results if not isinstance(r, BaseException)]
    codes = [r.code for r in results if isinstance(r, ToolRefusedError)]
    assert len(values) + len(codes) == 20 and set(codes) <= {"unknown_outcome"}
    assert values and all(v == {"sent": 5, "to": ARGUMENT, "n": 1} for v in values)


# -- guard -------------------------------------------------------------------------------------


def test_guard_keeps_the_definition(kit: Kit) -> None:
    gate = Gate()
    guarded = gate.guard(kit.tool)
    assert isinstance(guarded, GuardedTool) and guarded.gate is gate
    assert (guarded.name, guarded.description) == (kit.tool.name, kit.tool.description)
    assert st.input_json_schema(guarded) == st.input_json_schema(kit.tool)
    assert st.output_json_schema(guarded) == st.output_json_schema(kit.tool)
    assert guarded.title == kit.tool.title and dict(guarded.meta) == dict(kit.tool.meta)
    assert st.convert(guarded, to="standard") is guarded  # a standard tool as it is
    listed = gate.guard([kit.tool])
    assert isinstance(listed, list) and len(listed) == 1 and isinstance(listed[0], GuardedTool)
    assert [t.name for t in gate.guard([kit.tool, Kit("raw").tool])] == ["transfer"] * 2


def test_every_call_of_a_guarded_tool_goes_through_the_gate(kit: Kit) -> None:
    guarded = Gate(policy=lambda r: False).guard(kit.tool)
    for run in (
        lambda: st.call(guarded, ARGS, ctx("r-p")),
        lambda: asyncio.run(st.acall(guarded, ARGS, ctx("r-p"))),
        lambda: st.call(st.convert(guarded, to="standard"), ARGS, ctx("r-p")),
        lambda: st.call(st.adopt(guarded), ARGS, ctx("r-p")),
    ):
        error = refusal("denied", run)
        assert model_facing(error)["message"] == "This call is not allowed."
    assert kit.runs == []


def test_guarding_a_tool_this_gate_guards_gives_it_back(kit: Kit) -> None:
    gate = Gate(budgets=[Budget(1, key="tool")])
    guarded = gate.guard(kit.tool)
    assert gate.guard(guarded) is guarded
    assert gate.guard([guarded, kit.tool])[0] is guarded
    formatted = st.with_formatted_output(guarded)
    assert gate.guard(formatted) is formatted  # a wrapper of it: its calls reach this gate
    # Once through the gate: one budget unit, one run.
    assert st.call(gate.guard(gate.guard(guarded)), ARGS, ctx("r-g1"))["n"] == 1
    refusal("budget_exceeded", st.call, gate.guard(guarded), ARGS, ctx("r-g2"))
    assert len(kit.runs) == 1


def test_guarding_a_tool_another_gate_guards_is_a_usage_error(kit: Kit) -> None:
    """Two gates would each take budgets and keep receipts for one call, and a call the inner
    one held would be kept by the outer one as failed: stacking gates is refused."""
    inner = Gate(approvals=lambda request: True)
    guarded = inner.guard(kit.tool)
    formatted = st.with_formatted_output(guarded)
    for tool in (guarded, formatted, [kit.tool, guarded]):
        with pytest.raises(UsageError) as caught:
            Gate().guard(tool)
        assert str(caught.value) == (
            "tool 'transfer' is guarded by another gate already: one gate guards a tool (use "
            "it as it is, or guard the unguarded tool with this gate)"
        )
    assert isinstance(Gate().guard(guarded.wrapped), GuardedTool)  # the tool itself


def test_a_refusal_pickles() -> None:
    import pickle

    error = ToolRefusedError("t", "held_for_review", "Wait.", "r", {"id": "r"})
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.request_id, copy.approval, str(copy)) == (
        "held_for_review",
        "r",
        {"id": "r"},
        str(error),
    )
