"""A call its gate holds, paused and resumed through LangGraph's ``interrupt``: the gate
decides and keeps the decision; LangGraph carries the question and the answer.

Where LangGraph is not installed (the ``langchain-0.3.36`` session), the tests of a graph run
do not apply, and the ones that run there check that the model reads the refusal."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

import standard_tool as st
from standard_tool.boundary import Approval, CallRequest, Gate, record_key
from standard_tool.exceptions import ToolRefusedError, UsageError
from standard_tool_langchain import to_langchain, to_langchain_tools

from .conftest import ToolCallingFakeModel, run_tool_loop  # type: ignore[import-not-found]

GRAPH = importlib.util.find_spec("langgraph") is not None
"""Whether LangGraph is installed (it is in every session but ``langchain-0.3.36``); when it
is, it is imported here for real, so that a broken install fails rather than skips."""
if GRAPH:
    with warnings.catch_warnings():  # langgraph 0.6 builds a Reviver without allowed_objects
        warnings.filterwarnings("ignore", message=".*allowed_objects.*")
        import langgraph.checkpoint.memory
        import langgraph.graph
        import langgraph.prebuilt  # noqa: F401

needs_graph = pytest.mark.skipif(not GRAPH, reason="LangGraph is not installed here")

BIG = "the whole order, refunded to the card it was paid with, as the customer asked"
"""A note long enough that only a person reading it whole can approve it."""


class Till:
    """A guarded ``charge(cents, note="")``: a charge of 100 cents or more waits for a
    person's approval. ``charged`` lists what ran."""

    def __init__(self, approver: Any = "bob", store: Any = None) -> None:
        self.charged: list[int] = []

        @st.tool
        def charge(cents: int, note: str = "") -> str:
            """Charge the customer."""
            self.charged.append(cents)
            return f"charged {cents}"

        def approvals(request: CallRequest) -> bool:
            return bool(request.arguments["cents"] >= 100)

        self.gate = Gate(approvals=approvals, store=store)
        self.tool = self.gate.guard(charge)
        self.native = to_langchain(self.tool, approver=approver)

    def approval(self, request_id: str, actor: str | None = "ada", tenant: Any = "acme") -> Any:
        found: Approval | None = self.gate.store.approval(record_key(tenant, actor, request_id))
        return found


def call(cents: int, id: str, note: str = "") -> dict[str, Any]:
    args: dict[str, Any] = {"cents": cents, "note": note} if note else {"cents": cents}
    return {"name": "charge", "args": args, "id": id}


def caller(thread: str, **more: Any) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread, "actor": "ada", "tenant": "acme", **more}}


def refusal(message: Any) -> dict[str, Any]:
    assert isinstance(message, ToolMessage) and message.status == "error"
    payload: dict[str, Any] = json.loads(str(message.content))
    return payload


def results(out: Any) -> dict[str, ToolMessage]:
    return {m.tool_call_id: m for m in out["messages"] if isinstance(m, ToolMessage)}


def tool_graph(tools: list[Any], checkpointer: bool = True) -> Any:
    """A plain graph: the model's message goes to one ``ToolNode``."""
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode(tools))
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    return builder.compile(checkpointer=InMemorySaver() if checkpointer else None)


def agent(tools: list[Any], replies: list[AIMessage], **kwargs: Any) -> Any:
    """``create_react_agent`` with a checkpointer, driven by a scripted model (each of its
    tool calls is a task of its own)."""
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.prebuilt import create_react_agent

    model = ToolCallingFakeModel(messages=iter(replies), seen_tools=[])
    with warnings.catch_warnings():  # LangGraph 1.x: moved to langchain.agents.create_agent
        warnings.filterwarnings("ignore", message=".*create_react_agent has been moved")
        return create_react_agent(model, tools, checkpointer=InMemorySaver(), **kwargs)


def resume(answer: Any) -> Any:
    from langgraph.types import Command

    return Command(resume=answer)


def asked(out: Any) -> list[dict[str, Any]]:
    """The values of the interrupts a run paused on."""
    return [interrupt.value for interrupt in out.get("__interrupt__", ())]


# -- outside a graph: the model reads the refusal ----------------------------------------------


def test_outside_a_graph_the_model_reads_held_for_review() -> None:
    till = Till()
    tools = to_langchain_tools([till.tool], approver=lambda context: "lead")
    message = tools[0].invoke({"type": "tool_call", **call(500, "c1")})
    assert refusal(message)["code"] == "held_for_review" and till.charged == []
    _, messages = run_tool_loop(
        [AIMessage("", tool_calls=[call(500, "c2")]), AIMessage("waiting")], [till.native]
    )
    assert refusal(messages[2])["code"] == "held_for_review" and till.charged == []
    assert till.gate.pending("c2") is not None  # asked of no one: the app's inbox lists it


def test_the_adapter_imports_and_exports_without_langgraph() -> None:
    code = (
        "import sys\n"
        "import standard_tool as st\n"
        "from standard_tool.boundary import Gate\n"
        "from standard_tool_langchain import to_langchain\n"
        "@st.tool\n"
        "def charge(cents: int) -> str:\n"
        "    '''Charge.'''\n"
        "    return 'ok'\n"
        "tool = to_langchain(Gate(approvals=lambda r: True).guard(charge), approver='bob')\n"
        "tool.invoke({'type': 'tool_call', 'name': 'charge', 'args': {'cents': 1}, 'id': 'c'})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'langgraph'))\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "[]"


@pytest.mark.skipif(GRAPH, reason="LangGraph is installed: its runs are tested below")
def test_without_langgraph_nothing_pauses() -> None:
    till = Till()
    config: Any = caller("t")
    message = till.native.invoke({"type": "tool_call", **call(500, "c1")}, config=config)
    assert refusal(message) == {
        "code": "held_for_review",
        "retryable": False,
        "message": "This call waits for a person's review.",
        "request_id": "c1",
    }
    assert till.approval("c1").status == "pending" and till.charged == []


@needs_graph
def test_a_graph_without_a_checkpointer_cannot_resume_so_the_model_reads_the_refusal() -> None:
    till = Till()
    plain = tool_graph([till.native], checkpointer=False)
    out = plain.invoke({"messages": [AIMessage("", tool_calls=[call(500, "c1")])]}, caller("t"))
    assert "__interrupt__" not in out
    assert refusal(results(out)["c1"])["code"] == "held_for_review" and till.charged == []
    paused = tool_graph([till.native]).invoke(
        {"messages": [AIMessage("", tool_calls=[call(500, "c2")])]}, caller("t")
    )
    assert [value["request_id"] for value in asked(paused)] == ["c2"]


# -- approve, reject, expiry -------------------------------------------------------------------


@needs_graph
def test_approve_runs_the_call_once_under_an_approval_kept_with_its_approver() -> None:
    till = Till()
    graph = tool_graph([till.native])
    config = caller("t1")
    out = graph.invoke(
        {"messages": [AIMessage("", tool_calls=[call(500, "c1", note=BIG)])]}, config
    )
    (value,) = asked(out)
    held = till.approval("c1")
    assert value == {
        **held.request(),
        "request_id": "c1",
        "tool_call_id": "c1",
        "message": "This call waits for a person's review.",
    }
    assert value["arguments"] == {"cents": 500, "note": BIG}  # whole, as it will run
    assert (value["tool"], value["tenant"], value["actor"]) == ("charge", "acme", "ada")
    assert held.status == "pending" and till.charged == []

    out = graph.invoke(resume({"type": "approve"}), config)
    assert "__interrupt__" not in out and till.charged == [500]
    assert results(out)["c1"].content == "charged 500"
    kept = till.approval("c1")
    assert (kept.status, kept.approver, kept.digest) == ("used", "bob", value["digest"])


@needs_graph
def test_in_an_agent_the_answer_names_the_approver_and_the_call_runs_once() -> None:
    till = Till(approver=lambda context: f"lead of {context['tenant']}")
    replies = [AIMessage("", tool_calls=[call(250, "c1")]), AIMessage("Charged.")]
    graph = agent([till.native], replies)
    config = caller("t2")
    out = graph.invoke({"messages": [HumanMessage("charge 250")]}, config)
    assert [value["request_id"] for value in asked(out)] == ["c1"] and till.charged == []
    out = graph.invoke(resume({"type": "approve", "approver": "carol"}), config)
    assert out["messages"][-1].content == "Charged." and till.charged == [250]
    assert till.approval("c1").approver == "carol"  # the answer's approver wins


@needs_graph
def test_the_exports_approver_may_be_a_function_of_the_calls_context() -> None:
    till = Till(approver=lambda context: f"lead of {context['tenant']}")
    graph = tool_graph([till.native])
    config = caller("t3")
    graph.invoke({"messages": [AIMessage("", tool_calls=[call(250, "c1")])]}, config)
    graph.invoke(resume({"type": "approve"}), config)
    assert till.approval("c1").approver == "lead of acme" and till.charged == [250]


@needs_graph
def test_approve_async() -> None:
    till = Till()
    graph = tool_graph([till.native])
    config = caller("t4")

    async def run() -> tuple[Any, Any]:
        first = await graph.ainvoke(
            {"messages": [AIMessage("", tool_calls=[call(300, "c1")])]}, config
        )
        return first, await graph.ainvoke(resume({"type": "approve"}), config)

    paused, done = asyncio.run(run())
    assert [value["request_id"] for value in asked(paused)] == ["c1"]
    assert results(done)["c1"].content == "charged 300" and till.charged == [300]
    assert till.approval("c1").status == "used"


@needs_graph
def test_reject_never_runs_and_the_model_reads_denied_without_the_reason() -> None:
    till = Till()
    graph = tool_graph([till.native])
    config = caller("t5")
    graph.invoke({"messages": [AIMessage("", tool_calls=[call(500, "c1")])]}, config)
    out = graph.invoke(resume({"type": "reject", "message": "card flagged by ops"}), config)
    assert refusal(results(out)["c1"]) == {
        "code": "denied",
        "retryable": False,
        "message": "A person rejected this call.",
        "request_id": "c1",
    }
    assert "flagged" not in str(out["messages"]) and till.charged == []
    kept = till.approval("c1")
    assert (kept.status, kept.approver, kept.reason) == ("rejected", "bob", "card flagged by ops")


@needs_graph
def test_an_approval_that_lapsed_before_the_resume_runs_nothing() -> None:
    till = Till()
    graph = tool_graph([till.native])
    config = caller("t6")
    graph.invoke({"messages": [AIMessage("", tool_calls=[call(500, "c1")])]}, config)
    till.gate.approve("c1", approver="bob", tenant="acme", actor="ada", expires_in=0.01)
    time.sleep(0.05)
    out = graph.invoke(None, config)  # the node runs again: the approval has lapsed
    assert [value["request_id"] for value in asked(out)] == ["c1"] and till.charged == []
    assert till.approval("c1").status == "pending"  # asked anew


@needs_graph
def test_an_approval_given_with_an_expiry_that_lapses_runs_nothing() -> None:
    till = Till()
    graph = tool_graph([till.native])
    config = caller("t7")
    graph.invoke({"messages": [AIMessage("", tool_calls=[call(500, "c1")])]}, config)
    out = graph.invoke(resume({"type": "approve", "expires_in": 1e-9}), config)
    assert [value["request_id"] for value in asked(out)] == ["c1"] and till.charged == []
    assert till.approval("c1").status == "pending"


# -- what a resume cannot do ---------------------------------------------------------------


@needs_graph
def test_arguments_changed_between_the_pause_and_the_resume_are_refused() -> None:
    till = Till()
    replies = [AIMessage("", tool_calls=[call(500, "c1")]), AIMessage("Done.")]
    graph = agent([till.native], replies)
    config = caller("t8")
    out = graph.invoke({"messages": [HumanMessage("charge")]}, config)
    (value,) = asked(out)
    proposal = graph.get_state(config).values["messages"][-1]
    edited = AIMessage("", id=proposal.id, tool_calls=[call(99_999, "c1")])
    graph.update_state(config, {"messages": [edited]})
    out = graph.invoke(resume({"type": "approve"}), config)
    assert refusal(results(out)["c1"]) == {
        "code": "denied",
        "retryable": False,
        "message": "This request id belongs to another call.",
        "request_id": "c1",
    }
    assert till.charged == [] and till.approval("c1").digest == value["digest"]
    assert till.approval("c1").status == "pending"  # what the person saw was not approved


@needs_graph
def test_a_second_resume_of_the_same_pause_runs_nothing() -> None:
    till = Till()
    graph = tool_graph([till.native])
    config = caller("t9")
    graph.invoke({"messages": [AIMessage("", tool_calls=[call(500, "c1")])]}, config)
    checkpoint = graph.get_state(config).config["configurable"]  # here the call waits
    paused = {"configurable": {**config["configurable"], **checkpoint}}
    first = graph.invoke(resume({"type": "approve"}), config)
    again = graph.invoke(resume({"type": "approve"}), paused)  # from the same checkpoint
    assert results(first)["c1"].content == results(again)["c1"].content == "charged 500"
    assert till.charged == [500] and till.approval("c1").status == "used"


# -- several held calls in one step ------------------------------------------------------------


@needs_graph
def test_several_held_calls_in_one_tool_node_each_answer_names_its_call() -> None:
    till = Till()
    graph = tool_graph([till.native])
    config = caller("t10")
    calls = [call(500, "c1"), call(20, "c2"), call(700, "c3")]
    out = graph.invoke({"messages": [AIMessage("", tool_calls=calls)]}, config)
    assert len(asked(out)) == 1 and till.charged in ([], [20])  # one question at a time

    out = graph.invoke(resume({"type": "approve"}), config)  # names no call: which one?
    (value,) = asked(out)
    assert "several calls" in value["refused"] and "request_id" in value["refused"]
    assert till.approval("c1").status == till.approval("c3").status == "pending"

    answers = [
        {"type": "reject", "request_id": "c1", "message": "too much"},
        {"type": "approve", "request_id": "c3", "approver": "dan"},
    ]
    for answer in answers:  # LangGraph gives each to whichever call asks first
        out = graph.invoke(resume(answer), config)
    assert "__interrupt__" not in out
    assert sorted(till.charged) == [20, 700]
    assert refusal(results(out)["c1"])["code"] == "denied"
    assert results(out)["c3"].content == "charged 700"
    c1, c3 = till.approval("c1"), till.approval("c3")
    assert (c1.status, c1.approver, c1.reason) == ("rejected", "bob", "too much")
    assert (c3.status, c3.approver) == ("used", "dan")


@needs_graph
def test_several_held_calls_in_an_agent_each_answer_names_its_call_whatever_interrupt() -> None:
    till = Till()
    replies = [AIMessage("", tool_calls=[call(500, "c1"), call(700, "c2")]), AIMessage("Done.")]
    graph = agent([till.native], replies)
    config = caller("t11")
    out = graph.invoke({"messages": [HumanMessage("charge")]}, config)
    by_call = {i.value["request_id"]: i.id for i in out["__interrupt__"]}
    assert sorted(by_call) == ["c1", "c2"] and till.charged == []

    unnamed = {by_call["c1"]: {"type": "approve"}}  # an interrupt id is not a call
    out = graph.invoke(resume(unnamed), config)
    assert till.charged == [] and till.approval("c1").status == "pending"
    refused = {value["request_id"]: value.get("refused") for value in asked(out)}
    assert "several calls" in (refused["c1"] or "")

    by_call = {i.value["request_id"]: i.id for i in out["__interrupt__"]}
    crossed = {by_call["c1"]: {"type": "approve", "request_id": "c2"}}  # sent to c1's question
    out = graph.invoke(resume(crossed), config)
    assert till.approval("c1").status == "pending"  # c1 asks again
    assert till.approval("c2").status in ("approved", "used") and till.charged in ([], [700])
    assert "c1" in {value["request_id"] for value in asked(out)}

    answer = {"type": "reject", "request_id": "c1", "message": "no"}
    out = graph.invoke(resume({i.id: answer for i in out["__interrupt__"]}), config)
    assert out["messages"][-1].content == "Done." and till.charged == [700]
    assert refusal(results(out)["c1"])["code"] == "denied"
    assert (till.approval("c1").status, till.approval("c2").status) == ("rejected", "used")


# -- answers that decide nothing ---------------------------------------------------------


def _elsewhere(till: Till) -> None:
    """A call of tenant globex, held under request id ``g1``."""
    with pytest.raises(ToolRefusedError):
        st.call(till.tool, {"cents": 900}, {"tenant": "globex", "actor": "ada", "request_id": "g1"})


@needs_graph
@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("yes", "an answer is a mapping"),
        ({"type": "maybe"}, "'approve' or 'reject'"),
        ({"type": "approve", "reason": "ok"}, "takes no 'reason'"),
        ({"type": "approve", "request_id": "c9"}, "no call of this caller waits"),
        ({"type": "approve", "request_id": "g1"}, "no call of this caller waits"),
        ({"type": "approve", "expires_in": -1}, "positive number"),
        ({"type": "approve", "approver": "ada"}, "may not approve a call of their own"),
    ],
    ids=[
        "not-a-mapping",
        "unknown-type",
        "unknown-key",
        "wrong-id",
        "other-tenant",
        "expiry",
        "self",
    ],
)
def test_an_answer_that_decides_nothing_is_refused_and_the_call_asks_again(
    answer: Any, why: str
) -> None:
    till = Till()
    _elsewhere(till)
    graph = tool_graph([till.native])
    config = caller("t12")
    graph.invoke({"messages": [AIMessage("", tool_calls=[call(500, "c1")])]}, config)
    out = graph.invoke(resume(answer), config)
    (value,) = asked(out)
    assert value["request_id"] == "c1" and why in value["refused"]
    assert till.charged == [] and till.approval("c1").status == "pending"
    assert till.approval("g1", tenant="globex").status == "pending"
    assert not [m for m in out["messages"] if isinstance(m, ToolMessage)]  # the model: nothing
    out = graph.invoke(resume({"type": "approve"}), config)  # a good answer still decides
    assert results(out)["c1"].content == "charged 500" and till.charged == [500]


@needs_graph
def test_no_approver_named_anywhere_is_the_apps_error_and_the_pause_stays() -> None:
    till = Till(approver=None)
    graph = tool_graph([till.native])
    config = caller("t13")
    graph.invoke({"messages": [AIMessage("", tool_calls=[call(500, "c1")])]}, config)
    with pytest.raises(UsageError, match="approver"):
        graph.invoke(resume({"type": "approve"}), config)
    assert till.charged == [] and till.approval("c1").status == "pending"
    assert [i.value["request_id"] for i in graph.get_state(config).interrupts] == ["c1"]
    out = graph.invoke(resume({"type": "approve", "approver": "erin"}), config)
    assert results(out)["c1"].content == "charged 500" and till.approval("c1").approver == "erin"


# -- a typed context ---------------------------------------------------------------------------


@dataclass
class Caller:
    actor: str
    tenant: str
    request_id: str | None = None


@needs_graph
def test_a_typed_context_carries_the_call_through_the_pause() -> None:
    till = Till(approver=lambda context: f"lead of {context.tenant}")
    replies = [AIMessage("", tool_calls=[call(500, "c1")]), AIMessage("Done.")]
    graph = agent([till.native], replies, context_schema=Caller)
    config: Any = {"configurable": {"thread_id": "t14"}}
    context = Caller("ada", "acme")
    out = graph.invoke({"messages": [HumanMessage("charge")]}, config, context=context)
    assert [(v["request_id"], v["tenant"]) for v in asked(out)] == [("c1", "acme")]
    graph.invoke(resume({"type": "approve"}), config, context=context)
    assert till.charged == [500] and till.approval("c1").approver == "lead of acme"


# -- langchain.agents.create_agent: each call its own task, resumed by interrupt id ----------


def _langchain_1() -> bool:
    """Whether this is LangChain 1.x, whose ``langchain.agents.create_agent`` the
    ``langchain-1.8.3`` session installs (imported for real there: a missing one fails)."""
    from importlib.metadata import version

    return int(version("langchain-core").split(".")[0]) >= 1


@pytest.mark.skipif(not _langchain_1(), reason="create_agent comes with LangChain 1.x")
def test_create_agent_resumes_each_held_call_by_its_interrupt_id() -> None:
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    till = Till()
    replies = [AIMessage("", tool_calls=[call(500, "c1"), call(700, "c2")]), AIMessage("Done.")]
    model = ToolCallingFakeModel(messages=iter(replies), seen_tools=[])
    graph = create_agent(model, tools=[till.native], checkpointer=InMemorySaver())
    config = caller("t-create-agent")
    out = graph.invoke({"messages": [HumanMessage("charge")]}, config)
    by_call = {i.value["request_id"]: i.id for i in out["__interrupt__"]}
    assert sorted(by_call) == ["c1", "c2"] and len(set(by_call.values())) == 2
    assert till.charged == []

    # An answer that names no call, with two held: refused, and both still wait.
    out = graph.invoke(resume({by_call["c1"]: {"type": "approve"}}), config)
    assert till.charged == [] and till.approval("c1").status == "pending"
    assert "several calls" in ({v["request_id"]: v.get("refused") for v in asked(out)}["c1"] or "")

    by_call = {i.value["request_id"]: i.id for i in out["__interrupt__"]}
    answers = {
        by_call["c1"]: {"type": "approve", "request_id": "c1"},
        by_call["c2"]: {"type": "reject", "request_id": "c2", "message": "too much"},
    }
    out = graph.invoke(resume(answers), config)
    assert out["messages"][-1].content == "Done."
    assert till.charged == [500]
    assert refusal(results(out)["c2"])["code"] == "denied"
    assert "too much" not in str(results(out)["c2"].content)
    assert (till.approval("c1").status, till.approval("c1").approver) == ("used", "bob")
    assert (till.approval("c2").status, till.approval("c2").reason) == ("rejected", "too much")
    graph.invoke(resume(answers), config)  # the same answers again: nothing runs twice
    assert till.charged == [500]
