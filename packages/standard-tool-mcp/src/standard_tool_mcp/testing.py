"""For tests and examples: an ASGI app served for real, over HTTP on a loopback port.

- :func:`serving`: a context manager that serves an app (such as :func:`to_asgi_app`'s) with
  uvicorn on a free port, in a thread, and yields its URL.

The MCP SDK installs uvicorn with itself; importing this module does not import it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from standard_tool.exceptions import ServerError

__all__ = ["serving"]

GRACE = 2
"""Seconds the requests still in flight get to finish when the block ends."""


@contextmanager
def serving(
    app: Any, *, host: str = "127.0.0.1", path: str = "/mcp", timeout: float = 20.0
) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free port of ``host``, in a daemon thread, for the
    ``with`` block; yield the URL of ``path`` there (``path=""``: the server's base URL).

    Waits at most ``timeout`` seconds for the server to start. When the block ends, requests
    in flight get :data:`GRACE` seconds to finish, and the thread at most ``timeout`` seconds
    to end. A server that does not start, or does not stop, in time raises ``ServerError``.
    """
    import uvicorn

    where = f"uvicorn on {host}"
    config = uvicorn.Config(
        app, host=host, port=0, log_level="warning", timeout_graceful_shutdown=GRACE
    )
    server = uvicorn.Server(config)

    def run() -> None:
        try:
            server.run()
        except SystemExit:  # how uvicorn ends when it cannot start, after logging why
            pass

    thread = threading.Thread(target=run, name=f"serving {where}", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + timeout
        while not server.started:
            if not thread.is_alive():
                raise ServerError(where, "stopped before it started (its log says why)")
            if time.monotonic() > deadline:
                raise ServerError(where, f"did not start within {timeout:g} s")
            time.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        yield f"http://{shown}:{port}{path}"
    finally:
        server.should_exit = True
        thread.join(timeout)
    if thread.is_alive():
        raise ServerError(where, f"did not stop within {timeout:g} s")
