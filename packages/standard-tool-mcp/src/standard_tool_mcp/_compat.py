"""The few places where MCP SDK 1.x and 2.x differ, behind one set of functions.

No other module tests the SDK's major version or spells a field the two majors name
differently. This is also the only module that reaches past the SDK's public API, each time
for something the public API cannot do: the lenient ``tools/list`` of a server that lists a
malformed tool (:func:`list_tools_raw`, :func:`remember_output_schema`), the HTTP client
that carries custom headers (:func:`http_client_transport`), the connection behind a 2.x
per-request session, where a client's log level is kept (:func:`connection_of`), turning off
the session's own output check for tools that check their output themselves
(:func:`skip_output_check`), a JSON-RPC error with a null ``id`` on a stdio server's write
stream (:func:`error_reply`), and, on 1.x, the client's late answer to a request the server
stopped waiting for, dropped as 2.x drops it (:func:`elicit_form`).
"""

from __future__ import annotations

import functools
import json
import ssl
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import timedelta
from importlib import import_module
from importlib.metadata import version
from typing import Any

import mcp.types as types

__all__ = [
    "MAJOR",
    "MCPError",
    "ask_in_result",
    "call_tool",
    "can_elicit",
    "connection_of",
    "dump",
    "dump_message",
    "elicit_form",
    "error",
    "error_reply",
    "http_client_transport",
    "input_answer",
    "input_required",
    "list_tools_page",
    "list_tools_raw",
    "make_server",
    "memory_session",
    "open_session",
    "parse_message",
    "remember_output_schema",
    "request_context",
    "result_parts",
    "send_log",
    "send_progress",
    "skip_output_check",
    "tool_result",
]

MAJOR = int(version("mcp").split(".")[0])

_types: Any = types  # names of one major only are looked up untyped
_exceptions: Any = import_module("mcp.shared.exceptions")
MCPError: type[Exception] = _exceptions.MCPError if MAJOR >= 2 else _exceptions.McpError
"""The SDK's JSON-RPC error (``McpError`` in 1.x)."""
_DEPRECATED: type[Warning] = getattr(_exceptions, "MCPDeprecationWarning", DeprecationWarning)

ListHandler = Callable[[Any], Awaitable[list[types.Tool]]]
CallHandler = Callable[[Any, str, dict[str, Any], Mapping[str, Any] | None], Awaitable[Any]]
LevelHandler = Callable[[Any, str], None]


def error(code: int, message: str) -> Exception:
    """A JSON-RPC error the SDK sends as an error response."""
    make: Any = MCPError
    if MAJOR >= 2:
        return make(code=code, message=message)  # type: ignore[no-any-return]
    return make(types.ErrorData(code=code, message=message))  # type: ignore[no-any-return]


def error_reply(message_id: str | int | None, code: int, message: str) -> Any:
    """A JSON-RPC error response for a transport's write stream, ``id`` null allowed.

    1.x types refuse a null ``id`` and the 1.x stdio writer drops ``None`` fields, so the
    message is its wire text: both majors' writers only call ``model_dump_json`` on it.
    """
    from mcp.shared.message import SessionMessage

    wire = {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": message}}
    return SessionMessage(_WireText(json.dumps(wire)))  # type: ignore[arg-type]


class _WireText:
    """A JSON-RPC message already in its wire form."""

    def __init__(self, text: str) -> None:
        self.text = text

    def model_dump_json(self, **_: Any) -> str:
        return self.text


def make_server(
    name: str,
    list_tools: ListHandler,
    call_tool: CallHandler,
    set_level: LevelHandler | None = None,
    version: str = "",
) -> Any:
    """A low-level server with raw-schema ``tools/list`` and ``tools/call`` handlers, and
    ``logging/setLevel``.

    Handlers receive a request context with ``.meta``, ``.request`` and ``.protocol_version``.
    """
    from mcp.server.lowlevel import Server

    if MAJOR >= 2:

        async def on_list(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=await list_tools(ctx))

        async def on_call(ctx: Any, params: types.CallToolRequestParams) -> Any:
            return await call_tool(ctx, params.name, params.arguments or {}, ctx.meta)

        async def on_level(ctx: Any, params: Any) -> Any:
            if set_level is not None:
                set_level(ctx, params.level)
            return types.EmptyResult()

        with warnings.catch_warnings():  # logging is deprecated by protocol 2026-07-28 only
            warnings.simplefilter("ignore", _DEPRECATED)
            return Server(
                name,
                version=version,
                on_list_tools=on_list,
                on_call_tool=on_call,
                on_set_logging_level=None if set_level is None else on_level,
            )

    server: Any = Server(name, version=version or None)  # type: ignore[arg-type]

    async def list_handler(request: Any) -> Any:
        ctx = server.request_context
        return _types.ServerResult(types.ListToolsResult(tools=await list_tools(ctx)))

    async def call_handler(request: Any) -> Any:
        ctx = server.request_context
        meta = request.params.meta.model_dump(exclude_none=True) if request.params.meta else None
        result = await call_tool(ctx, request.params.name, request.params.arguments or {}, meta)
        return _types.ServerResult(result)

    async def level_handler(request: Any) -> Any:
        if set_level is not None:
            set_level(server.request_context, request.params.level)
        return _types.ServerResult(types.EmptyResult())

    server.request_handlers[types.ListToolsRequest] = list_handler
    server.request_handlers[types.CallToolRequest] = call_handler
    if set_level is not None:
        server.request_handlers[_types.SetLevelRequest] = level_handler
    return server


def connection_of(ctx: Any) -> Any:
    """What stays the same for every request of one client connection (the place to keep
    its log level): the 1.x session, or the connection behind a 2.x per-request session."""
    session = getattr(ctx, "session", None)
    return getattr(session, "_connection", session)


def can_elicit(ctx: Any) -> bool:
    """Whether the client of the request of ``ctx`` declared form elicitation when it
    initialized (an ``elicitation`` capability with ``form``, or with neither mode, which
    means form)."""
    session = getattr(ctx, "session", None)
    if MAJOR >= 2:
        capabilities = getattr(session, "client_capabilities", None)
    else:
        capabilities = getattr(getattr(session, "client_params", None), "capabilities", None)
    modes = getattr(capabilities, "elicitation", None)
    return modes is not None and (modes.form is not None or modes.url is None)


async def elicit_form(ctx: Any, message: str, schema: Mapping[str, Any]) -> tuple[str, Any]:
    """Ask the client of the request of ``ctx`` to fill in a form (``elicitation/create``,
    sent on the request's own stream): its ``action`` and ``content``.

    Cancelled (the server stopped waiting), the client's answer may still come. 2.x drops
    it; a 1.x session reads it as an error of its own, answers the client with an error log
    notification, and when the client has closed meanwhile fails with the closed stream.
    So on 1.x the answer to a cancelled request is dropped here (:class:`_LateAnswers`)."""
    session = ctx.session
    asked = None  # the id the request is sent with: the session's next one
    if MAJOR < 2 and callable(getattr(session, "add_response_router", None)):
        asked = getattr(session, "_request_id", None)
    try:
        result = await session.elicit_form(message, dict(schema), ctx.request_id)
    except BaseException as exc:
        if isinstance(asked, int) and not isinstance(exc, Exception):  # cancelled
            _LateAnswers.of(session).expect(asked)
        raise
    return result.action, result.content


class _LateAnswers:
    """A 1.x session's response router that drops the answers to the requests the server
    stopped waiting for (at most :attr:`KEPT` of them are awaited at once)."""

    KEPT = 1000

    def __init__(self) -> None:
        self.ids: dict[Any, None] = {}

    @classmethod
    def of(cls, session: Any) -> _LateAnswers:
        """The router of ``session``, added to it on first use."""
        router: _LateAnswers | None = getattr(session, "_standard_tool_late", None)
        if router is None:
            router = cls()
            session.add_response_router(router)
            session._standard_tool_late = router
        return router

    def expect(self, request_id: Any) -> None:
        self.ids[request_id] = None
        while len(self.ids) > self.KEPT:
            del self.ids[next(iter(self.ids))]

    def route_response(self, request_id: Any, response: Any) -> bool:
        return self.ids.pop(request_id, False) is None

    def route_error(self, request_id: Any, error: Any) -> bool:
        return self.ids.pop(request_id, False) is None


INPUT_REQUIRED_VERSION = "2026-07-28"
"""The protocol version from which a server asks its client in a result, not a request."""


def ask_in_result(ctx: Any) -> bool:
    """Whether the server asks the client of the request of ``ctx`` in the request's result
    (protocol 2026-07-28 on 2.x: an ``input_required`` result, answered by the client sending
    the request again with its answers), rather than with a request of its own."""
    version = getattr(ctx, "protocol_version", None)
    return MAJOR >= 2 and isinstance(version, str) and version >= INPUT_REQUIRED_VERSION


def input_required(key: str, message: str, schema: Mapping[str, Any], state: str) -> Any:
    """An ``input_required`` result asking for one form (under ``key``), with ``state``
    for the client to send back with its answer."""
    form = types.ElicitRequestFormParams(message=message, requested_schema=dict(schema))
    return _types.InputRequiredResult(
        input_requests={key: types.ElicitRequest(params=form)}, request_state=state
    )


def input_answer(ctx: Any, key: str) -> tuple[str, Any, Any] | None:
    """A request sent again with answers to an ``input_required`` result: its request state,
    and the ``action`` and ``content`` of the form answered under ``key`` (else ``None``)."""
    params = getattr(ctx, "params", None)
    if not ask_in_result(ctx) or not isinstance(params, Mapping):
        return None
    state, answers = params.get("requestState"), params.get("inputResponses")
    answer = answers.get(key) if isinstance(answers, Mapping) else None
    if not isinstance(state, str) or not isinstance(answer, Mapping):
        return None
    return state, answer.get("action"), answer.get("content")


async def send_progress(
    ctx: Any,
    meta: Mapping[str, Any] | None,
    progress: float,
    total: float | None,
    message: str | None,
) -> None:
    """A ``notifications/progress`` for the request of ``ctx``, if its client asked for them."""
    if MAJOR >= 2:
        await ctx.session.report_progress(progress, total, message)
        return
    token = (meta or {}).get("progressToken")
    if token is not None:
        await ctx.session.send_progress_notification(
            token, progress, total, message, related_request_id=str(ctx.request_id)
        )


async def send_log(ctx: Any, level: str, data: Any, logger: str) -> None:
    """A ``notifications/message`` on the stream of the request of ``ctx``."""
    with warnings.catch_warnings():  # deprecated by protocol 2026-07-28, where 2.x filters it
        warnings.simplefilter("ignore", _DEPRECATED)
        await ctx.session.send_log_message(
            level,
            data,
            logger=logger,
            related_request_id=ctx.request_id,
        )


def request_context(ctx: Any, meta: Mapping[str, Any] | None) -> dict[str, Any]:
    """The standard per-call ``context`` of one MCP request (see "Context" in ``docs/how-to/frameworks/mcp.md``)."""
    from mcp.server.auth.middleware.auth_context import get_access_token

    return {
        "meta": dict(meta or {}),
        "auth": get_access_token(),
        "request": getattr(ctx, "request", None),
        "request_id": getattr(ctx, "request_id", None),
        "session": getattr(ctx, "session", None),
    }


def _timeout(seconds: float | None) -> Any:
    if seconds is None:
        return None
    return seconds if MAJOR >= 2 else timedelta(seconds=seconds)


def call_tool(
    session: Any,
    name: str,
    arguments: dict[str, Any],
    timeout: float | None,
    meta: Mapping[str, Any] | None,
    progress: Callable[[float, float | None, str | None], Awaitable[None]] | None = None,
) -> Coroutine[Any, Any, types.CallToolResult]:
    """``tools/call`` through a ``ClientSession`` (either major) or a 2.x ``Client``: the
    session's own coroutine (none of this module's around it, on every call's path).

    ``progress`` receives the call's progress notifications.
    """
    request: Coroutine[Any, Any, types.CallToolResult] = session.call_tool(
        name,
        arguments,
        _timeout(timeout),
        progress_callback=progress,
        meta=dict(meta) if meta else None,
    )
    return request


def skip_output_check(session: Any, name: str) -> None:
    """Stop the SDK session checking ``name``'s structured content against its output schema.

    Both majors check it inside ``call_tool`` and raise a bare ``RuntimeError``; an adopted
    tool checks it itself, and reports the failing fields. (A ``None`` schema also spares
    the SDK the ``tools/list`` it sends before calling a tool it has not listed.)
    """
    schemas = getattr(getattr(session, "session", session), "_tool_output_schemas", None)
    if isinstance(schemas, dict):
        schemas[name] = None


def parse_message(line: str) -> Any:
    """A JSON-RPC message read from a stdio server, as the session expects it (or the error)."""
    from mcp.shared.message import SessionMessage

    try:
        if MAJOR >= 2:
            message = _types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        else:
            message = _types.JSONRPCMessage.model_validate_json(line)
    except ValueError as exc:
        return exc
    return SessionMessage(message)


def dump_message(message: Any) -> str:
    """A JSON-RPC message in its wire form, one line."""
    if MAJOR >= 2:
        return message.model_dump_json(by_alias=True, exclude_unset=True)  # type: ignore[no-any-return]
    return message.model_dump_json(by_alias=True, exclude_none=True)  # type: ignore[no-any-return]


async def list_tools_page(session: Any, cursor: str | None) -> tuple[list[types.Tool], str | None]:
    """One page of ``tools/list``: its tools and the next cursor."""
    if MAJOR >= 2 and not hasattr(session, "send_request"):  # a 2.x ``Client``
        page = await session.list_tools(cursor=cursor)
    else:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
    return list(page.tools), page.next_cursor if MAJOR >= 2 else page.nextCursor


def result_parts(result: types.CallToolResult) -> tuple[bool, list[Any], Any]:
    """A ``tools/call`` result's ``isError``, content blocks and structured content."""
    if MAJOR >= 2:
        return bool(result.is_error), list(result.content), result.structured_content
    legacy: Any = result
    return bool(legacy.isError), list(legacy.content), legacy.structuredContent


def tool_result(
    content: list[Any], structured: Any = None, is_error: bool = False
) -> types.CallToolResult:
    """A ``tools/call`` result."""
    result: types.CallToolResult = types.CallToolResult.model_validate(
        {"content": content, "structuredContent": structured, "isError": is_error}
    )
    return result


async def list_tools_raw(session: Any, cursor: str | None) -> tuple[list[Any], str | None]:
    """One page of ``tools/list`` with each tool left as raw JSON (for lenient adoption)."""
    params = {"cursor": cursor} if cursor else None
    if MAJOR >= 2:  # the 2.x session validates the whole result before any result type sees it
        raw_session = getattr(session, "session", session)
        dispatcher = getattr(raw_session, "_dispatcher", None)
        if dispatcher is None:
            raise RuntimeError("this MCP SDK cannot list tools leniently")
        raw = await dispatcher.send_raw_request("tools/list", params, {})
        return list(raw.get("tools") or []), raw.get("nextCursor")
    from pydantic import ConfigDict

    class RawList(types.Result):
        model_config = ConfigDict(extra="allow")
        tools: list[Any] = []

    request = _types.ClientRequest(_types.ListToolsRequest(method="tools/list", params=params))
    result = await session.send_request(request, RawList)
    return result.tools, (result.model_extra or {}).get("nextCursor")


def remember_output_schema(session: Any, tool: types.Tool) -> None:
    """Tell the SDK session a tool's output schema when its own listing failed to parse."""
    schemas = getattr(getattr(session, "session", session), "_tool_output_schemas", None)
    if isinstance(schemas, dict):
        schemas[tool.name] = dump(tool).get("outputSchema")


def dump(model: Any) -> dict[str, Any]:
    """A protocol model in its wire (camelCase) form."""
    wire: dict[str, Any] = model.model_dump(by_alias=True, exclude_none=True, mode="json")
    return wire


@asynccontextmanager
async def memory_session(
    server: Any, timeout: float | None = None, callbacks: Mapping[str, Any] | None = None
) -> AsyncIterator[Any]:
    """A client session connected in memory to an in-process server.

    ``callbacks`` are ``ClientSession`` keyword arguments (``sampling_callback``,
    ``elicitation_callback``, ``logging_callback``, ``client_info``) and ``log_level``.
    """
    options = _client_options(callbacks)
    if MAJOR >= 2:
        from mcp import Client

        async with Client(server, read_timeout_seconds=timeout, **options) as client:
            yield client
        return
    memory: Any = import_module("mcp.shared.memory")
    server = getattr(server, "_mcp_server", server)  # FastMCP -> its low-level server
    connected = memory.create_connected_server_and_client_session(
        server, _timeout(timeout), **options
    )
    async with connected as session:
        yield session


@asynccontextmanager
async def open_session(
    transport: AbstractAsyncContextManager[Any],
    timeout: float | None,
    callbacks: Mapping[str, Any] | None = None,
) -> AsyncIterator[Any]:
    """An initialized session over a client transport (stdio or streamable HTTP).

    ``callbacks`` as for :func:`memory_session`.
    """
    options = _client_options(callbacks)
    if MAJOR >= 2:
        from mcp import Client

        async with transport as streams:
            async with Client(_Streams(streams), read_timeout_seconds=timeout, **options) as client:
                yield client
        return
    from mcp import ClientSession

    async with transport as streams:
        async with ClientSession(
            streams[0], streams[1], read_timeout_seconds=_timeout(timeout), **options
        ) as session:
            await session.initialize()
            yield session


def _client_options(callbacks: Mapping[str, Any] | None) -> dict[str, Any]:
    """Session keyword arguments; ``log_level`` (the 2026-07-28 log opt-in) is 2.x only."""
    options = {key: value for key, value in (callbacks or {}).items() if value is not None}
    if MAJOR < 2:
        options.pop("log_level", None)
    return options


class _Streams:
    """An already opened pair of streams, as a 2.x ``Transport``."""

    def __init__(self, streams: Any) -> None:
        self.streams = (streams[0], streams[1])

    async def __aenter__(self) -> Any:
        return self.streams

    async def __aexit__(self, *exc: object) -> None:
        return None


def http_client_transport(
    url: str,
    headers: Mapping[str, str] | None,
    on_unreachable: Callable[[BaseException], None] | None = None,
) -> Any:
    """The streamable-HTTP client transport.

    ``on_unreachable`` is called with the error of every request that finds no server at
    ``url`` (the connection is refused or the host unknown), whichever request sends it.
    """
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared import _httpx_utils as utils

    http: Any = import_module("httpx2" if MAJOR >= 2 else "httpx")  # the SDK's HTTP client

    class Watched(http.AsyncBaseTransport):  # type: ignore[misc]
        def __init__(self) -> None:
            self.inner = http.AsyncHTTPTransport(verify=_tls_context(http))

        async def handle_async_request(self, request: Any) -> Any:
            try:
                return await self.inner.handle_async_request(request)
            except http.ConnectError as exc:
                if on_unreachable is not None:
                    on_unreachable(exc)
                raise

        async def aclose(self) -> None:
            await self.inner.aclose()

    client = http.AsyncClient(
        headers=dict(headers or {}),
        timeout=http.Timeout(utils.MCP_DEFAULT_TIMEOUT, read=utils.MCP_DEFAULT_SSE_READ_TIMEOUT),
        transport=Watched(),
    )
    return _closing(streamable_http_client(url, http_client=client), client)


@functools.cache
def _tls_context(http: Any) -> ssl.SSLContext:
    """The context every connection of this process verifies ``https`` servers with: the HTTP
    client's default one (``SSL_CERT_FILE`` or ``SSL_CERT_DIR`` as set when it is made, else
    the client's own store), made once. Making one reads every CA certificate, some 30 ms,
    which each connection would spend again."""
    context: ssl.SSLContext = http.create_ssl_context()
    return context


@asynccontextmanager
async def _closing(transport: Any, client: Any) -> AsyncIterator[Any]:
    async with client, transport as streams:
        yield streams
