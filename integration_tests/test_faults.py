"""Hostile input and faults, through every target's own runtime (``runtimes``).

Wrong types, extra and missing fields, huge strings and arrays, deeply nested payloads,
malformed JSON, unknown tool names, results that are not JSON, a tool that hangs, an MCP server
killed mid-call, and 100 concurrent calls. Each ends as a clear error naming the tool, in the
framework's own error form, never a crash; no output holds a traceback or the context's secret.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("standard_tool_langchain")
pytest.importorskip("standard_tool_llama_index")
pytest.importorskip("standard_tool_mcp")
pytest.importorskip("standard_tool_pydantic_ai")

import runtimes  # noqa: E402
from runtimes import TARGETS, Runtime  # noqa: E402

import standard_tool as st  # noqa: E402
from standard_tool.exceptions import ConversionError  # noqa: E402
from standard_tool.testing import SECRET, NativeOutcome, sample_tools  # noqa: E402
from standard_tool_mcp import connect, to_asgi_app, to_mcp_server  # noqa: E402
from standard_tool_mcp.testing import serving  # noqa: E402

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:llama_index"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:workflows"),
]

CONTEXT = {"token": SECRET}
SERVERS = Path(__file__).parent / "servers"


@pytest.fixture
def rt() -> Iterator[dict[str, Runtime]]:
    with ExitStack() as stack:
        yield runtimes.runtimes(stack)


def everywhere(
    rt: dict[str, Runtime], tool: st.StandardTool, arguments: Any, context: Any = CONTEXT
) -> dict[str, NativeOutcome]:
    """What each target's runtime tells the model for one call; none leaks or crashes."""
    out = {}
    for target in TARGETS:
        outcome = rt[target].run(rt[target].export(tool), arguments, context)
        text = repr(outcome)
        assert "Traceback (most recent call last)" not in text, (target, text[:500])
        assert SECRET not in text, (target, text[:500])
        assert "RecursionError" not in text, (target, text[:500])
        out[target] = outcome
    return out


def errors(outcomes: dict[str, NativeOutcome]) -> dict[str, str]:
    missing = [target for target, outcome in outcomes.items() if outcome.error is None]
    assert not missing, f"accepted by {missing}: {[outcomes[t] for t in missing]}"
    return {target: outcome.error or "" for target, outcome in outcomes.items()}


# -- wrong, extra, missing, huge and deep input ---------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"a": [1]}, "a"),
        ({"a": {"n": 1}}, "a"),
        ({"a": 1, "zz_extra": 2}, "zz_extra"),
        ({}, "a"),
        ({"b": 2}, "a"),
    ],
    ids=["list-for-int", "object-for-int", "extra", "empty", "missing"],
)
def test_wrong_extra_and_missing_fields_are_errors_naming_them(
    rt: dict[str, Runtime], arguments: dict[str, Any], field: str
) -> None:
    for target, error in errors(everywhere(rt, sample_tools()["add"], arguments)).items():
        # smolagents' agents refuse it themselves before the tool, naming the field only
        assert ("add" in error or rt[target].prechecks) and field in error, (target, error)


def test_huge_strings_and_arrays_arrive_whole(rt: dict[str, Runtime]) -> None:
    query = "q" * 300_000
    for target, outcome in everywhere(
        rt, sample_tools()["search"], {"query": query, "limit": 1}
    ).items():
        assert outcome.value == {"hits": [f"{query}-0"], "total": 1}, target
    person = {"name": "Ada", "tags": [f"t{i}" for i in range(50_000)]}
    for target, outcome in everywhere(rt, sample_tools()["greet"], {"person": person}).items():
        assert outcome.value == "Hello, Ada", target


def test_a_huge_invalid_value_is_not_echoed(rt: dict[str, Runtime]) -> None:
    for target, error in errors(
        everywhere(rt, sample_tools()["add"], {"a": "9" * 500_000})
    ).items():
        named = "add" in error or rt[target].prechecks
        assert named and "a" in error and "9" * 50 not in error, (target, error[:300])
        assert len(error) < 5_000, (target, len(error))


def nested(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


def test_a_deeply_nested_payload_is_an_error_not_a_crash(rt: dict[str, Runtime]) -> None:
    """300 levels (the limit is 256). The MCP SDK's client cannot send it (pydantic refuses to
    serialize that deep): the MCP server gets it as raw JSON-RPC below."""
    arguments = {"query": "q", "filters": {"field": "f", "equals": nested(300)}}
    tool = sample_tools()["search"]
    for target in TARGETS:
        if target == "mcp":
            continue
        outcome = rt[target].run(rt[target].export(tool), arguments, CONTEXT)
        error = outcome.error or ""
        assert "search" in error, (target, outcome)  # PydanticAI's own JSON parser stops first
        assert "deeper than 256" in error or "not valid JSON" in error, (target, outcome)
        assert "Traceback" not in error and SECRET not in error, (target, error[:300])


def test_a_very_deeply_nested_value_is_refused_by_a_standard_call() -> None:
    """100,000 levels: far past Python's recursion limit (frameworks that parse a model's JSON
    text cannot even build such a value; they are sent JSON text below)."""
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(sample_tools()["search"], {"query": "q", "filters": nested(100_000)})
    assert "deeper than 256" in str(raised.value)


def test_malformed_and_deep_json_text_from_a_model_is_a_retry(rt: dict[str, Runtime]) -> None:
    """PydanticAI parses the model's argument text itself: broken or 100,000-deep JSON."""
    from agent_runs import answers, is_retry, run_agent

    native = rt["pydantic-ai"].export(sample_tools()["add"])
    deep = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    for text in ['{"a": 1', "not json at all", deep, '{"a": 1, "a": "x"}']:
        _, result = run_agent([[("add", text)]], tools=[native], deps=CONTEXT)
        (answer,) = answers(result)
        assert is_retry(answer), (text[:20], answer)
        assert "Traceback" not in str(answer.content) and SECRET not in str(answer.content)
    _, result = run_agent([[("add", '{"a": 1}')]], tools=[native], deps=CONTEXT)
    assert answers(result)[0].content == 2  # and the next call works


def _post(url: str, body: str) -> tuple[int, str]:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request("POST", parts.path, body, headers)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def _tools_call(arguments_json: str) -> str:
    return (
        '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": '
        '{"name": "search", "arguments": ' + arguments_json + "}}"
    )


def test_malformed_and_deep_json_over_mcp_http_is_an_error() -> None:
    with serving(to_asgi_app(to_mcp_server([sample_tools()["search"]]))) as url:
        for body in [
            '{"jsonrpc": "2.0", "id": 1, "method": "init',
            "[" * 100_000 + "]" * 100_000,
            _tools_call('{"query": "q", "filters": ' + "[" * 300 + "]" * 300 + "}"),
            _tools_call('{"query": "q", "filters": ' + "[" * 100_000 + "]" * 100_000 + "}"),
            _tools_call('{"query": "q", "limit": "ten"'),
        ]:
            status, text = _post(url, body)
            assert "Traceback" not in text and "RecursionError" not in text, text[:300]
            assert 400 <= status < 500 or '"error"' in text or '"isError":true' in text, (
                status,
                text[:300],
            )
        with connect(url, timeout=10) as (search,):  # the server still answers
            assert st.call(search, {"query": "q", "limit": 1}) == {"hits": ["q-0"], "total": 1}


# -- unknown tool names ----------------------------------------------------------------------


def test_an_unknown_tool_name_is_a_retry_in_pydantic_ai(rt: dict[str, Runtime]) -> None:
    from agent_runs import answers, is_retry, run_agent

    _, result = run_agent(
        [[("no_such_tool", {"a": 1})], [("add", {"a": 1})]],
        tools=[rt["pydantic-ai"].export(sample_tools()["add"])],
        deps=CONTEXT,
    )
    unknown, known = answers(result)
    assert is_retry(unknown) and "no_such_tool" in str(unknown.content)
    assert known.content == 2


def test_an_unknown_tool_name_is_an_error_output_in_llama_index(rt: dict[str, Runtime]) -> None:
    run_llama = sys.modules["li_agent_runs"].run_agent
    native = rt["llama-index"].export(sample_tools()["add"])
    run = asyncio.run(run_llama([native], [[("no_such_tool", {"a": 1}), ("add", {"a": 1})]]))
    unknown, known = run.outputs
    assert unknown.is_error and "no_such_tool" in unknown.content
    assert not known.is_error and known.raw_output == 2


def test_an_unknown_tool_name_is_an_error_message_in_a_langgraph_tool_node(
    rt: dict[str, Runtime],
) -> None:
    prebuilt = pytest.importorskip("langgraph.prebuilt")
    from langchain_core.messages import AIMessage
    from langgraph.graph import END, START, MessagesState, StateGraph

    graph = StateGraph(MessagesState)
    graph.add_node("tools", prebuilt.ToolNode([rt["langchain"].export(sample_tools()["add"])]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    calls = [
        {"name": "no_such_tool", "args": {"a": 1}, "id": "c1", "type": "tool_call"},
        {"name": "add", "args": {"a": 1}, "id": "c2", "type": "tool_call"},
    ]
    state = graph.compile().invoke({"messages": [AIMessage("", tool_calls=calls)]})
    unknown, known = state["messages"][-2:]
    assert unknown.status == "error" and "no_such_tool" in unknown.content
    assert known.status == "success" and known.content == "2"


def test_an_unknown_tool_name_over_mcp_is_an_error() -> None:
    from standard_tool_mcp import _compat

    async def ask(url: str) -> Any:
        transport = _compat.http_client_transport(url, None)
        async with _compat.open_session(transport, 10) as session:
            try:
                return await _compat.call_tool(session, "no_such_tool", {}, 10, None)
            except Exception as error:  # a JSON-RPC error: the SDK raises it
                return error

    with serving(to_asgi_app(to_mcp_server([sample_tools()["add"]]))) as url:
        answer = asyncio.run(ask(url))
    if isinstance(answer, Exception):
        assert "no_such_tool" in str(answer)
    else:
        wire = _compat.dump(answer)
        assert wire.get("isError") and "no_such_tool" in json.dumps(wire["content"])


# -- results that are not JSON ---------------------------------------------------------------


@st.tool
def not_a_number() -> dict[str, Any]:
    """Return a NaN."""
    return {"ratio": float("nan")}


@st.tool
def circular() -> list[Any]:
    """Return a list that contains itself."""
    value: list[Any] = []
    value.append(value)
    return value


@st.tool
def bad_bytes() -> Any:
    """Return bytes that are not UTF-8."""
    return {"raw": b"\xff\xfe"}


@st.tool
def huge_number() -> int:
    """Return an int Python writes no text for (more than 4300 digits)."""
    return 10**5000


@st.tool
async def huge_nested_number() -> dict[str, Any]:
    """Return one inside an object (async)."""
    return {"count": [-(10**4300)]}


def _huge(input: Any, context: Any = None) -> Any:
    return {"count": 10**4300}


huge_raw = st.Tool(
    name="huge_raw",
    description="Return a huge int from a raw JSON Schema tool.",
    input_schema={"type": "object"},
    execute=_huge,
)


@pytest.mark.parametrize(
    "tool",
    [not_a_number, circular, bad_bytes, huge_number, huge_nested_number, huge_raw],
    ids=lambda t: t.name,
)
def test_a_result_that_is_not_json_is_an_output_error(
    rt: dict[str, Runtime], tool: st.StandardTool
) -> None:
    for target, error in errors(everywhere(rt, tool, {})).items():
        assert tool.name in error and "output" in error.lower(), (target, error)
        assert "4300 digits" in error or "huge" not in tool.name, (target, error)
    assert st.call(sample_tools()["add"], {"a": 1}) == 2


# -- a tool that hangs -----------------------------------------------------------------------

RELEASE = threading.Event()


@st.tool(timeout=0.5)
async def hang_async() -> str:
    """Never answer (async)."""
    await asyncio.sleep(120)
    return "late"


@st.tool(timeout=0.5)
def hang_sync() -> str:
    """Never answer (a thread)."""
    RELEASE.wait(120)
    return "late"


@pytest.fixture
def release() -> Iterator[None]:
    RELEASE.clear()
    yield
    RELEASE.set()


@pytest.mark.parametrize("tool", [hang_async, hang_sync], ids=lambda t: t.name)
def test_a_hanging_tool_times_out_in_every_runtime(
    rt: dict[str, Runtime], release: None, tool: st.StandardTool
) -> None:
    for target in TARGETS:
        native = rt[target].export(tool)
        started = time.monotonic()
        outcome = rt[target].run(native, {}, CONTEXT)
        elapsed = time.monotonic() - started
        assert outcome.error is not None and tool.name in outcome.error, (target, outcome)
        assert "0.5" in outcome.error or "timed out" in outcome.error.lower(), (target, outcome)
        assert elapsed < 10, (target, elapsed)


# -- an MCP server killed mid-call -----------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
def test_an_mcp_server_killed_mid_call_is_an_error_within_seconds(
    rt: dict[str, Runtime], tmp_path: Path, target: str
) -> None:
    pid_file = tmp_path / "pid"
    command = [sys.executable, str(SERVERS / "slow_server.py"), str(pid_file)]
    with connect(command, timeout=60) as (slow,):
        native = rt[target].export(slow)
        pid = int(pid_file.read_text())
        with ThreadPoolExecutor(1) as pool:
            pending = pool.submit(rt[target].run, native, {"seconds": 60}, CONTEXT)
            called = time.monotonic() + 30
            while not (tmp_path / "called").exists() and time.monotonic() < called:
                time.sleep(0.02)  # until the call runs on the server
            assert (tmp_path / "called").exists() and not pending.done()
            os.kill(pid, signal.SIGKILL)
            killed = time.monotonic()
            outcome = pending.result(timeout=30)
            elapsed = time.monotonic() - killed
    assert outcome.error is not None and "slow" in outcome.error, outcome
    assert "Traceback" not in outcome.error and SECRET not in outcome.error
    assert elapsed < 10, elapsed


# -- 100 concurrent calls --------------------------------------------------------------------


@st.tool
async def echo(i: int, context: Any = None) -> dict[str, Any]:
    """Answer with the call's number and the number its context holds.

    Args:
        i: The call's number.
    """
    await asyncio.sleep((i * 7 % 10) / 1000)  # answers arrive out of order
    return {"i": i, "square": i * i, "n": (context or {}).get("n")}


N = 100


def test_100_concurrent_standard_calls() -> None:
    async def main() -> list[Any]:
        return await asyncio.gather(*(st.acall(echo, {"i": i}, {"n": i}) for i in range(N)))

    assert asyncio.run(main()) == [{"i": i, "square": i * i, "n": i} for i in range(N)]


def test_100_concurrent_langchain_tool_calls(rt: dict[str, Runtime]) -> None:
    native = rt["langchain"].export(echo)

    async def main() -> list[Any]:
        calls = [
            native.ainvoke(
                {"type": "tool_call", "name": "echo", "args": {"i": i}, "id": f"c{i}"},
                config={"configurable": {"n": i}},
            )
            for i in range(N)
        ]
        return await asyncio.gather(*calls)

    for i, message in enumerate(asyncio.run(main())):
        assert message.tool_call_id == f"c{i}" and message.status == "success"
        assert json.loads(message.content) == {"i": i, "square": i * i, "n": i}


def test_100_concurrent_calls_in_one_pydantic_ai_step(rt: dict[str, Runtime]) -> None:
    from agent_runs import answers, run_agent
    from pydantic_ai.messages import ModelResponse, ToolCallPart

    native = rt["pydantic-ai"].export(echo)
    _, result = run_agent([[("echo", {"i": i}) for i in range(N)]], tools=[native], deps={"n": -1})
    sent = {
        part.tool_call_id: part.args_as_dict()["i"]
        for message in result.all_messages()
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, ToolCallPart)
    }
    got = answers(result)
    assert len(got) == N
    for answer in got:
        i = sent[answer.tool_call_id]
        assert answer.content == {"i": i, "square": i * i, "n": -1}


def test_100_concurrent_calls_in_one_llama_index_step(rt: dict[str, Runtime]) -> None:
    from standard_tool_llama_index import CONTEXT_KEY

    run_llama = sys.modules["li_agent_runs"].run_agent
    native = rt["llama-index"].export(echo)
    run = asyncio.run(
        run_llama(
            [native], [[("echo", {"i": i}) for i in range(N)], "done"], {CONTEXT_KEY: {"n": -1}}
        )
    )
    assert len(run.outputs) == N
    for output in run.outputs:
        i = output.raw_input["kwargs"]["i"]
        assert json.loads(output.content) == {"i": i, "square": i * i, "n": -1}, output


def test_100_concurrent_calls_in_one_openai_agents_step(rt: dict[str, Runtime]) -> None:
    from standard_tool_openai_agents import run_agent

    native = rt["openai-agents"].export(echo)
    run = asyncio.run(run_agent([native], [[("echo", {"i": i}) for i in range(N)]], {"n": -1}))
    assert len(run.outputs) == N
    sent = {
        call["call_id"]: json.loads(call["arguments"])["i"]
        for turn in run.model.seen_inputs
        if isinstance(turn, list)
        for call in turn
        if call.get("type") == "function_call"
    }
    for output, text in zip(run.outputs, run.texts, strict=True):
        i = sent[output.raw_item["call_id"]]
        assert json.loads(text) == {"i": i, "square": i * i, "n": -1}, text


def test_100_concurrent_calls_over_one_mcp_http_session() -> None:
    with serving(to_asgi_app(to_mcp_server([echo]))) as url:

        async def main() -> list[Any]:
            async with connect(url, timeout=30) as (served,):
                return await asyncio.gather(
                    *(st.acall(served, {"i": i}, {"n": i}) for i in range(N))
                )

        results = asyncio.run(main())
    assert [r["i"] for r in results] == list(range(N))
    assert all(r["square"] == r["i"] ** 2 for r in results)


# -- the context never reaches the model -----------------------------------------------------


@st.tool
def parse_token(label: str, context: Any = None) -> int:
    """Parse the context's token as a number (it is not one).

    Args:
        label: Echoed.
    """
    token = context["meta"]["token"] if "meta" in context else context["token"]  # MCP: _meta
    return int(token)


def test_an_exception_quoting_the_context_does_not_leak_it(rt: dict[str, Runtime]) -> None:
    """The core replaces the token in the message; the error still names the tool and says
    what failed."""
    for target, error in errors(everywhere(rt, parse_token, {"label": "x"})).items():
        assert "parse_token" in error and "invalid literal for int()" in error, (target, error)
        assert "'[context value]'" in error, (target, error)


# -- a description longer than LlamaIndex sends --------------------------------------------


def test_a_description_over_1024_characters_is_kept_or_refused_clearly(
    rt: dict[str, Runtime],
) -> None:
    """LlamaIndex's ``to_openai_tool`` raises past 1,024 characters: its adapter refuses such
    a tool when converting, naming it; every other target carries the description whole."""
    long = "Look an item up.\n\n" + "A rule about units and prices. " * 60

    def lookup(sku: str) -> dict[str, str]:
        return {"sku": sku}

    tool = st.tool(lookup, description=long)
    for target in TARGETS:
        if target == "llama-index":
            with pytest.raises(ConversionError, match="'lookup'.*1,024"):
                rt[target].export(tool)
            continue
        native = rt[target].export(tool)
        assert rt[target].run(native, {"sku": "A-1"}, CONTEXT).value == {"sku": "A-1"}, target
        assert rt[target].adopt(native).description == long, target
