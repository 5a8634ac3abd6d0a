"""Each framework's own runtime, driven exactly as its adapter's contract test drives it.

A :class:`Runtime` exports a standard tool to its framework, shows what a model would be sent,
runs a model's call through the framework's runtime, and adopts the framework's object back.
The calls are the ``call_native`` of each adapter's contract test (``packages/*/tests/
test_contract.py``), loaded from there rather than written again:

- ``standard``: ``st.call``; an error is the typed exception's text.
- ``langchain``: ``BaseTool.invoke`` of a model's ``ToolCall``, giving a ``ToolMessage``.
- ``pydantic-ai``: a real ``Agent`` run whose ``FunctionModel`` makes the call.
- ``llama-index``: a real ``FunctionAgent`` run whose scripted function-calling LLM makes it.
- ``openai-agents``: a real ``Runner.run`` of an ``Agent`` whose scripted ``Model`` makes it
  (a strict tool is shown its OpenAI strict rendering, and called as strict mode writes it).
- ``smolagents``: a real ``ToolCallingAgent`` run whose scripted model makes it; smolagents'
  own argument check refuses a wrong JSON type before the tool, naming the field only
  (``prechecks``).
- ``agent-framework``: a real ``agent.run`` of an ``Agent`` whose scripted chat client makes it.
- ``google-adk``: a real ``InMemoryRunner`` run of an ``LlmAgent`` whose scripted ``BaseLlm``
  makes it.
- ``haystack``: a real ``agent.run`` of a Haystack ``Agent`` whose ``MockChatGenerator`` makes it.
- ``agno``: a real ``agent.run`` of an Agno ``Agent`` whose scripted ``Model`` makes it.
- ``mcp``: the tool served by a uvicorn server on 127.0.0.1 (streamable HTTP), called by an
  MCP client session over that transport; adopting it is ``connect(url)``.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import importlib.util
import json
import sys
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import standard_tool as st
from standard_tool.checks import expected_schema
from standard_tool.testing import NativeOutcome

ROOT = Path(__file__).resolve().parents[1]
TARGETS = (
    "standard",
    "langchain",
    "pydantic-ai",
    "llama-index",
    "smolagents",
    "mcp",
    "openai-agents",
    "agent-framework",
    "google-adk",
    "haystack",
    "agno",
)


def refusal_payload(text: str) -> dict[str, Any]:
    """The refusal's one JSON line in what a model read: the whole text in every framework but
    smolagents, whose agent puts a tool's error inside a sentence of its own ("Error executing
    tool ... : ToolRefusedError: {...}")."""
    decoder = json.JSONDecoder()
    for line in text.splitlines():
        start = line.find('{"')
        if start >= 0:
            payload, _ = decoder.raw_decode(line, start)
            if isinstance(payload, dict) and "code" in payload:
                return payload
    raise AssertionError(f"no refusal in {text!r}")


def load(path: str, name: str) -> ModuleType:
    """The module at ``path`` (from the repository root), imported under ``name``."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@dataclass
class Runtime:
    """One framework: export, show the schema, run a model's call, adopt back."""

    name: str
    export: Callable[[st.StandardTool], Any]
    schema: Callable[[Any], dict[str, Any]]
    run: Callable[[Any, Mapping[str, Any], Mapping[str, Any]], NativeOutcome]
    adopt: Callable[[Any], st.StandardTool]
    native_name: Callable[[Any], str] = field(default=lambda native: native.name)
    shown: Callable[[Any, st.StandardTool], Any] = field(
        default=lambda native, tool: st.input_json_schema(tool)
    )
    """The schema a model must be shown for ``native`` made from ``tool`` (the tool's, or its
    rendering in the dialect the target shows: ``standard_tool.checks.expected_schema``)."""
    received: Callable[[Any, Any], Any] = field(default=lambda native, value: value)
    """What the tool receives for a model's ``value`` (OpenAI strict mode: ``null`` for an
    absent property removed, as that dialect says)."""
    prechecks: bool = False
    """The framework refuses some invalid calls itself, before the tool, naming no tool."""


def standard_run(
    tool: st.StandardTool, arguments: Mapping[str, Any], context: Mapping[str, Any]
) -> NativeOutcome:
    try:
        return NativeOutcome(value=st.jsonable(st.call(tool, dict(arguments), context)))
    except st.StandardToolError as error:
        return NativeOutcome(error=str(error))


def _contract(target: str) -> Any:
    """An instance of the adapter's contract test class, ready to call outside pytest."""
    if target == "langchain":
        module = load("packages/standard-tool-langchain/tests/test_contract.py", "lc_contract")
        return module.TestLangChainContract()
    if target == "pydantic-ai":
        tests = str(ROOT / "packages/standard-tool-pydantic-ai/tests")
        if tests not in sys.path:
            sys.path.insert(0, tests)  # its contract imports ``agent_runs`` from there
        module = load("packages/standard-tool-pydantic-ai/tests/test_contract.py", "pai_contract")
        return module.TestPydanticAIContract()
    if target == "llama-index":
        runs = load("packages/standard-tool-llama-index/tests/conftest.py", "li_agent_runs")
        module = load("packages/standard-tool-llama-index/tests/test_contract.py", "li_contract")
        contract = module.TestLlamaIndexContract()
        contract.run_agent = runs.run_agent  # what its ``agent`` fixture gives
        return contract
    if target == "openai-agents":
        module = load("packages/standard-tool-openai-agents/tests/test_contract.py", "oa_contract")
        return module.TestOpenAIAgentsContract()
    if target == "smolagents":
        module = load("packages/standard-tool-smolagents/tests/test_contract.py", "smol_contract")
        return module.TestSmolagentsContract()
    if target == "agent-framework":
        module = load(
            "packages/standard-tool-agent-framework/tests/test_contract.py", "af_contract"
        )
        return module.TestAgentFrameworkContract()
    if target == "google-adk":
        module = load("packages/standard-tool-google-adk/tests/test_contract.py", "adk_contract")
        return module.TestGoogleAdkContract()
    if target == "haystack":
        module = load("packages/standard-tool-haystack/tests/test_contract.py", "hs_contract")
        return module.TestHaystackContract()
    if target == "agno":
        module = load("packages/standard-tool-agno/tests/test_contract.py", "agno_contract")
        return module.TestAgnoContract()
    if target == "mcp":
        module = load("packages/standard-tool-mcp/tests/test_contract.py", "mcp_contract")
        contract = module.TestMCPContract()
        contract.opened = []  # what its ``_connections`` fixture sets up
        return contract
    raise LookupError(target)


def runtimes(stack: ExitStack) -> dict[str, Runtime]:
    """Every target's runtime; servers and connections they open close with ``stack``."""
    out = {
        "standard": Runtime(
            "standard",
            export=lambda tool: st.convert(tool, to="standard"),
            schema=st.input_json_schema,
            run=standard_run,
            adopt=st.adopt,
        )
    }
    for target in (
        "langchain",
        "pydantic-ai",
        "llama-index",
        "openai-agents",
        "smolagents",
        "agent-framework",
        "google-adk",
        "haystack",
        "agno",
    ):
        contract = _contract(target)
        out[target] = Runtime(
            target,
            export=contract.to_native,
            schema=contract.native_schema,
            run=contract.call_native,
            adopt=contract.from_native,
            native_name=contract.native_name,
            shown=functools.partial(_shown, contract.contract_runtime()),
            prechecks=bool(getattr(contract.runtime(), "prechecks", False)),
        )
    out["openai-agents"].received = _strict_received
    mcp = _contract("mcp")
    from standard_tool_mcp._runtime import ServedTool as served_type

    servers: list[AbstractContextManager[str]] = []

    def export_mcp(tool: st.StandardTool) -> Any:
        from standard_tool_mcp import to_asgi_app, to_mcp_server
        from standard_tool_mcp.testing import serving

        server = serving(to_asgi_app(to_mcp_server([tool])))
        url = server.__enter__()
        servers.append(server)
        return served_type(st.convert(tool, to="mcp"), url)

    def stop_servers() -> None:
        """Each server stops within a tick of its loop (a tenth of a second): all at once."""
        with ThreadPoolExecutor(max_workers=max(1, len(servers))) as pool:
            for stopped in [pool.submit(s.__exit__, None, None, None) for s in servers]:
                stopped.result()

    def close_connections() -> None:
        for connection in mcp.opened:
            connection.__exit__(None, None, None)

    # The clients close first: a server stopped under an open session waits out its grace.
    stack.callback(stop_servers)
    stack.callback(close_connections)
    out["mcp"] = Runtime(
        "mcp",
        export=export_mcp,
        schema=mcp.native_schema,
        run=mcp.call_native,
        adopt=mcp.from_native,
        native_name=mcp.native_name,
    )
    return out


def _shown(registered: Any, native: Any, tool: st.StandardTool) -> Any:
    """The schema ``registered``'s framework shows for ``native`` (``expected_schema``), or,
    for a framework with a dialect of its own that names no provider dialect (smolagents'
    ``inputs``), the tool's own schema, which the native object carries for adoption."""
    expected = expected_schema(registered, native, tool)
    return st.input_json_schema(tool) if expected is None else expected


def _strict_received(native: Any, value: Any) -> Any:
    """``value`` as a strict Agents SDK tool hands it to its standard tool."""
    from standard_tool.providers import null_undo

    undo = null_undo(native.standard_tool) if native.strict_json_schema else None
    return undo(copy.deepcopy(value)) if undo is not None else value


def run_async(coroutine: Any) -> Any:
    """Run a coroutine on a loop of its own (the runtimes above are called from sync code)."""
    return asyncio.run(coroutine)


RESULTS: dict[tuple[str, str], str] = {}
"""What each path gave: ``(source, target)`` -> ``"ok"`` or what differed, filled by the tests."""


def table() -> list[str]:
    """The source x target table of :data:`RESULTS`, as Markdown."""
    sources = list(dict.fromkeys(source for source, _ in RESULTS))
    lines = ["| source \\ target | " + " | ".join(TARGETS) + " |"]
    lines.append("|---" * (len(TARGETS) + 1) + "|")
    for source in sources:
        cells = [RESULTS.get((source, target), "-") for target in TARGETS]
        lines.append(f"| {source} | " + " | ".join(cells) + " |")
    return lines


def native_tools(source: str) -> list[Any]:
    """``multiply`` and ``refuse`` written with the source framework's own API."""

    def multiply(a: int, b: int) -> int:
        """Multiply two integers."""
        return a * b

    if source == "langchain":
        from langchain_core.tools import StructuredTool, ToolException

        def refuse(reason: str) -> str:
            """Refuse, saying why."""
            raise ToolException(f"refused: {reason}")

        return [
            StructuredTool.from_function(multiply),
            StructuredTool.from_function(refuse, handle_tool_error=True),
        ]
    if source == "pydantic-ai":
        from pydantic_ai import ModelRetry, Tool

        def refuse_retry(reason: str) -> str:
            """Refuse, saying why."""
            raise ModelRetry(f"refused: {reason}")

        return [Tool(multiply), Tool(refuse_retry, name="refuse")]
    if source == "llama-index":
        from llama_index.core.tools import FunctionTool

        def refuse_error(reason: str) -> str:
            """Refuse, saying why."""
            raise ValueError(f"refused: {reason}")

        return [
            FunctionTool.from_defaults(multiply),
            FunctionTool.from_defaults(refuse_error, name="refuse"),
        ]
    if source == "openai-agents":
        from agents import function_tool

        def refuse_raise(reason: str) -> str:
            """Refuse, saying why."""
            raise ValueError(f"refused: {reason}")

        return [function_tool(multiply), function_tool(refuse_raise, name_override="refuse")]

    if source == "smolagents":
        from smolagents import tool

        def refuse_smol(reason: str) -> str:
            """Refuse, saying why.

            Args:
                reason: Why.
            """
            raise ValueError(f"refused: {reason}")

        refuse_smol.__name__ = "refuse"
        multiply.__doc__ = "Multiply two integers.\n\nArgs:\n    a: A factor.\n    b: A factor.\n"
        return [tool(multiply), tool(refuse_smol)]

    if source == "agent-framework":
        from agent_framework import tool as af_tool

        def refuse_af(reason: str) -> str:
            """Refuse, saying why."""
            raise ValueError(f"refused: {reason}")

        return [af_tool(multiply), af_tool(refuse_af, name="refuse")]

    if source == "google-adk":
        from google.adk.tools.function_tool import FunctionTool as AdkFunctionTool

        def refuse(reason: str) -> dict[str, str]:
            """Refuse, saying why (as an ADK tool answers a failure: a raised error would end
            the run)."""
            return {"error": f"refused: {reason}"}

        return [AdkFunctionTool(multiply), AdkFunctionTool(refuse)]

    if source == "haystack":
        from haystack.tools import create_tool_from_function

        def refuse_hs(reason: str) -> str:
            """Refuse, saying why."""
            raise ValueError(f"refused: {reason}")

        return [
            create_tool_from_function(multiply),
            create_tool_from_function(refuse_hs, name="refuse"),
        ]

    if source == "agno":
        from agno.tools.function import Function as AgnoFunction

        def refuse_agno(reason: str) -> str:
            """Refuse, saying why."""
            raise ValueError(f"refused: {reason}")

        return [
            AgnoFunction.from_callable(multiply),
            AgnoFunction.from_callable(refuse_agno, name="refuse"),
        ]

    import importlib

    from standard_tool_mcp import _compat

    exceptions = "mcpserver" if _compat.MAJOR >= 2 else "fastmcp"
    tool_error = importlib.import_module(f"mcp.server.{exceptions}.exceptions").ToolError

    def refuse_sdk(reason: str) -> str:
        """Refuse, saying why."""
        raise tool_error(f"refused: {reason}")  # the SDK's model-facing error

    return [sdk_served(multiply, "multiply"), sdk_served(refuse_sdk, "refuse")]


def sdk_served(function: Any, name: str) -> Any:
    """``function`` as the only tool of the MCP SDK's own server (``MCPServer``, ``FastMCP``
    on 1.x), with its listed descriptor."""
    from standard_tool_mcp import _compat

    if _compat.MAJOR >= 2:
        from mcp.server.mcpserver import MCPServer

        server: Any = MCPServer("sdk")
    else:
        from mcp.server.fastmcp import FastMCP

        server = FastMCP("sdk")
    server.tool(name=name)(function)

    async def listed() -> Any:
        async with _compat.memory_session(server) as session:
            return (await _compat.list_tools_page(session, None))[0][0]

    from standard_tool_mcp._runtime import ServedTool

    return ServedTool(run_async(listed()), server)
