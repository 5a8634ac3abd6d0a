"""Standard tools served as an MCP server, over stdio, streamable HTTP or in memory."""

from __future__ import annotations

import asyncio
import math
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from standard_tool import (
    LOG_LEVELS,
    JsonSchema,
    LogLevel,
    StandardTool,
    Tool,
    acall,
    jsonable,
    reporting,
)
from standard_tool.adapters import WrapperTool, export_tools
from standard_tool.boundary import Approval, Gate, guarded_of, identity_of
from standard_tool.exceptions import (
    NotJsonError,
    StandardToolError,
    ToolExecutionError,
    ToolRefusedError,
    ToolValidationError,
    UsageError,
)
from standard_tool.names import MCP_NAMES

from . import _compat
from ._boundary import (
    APPROVAL_FORM,
    APPROVAL_KEY,
    DECLINED,
    REQUEST_ID_META,
    approver_of,
    confirm,
    identify,
    question,
    refusal_result,
    sees,
    verdict,
)
from ._content import text_block, to_content
from ._descriptors import WRAPPED, to_mcp_tool
from ._scope import Scope, Scopes

__all__ = [
    "DEFAULT_CALL_TIMEOUT",
    "DEFAULT_LOG_LEVEL",
    "DEFAULT_MAX_CONCURRENCY",
    "to_mcp_server",
]

INVALID_PARAMS = -32602


DEFAULT_CALL_TIMEOUT = 60.0
"""Seconds a served call may run (a tool's own ``timeout`` attribute takes precedence)."""
DEFAULT_MAX_CONCURRENCY = 32
"""Calls a server runs at once; more wait for a free slot, within their time limit."""
DEFAULT_LOG_LEVEL: LogLevel = "info"
"""The least severe log level sent to a client that has not chosen one (``logging/setLevel``)."""
LOG_LEVEL_META = "io.modelcontextprotocol/logLevel"
"""The request ``_meta`` key where clients of protocol 2026-07-28 ask for log messages."""
_FLUSH_SECONDS = 5.0
"""How long a finished call waits for its last progress and log notifications to go out."""
_MAX_PENDING = 1000
"""Reports a call may have waiting to be sent; more are dropped (a tool reporting in a
tight loop must not exhaust memory)."""


@dataclass(frozen=True)
class _Served:
    """One tool as the server runs it."""

    tool: StandardTool
    descriptor: Any
    wrapped: bool
    structured: bool
    check_input: JsonSchema | None
    check_output: JsonSchema | None
    timeout: float | None
    """What the server asks of the call (``None`` when the tool declares its own)."""
    limit: float | None
    """The call's time limit, the tool's own or the server's."""

    @classmethod
    def of(cls, tool: StandardTool, name: str, timeout: float | None) -> _Served:
        descriptor = to_mcp_tool(tool, name=name)
        wire = _compat.dump(descriptor)
        output = wire.get("outputSchema")
        # a Tool validates its own input and output, a WrapperTool as its rule says (an
        # adopted tool by the JSON Schema served, a round trip as its original)
        own = isinstance(tool, (Tool, WrapperTool))
        guarded = guarded_of(tool) is not None  # its gate checks the input, after visibility
        declared = getattr(tool, "timeout", None)
        return cls(
            tool=tool,
            descriptor=descriptor,
            wrapped=bool(output and output.get(WRAPPED)),
            structured=output is not None,
            check_input=None if own or guarded else JsonSchema(wire["inputSchema"]),
            check_output=None if own or output is None else JsonSchema(output),
            timeout=None if declared is not None else timeout,
            limit=declared if declared is not None else timeout,
        )

    async def run(self, arguments: dict[str, Any], context: Mapping[str, Any]) -> Any:
        """The tool's result as a ``CallToolResult``; a failure raises a StandardToolError.

        Media become their content blocks; under an output schema the structured content is
        sent as well (media in it as their JSON form), as the schema promises.
        """
        import mcp.types as types

        name = self.tool.name
        if self.check_input is not None:
            checked = self.check_input.validate(arguments)
            if checked.issues is not None:
                raise ToolValidationError(name, "input", checked.issues)
        value = await acall(self.tool, arguments, context, timeout=self.timeout)
        if isinstance(value, types.CallToolResult):
            return value
        try:
            blocks = to_content(value)
            data = jsonable(value) if blocks is None or self.structured else None
        except NotJsonError as exc:
            raise ToolValidationError(name, "output", exc.issues) from None
        except Exception as exc:  # a media value that is not one (data that is not bytes...)
            raise ToolExecutionError(
                name, f"its result cannot be sent ({type(exc).__name__})"
            ) from exc
        structured = None
        if self.structured:
            structured = {"result": data} if self.wrapped else data
            if self.check_output is not None:
                checked = self.check_output.validate(structured)
                if checked.issues is not None:
                    raise ToolValidationError(name, "output", checked.issues)
        elif blocks is None and isinstance(data, dict):
            structured = data
        return _compat.tool_result([text_block(data)] if blocks is None else blocks, structured)


def _error_result(error: StandardToolError) -> Any:
    return _compat.tool_result([text_block(str(error))], is_error=True)


class _CallReporter:
    """Sends what a served tool reports as notifications of its request, in order, from
    whichever thread the tool runs on; :meth:`close` waits for the last ones."""

    def __init__(self, ctx: Any, meta: Mapping[str, Any] | None, least: LogLevel, tool: str):
        self._ctx, self._meta, self._tool = ctx, meta, tool
        self._least = LOG_LEVELS.index(least)
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[tuple[Any, ...] | None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._pending = 0
        self._last: float | None = None

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        if self._last is not None and progress <= self._last:
            return  # MCP: progress must increase with each notification
        self._last = progress
        self._put(("progress", progress, total, message))

    def log(self, level: LogLevel, message: str, data: Mapping[str, Any] | None) -> None:
        if LOG_LEVELS.index(level) < self._least:
            return
        payload = message if data is None else {"message": message, "data": jsonable(data)}
        self._put(("log", level, payload))

    def _put(self, item: tuple[Any, ...]) -> None:
        if self._pending >= _MAX_PENDING:
            return
        self._pending += 1
        try:
            self._loop.call_soon_threadsafe(self._enqueue, item)
        except RuntimeError:  # the server's loop has closed
            pass

    def _enqueue(self, item: tuple[Any, ...]) -> None:
        """On the server's loop: queue ``item``, starting the sender at the first report."""
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._sender = self._loop.create_task(self._send(self._queue))
        self._queue.put_nowait(item)

    async def _send(self, queue: asyncio.Queue[tuple[Any, ...] | None]) -> None:
        while (item := await queue.get()) is not None:
            try:
                if item[0] == "progress":
                    await _compat.send_progress(self._ctx, self._meta, *item[1:])
                else:
                    await _compat.send_log(self._ctx, item[1], item[2], self._tool)
            except Exception:  # the client has gone: the call's result will not arrive either
                return

    async def close(self) -> None:
        if self._pending and self._queue is None:  # reports still on their way from a thread
            await asyncio.sleep(0)
        if self._queue is None or self._sender is None:
            return
        self._queue.put_nowait(None)
        try:
            await asyncio.wait_for(asyncio.shield(self._sender), _FLUSH_SECONDS)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self._sender.cancel()
            raise


class _Limiter:
    """At most ``limit`` calls at once, per event loop the server runs on."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._slots: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()

    def slots(self) -> Any:
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(self.limit)
        return slots


def _decide(gate: Gate, approval: Approval, answer: bool, approver: str) -> bool:
    """Approve or reject the held call of ``approval`` as the person answered in the client,
    for the caller whose call it is (its tenant and actor); ``False`` when the gate cannot (its
    store failed, it was decided meanwhile, or the gate refuses the approver)."""
    request_id, tenant, actor = approval.request_id, approval.tenant, approval.actor
    try:
        if answer:
            gate.approve(request_id, tenant=tenant, actor=actor, approver=approver)
        else:
            gate.reject(request_id, tenant=tenant, actor=actor, approver=approver, reason=DECLINED)
    except Exception:
        return False
    return True


def _pending(gate: Gate, request_id: str, context: Mapping[str, Any]) -> bool:
    """Whether a call of the caller of ``context`` (its tenant and actor) waits for approval at
    ``gate`` under ``request_id``."""
    try:
        tenant, actor = identity_of(context)
        return gate.pending(request_id, tenant=tenant, actor=actor) is not None
    except Exception:  # its store failed: as if nothing waits
        return False


def _held(gate: Gate | None, error: ToolRefusedError) -> Approval | None:
    """The approval request of the call ``gate`` itself held with ``error``, when the gate lets
    the caller approve its own calls; else ``None`` (the refusal is sent as it is)."""
    if gate is None or gate.self_approval is not True:
        return None
    try:
        return gate.held(error)
    except Exception:  # its store failed: nothing to ask about
        return None


def _positive(value: Any, what: str, *, integer: bool = False) -> Any:
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or not 0 < value < math.inf:
        raise UsageError(
            f"to_mcp_server(): {what} must be a positive {'integer' if integer else 'number'}"
        )
    return value


def to_mcp_server(
    tools: Iterable[Any] | Any,
    name: str = "standard-tool",
    version: str = "",
    *,
    timeout: float | None = DEFAULT_CALL_TIMEOUT,
    max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
    log_level: LogLevel = DEFAULT_LOG_LEVEL,
    elicit_approvals: bool = True,
) -> Any:
    """A low-level MCP server (``mcp.server.lowlevel.Server``) that serves ``tools``.

    ``tools`` is one tool or several, each a standard tool or anything
    :func:`standard_tool.adopt` accepts. Names that MCP refuses are sanitized; two tools
    whose names collide raise ``ToolNameError``; a tool whose input schema cannot describe
    MCP arguments (an object) raises ``UsageError``.

    ``timeout`` (seconds, ``None`` for none) bounds each call of a tool that declares no
    ``timeout`` of its own; ``max_concurrency`` bounds the calls running at once (the others
    wait for a free slot, at most their time limit); ``log_level`` is the least severe level of the
    tools' log messages sent to a client that has not chosen one with ``logging/setLevel``.

    ``elicit_approvals``: a call of a guarded tool held by its own gate (``held_for_review``),
    when that gate lets a caller approve its own calls (``Gate(self_approval=True)``), is put
    to the person through a client that declared elicitation (a form showing the approval
    request, with a required boolean ``approve``, answered within the call's time limit):
    approved, the call runs once and its result is sent; declined, cancelled or ``false``, it
    is rejected and the ``denied`` refusal sent. Without an answer, with ``False`` here, or
    for a gate without ``self_approval``, the held result is sent, for a person to decide
    elsewhere. A refusal the gate did not make itself (one a tool raised, one read from a
    remote server) is never put to anyone.

    An anonymous caller's request ids (no bearer token: no tenant, no actor) are its
    connection's own: two anonymous connections sending the same request id make two calls
    ("Context" in ``docs/how-to/frameworks/mcp.md`` says what a connection is on each
    transport).
    """
    if timeout is not None:
        _positive(timeout, "timeout")
    limiter = _Limiter(_positive(max_concurrency, "max_concurrency", integer=True))
    if log_level not in LOG_LEVELS:
        raise UsageError(f"to_mcp_server(): log_level must be one of {', '.join(LOG_LEVELS)}")
    served = {
        entry.descriptor.name: entry
        for entry in export_tools(
            tools, lambda tool, name: _Served.of(tool, name, timeout), MCP_NAMES
        )
    }
    guarded = any(guarded_of(entry.tool) is not None for entry in served.values())
    levels: weakref.WeakKeyDictionary[Any, LogLevel] = weakref.WeakKeyDictionary()
    scopes = Scopes()

    def set_level(ctx: Any, level: str) -> None:
        connection = _compat.connection_of(ctx)
        if connection is not None and level in LOG_LEVELS:
            levels[connection] = level

    def seen(ctx: Any, context: dict[str, Any] | None = None) -> list[_Served]:
        """The tools this request's caller sees (a guarded tool's gate may hide it)."""
        if not guarded:
            return list(served.values())
        if context is None:
            meta = getattr(ctx, "meta", None)
            context = _compat.request_context(ctx, meta if isinstance(meta, Mapping) else None)
            identify(context, None)
        return [entry for entry in served.values() if sees(entry.tool, context)]

    def unknown(ctx: Any, tool_name: str, context: dict[str, Any] | None = None) -> Exception:
        listing = ", ".join(repr(entry.descriptor.name) for entry in seen(ctx, context))
        return _compat.error(
            INVALID_PARAMS, f"Unknown tool: {tool_name!r}; available tools: {listing or 'none'}"
        )

    async def list_tools(ctx: Any) -> list[Any]:
        return [entry.descriptor for entry in seen(ctx)]

    async def call_tool(
        ctx: Any, tool_name: str, arguments: dict[str, Any], meta: Mapping[str, Any] | None
    ) -> Any:
        entry = served.get(tool_name)
        if entry is None:
            raise unknown(ctx, tool_name)
        tool = entry.tool.name
        context = _compat.request_context(ctx, meta)
        wrong = identify(context, meta)
        if wrong is not None:
            raise _compat.error(INVALID_PARAMS, wrong)
        if not sees(entry.tool, context):  # hidden from this caller: as if unknown
            raise unknown(ctx, tool_name, context)
        gate = getattr(guarded_of(entry.tool), "gate", None)
        scope, answer = Scope(None), None
        if gate is not None:
            # A JSON-RPC id names a message of one connection (clients reuse them), not a call a
            # retry repeats: without a request id of the client's, the gate's is new.
            sent = context["request_id"] if REQUEST_ID_META in (meta or {}) else None
            anonymous = identity_of(context) == (None, None)
            scope = scopes.of(ctx, anonymous)
            # Protocol 2026-07-28: the call sent again with the answer to its approval form,
            # found only among the calls of this caller (an anonymous one's: of the namespace
            # whose secret the state holds).
            answered = _compat.input_answer(ctx, APPROVAL_KEY)
            if answered is not None and elicit_approvals and gate.self_approval is True:
                found = Scope.answered(answered[0], anonymous)
                if found is not None and _pending(gate, found[0].prefix + found[1], context):
                    scope, sent, answer = found[0], found[1], answered[1:]
            context["request_id"] = scope.gate_id(sent)
        connection = _compat.connection_of(ctx)
        least = levels.get(connection, log_level) if connection is not None else log_level
        requested = (meta or {}).get(LOG_LEVEL_META)  # protocol 2026-07-28: per request
        if requested in LOG_LEVELS:
            least = requested
        reporter = _CallReporter(ctx, meta, least, tool)
        slots = limiter.slots()

        async def run() -> Any:
            """The call, in a free slot (the result or its error)."""
            try:
                if slots.locked():  # wait for a slot, at most the call's time limit
                    await asyncio.wait_for(slots.acquire(), entry.limit)
                else:
                    await slots.acquire()
            except asyncio.TimeoutError:
                busy = f"the server is busy ({limiter.limit} calls running); try again later"
                return _error_result(ToolExecutionError(tool, busy))
            try:
                with reporting(reporter):
                    return await entry.run(arguments, context)
            finally:
                slots.release()

        try:
            try:
                return await run()
            except ToolRefusedError as exc:
                # Only a call this gate held itself, of this caller, is put to the person.
                held = _held(gate, exc) if elicit_approvals else None
                if gate is None or held is None:
                    raise
                if answer is not None and held.request_id == context["request_id"]:
                    agreed = verdict(*answer)
                elif not _compat.can_elicit(ctx):
                    raise
                else:
                    asked = question(held, tool_name, scope.client_id(held.request_id))
                    if _compat.ask_in_result(ctx):
                        state = scope.state(held.request_id)
                        return _compat.input_required(APPROVAL_KEY, asked, APPROVAL_FORM, state)
                    agreed = await confirm(ctx, asked, tool_name, entry.limit)
                if agreed is None or not _decide(gate, held, agreed, approver_of(context)):
                    raise
                context["request_id"] = held.request_id
            return await run()  # the same call again, through its gate: it runs, or is denied
        except ToolRefusedError as exc:
            return refusal_result(scope.refusal(exc))
        except StandardToolError as exc:
            return _error_result(exc)
        except Exception as exc:  # anything else the SDK or a result raised: still a result
            return _error_result(
                ToolExecutionError(tool, f"the call failed ({type(exc).__name__})")
            )
        finally:
            await reporter.close()

    return _compat.make_server(name, list_tools, call_tool, set_level, version=version)
