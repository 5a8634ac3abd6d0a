"""The execution boundary between a model's proposal and its effect (work in progress)."""

from ._redis import RedisStore
from ._sqlite import SqliteStore
from ._store import MemoryStore, Store

__all__ = ["MemoryStore", "RedisStore", "SqliteStore", "Store"]
