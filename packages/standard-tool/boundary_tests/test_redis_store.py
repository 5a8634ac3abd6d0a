"""RedisStore against the store contract on a real Redis server, raced by processes."""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from standard_tool.boundary import RedisStore, Store
from standard_tool.boundary._store import refill, refund_each, take_each
from standard_tool.testing import SharedStoreContract, StoreContract


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
