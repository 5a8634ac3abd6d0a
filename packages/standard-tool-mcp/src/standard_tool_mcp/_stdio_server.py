"""The stdio server transport, answering every line: a line the SDK cannot read as a
JSON-RPC message gets a JSON-RPC error (the SDK's own transport drops it silently, and the
client waits for its timeout)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio

from . import _compat
from ._scope import OneClient, one_client

__all__ = ["INVALID_REQUEST", "PARSE_ERROR", "answering", "rejection", "run_stdio"]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def rejection(exc: Exception) -> tuple[int, str]:
    """The JSON-RPC error code and message for a line the transport could not read.

    Text that is not JSON the server can read (malformed, nesting too deep, a number too
    long) is a parse error; JSON that is no JSON-RPC message is an invalid request.
    """
    errors = getattr(exc, "errors", None)
    kinds = {error.get("type") for error in errors()} if callable(errors) else {"json_invalid"}
    if "json_invalid" in kinds:
        return PARSE_ERROR, "Parse error: the line is not JSON this server can read"
    return INVALID_REQUEST, "Invalid Request: the line is not a JSON-RPC message"


@asynccontextmanager
async def answering(read: Any, write: Any) -> AsyncIterator[Any]:
    """``read`` without the errors of lines it could not read, each answered on ``write``
    with a JSON-RPC error whose ``id`` is null."""
    relay, relayed = anyio.create_memory_object_stream[Any](0)

    async def pump() -> None:
        try:
            async with relay:
                async for item in read:
                    if isinstance(item, Exception):
                        await write.send(_compat.error_reply(None, *rejection(item)))
                    else:
                        await relay.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass  # the server has stopped

    async with anyio.create_task_group() as group:
        group.start_soon(pump)
        try:
            yield relayed
        finally:
            group.cancel_scope.cancel()
            relayed.close()


async def run_stdio(server: Any) -> None:
    """Serve ``server`` over this process's stdin and stdout until the client leaves: one
    client, so that its anonymous calls keep one namespace of request ids (see ``_scope``)."""
    from mcp.server.stdio import stdio_server

    client = OneClient()
    token = one_client.set(client)
    try:
        async with stdio_server() as (read, write), answering(read, write) as requests:
            await server.run(requests, write, server.create_initialization_options())
    finally:
        one_client.reset(token)
