"""Why an MCP server over HTTP did not answer at a URL: a path it does not serve."""

from __future__ import annotations

import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

__all__ = ["MCP_PATH", "not_found_hint"]

MCP_PATH = "/mcp"
"""Where MCP servers usually serve streamable HTTP (the MCP SDK's default)."""
_PROBE_SECONDS = 5.0


def not_found_hint(url: str, timeout: float | None) -> str | None:
    """When the server at ``url`` answers a ``HEAD`` request with HTTP 404, a hint naming the
    path and the URL to try (its ``/mcp``); else (another status, no answer) ``None``."""
    parts = urlsplit(url)
    seconds = _PROBE_SECONDS if timeout is None else min(timeout, _PROBE_SECONDS)
    request = urllib.request.Request(url, method="HEAD")
    try:
        with urllib.request.urlopen(request, timeout=seconds):
            return None
    except urllib.error.HTTPError as error:
        if error.code != 404:
            return None
    except (OSError, ValueError):  # no answer, or not a URL urllib reads
        return None
    path = parts.path or "/"
    if path.rstrip("/") == MCP_PATH:
        return f"HTTP 404 at {path}; give the path at which the server serves MCP"
    suggested = urlunsplit((parts.scheme, parts.netloc, MCP_PATH, "", ""))
    return f"HTTP 404 at {path}; MCP servers usually serve {MCP_PATH}: try {suggested}"
