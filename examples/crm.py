"""The execution boundary on a tool that writes: ``create_task_draft`` puts a follow-up task
draft into a small SQLite CRM, behind a gate.

- a Cedar policy: an actor reaches only the customers of their own tenant; another tenant's
  customer, and a customer that does not exist, read alike (``not_found``);
- freshness: the draft cites a source document by ``source_ref`` (``"doc-1@3"``, its id and
  version); a version that is no longer the current one is ``stale``;
- approval: a summary longer than 280 characters, or a draft that carries the customer's PIN,
  waits for a person, who reads the PIN as ``"<secret>"`` (the tool's input schema marks it
  ``writeOnly``) and approves the call it is bound to;
- receipts in SQLite, beside the CRM: a call retried with the same request id runs once, and
  a call that timed out after its write is read back from the CRM (each draft records the
  request id that made it) instead of writing twice;
- a budget per tenant, and the kill switch.

``Crm(path)`` makes and seeds the database; ``create_task_draft(crm)`` is the tool;
``crm_gate(crm, store)`` the gate. They need the core with its ``cedar`` extra (cedarpy:
``pip install './packages/standard-tool[cedar]'``), and no framework.

Run from the repository root, ``python examples/crm.py`` goes through the loop once, over a
CRM and a gate's store in SQLite files of a temporary folder (``python examples/crm.py
FOLDER``: in FOLDER, kept), and prints what each step did: ann's draft that carries the
customer's PIN is held, and the approval request a person reads is shown (the PIN
``"<secret>"``); bob approves it; the call made again runs once; the same request id once
more runs nothing (its receipt, read back, answers); eve, of another tenant, calling for the
same customer is refused as ``not_found``; the CRM holds one draft.

``uv run --no-sync pytest integration_tests/test_crm_example.py``, from the repository root,
runs that command and checks what it prints and what the CRM holds, and every case through
every installed framework (the LangGraph case below needs ``standard-tool-langchain``,
``langgraph`` and ``starlette``).

A held call, from the model to the person and back (:func:`drafting_graph`): LangGraph runs
the model's call of the guarded tool, and the run pauses (``result["__interrupt__"]``: the
gate's approval request, the arguments whole); the people who decide see it in the approvals
inbox (``standard_tool.boundary.inbox(gate, approvers=...)``, or ``standard-tool approvals
serve``) over the same store, and one approves or rejects it there; the app then resumes the
run (``Command(resume={"type": "approve"})``), and the draft is written once, as approved, or
the model reads ``denied``. A decision made in the inbox stands: the resume only carries the
run on.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

import standard_tool as st
from standard_tool.boundary import (
    Budget,
    CallRequest,
    CedarPolicy,
    Gate,
    SqliteStore,
    Store,
    record_key,
    report_effect,
)
from standard_tool.exceptions import ToolRefusedError

POLICY = """
// An actor drafts tasks only for the customers of their own tenant.
permit (
    principal,
    action == Action::"create_task_draft",
    resource is Customer
)
when { resource.tenant == principal.tenant };
"""

USERS = {"ann": "acme", "bob": "acme", "eve": "globex"}
CUSTOMERS = {"c-1": ("acme", "Ada Ltd"), "c-2": ("acme", "Byte plc"), "c-9": ("globex", "Zed")}
SOURCES = {"doc-1": 3, "doc-2": 1}
LONG_SUMMARY = 280
"""Summaries longer than this wait for a person's approval."""


class Crm:
    """A CRM in one SQLite file: users, customers, source documents, and task drafts."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.slow_after_write = 0.0
        """Seconds the tool waits after writing a draft (a call that times out after its effect)."""
        self._lock = threading.Lock()
        with self._connect() as db:
            db.executescript(
                """
                CREATE TABLE IF NOT EXISTS customers (id TEXT PRIMARY KEY, tenant TEXT, name TEXT);
                CREATE TABLE IF NOT EXISTS sources (ref TEXT PRIMARY KEY, version INTEGER);
                CREATE TABLE IF NOT EXISTS drafts (
                    id INTEGER PRIMARY KEY, customer TEXT, summary TEXT, source_ref TEXT,
                    request_id TEXT UNIQUE, author TEXT, pin TEXT
                );
                """
            )
            db.executemany(
                "INSERT OR IGNORE INTO customers VALUES (?, ?, ?)",
                [(cid, tenant, name) for cid, (tenant, name) in CUSTOMERS.items()],
            )
            db.executemany("INSERT OR IGNORE INTO sources VALUES (?, ?)", SOURCES.items())

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10)

    def write_draft(
        self, customer: str, summary: str, source_ref: str, context: Any, pin: str | None = None
    ) -> int:
        with self._lock, self._connect() as db:
            cursor = db.execute(
                "INSERT INTO drafts (customer, summary, source_ref, request_id, author, pin) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    customer,
                    summary,
                    source_ref,
                    context.get("request_id"),
                    context.get("actor"),
                    pin,
                ),
            )
            return int(cursor.lastrowid or 0)

    def drafts(self) -> list[tuple[str, str, str | None]]:
        """Every draft: (customer, summary, request id)."""
        with self._connect() as db:
            rows = db.execute("SELECT customer, summary, request_id FROM drafts ORDER BY id")
            return list(rows)

    def draft_made_by(self, request_id: str) -> dict[str, Any] | None:
        """The result of the call ``request_id`` read back from the CRM, if it wrote a draft."""
        with self._connect() as db:
            row = db.execute(
                "SELECT id, customer FROM drafts WHERE request_id = ?", (request_id,)
            ).fetchone()
        return None if row is None else {"draft_id": row[0], "customer_id": row[1]}

    def is_current(self, source_ref: str) -> bool:
        """Whether ``source_ref`` (``"doc-1@3"``) names the current version of its document."""
        ref, _, version = source_ref.partition("@")
        with self._connect() as db:
            row = db.execute("SELECT version FROM sources WHERE ref = ?", (ref,)).fetchone()
        return row is not None and str(row[0]) == version

    def revise(self, ref: str) -> None:
        """A new version of a source document (drafts citing the old one become stale)."""
        with self._connect() as db:
            db.execute("UPDATE sources SET version = version + 1 WHERE ref = ?", (ref,))

    def entities(self) -> list[dict[str, Any]]:
        """The users and customers as Cedar entities."""
        with self._connect() as db:
            customers = list(db.execute("SELECT id, tenant FROM customers"))
        users = [
            {"uid": {"type": "User", "id": user}, "attrs": {"tenant": tenant}, "parents": []}
            for user, tenant in USERS.items()
        ]
        return users + [
            {"uid": {"type": "Customer", "id": cid}, "attrs": {"tenant": tenant}, "parents": []}
            for cid, tenant in customers
        ]


def create_task_draft(crm: Crm, *, timeout: float = 2.0) -> st.Tool:
    """The tool, writing into ``crm``."""

    @st.tool(timeout=timeout)
    def create_task_draft(
        customer_id: str,
        summary: Annotated[str, Field(max_length=1000)],
        source_ref: str,
        pin: Annotated[str, Field(json_schema_extra={"writeOnly": True})] = "",
        context: Any = None,
    ) -> dict[str, Any]:
        """Draft a follow-up task for a customer, citing the document it comes from.

        Args:
            customer_id: The customer's id, e.g. c-1.
            summary: What the task is about.
            source_ref: The source document and its version, e.g. doc-1@3.
            pin: The PIN the customer confirms on the call back, if they gave one.
        """
        draft_id = crm.write_draft(customer_id, summary, source_ref, context or {}, pin or None)
        report_effect(f"draft:{draft_id}")
        if crm.slow_after_write:
            time.sleep(crm.slow_after_write)
        return {"draft_id": draft_id, "customer_id": customer_id}

    return create_task_draft


def _customer(request: CallRequest) -> dict[str, str]:
    return {"type": "Customer", "id": str(request.arguments["customer_id"])}


def crm_gate(crm: Crm, store: Store, *, budget: int = 100) -> Gate:
    """The gate of ``create_task_draft``: Cedar, freshness, approval (a long summary, or a
    PIN), receipts in ``store``, ``budget`` calls per tenant."""
    return Gate(
        policy=CedarPolicy(
            POLICY,
            entities=lambda request: crm.entities(),
            target=_customer,
            deny_code="not_found",
            deny_message="No customer with that id.",
        ),
        freshness=lambda request: crm.is_current(request.arguments["source_ref"]),
        approvals=lambda request: (
            len(request.arguments["summary"]) > LONG_SUMMARY or bool(request.arguments.get("pin"))
        ),
        reconcile=lambda request: crm.draft_made_by(request.request_id),
        store=store,
        budgets=[Budget(budget, key="tenant")],
    )


def drafting_graph(crm: Crm, gate: Gate) -> Any:
    """A LangGraph graph running the model's calls of ``create_task_draft`` behind ``gate``
    (a ``ToolNode``, with a checkpointer so that a held call pauses the run and resumes).
    The caller is ``config["configurable"]``'s ``actor`` and ``tenant``; the model's call id
    is the request id. A decision given in the resume itself is recorded as the app's own
    (``approver="crm-app"``); one made in the inbox is recorded as that person's."""
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    from standard_tool_langchain import to_langchain

    tool = to_langchain(gate.guard(create_task_draft(crm)), approver="crm-app")
    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode([tool]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    return graph.compile(checkpointer=InMemorySaver())


ANN = {"actor": "ann", "tenant": "acme"}
EVE = {"actor": "eve", "tenant": "globex"}
CALL_BACK = {
    "customer_id": "c-1",
    "summary": "Call back about the renewal.",
    "source_ref": "doc-1@3",
    "pin": "4921",
}
"""ann's draft: it carries the customer's PIN, so a person approves it first."""


def main(folder: str | None = None) -> None:
    """Go through the loop once and print each step: over a CRM and a gate's store in SQLite
    files of ``folder`` (kept), or of a temporary folder (removed at the end)."""
    with tempfile.TemporaryDirectory() as temporary:
        where = Path(folder or temporary)
        crm = Crm(where / "crm.sqlite")
        store = SqliteStore(where / "gate.sqlite")
        try:
            _loop(crm, crm_gate(crm, store))
        finally:
            store.close()


def _loop(crm: Crm, gate: Gate) -> None:
    """The loop of :func:`main`, one printed line for each step."""
    tool = gate.guard(create_task_draft(crm))
    call = {**ANN, "request_id": "r-1"}
    try:
        st.call(tool, CALL_BACK, call)
    except ToolRefusedError as refusal:
        asked = refusal.approval or {}
        print(f"held: ann's call r-1, with the customer's PIN, waits for a person: {refusal.code}")
        print(f"  the approval request: {asked['tool']} for {asked['actor']} of {asked['tenant']}")
        print(f"  {asked['summary']}")
    gate.approve("r-1", tenant="acme", actor="ann", approver="bob")
    print("approved: bob approves r-1")
    ran = st.call(tool, CALL_BACK, call)
    print(f"ran once: r-1, made again, writes draft {ran['draft_id']}; {_holding(crm)}")
    again = st.call(tool, CALL_BACK, call)
    receipt = gate.store.receipt(record_key("acme", "ann", "r-1"))
    assert receipt is not None
    print(
        f"replayed: r-1, made once more, runs nothing and answers {json.dumps(again)}; its "
        f"receipt, read back: {receipt.state}, effect {receipt.effect_id}; {_holding(crm)}"
    )
    try:
        st.call(tool, CALL_BACK, {**EVE, "request_id": "r-2"})
    except ToolRefusedError as refusal:
        print(f"refused: eve of globex, calling for the same customer c-1, reads {refusal}")
    drafts = [
        f"for {customer}, {json.dumps(summary)}, written under {request_id}"
        for customer, summary, request_id in crm.drafts()
    ]
    print(f"{_holding(crm)}: " + "; ".join(drafts))


def _holding(crm: Crm) -> str:
    count = len(crm.drafts())
    return f"the CRM holds {count} draft{'' if count == 1 else 's'}"


if __name__ == "__main__":
    main(*sys.argv[1:2])
