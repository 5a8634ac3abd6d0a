"""Where a gate keeps what must outlive one call: receipts, approvals, budgets, the kill
switch. One small protocol; :class:`MemoryStore` for one process, ``SqliteStore`` for several
processes on one machine, ``RedisStore`` for several machines."""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from ._types import Approval, Receipt

__all__ = ["Bucket", "MemoryStore", "Store", "refill", "refund_each", "take_each"]

Bucket = tuple[str, int, float | None]
"""One budget bucket of a call: its store key, its limit and its period in seconds (``None``:
never refilled), as :meth:`Store.take_all` and :meth:`Store.refund` take them."""


@runtime_checkable
class Store(Protocol):
    """What a :class:`~standard_tool.boundary.Gate` keeps, each operation atomic across every
    process that shares the store. A gate never changes a receipt it has given to the store or
    been given by it: a store may keep and hand back the objects themselves."""

    def claim(self, receipt: Receipt) -> Receipt | None:
        """Record ``receipt`` (a call starting) unless its request id has one already; return
        the one already there, or ``None`` when this call claimed the id."""
        ...

    def replace(self, old: Receipt, new: Receipt) -> bool:
        """Put ``new`` in place of the receipt of ``old.request_id`` if that is still ``old``
        (same state and start); return whether it was."""
        ...

    def release(self, claim: Receipt) -> bool:
        """Remove the receipt of ``claim.request_id`` if it is still ``claim`` (same state and
        start, as :meth:`replace` compares), so that the request id is free again (a claimed
        call was refused before it ran); return whether it was."""
        ...

    def save(self, receipt: Receipt) -> None:
        """Record ``receipt`` (a call's outcome), whatever was there."""
        ...

    def receipt(self, request_id: str) -> Receipt | None:
        """The receipt of ``request_id``, if any."""
        ...

    def save_approval(self, approval: Approval) -> None:
        """Record ``approval`` under its request id, whatever was there."""
        ...

    def approval(self, request_id: str) -> Approval | None:
        """The approval request of ``request_id``, if any."""
        ...

    def use_approval(self, request_id: str, digest: str, now: float) -> Approval | None:
        """Mark the approval of ``request_id`` used and return it, if it is ``approved``, bound
        to ``digest`` and not expired at ``now``; else change nothing and return ``None``."""
        ...

    def take_all(self, buckets: Sequence[Bucket], now: float) -> bool:
        """Take one unit from each bucket of ``buckets`` (``(key, limit, per)``: ``limit``
        units, refilled evenly over ``per`` seconds, never when ``per`` is ``None``, as
        :func:`refill` computes; a key listed twice gives two units), all or none: when one
        lacks a unit, no bucket changes. Return whether they were taken."""
        ...

    def refund(self, buckets: Sequence[Bucket], now: float) -> None:
        """Give one unit back to each bucket of ``buckets`` (taken by a call that then did not
        run), never past its limit."""
        ...

    def set_disabled(self, tool: str, disabled: bool) -> None:
        """Switch ``tool`` off (or on again) for every process sharing the store."""
        ...

    def is_disabled(self, tool: str) -> bool:
        """Whether ``tool`` is switched off."""
        ...


def refill(
    tokens: float, updated: float, limit: int, per: float | None, now: float
) -> tuple[float, bool]:
    """A token bucket at ``now``: the tokens left after taking one, and whether one was there.

    ``tokens`` and ``updated`` are the bucket's state when it was last touched (a new bucket
    is full: ``tokens == limit``). A store keeps ``max(updated, now)`` as the new ``updated``:
    a clock that reads earlier (another machine's, say) must not refill the time twice.
    """
    tokens = _refilled(tokens, updated, limit, per, now)
    if tokens >= 1.0:
        return tokens - 1.0, True
    return tokens, False


def _refilled(tokens: float, updated: float, limit: int, per: float | None, now: float) -> float:
    if per is not None and per > 0 and now > updated:
        return min(float(limit), tokens + (now - updated) * limit / per)
    return tokens


def take_each(
    states: Mapping[str, tuple[float, float]], buckets: Iterable[Bucket], now: float
) -> dict[str, tuple[float, float]] | None:
    """The new states (``(tokens, updated)``) of ``buckets`` once one unit is taken from each
    (a key listed twice gives two), from their ``states`` (a key not there is a full bucket);
    ``None`` when one lacks a unit. What :meth:`Store.take_all` writes, all of it or nothing."""
    new: dict[str, tuple[float, float]] = {}
    for key, limit, per in buckets:
        tokens, updated = new[key] if key in new else states.get(key, (float(limit), now))
        tokens, taken = refill(tokens, updated, limit, per, now)
        if not taken:
            return None
        new[key] = (tokens, max(updated, now))
    return new


def refund_each(
    states: Mapping[str, tuple[float, float]], buckets: Iterable[Bucket], now: float
) -> dict[str, tuple[float, float]]:
    """The new states of ``buckets`` once one unit is given back to each, never past its limit
    (from their ``states``, as :func:`take_each`): what :meth:`Store.refund` writes."""
    new: dict[str, tuple[float, float]] = {}
    for key, limit, per in buckets:
        tokens, updated = new[key] if key in new else states.get(key, (float(limit), now))
        tokens = min(float(limit), _refilled(tokens, updated, limit, per, now) + 1.0)
        new[key] = (tokens, max(updated, now))
    return new


class MemoryStore:
    """A :class:`Store` in this process's memory (lost when it ends; not shared).

    Receipts are kept and handed back as they are (a gate never changes a receipt once a
    store holds it); approvals, which an app changes, are copied both ways."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._receipts: dict[str, Receipt] = {}
        self._approvals: dict[str, Approval] = {}
        self._buckets: dict[str, tuple[float, float]] = {}
        self._disabled: set[str] = set()

    def claim(self, receipt: Receipt) -> Receipt | None:
        with self._lock:
            held = self._receipts.get(receipt.request_id)
            if held is not None:
                return held
            self._receipts[receipt.request_id] = receipt
            return None

    def replace(self, old: Receipt, new: Receipt) -> bool:
        with self._lock:
            held = self._receipts.get(old.request_id)
            if held is None or (held.state, held.started) != (old.state, old.started):
                return False
            self._receipts[old.request_id] = new
            return True

    def release(self, claim: Receipt) -> bool:
        with self._lock:
            held = self._receipts.get(claim.request_id)
            if held is None or (held.state, held.started) != (claim.state, claim.started):
                return False
            del self._receipts[claim.request_id]
            return True

    def save(self, receipt: Receipt) -> None:
        with self._lock:
            self._receipts[receipt.request_id] = receipt

    def receipt(self, request_id: str) -> Receipt | None:
        return self._receipts.get(request_id)

    def save_approval(self, approval: Approval) -> None:
        with self._lock:
            self._approvals[approval.request_id] = copy.copy(approval)

    def approval(self, request_id: str) -> Approval | None:
        with self._lock:
            held = self._approvals.get(request_id)
            return None if held is None else copy.copy(held)

    def use_approval(self, request_id: str, digest: str, now: float) -> Approval | None:
        with self._lock:
            held = self._approvals.get(request_id)
            if (
                held is None
                or held.status != "approved"
                or held.digest != digest
                or (held.expires_at is not None and held.expires_at <= now)
            ):
                return None
            held.status = "used"
            return copy.copy(held)

    def take_all(self, buckets: Sequence[Bucket], now: float) -> bool:
        with self._lock:
            new = take_each(self._buckets, buckets, now)
            if new is None:
                return False
            self._buckets.update(new)
            return True

    def refund(self, buckets: Sequence[Bucket], now: float) -> None:
        with self._lock:
            self._buckets.update(refund_each(self._buckets, buckets, now))

    def set_disabled(self, tool: str, disabled: bool) -> None:
        with self._lock:
            if disabled:
                self._disabled.add(tool)
            else:
                self._disabled.discard(tool)

    def is_disabled(self, tool: str) -> bool:
        return tool in self._disabled
