"""Exported tools in a LangGraph ``ToolNode``: the agent path of LangChain applications."""

from __future__ import annotations

import asyncio
import warnings
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("langgraph")

# langgraph 0.6 builds a langchain-core Reviver without `allowed_objects` at import time
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*allowed_objects.*")
    import langgraph.graph  # noqa: F401

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage  # noqa: E402
from langgraph.graph import END, START, MessagesState, StateGraph  # noqa: E402
from langgraph.prebuilt import ToolNode  # noqa: E402

import standard_tool as st  # noqa: E402
from standard_tool.boundary import CallRequest, Gate  # noqa: E402
from standard_tool.testing import SECRET, sample_tools  # noqa: E402
from standard_tool_langchain import to_langchain  # noqa: E402


@dataclass
class RunContext:
    user: str


def graph(seen: list[Any]) -> Any:
    def probe(input: dict[str, Any], context: Any) -> str:
        seen.append(context)
        return "ok"

    tools = [to_langchain(tool) for tool in sample_tools().values()]
    tools.append(to_langchain(st.Tool(name="probe", description="Probe.", execute=probe)))
    builder = StateGraph(MessagesState, context_schema=RunContext)
    builder.add_node("tools", ToolNode(tools))
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    return builder.compile()


CALLS = AIMessage(
    "",
    tool_calls=[
        {"name": "add", "args": {"a": 2, "b": 3}, "id": "c1"},
        {"name": "add", "args": {"a": "x"}, "id": "c2"},
        {"name": "explode", "args": {"reason": "r"}, "id": "c3"},
        {"name": "greet", "args": {"person": {"name": "Ada"}}, "id": "c4"},
        {"name": "whoami", "args": {"label": "l"}, "id": "c5"},
        {"name": "probe", "args": {}, "id": "c6"},
    ],
)


def check(messages: list[Any]) -> None:
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    assert [results[c].status for c in ("c1", "c2", "c3", "c4", "c5")] == [
        "success",
        "error",
        "error",
        "success",
        "success",
    ]
    assert results["c1"].artifact == 5 and results["c4"].content == "Hello, Ada"
    assert "a" in results["c2"].content and "exploded: r" in results["c3"].content
    assert results["c5"].artifact == {"label": "l", "has_context": True}
    assert all(SECRET not in str(m.content) for m in results.values())


def test_tool_node_runs_exported_tools_with_configurable_as_context() -> None:
    seen: list[Any] = []
    out = graph(seen).invoke({"messages": [CALLS]}, config={"configurable": {"token": SECRET}})
    check(out["messages"])
    assert seen == [{"token": SECRET}]


def test_tool_node_passes_the_langgraph_runtime_context() -> None:
    seen: list[Any] = []
    out = asyncio.run(graph(seen).ainvoke({"messages": [CALLS]}, context=RunContext("ada")))
    check(out["messages"])
    assert seen == [RunContext("ada")]


# A guarded tool in a LangGraph agent whose context is typed (``context_schema``)


@dataclass
class Caller:
    """A typed runtime context: who calls, for whom, and a field for the call's request id
    (the model's tool call id, set by the exported tool when the tool is guarded)."""

    actor: str
    tenant: str
    request_id: str | None = None


def test_a_typed_context_carries_the_tool_call_id_actor_and_tenant_to_the_gate() -> None:
    """The same ToolCall made twice in a run charges once (the second is answered with the
    first's result); another tenant's call with the same id is its own call, and charges."""
    from langgraph.prebuilt import create_react_agent

    from .conftest import ToolCallingFakeModel  # type: ignore[import-not-found]

    charges: list[Any] = []
    seen: list[tuple[str | None, str | None, str]] = []

    @st.tool
    def charge(cents: int, context: Any = None) -> str:
        """Charge the customer."""
        charges.append(context)
        return f"charged {cents} for {context.tenant}"

    def policy(request: CallRequest) -> bool:
        seen.append((request.actor, request.tenant, request.request_id))
        return True

    tool = to_langchain(Gate(policy=policy).guard(charge))
    call = {"name": "charge", "args": {"cents": 500}, "id": "call_1"}

    def run(tenant: str) -> list[ToolMessage]:
        replies = [
            AIMessage("", tool_calls=[call]),
            AIMessage("", tool_calls=[call]),
            AIMessage("ok"),
        ]
        model = ToolCallingFakeModel(messages=iter(replies), seen_tools=[])
        with warnings.catch_warnings():  # LangGraph 1.x: moved to langchain.agents.create_agent
            warnings.filterwarnings("ignore", message=".*create_react_agent has been moved")
            agent: Any = create_react_agent(model, [tool], context_schema=Caller)
        out = agent.invoke({"messages": [HumanMessage("charge")]}, context=Caller("ada", tenant))
        return [m for m in out["messages"] if isinstance(m, ToolMessage)]

    acme, globex = run("acme"), run("globex")
    assert [m.content for m in acme] == ["charged 500 for acme"] * 2
    assert [m.content for m in globex] == ["charged 500 for globex"] * 2
    assert all(m.status == "success" for m in acme + globex)
    assert charges == [
        Caller("ada", "acme", request_id="call_1"),
        Caller("ada", "globex", request_id="call_1"),
    ]
    assert seen == [("ada", "acme", "call_1")] * 2 + [("ada", "globex", "call_1")] * 2
