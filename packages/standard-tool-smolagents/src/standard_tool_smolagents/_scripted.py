"""A scripted smolagents ``Model`` (no network) and real agent runs driven by it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from smolagents import CodeAgent, ToolCallingAgent
from smolagents.memory import ActionStep, FinalAnswerStep
from smolagents.models import (
    ChatMessage,
    ChatMessageToolCall,
    ChatMessageToolCallFunction,
    MessageRole,
    Model,
    get_tool_json_schema,
)
from smolagents.monitoring import LogLevel

from ._context import standard_context

__all__ = [
    "CODE_TAGS",
    "AgentRun",
    "Reply",
    "ScriptedModel",
    "call_source",
    "code",
    "run_code_agent",
    "run_tool_calling_agent",
]

Reply = str | list[tuple[str, Any]] | Callable[[Sequence[Any]], Any]
"""A scripted model turn: text (a ``CodeAgent``'s code, see :func:`code`), tool calls
``(name, arguments)``, or a function of the messages so far returning either."""
CODE_TAGS = ("<code>", "</code>")
"""The code block tags of the ``CodeAgent`` runs here (smolagents' default since 1.20)."""


def code(source: str) -> str:
    """A ``CodeAgent`` turn running ``source``."""
    return f"Thought: run it.\n{CODE_TAGS[0]}\n{source}\n{CODE_TAGS[1]}"


class ScriptedModel(Model):  # type: ignore[misc]
    """A smolagents ``Model`` answering with scripted turns; it records what it was shown.

    Once the script is done it ends the run: a ``final_answer`` call for a tool-calling agent,
    ``final_answer("done")`` code for a ``CodeAgent``.
    """

    def __init__(self, replies: Sequence[Reply] = ()) -> None:
        super().__init__(model_id="scripted")
        self.replies = list(replies)
        self.seen_tools: list[list[dict[str, Any]]] = []
        self.seen_messages: list[list[Any]] = []
        self.turns = 0

    def generate(
        self,
        messages: list[Any],
        stop_sequences: list[str] | None = None,
        response_format: dict[str, str] | None = None,
        tools_to_call_from: list[Any] | None = None,
        **kwargs: Any,
    ) -> ChatMessage:
        self.seen_messages.append(list(messages))
        if tools_to_call_from is not None:
            self.seen_tools.append([get_tool_json_schema(t) for t in tools_to_call_from])
        self.turns += 1
        reply: Any = self.replies.pop(0) if self.replies else None
        if callable(reply):
            reply = reply(messages)
        if reply is None:
            reply = [("final_answer", {"answer": "done"})] if tools_to_call_from else None
            reply = reply or code('final_answer("done")')
        if isinstance(reply, str):
            return ChatMessage(role=MessageRole.ASSISTANT, content=reply)
        calls = [
            ChatMessageToolCall(
                id=f"call_{self.turns}_{i}",
                type="function",
                function=ChatMessageToolCallFunction(name=name, arguments=arguments),
            )
            for i, (name, arguments) in enumerate(reply)
        ]
        return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=calls)


@dataclass
class AgentRun:
    """What an agent run did: its steps (each with its ``observations`` or ``error``), the
    tool outputs a tool-calling agent made, the answer and the model."""

    steps: list[ActionStep] = field(default_factory=list)
    outputs: list[Any] = field(default_factory=list)
    answer: Any = None
    model: ScriptedModel | None = None


def _run(agent: Any, model: ScriptedModel, context: Any) -> AgentRun:
    run = AgentRun(model=model)
    with standard_context(context):
        for event in agent.run("go", stream=True):
            if type(event).__name__ == "ToolOutput" and not getattr(event, "is_final_answer", 0):
                run.outputs.append(event)
            elif isinstance(event, FinalAnswerStep):
                run.answer = event.output
    run.steps = [step for step in agent.memory.steps if isinstance(step, ActionStep)]
    return run


def run_tool_calling_agent(
    tools: Sequence[Any], replies: Sequence[Reply], context: Any = None, **options: Any
) -> AgentRun:
    """Run a real ``ToolCallingAgent`` over ``tools`` with the scripted model; exported tools
    get ``context`` as their standard context."""
    model = ScriptedModel(replies)
    options = {"max_steps": 4, "verbosity_level": LogLevel.OFF, **options}
    return _run(ToolCallingAgent(tools=list(tools), model=model, **options), model, context)


def run_code_agent(
    tools: Sequence[Any], replies: Sequence[Reply], context: Any = None, **options: Any
) -> AgentRun:
    """Run a real ``CodeAgent`` over ``tools`` with the scripted model (turns made with
    :func:`code`); exported tools get ``context`` as their standard context."""
    model = ScriptedModel(replies)
    options = {
        "max_steps": 4,
        "verbosity_level": LogLevel.OFF,
        "code_block_tags": CODE_TAGS,
        **options,
    }
    return _run(CodeAgent(tools=list(tools), model=model, **options), model, context)


def call_source(name: str, arguments: dict[str, Any]) -> str:
    """Code calling tool ``name`` with ``arguments`` (JSON data, written as a Python literal)
    by keyword and giving its result as the final answer."""
    if all(key.isidentifier() for key in arguments):  # smolagents 1.20 cannot run f(**{...})
        given = ", ".join(f"{key}={value!r}" for key, value in arguments.items())
    else:
        given = f"**{arguments!r}"
    return f"result = {name}({given})\nfinal_answer(result)"
