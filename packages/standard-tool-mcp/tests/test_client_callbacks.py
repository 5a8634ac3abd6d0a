"""Callbacks of connect(): a server that elicits, samples, reports progress and logs during a
call; progress reaches the caller's reporter. The SDK's own server, in process and over stdio."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

import mcp.types as types
import pytest

from standard_tool import acall, call, reporting
from standard_tool.exceptions import ToolExecutionError
from standard_tool.testing import RecordingReporter
from standard_tool_mcp import connect
from standard_tool_mcp._compat import dump

sys.path.insert(0, str(Path(__file__).parent / "servers"))
import callback_server  # noqa: E402

STEPS = [("progress", float(n), 3.0, f"step {n}") for n in (1, 2, 3)]


def _by_name(tools: list[Any]) -> dict[str, Any]:
    return {t.name: t for t in tools}


class Answers:
    """Elicitation and sampling callbacks that record what the server asked."""

    def __init__(self) -> None:
        self.asked: list[Any] = []

    async def elicitation(self, context: Any, params: Any) -> Any:
        self.asked.append(params)
        return types.ElicitResult(action="accept", content={"name": "Grace", "age": 40})

    async def sampling(self, context: Any, params: Any) -> Any:
        self.asked.append(params)
        text = types.TextContent(type="text", text="Hello back")
        return types.CreateMessageResult(role="assistant", content=text, model="test-model")


async def test_elicitation_answers_the_servers_question() -> None:
    answers = Answers()
    async with connect(callback_server.build(), elicitation=answers.elicitation) as tools:
        assert await acall(_by_name(tools)["ask"], {}) == {"result": "accept:Grace"}
    (asked,) = answers.asked
    assert asked.message == callback_server.QUESTION
    assert dump(asked)["requestedSchema"]["properties"]["name"]["default"] == "Ada"


async def test_without_an_elicitation_callback_the_question_fails_the_call() -> None:
    async with connect(callback_server.build()) as tools:
        with pytest.raises(ToolExecutionError) as raised:
            await acall(_by_name(tools)["ask"], {})
    assert raised.value.tool == "ask" and "licitation" in raised.value.message


async def test_sampling_answers_with_the_clients_model() -> None:
    answers = Answers()
    async with connect(callback_server.build(), sampling=answers.sampling) as tools:
        assert await acall(_by_name(tools)["sample"], {}) == {"result": "Hello back"}
    (asked,) = answers.asked
    assert asked.messages[0].content.text == callback_server.PROMPT


async def test_progress_reaches_the_callers_reporter_and_the_callback() -> None:
    seen: list[tuple[Any, ...]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append(("progress", value, total, message))

    reporter = RecordingReporter()
    async with connect(callback_server.build(), progress=progress) as tools:
        with reporting(reporter):
            assert await acall(_by_name(tools)["steps"], {}) == {"result": "done"}
        assert reporter.events == seen == STEPS
        other = RecordingReporter()
        with reporting(other):  # from another loop: reported on the caller's loop
            await asyncio.to_thread(lambda: asyncio.run(acall(_by_name(tools)["steps"], {})))
        assert other.events == STEPS


def test_progress_reaches_a_reporter_around_a_sync_call() -> None:
    reporter = RecordingReporter()
    with connect(callback_server.build()) as tools, reporting(reporter):
        assert call(_by_name(tools)["steps"], {"count": 2}) == {"result": "done"}
    assert reporter.events == [("progress", 1.0, 2.0, "step 1"), ("progress", 2.0, 2.0, "step 2")]


async def test_log_messages_go_to_the_logging_callback() -> None:
    received: list[Any] = []

    async def on_log(params: Any) -> None:
        received.append(params)

    async with connect(callback_server.build(), logging=on_log) as tools:
        await acall(_by_name(tools)["steps"], {})
    assert [(p.level, p.data) for p in received] == [
        ("info", "steps begin"),
        ("warning", {"left": 0}),
    ]


async def test_log_messages_go_to_the_python_logger(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, "standard_tool_mcp"):
        async with connect(callback_server.build()) as tools:
            await acall(_by_name(tools)["steps"], {})
    logged = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "standard_tool_mcp"]
    assert logged == [
        (logging.INFO, "in-process MCP server 'callbacks': steps begin"),
        (logging.WARNING, "in-process MCP server 'callbacks': {\"left\": 0}"),
    ]


async def test_every_callback_over_stdio(caplog: pytest.LogCaptureFixture) -> None:
    answers = Answers()
    reporter = RecordingReporter()
    command = [sys.executable, callback_server.__file__, "stdio"]
    options: dict[str, Any] = {"elicitation": answers.elicitation, "sampling": answers.sampling}
    with caplog.at_level(logging.INFO, "standard_tool_mcp"):
        async with connect(command, timeout=20, **options) as tools:
            by_name = _by_name(tools)
            assert await acall(by_name["ask"], {}) == {"result": "accept:Grace"}
            assert await acall(by_name["sample"], {}) == {"result": "Hello back"}
            with reporting(reporter):
                await acall(by_name["steps"], {})
    assert reporter.events == STEPS
    elicited, sampled = answers.asked
    assert elicited.message == callback_server.QUESTION
    assert sampled.messages[0].content.text == callback_server.PROMPT
    assert "steps begin" in caplog.text and '{"left": 0}' in caplog.text
