"""Where a gate keeps what must outlive one call: receipts, approvals, budgets, the kill
switch. One small protocol; :class:`MemoryStore` for one process, ``SqliteStore`` for several
processes on one machine, ``RedisStore`` for several machines."""

from __future__ import annotations

import copy
import threading
from typing import Protocol, runtime_checkable

from ._types import Approval, Receipt

__all__ = ["MemoryStore", "Store", "refill"]


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

    def take(self, key: str, limit: int, per: float | None, now: float) -> bool:
        """Take one unit from the budget ``key`` (``limit`` units, refilled evenly over ``per``
        seconds; never refilled when ``per`` is ``None``); return whether one was left."""
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
    if per is not None and per > 0 and now > updated:
        tokens = min(float(limit), tokens + (now - updated) * limit / per)
    if tokens >= 1.0:
        return tokens - 1.0, True
    return tokens, False


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

    def take(self, key: str, limit: int, per: float | None, now: float) -> bool:
        with self._lock:
            tokens, updated = self._buckets.get(key, (float(limit), now))
            tokens, taken = refill(tokens, updated, limit, per, now)
            self._buckets[key] = (tokens, max(updated, now))
            return taken

    def set_disabled(self, tool: str, disabled: bool) -> None:
        with self._lock:
            if disabled:
                self._disabled.add(tool)
            else:
                self._disabled.discard(tool)

    def is_disabled(self, tool: str) -> bool:
        return tool in self._disabled
