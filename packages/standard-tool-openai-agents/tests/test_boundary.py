"""Guarded tools in an Agents SDK run: a refusal is a tool output the model reads (its one
JSON line, through the failure function), the model's call id is the request id, and a tool
the gate hides from this run's context is not offered to the model (``is_enabled``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import standard_tool as st
from standard_tool.boundary import Budget, Decision, Gate
from standard_tool.exceptions import ToolRefusedError
from standard_tool_openai_agents import OpenAIAgentsRuntime, from_openai_agents, to_openai_agents
from standard_tool_openai_agents._approvals import PAUSES

LONG_NOTE = "please refund the whole order, the parcel arrived opened and damaged"
NOT_FOUND = {"code": "not_found", "retryable": False, "message": "Unknown customer."}


class Shop:
    """A guarded refund tool: who it ran for and what context it saw."""

    def __init__(self, budget: int = 10) -> None:
        self.refunds: list[str] = []
        self.contexts: list[Any] = []

        @st.tool
        def refund(customer: str, note: str = "", context: Any = None) -> dict[str, Any]:
            """Refund a customer's last order."""
            self.refunds.append(customer)
            self.contexts.append(context)
            return {"refunded": customer}

        self.gate = Gate(
            policy=lambda request: (
                Decision.deny("not_found", "Unknown customer.")
                if request.arguments["customer"] == "mallory"
                else True
            ),
            visible=lambda tool, context: (context or {}).get("actor") != "guest",
            approvals=lambda request: len(request.arguments.get("note", "")) > 40,
            budgets=[Budget(limit=budget)],
        )
        self.tool = to_openai_agents(self.gate.guard(refund))


def read_line(text: str) -> dict[str, Any]:
    """The refusal's JSON line, read, without its request id."""
    assert "\n" not in text
    payload: dict[str, Any] = json.loads(text)
    payload.pop("request_id")
    return payload


async def test_a_refusal_is_the_line_the_model_reads_and_the_call_id_its_request_id(
    agent: Any,
) -> None:
    shop = Shop()
    run = await agent(
        [shop.tool],
        [[("refund", {"customer": "mallory", "note": None}), ("refund", {"customer": "ada"})]],
    )
    refused, ran = run.texts
    assert read_line(refused) == NOT_FOUND
    call_ids = [item.raw_item["call_id"] for item in run.outputs]
    assert json.loads(refused)["request_id"] == call_ids[0]
    assert json.loads(ran) == {"refunded": "ada"} and shop.refunds == ["ada"]
    assert shop.contexts[0]["request_id"] == call_ids[1]


async def test_a_held_call_runs_once_when_approved_under_the_apps_request_id(agent: Any) -> None:
    shop = Shop()
    context = {"request_id": "order-7", "actor": "alice"}
    script = [[("refund", {"customer": "ada", "note": LONG_NOTE})]]
    held = await agent([shop.tool], script, context)
    if PAUSES:  # the run pauses for a person; the app decides in the gate instead
        assert held.texts == [] and len(held.result.interruptions) == 1
        assert shop.gate.pending("order-7", actor="alice") is not None
    else:
        assert read_line(held.texts[0]) == {
            "code": "held_for_review",
            "retryable": False,
            "message": "This call waits for a person's review.",
        }
    assert shop.refunds == []
    shop.gate.approve("order-7", actor="alice", approver="lead")
    ran = await agent([shop.tool], script, context)
    again = await agent([shop.tool], script, context)
    assert json.loads(ran.texts[0]) == json.loads(again.texts[0]) == {"refunded": "ada"}
    assert shop.refunds == ["ada"]


async def test_a_spent_budget_is_refused(agent: Any) -> None:
    shop = Shop(budget=2)
    run = await agent([shop.tool], [[("refund", {"customer": "ada"})] for _ in range(3)])
    assert [t.startswith('{"refunded"') for t in run.texts] == [True, True, False]
    assert read_line(run.texts[2])["code"] == "budget_exceeded"
    assert shop.refunds == ["ada", "ada"]


async def test_a_tool_hidden_from_this_run_is_not_offered(agent: Any) -> None:
    shop = Shop()
    run = await agent([shop.tool], ["nothing to do"], {"actor": "guest"})
    assert run.model.seen_tools == [[]]
    shown = await agent([shop.tool], ["nothing to do"], {"actor": "alice"})
    assert [t["name"] for t in shown.model.seen_tools[0]] == ["refund"]


def test_adopted_back_the_refusal_is_raised() -> None:
    shop = Shop()
    adopted = from_openai_agents(shop.tool)
    assert st.call(adopted, {"customer": "ada"}, {"request_id": "r-1"}) == {"refunded": "ada"}
    with pytest.raises(ToolRefusedError) as raised:
        st.call(adopted, {"customer": "mallory"}, {"request_id": "r-2"})
    assert raised.value.payload == {**NOT_FOUND, "request_id": "r-2"}


def test_the_runtime_makes_one_call_and_a_held_one_is_its_refusal() -> None:
    shop = Shop()
    outcome = OpenAIAgentsRuntime().run(
        shop.tool, {"customer": "ada", "note": LONG_NOTE}, {"request_id": "r-9", "actor": "al"}
    )
    assert outcome.error is not None and json.loads(outcome.error) == {
        "code": "held_for_review",
        "retryable": False,
        "message": "This call waits for a person's review.",
        "request_id": "r-9",
    }
    assert shop.refunds == [] and shop.gate.pending("r-9", actor="al") is not None
