"""Tools the command-line tests load as SOURCE (``packages/standard-tool-cli/tests/sources.py:...``)."""

from __future__ import annotations

import os
import threading
from typing import Any

from standard_tool import Tool, tool


@tool
def whoami(label: str, context: Any = None) -> dict[str, Any]:
    """Say which label and which context the call had (served over MCP: the request's _meta)."""
    if isinstance(context, dict) and "session" in context:  # the server session is not data
        context = {"meta": context.get("meta")}
    return {"label": label, "context": context}


@tool
def explode(reason: str) -> str:
    """Fail on purpose."""
    raise RuntimeError(f"exploded: {reason}")


def _shout(input: str, context: Any = None) -> str:
    return input.upper()


shout = Tool(
    name="shout",
    description="Shout a string (its input is not an object: no framework takes that).",
    input_schema={"type": "string"},
    execute=_shout,
)


@tool
def stall(label: str = "x") -> str:
    """Wait for an answer that never comes (five minutes at most)."""
    threading.Event().wait(300)
    return label


@tool
def chatty(word: str) -> str:
    """Print on stdout, then answer."""
    print("chatter from the tool")
    return word


@tool
def environ(name: str) -> str | None:
    """The value of an environment variable where the tool runs (None when it is not set)."""
    return os.environ.get(name)


TOOLS = [whoami, explode]
NOT_A_TOOL = 42
BROKEN = [shout]
STALLING = [stall]
CHATTY = [chatty]
ENVIRON = [environ]


def langchain_tools() -> Any:
    """A LangChain toolkit with one native tool."""
    from langchain_core.tools import BaseTool, BaseToolkit, StructuredTool

    def add(a: int, b: int = 1) -> int:
        """Add two integers."""
        return a + b

    class Kit(BaseToolkit):
        def get_tools(self) -> list[BaseTool]:
            return [StructuredTool.from_function(add)]

    return Kit()


TOOLKIT = langchain_tools()
