"""Where a gate keeps what must outlive one call: receipts, approvals, budgets, the kill
switch. One small protocol; :class:`MemoryStore` for one process, ``SqliteStore`` for several
processes on one machine, ``RedisStore`` for several machines."""

from __future__ import annotations

import copy
import dataclasses
import heapq
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from types import EllipsisType
from typing import Any, Literal, Protocol, runtime_checkable

from ..exceptions import UsageError
from ._types import Approval, Receipt

__all__ = [
    "Bucket",
    "MemoryStore",
    "Store",
    "check_listing",
    "list_each",
    "listed_at",
    "refill",
    "refund_each",
    "take_each",
]

Bucket = tuple[str, int, float | None]
"""One budget bucket of a call: its store key, its limit and its period in seconds (``None``:
never refilled), as :meth:`Store.take_all` and :meth:`Store.refund` take them."""


@runtime_checkable
class Store(Protocol):
    """What a :class:`~standard_tool.boundary.Gate` keeps, each operation atomic across every
    process that shares the store.

    Receipts and approvals are kept under their ``key`` (:func:`~standard_tool.boundary.
    record_key`: the request id within the call's tenant and actor), never under the bare
    request id: two callers' request ids never meet. A receipt's ``result`` is JSON data
    (the gate stores the result's JSON form). A gate never changes a receipt it has given to
    the store or been given by it; a store that keeps objects (not their JSON text) hands back
    copies of a result that is a list or a dict, so that no caller changes what a replay
    answers.

    A store that cannot answer as it promised (its file deleted, its server gone) raises;
    :class:`~standard_tool.exceptions.StoreError` says so in its own words. The gate refuses
    the call (``unavailable``).

    A store may also have ``claim_checked(receipt) -> (held, disabled)``: :meth:`claim`, then
    :meth:`is_disabled` of ``receipt.tool``, in one step (one round trip to a server). A gate
    uses it when it is there.

    """

    def claim(self, receipt: Receipt) -> Receipt | None:
        """Record ``receipt`` (a call starting) unless its key has one already; return the one
        already there, or ``None`` when this call claimed the key."""
        ...

    def replace(self, old: Receipt, new: Receipt) -> bool:
        """Put ``new`` in place of the receipt under ``old.key`` if that is still ``old``
        (same state and start); return whether it was."""
        ...

    def release(self, claim: Receipt) -> bool:
        """Remove the receipt under ``claim.key`` if it is still ``claim`` (same state and
        start, as :meth:`replace` compares), so that the key is free again (a claimed call was
        refused before it ran); return whether it was."""
        ...

    def save(self, receipt: Receipt) -> None:
        """Record ``receipt`` (a call's outcome) under its key, whatever was there."""
        ...

    def receipt(self, key: str) -> Receipt | None:
        """The receipt under ``key``, if any."""
        ...

    def save_approval(self, approval: Approval) -> None:
        """Record ``approval`` under its key, whatever was there."""
        ...

    def approval(self, key: str) -> Approval | None:
        """The approval request under ``key``, if any."""
        ...

    def decide(self, decision: Approval) -> bool:
        """Put ``decision`` (its status ``approved`` or ``rejected``, with its approver, reason
        and expiry) in place of the approval under ``decision.key`` if that one is still
        ``pending`` and bound to the same digest; return whether it was. A compare-and-set:
        of two decisions racing on one approval, exactly one returns ``True``."""
        ...

    def use_approval(self, key: str, digest: str, now: float) -> Approval | None:
        """Mark the approval under ``key`` used and return it, if it is ``approved``, bound to
        ``digest`` and not expired at ``now``; else change nothing and return ``None``."""
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

    def list_approvals(
        self,
        *,
        status: Literal["pending", "decided"],
        tenant: str | None | EllipsisType = ...,
        limit: int = 50,
    ) -> list[Approval]:
        """At most ``limit`` approvals: the ``pending`` ones newest first (by ``created``), or
        the ``decided`` ones (approved, rejected or used) the one decided last first (by
        :func:`listed_at`; ties by key, the greater first); those of ``tenant`` only
        (``None``: the calls made for no tenant), or of every tenant (``...``)."""
        ...


def check_listing(status: Any, tenant: Any, limit: Any) -> None:
    """Raise :class:`~standard_tool.exceptions.UsageError` unless ``status``, ``tenant`` and
    ``limit`` are what :meth:`Store.list_approvals` takes."""
    if status not in ("pending", "decided"):
        raise UsageError(f"a listing's status is 'pending' or 'decided', not {status!r}")
    if tenant is not ... and tenant is not None and not isinstance(tenant, str):
        raise UsageError(
            f"a listing's tenant is a string, None or ... (every tenant), not "
            f"{type(tenant).__name__}"
        )
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise UsageError(f"a listing's limit is an int of at least 1, not {limit!r}")


def listed_at(approval: Approval) -> float:
    """The time an approval is listed by: when it was held while it is pending, else when it
    was decided (when it was held, for a record that does not say)."""
    if approval.status == "pending" or approval.decided is None:
        return approval.created
    return approval.decided


def list_each(
    approvals: Iterable[Approval],
    status: Literal["pending", "decided"],
    tenant: str | None | EllipsisType,
    limit: int,
) -> list[Approval]:
    """What :meth:`Store.list_approvals` answers, from every approval a store holds
    (``approvals``): for a store that reads them all, as :class:`MemoryStore` does."""
    check_listing(status, tenant, limit)
    pending = status == "pending"
    chosen = (
        approval
        for approval in approvals
        if (approval.status == "pending") == pending
        and (tenant is ... or approval.tenant == tenant)
    )
    return heapq.nlargest(limit, chosen, key=lambda held: (listed_at(held), held.key))


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


def _copied(value: Any) -> Any:
    """JSON data ``value`` copied: its lists and dicts new, its scalars (which never change)
    themselves."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


_SHARED = (list, dict)
"""What a result is when a caller could change it in place."""


def _own(receipt: Receipt) -> Receipt:
    """``receipt`` itself when its result is a scalar; else a copy holding a copy of its
    result: what a :class:`MemoryStore` keeps and hands back, so that no caller holds a list or
    a dict a replay answers."""
    if isinstance(receipt.result, _SHARED):
        return dataclasses.replace(receipt, result=_copied(receipt.result))
    return receipt


def _own_approval(approval: Approval) -> Approval:
    """A copy of ``approval`` (its arguments copied too), for a :class:`MemoryStore` to keep
    or hand back: an app changes the approvals it is given."""
    held = copy.copy(approval)
    if isinstance(held.arguments, _SHARED):
        held.arguments = _copied(held.arguments)
    return held


def _bound(name: str, value: int | None) -> int:
    """``value``, a bound of a :class:`MemoryStore` (``sys.maxsize`` for ``None``: none)."""
    if value is None:
        return sys.maxsize
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    raise UsageError(f"MemoryStore's {name} is an int of at least 1, or None, not {value!r}")


class MemoryStore:
    """A :class:`Store` in this process's memory (lost when it ends; not shared).

    Receipts are kept as objects: one whose result is a list or a dict is copied as it comes
    in and as it goes out (a scalar result is not: nothing can change it); approvals, which an
    app changes, are copied both ways.

    At most ``max_receipts`` receipts are kept (``None``: no bound): past it, the receipts
    that finished earliest (``succeeded``, ``failed`` or ``unknown_outcome``) are dropped
    first, never a ``running`` one (while more calls than the bound run at once, the store
    holds more). A dropped receipt is forgotten: a repeat of its request id runs the tool
    again, so the bound must exceed the number of calls made within the window in which a
    caller may repeat one. At most ``max_approvals`` approvals are kept likewise: the ones
    decided or used earliest are dropped first, never a ``pending`` one (a repeat of a dropped
    one's call asks a person again).
    """

    def __init__(
        self, max_receipts: int | None = 100_000, max_approvals: int | None = 100_000
    ) -> None:
        self._most = _bound("max_receipts", max_receipts)
        self._most_approvals = _bound("max_approvals", max_approvals)
        self._lock = threading.Lock()
        self._receipts: dict[str, Receipt] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()
        """The keys of the finished receipts, the one finished earliest first."""
        self._approvals: dict[str, Approval] = {}
        self._decided: OrderedDict[str, None] = OrderedDict()
        """The keys of the approvals no longer pending, the one decided or used earliest
        first."""
        self._buckets: dict[str, tuple[float, float]] = {}
        self._disabled: set[str] = set()

    @property
    def max_receipts(self) -> int | None:
        """How many receipts the store keeps at most (``None``: no bound)."""
        return None if self._most == sys.maxsize else self._most

    @property
    def max_approvals(self) -> int | None:
        """How many approvals the store keeps at most (``None``: no bound)."""
        return None if self._most_approvals == sys.maxsize else self._most_approvals

    def claim(self, receipt: Receipt) -> Receipt | None:
        return self.claim_checked(receipt)[0]

    def claim_checked(self, receipt: Receipt) -> tuple[Receipt | None, bool]:
        """:meth:`claim`, then whether ``receipt.tool`` is switched off, in one hold of the
        store's lock."""
        key = receipt.key
        if receipt.result is not None and isinstance(receipt.result, _SHARED):
            receipt = _own(receipt)
        with self._lock:
            held = self._receipts.get(key)
            if held is None:
                self._receipts[key] = receipt
                if receipt.state != "running":
                    self._finished[key] = None
                if len(self._receipts) > self._most:
                    self._drop_receipts()
            disabled = receipt.tool in self._disabled
        if held is not None and isinstance(held.result, _SHARED):
            held = _own(held)
        return held, disabled

    def _keep(self, key: str, receipt: Receipt) -> None:
        """Hold ``receipt`` (the store's own) under ``key``, with the lock held: the last of
        the finished ones when it has finished."""
        self._receipts[key] = receipt
        finished = self._finished
        if receipt.state == "running":
            finished.pop(key, None)
        elif key in finished:
            finished.move_to_end(key)
        else:
            finished[key] = None
        if len(self._receipts) > self._most:
            self._drop_receipts()

    def _drop_receipts(self) -> None:
        """Drop the receipts finished earliest while more than the bound are held."""
        receipts, finished = self._receipts, self._finished
        while len(receipts) > self._most and finished:
            del receipts[finished.popitem(last=False)[0]]

    def replace(self, old: Receipt, new: Receipt) -> bool:
        key = old.key
        new = _own(new)
        with self._lock:
            held = self._receipts.get(key)
            if held is None or (held.state, held.started) != (old.state, old.started):
                return False
            self._keep(key, new)
            return True

    def release(self, claim: Receipt) -> bool:
        key = claim.key
        with self._lock:
            held = self._receipts.get(key)
            if held is None or (held.state, held.started) != (claim.state, claim.started):
                return False
            del self._receipts[key]
            self._finished.pop(key, None)
            return True

    def save(self, receipt: Receipt) -> None:
        key = receipt.key
        if receipt.result is not None and isinstance(receipt.result, _SHARED):
            receipt = _own(receipt)
        with self._lock:
            self._keep(key, receipt)

    def receipt(self, key: str) -> Receipt | None:
        held = self._receipts.get(key)
        return None if held is None else _own(held)

    def _keep_approval(self, key: str, approval: Approval) -> None:
        """Hold ``approval`` (the store's own) under ``key``, with the lock held."""
        self._approvals[key] = approval
        if approval.status == "pending":
            self._decided.pop(key, None)
        elif key in self._decided:
            self._decided.move_to_end(key)
        else:
            self._decided[key] = None
        while len(self._approvals) > self._most_approvals and self._decided:
            del self._approvals[self._decided.popitem(last=False)[0]]

    def save_approval(self, approval: Approval) -> None:
        kept = _own_approval(approval)
        with self._lock:
            self._keep_approval(kept.key, kept)

    def approval(self, key: str) -> Approval | None:
        with self._lock:
            held = self._approvals.get(key)
            return None if held is None else _own_approval(held)

    def decide(self, decision: Approval) -> bool:
        kept = _own_approval(decision)
        key = kept.key
        with self._lock:
            held = self._approvals.get(key)
            if held is None or held.status != "pending" or held.digest != kept.digest:
                return False
            self._keep_approval(key, kept)
            return True

    def use_approval(self, key: str, digest: str, now: float) -> Approval | None:
        with self._lock:
            held = self._approvals.get(key)
            if (
                held is None
                or held.status != "approved"
                or held.digest != digest
                or (held.expires_at is not None and held.expires_at <= now)
            ):
                return None
            held.status = "used"
            self._keep_approval(key, held)
            return _own_approval(held)

    def list_approvals(
        self,
        *,
        status: Literal["pending", "decided"],
        tenant: str | None | EllipsisType = ...,
        limit: int = 50,
    ) -> list[Approval]:
        """See :meth:`Store.list_approvals`."""
        with self._lock:
            top = list_each(self._approvals.values(), status, tenant, limit)
            return [_own_approval(held) for held in top]

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
