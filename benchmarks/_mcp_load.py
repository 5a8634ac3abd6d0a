"""Guarded tools under load: two MCP server processes sharing a gate's records in Redis, three
client processes, and a check of the promise the gate makes to them.

The promise: when several processes (or machines) share a :class:`~standard_tool.boundary.Gate`
through one :class:`~standard_tool.boundary.RedisStore`, every effect happens at most once,
no call is lost, and no tenant sees another tenant's result. ``mcp_load_bench.py`` runs a few
thousand calls and prints the figures; ``integration_tests/test_mcp_load.py`` runs a few
hundred and fails on any broken promise. Both import this module (it sits beside
``_timing.py``, the benchmarks' other shared module).

Each part runs in a process of its own, on 127.0.0.1 only:

- two ``redis-server`` processes: the gate's (its ``RedisStore``) and the effect ledger. The
  ledger is where the tools record what they did, apart from the gate, so that effects can be
  counted per (tenant, request id) whatever the gate believes; on a server of its own, so that
  the gate's Redis commands are counted alone;
- two ``uvicorn`` processes, each serving :func:`app` (an app factory: the guarded tools
  through ``standard_tool_mcp.to_asgi_app``, stateless streamable HTTP, bearer tokens checked
  by :class:`Tokens`), and ``/stats``, the process's round trips to the gate's Redis;
- three clients (``python _mcp_load.py client CONFIG``), each an MCP client of both servers
  through ``standard_tool_mcp.connect``, calling the tools as adopted tools.

Identity: the MCP adapter reads the caller's actor and tenant only from an authenticated
bearer token (the token's ``subject``, and its ``tenant`` claim), so each client sends the
token of its tenant, and the servers' token verifier maps it to an ``AccessToken``. Every
token has the same subject, :data:`ACTOR`: the tenant alone tells two callers apart.

The clients collide on purpose. Each client makes the same calls, named ``call_0``,
``call_1``, ... with the same arguments: client 0 for tenant ``acme``, client 1 for tenant
``globex`` (the same request ids in another tenant), client 2 for ``acme`` again (the same
calls, at about the same time, from another process). A request id goes in
``_meta["standard-tool/request-id"]``; every attempt of a call, and every deliberate repeat
of a call that succeeded, sends the same one, to the other server each time. One call in ten
is :func:`slow_record`, whose time limit some calls outlast: those time out, their thread
still records the effect later, and the client sends the call again until it gets a result.

The checks (:func:`problems`): every attempt got an answer; every call ended with a result
(none refused for good, none given up); each (tenant, request id) has at most one effect in
the ledger; every result carries its caller's tenant and request id, and is the one effect
recorded for them; every result of the same (tenant, request id) is the same result.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypedDict, cast

import redis
import redis.connection
from mcp.server.auth.provider import AccessToken
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route

import standard_tool as st
from standard_tool.boundary import CallRequest, Gate, RedisStore
from standard_tool.exceptions import (
    StandardToolError,
    ToolExecutionError,
    ToolRefusedError,
    ToolTimeoutError,
)
from standard_tool_mcp import connect, to_asgi_app

HERE = Path(__file__).resolve().parent
HOST = "127.0.0.1"
REQUEST_ID_META = "standard-tool/request-id"
"""The ``_meta`` key in which an MCP client names a call's request id (the MCP adapter's
README, "Context")."""
ACTOR = "agent"
"""The subject of every client's token: the same name in every tenant."""
TOKENS = {"acme-token": "acme", "globex-token": "globex"}
"""Each bearer token the servers accept, and the tenant it is for."""
CLIENTS = ("acme-token", "globex-token", "acme-token")
"""The token of each client process: two tenants, the first one twice."""
LIMIT = 0.25
"""Seconds :func:`slow_record` may run (its ``timeout``)."""
DELAYS = (0.05, 0.6, 0.05, 0.6, 2.5)
"""How long successive slow calls take, in turn: within the limit; past it (the call times
out, and its thread records the effect a third of a second later); ten times the limit (the
thread records it two seconds after the time-out, while the client keeps retrying)."""
CALL_TIMEOUT = 10.0
"""Seconds a client waits for the answer to one attempt."""
CALL_DEADLINE = 30.0
"""Seconds a client keeps retrying one call before giving it up (a lost call)."""
MAX_ATTEMPTS = 60
"""Attempts of one call, at most (retries included)."""
RETRIED = frozenset({"timeout", "unknown_outcome", "unavailable", "budget_exceeded"})
"""Refusals after which a client sends the same call again (same request id); any other
refusal ends the call. ``unknown_outcome`` is among them: the gate says it of a call still
running under the request id, and the gate's ``reconcile`` step (:func:`reconcile`) reads a
timed-out call's effect back once its thread has recorded it."""
START = 60.0
"""Seconds a process (a Redis server, an MCP server, a client) may take to start or stop."""
GATE_ENV = "STANDARD_TOOL_LOAD_GATE"
LEDGER_ENV = "STANDARD_TOOL_LOAD_LEDGER"
"""The environment variables that give a server process the gate's Redis URL and the
ledger's."""
EFFECT = "effect:"
"""The prefix of the ledger's keys: ``effect:`` and the JSON of ``[tenant, request id]``, a
list of the effects recorded for them."""
EXAMPLES = 3
"""Examples shown per kind of problem."""


class LoadError(Exception):
    """The load run could not be set up (a missing ``redis-server``, a process that did not
    start): a failure, never a reason to skip."""


# -- the served side -----------------------------------------------------------------------


class _Counters:
    """What a server process reports at ``/stats``: its sends to the gate's Redis (each one
    request and its answer, a round trip; a pipeline would be one), the tool runs started, and
    those still running (threads a timed-out call left behind included)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.gate_port: int | None = None
        self.round_trips = 0
        self.runs = 0
        self.running = 0

    def snapshot(self) -> dict[str, int]:
        with self.lock:
            return {
                "pid": os.getpid(),
                "round_trips": self.round_trips,
                "runs": self.runs,
                "running": self.running,
            }


COUNTERS = _Counters()
_ledger: redis.Redis | None = None


def _count_round_trips(port: int) -> None:
    """Count every send of redis-py to the gate's Redis (``port``) in this process: redis-py
    sends each command, or each pipeline, with one ``send_packed_command`` and then reads
    the answer, so the sends are the round trips. The ledger's server, on another port, is
    not counted."""
    COUNTERS.gate_port = port
    connection = redis.connection.AbstractConnection
    original = cast(Callable[..., None], connection.send_packed_command)

    def send_packed_command(self: Any, command: Any, check_health: bool = True) -> None:
        if getattr(self, "port", None) == COUNTERS.gate_port:
            with COUNTERS.lock:
                COUNTERS.round_trips += 1
        original(self, command, check_health)

    connection.send_packed_command = send_packed_command  # type: ignore[method-assign]


def exit_with_parent() -> None:
    """End this process (SIGTERM to itself, as uvicorn expects) once the process that started
    it has gone, so that nothing started by a run outlives it, however it ended."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="exit with parent", daemon=True).start()


def _key(tenant: Any, request_id: Any) -> str:
    return EFFECT + json.dumps([tenant, request_id])


def _effect(tool: str, fields: dict[str, Any], context: Any) -> dict[str, Any]:
    """Record the effect of one run in the ledger, and return it as the call's result: for
    whom it ran (tenant and request id, as the server's context says), what it did, and a run
    id of its own, so that a result read anywhere names the run that made it."""
    context = context if isinstance(context, dict) else {}
    result = {
        "tenant": context.get("tenant"),
        "request_id": context.get("request_id"),
        "tool": tool,
        **fields,
        "run": uuid.uuid4().hex,
        "pid": os.getpid(),
    }
    if _ledger is None:
        raise RuntimeError("the ledger is not open: serve this module through app()")
    _ledger.rpush(_key(result["tenant"], result["request_id"]), json.dumps(result))
    return result


@contextmanager
def _running() -> Iterator[None]:
    with COUNTERS.lock:
        COUNTERS.runs += 1
        COUNTERS.running += 1
    try:
        yield
    finally:
        with COUNTERS.lock:
            COUNTERS.running -= 1


@st.tool
def record(item: str, qty: int, context: Any = None) -> dict[str, Any]:
    """Record an order line (the effect) and say for whom it ran."""
    with _running():
        return _effect("record", {"item": item, "qty": qty}, context)


@st.tool(timeout=LIMIT)
def slow_record(item: str, delay: float, context: Any = None) -> dict[str, Any]:
    """Wait ``delay`` seconds, then record the item: past the time limit the call times out,
    and its thread goes on and records the effect later."""
    with _running():
        time.sleep(delay)
        return _effect("slow_record", {"item": item, "delay": delay}, context)


def reconcile(request: CallRequest) -> Any:
    """The gate's ``reconcile`` step: the effect a call whose outcome is unknown left in the
    ledger (its result), else ``None`` (it did not happen: the call runs)."""
    if _ledger is None:
        raise RuntimeError("the ledger is not open: serve this module through app()")
    found = _ledger.lindex(_key(request.tenant, request.request_id), 0)
    return None if found is None else json.loads(found)


class Tokens:
    """The servers' token verifier (``mcp.server.auth.provider.TokenVerifier``): a token of
    :data:`TOKENS` is :data:`ACTOR` in its tenant, any other is refused (HTTP 401)."""

    async def verify_token(self, token: str) -> AccessToken | None:
        tenant = TOKENS.get(token)
        if tenant is None:
            return None
        return AccessToken(
            token=token, client_id="load", scopes=[], subject=ACTOR, claims={"tenant": tenant}
        )


async def _stats(request: Request) -> JSONResponse:
    return JSONResponse(COUNTERS.snapshot())


def app() -> Starlette:
    """The app each server process serves (``uvicorn --factory _mcp_load:app``): the guarded
    tools at ``/mcp`` (``to_asgi_app``, mounted with its lifespan, so that one session manager
    serves every request) and ``/stats``. The gate's Redis URL and the ledger's come from
    :data:`GATE_ENV` and :data:`LEDGER_ENV`."""
    global _ledger
    exit_with_parent()
    gate_url, ledger_url = os.environ[GATE_ENV], os.environ[LEDGER_ENV]
    _count_round_trips(urllib.parse.urlsplit(gate_url).port or 6379)
    _ledger = redis.Redis.from_url(ledger_url)
    gate = Gate(store=RedisStore(gate_url), reconcile=reconcile)
    mcp_app = to_asgi_app(gate.guard([record, slow_record]), token_verifier=Tokens())

    def lifespan(_: Starlette) -> AbstractAsyncContextManager[None]:
        return cast(AbstractAsyncContextManager[None], mcp_app.router.lifespan_context(mcp_app))

    return Starlette(routes=[Route("/stats", _stats), Mount("/", app=mcp_app)], lifespan=lifespan)


# -- the calls -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One call a client makes: its request id, tool and arguments, and how many times it is
    sent again once it has succeeded."""

    index: int
    request_id: str
    tool: str
    arguments: dict[str, Any]
    repeats: int


def plan(calls: int) -> list[Call]:
    """The calls every client makes, the same in every client: one in ten slow (its delay
    taken from :data:`DELAYS` in turn), one in three sent once more after it succeeded, one
    in nine twice."""
    out = []
    for n in range(calls):
        if n % 10 == 3:
            tool = "slow_record"
            arguments: dict[str, Any] = {
                "item": f"item-{n}",
                "delay": DELAYS[n // 10 % len(DELAYS)],
            }
        else:
            tool, arguments = "record", {"item": f"item-{n}", "qty": n % 7 + 1}
        repeats = 2 if n % 9 == 1 else 1 if n % 3 == 1 else 0
        out.append(Call(n, f"call_{n}", tool, arguments, repeats))
    return out


class Attempt(TypedDict):
    """One ``tools/call`` a client sent, and what came back."""

    index: int
    repeat: int
    """0 for the call, 1 and more for its deliberate repeats."""
    server: int
    kind: str
    """``ok`` (a result), ``refused`` (a refusal), ``error`` (an error result), or
    ``unanswered`` (no answer in time, or the connection failed)."""
    code: str | None
    """The refusal's code; for an error, its first words."""
    result: Any
    sent: float
    seconds: float


class Outcome(TypedDict):
    """How one call ended: ``ok``, ``refused:<code>`` or ``gave up``."""

    index: int
    final: str


async def _attempt(
    tool: Any, call: Call, server: int, repeat: int, attempts: list[Attempt]
) -> Attempt:
    sent, clock = time.time(), time.perf_counter()
    context = {"meta": {REQUEST_ID_META: call.request_id}}
    code: str | None = None
    result: Any = None
    try:
        result = await st.acall(tool, call.arguments, context)
        kind = "ok"
    except ToolRefusedError as refusal:
        kind, code = "refused", refusal.code
    except ToolTimeoutError:
        kind, code = "unanswered", "client time limit"
    except ToolExecutionError as error:
        # Raised from a transport or protocol failure, else it is an error result.
        kind = "unanswered" if error.__cause__ is not None else "error"
        code = " ".join(str(error).split()[:8])
    attempt = Attempt(
        index=call.index,
        repeat=repeat,
        server=server,
        kind=kind,
        code=code,
        result=result,
        sent=sent,
        seconds=time.perf_counter() - clock,
    )
    attempts.append(attempt)
    return attempt


async def _make(
    call: Call, client: int, tools: list[dict[str, Any]], attempts: list[Attempt]
) -> Outcome:
    """Make ``call`` until it ends (a result, a refusal that is final, or the deadline), then
    send it again ``call.repeats`` times; each attempt goes to the other server than the one
    before."""
    deadline = time.monotonic() + CALL_DEADLINE
    number = 0
    final = "gave up"
    while number < MAX_ATTEMPTS and time.monotonic() < deadline:
        server = (call.index + client + number) % len(tools)
        done = await _attempt(tools[server][call.tool], call, server, 0, attempts)
        number += 1
        if done["kind"] == "ok":
            final = "ok"
            break
        if done["kind"] == "refused" and done["code"] not in RETRIED:
            final = f"refused:{done['code']}"
            break
        await asyncio.sleep(min(0.05 * 2 ** min(number, 4), 0.4))
    if final == "ok":
        for repeat in range(1, call.repeats + 1):
            server = (call.index + client + number + repeat - 1) % len(tools)
            await _attempt(tools[server][call.tool], call, server, repeat, attempts)
    return Outcome(index=call.index, final=final)


async def _client(config: dict[str, Any]) -> None:
    """A client process: connect to every server with this client's token, say it is ready,
    wait for the start, make every call of :func:`plan` with ``concurrency`` calls at once,
    and write every attempt and outcome to ``config["out"]``."""
    headers = {"authorization": f"Bearer {config['token']}"}
    calls = plan(config["calls"])
    attempts: list[Attempt] = []
    outcomes: list[Outcome] = []
    async with AsyncExitStack() as stack:
        tools = []
        for url in config["urls"]:
            listed = await stack.enter_async_context(
                connect(url, headers=headers, timeout=CALL_TIMEOUT)
            )
            tools.append({tool.name: tool for tool in listed})
        Path(config["ready"]).touch()
        go, waited = Path(config["go"]), time.monotonic() + START
        while not go.exists():
            if time.monotonic() > waited:
                raise LoadError("no start signal")
            await asyncio.sleep(0.005)
        queue = iter(calls)

        async def worker() -> None:
            for call in queue:
                outcomes.append(await _make(call, config["index"], tools, attempts))

        await asyncio.gather(*(worker() for _ in range(config["concurrency"])))
    out = {"attempts": attempts, "outcomes": outcomes}
    Path(config["out"]).write_text(json.dumps(out))


# -- the run -------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End ``process``: terminated, then killed when it does not end in time."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(START / 4)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(START / 4)


def _wait(
    ready: Callable[[], bool], process: subprocess.Popen[bytes], what: str, log: Path
) -> None:
    """Wait until ``ready()``, at most :data:`START` seconds; :class:`LoadError` (with the
    last lines of ``log``) when ``process`` ends first or the time is up."""
    deadline = time.monotonic() + START
    while not ready():
        if process.poll() is not None:
            raise LoadError(
                f"{what} exited with status {process.returncode} before it was ready; its last "
                f"lines:\n{_tail(log)}"
            )
        if time.monotonic() > deadline:
            raise LoadError(
                f"{what} was not ready within {START:g} s; its last lines:\n{_tail(log)}"
            )
        time.sleep(0.02)


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A ``redis-server`` on 127.0.0.1 and a free port, nothing saved to disk, stopped on
    leaving: its URL. A missing ``redis-server`` raises :class:`LoadError`."""
    server = shutil.which("redis-server")
    if server is None:
        raise LoadError("redis-server is not installed (Debian: apt-get install redis-server)")
    port = _free_port()
    folder.mkdir(parents=True, exist_ok=True)
    command = [server, "--bind", HOST, "--port", str(port), "--dir", str(folder)]
    command += ["--save", "", "--appendonly", "no"]
    with (folder / "redis.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        client = redis.Redis(host=HOST, port=port, socket_timeout=1.0)

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        _wait(answers, process, f"redis-server on port {port}", folder / "redis.log")
        client.close()
        yield f"redis://{HOST}:{port}/0"
    finally:
        _stop(process)


def _serves(base: str) -> bool:
    return _get(f"{base}/stats") is not None


def _get(url: str) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(url, timeout=2.0) as answer:
            return cast(dict[str, Any], json.loads(answer.read()))
    except OSError:
        return None


@contextmanager
def mcp_servers(folder: Path, gate: str, ledger: str, count: int) -> Iterator[list[str]]:
    """``count`` uvicorn processes, each serving :func:`app` on 127.0.0.1 and a free port,
    started together and stopped on leaving: their base URLs."""
    environment = {**os.environ, GATE_ENV: gate, LEDGER_ENV: ledger}
    with ExitStack() as stack:
        started = []
        for _ in range(count):
            port = _free_port()
            command = [sys.executable, "-m", "uvicorn", "--factory", "--app-dir", str(HERE)]
            command += ["--host", HOST, "--port", str(port), "--log-level", "warning"]
            command += ["--no-access-log", "--timeout-graceful-shutdown", "2", "_mcp_load:app"]
            path = folder / f"server-{port}.log"
            with path.open("wb") as log:
                process = subprocess.Popen(
                    command, stdout=log, stderr=subprocess.STDOUT, env=environment, cwd=folder
                )
            stack.callback(_stop, process)
            started.append((process, f"http://{HOST}:{port}", path))
        for process, base, path in started:
            _wait(partial(_serves, base), process, f"the MCP server at {base}", path)
        yield [base for _, base, _ in started]


def _command_calls(client: redis.Redis) -> Counter[str]:
    """Calls of each command the Redis server of ``client`` has run (``INFO commandstats``;
    the commands a script runs are counted too, under their own names), but for ``INFO``
    itself. ``client`` stays connected between two counts, so that its own connection
    setup is in neither."""
    stats = client.info("commandstats")
    calls = Counter(
        {name.removeprefix("cmdstat_"): int(value["calls"]) for name, value in stats.items()}
    )
    del calls["info"]
    return calls


def _ledger_effects(url: str) -> dict[tuple[str | None, str | None], list[dict[str, Any]]]:
    client = redis.Redis.from_url(url)
    try:
        effects = {}
        for key in client.scan_iter(match=EFFECT + "*", count=1000):
            tenant, request_id = json.loads(key[len(EFFECT) :])
            effects[tenant, request_id] = [json.loads(v) for v in client.lrange(key, 0, -1)]
        return effects
    finally:
        client.close()


@dataclass(frozen=True)
class Load:
    """What one run does: ``calls`` calls per client (see :func:`plan`), ``concurrency`` of
    them at once in each client, through two servers."""

    calls: int
    concurrency: int = 8
    servers: int = 2
    bound: float = 600.0
    """Seconds the clients may take, all together, before they are stopped (a problem)."""


@dataclass
class Report:
    """What a run did and measured; ``problems`` is every broken promise, described."""

    load: Load
    seconds: float = 0.0
    requests: int = 0
    answered: int = 0
    results: int = 0
    runs: int = 0
    """Tool runs the servers started (a run a timed-out call left behind included)."""
    effects: int = 0
    replays: int = 0
    """Results that repeat a result already returned (the same run)."""
    repeats: int = 0
    """Attempts that are deliberate repeats of a call that had succeeded."""
    retries: int = 0
    """Attempts that send a call again after it got no result."""
    refusals: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    latency_ms: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Median, 95th and 99th percentile of the answered attempts, in ms."""
    round_trips: int = 0
    """redis-py's sends to the gate's Redis in the servers during the load."""
    commands: Counter[str] = field(default_factory=Counter)
    """Commands the gate's Redis ran during the load (``INFO commandstats``)."""
    probe: dict[str, int] = field(default_factory=dict)
    """Round trips of single calls made alone after the load: a new request id, its replay."""
    probe_commands: dict[str, Counter[str]] = field(default_factory=dict)
    """The commands the gate's Redis ran for each of those calls."""
    problems: list[str] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        return self.answered / self.seconds if self.seconds else 0.0


def _client_process(
    folder: Path, index: int, urls: list[str], load: Load
) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    config = {
        "index": index,
        "token": CLIENTS[index],
        "urls": urls,
        "calls": load.calls,
        "concurrency": load.concurrency,
        "ready": str(folder / f"ready-{index}"),
        "go": str(folder / "go"),
        "out": str(folder / f"client-{index}.json"),
    }
    path = folder / f"client-{index}.config.json"
    path.write_text(json.dumps(config))
    command = [sys.executable, str(HERE / "_mcp_load.py"), "client", str(path)]
    with (folder / f"client-{index}.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    return process, config


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _probe(base: str, gate: redis.Redis, report: Report) -> None:
    """Round trips of one call of ``record`` under a new request id, then of its replay, each
    alone on one server, and the commands the gate's Redis ran for each."""
    with connect(
        f"{base}/mcp", headers={"authorization": "Bearer acme-token"}, timeout=CALL_TIMEOUT
    ) as listed:
        tool = next(t for t in listed if t.name == "record")
        context = {"meta": {REQUEST_ID_META: f"probe-{uuid.uuid4().hex}"}}
        for label in ("new request id", "replay"):
            before, commands = _get(f"{base}/stats") or {}, _command_calls(gate)
            st.call(tool, {"item": "probe", "qty": 1}, context)
            after, ran = _get(f"{base}/stats") or {}, _command_calls(gate) - commands
            report.probe[label] = after.get("round_trips", 0) - before.get("round_trips", 0)
            report.probe_commands[label] = ran


def run_load(load: Load, folder: Path) -> Report:
    """Run ``load`` (processes and logs in ``folder``) and check what happened: the figures,
    and every broken promise in ``problems``. Every process started here is stopped before
    this returns; every wait is bounded."""
    report = Report(load)
    with ExitStack() as stack:
        gate = stack.enter_context(redis_server(folder / "gate-redis"))
        ledger = stack.enter_context(redis_server(folder / "ledger-redis"))
        bases = stack.enter_context(mcp_servers(folder, gate, ledger, load.servers))
        urls = [f"{base}/mcp" for base in bases]
        clients = []
        for index in range(len(CLIENTS)):
            process, config = _client_process(folder, index, urls, load)
            stack.callback(_stop, process)
            clients.append((process, config))
        for process, config in clients:
            log = folder / f"client-{config['index']}.log"
            _wait(Path(config["ready"]).exists, process, f"client {config['index']}", log)
        before = [_get(f"{base}/stats") or {} for base in bases]
        counter = redis.Redis.from_url(gate)
        stack.callback(counter.close)
        commands_before = _command_calls(counter)
        (folder / "go").touch()
        ends = time.monotonic() + load.bound
        for process, config in clients:
            try:
                process.wait(max(ends - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                _stop(process)
                report.problems.append(
                    f"client {config['index']} did not end within {load.bound:g} s"
                )
        deadline = time.monotonic() + START
        while any((_get(f"{base}/stats") or {}).get("running") for base in bases):
            if time.monotonic() > deadline:  # tool threads a timed-out call left behind
                report.problems.append(f"tool runs still running {START:g} s after the load")
                break
            time.sleep(0.05)
        after = [_get(f"{base}/stats") or {} for base in bases]
        report.commands = _command_calls(counter) - commands_before
        report.round_trips = sum(
            a.get("round_trips", 0) - b.get("round_trips", 0)
            for a, b in zip(after, before, strict=True)
        )
        report.runs = sum(
            a.get("runs", 0) - b.get("runs", 0) for a, b in zip(after, before, strict=True)
        )
        effects = _ledger_effects(ledger)
        listed = [{"tenant": t, "request_id": r, "effects": e} for (t, r), e in effects.items()]
        (folder / "effects.json").write_text(json.dumps(listed))
        outputs = {}
        for process, config in clients:
            out = Path(config["out"])
            if process.returncode != 0 or not out.exists():
                log = folder / f"client-{config['index']}.log"
                report.problems.append(
                    f"client {config['index']} ended with status {process.returncode} and no "
                    f"results; its last lines:\n{_tail(log)}"
                )
                continue
            outputs[config["index"]] = json.loads(out.read_text())
        _tally(report, outputs, effects)
        report.problems += problems(outputs, effects, load)
        try:
            _probe(bases[0], counter, report)
        except StandardToolError as error:
            report.problems.append(f"a call alone after the load failed: {error}")
    return report


def _tally(
    report: Report,
    outputs: dict[int, dict[str, Any]],
    effects: dict[tuple[str | None, str | None], list[dict[str, Any]]],
) -> None:
    seen_runs: set[Any] = set()
    sent, ended, latencies = [], [], []
    for out in outputs.values():
        firsts = set()
        for attempt in sorted(out["attempts"], key=lambda a: a["sent"] + a["seconds"]):
            report.requests += 1
            sent.append(attempt["sent"])
            ended.append(attempt["sent"] + attempt["seconds"])
            if attempt["repeat"]:
                report.repeats += 1
            elif attempt["index"] in firsts:
                report.retries += 1
            else:
                firsts.add(attempt["index"])
            if attempt["kind"] != "unanswered":
                report.answered += 1
                latencies.append(attempt["seconds"] * 1e3)
            if attempt["kind"] == "ok":
                report.results += 1
                run = attempt["result"].get("run") if isinstance(attempt["result"], dict) else None
                if run in seen_runs:
                    report.replays += 1
                seen_runs.add(run)
            elif attempt["kind"] == "refused":
                report.refusals[attempt["code"]] += 1
            else:
                report.errors[f"{attempt['kind']}: {attempt['code']}"] += 1
        report.outcomes.update(outcome["final"] for outcome in out["outcomes"])
    report.effects = sum(len(found) for found in effects.values())
    if sent:
        report.seconds = max(ended) - min(sent)
    if len(latencies) >= 2:
        cuts = statistics.quantiles(latencies, n=100)
        report.latency_ms = (statistics.median(latencies), cuts[94], cuts[98])


def problems(
    outputs: dict[int, dict[str, Any]],
    effects: dict[tuple[str | None, str | None], list[dict[str, Any]]],
    load: Load,
) -> list[str]:
    """Every broken promise of a run, each kind counted with a few examples: an attempt
    without an answer, a call that did not end with a result, more than one effect for a
    (tenant, request id), a result that names another tenant or request id or is not the
    one effect recorded for its call, two different results for one call."""
    found: dict[str, list[str]] = {}
    pairs: dict[str, set[tuple[str | None, str | None]]] = {}

    def broken(kind: str, example: str, pair: tuple[str | None, str | None]) -> None:
        found.setdefault(kind, []).append(example)
        pairs.setdefault(kind, set()).add(pair)

    calls = {call.index: call for call in plan(load.calls)}
    tenants = {index: TOKENS[token] for index, token in enumerate(CLIENTS)}
    results: dict[tuple[str, str], list[Any]] = {}
    for index, out in sorted(outputs.items()):
        tenant = tenants[index]
        for attempt in out["attempts"]:
            call = calls[attempt["index"]]
            key = tenant, call.request_id
            where = f"client {index} ({tenant}) {call.request_id}"
            if attempt["kind"] == "unanswered":
                broken("attempts got no answer", f"{where}: {attempt['code']}", key)
            if attempt["kind"] != "ok":
                continue
            result = attempt["result"]
            results.setdefault((tenant, call.request_id), []).append(result)
            named = (
                (result.get("tenant"), result.get("request_id"))
                if isinstance(result, dict)
                else None
            )
            if named != (tenant, call.request_id):
                broken(
                    "results carried another tenant's or request's result",
                    f"{where} got the result of {named}",
                    key,
                )
            recorded = effects.get((tenant, call.request_id), [])
            if len(recorded) != 1 or recorded[0] != result:
                broken(
                    "results are not the one effect recorded for their call",
                    f"{where}: {len(recorded)} effect(s) recorded, the result is run "
                    f"{result.get('run') if isinstance(result, dict) else result!r}",
                    key,
                )
        for outcome in out["outcomes"]:
            if outcome["final"] != "ok":
                call = calls[outcome["index"]]
                broken(
                    "calls ended without a result",
                    f"client {index} ({tenant}) {call.request_id}: {outcome['final']}",
                    (tenant, call.request_id),
                )
        if len(out["outcomes"]) != len(calls):
            count = f"client {index}: {len(out['outcomes'])} of {len(calls)}"
            broken("clients did not make every call", count, (tenant, None))
    for (who, rid), recorded in sorted(effects.items(), key=str):
        if len(recorded) > 1:
            runs = ", ".join(f"{str(e.get('run'))[:8]} in pid {e.get('pid')}" for e in recorded)
            made = recorded[0].get("tool"), recorded[0].get("delay")
            what = f"{made[0]}, delay {made[1]} s" if made[1] is not None else made[0]
            broken(
                "calls ran more than once",
                f"{who} {rid} ({what}): {len(recorded)} effects ({runs})",
                (who, rid),
            )
    for (who, rid), answers in sorted(results.items()):
        if any(answer != answers[0] for answer in answers):
            distinct = len({json.dumps(a, sort_keys=True) for a in answers})
            broken(
                "calls got different results for one request id",
                f"{who} {rid}: {distinct} different results in {len(answers)}",
                (who, rid),
            )
    return [
        f"{len(examples)} {kind} (in {len(pairs[kind])} (tenant, request id) pairs), e.g. "
        + "; ".join(examples[:EXAMPLES])
        for kind, examples in found.items()
    ]


def describe(report: Report) -> list[str]:
    """The run's figures, as lines of text."""
    calls = report.answered or 1
    rows = [
        f"{report.requests} tools/call requests ({report.answered} answered) in "
        f"{report.seconds:.2f} s: {report.per_second:.0f} calls/s, latency median "
        f"{report.latency_ms[0]:.1f} ms, p95 {report.latency_ms[1]:.1f} ms, p99 "
        f"{report.latency_ms[2]:.1f} ms",
        f"calls {sum(report.outcomes.values())} ({len(CLIENTS)} clients x {report.load.calls}, "
        f"{report.load.concurrency} at once each, {report.load.servers} servers): "
        + ", ".join(f"{n} {k}" for k, n in sorted(report.outcomes.items())),
        f"results {report.results}: replays {report.replays}; effects {report.effects}; tool "
        f"runs {report.runs}; time-outs {report.refusals['timeout']}; deliberate repeats "
        f"{report.repeats}; retries {report.retries}",
        "refusals: " + (", ".join(f"{k} {n}" for k, n in report.refusals.most_common()) or "none"),
        "errors: " + (", ".join(f"{k} ({n})" for k, n in report.errors.most_common()) or "none"),
        f"gate Redis round trips (redis-py sends in the servers): {report.round_trips}, "
        f"{report.round_trips / calls:.2f} per answered call",
        f"gate Redis commands (INFO commandstats, script commands included): "
        f"{sum(report.commands.values())}, {sum(report.commands.values()) / calls:.2f} per "
        "answered call: "
        + ", ".join(f"{k} {n / calls:.2f}" for k, n in report.commands.most_common()),
        "one call alone: "
        + "; ".join(
            f"{label} {n} round trips ("
            + ", ".join(f"{k} {c}" for k, c in sorted(report.probe_commands[label].items()))
            + ")"
            for label, n in report.probe.items()
        ),
    ]
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] != ["client"] or len(sys.argv) != 3:
        raise SystemExit("usage: python _mcp_load.py client CONFIG")
    exit_with_parent()
    asyncio.run(_client(json.loads(Path(sys.argv[2]).read_text())))
