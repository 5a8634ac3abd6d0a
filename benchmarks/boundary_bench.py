"""What the execution boundary adds to a call: a guarded do-nothing tool against ``st.call`` of
the same tool, with each store, and a Cedar decision alone.

Every guarded call has a new request id (a receipt is claimed and saved each time), an
allow-all policy, no approval and no budget. The Redis row needs ``redis-server`` on PATH
(started here on 127.0.0.1, on a free port) and ``redis``; the Cedar row needs ``cedarpy``.
"""

from __future__ import annotations

import itertools
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import standard_tool as st
from standard_tool.boundary import (
    CallRequest,
    CedarPolicy,
    Gate,
    MemoryStore,
    RedisStore,
    SqliteStore,
    Store,
    call_digest,
    record_key,
)

from _timing import pair_us

NUMBER = 2_000
ROUNDS = 7
WIDTH = 34


@st.tool
def noop() -> None:
    """Do nothing."""


def guarded(store: Store) -> Callable[[], object]:
    tool = Gate(policy=lambda request: True, store=store).guard(noop)
    ids = (f"request-{n}" for n in itertools.count())

    def run() -> object:
        return st.call(tool, {}, {"actor": "ann", "tenant": "acme", "request_id": next(ids)})

    return run


def plain() -> object:
    return st.call(noop, {})


def row(label: str, ours: Callable[[], object]) -> None:
    (native, _), (mine, median) = pair_us(plain, ours, number=NUMBER, rounds=ROUNDS)
    print(
        f"{label:<{WIDTH}} st.call {native:6.2f} µs   guarded {mine:7.2f} µs (median "
        f"{median:7.2f})   ratio {mine / native:6.1f}x   added {mine - native:7.2f} µs"
    )


@contextmanager
def redis_server() -> Iterator[str | None]:
    server = shutil.which("redis-server")
    if server is None:
        yield None
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.025)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def cedar_row() -> None:
    policy = CedarPolicy(
        'permit (principal, action == Action::"noop", resource) when '
        "{ principal.tenant == context.tenant };",
        entities=[
            {"uid": {"type": "User", "id": "ann"}, "attrs": {"tenant": "acme"}, "parents": []}
        ],
    )
    request = CallRequest(
        tool="noop",
        arguments={},
        context={"actor": "ann", "tenant": "acme"},
        actor="ann",
        tenant="acme",
        request_id="r",
        schema_digest="sha256:0",
    )
    assert policy(request).verdict == "allow"

    def decide() -> Any:
        return policy(request)

    (native, _), (mine, median) = pair_us(plain, decide, number=NUMBER, rounds=ROUNDS)
    print(
        f"{'a Cedar decision alone':<{WIDTH}} st.call {native:6.2f} µs   decision {mine:6.2f} µs "
        f"(median {median:6.2f})   ratio {mine / native:6.1f}x"
    )


def floor() -> Callable[[], object]:
    """What a guarded call cannot skip, written out with nothing else: the digest of the call
    (what its receipt is bound to: tool, arguments, actor and tenant), a claim of its request
    id under its caller's key and the saved outcome, around ``st.call`` of the tool."""
    receipts: dict[str, tuple[str, str, object]] = {}
    schema = "sha256:" + "0" * 64
    ids = (f"request-{n}" for n in itertools.count())

    def run() -> object:
        key = record_key("acme", "ann", next(ids))
        bound = call_digest("noop", schema, {}, "ann", "acme")
        if key in receipts:
            return receipts[key][2]
        receipts[key] = (bound, "running", None)
        result = st.call(noop, {})
        receipts[key] = (bound, "succeeded", result)
        return result

    return run


def main() -> None:
    print("Per call, best and median of", ROUNDS, "alternating rounds of", NUMBER, "calls:")
    row("gate, allow-all, MemoryStore", guarded(MemoryStore()))
    row("digest + claim + save alone", floor())
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "gate.sqlite")
        row("gate, allow-all, SqliteStore", guarded(store))
        store.close()
    with redis_server() as url:
        if url is None:
            print(f"{'gate, allow-all, RedisStore':<{WIDTH}} (no redis-server on PATH)")
        else:
            row("gate, allow-all, RedisStore", guarded(RedisStore(url)))
    cedar_row()


if __name__ == "__main__":
    main()
