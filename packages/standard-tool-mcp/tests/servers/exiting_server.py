"""Over stdio: a tool that blocks its thread, and a tool that raises ``SystemExit``."""

from __future__ import annotations

import time

from standard_tool import tool
from standard_tool_mcp import serve


@tool
def slow(seconds: float) -> float:
    """Block the thread for a while."""
    time.sleep(seconds)
    return seconds


@tool
def leave(code: int = 3) -> int:
    """Raise SystemExit, as argparse does on bad input."""
    raise SystemExit(code)


if __name__ == "__main__":
    serve([slow, leave])
