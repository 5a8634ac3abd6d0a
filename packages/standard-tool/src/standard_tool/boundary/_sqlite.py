"""A :class:`~standard_tool.boundary.Store` in one SQLite file, shared by every process of
one machine that opens it (the embedded default: nothing to install or run)."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import EllipsisType
from typing import Any, Literal

from ..exceptions import StoreError, UsageError
from ._store import Bucket, check_listing, refund_each, take_each
from ._types import Approval, Receipt

__all__ = ["SqliteStore"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS receipts (key TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS approvals (key TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS buckets (key TEXT PRIMARY KEY, tokens REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS disabled (tool TEXT PRIMARY KEY);
CREATE INDEX IF NOT EXISTS approvals_pending
    ON approvals (json_extract(body, '$.status'), json_extract(body, '$.created'));
CREATE INDEX IF NOT EXISTS approvals_decided
    ON approvals (coalesce(json_extract(body, '$.decided'), json_extract(body, '$.created')));
"""

LISTED = {
    "pending": (
        "json_extract(body, '$.status') = 'pending'",
        "json_extract(body, '$.created')",
    ),
    "decided": (
        "json_extract(body, '$.status') != 'pending'",
        "coalesce(json_extract(body, '$.decided'), json_extract(body, '$.created'))",
    ),
}
"""What :meth:`SqliteStore.list_approvals` selects and orders by, for each status it takes
(the expressions of the table's indexes)."""


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

    Receipts and approvals are kept under their ``key`` (tables ``receipts`` and
    ``approvals``: ``key``, and the JSON ``body``; the approvals indexed by status and time for
    :meth:`list_approvals`). The store remembers the file it opened
    (its device and inode): once that file is deleted, moved away or replaced, every operation
    raises :class:`~standard_tool.exceptions.StoreError` naming the path, and nothing makes a
    new, empty file there (its receipts, budgets and switches would start again from nothing).
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0) -> None:
        self.path = os.fspath(path)
        self.timeout = timeout
        self._lock = threading.RLock()
        self._held: tuple[int, sqlite3.Connection] | None = None
        self._closed = False
        self._file = None if self.path in ("", ":memory:") else os.path.abspath(self.path)
        """The database file's absolute path (``None`` for a database in memory)."""
        self._identity: tuple[int, int] | None = None
        """The ``(st_dev, st_ino)`` of the file this store opened first."""

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
        """This process's connection (opened on first use), once the file at the path is
        still the one the store opened; call with the lock held."""
        if self._closed:
            raise UsageError(f"{self!r} is closed")
        held = self._held
        if held is not None and held[0] == os.getpid():
            self._check()
            return held[1]
        connection = self._open()
        self._held = (os.getpid(), connection)
        return connection

    def _open(self) -> sqlite3.Connection:
        """A new connection, with the database in WAL mode and its tables made. The store's
        first one makes the file if it is not there and remembers it; a later one (a forked
        child's) opens only that same file, never a new one."""
        file = self._file
        if file is not None and self._identity is not None:
            target, uri = f"{Path(file).as_uri()}?mode=rw", True  # never makes a file
        else:
            target, uri = file or self.path, False
        try:
            connection = sqlite3.connect(
                target,
                timeout=self.timeout,
                isolation_level=None,
                check_same_thread=False,
                uri=uri,
            )
        except sqlite3.OperationalError:
            self._check()  # a file that is gone says so
            raise
        try:
            self._check()
            connection.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            self._wal(connection)
            connection.executescript(f"BEGIN IMMEDIATE; {SCHEMA} COMMIT;")
            for table in ("receipts", "approvals"):
                columns = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
                if "key" not in columns:
                    raise StoreError(
                        f"the SQLite database {self.path!r} keeps its {table} by request id "
                        "alone (an earlier form of this store, which let callers meet): give "
                        "the store a new file"
                    )
            if file is not None and self._identity is None:
                info = os.stat(file)
                self._identity = (info.st_dev, info.st_ino)
        except BaseException:
            connection.close()
            raise
        return connection

    def _check(self) -> None:
        """Raise :class:`StoreError` if the file this store opened is no longer at its path."""
        if self._identity is None or self._file is None:
            return
        try:
            info = os.stat(self._file)
        except OSError as error:
            raise StoreError(
                f"the SQLite database {self.path!r} is gone ({error.strerror}): the store will "
                "not make a new, empty one there"
            ) from None
        if (info.st_dev, info.st_ino) != self._identity:
            raise StoreError(
                f"the SQLite database {self.path!r} was replaced by another file: the store "
                "will not use it"
            )

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
            return self._claim(db, receipt)

    def claim_checked(self, receipt: Receipt) -> tuple[Receipt | None, bool]:
        """:meth:`claim`, then whether ``receipt.tool`` is switched off, in one transaction."""
        with self._write() as db:
            held = self._claim(db, receipt)
            row = db.execute("SELECT 1 FROM disabled WHERE tool = ?", (receipt.tool,)).fetchone()
            return held, row is not None

    def _claim(self, db: sqlite3.Connection, receipt: Receipt) -> Receipt | None:
        key = receipt.key
        row = db.execute("SELECT body FROM receipts WHERE key = ?", (key,)).fetchone()
        if row is not None:
            return Receipt.from_json(row[0])
        db.execute("INSERT INTO receipts VALUES (?, ?)", (key, receipt.to_json()))
        return None

    def _held_receipt(self, db: sqlite3.Connection, like: Receipt) -> bool:
        """Whether the receipt under ``like.key`` is still ``like`` (same state and start)."""
        row = db.execute("SELECT body FROM receipts WHERE key = ?", (like.key,)).fetchone()
        if row is None:
            return False
        held = Receipt.from_json(row[0])
        return (held.state, held.started) == (like.state, like.started)

    def replace(self, old: Receipt, new: Receipt) -> bool:
        with self._write() as db:
            if not self._held_receipt(db, old):
                return False
            db.execute("UPDATE receipts SET body = ? WHERE key = ?", (new.to_json(), old.key))
            return True

    def release(self, claim: Receipt) -> bool:
        with self._write() as db:
            if not self._held_receipt(db, claim):
                return False
            db.execute("DELETE FROM receipts WHERE key = ?", (claim.key,))
            return True

    def save(self, receipt: Receipt) -> None:
        self._run("INSERT OR REPLACE INTO receipts VALUES (?, ?)", receipt.key, receipt.to_json())

    def receipt(self, key: str) -> Receipt | None:
        row = self._run("SELECT body FROM receipts WHERE key = ?", key)
        return None if row is None else Receipt.from_json(row[0])

    def save_approval(self, approval: Approval) -> None:
        self._run(
            "INSERT OR REPLACE INTO approvals VALUES (?, ?)", approval.key, approval.to_json()
        )

    def approval(self, key: str) -> Approval | None:
        row = self._run("SELECT body FROM approvals WHERE key = ?", key)
        return None if row is None else Approval.from_json(row[0])

    def decide(self, decision: Approval) -> bool:
        key = decision.key
        with self._write() as db:
            row = db.execute("SELECT body FROM approvals WHERE key = ?", (key,)).fetchone()
            if row is None:
                return False
            held = Approval.from_json(row[0])
            if held.status != "pending" or held.digest != decision.digest:
                return False
            db.execute("UPDATE approvals SET body = ? WHERE key = ?", (decision.to_json(), key))
            return True

    def use_approval(self, key: str, digest: str, now: float) -> Approval | None:
        with self._write() as db:
            row = db.execute("SELECT body FROM approvals WHERE key = ?", (key,)).fetchone()
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
            db.execute("UPDATE approvals SET body = ? WHERE key = ?", (held.to_json(), key))
            return held

    def list_approvals(
        self,
        *,
        status: Literal["pending", "decided"],
        tenant: str | None | EllipsisType = ...,
        limit: int = 50,
    ) -> list[Approval]:
        """See :meth:`Store.list_approvals`: one query, on the table's
        indexes."""
        check_listing(status, tenant, limit)
        where, order = LISTED[status]
        params: list[Any] = []
        if tenant is not ...:
            where += " AND json_extract(body, '$.tenant') IS ?"
            params.append(tenant)
        with self._lock:
            rows = (
                self._connection()
                .execute(
                    f"SELECT body FROM approvals WHERE {where} "
                    f"ORDER BY {order} DESC, key DESC LIMIT ?",
                    (*params, limit),
                )
                .fetchall()
            )
        return [Approval.from_json(row[0]) for row in rows]

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
