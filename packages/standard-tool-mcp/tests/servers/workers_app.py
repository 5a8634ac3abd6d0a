"""An importable ASGI app for ``uvicorn --workers``: a tool that says which process answered."""

from __future__ import annotations

import os
import time

from standard_tool import tool
from standard_tool_mcp import to_asgi_app


@tool
def square(n: int) -> dict[str, int]:
    """Square n, and say which process did it.

    Args:
        n: The number to square.
    """
    time.sleep(0.01)  # long enough for calls to overlap
    return {"n": n, "square": n * n, "pid": os.getpid()}


app = to_asgi_app([square])
