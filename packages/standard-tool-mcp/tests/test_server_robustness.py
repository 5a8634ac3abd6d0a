"""A served tool can do anything (hang, raise, report, return garbage): the server answers
every call with a result, stays reachable, and sends what tools report as notifications."""

from __future__ import annotations

import asyncio
import json
import math
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pydantic
import pytest

import standard_tool as st
from standard_tool.exceptions import UsageError
from standard_tool_mcp import Audio, Image, Resource, to_mcp_server
from standard_tool_mcp._compat import MAJOR, dump, result_parts

SECRET = "token=sk-do-not-echo"
PNG = b"\x89PNG\r\n\x1a\n"


@asynccontextmanager
async def client(server: Any, level: str | None = None, **callbacks: Any) -> AsyncIterator[Any]:
    """A real SDK client connected in memory; ``level`` asks for log messages at that level
    (``logging/setLevel`` before protocol 2026-07-28, the per-request opt-in since)."""
    if MAJOR >= 2:
        from mcp import Client

        extra = {} if level is None else {"log_level": level}
        async with Client(server, **extra, **callbacks) as session:
            yield session
        return
    from mcp.shared.memory import create_connected_server_and_client_session

    async with create_connected_server_and_client_session(server, **callbacks) as session:
        if level is not None:
            await session.set_logging_level(level)
        yield session


async def call(session: Any, name: str, arguments: dict[str, Any], progress: Any = None) -> Any:
    is_error, content, structured = result_parts(
        await session.call_tool(name, arguments, None, progress)
    )
    return SimpleNamespace(
        is_error=is_error,
        blocks=[dump(block) for block in content],
        text="\n".join(getattr(block, "text", "") for block in content),
        structured=structured,
    )


# -- progress and log messages -------------------------------------------------------------


@st.tool
def work(n: int) -> int:
    """Report progress and log at two levels (a sync tool: reports cross threads)."""
    for i in range(1, n + 1):
        st.report_progress(i, n, f"step {i}")
        st.report_progress(i - 0.5, n)  # going back: dropped, MCP progress only increases
        st.report_log(f"detail {i}", level="debug")
        st.report_log(f"done {i}", data={"i": i})
    return n


@st.tool
async def awork(n: int) -> int:
    """The same, async."""
    await asyncio.sleep(0)
    return work.function(n)  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize("tool", [work, awork], ids=["sync", "async"])
@pytest.mark.parametrize("level", ["debug", "info", "warning"])
async def test_reports_become_notifications_of_the_call(tool: st.Tool, level: str) -> None:
    logs: list[tuple[str, Any, str | None]] = []
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_log(params: Any) -> None:
        logs.append((params.level, params.data, params.logger))

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total, message))

    async with client(to_mcp_server(tool), level, logging_callback=on_log) as session:
        result = await call(session, tool.name, {"n": 2}, on_progress)
    assert not result.is_error and result.text == "2"
    assert progress == [(1.0, 2.0, "step 1"), (2.0, 2.0, "step 2")]
    info = [("info", {"message": f"done {i}", "data": {"i": i}}, tool.name) for i in (1, 2)]
    debug = [("debug", f"detail {i}", tool.name) for i in (1, 2)]
    expected = {"debug": [debug[0], info[0], debug[1], info[1]], "info": info, "warning": []}
    assert logs == expected[level]


async def test_without_a_chosen_level_info_and_above_are_sent() -> None:
    logs: list[str] = []

    async def on_log(params: Any) -> None:
        logs.append(params.level)

    server = to_mcp_server(work, log_level="info")
    async with client(server, None if MAJOR < 2 else "info", logging_callback=on_log) as session:
        await call(session, "work", {"n": 1})
    assert logs == ["info"]


async def test_a_report_that_cannot_be_sent_never_fails_the_call() -> None:
    @st.tool
    def odd() -> str:
        """Log data that is not JSON."""
        st.report_log("odd", data={"values": {1, 2}})
        return "fine"

    async with client(to_mcp_server(odd), "debug") as session:
        result = await call(session, "odd", {})
    assert (result.is_error, result.text) == (False, "fine")


# -- media results ---------------------------------------------------------------------------


@st.tool
def picture() -> Image:
    """Return an image."""
    return Image(PNG, "image/png")


@st.tool
def mixed() -> list[str | Image | Audio | Resource | dict[str, int]]:
    """Return text and media together."""
    return [
        "caption",
        Image(PNG, "image/png"),
        Audio(b"RIFF", "audio/wav"),
        Resource("test://r", "text/plain", text="body"),
        {"n": 1},
    ]


@st.tool
def broken_picture() -> Any:
    """Return an image whose data is not bytes."""
    return Image("not bytes", "image/png")  # type: ignore[arg-type]


async def test_media_returns_declare_no_output_schema_and_send_blocks() -> None:
    server = to_mcp_server([picture, mixed, broken_picture])
    async with client(server) as session:
        listed = {t.name: dump(t) for t in (await session.list_tools()).tools}
        image = await call(session, "picture", {})
        several = await call(session, "mixed", {})
        broken = await call(session, "broken_picture", {})
    assert "outputSchema" not in listed["picture"] and "outputSchema" not in listed["mixed"]
    assert image.blocks == [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]
    assert image.structured is None and not image.is_error
    assert [block["type"] for block in several.blocks] == [
        "text",
        "image",
        "audio",
        "resource",
        "text",
    ]
    assert several.blocks[0]["text"] == "caption" and several.blocks[4]["text"] == '{"n": 1}'
    assert several.blocks[3]["resource"] == {
        "uri": "test://r",
        "mimeType": "text/plain",
        "text": "body",
    }
    assert broken.is_error and "broken_picture" in broken.text and "not bytes" not in broken.text


@st.tool
def captioned() -> list:  # type: ignore[type-arg]
    """Return a caption and an image, under an output schema (any list)."""
    return ["caption", Image(PNG, "image/png")]


async def test_media_under_an_output_schema_is_sent_as_structured_content_too() -> None:
    image = {"data": "iVBORw0KGgo=", "mime_type": "image/png"}  # its JSON form (the core's)
    async with client(to_mcp_server([captioned])) as session:  # it checks results
        listed = {t.name: dump(t) for t in (await session.list_tools()).tools}
        result = await call(session, "captioned", {})
    assert "outputSchema" in listed["captioned"]
    assert not result.is_error and result.structured == {"result": ["caption", image]}
    assert result.blocks == [
        {"type": "text", "text": "caption"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
    ]


# -- input schemas whose root is not an object ----------------------------------------------


class Node(pydantic.BaseModel):
    value: int
    children: list[Node] = []


@st.tool
def tree(root: Node) -> int:
    """Count the nodes of a tree."""
    return 1 + sum(tree.function(child) for child in root.children)  # type: ignore[attr-defined]


def _raw(name: str, schema: Any) -> st.Tool:
    return st.Tool(name=name, description="d", input_schema=schema, execute=lambda i, c=None: "ok")


ROOTS = {
    "empty": {},
    "true": True,
    "any_of": {"anyOf": [{"type": "object", "required": ["a"]}, {"type": "object"}]},
    "ref": {"$ref": "#/$defs/args", "$defs": {"args": {"type": "object"}}},
    "types": {"type": ["object", "null"]},
}


async def test_every_tool_is_listed_with_an_object_root() -> None:
    recursive = st.Tool(
        name="recursive",
        description="A root $ref to a recursive model.",
        input_schema=Node,
        execute=lambda i, c=None: i["value"],
    )
    tools = [*(_raw(name, schema) for name, schema in ROOTS.items()), recursive, tree]
    async with client(to_mcp_server(tools)) as session:
        listed = {t.name: dump(t)["inputSchema"] for t in (await session.list_tools()).tools}
        ok = await call(session, "ref", {"x": 1})
        counted = await call(session, "tree", {"root": {"value": 1, "children": [{"value": 2}]}})
    assert set(listed) == {*ROOTS, "recursive", "tree"}
    assert all(schema["type"] == "object" for schema in listed.values())
    assert listed["ref"]["$ref"] == "#/$defs/args" and "anyOf" in listed["any_of"]
    assert (ok.text, counted.text) == ("ok", "2")


@pytest.mark.parametrize("schema", [{"type": "string"}, False, {"type": ["array", "null"]}])
def test_a_root_that_admits_no_object_is_refused_when_the_server_is_built(schema: Any) -> None:
    with pytest.raises(UsageError, match="'scalar' cannot be served over MCP"):
        to_mcp_server([work, _raw("scalar", schema)])


# -- results that are not JSON, and anything a tool raises ----------------------------------


def _cycle() -> list[Any]:
    items: list[Any] = [SECRET]
    items.append(items)
    return items


def _deep() -> list[Any]:
    value: list[Any] = []
    for _ in range(10_000):
        value = [value]
    return value


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError(SECRET)


def _raise(exc: BaseException) -> Any:
    raise exc


async def _sleep_then_raise(exc: BaseException) -> Any:
    await asyncio.sleep(0)
    raise exc


BAD = {
    "cycle": lambda: _cycle(),
    "deep": lambda: _deep(),
    "bytes": lambda: b"\xff" + SECRET.encode(),
    "nan": lambda: {"x": math.nan},
    "unprintable": lambda: _raise(Unprintable()),
    "system_exit": lambda: _raise(SystemExit(2)),
    "keyboard_interrupt": lambda: _raise(KeyboardInterrupt()),
}


def _tools() -> list[Any]:
    out: list[Any] = []
    for name, make in BAD.items():
        out.append(st.Tool(name=name, description="d", execute=lambda i, c=None, make=make: make()))
        out.append(
            SimpleNamespace(  # not a Tool: the server checks its result itself
                name=f"plain_{name}",
                description="d",
                input_schema={"type": "object"},
                execute=lambda i, c=None, make=make: make(),
            )
        )
    out.append(
        st.Tool(
            name="async_system_exit",
            description="d",
            execute=lambda i, c=None: _sleep_then_raise(SystemExit(1)),
        )
    )
    return out


async def test_every_failure_is_an_error_result_and_the_server_survives() -> None:
    tools = _tools()
    async with client(to_mcp_server([*tools, work])) as session:
        for tool in tools:
            result = await call(session, tool.name, {})
            assert result.is_error, tool.name
            assert f"'{tool.name}'" in result.text and SECRET not in result.text, result.text
            assert "Traceback" not in result.text
        assert (await call(session, "work", {"n": 1})).text == "1"


async def test_output_values_never_appear_in_error_text() -> None:
    leaky = st.Tool(
        name="leaky",
        description="Returns a string where an integer is due.",
        output_schema={"type": "integer"},
        execute=lambda i, c=None: SECRET,
    )
    plain = SimpleNamespace(
        name="plain",
        description="The same, checked by the server.",
        input_schema={"type": "object"},
        output_schema={"type": "integer"},
        execute=lambda i, c=None: SECRET,
    )
    async with client(to_mcp_server([leaky, plain])) as session:
        for name in ("leaky", "plain"):
            result = await call(session, name, {})
            assert result.is_error and "output" in result.text and SECRET not in result.text


# -- time limits, concurrency and cancellation ----------------------------------------------


@st.tool
def nap(seconds: float) -> float:
    """Block the thread for a while."""
    time.sleep(seconds)
    return seconds


@st.tool(timeout=0.2)
def short_nap(seconds: float) -> float:
    """Block, with a time limit of its own."""
    time.sleep(seconds)
    return seconds


async def test_a_call_past_the_server_timeout_is_an_error_result() -> None:
    server = to_mcp_server([nap, short_nap], timeout=0.5)
    async with client(server) as session:
        start = time.monotonic()
        slow = await call(session, "nap", {"seconds": 5})
        own = await call(session, "short_nap", {"seconds": 5})
        elapsed = time.monotonic() - start
        fast = await call(session, "nap", {"seconds": 0})
    assert slow.is_error and "within 0.5 s" in slow.text
    assert own.is_error and "within 0.2 s" in own.text
    assert elapsed < 3 and not fast.is_error


async def test_slow_sync_calls_do_not_starve_the_others() -> None:
    async with client(to_mcp_server(nap, timeout=10)) as session:
        slow = [asyncio.ensure_future(call(session, "nap", {"seconds": 2})) for _ in range(12)]
        await asyncio.sleep(0.2)
        start = time.monotonic()
        fast = await call(session, "nap", {"seconds": 0})
        waited = time.monotonic() - start
        results = await asyncio.gather(*slow)
    assert not fast.is_error and waited < 1.5  # starved, it would wait for a 2 s sleep
    assert all(r.text == "2.0" for r in results)


@st.tool(timeout=5)
def hold(seconds: float) -> float:
    """Block for a while, with a time limit of its own (longer than the server's)."""
    time.sleep(seconds)
    return seconds


async def test_past_the_concurrency_limit_calls_wait_for_a_slot() -> None:
    async with client(to_mcp_server([hold, nap], timeout=5, max_concurrency=1)) as session:
        holding = asyncio.ensure_future(call(session, "hold", {"seconds": 0.5}))
        await asyncio.sleep(0.1)
        start = time.monotonic()
        queued = await call(session, "nap", {"seconds": 0})
        waited = time.monotonic() - start
        await holding
    assert not queued.is_error and 0.2 < waited < 3


async def test_a_call_that_finds_no_slot_within_its_time_limit_fails_as_busy() -> None:
    async with client(to_mcp_server([hold, nap], timeout=0.3, max_concurrency=1)) as session:
        holding = asyncio.ensure_future(call(session, "hold", {"seconds": 1.5}))
        await asyncio.sleep(0.1)
        busy = await call(session, "nap", {"seconds": 0})
        held = await holding
    assert busy.is_error and "busy (1 calls running)" in busy.text
    assert not held.is_error


async def test_a_cancelled_request_cancels_the_tool() -> None:
    cancelled = asyncio.Event()
    started = asyncio.Event()

    @st.tool
    async def forever() -> str:
        """Wait until cancelled."""
        started.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "never"

    async with client(to_mcp_server(forever)) as session:
        if MAJOR >= 2:  # the client sends notifications/cancelled when its call is cancelled
            with anyio.move_on_after(0.5):
                await call(session, "forever", {})
        else:  # the 1.x client does not: send it as a client would
            import mcp.types as types

            request_id = session._request_id  # the id of the next request
            running = asyncio.ensure_future(call(session, "forever", {}))
            await asyncio.wait_for(started.wait(), 3)
            params = types.CancelledNotificationParams(requestId=request_id, reason="test")
            await session.send_notification(
                types.ClientNotification(types.CancelledNotification(params=params))
            )
            running.cancel()
        assert started.is_set()
        await asyncio.wait_for(cancelled.wait(), 3)


@pytest.mark.parametrize(
    "settings",
    [{"timeout": 0}, {"timeout": math.inf}, {"max_concurrency": 0}, {"max_concurrency": 1.5}],
)
def test_settings_are_checked(settings: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        to_mcp_server(work, **settings)


def test_log_level_is_checked() -> None:
    with pytest.raises(UsageError, match="log_level"):
        to_mcp_server(work, log_level="verbose")  # type: ignore[arg-type]


# -- a stdio server ends with its client -----------------------------------------------------

SERVER = Path(__file__).parent / "servers" / "exiting_server.py"


@pytest.mark.parametrize("tool", ["slow", "leave"])
def test_a_stdio_server_exits_promptly_when_stdin_closes(tool: str) -> None:
    process = subprocess.Popen(
        [sys.executable, str(SERVER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None

    def send(message: dict[str, Any]) -> None:
        assert process.stdin is not None
        process.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
        process.stdin.flush()

    try:
        send(
            {
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"},
                },
            }
        )
        assert json.loads(process.stdout.readline())["id"] == 1
        send({"method": "notifications/initialized"})
        arguments = {"seconds": 30} if tool == "slow" else {}
        send({"id": 2, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
        if tool == "leave":  # the server answers, and lives on
            answer = json.loads(process.stdout.readline())
            assert answer["id"] == 2 and answer["result"]["isError"] is True
        time.sleep(0.3)
        assert process.poll() is None
        start = time.monotonic()
        process.stdin.close()
        process.wait(timeout=10)
        assert time.monotonic() - start < 3
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
