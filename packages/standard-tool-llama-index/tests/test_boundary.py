"""Guarded tools in LlamaIndex: ``call``/``acall`` raise the refusal, and ``call_tool`` and
agents answer it as ``ToolOutput(is_error=True)`` whose content is its one JSON line.

LlamaIndex agents run a tool with its arguments and the workflow Context only (the model's
``ToolSelection.tool_id`` stays in the agent's own events), so a guarded call's request id is
the app's (``context["request_id"]``), or one the gate makes.
"""

import asyncio
import json
import re
from typing import Any

import pytest
from llama_index.core.tools.calling import acall_tool, call_tool

import standard_tool as st
from standard_tool.exceptions import ToolRefusedError
from standard_tool.testing import LONG_NOTE, GuardedShop
from standard_tool_llama_index import CONTEXT_KEY, from_llama_index, to_llama_index

NOT_FOUND = {"code": "not_found", "retryable": False, "message": "Unknown customer."}


class Shop(GuardedShop):
    """The guarded shop, its tool converted to LlamaIndex (``native``)."""

    def __init__(self, budget: int = 10) -> None:
        super().__init__(budget)
        self.native = to_llama_index(self.tool)


def read_line(text: str) -> dict[str, Any]:
    """The refusal's JSON line, read; its request id is checked to be one."""
    assert "\n" not in text
    payload: dict[str, Any] = json.loads(text)
    assert isinstance(payload.pop("request_id"), str)
    return payload


# -- call / acall raise; call_tool answers ---------------------------------------------------


def test_call_and_acall_raise_the_refusal() -> None:
    shop = Shop()
    with pytest.raises(ToolRefusedError) as raised:
        shop.native.call(customer="mallory")
    assert raised.value.code == "not_found"
    with pytest.raises(ToolRefusedError) as araised:
        asyncio.run(shop.native.acall(customer="mallory"))
    assert read_line(str(araised.value)) == NOT_FOUND and shop.refunds == []


def test_call_tool_and_acall_tool_answer_an_error_output_with_the_line() -> None:
    shop = Shop()
    for output in (
        call_tool(shop.native, {"customer": "mallory"}),
        asyncio.run(acall_tool(shop.native, {"customer": "mallory"})),
    ):
        assert output.is_error
        line = str(output.raw_output)  # older llama-index keeps no ``exception`` on the output
        assert json.loads(line)["code"] == "not_found"
        assert output.content == "Encountered error: " + line  # LlamaIndex's
        assert read_line(str(output.raw_output)) == NOT_FOUND
    assert shop.refunds == []


def test_the_apps_request_id_runs_the_call_once() -> None:
    shop = Shop()
    adopted = from_llama_index(shop.native)  # a standard caller's context reaches the tool
    first = st.call(adopted, {"customer": "ada"}, {"request_id": "order-7"})
    again = asyncio.run(st.acall(adopted, {"customer": "ada"}, {"request_id": "order-7"}))
    assert first == again == {"refunded": "ada"}
    assert shop.refunds == ["ada"] and shop.contexts == [{"request_id": "order-7"}]
    with pytest.raises(ToolRefusedError) as raised:
        st.call(adopted, {"customer": "mallory"}, {"request_id": "order-8"})
    assert raised.value.payload == {**NOT_FOUND, "request_id": "order-8"}


def test_a_spent_budget_is_refused() -> None:
    shop = Shop(budget=2)
    outputs = [call_tool(shop.native, {"customer": "ada"}) for _ in range(3)]
    assert [output.is_error for output in outputs] == [False, False, True]
    assert read_line(str(outputs[2].raw_output)) == {
        "code": "budget_exceeded",
        "retryable": True,
        "message": "The budget for this call is used up; try later.",
    }
    assert shop.refunds == ["ada", "ada"]


# -- an agent run ------------------------------------------------------------------------


async def test_an_agent_reads_the_refusal_as_an_error_output(agent: Any) -> None:
    shop = Shop()
    run = await agent(
        [shop.native],
        [[("refund", {"customer": "mallory"}), ("refund", {"customer": "ada"})], "done"],
    )
    refused, ran = sorted(run.outputs, key=lambda output: not output.is_error)
    assert refused.is_error and not ran.is_error
    assert read_line(refused.content) == NOT_FOUND  # the line itself, as the model reads it
    request_id = json.loads(refused.content)["request_id"]
    assert re.fullmatch(r"[0-9a-f]{32}", request_id or "")  # the gate's own
    told = sorted(str(m.content) for m in run.llm.seen_messages[1] if m.role == "tool")
    assert told == sorted([refused.content, ran.content])
    assert ran.raw_output == {"refunded": "ada"} and shop.refunds == ["ada"]


async def test_an_agent_call_held_for_review_runs_once_when_approved(agent: Any) -> None:
    shop = Shop()
    store = {CONTEXT_KEY: {"request_id": "order-7", "actor": "alice"}}
    script = [[("refund", {"customer": "ada", "note": LONG_NOTE})], "done"]

    held = await agent([shop.native], script, store)
    [output] = held.outputs
    assert output.is_error and read_line(output.content) == {
        "code": "held_for_review",
        "retryable": False,
        "message": "This call waits for a person's review.",
    }
    assert json.loads(output.content)["request_id"] == "order-7" and shop.refunds == []

    shop.gate.approve("order-7", actor="alice", approver="lead")
    ran = await agent([shop.native], script, store)
    again = await agent([shop.native], script, store)
    assert [o.is_error for o in ran.outputs + again.outputs] == [False, False]
    assert ran.outputs[0].raw_output == again.outputs[0].raw_output == {"refunded": "ada"}
    assert shop.refunds == ["ada"]
