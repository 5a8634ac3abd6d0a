"""RedisStore against the store contract on a real Redis server, raced by processes; its keys,
its scripts, and a server that is gone."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
import redis

from standard_tool.boundary import Approval, Receipt, RedisStore, Store
from standard_tool.boundary._store import refill, refund_each, take_each
from standard_tool.testing import SharedStoreContract, StoreContract
from standard_tool.testing._stores import every_operation


def _prefix(tmp_path: Path) -> str:
    """A prefix of this test's own (its folder is)."""
    return f"test:{hashlib.sha256(str(tmp_path).encode()).hexdigest()[:16]}:"


class TestRedisStore(SharedStoreContract):
    processes = 2
    url: str

    @pytest.fixture(autouse=True)
    def _server(self, redis_url: str) -> None:
        self.url = redis_url

    def opener(self, tmp_path: Path) -> Callable[[], Store]:
        return functools.partial(RedisStore, self.url, prefix=_prefix(tmp_path))


class TestRedisStoreInACluster(StoreContract):
    """Every operation on a cluster node, which refuses a script whose keys are not all in one
    hash slot: the buckets of one call share theirs."""

    url: str

    @pytest.fixture(autouse=True)
    def _server(self, redis_cluster_url: str) -> None:
        self.url = redis_cluster_url

    def new_store(self, tmp_path: Path) -> Store:
        return RedisStore(self.url, prefix=_prefix(tmp_path))


def test_each_prefix_is_a_store_of_its_own(redis_url: str) -> None:
    with RedisStore(redis_url, prefix="one:") as one, RedisStore(redis_url, prefix="two:") as two:
        one.set_disabled("transfer", True)
        assert one.take_all([("k", 1, None)], now=0.0)
        assert not two.is_disabled("transfer")
        assert two.take_all([("k", 1, None)], now=0.0)
        client = redis.Redis.from_url(redis_url)
        try:
            keys = set(client.keys("one:*"))
        finally:
            client.close()
        assert keys == {b"one:disabled", b"one:{budget}:k"}


def test_a_bucket_keeps_every_bit_of_its_tokens(redis_url: str) -> None:
    """Tokens kept with Lua's 14-digit ``tostring`` would drift from :func:`refill`: a third
    of a token, refilled many times, must come out as Python computes it."""
    tokens, updated = 1.0, 0.0
    with RedisStore(redis_url, prefix="bits:") as store:
        for step in range(1, 400):
            now = step * 0.1
            left, expected = refill(tokens, updated, 1, 0.3, now)
            if expected:
                tokens, updated = left, now
            assert store.take_all([("k", 1, 0.3)], now=now) is expected, step
        client = redis.Redis.from_url(redis_url)
        try:
            held = float(client.hget("bits:{budget}:k", "tokens") or b"nan")
        finally:
            client.close()
        assert held == tokens


def test_the_lua_buckets_are_take_each_and_refund_each(redis_url: str) -> None:
    """Takes and refunds at uneven times leave each bucket, to the last bit, in the state
    :func:`take_each` and :func:`refund_each` compute (a key listed twice included)."""
    draw = random.Random(6379)
    buckets = [("a", 3, 7.3), ("b", 2, None), ("a", 3, 7.3), ("c", 5, 1 / 3)]
    states: dict[str, tuple[float, float]] = {}
    now = 0.0
    client = redis.Redis.from_url(redis_url)
    with RedisStore(redis_url, prefix="lua:") as store:
        try:
            for step in range(300):
                now += draw.choice([0.0, 0.1, 1 / 3, 0.7, 2.9, -0.5])
                asked = draw.sample(buckets, draw.randint(1, len(buckets)))
                if draw.random() < 0.4:
                    store.refund(asked, now=now)
                    states.update(refund_each(states, asked, now))
                else:
                    new = take_each(states, asked, now)
                    assert store.take_all(asked, now=now) is (new is not None), step
                    states.update(new or {})
                for key, (tokens, updated) in states.items():
                    held = client.hmget(f"lua:{{budget}}:{key}", ["tokens", "updated"])
                    kept = tuple(float(value or b"nan") for value in held)
                    assert kept == (tokens, updated), (step, key)
        finally:
            client.close()


def test_receipts_and_approvals_are_kept_under_their_keys(redis_url: str) -> None:
    """``<prefix>receipt:<key>`` and ``<prefix>{approval}:<key>``, the key the request id
    within its tenant and actor: one request id of two actors is two receipts; an approval's
    key is in the listing's sorted sets of its status (every tenant's and its tenant's)."""
    ann = Receipt("r-1", "transfer", "d" * 64, tenant="acme", actor="ann")
    bob = Receipt("r-1", "transfer", "d" * 64, tenant="acme", actor="bob")
    approval = Approval("a-1", "transfer", "d" * 64, "{}", tenant=None, actor="ann")
    with RedisStore(redis_url, prefix="keys:") as store:
        assert store.claim(ann) is None
        assert store.claim_checked(bob) == (None, False)
        store.save_approval(approval)
        client = redis.Redis.from_url(redis_url)
        try:
            keys = set(client.keys("keys:*"))
        finally:
            client.close()
    assert keys == {
        b"keys:receipt:4:acme/3:ann/r-1",
        b"keys:receipt:4:acme/3:bob/r-1",
        b"keys:{approval}:-/3:ann/a-1",
        b"keys:{approval}:pending",
        b"keys:{approval}:pending:-",
    }
    assert (ann.key, approval.key) == ("4:acme/3:ann/r-1", "-/3:ann/a-1")


def test_a_checked_claim_is_one_round_trip(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim and the kill switch's answer go to the server and come back together: one
    send on the connection, the claim's script first."""
    from redis.connection import AbstractConnection

    with RedisStore(redis_url, prefix="trips:") as store:
        store.set_disabled("transfer", True)
        store.claim_checked(Receipt("r-0", "transfer", "d" * 64))  # loads the script
        sent: list[Any] = []
        send: Any = AbstractConnection.send_packed_command

        def counted(self: Any, command: Any, *args: Any, **options: Any) -> Any:
            sent.append(command)
            return send(self, command, *args, **options)

        monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
        assert store.claim_checked(Receipt("r-1", "transfer", "d" * 64)) == (None, True)
        held, disabled = store.claim_checked(Receipt("r-1", "search", "d" * 64))
        assert held is not None and held.tool == "transfer" and disabled is False
        assert len(sent) == 2
        first = b"".join(sent[0]) if isinstance(sent[0], list) else bytes(sent[0])
        assert first.index(b"EVALSHA") < first.index(b"SISMEMBER")


def test_a_checked_claim_on_a_server_that_lost_its_scripts(redis_url: str) -> None:
    """A restarted or flushed server holds no script: the claim is given to it again, once,
    and claims exactly once."""
    with RedisStore(redis_url, prefix="flushed:") as store:
        assert store.claim_checked(Receipt("r-0", "transfer", "d" * 64)) == (None, False)
        redis.Redis.from_url(redis_url).script_flush()
        assert store.claim_checked(Receipt("r-1", "transfer", "d" * 64)) == (None, False)
        held, _ = store.claim_checked(Receipt("r-1", "transfer", "e" * 64))
        assert held is not None and held.digest == "d" * 64


def test_a_decision_keeps_the_fields_use_approval_reads(redis_url: str) -> None:
    """A decided approval's hash holds the decision's status, digest and expiry beside its
    JSON, as a saved one does."""
    pending = Approval("a-1", "transfer", "d" * 64, "{}", actor="ann")
    decision = dataclasses.replace(pending, status="approved", approver="bob", expires_at=0.1)
    client = redis.Redis.from_url(redis_url)
    with RedisStore(redis_url, prefix="decide:") as store:
        try:
            store.save_approval(pending)
            assert store.decide(decision)
            held = client.hgetall(f"decide:{{approval}}:{pending.key}")
            assert {name: held[name.encode()] for name in ("status", "digest", "expires_at")} == {
                "status": b"approved",
                "digest": b"d" * 64,
                "expires_at": b"0.1",
            }
            assert Approval.from_json(held[b"body"]) == decision
            assert store.use_approval(pending.key, "d" * 64, now=0.1) is None  # expired
            assert store.use_approval(pending.key, "d" * 64, now=0.05) is not None
            assert client.hget(f"decide:{{approval}}:{pending.key}", "status") == b"used"
        finally:
            client.close()


def test_a_server_that_is_gone_raises(
    redis_server: Callable[[], AbstractContextManager[int]],
) -> None:
    """Every operation on a server that stopped raises redis-py's ``ConnectionError``: the
    store answers nothing it does not know."""
    receipt = Receipt("r-1", "transfer", "d" * 64, tenant="acme", actor="ann")
    approval = Approval("a-1", "transfer", "d" * 64, "{}", status="pending")
    with redis_server() as port:
        store = RedisStore(f"redis://127.0.0.1:{port}/0", prefix="gone:")
        assert store.claim_checked(receipt) == (None, False)
    operations = every_operation(store, receipt, approval)
    try:
        for operation in operations:
            with pytest.raises(redis.ConnectionError):
                operation()
    finally:
        store.close()


def _listed(store: Any, status: str, **tenant: Any) -> list[str]:
    """The request ids of one listing of ``store``, in its order."""
    return [approval.request_id for approval in store.list_approvals(status=status, **tenant)]


def test_a_listing_is_kept_with_its_approval_in_one_step(redis_url: str) -> None:
    """A decision that loses the compare-and-set moves nothing in the listing; one whose key
    was removed by hand is passed over."""
    pending = Approval("a-1", "transfer", "d" * 64, "{}", tenant="acme", created=1.0)
    with RedisStore(redis_url, prefix="index:") as store:
        store.save_approval(pending)
        wrong = dataclasses.replace(pending, digest="e" * 64, status="approved", decided=2.0)
        assert not store.decide(wrong)
        assert _listed(store, "pending") == ["a-1"] and _listed(store, "decided") == []
        client = redis.Redis.from_url(redis_url)
        try:
            assert client.zscore("index:{approval}:pending:4:acme", pending.key) == 1.0
            client.delete(f"index:{{approval}}:{pending.key}")
        finally:
            client.close()
        assert _listed(store, "pending") == []
