"""Tools the command-line tests load as SOURCE (``packages/standard-tool-cli/tests/sources.py:...``)."""

from __future__ import annotations

import os
import threading
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

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


@tool
def utc_offset(timezone: str) -> str:
    """The UTC offset of a timezone on 1 January 2024 (its schema says "a string": only a
    timezone's name runs).

    Args:
        timezone: An IANA timezone name, such as Europe/Paris.
    """
    return str(ZoneInfo(timezone).utcoffset(datetime(2024, 1, 1)))


def _offset_seconds(input: dict[str, Any], context: Any = None) -> dict[str, Any]:
    offset = ZoneInfo(input["timezone"]).utcoffset(datetime(2024, 1, 1))
    return {"seconds": offset.total_seconds() if offset else 0.0}


offset_seconds = Tool(
    name="offset_seconds",
    description="The UTC offset of a timezone in seconds (its output schema says a string).",
    input_schema={
        "type": "object",
        "properties": {"timezone": {"type": "string", "examples": ["Europe/Paris"]}},
        "required": ["timezone"],
    },
    output_schema={
        "type": "object",
        "properties": {"seconds": {"type": "string"}},
        "required": ["seconds"],
    },
    execute=_offset_seconds,
)


def _echo(text: str) -> str:
    """Give the text back.

    Args:
        text: What to give back.
    """
    return text


echo = tool(_echo, name="echo")


@tool
def echo_default(text: str = "nothing said") -> str:
    """Give the text back (a default when none is given).

    Args:
        text: What to give back.
    """
    return text


final_answer = tool(_echo, name="final_answer")


TOOLS = [whoami, explode]
NOT_A_TOOL = 42
BROKEN = [shout]
STALLING = [stall]
CHATTY = [chatty]
ENVIRON = [environ]
OFFSETS = [utc_offset]
WRONG_OUTPUT = [offset_seconds]
TEXT = [echo]
TEXT_DEFAULT = [echo_default]
FINAL = [final_answer]


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


def __getattr__(name: str) -> Any:
    """``TOOLKIT``: made when asked for, so that loading the module imports no framework."""
    if name == "TOOLKIT":
        return langchain_tools()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
