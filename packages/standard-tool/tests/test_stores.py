"""The memory and SQLite stores against the store contract, SQLite raced by processes."""

from __future__ import annotations

import functools
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from standard_tool.boundary import Approval, MemoryStore, Receipt, RedisStore, SqliteStore, Store
from standard_tool.exceptions import StoreError, ToolRefusedError, UsageError
from standard_tool.testing import SharedStoreContract, StoreContract
from standard_tool.testing._stores import every_operation


class TestMemoryStore(StoreContract):
    def new_store(self, tmp_path: Path) -> Store:
        return MemoryStore()


class TestSqliteStore(SharedStoreContract):
    def opener(self, tmp_path: Path) -> Callable[[], Store]:
        return functools.partial(SqliteStore, tmp_path / "boundary.db")


def test_sqlite_store_is_in_wal_mode_with_its_tables(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "boundary.db") as store:
        assert not store.is_disabled("transfer")
    db = sqlite3.connect(tmp_path / "boundary.db")
    try:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        assert {"receipts", "approvals", "buckets", "disabled"} <= tables
    finally:
        db.close()


def test_a_closed_sqlite_store_is_not_used(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "boundary.db")
    store.set_disabled("transfer", True)
    store.close()
    with pytest.raises(UsageError, match="closed"):
        store.is_disabled("transfer")
    with SqliteStore(tmp_path / "boundary.db") as again:
        assert again.is_disabled("transfer")


def test_the_boundary_imports_no_redis_client() -> None:
    script = (
        "import sys, standard_tool.boundary, standard_tool.testing; print('redis' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert out.stdout.strip() == "False", out.stderr


def test_a_redis_store_without_redis_py_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # as if it were not installed
    with pytest.raises(UsageError, match=r"standard-tool\[redis\]"):
        RedisStore("redis://127.0.0.1:1")


def test_threads_share_one_sqlite_store(tmp_path: Path) -> None:
    """Threads of one process take turns on its connection: each read-modify-write whole."""
    taken: list[bool] = []
    with SqliteStore(tmp_path / "boundary.db") as store:

        def take() -> None:
            taken.extend(store.take_all([("k", 100, None)], now=0.0) for _ in range(50))

        threads = [threading.Thread(target=take) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not any(thread.is_alive() for thread in threads)
    assert (len(taken), sum(taken)) == (200, 100)


def _done(request_id: str, state: Any = "succeeded", **changes: Any) -> Receipt:
    return Receipt(request_id, "transfer", "d" * 64, state, started=1.0, **changes)


def _held(store: MemoryStore, *request_ids: str) -> list[bool]:
    """Whether ``store`` still holds the receipt of each of ``request_ids``."""
    return [store.receipt(_done(request_id).key) is not None for request_id in request_ids]


def test_a_memory_store_drops_the_receipts_finished_earliest() -> None:
    """Past its bound, the store forgets the receipts that finished earliest (whatever their
    outcome), never a running one; a request id forgotten is claimed anew."""
    store = MemoryStore(max_receipts=3)
    store.claim(_done("r-1", "running"))  # finishes last
    store.save(_done("r-2"))
    store.save(_done("r-3", "failed", code="denied"))
    store.save(_done("r-1", "unknown_outcome"))
    assert _held(store, "r-1", "r-2", "r-3") == [True] * 3
    store.claim(_done("r-4", "running"))
    assert _held(store, "r-1", "r-2", "r-3", "r-4") == [True, False, True, True]
    assert store.claim(_done("r-2", "running")) is None  # forgotten: it runs again
    assert _held(store, "r-1", "r-2", "r-3", "r-4") == [True, True, False, True]
    store.save(_done("r-3"))  # a new receipt of r-3 pushes r-1 out
    assert _held(store, "r-1", "r-2", "r-3", "r-4") == [False, True, True, True]
    store.save(_done("r-3"))  # saved again: the last to finish now, nothing else to drop
    assert store.replace(_done("r-4", "running"), _done("r-4"))
    store.claim(_done("r-5", "running"))
    assert _held(store, "r-2", "r-3", "r-4", "r-5") == [True, False, True, True]


def test_a_memory_store_never_drops_a_running_receipt() -> None:
    """While more calls than its bound run at once, the store holds them all; the finished
    ones go first, and it shrinks back to its bound as the running ones finish."""
    store = MemoryStore(max_receipts=2)
    store.save(_done("r-0"))
    for index in range(1, 5):
        assert store.claim(_done(f"r-{index}", "running")) is None
    assert _held(store, "r-0", "r-1", "r-2", "r-3", "r-4") == [False] + [True] * 4
    assert store.release(_done("r-2", "running"))
    for index in (1, 3, 4):
        store.save(_done(f"r-{index}"))
    assert _held(store, "r-1", "r-3", "r-4") == [False, True, True]


def test_a_memory_store_drops_the_approvals_decided_earliest() -> None:
    """Past its bound, the store forgets the approvals decided or used earliest, never a
    pending one."""

    def approval(request_id: str, status: Any) -> Approval:
        return Approval(request_id, "transfer", "d" * 64, "{}", status=status)

    def held(*request_ids: str) -> list[bool]:
        return [store.approval(approval(id, "pending").key) is not None for id in request_ids]

    store = MemoryStore(max_approvals=2)
    store.save_approval(approval("a-1", "pending"))
    store.save_approval(approval("a-2", "approved"))
    store.save_approval(approval("a-3", "pending"))
    assert held("a-1", "a-2", "a-3") == [True, False, True]  # two pending: both kept
    assert store.decide(approval("a-1", "approved"))
    store.save_approval(approval("a-4", "rejected"))
    assert held("a-1", "a-3", "a-4") == [False, True, True]
    assert store.decide(approval("a-3", "approved"))
    assert store.use_approval(approval("a-3", "used").key, "d" * 64, now=0.0) is not None
    store.save_approval(approval("a-5", "rejected"))  # a-3 was used after a-4 was decided
    assert held("a-3", "a-4", "a-5") == [True, False, True]


@pytest.mark.parametrize("bound", [0, -1, 2.5, "10", True])
@pytest.mark.parametrize("name", ["max_receipts", "max_approvals"])
def test_a_memory_store_bound_is_an_int_of_at_least_one(name: str, bound: Any) -> None:
    with pytest.raises(UsageError, match=name):
        MemoryStore(**{name: bound})


def test_a_memory_store_may_be_unbounded() -> None:
    store = MemoryStore(max_receipts=None, max_approvals=None)
    for index in range(300):
        store.save(_done(f"r-{index}"))
    assert all(_held(store, *(f"r-{index}" for index in range(300))))
    assert MemoryStore(1).max_receipts == 1


def test_a_memory_store_copies_no_scalar_result() -> None:
    """A scalar result never changes: the receipt itself is kept and handed back (the gate's
    every call claims and saves one); a list or a dict is copied both ways."""
    store = MemoryStore()
    claim, done = _done("r-1", "running"), _done("r-1", result="ok")
    assert store.claim(claim) is None
    assert store.claim(_done("r-1", "running")) is claim
    store.save(done)
    assert store.receipt(done.key) is done
    rows = _done("r-2", result=[{"id": 1}])
    store.save(rows)
    held = store.receipt(rows.key)
    assert held == rows
    assert held is not rows and held.result is not rows.result
    assert held.result[0] is not rows.result[0]


def _other_database(path: Path) -> None:
    db = sqlite3.connect(path)
    try:
        db.execute("CREATE TABLE other (x)")
        db.commit()
    finally:
        db.close()


def _every_operation(store: SqliteStore) -> list[Callable[[], object]]:
    return every_operation(
        store, _done("r-1", "running"), Approval("a-1", "transfer", "d" * 64, "{}")
    )


def test_a_deleted_sqlite_file_is_not_made_again(tmp_path: Path) -> None:
    """Deleting the file would reset every receipt, budget and switch: the store says so
    (naming the file) at each operation, and makes no new file."""
    path = tmp_path / "boundary.db"
    with SqliteStore(path) as store:
        store.set_disabled("transfer", True)
        for name in os.listdir(tmp_path):
            os.remove(tmp_path / name)
        for operation in _every_operation(store):
            with pytest.raises(StoreError, match="boundary.db"):
                operation()
        assert not path.exists()
    assert not path.exists()
    with SqliteStore(path) as fresh:  # a new store on the path starts a new file
        assert not fresh.is_disabled("transfer")
    assert path.exists()


def test_a_replaced_sqlite_file_is_not_used(tmp_path: Path) -> None:
    """A file put in the database's place is another database: the store says so (naming
    the file) at each operation, and leaves it as it found it."""
    path, other = tmp_path / "boundary.db", tmp_path / "other.db"
    _other_database(other)
    text = other.read_bytes()
    with SqliteStore(path) as store:
        store.set_disabled("transfer", True)
        os.replace(other, path)
        for operation in _every_operation(store):
            with pytest.raises(StoreError, match="boundary.db.*replaced"):
                operation()
        assert path.read_bytes() == text


def test_a_sqlite_store_in_another_process_opens_only_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forked child opens a connection of its own: to the file the store opened, never a
    new one where that was."""
    opened: list[sqlite3.Connection] = []
    connect = sqlite3.connect

    def kept(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        opened.append(connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(sqlite3, "connect", kept)
    path, pid = tmp_path / "boundary.db", os.getpid()
    store = SqliteStore(path)
    try:
        store.set_disabled("transfer", True)
        monkeypatch.setattr(os, "getpid", lambda: pid + 1)  # as a forked child sees it
        assert store.is_disabled("transfer")  # its own connection, to the same file
        monkeypatch.setattr(os, "getpid", lambda: pid + 2)
        for name in os.listdir(tmp_path):
            os.remove(tmp_path / name)
        with pytest.raises(StoreError, match="boundary.db"):
            store.is_disabled("transfer")
        assert not path.exists()
        _other_database(path)
        monkeypatch.setattr(os, "getpid", lambda: pid + 3)
        with pytest.raises(StoreError, match="boundary.db.*replaced"):
            store.is_disabled("transfer")
    finally:
        for connection in opened:
            connection.close()


def test_a_sqlite_store_in_memory_is_a_store() -> None:
    with SqliteStore(":memory:") as store:
        store.set_disabled("transfer", True)
        assert store.is_disabled("transfer")
        assert store.claim(_done("r-1", "running")) is None


def test_a_sqlite_file_keyed_by_request_id_alone_is_not_used(tmp_path: Path) -> None:
    """A database of the earlier form kept receipts under the bare request id, shared by
    every caller: the store says so, and uses none of it."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE receipts (request_id TEXT PRIMARY KEY, body TEXT NOT NULL)")
    with SqliteStore(path) as store, pytest.raises(StoreError, match="new file"):
        store.is_disabled("transfer")


def _listed(store: Any, status: str, **tenant: Any) -> list[str]:
    """The request ids of one listing of ``store``, in its order."""
    return [approval.request_id for approval in store.list_approvals(status=status, **tenant)]


def test_a_sqlite_store_lists_on_its_indexes(tmp_path: Path) -> None:
    """A listing walks an index in its order (it stops at its limit), sorting at most the
    ties of that order, never the whole table."""
    with SqliteStore(tmp_path / "boundary.db") as store:
        store.list_approvals(status="pending")
    db = sqlite3.connect(tmp_path / "boundary.db")
    try:
        from standard_tool.boundary._sqlite import LISTED

        for status, (where, order) in LISTED.items():
            plan = " ".join(
                row[-1]
                for row in db.execute(
                    f"EXPLAIN QUERY PLAN SELECT body FROM approvals WHERE {where} "
                    f"ORDER BY {order} DESC, key DESC LIMIT 5"
                )
            )
            assert f"USING INDEX approvals_{status}" in plan, plan
            assert "TEMP B-TREE FOR ORDER BY" not in plan, plan  # not the whole table sorted
    finally:
        db.close()


def test_an_approval_of_a_record_without_a_decision_time_reads(tmp_path: Path) -> None:
    """An approval kept without ``decided`` reads, and is listed by when it was held."""
    body = (
        '{"request_id": "a-1", "tool": "transfer", "digest": "dd", "summary": "{}", '
        '"actor": "ann", "tenant": "acme", "status": "approved", "approver": "bob", '
        '"reason": null, "created": 5.0, "expires_at": null, "arguments": {}}'
    )
    approval = Approval.from_json(body)
    assert (approval.status, approval.decided, approval.created) == ("approved", None, 5.0)
    with SqliteStore(tmp_path / "boundary.db") as store:
        store.save_approval(approval)  # the store's own tables, made
    db = sqlite3.connect(tmp_path / "boundary.db")
    try:
        db.execute("UPDATE approvals SET body = ?", (body,))
        db.commit()
    finally:
        db.close()
    with SqliteStore(tmp_path / "boundary.db") as store:
        assert store.list_approvals(status="decided") == [approval]


def test_the_gate_records_when_a_call_was_decided() -> None:
    """``gate.approve`` and ``gate.reject`` keep the time of the decision: the listing's
    order."""
    import standard_tool as st
    from standard_tool.boundary import Gate

    @st.tool
    def send(to: str) -> str:
        """Send."""
        return to

    gate = Gate(approvals=lambda request: True)
    guarded = gate.guard(send)
    for request_id in ("r-1", "r-2"):
        with pytest.raises(ToolRefusedError):
            st.call(guarded, {"to": "x"}, {"request_id": request_id, "actor": "ann"})
    assert _listed(gate.store, "pending") == ["r-2", "r-1"]
    gate.reject("r-2", approver="bob", actor="ann", reason="no")
    gate.approve("r-1", approver="bob", actor="ann")
    decided = gate.store.list_approvals(status="decided")
    assert [(a.request_id, a.status) for a in decided] == [("r-1", "approved"), ("r-2", "rejected")]
    first, second = decided[0].decided, decided[1].decided
    assert first is not None and second is not None
    assert decided[1].created <= second <= first
