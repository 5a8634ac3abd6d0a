"""A guarded tool's held call in real Agent runs: Haystack's ConfirmationHook asks the person
through :class:`GateConfirmation`, and the gate records the answer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from haystack.hooks.human_in_the_loop import ConfirmationHook, ConfirmationUIResult

import standard_tool as st
from standard_tool.boundary import REJECTED, Gate, record_key
from standard_tool_haystack import (
    AgentRun,
    GateConfirmation,
    arun_agent,
    run_agent,
    standard_context,
    to_haystack,
)

CONTEXT = {"actor": "alice", "tenant": "acme"}


class UI:
    """A confirmation UI answering ``action`` (and ``new_tool_params``), recording what it
    was shown."""

    def __init__(self, action: str = "confirm", new: dict[str, Any] | None = None) -> None:
        self.action, self.new = action, new
        self.asked: list[tuple[str, dict[str, Any]]] = []

    def get_user_confirmation(
        self, tool_name: str, tool_description: str, tool_params: dict[str, Any]
    ) -> ConfirmationUIResult:
        self.asked.append((tool_name, tool_params))
        return ConfirmationUIResult(action=self.action, new_tool_params=self.new)


class Shop:
    """A refund tool behind a gate that holds every refund for ``ada``."""

    def __init__(self, approver: str | None = "lead") -> None:
        self.done: list[str] = []

        @st.tool
        def refund(customer: str) -> str:
            """Refund a customer's last order."""
            self.done.append(customer)
            return f"refunded {customer}"

        self.gate = Gate(approvals=lambda request: request.arguments.get("customer") == "ada")
        self.tool = to_haystack(self.gate.guard(refund))
        self.approver = approver

    def hooks(self, ui: UI) -> dict[str, Any]:
        strategy = GateConfirmation(ui, approver=self.approver, tools=[self.tool])
        return {"before_tool": [ConfirmationHook(confirmation_strategies={"refund": strategy})]}

    def run(self, ui: UI | None, replies: list[Any], context: Any = CONTEXT) -> AgentRun:
        hooks = self.hooks(ui) if ui is not None else None
        return run_agent([self.tool], replies, context, hooks=hooks)

    def approval(self, call_id: str, tenant: str = "acme") -> Any:
        return self.gate.store.approval(record_key(tenant, "alice", call_id))


ADA_AND_BOB = [[("refund", {"customer": "ada"}, "c_ada"), ("refund", {"customer": "bob"}, "c_bob")]]


def test_only_the_held_call_is_asked_and_a_confirmed_one_runs_once() -> None:
    shop, ui = Shop(), UI("confirm")
    run = shop.run(ui, ADA_AND_BOB)
    assert ui.asked == [("refund", {"customer": "ada"})]  # bob's call ran without asking
    assert sorted(shop.done) == ["ada", "bob"]
    assert sorted(run.texts) == ["refunded ada", "refunded bob"]
    approval = shop.approval("c_ada")
    assert (approval.status, approval.approver) == ("used", "lead")


@pytest.mark.parametrize("action", ["reject", "something else"])
def test_a_rejected_call_never_runs_and_the_gate_records_it(action: str) -> None:
    shop, ui = Shop(), UI(action)
    run = shop.run(ui, ADA_AND_BOB)
    assert shop.done == ["bob"]
    [rejected] = [r for r in run.results if r.origin.id == "c_ada"]
    assert rejected.error is True and REJECTED in rejected.result and '"denied"' in rejected.result
    decided = shop.approval("c_ada")
    assert (decided.status, decided.approver) == ("rejected", "lead")


def test_a_modified_call_is_another_call_asked_anew() -> None:
    shop, ui = Shop(), UI("modify", new={"customer": "ada", "note": "half"})
    run = shop.run(ui, [[("refund", {"customer": "ada"}, "c1")]])
    assert shop.done == []  # neither the held call nor the changed one ran on that answer
    [result] = run.results
    assert result.error is True and REJECTED in result.result and '"note": "half"' in result.result
    assert shop.approval("c1").status == "rejected"

    ui.action = "confirm"
    shop.run(ui, [[("refund", {"customer": "ada"}, "c2")]])
    assert len(ui.asked) == 2 and shop.done == ["ada"]  # the new call was asked, then ran


def test_a_model_repeating_a_decided_call_id_gets_no_approval() -> None:
    shop, ui = Shop(), UI("reject")
    shop.run(ui, [[("refund", {"customer": "ada"}, "c1")]])
    ui.action = "confirm"  # the person would confirm now, but is not asked about c1 again
    run = shop.run(ui, [[("refund", {"customer": "ada"}, "c1")]])
    assert shop.done == [] and len(ui.asked) == 1
    [result] = run.results
    assert result.error is True and '"denied"' in result.result


def test_an_approved_call_repeated_by_the_model_runs_nothing_more() -> None:
    shop, ui = Shop(), UI("confirm")
    shop.run(ui, [[("refund", {"customer": "ada"}, "c1")]])
    again = shop.run(ui, [[("refund", {"customer": "ada"}, "c1")]])
    assert shop.done == ["ada"] and len(ui.asked) == 1
    assert again.texts == ["refunded ada"]  # answered from the call's receipt


def test_without_the_hook_a_held_call_is_refused() -> None:
    """No approval is ever read from the model's call: held_for_review, nothing runs."""
    shop = Shop()
    run = shop.run(None, [[("refund", {"customer": "ada"}, "c1")]])
    [result] = run.results
    assert result.error is True and '"held_for_review"' in result.result
    assert shop.done == []


def test_another_tenant_under_the_same_request_id_does_not_run_under_the_approval() -> None:
    shop, ui = Shop(), UI("confirm")
    strategy = GateConfirmation(ui, approver="lead", tools=[shop.tool])
    with standard_context(CONTEXT):  # acme's call c1 is confirmed (the hook's own step)
        decision = strategy.run(
            tool_name="refund",
            tool_description="",
            tool_params={"customer": "ada"},
            tool_call_id="c1",
        )
    assert decision.execute is True and shop.approval("c1").status == "approved"

    other = {"actor": "alice", "tenant": "other"}
    run = shop.run(None, [[("refund", {"customer": "ada"}, "c1")]], other)
    [result] = run.results
    assert '"held_for_review"' in result.result and shop.done == []
    assert shop.approval("c1").status == "approved"  # acme's approval is not spent
    assert shop.approval("c1", tenant="other").status == "pending"


def test_run_async_asks_and_runs() -> None:
    shop, ui = Shop(), UI("confirm")
    run = asyncio.run(arun_agent([shop.tool], ADA_AND_BOB, CONTEXT, hooks=shop.hooks(ui)))
    assert ui.asked == [("refund", {"customer": "ada"})]
    assert sorted(shop.done) == ["ada", "bob"] and sorted(run.texts) == [
        "refunded ada",
        "refunded bob",
    ]


def test_an_answer_with_no_approver_ends_the_run() -> None:
    shop, ui = Shop(approver=None), UI("confirm")
    with pytest.raises(st.UsageError, match="approver"):
        shop.run(ui, [[("refund", {"customer": "ada"}, "c1")]])
    assert shop.done == []


def test_an_unguarded_tool_runs_without_asking() -> None:
    done: list[str] = []

    @st.tool
    def ping(text: str) -> str:
        """Ping."""
        done.append(text)
        return text

    ui = UI("reject")
    native = to_haystack(ping)
    strategy = GateConfirmation(ui, approver="lead", tools=[native])
    hooks = {"before_tool": [ConfirmationHook(confirmation_strategies={"*": strategy})]}
    run = run_agent([native], [[("ping", {"text": "hi"})]], CONTEXT, hooks=hooks)
    assert run.texts == ["hi"] and done == ["hi"] and ui.asked == []
