"""Guarded tools in smolagents: a direct call raises the refusal; agents show the model
their error text, which carries the refusal's one JSON line.

smolagents calls a tool with its arguments only (the model's call id stays in the agent's
memory), so a guarded call's request id is the app's (``context["request_id"]`` of the
standard context given to the run), or one the gate makes.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import standard_tool as st
from standard_tool.boundary import Budget, Decision, Gate
from standard_tool.exceptions import ToolRefusedError
from standard_tool_smolagents import from_smolagents, to_smolagents
from standard_tool_smolagents._scripted import (
    call_source,
    code,
    run_code_agent,
    run_tool_calling_agent,
)

LONG_NOTE = "please refund the whole order, the parcel arrived opened and damaged"
NOT_FOUND = {"code": "not_found", "retryable": False, "message": "Unknown customer."}


class Shop:
    """A guarded refund tool: who it ran for (its side effects) and what context it saw."""

    def __init__(self, budget: int = 10) -> None:
        self.refunds: list[str] = []
        self.contexts: list[Any] = []

        @st.tool
        def refund(customer: str, note: str = "", context: Any = None) -> dict[str, Any]:
            """Refund a customer's last order.

            Args:
                customer: Who.
                note: Why.
            """
            self.refunds.append(customer)
            self.contexts.append(context)
            return {"refunded": customer}

        self.gate = Gate(
            policy=lambda request: (
                Decision.deny("not_found", "Unknown customer.")
                if request.arguments["customer"] == "mallory"
                else True
            ),
            approvals=lambda request: len(request.arguments.get("note", "")) > 40,
            budgets=[Budget(limit=budget)],
        )
        self.tool = to_smolagents(self.gate.guard(refund))


def line_in(text: str) -> dict[str, Any]:
    """The refusal's JSON line inside an agent's error text; its request id checked."""
    found = re.search(r"\{\"code\".*\}", text)
    assert found, text
    payload: dict[str, Any] = json.loads(found.group(0))
    assert isinstance(payload.pop("request_id"), str)
    return payload


def test_a_direct_call_raises_the_refusal() -> None:
    shop = Shop()
    with pytest.raises(ToolRefusedError) as raised:
        shop.tool(customer="mallory")
    assert raised.value.code == "not_found" and shop.refunds == []


def test_a_tool_calling_agent_shows_the_model_the_refusal_and_runs_the_other_call() -> None:
    shop = Shop()
    run = run_tool_calling_agent(
        [shop.tool], [[("refund", {"customer": "mallory"})], [("refund", {"customer": "ada"})]]
    )
    refused, ran = run.steps[:2]
    assert refused.error is not None and "ToolRefusedError" in str(refused.error)
    assert line_in(str(refused.error)) == NOT_FOUND
    request_id = json.loads(re.search(r"\{\"code\".*\}", str(refused.error)).group(0))[  # type: ignore[union-attr]
        "request_id"
    ]
    assert re.fullmatch(r"[0-9a-f]{32}", request_id)  # the gate's own
    assert json.loads(ran.observations) == {"refunded": "ada"} and shop.refunds == ["ada"]


def test_a_code_agent_reads_the_refusal_too() -> None:
    shop = Shop()
    run = run_code_agent(
        [shop.tool],
        [code(call_source("refund", {"customer": "mallory"})), code('final_answer("x")')],
    )
    assert line_in(str(run.steps[0].error)) == NOT_FOUND and shop.refunds == []


def test_a_call_held_for_review_runs_once_when_approved_under_the_apps_request_id() -> None:
    shop = Shop()
    context = {"request_id": "order-7", "actor": "alice"}
    script = [[("refund", {"customer": "ada", "note": LONG_NOTE})]]
    held = run_tool_calling_agent([shop.tool], script, context)
    assert line_in(str(held.steps[0].error)) == {
        "code": "held_for_review",
        "retryable": False,
        "message": "This call waits for a person's review.",
    }
    shop.gate.approve("order-7", actor="alice", approver="lead")
    ran = run_tool_calling_agent([shop.tool], script, context)
    again = run_tool_calling_agent([shop.tool], script, context)
    assert [json.loads(r.steps[0].observations) for r in (ran, again)] == [
        {"refunded": "ada"},
        {"refunded": "ada"},
    ]
    assert shop.refunds == ["ada"] and shop.contexts == [context]


def test_a_spent_budget_is_refused_and_adopted_back_it_raises() -> None:
    shop = Shop(budget=1)
    assert shop.tool(customer="ada") == {"refunded": "ada"}
    adopted = from_smolagents(shop.tool)
    with pytest.raises(ToolRefusedError) as raised:
        st.call(adopted, {"customer": "ada"})
    assert raised.value.code == "budget_exceeded" and shop.refunds == ["ada"]
