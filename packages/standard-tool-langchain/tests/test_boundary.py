"""Guarded tools in LangChain: the model's tool call id is the gate's request id, a refusal
reads as an error ``ToolMessage`` whose content is the refusal's one JSON line, and a LangChain
tool is guarded (and exported) as one tool."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import StructuredTool, tool as langchain_tool

import standard_tool as st
from standard_tool.boundary import Budget, CallRequest, Decision, Gate, GuardedTool
from standard_tool.contracts import snapshot
from standard_tool.exceptions import ToolRefusedError
from standard_tool.providers import run_tool_calls, to_openai
from standard_tool.registry import runtime
from standard_tool.testing import LONG_NOTE, GuardedShop
from standard_tool_langchain import (
    LangChainTool,
    from_langchain,
    from_langchain_tools,
    to_langchain,
    to_langchain_tools,
)


class Shop(GuardedShop):
    """The guarded shop, its tool converted to LangChain (``native``)."""

    def __init__(self, budget: int = 10) -> None:
        super().__init__(budget)
        self.native = to_langchain(self.tool)


def call_of(args: dict[str, Any], id: str) -> dict[str, Any]:
    return {"type": "tool_call", "name": "refund", "args": args, "id": id}


def refusal(message: Any) -> dict[str, Any]:
    assert isinstance(message, ToolMessage) and message.status == "error"
    assert isinstance(message.content, str) and "\n" not in message.content
    payload: dict[str, Any] = json.loads(message.content)
    return payload


# -- the tool call id is the request id ------------------------------------------------------


def test_a_tool_call_id_runs_the_call_once() -> None:
    shop = Shop()
    first = shop.native.invoke(call_of({"customer": "ada"}, "call_a"))
    again = shop.native.invoke(call_of({"customer": "ada"}, "call_a"))
    assert (first.status, again.status) == ("success", "success")
    assert json.loads(first.content) == json.loads(again.content) == {"refunded": "ada"}
    assert shop.refunds == ["ada"]
    assert shop.contexts == [{"request_id": "call_a"}]
    shop.native.invoke(call_of({"customer": "ada"}, "call_b"))  # another call: it runs
    assert shop.refunds == ["ada", "ada"]


def test_a_tool_call_id_runs_the_call_once_async() -> None:
    shop = Shop()

    async def twice() -> list[Any]:
        return [await shop.native.ainvoke(call_of({"customer": "ada"}, "call_a")) for _ in "12"]

    messages = asyncio.run(twice())
    assert [m.status for m in messages] == ["success", "success"]
    assert shop.refunds == ["ada"] and shop.contexts == [{"request_id": "call_a"}]


def test_the_apps_own_request_id_is_kept() -> None:
    shop = Shop()
    config: Any = {"configurable": {"request_id": "order-7", "actor": "alice"}}
    shop.native.invoke(call_of({"customer": "ada"}, "call_a"), config=config)
    shop.native.invoke(call_of({"customer": "ada"}, "call_b"), config=config)
    assert shop.refunds == ["ada"]
    assert shop.contexts == [{"request_id": "order-7", "actor": "alice"}]


def test_a_direct_invoke_has_no_call_id_and_raises_the_refusal() -> None:
    shop = Shop()
    with pytest.raises(ToolRefusedError) as raised:
        shop.native.invoke({"customer": "mallory"})
    assert raised.value.code == "not_found" and shop.refunds == []


# -- what the model reads ----------------------------------------------------------------


def test_a_denied_customer_reads_as_not_found() -> None:
    shop = Shop()
    message = shop.native.invoke(call_of({"customer": "mallory"}, "call_m"))
    assert refusal(message) == {
        "code": "not_found",
        "retryable": False,
        "message": "Unknown customer.",
        "request_id": "call_m",
    }
    assert message.tool_call_id == "call_m" and shop.refunds == []


def test_a_denied_customer_reads_as_not_found_async() -> None:
    shop = Shop()
    message = asyncio.run(shop.native.ainvoke(call_of({"customer": "mallory"}, "call_m")))
    assert refusal(message)["code"] == "not_found"
    assert refusal(message)["request_id"] == "call_m" and shop.refunds == []


def test_a_long_note_waits_for_approval_then_runs_once() -> None:
    shop = Shop()
    call = call_of({"customer": "ada", "note": LONG_NOTE}, "call_h")
    held = refusal(shop.native.invoke(call))
    assert held["code"] == "held_for_review" and held["request_id"] == "call_h"
    assert held["retryable"] is False and shop.refunds == []
    assert shop.gate.pending("call_h") is not None

    shop.gate.approve("call_h", approver="lead")
    ran = shop.native.invoke(call)
    replayed = shop.native.invoke(call)
    assert (ran.status, replayed.status) == ("success", "success")
    assert ran.content == replayed.content and shop.refunds == ["ada"]


def test_a_spent_budget_reads_as_budget_exceeded() -> None:
    shop = Shop(budget=2)
    answers = [shop.native.invoke(call_of({"customer": "ada"}, f"call_{n}")) for n in range(3)]
    assert [m.status for m in answers] == ["success", "success", "error"]
    assert refusal(answers[2]) == {
        "code": "budget_exceeded",
        "retryable": True,
        "message": "The budget for this call is used up; try later.",
        "request_id": "call_2",
    }
    assert shop.native.invoke(call_of({"customer": "ada"}, "call_0")).status == "success"
    assert shop.refunds == ["ada", "ada"]  # a repeated call id costs no budget


def test_an_agent_loop_reads_refusals_and_a_repeated_call_runs_once(tool_loop: Any) -> None:
    shop = Shop()
    replies = [
        AIMessage(
            "",
            tool_calls=[
                {"name": "refund", "args": {"customer": "mallory"}, "id": "c1"},
                {"name": "refund", "args": {"customer": "ada"}, "id": "c2"},
            ],
        ),
        AIMessage("", tool_calls=[{"name": "refund", "args": {"customer": "ada"}, "id": "c2"}]),
        AIMessage("Refunded Ada; Mallory is not a customer."),
    ]
    _, messages = tool_loop(replies, [shop.native])
    results = [m for m in messages if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.status) for m in results] == [
        ("c1", "error"),
        ("c2", "success"),
        ("c2", "success"),
    ]
    assert refusal(results[0])["code"] == "not_found"
    assert results[1].content == results[2].content and shop.refunds == ["ada"]
    assert messages[-1].content == "Refunded Ada; Mallory is not a customer."


def test_adopted_back_the_refusal_keeps_its_type() -> None:
    shop = Shop()
    adopted = from_langchain(shop.native)
    with pytest.raises(ToolRefusedError) as raised:
        st.call(adopted, {"customer": "mallory"}, {"tool_call_id": "call_x"})
    assert raised.value.code == "not_found" and raised.value.request_id == "call_x"


def test_the_runtime_gives_each_call_an_id_of_its_own() -> None:
    shop, target = Shop(), runtime("langchain")
    assert target is not None
    outcomes = [
        target.call(shop.native, {"customer": customer})
        for customer in ("ada", "ada", "bob", "mallory")
    ]
    assert [outcome.value for outcome in outcomes[:3]] == [
        {"refunded": "ada"},
        {"refunded": "ada"},
        {"refunded": "bob"},
    ]
    assert json.loads(outcomes[3].error or "")["code"] == "not_found"
    assert shop.refunds == ["ada", "ada", "bob"]
    ids = [context["request_id"] for context in shop.contexts]
    assert len(set(ids)) == 3 and all(id.startswith("call_") for id in ids)


# -- a LangChain tool guarded as it is ------------------------------------------------------


def native_refund() -> tuple[StructuredTool, list[str]]:
    """A LangChain refund tool, and who it ran for."""
    refunds: list[str] = []

    @langchain_tool
    def refund(customer: str) -> dict[str, Any]:
        """Refund a customer's last order."""
        refunds.append(customer)
        return {"refunded": customer}

    assert isinstance(refund, StructuredTool)
    return refund, refunds


def _unknown_mallory(request: CallRequest) -> Decision | bool:
    if request.arguments["customer"] == "mallory":
        return Decision.deny("not_found", "Unknown customer.")
    return True


def test_a_langchain_tool_is_guarded_as_one_tool_that_runs_through_the_gate() -> None:
    refund, refunds = native_refund()
    gate = Gate(policy=_unknown_mallory, budgets=[Budget(limit=2)])
    guarded = gate.guard(refund)
    assert isinstance(guarded, GuardedTool) and isinstance(guarded.wrapped, LangChainTool)
    assert guarded.name == "refund" and guarded.wrapped.native is refund
    assert st.call(guarded, {"customer": "ada"}, {"request_id": "r-1"}) == {"refunded": "ada"}
    assert st.call(guarded, {"customer": "ada"}, {"request_id": "r-1"}) == {"refunded": "ada"}
    assert refunds == ["ada"]  # one request id, one run
    with pytest.raises(ToolRefusedError) as raised:
        st.call(guarded, {"customer": "mallory"})
    assert raised.value.code == "not_found" and refunds == ["ada"]
    message = to_langchain(guarded).invoke(call_of({"customer": "mallory"}, "call_m"))
    assert refusal(message)["code"] == "not_found"
    st.call(guarded, {"customer": "bob"})
    with pytest.raises(ToolRefusedError) as spent:
        st.call(guarded, {"customer": "cy"})
    assert spent.value.code == "budget_exceeded" and refunds == ["ada", "bob"]
    assert [tool.name for tool in gate.visible(refund)] == ["refund"]


def test_a_list_of_langchain_tools_is_still_several() -> None:
    (refund, _), (other, _) = native_refund(), native_refund()
    other.name = "refund_again"
    guarded = Gate().guard([refund, other])
    assert [type(tool) for tool in guarded] == [GuardedTool, GuardedTool]
    assert [tool.name for tool in guarded] == ["refund", "refund_again"]
    assert [tool.name for tool in Gate().guard(t for t in (refund, other))] == [
        "refund",
        "refund_again",
    ]
    assert [tool.name for tool in to_langchain_tools((refund, other))] == [
        "refund",
        "refund_again",
    ]


def test_the_export_helpers_take_one_langchain_tool() -> None:
    refund, refunds = native_refund()
    assert st.adopt(refund).name == "refund"
    assert [tool.name for tool in st.registry.adopt_tools(refund)] == ["refund"]
    assert [tool.name for tool in from_langchain_tools(refund)] == ["refund"]
    assert [tool.name for tool in to_langchain_tools(refund)] == ["refund"]
    declaration = to_openai(refund)  # one tool: one declaration
    assert isinstance(declaration, dict) and declaration["name"] == "refund"
    assert [entry["name"] for entry in snapshot(refund)["tools"]] == ["refund"]
    calls = [
        {
            "type": "function_call",
            "call_id": "c1",
            "name": "refund",
            "arguments": '{"customer": "ada"}',
        }
    ]
    (answer,) = run_tool_calls(refund, calls, provider="openai")
    assert answer["call_id"] == "c1" and json.loads(answer["output"]) == {"refunded": "ada"}
    assert refunds == ["ada"]
