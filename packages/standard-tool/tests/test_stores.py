"""The memory and SQLite stores against the store contract, SQLite raced by processes."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from standard_tool.boundary import MemoryStore, SqliteStore, Store
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
