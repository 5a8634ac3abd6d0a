"""Real third-party LangChain tools (langchain-community's file management, sleep, requests,
JSON and human input tools) as test material."""

from __future__ import annotations

import asyncio
import threading
import warnings
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool

import standard_tool as st
from standard_tool import registry
from standard_tool.testing import assert_same_verdict
from standard_tool_langchain import (
    from_langchain,
    from_langchain_tools,
    to_langchain,
    to_langchain_tools,
)

FRAMEWORKS = ("langchain", "pydantic-ai", "llama-index", "mcp", "openai-agents", "smolagents")
RUNTIMES = [t.name for t in registry.targets() if t.name in FRAMEWORKS]
"""The installed frameworks whose runtimes run the adopted tools."""


@pytest.fixture
def toolkit(tmp_path: Path) -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=".*langchain-community.*", category=DeprecationWarning
        )
        from langchain_community.agent_toolkits import FileManagementToolkit

    return FileManagementToolkit(root_dir=str(tmp_path))


def test_file_tools_run_as_standard_tools(toolkit: Any, tmp_path: Path) -> None:
    tools = {tool.name: tool for tool in from_langchain_tools(toolkit)}
    assert {"read_file", "write_file", "list_directory", "copy_file"} <= set(tools)
    assert "text" in st.input_json_schema(tools["write_file"])["properties"]
    assert st.call(tools["write_file"], {"file_path": "a.txt", "text": "hello"}).startswith(
        "File written"
    )
    assert (tmp_path / "a.txt").read_text() == "hello"
    assert st.call(tools["read_file"], {"file_path": "a.txt"}) == "hello"
    assert asyncio.run(
        st.acall(tools["copy_file"], {"source_path": "a.txt", "destination_path": "b.txt"})
    )
    assert set(st.call(tools["list_directory"], {}).split("\n")) == {"a.txt", "b.txt"}
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(tools["read_file"], {"path": "a.txt"})
    assert "file_path" in raised.value.fields


def test_file_tools_round_trip(toolkit: Any, tmp_path: Path) -> None:
    natives = {tool.name: tool for tool in toolkit.get_tools()}
    again = {tool.name: tool for tool in to_langchain_tools(from_langchain_tools(toolkit))}
    for name, native in natives.items():
        assert convert_to_openai_tool(again[name]) == convert_to_openai_tool(native), name
    again["write_file"].invoke({"file_path": "r.txt", "text": "round"})
    assert natives["read_file"].invoke({"file_path": "r.txt"}) == again["read_file"].invoke(
        {"file_path": "r.txt"}
    )


def test_file_tools_in_a_tool_loop(toolkit: Any, tmp_path: Path, tool_loop: Any) -> None:
    tools = [to_langchain(tool) for tool in from_langchain_tools(toolkit)]
    replies = [
        AIMessage(
            "",
            tool_calls=[
                {"name": "write_file", "args": {"file_path": "n.txt", "text": "note"}, "id": "c1"}
            ],
        ),
        AIMessage(
            "", tool_calls=[{"name": "read_file", "args": {"file_path": "n.txt"}, "id": "c2"}]
        ),
        AIMessage("", tool_calls=[{"name": "read_file", "args": {}, "id": "c3"}]),
        AIMessage("done"),
    ]
    model, messages = tool_loop(replies, tools)
    results = [m for m in messages if isinstance(m, ToolMessage)]
    assert [m.status for m in results] == ["success", "success", "error"]
    assert results[1].content == "note" and "file_path" in results[2].content
    assert len(model.seen_tools[0]) == len(tools)


# -- adopted, they accept what the JSON Schema a model is shown accepts -----------------


def community_tools() -> Any:
    """langchain-community's tool modules, imported quietly."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        from langchain_community.tools.human.tool import HumanInputRun
        from langchain_community.tools.json.tool import JsonListKeysTool, JsonSpec
        from langchain_community.tools.requests.tool import RequestsGetTool
        from langchain_community.tools.sleep.tool import SleepTool
        from langchain_community.utilities.requests import TextRequestsWrapper

    return SimpleNamespace(
        HumanInputRun=HumanInputRun,
        JsonListKeysTool=JsonListKeysTool,
        JsonSpec=JsonSpec,
        RequestsGetTool=RequestsGetTool,
        SleepTool=SleepTool,
        TextRequestsWrapper=TextRequestsWrapper,
    )


@pytest.fixture
def loopback(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The address of a page served on 127.0.0.1 for the test: no call leaves the machine."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"hello from loopback"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(name, "127.0.0.1")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/page"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class Starts(BaseCallbackHandler):
    """Counts the runs a LangChain tool starts."""

    def __init__(self) -> None:
        self.count = 0

    def on_tool_start(self, serialized: Any, input_str: str, **kwargs: Any) -> None:
        self.count += 1


@pytest.mark.parametrize("seconds", ["0", True])
def test_sleep_refuses_what_is_no_json_integer(seconds: Any) -> None:
    starts = Starts()
    sleep = community_tools().SleepTool(callbacks=[starts])
    assert sleep.args_schema.model_validate({"sleep_time": seconds}).sleep_time == int(seconds)
    assert sleep.invoke({"sleep_time": "0"}) == "Agent slept for 0 seconds."  # LangChain coerces
    assert starts.count == 1
    assert_same_verdict(
        from_langchain(sleep), {"sleep_time": seconds}, "sleep_time", targets=RUNTIMES
    )
    assert starts.count == 1  # refused before LangChain ran the tool, in every target


def test_sleep_runs_with_an_integer() -> None:
    starts = Starts()
    adopted = from_langchain(community_tools().SleepTool(callbacks=[starts]))
    assert (
        assert_same_verdict(adopted, {"sleep_time": 0}, None, targets=RUNTIMES)
        == "Agent slept for 0 seconds."
    )
    assert starts.count == 1 + len(RUNTIMES)
    assert_same_verdict(adopted, {}, "sleep_time", targets=RUNTIMES)
    assert starts.count == 1 + len(RUNTIMES)


def test_requests_get_checks_its_url(loopback: str) -> None:
    tools = community_tools()
    native = tools.RequestsGetTool(
        requests_wrapper=tools.TextRequestsWrapper(), allow_dangerous_requests=True
    )
    assert native.args_schema is None  # only _run: LangChain checks nothing
    adopted = from_langchain(native)
    assert (
        assert_same_verdict(adopted, {"url": loopback}, None, targets=RUNTIMES)
        == "hello from loopback"
    )
    assert_same_verdict(adopted, {"url": 987654321}, "url", targets=RUNTIMES)
    assert_same_verdict(adopted, {}, "url", targets=RUNTIMES)


def test_json_list_keys_checks_its_input() -> None:
    tools = community_tools()
    adopted = from_langchain(tools.JsonListKeysTool(spec=tools.JsonSpec(dict_={"a": {"b": 1}})))
    assert (
        assert_same_verdict(adopted, {"tool_input": 'data["a"]'}, None, targets=RUNTIMES) == "['b']"
    )
    assert_same_verdict(adopted, {"tool_input": 424242}, "tool_input", targets=RUNTIMES)
    assert_same_verdict(adopted, {}, "tool_input", targets=RUNTIMES)


def test_human_input_checks_its_query() -> None:
    asked: list[str] = []
    native = community_tools().HumanInputRun(prompt_func=asked.append, input_func=lambda: "yes")
    adopted = from_langchain(native)
    assert assert_same_verdict(adopted, {"query": "go on?"}, None, targets=RUNTIMES) == "yes"
    assert_same_verdict(adopted, {"query": 424242}, "query", targets=RUNTIMES)
    assert_same_verdict(adopted, {}, "query", targets=RUNTIMES)
    assert set(asked) == {"go on?"}  # only the valid calls reached the person
