"""Serves one tool, ``slow``, over stdio; a call sleeps a minute, so a test can kill the process
mid-call. The first argument is a file where the process writes its id; a call that starts
writes ``called`` beside it."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import standard_tool as st
from standard_tool_mcp import serve


@st.tool
async def slow(seconds: float = 60) -> str:
    """Sleep, then answer.

    Args:
        seconds: How long to sleep.
    """
    Path(sys.argv[1]).with_name("called").write_text("called")
    await asyncio.sleep(seconds)
    return "awake"


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(str(os.getpid()))
    serve([slow])
