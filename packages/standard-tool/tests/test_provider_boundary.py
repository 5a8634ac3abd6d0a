"""Guarded tools in the provider tool loop: each envelope's call id is the gate's request id,
and a refusal is answered in the envelope's error form with the refusal's one JSON line."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from standard_tool.providers import arun_tool_calls, run_tool_calls
from standard_tool.registry import runtime
from standard_tool.testing import LONG_NOTE, GuardedShop


class Form:
    """One provider's envelope: a call as its model writes it, and its answer read back."""

    def __init__(
        self,
        provider: str,
        call: Callable[[str | None, dict[str, Any]], dict[str, Any]],
        id_of: Callable[[dict[str, Any]], Any],
        read: Callable[[dict[str, Any]], tuple[bool, Any]],
    ) -> None:
        self.provider, self.call, self.id_of, self.read = provider, call, id_of, read

    def run(
        self, shop: GuardedShop, *calls: tuple[str | None, dict[str, Any]], **kw: Any
    ) -> list[Any]:
        envelope = [self.call(id, args) for id, args in calls]
        return run_tool_calls([shop.tool], envelope, self.provider, **kw)

    async def arun(self, shop: GuardedShop, *calls: tuple[str | None, dict[str, Any]]) -> list[Any]:
        envelope = [self.call(id, args) for id, args in calls]
        return await arun_tool_calls([shop.tool], envelope, self.provider)

    def refusal(self, answer: dict[str, Any]) -> dict[str, Any]:
        """The refusal an error answer carries (its JSON line, read)."""
        failed, text = self.read(answer)
        assert failed and isinstance(text, str) and "\n" not in text
        payload: dict[str, Any] = json.loads(text)
        return payload


def _error_text(content: str) -> tuple[bool, Any]:
    """A text answer: ``{"error": <text>}`` is a failure, anything else a result."""
    data = json.loads(content)
    if isinstance(data, dict) and set(data) == {"error"}:
        return True, data["error"]
    return False, data


def _gemini(answer: dict[str, Any]) -> tuple[bool, Any]:
    response = answer["functionResponse"]["response"]
    return ("error" in response), response.get("error", response.get("output"))


def _anthropic(answer: dict[str, Any]) -> tuple[bool, Any]:
    content = answer["content"]
    return answer["is_error"], content if answer["is_error"] else json.loads(content)


FORMS = {
    "responses": Form(
        "openai",
        lambda id, args: {
            "type": "function_call",
            "call_id": id,
            "name": "refund",
            "arguments": json.dumps(args),
        },
        lambda answer: answer["call_id"],
        lambda answer: _error_text(answer["output"]),
    ),
    "chat": Form(
        "openai",
        lambda id, args: {
            "id": id,
            "type": "function",
            "function": {"name": "refund", "arguments": json.dumps(args)},
        },
        lambda answer: answer["tool_call_id"],
        lambda answer: _error_text(answer["content"]),
    ),
    "anthropic": Form(
        "anthropic",
        lambda id, args: {"type": "tool_use", "id": id, "name": "refund", "input": args},
        lambda answer: answer["tool_use_id"],
        _anthropic,
    ),
    "gemini": Form(
        "gemini",
        lambda id, args: {"functionCall": {"id": id, "name": "refund", "args": args}},
        lambda answer: answer["functionResponse"].get("id"),
        _gemini,
    ),
    "hf": Form(
        "hf",
        lambda id, args: {
            "id": id,
            "type": "function",
            "function": {"name": "refund", "arguments": args},
        },
        lambda answer: answer.get("tool_call_id"),
        lambda answer: _error_text(answer["content"]),
    ),
}


@pytest.fixture(params=list(FORMS))
def form(request: pytest.FixtureRequest) -> Form:
    return FORMS[request.param]


# -- the call id is the request id ------------------------------------------------------------


def test_a_call_id_runs_the_call_once(form: Form) -> None:
    shop = GuardedShop()
    [first] = form.run(shop, ("call_a", {"customer": "ada"}))
    [again] = form.run(shop, ("call_a", {"customer": "ada"}))
    assert first == again and form.id_of(first) == "call_a"
    assert form.read(first) == (False, {"refunded": "ada"})
    assert shop.refunds == ["ada"] and shop.contexts == [{"request_id": "call_a"}]
    form.run(shop, ("call_b", {"customer": "ada"}))  # another call: it runs
    assert shop.refunds == ["ada", "ada"]


def test_a_call_id_runs_the_call_once_async(form: Form) -> None:
    shop = GuardedShop()

    async def twice() -> list[Any]:
        return [await form.arun(shop, ("call_a", {"customer": "ada"})) for _ in "12"]

    first, again = asyncio.run(twice())
    assert first == again and shop.refunds == ["ada"]
    assert shop.contexts == [{"request_id": "call_a"}]


def test_calls_run_together_are_each_run_once(form: Form) -> None:
    shop = GuardedShop()
    calls = [("c1", {"customer": "mallory"}), ("c2", {"customer": "ada"})]
    first = form.run(shop, *calls)
    again = form.run(shop, *calls)
    assert first == again and [form.id_of(answer) for answer in first] == ["c1", "c2"]
    assert form.refusal(first[0])["code"] == "not_found"
    assert form.read(first[1]) == (False, {"refunded": "ada"}) and shop.refunds == ["ada"]


def test_the_apps_own_request_id_is_kept(form: Form) -> None:
    shop = GuardedShop()
    context = {"request_id": "order-7", "actor": "alice"}
    form.run(shop, ("call_a", {"customer": "ada"}), context=context)
    form.run(shop, ("call_b", {"customer": "ada"}), context=context)
    assert shop.refunds == ["ada"] and shop.contexts == [context]


def test_a_gemini_call_with_no_id_gets_a_request_id_of_its_own() -> None:
    shop, form = GuardedShop(), FORMS["gemini"]
    form.run(shop, (None, {"customer": "ada"}))
    form.run(shop, (None, {"customer": "ada"}))
    assert shop.refunds == ["ada", "ada"]  # the gate made each call a request id of its own
    first, second = (context["request_id"] for context in shop.contexts)
    assert first != second


# -- what the model reads ---------------------------------------------------------------------


def test_a_denied_customer_reads_as_not_found(form: Form) -> None:
    shop = GuardedShop()
    [answer] = form.run(shop, ("call_m", {"customer": "mallory"}))
    assert form.id_of(answer) == "call_m"
    assert form.refusal(answer) == {
        "code": "not_found",
        "retryable": False,
        "message": "Unknown customer.",
        "request_id": "call_m",
    }
    assert shop.refunds == []


def test_a_denied_customer_reads_as_not_found_async(form: Form) -> None:
    shop = GuardedShop()
    [answer] = asyncio.run(form.arun(shop, ("call_m", {"customer": "mallory"})))
    assert form.refusal(answer)["code"] == "not_found"
    assert form.refusal(answer)["request_id"] == "call_m" and shop.refunds == []


def test_the_anthropic_answer_is_the_json_line_flagged_as_an_error() -> None:
    shop = GuardedShop()
    [answer] = FORMS["anthropic"].run(shop, ("toolu_1", {"customer": "mallory"}))
    assert answer == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": '{"code": "not_found", "retryable": false, "message": "Unknown customer.", '
        '"request_id": "toolu_1"}',
        "is_error": True,
    }


def test_a_long_note_waits_for_approval_then_runs_once(form: Form) -> None:
    shop = GuardedShop()
    call = ("call_h", {"customer": "ada", "note": LONG_NOTE})
    [held] = form.run(shop, call)
    assert form.refusal(held) == {
        "code": "held_for_review",
        "retryable": False,
        "message": "This call waits for a person's review.",
        "request_id": "call_h",
    }
    assert shop.refunds == [] and shop.gate.pending("call_h") is not None

    shop.gate.approve("call_h", approver="lead")
    [ran] = form.run(shop, call)
    [replayed] = form.run(shop, call)
    assert form.read(ran) == form.read(replayed) == (False, {"refunded": "ada"})
    assert shop.refunds == ["ada"]


def test_a_spent_budget_reads_as_budget_exceeded(form: Form) -> None:
    shop = GuardedShop(budget=2)
    answers = [form.run(shop, (f"call_{n}", {"customer": "ada"}))[0] for n in range(3)]
    assert [form.read(answer)[0] for answer in answers] == [False, False, True]
    assert form.refusal(answers[2]) == {
        "code": "budget_exceeded",
        "retryable": True,
        "message": "The budget for this call is used up; try later.",
        "request_id": "call_2",
    }
    form.run(shop, ("call_0", {"customer": "ada"}))  # a repeated call id costs no budget
    assert shop.refunds == ["ada", "ada"]


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "hf"])
def test_the_runtime_gives_each_call_an_id_of_its_own(provider: str) -> None:
    shop = GuardedShop()
    target = runtime(provider)
    assert target is not None
    native = target.native(shop.tool)
    outcomes = [target.call(native, {"customer": customer}) for customer in ("ada", "ada", "bob")]
    assert [outcome.error for outcome in outcomes] == [None, None, None]
    assert shop.refunds == ["ada", "ada", "bob"]
    ids = [context["request_id"] for context in shop.contexts]
    assert len(set(ids)) == 3 and all(id.startswith("call_") for id in ids)
