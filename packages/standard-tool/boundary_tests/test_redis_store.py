"""RedisStore against the store contract on a real Redis server, raced by processes."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from standard_tool.boundary import RedisStore, Store
from standard_tool.boundary._store import refill
from standard_tool.testing import SharedStoreContract


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


def test_each_prefix_is_a_store_of_its_own(redis_url: str) -> None:
    with RedisStore(redis_url, prefix="one:") as one, RedisStore(redis_url, prefix="two:") as two:
        one.set_disabled("transfer", True)
        assert one.take("k", 1, None, now=0.0)
        assert not two.is_disabled("transfer")
        assert two.take("k", 1, None, now=0.0)
        client = redis.Redis.from_url(redis_url)
        try:
            keys = set(client.keys("one:*"))
        finally:
            client.close()
        assert keys == {b"one:disabled", b"one:budget:k"}


def test_a_bucket_keeps_every_bit_of_its_tokens(redis_url: str) -> None:
    """Tokens kept with Lua's 14-digit ``tostring`` would drift from :func:`refill`: a third
    of a token, refilled many times, must come out as Python computes it."""
    tokens, updated = 1.0, 0.0
    with RedisStore(redis_url, prefix="bits:") as store:
        for step in range(1, 400):
            now = step * 0.1
            tokens, expected = refill(tokens, updated, 1, 0.3, now)
            updated = now
            assert store.take("k", 1, 0.3, now=now) is expected, step
        client = redis.Redis.from_url(redis_url)
        try:
            held = float(client.hget("bits:budget:k", "tokens") or b"nan")
        finally:
            client.close()
        assert held == tokens
