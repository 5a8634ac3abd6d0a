"""The store protocol as tests, for every :class:`~standard_tool.boundary.Store` to subclass:
each operation alone, raced by threads, and (for a store that processes share) raced by
several processes."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import queue
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ..boundary._store import Store, refill
from ..boundary._types import Approval, Receipt, record_key
from ..exceptions import UsageError

__all__ = ["SharedStoreContract", "StoreContract", "every_operation"]

ROUNDS = 200
"""How many operations each racing process makes."""
WAIT = 120.0
"""The bound, in seconds, on starting the processes (or threads) and on each one's answer."""
GO = 0.0002
"""How long, in seconds, the racing threads wait, busy, once all are ready for a round."""


def _key(request_id: str, tenant: str | None = "acme", actor: str | None = "alice") -> str:
    """Where the receipt or approval of ``request_id`` in the helpers' tenant and actor is."""
    return record_key(tenant, actor, request_id)


def _receipt(request_id: str = "r-1", **changes: Any) -> Receipt:
    fields: dict[str, Any] = {
        "request_id": request_id,
        "tool": "transfer",
        "digest": "d" * 64,
        "started": 1733312345.1234567,
        "lease_until": 1733312375.1234567,
        "tenant": "acme",
        "actor": "alice",
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
        "tenant": "acme",
        "actor": "alice",
        "arguments": {"amount": 10, "to": "Zoë"},
    }
    return Approval(**{**fields, **changes})


def _decision(request_id: str, status: str, approver: str, **changes: Any) -> Approval:
    """A person's decision on the pending approval of ``request_id`` (as :func:`_approval`)."""
    return _approval(request_id, status=status, approver=approver, **changes)


def _threads(count: int, rounds: int, step: Callable[[int, int], bool]) -> list[list[bool]]:
    """What ``step(number, index)`` answered in each of ``count`` threads (``number``) for
    each ``index`` of ``range(rounds)``; a thread that raised, or has not answered within
    :data:`WAIT` seconds, fails the test.

    The threads start each index together: once all have reached it, each waits, busy, until
    the same instant :data:`GO` later, so that all are running then; and Python switches
    threads every microsecond meanwhile. An operation made of two steps (a read, then a write)
    is then interrupted between them."""
    go = [0.0]

    def ready() -> None:
        go[0] = time.perf_counter() + GO

    together = threading.Barrier(count, action=ready)
    answers: list[list[bool]] = [[] for _ in range(count)]
    errors: list[BaseException] = []

    def run(number: int) -> None:
        try:
            for index in range(rounds):
                together.wait(WAIT)
                while time.perf_counter() < go[0]:
                    pass
                answers[number].append(step(number, index))
        except BaseException as error:  # the test fails with it (the first one raised)
            errors.append(error)
            together.abort()  # the others stop waiting for this one

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(n,), daemon=True) for n in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT)
    finally:
        sys.setswitchinterval(interval)
    if any(thread.is_alive() for thread in threads):
        pytest.fail(f"a thread did not answer within {WAIT} s")
    if errors:
        raise errors[0]
    return answers


def _claim_checked(store: Store) -> Callable[[Receipt], tuple[Receipt | None, bool]]:
    """The store's ``claim_checked``; the test is skipped for a store without one."""
    claim_checked = getattr(store, "claim_checked", None)
    if claim_checked is None:
        pytest.skip(f"{type(store).__name__} has no claim_checked")
    return claim_checked  # type: ignore[no-any-return]


def every_operation(store: Any, receipt: Receipt, approval: Approval) -> list[Callable[[], object]]:
    """One call of each of ``store``'s operations (``claim_checked`` too), on ``receipt`` and
    ``approval``: for a test that every one of them fails as it should."""
    return [
        lambda: store.claim(receipt),
        lambda: store.claim_checked(receipt),
        lambda: store.replace(receipt, receipt),
        lambda: store.release(receipt),
        lambda: store.save(receipt),
        lambda: store.receipt(receipt.key),
        lambda: store.save_approval(approval),
        lambda: store.approval(approval.key),
        lambda: store.decide(approval),
        lambda: store.use_approval(approval.key, "d" * 64, 0.0),
        lambda: store.take_all([("k", 1, None)], 0.0),
        lambda: store.refund([("k", 1, None)], 0.0),
        lambda: store.set_disabled("transfer", True),
        lambda: store.is_disabled("transfer"),
    ]


def _close(store: Store) -> None:
    close = getattr(store, "close", None)
    if close is not None:
        close()


def _listed(store: Any, status: str, **tenant: Any) -> list[str]:
    """The request ids of one listing of ``store``, in its order."""
    return [approval.request_id for approval in store.list_approvals(status=status, **tenant)]


class StoreContract:
    """Every behaviour of the :class:`~standard_tool.boundary.Store` protocol, each on a new,
    empty store. Subclass in a test module and implement :meth:`new_store`::

        class TestMyStore(StoreContract):
            def new_store(self, tmp_path):
                return MyStore(tmp_path / "store")

    A store with a ``close()`` method is closed after each test. Times are passed as ``now``
    (no test sleeps). Receipts and approvals are read back by their key (the request id
    within a tenant and an actor); a result read back never changes with what a caller did to
    the one it saved or read. Threads race on :meth:`~standard_tool.boundary.Store.decide`
    and on claims: each is one step. ``claim_checked`` is tested when the store has it
    (skipped when not).
    """

    threads: ClassVar[int] = 4
    """How many threads race in each threaded test."""
    thread_rounds: ClassVar[int] = 1000
    """How many operations each racing thread makes: enough for a race between two steps of
    one operation to show in a store in memory (threads of one process interleave less than
    processes do). A slow store (each operation rewriting a file, say) may set fewer."""

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
        assert store.receipt(_key("r-1")) == first
        assert store.claim(_receipt("r-2")) is None

    def test_a_receipt_is_replaced_only_while_it_is_unchanged(self, store: Store) -> None:
        running = _receipt()
        done = _receipt(state="succeeded", result={"ok": True}, finished=1733312346.5)
        assert not store.replace(running, done)  # nothing there
        assert store.receipt(_key("r-1")) is None
        store.claim(running)
        assert not store.replace(_receipt(started=running.started + 1), done)  # another start
        assert not store.replace(_receipt(state="failed"), done)  # another state
        assert store.receipt(_key("r-1")) == running
        assert store.replace(running, done)
        assert store.receipt(_key("r-1")) == done
        assert not store.replace(running, _receipt(state="failed", code="timeout"))
        assert store.receipt(_key("r-1")) == done

    def test_a_saved_receipt_reads_back_whole(self, store: Store) -> None:
        assert store.receipt(_key("r-1")) is None
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
            tenant="acme",
            actor="alice",
        )
        assert [f.name for f in dataclasses.fields(Receipt)] == list(vars(full))  # every one
        store.save(full)
        assert store.receipt(_key("r-1")) == full
        store.save(_receipt(state="unknown_outcome"))  # whatever was there
        assert store.receipt(_key("r-1")) == _receipt(state="unknown_outcome")
        assert store.claim(_receipt()) == _receipt(state="unknown_outcome")

    def test_a_saved_approval_reads_back_whole(self, store: Store) -> None:
        assert store.approval(_key("a-1")) is None
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
            arguments={"amount": 10.5, "to": "Zoë ✓", "note": "<secret>", "tags": [1, None]},
        )
        assert [f.name for f in dataclasses.fields(Approval)] == list(vars(full))  # every one
        store.save_approval(full)
        assert store.approval(_key("a-1")) == full
        pending = _approval(status="pending", expires_at=None)
        store.save_approval(pending)  # whatever was there
        assert store.approval(_key("a-1")) == pending
        assert store.approval(_key("a-2")) is None

    def test_an_approved_approval_is_used_once(self, store: Store) -> None:
        store.save_approval(_approval())
        used = store.use_approval(_key("a-1"), "d" * 64, now=1500.0)
        assert used == _approval(status="used")
        assert store.approval(_key("a-1")) == _approval(status="used")
        assert store.use_approval(_key("a-1"), "d" * 64, now=1500.0) is None
        assert store.use_approval(_key("a-2"), "d" * 64, now=1500.0) is None

    @pytest.mark.parametrize("status", ["pending", "rejected", "used"])
    def test_only_an_approved_approval_is_used(self, store: Store, status: str) -> None:
        store.save_approval(_approval(status=status))
        assert store.use_approval(_key("a-1"), "d" * 64, now=1500.0) is None
        assert store.approval(_key("a-1")) == _approval(status=status)

    def test_an_approval_is_used_only_by_its_digest(self, store: Store) -> None:
        store.save_approval(_approval())
        assert store.use_approval(_key("a-1"), "f" * 64, now=1500.0) is None
        assert store.approval(_key("a-1")) == _approval()
        assert store.use_approval(_key("a-1"), "d" * 64, now=1500.0) is not None

    def test_an_approval_is_used_only_before_it_expires(self, store: Store) -> None:
        store.save_approval(_approval())
        assert store.use_approval(_key("a-1"), "d" * 64, now=2000.0) is None  # at expiry: expired
        assert store.use_approval(_key("a-1"), "d" * 64, now=2000.5) is None
        assert store.approval(_key("a-1")) == _approval()
        assert store.use_approval(_key("a-1"), "d" * 64, now=1999.75) == _approval(status="used")
        store.save_approval(_approval("a-2", expires_at=None))  # never expires
        assert store.use_approval(_key("a-2"), "d" * 64, now=1e12) is not None

    def test_a_released_claim_frees_its_request_id(self, store: Store) -> None:
        claim = _receipt()
        assert not store.release(claim)  # nothing there
        store.claim(claim)
        assert not store.release(_receipt(started=claim.started + 1))  # another start
        assert not store.release(_receipt(state="failed"))  # another state
        assert store.receipt(_key("r-1")) == claim
        assert store.release(claim)
        assert store.receipt(_key("r-1")) is None
        again = _receipt(started=5.0)
        assert store.claim(again) is None  # free again
        assert not store.release(claim)  # another claim holds it now
        done = _receipt(state="succeeded", started=5.0, result={"ok": True})
        store.save(done)
        assert not store.release(again)  # it ran: its receipt stays
        assert store.receipt(_key("r-1")) == done

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

    def test_receipts_are_kept_under_their_key(self, store: Store) -> None:
        """One request id in other tenants or of other actors is another receipt: no claim,
        replace, release or save of one reaches another, nor the bare request id."""
        ann, bob = _receipt(actor="ann"), _receipt(actor="bob")
        globex, nobody = _receipt(tenant="globex"), _receipt(tenant=None, actor=None)
        mine = [ann, bob, globex, nobody]
        for receipt in mine:
            assert store.claim(receipt) is None
        assert [store.receipt(receipt.key) for receipt in mine] == mine
        assert store.receipt("r-1") is None
        done = _receipt(actor="ann", state="succeeded", result=1)
        assert store.replace(ann, done)
        assert store.release(bob)
        failed = _receipt(tenant=None, actor=None, state="failed", code="denied")
        store.save(failed)
        assert [store.receipt(receipt.key) for receipt in mine] == [done, None, globex, failed]
        assert store.claim(_receipt(actor="bob", started=5.0)) is None  # bob's key is free

    def test_approvals_are_kept_under_their_key(self, store: Store) -> None:
        ann, bob = _approval(actor="ann"), _approval(actor="bob", status="pending")
        globex = _approval(tenant="globex", status="pending")
        mine = [ann, bob, globex]
        for approval in mine:
            store.save_approval(approval)
        assert [store.approval(approval.key) for approval in mine] == mine
        assert store.approval("a-1") is None
        assert store.use_approval(ann.key, "d" * 64, now=1500.0) == _approval(
            actor="ann", status="used"
        )
        assert store.decide(_decision("a-1", "rejected", "carol", actor="bob"))
        assert store.approval(globex.key) == globex
        assert store.use_approval(globex.key, "d" * 64, now=1500.0) is None
        assert store.use_approval(_key("a-1", actor="bob"), "d" * 64, now=1500.0) is None

    def test_a_pending_approval_is_decided_once(self, store: Store) -> None:
        store.save_approval(_approval(status="pending", expires_at=None))
        approved = _decision("a-1", "approved", "bob", reason="fine", expires_at=1800.0)
        assert store.decide(approved)
        assert store.approval(_key("a-1")) == approved
        assert not store.decide(_decision("a-1", "rejected", "carol"))  # decided already
        assert not store.decide(approved)
        assert store.approval(_key("a-1")) == approved

    @pytest.mark.parametrize("status", ["approved", "rejected", "used"])
    def test_only_a_pending_approval_is_decided(self, store: Store, status: str) -> None:
        store.save_approval(_approval(status=status))
        assert not store.decide(_decision("a-1", "approved", "bob"))
        assert not store.decide(_decision("a-1", "rejected", "bob"))
        assert store.approval(_key("a-1")) == _approval(status=status)

    def test_an_approval_is_decided_only_with_its_digest(self, store: Store) -> None:
        assert not store.decide(_decision("a-1", "approved", "bob"))  # nothing there
        assert store.approval(_key("a-1")) is None  # nor made
        pending = _approval(status="pending")
        store.save_approval(pending)
        assert not store.decide(_decision("a-1", "approved", "bob", digest="f" * 64))
        assert store.approval(_key("a-1")) == pending
        assert store.decide(_decision("a-1", "approved", "bob"))

    def test_a_decided_approval_is_used_as_decided(self, store: Store) -> None:
        """What :meth:`use_approval` checks is what the decision said: its status, its
        expiry (the pending approval had none)."""
        store.save_approval(_approval(status="pending", expires_at=None))
        assert store.decide(_decision("a-1", "approved", "bob", expires_at=1800.0))
        assert store.use_approval(_key("a-1"), "d" * 64, now=1800.0) is None  # expired
        used = store.use_approval(_key("a-1"), "d" * 64, now=1500.0)
        assert used == _decision("a-1", "used", "bob", expires_at=1800.0)
        assert store.approval(_key("a-1")) == used
        store.save_approval(_approval("a-2", status="pending"))
        assert store.decide(_decision("a-2", "rejected", "bob"))
        assert store.use_approval(_key("a-2"), "d" * 64, now=1500.0) is None

    def test_threads_decide_each_approval_once(self, store: Store) -> None:
        """Threads approving and threads rejecting race on each approval: exactly one decision
        of each is taken, and it is the one kept (a decide that reads, then writes, lets two
        through)."""
        for index in range(self.thread_rounds):
            store.save_approval(_approval(f"a-{index}", status="pending"))

        def decide(number: int, index: int) -> bool:
            status = ("approved", "rejected")[number % 2]
            return store.decide(_decision(f"a-{index}", status, f"thread-{number}"))

        answers = _threads(self.threads, self.thread_rounds, decide)
        for index in range(self.thread_rounds):
            winners = [number for number, answer in enumerate(answers) if answer[index]]
            assert len(winners) == 1, (index, winners)
            held = store.approval(_key(f"a-{index}"))
            assert held is not None
            assert (held.status, held.approver) == (
                ("approved", "rejected")[winners[0] % 2],
                f"thread-{winners[0]}",
            )

    def test_a_checked_claim_claims_and_reads_the_switch(self, store: Store) -> None:
        claim_checked = _claim_checked(store)
        first = _receipt()
        assert claim_checked(first) == (None, False)
        assert claim_checked(_receipt(started=5.0)) == (first, False)
        assert store.receipt(_key("r-1")) == first
        store.set_disabled("transfer", True)
        assert claim_checked(_receipt("r-2")) == (None, True)  # claimed all the same
        assert store.receipt(_key("r-2")) == _receipt("r-2")
        assert claim_checked(_receipt("r-2", started=5.0)) == (_receipt("r-2"), True)
        assert claim_checked(_receipt("r-3", tool="search")) == (None, False)
        assert store.claim(_receipt("r-3", tool="search")) == _receipt("r-3", tool="search")
        store.set_disabled("transfer", False)
        assert claim_checked(_receipt("r-4")) == (None, False)

    def test_threads_claim_each_request_id_once(self, store: Store) -> None:
        """Threads claiming each request id, all but one with ``claim_checked`` when the store
        has it: exactly one claim of each wins."""
        claim_checked = getattr(store, "claim_checked", None)

        def claim(number: int, index: int) -> bool:
            receipt = _receipt(f"r-{index}", started=float(number))
            if claim_checked is not None and number % 4:
                return claim_checked(receipt)[0] is None
            return store.claim(receipt) is None

        answers = _threads(self.threads, self.thread_rounds, claim)
        rounds = range(self.thread_rounds)
        assert [sum(answer[index] for answer in answers) for index in rounds] == [1] * len(rounds)

    def test_approvals_are_listed_for_an_inbox(self, store: Store) -> None:
        """The inbox's listing of ``store``: pending newest first, decided the one decided last
        first, per tenant (none: its own; ``...``: every one), bounded by ``limit``."""

        def held(request_id: str, tenant: str | None, created: float, **more: Any) -> Approval:
            return Approval(
                request_id, "transfer", "d" * 64, "{}", "ann", tenant, created=created, **more
            )

        for request_id, tenant, created in [
            ("a-1", "acme", 1.0),
            ("g-1", "globex", 2.0),
            ("a-2", "acme", 3.0),
            ("n-1", None, 4.0),
            ("d-1", "-", 5.0),  # a tenant named as none is written in a key
            ("d-2", "1:-", 6.0),  # and one named as that one is written
            ("a-3", "acme", 3.0),  # a tie: the greater key first
        ]:
            store.save_approval(held(request_id, tenant, created))
        assert _listed(store, "pending") == ["d-2", "d-1", "n-1", "a-3", "a-2", "g-1", "a-1"]
        assert _listed(store, "pending", tenant="acme") == ["a-3", "a-2", "a-1"]
        assert _listed(store, "pending", tenant="globex") == ["g-1"]
        assert _listed(store, "pending", tenant=None) == ["n-1"]
        assert _listed(store, "pending", tenant="-") == ["d-1"]
        assert _listed(store, "pending", tenant="1:-") == ["d-2"]
        assert _listed(store, "pending", tenant="nobody") == []
        assert _listed(store, "pending", limit=2) == ["d-2", "d-1"]
        assert _listed(store, "pending", tenant="acme", limit=1) == ["a-3"]
        assert _listed(store, "decided") == []

        assert store.decide(
            held("a-1", "acme", 1.0, status="approved", approver="bob", decided=10.0)
        )
        assert store.decide(
            held("g-1", "globex", 2.0, status="rejected", approver="cy", reason="no", decided=8.0)
        )
        assert store.decide(held("n-1", None, 4.0, status="approved", approver="bob", decided=9.0))
        # a record without a decision time is listed by the time its call was held
        store.save_approval(held("a-4", "acme", 7.0, status="rejected", approver="bob"))
        assert _listed(store, "pending") == ["d-2", "d-1", "a-3", "a-2"]
        assert _listed(store, "decided") == ["a-1", "n-1", "g-1", "a-4"]
        assert _listed(store, "decided", tenant="acme") == ["a-1", "a-4"]
        assert _listed(store, "decided", tenant="globex") == ["g-1"]
        assert _listed(store, "decided", tenant=None) == ["n-1"]
        assert _listed(store, "decided", limit=3) == ["a-1", "n-1", "g-1"]
        [rejected] = store.list_approvals(status="decided", tenant="globex")
        assert (rejected.status, rejected.approver, rejected.reason, rejected.decided) == (
            "rejected",
            "cy",
            "no",
            8.0,
        )

        # a used approval stays where its decision put it, used
        assert store.use_approval(held("a-1", "acme", 1.0).key, "d" * 64, now=11.0) is not None
        listed = store.list_approvals(status="decided", tenant="acme")
        assert [(a.request_id, a.status, a.decided) for a in listed] == [
            ("a-1", "used", 10.0),
            ("a-4", "rejected", None),
        ]
        # held again (a new request to a person): pending again, no longer decided
        store.save_approval(held("a-1", "acme", 12.0))
        assert _listed(store, "pending", tenant="acme") == ["a-1", "a-3", "a-2"]
        assert _listed(store, "decided", tenant="acme") == ["a-4"]
        # a tenant's listing never shows another tenant's approvals
        for status in ("pending", "decided"):
            for tenant in ("acme", "globex", None, "-", "1:-"):
                assert {
                    approval.tenant
                    for approval in store.list_approvals(status=status, tenant=tenant)
                } <= {tenant}
        # what a listing gives is the store's whole record, and the caller's own copy
        first = store.list_approvals(status="pending", tenant="acme", limit=1)[0]
        assert first == held("a-1", "acme", 12.0)
        first.status = "approved"
        assert store.list_approvals(status="pending", tenant="acme", limit=1)[0].status == "pending"

        for wrong in (
            {"status": "approved"},
            {"status": "pending", "limit": 0},
            {"status": "pending", "limit": True},
            {"status": "pending", "tenant": 5},
        ):
            with pytest.raises(UsageError):
                store.list_approvals(**wrong)

    def test_a_result_is_never_shared_with_a_caller(self, store: Store) -> None:
        """A receipt's result, a dict, changed by a caller after it was saved or read, reads
        back as it was saved: what a replay answers never changes."""

        def result() -> dict[str, Any]:
            return {"rows": [{"id": 1}], "total": 1}

        def done(request_id: str) -> Receipt:
            return _receipt(request_id, state="succeeded", result=result())

        def spoil(receipt: Receipt | None) -> None:
            assert receipt is not None
            receipt.result["rows"][0]["id"] = 666
            receipt.result["total"] = 666

        saved = done("r-1")
        store.save(saved)
        spoil(saved)
        spoil(store.receipt(_key("r-1")))
        spoil(store.claim(_receipt()))
        claim_checked = getattr(store, "claim_checked", None)
        if claim_checked is not None:
            spoil(claim_checked(_receipt())[0])
        claimed = done("r-2")
        assert store.claim(claimed) is None
        spoil(claimed)
        assert store.claim(_receipt("r-3")) is None
        replaced = done("r-3")
        assert store.replace(_receipt("r-3"), replaced)
        spoil(replaced)
        for request_id in ("r-1", "r-2", "r-3"):
            assert store.receipt(_key(request_id)) == done(request_id), request_id


def _race(
    opener: Callable[[], Store], start: Any, answers: Any, number: int, kind: str, budget: int
) -> None:
    """One racing process (the ``number``-th): opens the store, then makes ``ROUNDS``
    operations of ``kind``, each once every process is ready for its own (``start``, a barrier
    of them all), and puts its number and what each answered (or its error) on ``answers``."""
    try:
        store = opener()
        try:
            out: list[Any] = []
            for index in range(ROUNDS):
                start.wait(WAIT)
                if kind in ("claim", "claim_checked"):
                    receipt = _receipt(f"r-{index}", started=float(os.getpid()))
                    if kind == "claim":
                        out.append(store.claim(receipt) is None)
                    else:
                        out.append(_claim_checked(store)(receipt)[0] is None)
                elif kind == "take":
                    wide = ("wide", 2 * budget, None)  # never what runs out
                    out.append(store.take_all([wide, ("k", budget, None)], now=0.0))
                elif kind in ("approved", "rejected"):
                    decision = _decision(f"a-{index}", kind, f"process-{number}")
                    out.append(store.decide(decision))
                else:
                    used = store.use_approval(_key(f"a-{index}"), "d" * 64, now=1500.0)
                    out.append(used is not None)
            answers.put((number, out))
        finally:
            _close(store)
    except BaseException as error:  # the parent fails the test with it
        start.abort()  # the others stop waiting for this one
        answers.put((number, f"{type(error).__name__}: {error}"))


class SharedStoreContract(StoreContract):
    """:class:`StoreContract`, and the same operations raced by several processes (started
    with ``spawn``) on one store: each request id claimed by exactly one (``claim`` against
    ``claim_checked`` too, when the store has it), a budget of ``L`` giving exactly ``L``
    units in all (of ``2 L`` asked, each with a unit of a wider budget, which keeps every unit
    a refused take asked), each approval used by exactly one, and decided by exactly one of
    those approving and those rejecting it.

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

    def race(self, tmp_path: Path, *kinds: str) -> list[list[bool]]:
        """What each of :attr:`processes` processes answered, in their order, racing
        operations of ``kinds`` (the ``n``-th process those of ``kinds[n % len(kinds)]``)."""
        context = multiprocessing.get_context("spawn")
        start = context.Barrier(self.processes)
        answers = context.Queue()
        opener = self.opener(tmp_path)
        processes = [
            context.Process(
                target=_race,
                args=(opener, start, answers, number, kinds[number % len(kinds)], self.budget),
                daemon=True,
            )
            for number in range(self.processes)
        ]
        for process in processes:
            process.start()
        try:
            out = dict(answers.get(timeout=WAIT) for _ in processes)
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
        errors = [answer for answer in out.values() if isinstance(answer, str)]
        assert not errors, errors
        return [out[number] for number in range(self.processes)]

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
            assert all(store.receipt(_key(f"r-{index}")) is not None for index in range(ROUNDS))
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

    def test_processes_claim_each_request_id_once_checked_or_not(self, tmp_path: Path) -> None:
        """``claim`` against ``claim_checked``: one step each, so exactly one wins."""
        store = self.new_store(tmp_path)
        try:
            _claim_checked(store)
        finally:
            _close(store)
        answers = self.race(tmp_path, "claim", "claim_checked")
        winners = [sum(answer[index] for answer in answers) for index in range(ROUNDS)]
        assert winners == [1] * ROUNDS

    def test_processes_decide_each_approval_once(self, tmp_path: Path) -> None:
        """Processes approving and processes rejecting race on each pending approval: exactly
        one decision of each is taken, and it is the one kept."""
        store = self.new_store(tmp_path)
        try:
            for index in range(ROUNDS):
                store.save_approval(_approval(f"a-{index}", status="pending"))
        finally:
            _close(store)
        kinds = ("approved", "rejected")
        answers = self.race(tmp_path, *kinds)
        store = self.new_store(tmp_path)
        try:
            for index in range(ROUNDS):
                winners = [number for number, answer in enumerate(answers) if answer[index]]
                assert len(winners) == 1, (index, winners)
                held = store.approval(_key(f"a-{index}"))
                assert held is not None
                assert (held.status, held.approver) == (
                    kinds[winners[0] % 2],
                    f"process-{winners[0]}",
                )
        finally:
            _close(store)
