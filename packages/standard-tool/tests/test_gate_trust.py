"""The gate's promises probed as an attacker would: another tenant with the same request id and
actor, a retry while a timed-out call still runs, results a durable store cannot write as
they are, who may approve, two decisions racing, identities that are not strings, a typed
context, the kill switch thrown while a call waits in its policy, budget names chosen to
collide, a store outage, and refusals that do not come from the gate itself."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import decimal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pydantic
import pytest

import standard_tool as st
from standard_tool.boundary import (
    AuditEvent,
    Budget,
    Gate,
    MemoryStore,
    SqliteStore,
    Store,
    identity_of,
    record_key,
    with_request_id,
)
from standard_tool.exceptions import ToolRefusedError, UsageError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gate_kit import ARGUMENT, Kit, invoke, refusal  # noqa: E402

ARGS = {"amount": 5, "to": ARGUMENT}


@pytest.fixture(params=["sync", "async", "raw"])
def kit(request: pytest.FixtureRequest) -> Kit:
    return Kit(request.param)


@pytest.fixture(params=["call", "acall"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    made: Store = MemoryStore() if request.param == "memory" else SqliteStore(tmp_path / "g.db")
    yield made
    close = getattr(made, "close", None)
    if close is not None:
        close()


def of(tenant: str | None, actor: str | None = "admin", request_id: str = "call_0") -> Any:
    context: dict[str, Any] = {"request_id": request_id}
    if tenant is not None:
        context["tenant"] = tenant
    if actor is not None:
        context["actor"] = actor
    return context


# -- tenants -------------------------------------------------------------------------------


@pytest.mark.parametrize("actor", ["admin", None], ids=["same-actor", "no-actor"])
def test_another_tenant_never_reads_a_receipt_under_the_same_request_id(
    kit: Kit, mode: str, store: Store, actor: str | None
) -> None:
    guarded = Gate(store=store).guard(kit.tool)
    first = invoke(mode, guarded, ARGS, of("tenant-a", actor))
    second = invoke(mode, guarded, ARGS, of("tenant-b", actor))
    assert (first["n"], second["n"]) == (1, 2)  # each ran its own call
    assert [run["request_id"] for run in kit.runs] == ["call_0", "call_0"]
    assert invoke(mode, guarded, ARGS, of("tenant-a", actor)) == first  # each reads its own
    assert invoke(mode, guarded, ARGS, of("tenant-b", actor)) == second
    assert len(kit.runs) == 2


def test_an_approval_given_for_one_tenant_lets_no_other_tenant_run(kit: Kit, mode: str) -> None:
    gate = Gate(approvals=lambda r: True)
    guarded = gate.guard(kit.tool)
    held_a = refusal("held_for_review", invoke, mode, guarded, ARGS, of("tenant-a"))
    held_b = refusal("held_for_review", invoke, mode, guarded, ARGS, of("tenant-b"))
    assert held_a.approval and held_b.approval
    assert held_a.approval["digest"] != held_b.approval["digest"]  # the tenant is bound in
    gate.approve("call_0", tenant="tenant-a", actor="admin", approver="carol")
    refusal("held_for_review", invoke, mode, guarded, ARGS, of("tenant-b"))
    assert kit.runs == []
    assert invoke(mode, guarded, ARGS, of("tenant-a"))["n"] == 1
    refusal("held_for_review", invoke, mode, guarded, ARGS, of("tenant-b"))
    assert gate.pending("call_0", tenant="tenant-b", actor="admin") is not None
    assert len(kit.runs) == 1


def test_a_request_id_never_reaches_into_another_callers_key() -> None:
    """Keys are built so that no request id, tenant or actor, however chosen, spells another
    caller's key."""
    keys = {
        record_key("a", "b", "c"),
        record_key(None, "b", "c"),
        record_key("a", None, "c"),
        record_key(None, None, "c"),
        record_key(None, None, "1:a/1:b/c"),
        record_key(None, None, "-/1:b/c"),
        record_key("a/1:b", None, "c"),
        record_key("a", "b/c", ""),
        record_key("", "", "c"),
        record_key("-", "-", "c"),
    }
    assert len(keys) == 10


# -- timeouts ------------------------------------------------------------------------------


def _slow(runs: list[Any], release: threading.Event, *, fail: bool = False) -> st.Tool:
    @st.tool(name="transfer", timeout=0.05)
    def transfer(amount: int, to: str) -> dict[str, Any]:
        """Send money, slowly."""
        runs.append(amount)
        release.wait(5)
        if fail:
            raise ValueError("the bank said no")
        return {"sent": amount, "n": len(runs)}

    return transfer


def _ended(store: Store, key: str) -> Any:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        receipt = store.receipt(key)
        if receipt is not None and receipt.state != "running":
            return receipt
        time.sleep(0.01)
    raise AssertionError("the call left running never recorded its outcome")


def test_a_retry_while_a_timed_out_call_still_runs_never_runs_it_again(
    mode: str, store: Store
) -> None:
    runs: list[Any] = []
    release = threading.Event()
    asked: list[Any] = []
    gate = Gate(store=store, reconcile=lambda r: asked.append(r))  # would find nothing
    guarded = gate.guard(_slow(runs, release))
    try:
        timeout = refusal("timeout", st.call, guarded, ARGS, of("t"))
        assert timeout.retryable is True and "may still be running" in timeout.message
        for _ in range(3):  # the retry the refusal invites, before the effect lands
            running = refusal("unknown_outcome", invoke, mode, guarded, ARGS, of("t"))
            assert "still running" in running.message
        assert runs == [5] and asked == []
    finally:
        release.set()
    receipt = _ended(store, record_key("t", "admin", "call_0"))
    assert receipt.state == "succeeded" and receipt.result == {"sent": 5, "n": 1}
    assert invoke(mode, guarded, ARGS, of("t")) == {"sent": 5, "n": 1}
    assert runs == [5] and asked == []


def test_a_timed_out_call_that_then_fails_keeps_its_failure(store: Store) -> None:
    runs: list[Any] = []
    release = threading.Event()
    guarded = Gate(store=store).guard(_slow(runs, release, fail=True))
    refusal("timeout", st.call, guarded, ARGS, of("t"))
    release.set()
    assert _ended(store, record_key("t", "admin", "call_0")).state == "failed"
    error = refusal("failed", st.call, guarded, ARGS, of("t"))
    assert "the bank said no" in error.message and runs == [5]


def test_a_timeout_says_what_a_retry_gets(mode: str) -> None:
    """A call cancelled at its time limit (an async tool) has no outcome to wait for: without
    ``reconcile`` a retry can never learn it, so the refusal is not retryable."""
    runs: list[Any] = []

    @st.tool(name="transfer", timeout=0.05)
    async def transfer(amount: int, to: str) -> int:
        """Send money, slowly."""
        runs.append(amount)
        await asyncio.sleep(5)
        return amount

    plain = Gate().guard(transfer)
    error = refusal("unknown_outcome", invoke, mode, plain, ARGS, of("t"))
    assert error.retryable is False
    assert refusal("unknown_outcome", invoke, mode, plain, ARGS, of("t")).retryable is False
    reconciling = Gate(reconcile=lambda r: {"found": True}).guard(transfer)
    assert refusal("timeout", invoke, mode, reconciling, ARGS, of("t")).retryable is True
    assert invoke(mode, reconciling, ARGS, of("t")) == {"found": True}
    assert runs == [5, 5]


# -- results a store keeps -----------------------------------------------------------------


class Payment(pydantic.BaseModel):
    id: str
    at: datetime.datetime
    amount: decimal.Decimal
    tags: set[str]


def test_a_result_that_is_not_plain_json_is_kept_and_replayed_as_json(
    mode: str, store: Store
) -> None:
    runs: list[Any] = []
    when = datetime.datetime(2026, 12, 6, 11, 0, tzinfo=datetime.timezone.utc)

    @st.tool(name="pay")
    def pay(amount: int) -> Payment:
        """Pay."""
        runs.append(amount)
        return Payment(id="p-1", at=when, amount=decimal.Decimal("12.50"), tags={"x"})

    gate = Gate(store=store)
    guarded = gate.guard(pay)
    first = invoke(mode, guarded, {"amount": 5}, of("t"))
    receipt = store.receipt(record_key("t", "admin", "call_0"))
    assert receipt is not None and receipt.state == "succeeded"
    expected = st.jsonable(first)
    assert receipt.result == expected
    assert invoke(mode, guarded, {"amount": 5}, of("t")) == expected
    assert runs == [5]


@pytest.mark.parametrize("result", [datetime.date(2026, 1, 2), {"a", "b"}, decimal.Decimal("1.5")])
def test_a_durable_store_keeps_what_it_could_not_write_before(result: Any, tmp_path: Path) -> None:
    runs: list[Any] = []

    def execute(input: Any) -> Any:
        runs.append(input)
        return result

    tool = st.Tool(name="odd", description="Odd.", execute=execute)
    with SqliteStore(tmp_path / "g.db") as store:
        guarded = Gate(store=store, reconcile=lambda r: None).guard(tool)
        st.call(guarded, {}, of("t"))
        receipt = store.receipt(record_key("t", "admin", "call_0"))
        assert receipt is not None and receipt.state == "succeeded"
        replay = st.call(guarded, {}, of("t"))
        assert replay == st.jsonable(result) and len(runs) == 1


def test_a_memory_store_replays_a_copy_not_the_callers_object(mode: str) -> None:
    @st.tool(name="listing")
    def listing() -> dict[str, Any]:
        """List."""
        return {"items": [1, 2]}

    guarded = Gate().guard(listing)
    first = invoke(mode, guarded, {}, of("t"))
    first["items"].append("mutated by the caller")
    replay = invoke(mode, guarded, {}, of("t"))
    assert replay == {"items": [1, 2]}
    replay["items"].clear()
    assert invoke(mode, guarded, {}, of("t")) == {"items": [1, 2]}


# -- who may approve -------------------------------------------------------------------------


def test_a_caller_may_not_approve_its_own_call_unless_the_gate_says_so(kit: Kit) -> None:
    gate = Gate(approvals=lambda r: True)
    guarded = gate.guard(kit.tool)
    refusal("held_for_review", st.call, guarded, ARGS, of("t", "mallory"))
    with pytest.raises(UsageError, match="may not approve a call of their own"):
        gate.approve("call_0", tenant="t", actor="mallory", approver="mallory")
    refusal("held_for_review", st.call, guarded, ARGS, of("t", "mallory"))
    assert kit.runs == []
    gate.reject("call_0", tenant="t", actor="mallory", approver="mallory")  # may withdraw it
    refusal("denied", st.call, guarded, ARGS, of("t", "mallory"))

    trusting = Gate(approvals=lambda r: True, self_approval=True)
    mine = trusting.guard(kit.tool)
    refusal("held_for_review", st.call, mine, ARGS, of("t", "alice"))
    trusting.approve("call_0", tenant="t", actor="alice", approver="alice")
    assert st.call(mine, ARGS, of("t", "alice"))["n"] == 1
    with pytest.raises(UsageError, match="self_approval"):
        Gate(self_approval="yes")  # type: ignore[arg-type]


class _Deciding(MemoryStore):
    """A store where both racing decisions have read the approval as pending before either
    writes: a read-then-write decision would let both succeed."""

    def __init__(self) -> None:
        super().__init__()
        self.both_read = threading.Barrier(2)

    def approval(self, key: str) -> Any:
        found = super().approval(key)
        if found is not None and found.status == "pending":
            try:
                self.both_read.wait(5)
            except threading.BrokenBarrierError:
                pass
        return found


def test_of_two_racing_decisions_exactly_one_is_made(kit: Kit) -> None:
    for first, second in (("approve", "reject"), ("reject", "approve"), ("approve", "approve")):
        store = _Deciding()
        gate = Gate(store=store, approvals=lambda r: True)
        guarded = gate.guard(kit.tool)
        refusal("held_for_review", st.call, guarded, ARGS, of("t"))
        outcomes: list[str] = []

        def decide(how: str, who: str, gate: Gate = gate, outcomes: list[str] = outcomes) -> None:
            try:
                getattr(gate, how)("call_0", tenant="t", actor="admin", approver=who)
                outcomes.append(how)
            except UsageError:
                outcomes.append("raised")

        threads = [
            threading.Thread(target=decide, args=(first, "carol")),
            threading.Thread(target=decide, args=(second, "dave")),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert sorted(outcomes).count("raised") == 1, outcomes
        made = next(o for o in outcomes if o != "raised")
        final = store.approval(record_key("t", "admin", "call_0"))
        assert final is not None
        assert final.status == ("approved" if made == "approve" else "rejected")


# -- identities ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "context",
    [
        {"actor": 42},
        {"actor": 43.0},
        {"tenant": ["acme"]},
        {"actor": "al\udcffice"},
        {"request_id": 7},
        {"request_id": ""},
        {"request_id": "r\ud800"},
    ],
    ids=["int-actor", "float-actor", "list-tenant", "surrogate", "int-id", "empty-id", "lone-id"],
)
def test_what_cannot_be_an_identity_is_refused_with_one_audit_event(
    kit: Kit, mode: str, context: dict[str, Any]
) -> None:
    events: list[AuditEvent] = []
    guarded = Gate(audit=[events.append]).guard(kit.tool)
    with pytest.raises(UsageError) as caught:
        invoke(mode, guarded, ARGS, context)
    text = str(caught.value)
    assert "42" not in text and "acme" not in text and "\udcff" not in text
    assert kit.runs == []
    assert [e.outcome for e in events] == ["error"]


def test_int_actors_never_share_an_approval_or_a_budget(kit: Kit) -> None:
    gate = Gate(budgets=[Budget(1, key="actor")])
    guarded = gate.guard(kit.tool)
    for actor in (42, 43):
        with pytest.raises(UsageError):
            st.call(guarded, ARGS, {"actor": actor, "request_id": f"r-{actor}"})
    assert st.call(guarded, ARGS, {"actor": "42", "request_id": "r-1"})["n"] == 1


def test_a_context_whose_get_raises_is_refused_with_one_audit_event(kit: Kit) -> None:
    from collections.abc import Mapping

    class Hostile(Mapping[str, Any]):
        def __getitem__(self, key: str) -> Any:
            raise RuntimeError("boom")

        def __iter__(self) -> Any:
            return iter(())

        def __len__(self) -> int:
            return 0

        def get(self, key: str, default: Any = None) -> Any:
            raise RuntimeError("boom")

    events: list[AuditEvent] = []
    guarded = Gate(audit=[events.append]).guard(kit.tool)
    with pytest.raises(UsageError, match="could not be read"):
        st.call(guarded, ARGS, Hostile())
    assert kit.runs == [] and [e.outcome for e in events] == ["error"]


@dataclasses.dataclass
class RunContext:
    actor: str
    tenant: str
    request_id: str | None = None


class ModelContext(pydantic.BaseModel):
    actor: str
    tenant: str
    request_id: str | None = None


@pytest.mark.parametrize("kind", [RunContext, ModelContext])
def test_a_typed_context_carries_the_call_id_and_the_identity(kind: Any) -> None:
    """LangGraph's typed ``context_schema``, a dataclass or a model: the framework's call id
    reaches the gate, and the same call run twice is charged once."""
    runs: list[Any] = []

    @st.tool(name="charge")
    def charge(amount: int, context: Any = None) -> int:
        """Charge."""
        runs.append(context)
        return len(runs)

    gate = Gate(budgets=[Budget(5, key="tenant")])
    guarded = gate.guard(charge)
    context = kind(actor="alice", tenant="acme")
    carried = with_request_id(guarded, context, "call_abc")
    assert type(carried) is kind and carried.request_id == "call_abc" and context.request_id is None
    assert identity_of(carried) == ("acme", "alice")
    assert st.call(guarded, {"amount": 1}, carried) == 1
    assert st.call(guarded, {"amount": 1}, with_request_id(guarded, context, "call_abc")) == 1
    assert len(runs) == 1
    receipt = gate.store.receipt(record_key("acme", "alice", "call_abc"))
    assert receipt is not None and receipt.state == "succeeded"
    other = kind(actor="alice", tenant="globex")
    assert st.call(guarded, {"amount": 1}, with_request_id(guarded, other, "call_abc")) == 2


# -- the kill switch ---------------------------------------------------------------------------


def test_a_call_waiting_in_its_policy_does_not_run_once_the_tool_is_switched_off(
    kit: Kit,
) -> None:
    entered, go_on = threading.Event(), threading.Event()

    async def policy(request: Any) -> bool:
        entered.set()
        while not go_on.is_set():
            await asyncio.sleep(0.005)
        return True

    gate = Gate(policy=policy)
    guarded = gate.guard(kit.tool)
    errors: list[ToolRefusedError] = []

    def call() -> None:
        try:
            asyncio.run(st.acall(guarded, ARGS, of("t")))
        except ToolRefusedError as error:
            errors.append(error)

    thread = threading.Thread(target=call)
    thread.start()
    assert entered.wait(5)
    gate.disable("transfer")  # returns before the waiting call goes on
    go_on.set()
    thread.join(10)
    assert [e.code for e in errors] == ["disabled"] and kit.runs == []
    gate.enable("transfer")
    assert st.call(guarded, ARGS, of("t"))["n"] == 1  # its request id was given back


class _Plain:
    """A store with only the protocol's methods (no ``claim_checked``): the gate reads the
    kill switch again after its claim all the same."""

    def __init__(self, inner: MemoryStore, switched: list[str]) -> None:
        self.inner = inner
        self.switched = switched

    def __getattr__(self, name: str) -> Any:
        if name == "claim_checked":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def claim(self, receipt: Any) -> Any:
        held = self.inner.claim(receipt)
        for tool in self.switched:  # switched off the moment after the claim
            self.inner.set_disabled(tool, True)
        return held


def test_a_store_without_a_checked_claim_is_read_again_after_the_claim(kit: Kit) -> None:
    inner = MemoryStore()
    guarded = Gate(store=_Plain(inner, ["transfer"])).guard(kit.tool)
    refusal("disabled", st.call, guarded, ARGS, of("t"))
    assert kit.runs == [] and inner.receipt(record_key("t", "admin", "call_0")) is None


# -- budgets -----------------------------------------------------------------------------------


def test_budget_names_chosen_to_collide_keep_their_own_buckets() -> None:
    def tool(name: str) -> st.Tool:
        return st.Tool(name=name, description="Read.", execute=lambda i: 0)

    gate = Gate(budgets=[Budget(1, tools=["a,b"]), Budget(1, tools=["a", "b"])])
    ab, a = gate.guard([tool("a,b"), tool("a")])
    assert st.call(ab, {}, of("t", request_id="1")) == 0
    assert st.call(a, {}, of("t", request_id="2")) == 0  # "a" is not "a,b"'s bucket
    by_actor = Gate(budgets=[Budget(1, key="actor")]).guard(tool("x"))
    assert st.call(by_actor, {}, of("t", "a:b", "1")) == 0
    assert st.call(by_actor, {}, of("t", 'a", "b', "2")) == 0
    refusal("budget_exceeded", st.call, by_actor, {}, of("t", "a:b", "3"))


# -- outages and forged refusals ---------------------------------------------------------------


def test_a_store_outage_is_unavailable_not_denied(kit: Kit, tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with SqliteStore(path) as store:
        guarded = Gate(store=store).guard(kit.tool)
        assert st.call(guarded, ARGS, of("t", request_id="1"))["n"] == 1
        path.unlink()  # the file goes: receipts, switches and budgets with it
        error = refusal("unavailable", st.call, guarded, ARGS, of("t", request_id="1"))
        assert error.retryable is True and len(kit.runs) == 1
        assert not path.exists()  # not made again, empty


def test_only_the_gates_own_hold_leads_to_its_approval(kit: Kit) -> None:
    gate = Gate(approvals=lambda r: r.arguments["amount"] > 100)
    guarded = gate.guard(kit.tool)
    mine = refusal("held_for_review", st.call, guarded, {**ARGS, "amount": 500}, of("t"))
    approval = gate.held(mine)
    assert approval is not None and (approval.tenant, approval.actor) == ("t", "admin")
    forged = ToolRefusedError("transfer", "held_for_review", "Wait.", "call_0", mine.approval)
    assert gate.held(forged) is None
    assert Gate().held(mine) is None  # another gate's
    assert gate.held(RuntimeError("no")) is None

    @st.tool(name="relay")
    def relay(amount: int) -> int:
        """An inner tool that raises a hold of this very gate's other call."""
        raise mine

    inner = refusal("held_for_review", st.call, gate.guard(relay), {"amount": 1}, of("t", "x"))
    assert gate.held(inner) is None  # passed on, never this call's own hold
    gate.approve("call_0", tenant="t", actor="admin", approver="carol")
    assert gate.held(mine) is None  # decided: nothing to ask any more
