"""Over stdio: a server that needs ``NEEDS_ENV_TOKEN``, and tells what its environment holds."""

from __future__ import annotations

import os
import sys

from standard_tool import tool
from standard_tool_mcp import serve


@tool
def environment(names: list[str]) -> dict[str, str | None]:
    """The values of the named variables in the server's environment."""
    return {name: os.environ.get(name) for name in names}


if __name__ == "__main__":
    if "NEEDS_ENV_TOKEN" not in os.environ:
        sys.exit("NEEDS_ENV_TOKEN is not set")
    serve([environment])
