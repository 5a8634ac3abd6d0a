"""The worked example of the execution boundary (``examples/crm.py``): ``python
examples/crm.py`` run as a command, and each case through every installed framework's own
runtime (the runtimes ``standard-tool check`` uses) and through an MCP server with bearer
authentication: what the model reads (the refusal's code in the one JSON line, or the result)
and the rows the CRM holds afterwards.

The example is imported from its file, so that any way of running pytest finds it
(``uv run --no-sync pytest integration_tests/test_crm_example.py`` from the repository root)."""

from __future__ import annotations

import importlib
import importlib.util
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import anyio
import pytest

import standard_tool as st
from standard_tool.boundary import Gate, SqliteStore, record_key
from standard_tool.exceptions import ToolRefusedError
from standard_tool.registry import runtime

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "crm.py"


def _example() -> ModuleType:
    """``examples/crm.py``, imported from its file."""
    spec = importlib.util.spec_from_file_location("crm_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:  # mypy, given examples/crm.py, names it ``crm``
    from crm import Crm, create_task_draft, crm_gate, drafting_graph
else:
    _crm = _example()
    Crm, create_task_draft, crm_gate = _crm.Crm, _crm.create_task_draft, _crm.crm_gate
    drafting_graph = _crm.drafting_graph


def refusal_payload(text: str) -> dict[str, Any]:
    """The refusal's one JSON line in what a model read (``runtimes.refusal_payload``, loaded
    by name: the shared ``runtimes`` module is not type-checked)."""
    payload: dict[str, Any] = importlib.import_module("runtimes").refusal_payload(text)
    return payload


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ANN = {"actor": "ann", "tenant": "acme"}
EVE = {"actor": "eve", "tenant": "globex"}
DRAFT = {"customer_id": "c-1", "summary": "Call back about the renewal.", "source_ref": "doc-1@3"}
LONG = {**DRAFT, "summary": "A summary a person reads before it is filed. " * 8}


@dataclass
class Answer:
    """What the model read: the result, or the refusal's code and message."""

    value: Any = None
    code: str | None = None
    message: str | None = None


class Route:
    """One way a model's call reaches the guarded tool."""

    name: str
    prechecks = False  # the framework refuses some invalid arguments itself, before the tool

    def call(self, tool: st.StandardTool, arguments: dict[str, Any], who: dict[str, Any]) -> Answer:
        raise NotImplementedError


def _refusal(text: str) -> Answer:
    payload = refusal_payload(text)  # the one JSON line, as it is, in every framework
    return Answer(code=payload["code"], message=payload["message"])


class Direct(Route):
    name = "st.call"

    def call(self, tool: st.StandardTool, arguments: dict[str, Any], who: dict[str, Any]) -> Answer:
        try:
            return Answer(value=st.call(tool, arguments, who))
        except ToolRefusedError as refusal:
            return _refusal(str(refusal))


class Runtime(Route):
    """A framework's runtime: the guarded tool converted, and called as the framework calls it."""

    def __init__(self, target: str) -> None:
        self.name = target
        self.prechecks = bool(getattr(runtime(target), "prechecks", False))

    def call(self, tool: st.StandardTool, arguments: dict[str, Any], who: dict[str, Any]) -> Answer:
        framework = runtime(self.name)
        assert framework is not None
        outcome = framework.call(framework.native(tool), arguments, who)
        if outcome.error is None:
            return Answer(value=outcome.value)
        if self.prechecks and '{"' not in outcome.error:  # refused by the framework's own check
            return Answer(message=outcome.error)
        return _refusal(outcome.error)


TOKENS = {"ann-token": ANN, "eve-token": EVE}


class Mcp(Route):
    """An MCP server over streamable HTTP with bearer authentication: the caller's identity
    comes from the token, the request id from ``_meta``."""

    name = "mcp"

    def call(self, tool: st.StandardTool, arguments: dict[str, Any], who: dict[str, Any]) -> Answer:
        from mcp.server.auth.provider import AccessToken

        from standard_tool_mcp import to_asgi_app
        from standard_tool_mcp._boundary import REQUEST_ID_META
        from standard_tool_mcp._compat import call_tool, dump, http_client_transport, open_session
        from standard_tool_mcp.testing import serving

        class Verifier:
            async def verify_token(self, token: str) -> AccessToken | None:
                person = TOKENS.get(token)
                if person is None:
                    return None
                claims = {"tenant": person["tenant"]}
                return AccessToken(
                    token=token,
                    scopes=[],
                    client_id="crm-app",
                    subject=person["actor"],
                    claims=claims,
                )

        token = next(name for name, person in TOKENS.items() if person["actor"] == who["actor"])

        @asynccontextmanager
        async def session(url: str) -> AsyncIterator[Any]:
            transport = http_client_transport(url, {"authorization": f"Bearer {token}"})
            async with open_session(transport, 20) as opened:
                yield opened

        async def run(url: str) -> dict[str, Any]:
            async with session(url) as opened:
                meta = {REQUEST_ID_META: who["request_id"]}
                return dump(await call_tool(opened, tool.name, arguments, 20, meta))

        with serving(to_asgi_app(tool, token_verifier=Verifier())) as url:
            result = anyio.run(run, url)
        if result.get("isError"):
            return Answer(code=result["structuredContent"]["code"])
        return Answer(value=result["structuredContent"])


def _routes() -> list[Route]:
    routes: list[Route] = [Direct()]
    for info in st.targets():
        if info.name == "mcp":
            routes.append(Mcp())
        elif runtime(info.name) is not None:
            routes.append(Runtime(info.name))
    return routes


ROUTES = _routes()


@dataclass
class Setup:
    crm: Crm
    gate: Gate
    tool: st.StandardTool
    route: Route
    calls: int = 0

    def call(
        self, arguments: dict[str, Any], who: dict[str, Any] = ANN, request_id: str | None = None
    ) -> Answer:
        self.calls += 1
        rid = request_id or f"{self.route.name}-{self.calls}"
        return self.route.call(self.tool, arguments, {**who, "request_id": rid})


@pytest.fixture(params=ROUTES, ids=lambda route: route.name)
def crm(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Setup]:
    data = Crm(tmp_path / "crm.sqlite")
    store = SqliteStore(tmp_path / "gate.sqlite")
    gate = crm_gate(data, store, budget=3)
    yield Setup(data, gate, gate.guard(create_task_draft(data, timeout=1.0)), request.param)
    store.close()


def test_a_correct_draft_is_written_once(crm: Setup) -> None:
    answer = crm.call(DRAFT, request_id="r-1")
    assert answer.code is None and answer.value["customer_id"] == "c-1"
    assert crm.crm.drafts() == [("c-1", DRAFT["summary"], "r-1")]


def test_another_tenants_customer_reads_like_an_unknown_one(crm: Setup) -> None:
    unknown = crm.call({**DRAFT, "customer_id": "c-404"})
    foreign = crm.call({**DRAFT, "customer_id": "c-9"})
    assert unknown.code == foreign.code == "not_found"
    assert unknown.message == foreign.message
    assert crm.crm.drafts() == []


def test_a_stale_source_is_refused(crm: Setup) -> None:
    crm.crm.revise("doc-1")
    assert crm.call(DRAFT).code == "stale"
    assert crm.crm.drafts() == []


@pytest.mark.parametrize(
    "arguments",
    [{**DRAFT, "priority": "high"}, {**DRAFT, "summary": "x" * 1001}],
    ids=["an extra field", "a summary too long"],
)
def test_invalid_arguments_are_refused(crm: Setup, arguments: dict[str, Any]) -> None:
    answer = crm.call(arguments)
    if answer.code is None and crm.route.prechecks:  # smolagents: its own check, naming the field
        assert answer.message is not None and "priority" in answer.message
    else:
        assert answer.code == "invalid_arguments"
    assert crm.crm.drafts() == []


def test_a_refused_approval_denies_the_call(crm: Setup) -> None:
    assert crm.call(LONG, request_id="r-long").code == "held_for_review"
    crm.gate.reject("r-long", tenant="acme", actor="ann", approver="bob", reason="not now")
    assert crm.call(LONG, request_id="r-long").code == "denied"
    assert crm.crm.drafts() == []


def test_an_approval_holds_only_for_the_arguments_it_was_given(crm: Setup) -> None:
    assert crm.call(LONG, request_id="r-long").code == "held_for_review"
    crm.gate.approve("r-long", tenant="acme", actor="ann", approver="bob")
    changed = {**LONG, "customer_id": "c-2"}
    assert crm.call(changed, request_id="r-long").code == "denied"  # not what bob approved
    assert crm.call(changed, request_id="r-other").code == "held_for_review"
    assert crm.crm.drafts() == []
    assert crm.call(LONG, request_id="r-long").code is None  # what bob approved, once
    assert [row[2] for row in crm.crm.drafts()] == ["r-long"]


def test_a_draft_with_a_pin_is_held_and_the_person_never_reads_the_pin(crm: Setup) -> None:
    with_pin = {**DRAFT, "pin": "4921"}
    assert crm.call(with_pin, request_id="r-pin").code == "held_for_review"
    held = crm.gate.pending("r-pin", tenant="acme", actor="ann")
    assert held is not None and held.arguments == {**DRAFT, "pin": "<secret>"}
    assert "4921" not in held.summary and crm.crm.drafts() == []
    crm.gate.approve("r-pin", tenant="acme", actor="ann", approver="bob")
    assert crm.call(with_pin, request_id="r-pin").code is None
    assert [row[2] for row in crm.crm.drafts()] == ["r-pin"]
    assert _pins(crm.crm) == ["4921"]  # the tool was given the PIN itself


def _pins(data: Crm) -> list[str | None]:
    with sqlite3.connect(data.path) as db:
        return [row[0] for row in db.execute("SELECT pin FROM drafts ORDER BY id")]


def test_a_retried_request_id_writes_one_draft(crm: Setup) -> None:
    first = crm.call(DRAFT, request_id="r-1")
    again = crm.call(DRAFT, request_id="r-1")
    assert first.value == again.value
    assert len(crm.crm.drafts()) == 1


def test_a_timeout_after_the_write_is_answered_once_it_ends_never_written_twice(
    crm: Setup,
) -> None:
    """The call times out while its write still runs (on its thread): retried under the same
    request id, it reads as still running until the write ends, then answers its outcome; the
    draft is written once."""
    crm.crm.slow_after_write = 1.3  # past the tool's time limit (1 s)
    assert crm.call(DRAFT, request_id="r-slow").code == "timeout"
    crm.crm.slow_after_write = 0.0
    deadline = time.monotonic() + 20
    answer = crm.call(DRAFT, request_id="r-slow")
    while answer.code == "unknown_outcome" and time.monotonic() < deadline:
        time.sleep(0.1)
        answer = crm.call(DRAFT, request_id="r-slow")
    assert answer.code is None and answer.value["customer_id"] == "c-1"
    assert len(crm.crm.drafts()) == 1


def test_the_budget_runs_out(crm: Setup) -> None:
    codes = [crm.call(DRAFT).code for _ in range(4)]
    assert codes == [None, None, None, "budget_exceeded"]
    assert len(crm.crm.drafts()) == 3


def test_a_disabled_tool_is_refused(crm: Setup) -> None:
    crm.gate.disable("create_task_draft")
    assert crm.call(DRAFT).code == "disabled"
    crm.gate.enable("create_task_draft")
    assert crm.call(DRAFT).code is None
    assert len(crm.crm.drafts()) == 1


# -- a held call, from the model to the person and back --------------------------------------

APPROVERS = {"bob": "bob-token-0123456789abcdef"}
ORIGIN = "http://testserver"


def _proposal(call_id: str) -> Any:
    """The model's message proposing the long draft (what a chat model sends back)."""
    from langchain_core.messages import AIMessage

    call = {"name": "create_task_draft", "args": LONG, "id": call_id, "type": "tool_call"}
    return AIMessage("", tool_calls=[call])


def _decide_in_the_inbox(gate: Gate, request_id: str, decision: str, reason: str = "") -> str:
    """Bob signs in to the approvals inbox, finds the held call, and decides it; the page."""
    import html
    import re

    from starlette.testclient import TestClient

    from standard_tool.boundary import inbox

    web = TestClient(inbox(gate, APPROVERS), base_url=ORIGIN)
    signed = web.post("/sign-in", data={"token": APPROVERS["bob"]}, headers={"Origin": ORIGIN})
    assert signed.status_code == 200
    assert f'data-request-id="{request_id}"' in signed.text  # the held call, listed
    assert html.escape(LONG["summary"].strip()) in signed.text  # its arguments, whole
    csrf = re.search(r'name="csrf" value="([^"]+)"', signed.text)
    assert csrf is not None
    form = {
        "csrf": html.unescape(csrf[1]),
        "request_id": f'"{request_id}"',
        "tenant": '"acme"',
        "actor": '"ann"',
        "decision": decision,
        "reason": reason,
    }
    answer = web.post("/decide", data=form, headers={"Origin": ORIGIN})
    assert answer.status_code == 200
    return answer.text


@pytest.mark.parametrize("decision", ["approve", "reject"])
def test_a_held_draft_pauses_in_langgraph_and_the_inbox_decides(
    tmp_path: Path, decision: str
) -> None:
    from langgraph.types import Command

    data = Crm(tmp_path / "crm.sqlite")
    gate = crm_gate(data, SqliteStore(tmp_path / "gate.sqlite"))
    graph = drafting_graph(data, gate)
    config = {"configurable": {"thread_id": "t-1", **ANN}}

    paused = graph.invoke({"messages": [_proposal("call-1")]}, config)
    [asked] = paused["__interrupt__"]
    assert asked.value["request_id"] == "call-1" and asked.value["arguments"] == LONG
    assert (asked.value["tenant"], asked.value["actor"]) == ("acme", "ann")
    assert data.drafts() == []  # nothing written before a person decides

    # The inbox runs on its own: another gate object over the same store, as another process.
    inboxes_gate = crm_gate(data, SqliteStore(tmp_path / "gate.sqlite"))
    page = _decide_in_the_inbox(inboxes_gate, "call-1", decision, reason="not this quarter")
    decided = gate.store.approval(record_key("acme", "ann", "call-1"))
    assert decided is not None and decided.approver == "bob"
    assert decided.status == ("approved" if decision == "approve" else "rejected")
    assert "bob" in page and ("not this quarter" in page) == (decision == "reject")

    for _ in range(2):  # the resume, and a second resume of the same pause
        resumed = graph.invoke(Command(resume={"type": "approve"}), config)
        reply = resumed["messages"][-1]
        if decision == "approve":
            assert [row[2] for row in data.drafts()] == ["call-1"]  # once, as approved
            assert '"draft_id"' in reply.content
        else:
            assert data.drafts() == []
            assert refusal_payload(reply.content)["code"] == "denied"
            assert "not this quarter" not in reply.content
    used = gate.store.approval(record_key("acme", "ann", "call-1"))
    assert used is not None and used.approver == "bob"


# -- python examples/crm.py -----------------------------------------------------------------

PRINTED = [
    "held: ann's call r-1, with the customer's PIN, waits for a person: held_for_review",
    "  the approval request: create_task_draft for ann of acme",
    '  {"customer_id": "c-1", "pin": "<secret>", "source_ref": "doc-1@3", '
    '"summary": "Call back about the renewal."}',
    "approved: bob approves r-1",
    "ran once: r-1, made again, writes draft 1; the CRM holds 1 draft",
    'replayed: r-1, made once more, runs nothing and answers {"draft_id": 1, "customer_id": '
    '"c-1"}; its receipt, read back: succeeded, effect draft:1; the CRM holds 1 draft',
    'refused: eve of globex, calling for the same customer c-1, reads {"code": "not_found", '
    '"retryable": false, "message": "No customer with that id.", "request_id": "r-2"}',
    'the CRM holds 1 draft: for c-1, "Call back about the renewal.", written under r-1',
]
"""What ``python examples/crm.py`` prints, line by line."""


def _run_example(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "examples/crm.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.splitlines()


def test_the_example_prints_the_loop() -> None:
    assert _run_example() == PRINTED


def test_what_the_example_prints_is_what_the_crm_and_the_store_hold(tmp_path: Path) -> None:
    assert _run_example(str(tmp_path)) == PRINTED
    data = Crm(tmp_path / "crm.sqlite")
    assert data.drafts() == [("c-1", "Call back about the renewal.", "r-1")]  # written once
    assert _pins(data) == ["4921"]
    store = SqliteStore(tmp_path / "gate.sqlite")
    try:
        approval = store.approval(record_key("acme", "ann", "r-1"))
        assert approval is not None and (approval.status, approval.approver) == ("used", "bob")
        assert approval.arguments["pin"] == "<secret>"
        receipt = store.receipt(record_key("acme", "ann", "r-1"))
        assert receipt is not None and receipt.state == "succeeded"
        assert (receipt.result, receipt.effect_id) == (
            {"draft_id": 1, "customer_id": "c-1"},
            "draft:1",
        )
        assert store.receipt(record_key("globex", "eve", "r-2")) is None  # refused: nothing ran
    finally:
        store.close()
