"""The memory and SQLite stores against the store contract, SQLite raced by processes."""

from __future__ import annotations

import functools
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from standard_tool.boundary import MemoryStore, RedisStore, SqliteStore, Store
from standard_tool.exceptions import UsageError
from standard_tool.testing import SharedStoreContract, StoreContract


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
