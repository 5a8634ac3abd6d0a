"""A :class:`~standard_tool.boundary.Store` in one SQLite file, shared by every process of
one machine that opens it (the embedded default: nothing to install or run)."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..exceptions import UsageError
from ._store import Bucket, refund_each, take_each
from ._types import Approval, Receipt

__all__ = ["SqliteStore"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS receipts (request_id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS approvals (request_id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS buckets (key TEXT PRIMARY KEY, tokens REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS disabled (tool TEXT PRIMARY KEY);
"""


class SqliteStore:
    """A :class:`~standard_tool.boundary.Store` in the SQLite database at ``path`` (made, with
    its tables, on first use), for every process on this machine that opens the same file.

    The database is in WAL mode (readers never wait for the writer). Each operation that reads
    then writes runs in one ``BEGIN IMMEDIATE`` transaction, which takes the file's write lock
    first, so two processes never interleave one; a process waits for that lock at most
    ``timeout`` seconds (SQLite's busy timeout), then ``sqlite3.OperationalError`` is raised.
    A store has one connection per process (a forked child opens its own), which its threads
    take in turn; :meth:`close` closes it. The file must be on a local disk (SQLite's locks
    are not reliable over a network file system).
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0) -> None:
        self.path = os.fspath(path)
        self.timeout = timeout
        self._lock = threading.RLock()
        self._held: tuple[int, sqlite3.Connection] | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"SqliteStore({self.path!r})"

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close this process's connection; using the store afterwards is a
        :class:`~standard_tool.exceptions.UsageError`."""
        with self._lock:
            self._closed = True
            held, self._held = self._held, None
            if held is not None and held[0] == os.getpid():
                held[1].close()

    def _connection(self) -> sqlite3.Connection:
        """This process's connection (opened on first use); call with the lock held."""
        if self._closed:
            raise UsageError(f"{self!r} is closed")
        if self._held is not None and self._held[0] == os.getpid():
            return self._held[1]
        connection = sqlite3.connect(
            self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
        )
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            self._wal(connection)
            connection.executescript(f"BEGIN IMMEDIATE; {SCHEMA} COMMIT;")
        except BaseException:
            connection.close()
            raise
        self._held = (os.getpid(), connection)
        return connection

    def _wal(self, connection: sqlite3.Connection) -> None:
        """Put the database in WAL mode (once, for every later connection): switching takes
        the file's lock without waiting for it, so a process that finds it taken tries again
        for up to ``timeout`` seconds."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    connection.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One read-modify-write transaction, holding the database's write lock from its
        start (``BEGIN IMMEDIATE``): committed at the end, rolled back on an exception."""
        with self._lock:
            connection = self._connection()
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def _run(self, sql: str, *params: Any) -> Any:
        """The first row of one statement (run alone: atomic), if it gives any."""
        with self._lock:
            return self._connection().execute(sql, params).fetchone()

    def claim(self, receipt: Receipt) -> Receipt | None:
        with self._write() as db:
            row = db.execute(
                "SELECT body FROM receipts WHERE request_id = ?", (receipt.request_id,)
            ).fetchone()
            if row is not None:
                return Receipt.from_json(row[0])
            db.execute(
                "INSERT INTO receipts VALUES (?, ?)", (receipt.request_id, receipt.to_json())
            )
            return None

    def replace(self, old: Receipt, new: Receipt) -> bool:
        with self._write() as db:
            row = db.execute(
                "SELECT body FROM receipts WHERE request_id = ?", (old.request_id,)
            ).fetchone()
            if row is None:
                return False
            held = Receipt.from_json(row[0])
            if (held.state, held.started) != (old.state, old.started):
                return False
            db.execute(
                "UPDATE receipts SET body = ? WHERE request_id = ?", (new.to_json(), old.request_id)
            )
            return True

    def release(self, claim: Receipt) -> bool:
        with self._write() as db:
            row = db.execute(
                "SELECT body FROM receipts WHERE request_id = ?", (claim.request_id,)
            ).fetchone()
            if row is None:
                return False
            held = Receipt.from_json(row[0])
            if (held.state, held.started) != (claim.state, claim.started):
                return False
            db.execute("DELETE FROM receipts WHERE request_id = ?", (claim.request_id,))
            return True

    def save(self, receipt: Receipt) -> None:
        self._run(
            "INSERT OR REPLACE INTO receipts VALUES (?, ?)", receipt.request_id, receipt.to_json()
        )

    def receipt(self, request_id: str) -> Receipt | None:
        row = self._run("SELECT body FROM receipts WHERE request_id = ?", request_id)
        return None if row is None else Receipt.from_json(row[0])

    def save_approval(self, approval: Approval) -> None:
        self._run(
            "INSERT OR REPLACE INTO approvals VALUES (?, ?)",
            approval.request_id,
            approval.to_json(),
        )

    def approval(self, request_id: str) -> Approval | None:
        row = self._run("SELECT body FROM approvals WHERE request_id = ?", request_id)
        return None if row is None else Approval.from_json(row[0])

    def use_approval(self, request_id: str, digest: str, now: float) -> Approval | None:
        with self._write() as db:
            row = db.execute(
                "SELECT body FROM approvals WHERE request_id = ?", (request_id,)
            ).fetchone()
            if row is None:
                return None
            held = Approval.from_json(row[0])
            if (
                held.status != "approved"
                or held.digest != digest
                or (held.expires_at is not None and held.expires_at <= now)
            ):
                return None
            held.status = "used"
            db.execute(
                "UPDATE approvals SET body = ? WHERE request_id = ?", (held.to_json(), request_id)
            )
            return held

    def take_all(self, buckets: Sequence[Bucket], now: float) -> bool:
        if not buckets:
            return True
        with self._write() as db:
            new = take_each(self._buckets(db, buckets), buckets, now)
            if new is None:
                return False
            self._keep(db, new)
            return True

    def refund(self, buckets: Sequence[Bucket], now: float) -> None:
        if not buckets:
            return
        with self._write() as db:
            self._keep(db, refund_each(self._buckets(db, buckets), buckets, now))

    def _buckets(
        self, db: sqlite3.Connection, buckets: Sequence[Bucket]
    ) -> dict[str, tuple[float, float]]:
        """The states (``(tokens, updated)``) of those of ``buckets`` the database holds."""
        keys = sorted({key for key, _, _ in buckets})
        rows = db.execute(
            f"SELECT key, tokens, updated FROM buckets WHERE key IN ({','.join('?' * len(keys))})",
            keys,
        ).fetchall()
        return {key: (tokens, updated) for key, tokens, updated in rows}

    def _keep(self, db: sqlite3.Connection, states: dict[str, tuple[float, float]]) -> None:
        db.executemany(
            "INSERT OR REPLACE INTO buckets VALUES (?, ?, ?)",
            [(key, tokens, updated) for key, (tokens, updated) in states.items()],
        )

    def set_disabled(self, tool: str, disabled: bool) -> None:
        if disabled:
            self._run("INSERT OR IGNORE INTO disabled VALUES (?)", tool)
        else:
            self._run("DELETE FROM disabled WHERE tool = ?", tool)

    def is_disabled(self, tool: str) -> bool:
        return self._run("SELECT 1 FROM disabled WHERE tool = ?", tool) is not None
