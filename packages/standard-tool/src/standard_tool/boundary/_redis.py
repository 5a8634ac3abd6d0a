"""A :class:`~standard_tool.boundary.Store` in Redis, shared by every process of every machine
that reaches the server (``pip install 'standard-tool[redis]'``)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import EllipsisType
from typing import Any, Literal, cast

from ..exceptions import UsageError
from ._store import Bucket, check_listing, listed_at
from ._types import Approval, Receipt, key_part

__all__ = ["RedisStore"]

CLAIM = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return redis.call('HGET', KEYS[1], 'body')
end
redis.call('HSET', KEYS[1], 'body', ARGV[1], 'state', ARGV[2], 'started', ARGV[3])
return false
"""
"""A receipt is a hash: its JSON (``body``), and the ``state`` and ``started`` that
:meth:`RedisStore.replace` compares."""

REPLACE = """
local held = redis.call('HMGET', KEYS[1], 'state', 'started')
if held[1] ~= ARGV[1] or held[2] ~= ARGV[2] then
    return 0
end
redis.call('HSET', KEYS[1], 'body', ARGV[3], 'state', ARGV[4], 'started', ARGV[5])
return 1
"""

USE_APPROVAL = """
local held = redis.call('HMGET', KEYS[1], 'body', 'status', 'digest', 'expires_at')
if held[2] ~= 'approved' or held[3] ~= ARGV[1] then
    return false
end
if held[4] ~= '' and tonumber(held[4]) <= tonumber(ARGV[2]) then
    return false
end
redis.call('HSET', KEYS[1], 'status', 'used')
return held[1]
"""
"""An approval is a hash: its JSON (``body``), and the ``status``, ``digest`` and
``expires_at`` (empty: never) that :meth:`RedisStore.use_approval` checks and changes; the
``status`` field is the approval's status."""

INDEX = """
local function index(status, score, member)
    local into, out = 2, 4
    if status ~= 'pending' then
        into, out = 4, 2
    end
    redis.call('ZADD', KEYS[into], score, member)
    redis.call('ZADD', KEYS[into + 1], score, member)
    redis.call('ZREM', KEYS[out], member)
    redis.call('ZREM', KEYS[out + 1], member)
end
"""
"""What :data:`SAVE_APPROVAL` and :data:`DECIDE` share: an approval's key (``member``) put in
the listing's sorted sets of its status (``KEYS[2]`` and ``KEYS[3]``, every tenant's and its
tenant's, while it is pending; ``KEYS[4]`` and ``KEYS[5]`` once decided), scored by the time
it is listed by (:func:`~standard_tool.boundary._store.listed_at`), and taken out of the other
two."""

SAVE_APPROVAL = (
    INDEX
    + """
redis.call('HSET', KEYS[1], 'body', ARGV[1], 'status', ARGV[2], 'digest', ARGV[3],
    'expires_at', ARGV[4])
index(ARGV[2], ARGV[5], ARGV[6])
"""
)
"""An approval's hash written whole, and its place in the listing, in one step."""

DECIDE = (
    INDEX
    + """
local held = redis.call('HMGET', KEYS[1], 'status', 'digest')
if held[1] ~= 'pending' or held[2] ~= ARGV[3] then
    return 0
end
redis.call('HSET', KEYS[1], 'body', ARGV[1], 'status', ARGV[2], 'digest', ARGV[3],
    'expires_at', ARGV[4])
index(ARGV[2], ARGV[5], ARGV[6])
return 1
"""
)
"""The decision (its JSON, status and expiry, the fields :data:`SAVE_APPROVAL` writes) in
place of the approval, and its place in the listing, only while the approval is ``pending``
with the same digest. Using an approval changes neither its listing nor its time."""

RELEASE = """
local held = redis.call('HMGET', KEYS[1], 'state', 'started')
if held[1] ~= ARGV[1] or held[2] ~= ARGV[2] then
    return 0
end
redis.call('DEL', KEYS[1])
return 1
"""

BUCKETS = """
local now = tonumber(ARGV[1])
local states = {}
local function state(i)
    local key = KEYS[i]
    local limit = tonumber(ARGV[2 * i])
    local tokens, updated
    if states[key] then
        tokens, updated = states[key][1], states[key][2]
    else
        local held = redis.call('HMGET', key, 'tokens', 'updated')
        if held[1] then
            tokens, updated = tonumber(held[1]), tonumber(held[2])
        else
            tokens, updated = limit, now
        end
    end
    if ARGV[2 * i + 1] ~= '' then
        local per = tonumber(ARGV[2 * i + 1])
        if per > 0 and now > updated then
            tokens = math.min(limit, tokens + (now - updated) * limit / per)
        end
    end
    return tokens, updated, limit
end
local function keep()
    for key, held in pairs(states) do
        redis.call('HSET', key, 'tokens', string.format('%.17g', held[1]),
            'updated', string.format('%.17g', held[2]))
    end
end
"""
"""What :data:`TAKE_ALL` and :data:`REFUND` share: a bucket's state (``KEYS[i]``, its limit
``ARGV[2i]`` and its period ``ARGV[2i+1]``, empty for none; ``ARGV[1]`` is now) refilled as
:func:`~standard_tool.boundary._store.refill` does, the same arithmetic in the same order on
the same IEEE doubles (Lua's numbers), so that a bucket gives what a
:class:`~standard_tool.boundary.MemoryStore` bucket gives at the same times. The numbers go
in as Python's ``repr`` (the shortest text that reads back as the same double) and are kept
with 17 significant digits (which read back exactly), never Lua's 14-digit ``tostring``."""

TAKE_ALL = (
    BUCKETS
    + """
for i = 1, #KEYS do
    local tokens, updated = state(i)
    if tokens < 1.0 then
        return 0
    end
    states[KEYS[i]] = {tokens - 1.0, math.max(updated, now)}
end
keep()
return 1
"""
)
"""One unit from each bucket, or (when one lacks it) nothing written at all: Redis runs the
script alone, so every bucket is read and written in one step."""

REFUND = (
    BUCKETS
    + """
for i = 1, #KEYS do
    local tokens, updated, limit = state(i)
    states[KEYS[i]] = {math.min(limit, tokens + 1.0), math.max(updated, now)}
end
keep()
"""
)


def _number(value: float) -> str:
    return repr(float(value))


def _approval_args(approval: Approval) -> list[str]:
    """The arguments of :data:`SAVE_APPROVAL` and :data:`DECIDE`: the hash an approval is kept
    as (its JSON, and the fields :data:`USE_APPROVAL` and :data:`DECIDE` read), then its
    score and member in the listing's sorted sets."""
    expires_at = "" if approval.expires_at is None else _number(approval.expires_at)
    return [
        approval.to_json(),
        approval.status,
        approval.digest,
        expires_at,
        _number(listed_at(approval)),
        approval.key,
    ]


class RedisStore:
    """A :class:`~standard_tool.boundary.Store` in the Redis server at ``url``
    (``redis://host:port/db``, ``rediss://`` for TLS; see ``redis.Redis.from_url``), its keys
    under ``prefix``, for every process of every machine that reaches the server.

    Each read-modify-write operation is one Lua script, which Redis runs alone (atomic). A
    script declares one key, but for :meth:`take_all` and :meth:`refund`, which touch the
    budget buckets of one call together (every bucket's key holds the hash tag ``{budget}``:
    one hash slot), and :meth:`save_approval` and :meth:`decide`, which keep an approval's
    place in the listing with it (the hash tag ``{approval}``), so a cluster works too. :meth:`claim_checked` sends the claim's script and
    the read of the kill switch together, in that order, in one pipeline (one round trip).
    Needs redis-py (``standard-tool[redis]``), imported when a store is made.

    Receipts and approvals are kept under their ``key``
    (:func:`~standard_tool.boundary.record_key`: the request id within the call's tenant and
    actor), as the keys ``<prefix>receipt:<key>`` and ``<prefix>{approval}:<key>``; the budget
    buckets as ``<prefix>{budget}:<bucket key>``; the tools switched off in the set
    ``<prefix>disabled``. :meth:`list_approvals` reads sorted sets of approval keys, which
    :meth:`save_approval` and :meth:`decide` keep in the same step as the approval itself:
    ``<prefix>{approval}:pending`` and ``<prefix>{approval}:decided`` (every tenant's), and
    ``<prefix>{approval}:pending:<tenant>`` and ``<prefix>{approval}:decided:<tenant>``
    (``<tenant>`` written as in the key: ``-`` for none, else ``<length>:<tenant>``); an
    approval and its listing share the hash tag ``{approval}`` (one hash slot). Budget
    buckets, receipts and approvals do not expire: remove old ones with Redis's own tools (an
    approval's key from the sorted sets too; a listing passes over a key whose approval is
    gone). A server that cannot be reached raises redis-py's ``redis.ConnectionError`` (or
    ``TimeoutError``) from the operation.
    """

    def __init__(self, url: str, *, prefix: str = "standard-tool:") -> None:
        try:
            redis = importlib.import_module("redis")
        except ImportError:
            raise UsageError(
                "RedisStore needs redis-py: pip install 'standard-tool[redis]'"
            ) from None
        self.url = url
        self.prefix = prefix
        self._redis: Any = redis.Redis.from_url(url)
        self._no_script: type[Exception] = redis.exceptions.NoScriptError
        self._claim = self._redis.register_script(CLAIM)
        self._decide = self._redis.register_script(DECIDE)
        self._save_approval = self._redis.register_script(SAVE_APPROVAL)
        self._replace = self._redis.register_script(REPLACE)
        self._use_approval = self._redis.register_script(USE_APPROVAL)
        self._release = self._redis.register_script(RELEASE)
        self._take_all = self._redis.register_script(TAKE_ALL)
        self._refund = self._redis.register_script(REFUND)

    def __repr__(self) -> str:
        return f"RedisStore(prefix={self.prefix!r})"

    def __enter__(self) -> RedisStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close this store's connections to the server."""
        self._redis.close()

    def _key(self, kind: str, name: str) -> str:
        return f"{self.prefix}{kind}:{name}"

    def claim(self, receipt: Receipt) -> Receipt | None:
        held = self._claim(
            keys=[self._key("receipt", receipt.key)],
            args=[receipt.to_json(), receipt.state, _number(receipt.started)],
        )
        return None if held is None else Receipt.from_json(held)

    def claim_checked(self, receipt: Receipt) -> tuple[Receipt | None, bool]:
        """:meth:`claim`, then whether ``receipt.tool`` is switched off: the claim's script and
        the read of the set sent together in one pipeline (one round trip), run in that order
        (the switch is read once the key is claimed). A server that does not hold the script
        yet is given it, and the pipeline is sent again."""
        key = self._key("receipt", receipt.key)
        args = [receipt.to_json(), receipt.state, _number(receipt.started)]
        for _ in range(2):
            pipe = self._redis.pipeline(transaction=False)
            pipe.evalsha(self._claim.sha, 1, key, *args)
            pipe.sismember(f"{self.prefix}disabled", receipt.tool)
            try:
                held, disabled = pipe.execute()
            except self._no_script:  # a new or flushed server: nothing was claimed
                self._redis.script_load(CLAIM)
                continue
            return (None if held is None else Receipt.from_json(held)), bool(disabled)
        raise UsageError("the Redis server does not keep the claim's script")

    def replace(self, old: Receipt, new: Receipt) -> bool:
        done = self._replace(
            keys=[self._key("receipt", old.key)],
            args=[old.state, _number(old.started), new.to_json(), new.state, _number(new.started)],
        )
        return bool(done)

    def release(self, claim: Receipt) -> bool:
        done = self._release(
            keys=[self._key("receipt", claim.key)],
            args=[claim.state, _number(claim.started)],
        )
        return bool(done)

    def save(self, receipt: Receipt) -> None:
        fields = {"body": receipt.to_json(), "state": receipt.state}
        fields["started"] = _number(receipt.started)
        self._redis.hset(self._key("receipt", receipt.key), mapping=fields)

    def receipt(self, key: str) -> Receipt | None:
        held = self._redis.hget(self._key("receipt", key), "body")
        return None if held is None else Receipt.from_json(held)

    def _approval_keys(self, approval: Approval) -> list[str]:
        """The keys of :data:`SAVE_APPROVAL` and :data:`DECIDE`: the approval's hash, then the
        listing's sorted sets (pending, every tenant's and its tenant's; then decided)."""
        tenant = key_part(approval.tenant)
        return [
            self._key("{approval}", approval.key),
            self._key("{approval}", "pending"),
            self._key("{approval}", f"pending:{tenant}"),
            self._key("{approval}", "decided"),
            self._key("{approval}", f"decided:{tenant}"),
        ]

    def save_approval(self, approval: Approval) -> None:
        self._save_approval(keys=self._approval_keys(approval), args=_approval_args(approval))

    def approval(self, key: str) -> Approval | None:
        body, status = self._redis.hmget(self._key("{approval}", key), ["body", "status"])
        if body is None:
            return None
        held = Approval.from_json(body)
        held.status = cast(Any, status.decode())
        return held

    def decide(self, decision: Approval) -> bool:
        done = self._decide(keys=self._approval_keys(decision), args=_approval_args(decision))
        return bool(done)

    def use_approval(self, key: str, digest: str, now: float) -> Approval | None:
        body = self._use_approval(keys=[self._key("{approval}", key)], args=[digest, _number(now)])
        if body is None:
            return None
        held = Approval.from_json(body)
        held.status = "used"
        return held

    def list_approvals(
        self,
        *,
        status: Literal["pending", "decided"],
        tenant: str | None | EllipsisType = ...,
        limit: int = 50,
    ) -> list[Approval]:
        """See :meth:`Store.list_approvals`: the first ``limit`` keys of the
        status's sorted set (every tenant's, or the tenant's), then their approvals, in two
        round trips."""
        check_listing(status, tenant, limit)
        index = status if tenant is ... else f"{status}:{key_part(tenant)}"
        keys = self._redis.zrevrange(self._key("{approval}", index), 0, limit - 1)
        if not keys:
            return []
        pipe = self._redis.pipeline(transaction=False)
        for key in keys:
            pipe.hmget(self._key("{approval}", key.decode()), ["body", "status"])
        listed = []
        for body, held_status in pipe.execute():
            if body is None:  # removed by hand
                continue
            held = Approval.from_json(body)
            held.status = cast(Any, held_status.decode())
            if (held.status == "pending") == (status == "pending"):  # else decided meanwhile
                listed.append(held)
        return listed

    def take_all(self, buckets: Sequence[Bucket], now: float) -> bool:
        if not buckets:
            return True
        return bool(self._take_all(**self._buckets(buckets, now)))

    def refund(self, buckets: Sequence[Bucket], now: float) -> None:
        if buckets:
            self._refund(**self._buckets(buckets, now))

    def _buckets(self, buckets: Sequence[Bucket], now: float) -> dict[str, list[Any]]:
        """The keys and arguments of :data:`BUCKETS` for ``buckets`` at ``now``."""
        keys, args = [], [_number(now)]
        for key, limit, per in buckets:
            keys.append(self._key("{budget}", key))
            args += [str(limit), "" if per is None else _number(per)]
        return {"keys": keys, "args": args}

    def set_disabled(self, tool: str, disabled: bool) -> None:
        key = f"{self.prefix}disabled"
        if disabled:
            self._redis.sadd(key, tool)
        else:
            self._redis.srem(key, tool)

    def is_disabled(self, tool: str) -> bool:
        return bool(self._redis.sismember(f"{self.prefix}disabled", tool))
