"""The store protocol as tests, for every :class:`~standard_tool.boundary.Store` to subclass:
each operation alone, and (for a store that processes share) raced by several processes."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import queue
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ..boundary._store import Store, refill
from ..boundary._types import Approval, Receipt

__all__ = ["SharedStoreContract", "StoreContract"]

ROUNDS = 200
"""How many operations each of them makes."""
WAIT = 120.0
"""The bound, in seconds, on starting the processes and on each one's answer."""


def _receipt(request_id: str = "r-1", **changes: Any) -> Receipt:
    fields: dict[str, Any] = {
        "request_id": request_id,
        "tool": "transfer",
        "digest": "d" * 64,
        "started": 1733312345.1234567,
        "lease_until": 1733312375.1234567,
    }
    return Receipt(**{**fields, **changes})


def _approval(request_id: str = "a-1", **changes: Any) -> Approval:
    fields: dict[str, Any] = {
        "request_id": request_id,
        "tool": "transfer",
        "digest": "d" * 64,
        "summary": "transfer 10 EUR to Zoë",
        "status": "approved",
        "created": 1000.0,
        "expires_at": 2000.0,
    }
    return Approval(**{**fields, **changes})


def _close(store: Store) -> None:
    close = getattr(store, "close", None)
    if close is not None:
        close()


class StoreContract:
    """Every behaviour of the :class:`~standard_tool.boundary.Store` protocol, each on a new,
    empty store. Subclass in a test module and implement :meth:`new_store`::

        class TestMyStore(StoreContract):
            def new_store(self, tmp_path):
                return MyStore(tmp_path / "store")

    A store with a ``close()`` method is closed after each test. Times are passed as ``now``
    (no test sleeps).
    """

    def new_store(self, tmp_path: Path) -> Store:
        """A new, empty store (``tmp_path`` is the test's own folder)."""
        raise NotImplementedError

    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[Store]:
        store = self.new_store(tmp_path)
        try:
            yield store
        finally:
            _close(store)

    def test_it_is_a_store(self, store: Store) -> None:
        assert isinstance(store, Store)

    def test_the_first_claim_of_a_request_id_wins(self, store: Store) -> None:
        first = _receipt()
        assert store.claim(first) is None
        assert store.claim(_receipt(started=5.0, tool="other")) == first
        assert store.receipt("r-1") == first
        assert store.claim(_receipt("r-2")) is None

    def test_a_receipt_is_replaced_only_while_it_is_unchanged(self, store: Store) -> None:
        running = _receipt()
        done = _receipt(state="succeeded", result={"ok": True}, finished=1733312346.5)
        assert not store.replace(running, done)  # nothing there
        assert store.receipt("r-1") is None
        store.claim(running)
        assert not store.replace(_receipt(started=running.started + 1), done)  # another start
        assert not store.replace(_receipt(state="failed"), done)  # another state
        assert store.receipt("r-1") == running
        assert store.replace(running, done)
        assert store.receipt("r-1") == done
        assert not store.replace(running, _receipt(state="failed", code="timeout"))
        assert store.receipt("r-1") == done

    def test_a_saved_receipt_reads_back_whole(self, store: Store) -> None:
        assert store.receipt("r-1") is None
        full = Receipt(
            request_id="r-1",
            tool="transfer",
            digest="e" * 64,
            state="failed",
            result={"rows": [1, 2.5, None, "Zoë ✓"], "nested": {"deep": [True, False]}},
            code="timeout",
            message="The call took too long.",
            effect_id="tx-42",
            started=1733312345.1234567,
            finished=1733312346.000001,
            lease_until=0.1 + 0.2,
        )
        store.save(full)
        assert store.receipt("r-1") == full
        assert [f.name for f in dataclasses.fields(Receipt)] == list(vars(full))
        store.save(_receipt(state="unknown_outcome"))  # whatever was there
        assert store.receipt("r-1") == _receipt(state="unknown_outcome")
        assert store.claim(_receipt()) == _receipt(state="unknown_outcome")

    def test_a_saved_approval_reads_back_whole(self, store: Store) -> None:
        assert store.approval("a-1") is None
        full = Approval(
            request_id="a-1",
            tool="transfer",
            digest="e" * 64,
            summary="transfer 10 EUR to Zoë ✓",
            actor="alice",
            tenant="acme",
            status="rejected",
            approver="bob",
            reason="not this week",
            created=1733312345.1234567,
            expires_at=1733315945.7654321,
        )
        store.save_approval(full)
        assert store.approval("a-1") == full
        pending = _approval(status="pending", expires_at=None)
        store.save_approval(pending)  # whatever was there
        assert store.approval("a-1") == pending
        assert store.approval("a-2") is None

    def test_an_approved_approval_is_used_once(self, store: Store) -> None:
        store.save_approval(_approval())
        used = store.use_approval("a-1", "d" * 64, now=1500.0)
        assert used == _approval(status="used")
        assert store.approval("a-1") == _approval(status="used")
        assert store.use_approval("a-1", "d" * 64, now=1500.0) is None
        assert store.use_approval("a-2", "d" * 64, now=1500.0) is None

    @pytest.mark.parametrize("status", ["pending", "rejected", "used"])
    def test_only_an_approved_approval_is_used(self, store: Store, status: str) -> None:
        store.save_approval(_approval(status=status))
        assert store.use_approval("a-1", "d" * 64, now=1500.0) is None
        assert store.approval("a-1") == _approval(status=status)

    def test_an_approval_is_used_only_by_its_digest(self, store: Store) -> None:
        store.save_approval(_approval())
        assert store.use_approval("a-1", "f" * 64, now=1500.0) is None
        assert store.approval("a-1") == _approval()
        assert store.use_approval("a-1", "d" * 64, now=1500.0) is not None

    def test_an_approval_is_used_only_before_it_expires(self, store: Store) -> None:
        store.save_approval(_approval())
        assert store.use_approval("a-1", "d" * 64, now=2000.0) is None  # at expiry: expired
        assert store.use_approval("a-1", "d" * 64, now=2000.5) is None
        assert store.approval("a-1") == _approval()
        assert store.use_approval("a-1", "d" * 64, now=1999.75) == _approval(status="used")
        store.save_approval(_approval("a-2", expires_at=None))  # never expires
        assert store.use_approval("a-2", "d" * 64, now=1e12) is not None

    def test_a_released_claim_frees_its_request_id(self, store: Store) -> None:
        claim = _receipt()
        assert not store.release(claim)  # nothing there
        store.claim(claim)
        assert not store.release(_receipt(started=claim.started + 1))  # another start
        assert not store.release(_receipt(state="failed"))  # another state
        assert store.receipt("r-1") == claim
        assert store.release(claim)
        assert store.receipt("r-1") is None
        again = _receipt(started=5.0)
        assert store.claim(again) is None  # free again
        assert not store.release(claim)  # another claim holds it now
        done = _receipt(state="succeeded", started=5.0, result={"ok": True})
        store.save(done)
        assert not store.release(again)  # it ran: its receipt stays
        assert store.receipt("r-1") == done

    def test_a_budget_without_a_period_never_refills(self, store: Store) -> None:
        k = ("k", 3, None)
        assert [store.take_all([k], now=0.0) for _ in range(5)] == [True] * 3 + [False] * 2
        assert not store.take_all([k], now=1e9)
        assert store.take_all([("other", 3, None)], now=0.0)  # each key its own bucket
        assert not store.take_all([("none", 0, None)], now=0.0)

    def test_a_budget_with_a_period_refills_evenly(self, store: Store) -> None:
        def take(now: float) -> bool:
            return store.take_all([("k", 2, 10.0)], now=now)

        assert [take(0.0) for _ in range(3)] == [True, True, False]
        assert [take(5.0) for _ in range(2)] == [True, False]
        assert not take(7.5)  # half a token
        assert take(10.0)  # the other half
        # Never more than the limit, however long it waited.
        assert [take(1000.0) for _ in range(3)] == [True, True, False]
        assert not take(999.0)  # time going back adds nothing

    def test_a_clock_that_reads_earlier_refills_nothing_then_or_later(self, store: Store) -> None:
        """A bucket keeps the latest time it was touched: a take at an earlier time (another
        machine's clock) must not make the time between refill twice."""
        times = [100.0, 50.0, 100.0, 105.0, 105.0]
        takes = [store.take_all([("skew", 2, 10.0)], now=now) for now in times]
        assert takes == [True, True, False, True, False]

    def test_a_budget_counts_as_refill_does(self, store: Store) -> None:
        """The store's bucket gives what :func:`refill` gives, to the last bit, at uneven
        times (a seeded random walk); a take that finds no unit changes nothing."""
        draw = random.Random(8785)
        tokens, updated, now = 3.0, 0.1, 0.1
        for _ in range(200):
            now += draw.choice([0.0, 0.1, 0.3, 1 / 3, 0.7, 2.9])
            left, expected = refill(tokens, updated, 3, 7.3, now)
            if expected:
                tokens, updated = left, max(updated, now)
            assert store.take_all([("k", 3, 7.3)], now=now) is expected, now

    def test_budgets_are_taken_all_or_none(self, store: Store) -> None:
        wide, narrow = ("wide", 3, None), ("narrow", 1, 1e9)
        assert store.take_all([wide, narrow], now=0.0)
        for _ in range(3):  # narrow is empty, first or last: wide keeps its units
            assert not store.take_all([wide, narrow], now=0.0)
            assert not store.take_all([narrow, wide], now=0.0)
        assert [store.take_all([wide], now=0.0) for _ in range(3)] == [True, True, False]
        assert store.take_all([], now=0.0)  # nothing asked: nothing lacks

    def test_a_key_listed_twice_gives_two_units(self, store: Store) -> None:
        twice = ("twice", 3, None)
        assert not store.take_all([twice] * 4, now=0.0)  # four of three: none taken
        assert store.take_all([twice] * 2, now=0.0)
        assert not store.take_all([twice] * 2, now=0.0)
        assert store.take_all([twice], now=0.0)
        assert not store.take_all([twice], now=0.0)

    def test_a_refund_gives_one_unit_back_never_past_the_limit(self, store: Store) -> None:
        k = ("k", 2, None)
        assert store.take_all([k, k], now=0.0)
        store.refund([k], now=0.0)
        assert [store.take_all([k], now=0.0) for _ in range(2)] == [True, False]
        store.refund([k, k, k], now=0.0)  # three back into a bucket of two: full
        assert [store.take_all([k], now=0.0) for _ in range(3)] == [True, True, False]
        store.refund([("new", 1, None)], now=0.0)  # never taken from: full already
        assert [store.take_all([("new", 1, None)], now=0.0) for _ in range(2)] == [True, False]
        # With a period: refilled up to the refund's time, then one unit back.
        p = ("p", 2, 10.0)
        assert store.take_all([p, p], now=0.0)
        store.refund([p], now=5.0)  # one refilled, one given back: full
        assert [store.take_all([p], now=5.0) for _ in range(3)] == [True, True, False]
        store.refund([p], now=1.0)  # an earlier clock refills nothing
        assert [store.take_all([p], now=5.0) for _ in range(2)] == [True, False]

    def test_a_refund_undoes_a_take(self, store: Store) -> None:
        """A bucket taken from and refunded gives what it would have given untouched."""
        touched, untouched = ("touched", 2, 10.0), ("untouched", 2, 10.0)
        assert store.take_all([touched, untouched], now=0.0)
        assert store.take_all([touched], now=4.0)
        store.refund([touched], now=4.0)
        times = [6.0, 6.0, 6.0, 8.0, 13.0, 13.0]
        for bucket in (touched, untouched):
            takes = [store.take_all([bucket], now=now) for now in times]
            assert takes == [True, True, False, False, True, False], bucket

    def test_a_tool_is_switched_off_and_on(self, store: Store) -> None:
        assert not store.is_disabled("transfer")
        store.set_disabled("transfer", True)
        store.set_disabled("transfer", True)
        assert store.is_disabled("transfer")
        assert not store.is_disabled("search")
        store.set_disabled("transfer", False)
        assert not store.is_disabled("transfer")
        store.set_disabled("transfer", False)
        assert not store.is_disabled("transfer")


def _race(opener: Callable[[], Store], start: Any, answers: Any, kind: str, budget: int) -> None:
    """One racing process: opens the store, waits for the others, then makes ``ROUNDS``
    operations of ``kind`` and puts what each answered (or its error) on ``answers``."""
    try:
        store = opener()
        try:
            start.wait(WAIT)
            out: list[Any] = []
            for index in range(ROUNDS):
                if kind == "claim":
                    held = store.claim(_receipt(f"r-{index}", started=float(os.getpid())))
                    out.append(held is None)
                elif kind == "take":
                    wide = ("wide", 2 * budget, None)  # never what runs out
                    out.append(store.take_all([wide, ("k", budget, None)], now=0.0))
                else:
                    out.append(store.use_approval(f"a-{index}", "d" * 64, now=1500.0) is not None)
            answers.put(out)
        finally:
            _close(store)
    except BaseException as error:  # the parent fails the test with it
        start.abort()  # the others stop waiting for this one
        answers.put(f"{type(error).__name__}: {error}")


class SharedStoreContract(StoreContract):
    """:class:`StoreContract`, and the same operations raced by several processes (started
    with ``spawn``) on one store: each request id claimed by exactly one, a budget of ``L``
    giving exactly ``L`` units in all (of ``2 L`` asked, each with a unit of a wider budget,
    which keeps every unit a refused take asked), each approval used by exactly one.

    Implement :meth:`opener`: a picklable callable that opens the same store each time it is
    called, in any process (e.g. ``functools.partial(SqliteStore, tmp_path / "db")``).
    """

    processes: ClassVar[int] = 4
    """How many processes race in each test."""

    @property
    def budget(self) -> int:
        """The budget the processes race for: half of what they all ask."""
        return self.processes * ROUNDS // 2

    def opener(self, tmp_path: Path) -> Callable[[], Store]:
        """Opens one new, empty store's place, the same one at each call."""
        raise NotImplementedError

    def new_store(self, tmp_path: Path) -> Store:
        return self.opener(tmp_path)()

    def race(self, tmp_path: Path, kind: str) -> list[list[bool]]:
        """What each of :attr:`processes` processes answered, racing ``kind`` operations."""
        context = multiprocessing.get_context("spawn")
        start = context.Barrier(self.processes)
        answers = context.Queue()
        opener = self.opener(tmp_path)
        processes = [
            context.Process(
                target=_race, args=(opener, start, answers, kind, self.budget), daemon=True
            )
            for _ in range(self.processes)
        ]
        for process in processes:
            process.start()
        try:
            out = [answers.get(timeout=WAIT) for _ in processes]
        except queue.Empty:
            pytest.fail(f"a process did not answer within {WAIT} s")
        finally:
            for process in processes:
                process.join(WAIT)
                if process.is_alive():
                    process.kill()
                    process.join(WAIT)
            answers.close()
            answers.join_thread()
        errors = [answer for answer in out if isinstance(answer, str)]
        assert not errors, errors
        return out

    def test_another_opening_sees_the_same_store(self, tmp_path: Path, store: Store) -> None:
        other = self.opener(tmp_path)()
        try:
            assert other.claim(_receipt()) is None
            assert store.claim(_receipt()) == _receipt()
            store.set_disabled("transfer", True)
            assert other.is_disabled("transfer")
        finally:
            _close(other)

    def test_processes_claim_each_request_id_once(self, tmp_path: Path) -> None:
        answers = self.race(tmp_path, "claim")
        winners = [sum(answer[index] for answer in answers) for index in range(ROUNDS)]
        assert winners == [1] * ROUNDS
        store = self.new_store(tmp_path)
        try:
            assert all(store.receipt(f"r-{index}") is not None for index in range(ROUNDS))
        finally:
            _close(store)

    def test_processes_take_exactly_a_budget(self, tmp_path: Path) -> None:
        """Each take asks a unit of a wide budget and of the one that runs out: every take
        refused leaves the wide one whole, so exactly half of it is left."""
        answers = self.race(tmp_path, "take")
        assert sum(sum(answer) for answer in answers) == self.budget
        store = self.new_store(tmp_path)
        try:
            wide = ("wide", 2 * self.budget, None)
            left = [store.take_all([wide], now=0.0) for _ in range(self.budget + 1)]
            assert left == [True] * self.budget + [False]
        finally:
            _close(store)

    def test_processes_use_each_approval_once(self, tmp_path: Path) -> None:
        store = self.new_store(tmp_path)
        try:
            for index in range(ROUNDS):
                store.save_approval(_approval(f"a-{index}"))
        finally:
            _close(store)
        answers = self.race(tmp_path, "use")
        winners = [sum(answer[index] for answer in answers) for index in range(ROUNDS)]
        assert winners == [1] * ROUNDS
