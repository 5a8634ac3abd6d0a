"""Tools and helpers the gate's tests share: a transfer tool written three ways (a sync and an
async ``@st.tool`` function, and a raw JSON Schema ``st.Tool``), each counting its runs."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

import standard_tool as st
from standard_tool.boundary import report_effect
from standard_tool.exceptions import REFUSAL_CODES, ToolRefusedError

__all__ = ["ARGUMENT", "SECRET", "Kit", "invoke", "model_facing", "record", "refusal"]

SECRET = "sk-live-0123456789abcdef"
"""A context value that must never reach the model or the audit trail."""
ARGUMENT = "acct-ARGUMENT-4242"
"""An argument value that a refusal must never echo."""

INPUT_SCHEMA = {
    "type": "object",
    "properties": {"amount": {"type": "integer"}, "to": {"type": "string"}},
    "required": ["amount", "to"],
    "additionalProperties": False,
}


class Kit:
    """A transfer tool of one ``kind`` and what it did: ``runs`` holds each run's context."""

    def __init__(self, kind: str = "sync") -> None:
        self.kind = kind
        self.runs: list[dict[str, Any]] = []
        self.fail = False
        self.effect = True
        runs = self.runs

        def body(amount: int, to: str, context: Any) -> dict[str, Any]:
            runs.append(dict(context) if context is not None else {})
            if self.fail:
                raise ValueError(f"bank refused: key {context.get('secret')} rejected")
            if self.effect:
                report_effect(f"tx-{len(runs)}")
            return {"sent": amount, "to": to, "n": len(runs)}

        if kind == "sync":

            @st.tool(name="transfer")
            def transfer(amount: int, to: str, context: Any = None) -> dict[str, Any]:
                """Send money."""
                return body(amount, to, context)

            self.tool: st.Tool = transfer
        elif kind == "async":

            @st.tool(name="transfer")
            async def atransfer(amount: int, to: str, context: Any = None) -> dict[str, Any]:
                """Send money."""
                await asyncio.sleep(0)
                return body(amount, to, context)

            self.tool = atransfer
        else:

            def execute(input: Any, context: Any = None) -> Any:
                return body(input["amount"], input["to"], context)

            self.tool = st.Tool(
                name="transfer",
                description="Send money.",
                input_schema=INPUT_SCHEMA,
                execute=execute,
            )


def record(into: list[Any], answer: Any = True) -> Callable[..., Any]:
    """A step that notes what it is given (its last argument) and answers ``answer``."""

    def step(*args: Any) -> Any:
        into.append(args[-1])
        return answer

    return step


def invoke(mode: str, tool: Any, input: Any, context: Any = None) -> Any:
    """``st.call`` or ``st.acall`` (from a fresh event loop) of ``tool``."""
    if mode == "call":
        return st.call(tool, input, context)
    return asyncio.run(st.acall(tool, input, context))


def refusal(code: str, run: Callable[..., Any], *args: Any) -> ToolRefusedError:
    """The refusal ``run(*args)`` raises, checked to carry ``code`` and to be model-safe."""
    with pytest.raises(ToolRefusedError) as caught:
        run(*args)
    error = caught.value
    assert error.code == code, str(error)
    model_facing(error)
    return error


def model_facing(error: ToolRefusedError) -> dict[str, Any]:
    """``str(error)``, checked: one line of JSON with exactly code, retryable, message and
    request id, ``retryable`` as :data:`REFUSAL_CODES` says, no context value, no argument."""
    text = str(error)
    assert "\n" not in text
    payload = json.loads(text)
    assert list(payload) == ["code", "retryable", "message", "request_id"]
    assert payload["code"] == error.code
    assert payload["retryable"] is REFUSAL_CODES[error.code] is error.retryable
    assert payload["request_id"] == error.request_id
    assert isinstance(payload["request_id"], str) and payload["request_id"]
    assert SECRET not in text and ARGUMENT not in text
    assert "Traceback" not in text
    return dict(payload)
