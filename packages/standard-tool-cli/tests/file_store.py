"""A test double of the gate's store, for the command's processes to share: it imports the
core alone, so that each process a test starts loads no more than the command does."""

from __future__ import annotations

import fcntl
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

from standard_tool.boundary import Approval, Receipt
from standard_tool.boundary._store import Bucket, list_each, refund_each, take_each

__all__ = ["JsonFileStore"]


class JsonFileStore:
    """A test double of the gate's store, and of nothing else: the ``Store`` protocol over one
    JSON file, each operation under an exclusive lock, so that the command's processes (one
    call, then an approval, then the call again) share what the gate keeps. Receipts and
    approvals are kept under their ``key`` (the request id within the call's tenant and
    actor)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextmanager
    def _data(self) -> Iterator[dict[str, Any]]:
        with self.path.with_suffix(".lock").open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            data: dict[str, Any] = (
                json.loads(self.path.read_text(encoding="utf-8"))
                if self.path.exists()
                else {"receipts": {}, "approvals": {}, "buckets": {}, "disabled": []}
            )
            yield data
            self.path.write_text(json.dumps(data), encoding="utf-8")

    def claim(self, receipt: Receipt) -> Receipt | None:
        with self._data() as data:
            held = data["receipts"].get(receipt.key)
            if held is not None:
                return Receipt(**held)
            data["receipts"][receipt.key] = asdict(receipt)
            return None

    def replace(self, old: Receipt, new: Receipt) -> bool:
        with self._data() as data:
            held = data["receipts"].get(old.key)
            if held is None or (held["state"], held["started"]) != (old.state, old.started):
                return False
            data["receipts"][old.key] = asdict(new)
            return True

    def release(self, claim: Receipt) -> bool:
        with self._data() as data:
            held = data["receipts"].get(claim.key)
            if held is None or (held["state"], held["started"]) != (claim.state, claim.started):
                return False
            del data["receipts"][claim.key]
            return True

    def save(self, receipt: Receipt) -> None:
        with self._data() as data:
            data["receipts"][receipt.key] = asdict(receipt)

    def receipt(self, key: str) -> Receipt | None:
        with self._data() as data:
            held = data["receipts"].get(key)
            return None if held is None else Receipt(**held)

    def save_approval(self, approval: Approval) -> None:
        with self._data() as data:
            data["approvals"][approval.key] = asdict(approval)

    def approval(self, key: str) -> Approval | None:
        with self._data() as data:
            held = data["approvals"].get(key)
            return None if held is None else Approval(**held)

    def decide(self, decision: Approval) -> bool:
        with self._data() as data:
            held = data["approvals"].get(decision.key)
            if held is None or held["status"] != "pending" or held["digest"] != decision.digest:
                return False
            data["approvals"][decision.key] = asdict(decision)
            return True

    def use_approval(self, key: str, digest: str, now: float) -> Approval | None:
        with self._data() as data:
            held = data["approvals"].get(key)
            if (
                held is None
                or held["status"] != "approved"
                or held["digest"] != digest
                or (held["expires_at"] is not None and held["expires_at"] <= now)
            ):
                return None
            held["status"] = "used"
            return Approval(**held)

    def list_approvals(self, *, status: Any, tenant: Any = ..., limit: int = 50) -> list[Approval]:
        with self._data() as data:
            held = [Approval(**approval) for approval in data["approvals"].values()]
        return list_each(held, status, tenant, limit)

    def take_all(self, buckets: Sequence[Bucket], now: float) -> bool:
        with self._data() as data:
            new = take_each(_states(data), buckets, now)
            data["buckets"].update(new or {})
            return new is not None

    def refund(self, buckets: Sequence[Bucket], now: float) -> None:
        with self._data() as data:
            data["buckets"].update(refund_each(_states(data), buckets, now))

    def set_disabled(self, tool: str, disabled: bool) -> None:
        with self._data() as data:
            data["disabled"] = sorted(
                set(data["disabled"]) - {tool} | ({tool} if disabled else set())
            )

    def is_disabled(self, tool: str) -> bool:
        with self._data() as data:
            return tool in data["disabled"]


def _states(data: dict[str, Any]) -> dict[str, tuple[float, float]]:
    return {key: (tokens, updated) for key, (tokens, updated) in data["buckets"].items()}
