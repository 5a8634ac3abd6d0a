"""The contract's sample tools, plus a slow and a dying tool, served by ``serve``."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from standard_tool import tool
from standard_tool.testing import sample_tools
from standard_tool_mcp import serve


@tool
def slow(seconds: float) -> float:
    """Sleep, then return how long.

    Args:
        seconds: How long to sleep.
    """
    time.sleep(seconds)
    return seconds


@tool
def die(code: int = 3) -> int:
    """Kill the server process.

    Args:
        code: The exit status.
    """
    os._exit(code)


@tool
def request_info(context: Any = None) -> dict[str, Any]:
    """Say what the request context holds."""
    request, auth = context["request"], context["auth"]
    return {
        "http": request is not None,
        "client": auth.client_id if auth is not None else None,
        "user_agent": request.headers.get("user-agent", "") if request is not None else "",
        "meta": {k: v for k, v in context["meta"].items() if not k.startswith("io.")},
    }


class Verifier:
    """Accepts the bearer token ``good`` as client ``c1``."""

    async def verify_token(self, token: str) -> Any:
        from mcp.server.auth.provider import AccessToken

        return AccessToken(token=token, client_id="c1", scopes=[]) if token == "good" else None


def serve_with_auth(port: int) -> None:
    """Serve over streamable HTTP behind the SDK's bearer-token middleware."""
    serve(request_info, transport="streamable-http", port=port, token_verifier=Verifier())


if __name__ == "__main__":
    transport = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
    if transport == "auth":
        serve_with_auth(port)
        sys.exit()
    serve([*sample_tools().values(), slow, die, request_info], transport=transport, port=port)  # type: ignore[arg-type]
