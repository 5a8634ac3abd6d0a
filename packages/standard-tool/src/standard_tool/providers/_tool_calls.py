"""The return half of the tool loop: what a model asked for, run, and answered in its envelope.

Whatever the model sent, each call ends as a result the model reads: malformed argument
JSON, an unknown tool name (or none: a call whose function is not an object), invalid input
and a failing tool become error results naming the tool (by the name the model knows) and
the fields, never an exception, a traceback or a context value; a guarded tool's refusal
is its one JSON line, as in every framework. Only an envelope that is not one (a Gemini candidate that is not an object, envelopes nested past any provider's)
raises :class:`~standard_tool.exceptions.UsageError`.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from threading import Lock
from typing import Any, NamedTuple

from .._protocols import StandardTool
from ..boundary._gate import guarded_of, with_request_id
from ..exceptions import (
    Issue,
    StandardToolError,
    ToolExecutionError,
    ToolRefusedError,
    ToolValidationError,
    UsageError,
)
from ..names import NameMap
from ..plugins._metadata import adopt_each, as_tools
from ..run._accepted import NOT_READ, Accepted, acall_accepted, accepting_json, calling_json
from ..run._call import acall, call as _call, run_sync
from ..schema._json import TOO_LARGE_NUMBER, jsonable
from ._declarations import NAME_RULES, PROVIDERS
from ._strict_undo import null_undo

__all__ = ["ToolCall", "arun_tool_calls", "read_tool_calls", "run_tool_calls"]

_ERROR_KEY = "error"
_new = tuple.__new__


class ToolCall(NamedTuple):
    """One call a model made, whatever its provider: the id to answer (``None`` where the
    provider has none), the tool's name as the model knows it, the arguments (JSON text or
    an object), and the form its answer takes (``responses``, ``chat``, ``anthropic``,
    ``gemini`` or ``hf``)."""

    id: str | None
    name: str
    arguments: Any
    form: str


@dataclass(slots=True)
class _Entry:
    tool: StandardTool
    name: str
    undo: Callable[[Any], Any] | None = None
    undo_ready: bool = False
    guarded: bool = False
    """Whether the tool is guarded (it then runs a call under the call's id)."""
    accept_json: Callable[[Any], Accepted | None] | None = None
    """The tool's own check of arguments sent as JSON text, for an async call (made on first
    use; one that reads nothing for a tool whose ``execute`` does not split)."""
    call_json: Callable[[Any, Any, float | None], Any] | None = None
    """The same check and the call in one, for a sync call (made on first use)."""


def _not_accepted(arguments: Any) -> None:
    """The arguments of a tool whose own ``execute`` checks them: read and run as they are."""
    return None


def _not_called(arguments: Any, context: Any, timeout: float | None) -> Any:
    """The same, for a sync call."""
    return NOT_READ


@dataclass
class Toolbox:
    """Tools by the names one provider knows them by (built once per list of tools)."""

    provider: str
    held: tuple[Any, ...]
    entries: dict[str, _Entry] = field(default_factory=dict)

    @classmethod
    def build(cls, provider: str, held: tuple[Any, ...], tools: Any) -> Toolbox:
        """The toolbox of ``held``, the tools of ``tools`` (which names a non-tool by its index)."""
        box = cls(provider, held)
        names = NameMap(NAME_RULES[provider])
        for tool in adopt_each(tools):
            name = names.add(tool.name)
            box.entries[name] = _Entry(tool, name, guarded=guarded_of(tool) is not None)
        return box

    def arguments(self, entry: _Entry, call: ToolCall) -> Any:
        """The call's arguments as a value (``ToolValidationError`` for malformed JSON)."""
        arguments = call.arguments
        if type(arguments) is str and arguments[:1] == "{":
            try:
                arguments = json.loads(arguments)
            except (ValueError, RecursionError):
                pass  # said below, with where it breaks
        if isinstance(arguments, (str, bytes, bytearray)):
            if not arguments.strip():
                return {}
            try:
                arguments = json.loads(arguments)
            except (ValueError, RecursionError) as error:
                if isinstance(error, json.JSONDecodeError):
                    why = (
                        "the arguments are not valid JSON "
                        f"(line {error.lineno}, column {error.colno}: {error.msg})"
                    )
                elif isinstance(error, ValueError):  # valid JSON: Python's int limit
                    why = TOO_LARGE_NUMBER
                else:
                    why = "the arguments are not valid JSON"
                raise ToolValidationError(entry.name, "input", [Issue(why)]) from None
        elif arguments is None:
            return {}
        if isinstance(arguments, dict):
            undo = self._prepare(entry)
            if undo is not None:
                arguments = undo(arguments)
        return arguments

    def _prepare(self, entry: _Entry) -> Callable[[Any], Any] | None:
        """What the arguments go through before they are checked: strict mode's ``null``
        undone (OpenAI)."""
        if self.provider == "openai" and not entry.undo_ready:
            entry.undo, entry.undo_ready = null_undo(entry.tool), True
        return entry.undo

    def run(self, call: ToolCall, context: Any, timeout: float | None) -> dict[str, Any]:
        """The answer to ``call``, run: its arguments read, strict mode's ``null`` undone
        (OpenAI), checked and called at once when they are JSON text of an object (see
        :func:`calling_json`), else read by :meth:`arguments`, which says where they break."""
        entry = self.entries.get(call.name)
        if entry is None:
            return answer(call, None, self.unknown(call))
        try:
            if entry.guarded:
                context = with_request_id(entry.tool, context, call.id)
            call_json = entry.call_json
            if call_json is None:
                call_json = calling_json(entry.tool, self._prepare(entry)) or _not_called
                entry.call_json = call_json
            result = call_json(call.arguments, context, timeout)
            if result is NOT_READ:
                arguments = self.arguments(entry, call)
                result = _call(entry.tool, arguments, context, timeout=timeout)
        except StandardToolError as error:
            return answer(call, None, _message(entry.name, error))
        return answer(call, result)

    def unknown(self, call: ToolCall) -> str:
        """What a call of no tool of this box is answered."""
        known = ", ".join(repr(name) for name in self.entries) or "none"
        why = "no tool has that name" if call.name else "the call names no tool"
        return f"Unknown tool: {why}. Tools: {known}."

    async def arun(self, call: ToolCall, context: Any, timeout: float | None) -> dict[str, Any]:
        """:meth:`run` for async code."""
        entry = self.entries.get(call.name)
        if entry is None:
            return answer(call, None, self.unknown(call))
        try:
            if entry.guarded:
                context = with_request_id(entry.tool, context, call.id)
            accept_json = entry.accept_json
            if accept_json is None:
                accept_json = accepting_json(entry.tool, self._prepare(entry)) or _not_accepted
                entry.accept_json = accept_json
            accepted = accept_json(call.arguments)
            if accepted is not None:
                result = await acall_accepted(entry.tool, accepted, context, timeout=timeout)
            else:
                arguments = self.arguments(entry, call)
                result = await acall(entry.tool, arguments, context, timeout=timeout)
        except StandardToolError as error:
            return answer(call, None, _message(entry.name, error))
        return answer(call, result)

    async def arun_all(
        self, calls: list[ToolCall], context: Any, timeout: float | None
    ) -> list[dict[str, Any]]:
        """The answers to ``calls``, run concurrently, in order."""
        import asyncio

        if len(calls) == 1:
            return [await self.arun(calls[0], context, timeout)]
        return list(await asyncio.gather(*(self.arun(c, context, timeout) for c in calls)))


def _message(name: str, error: StandardToolError) -> str:
    """The model-facing text of a failed call, the tool named as the model knows it; a
    guarded tool's refusal is its one JSON line, the same in every framework."""
    if isinstance(error, ToolRefusedError):
        return str(error)
    if isinstance(error, ToolValidationError):
        return str(ToolValidationError(name, error.target, error.issues))
    if isinstance(error, ToolExecutionError):
        return str(ToolExecutionError(name, error.message))
    return str(ToolExecutionError(name, f"{type(error).__name__}: {error}"))


_LOCK = Lock()
_BOXES: OrderedDict[tuple[Any, ...], Toolbox] = OrderedDict()
_KEPT = 64


def toolbox(tools: Any, provider: str) -> Toolbox:
    """The toolbox of ``tools`` for ``provider``, reused while the same tools are passed."""
    if provider not in PROVIDERS:
        raise UsageError(f"provider is one of {', '.join(map(repr, PROVIDERS))}, not {provider!r}")
    if type(tools) in (list, tuple):
        key = (provider, id(tools[0])) if len(tools) == 1 else (provider, *map(id, tools))
        box = _BOXES.get(key)  # a lookup needs no lock; the oldest box goes first
        if box is not None:
            return box
        held = tuple(tools)
    else:
        held = tuple(as_tools(tools))
        key = (provider, *map(id, held))
        box = _BOXES.get(key)
        if box is not None:
            return box
    box = Toolbox.build(provider, held, tools)  # holds the tools, so their ids stay theirs
    with _LOCK:
        _BOXES[key] = box
        while len(_BOXES) > _KEPT:
            _BOXES.popitem(last=False)
    return box


# --- reading what the model sent --------------------------------------------------------------


def _plain(obj: Any) -> Any:
    """A provider SDK's object as plain data (its wire form); plain data as it is."""
    if type(obj) in _PLAIN or isinstance(obj, (Mapping, list, tuple, str)) or obj is None:
        return obj
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json", by_alias=True, exclude_none=True)
        except TypeError:
            return dump()
    raise UsageError(
        f"tool calls are dicts (or a provider SDK's objects), not {type(obj).__name__}"
    )


_PLAIN = frozenset((dict, list, tuple, str))


_MAX_NESTING = 32
"""Envelopes (a message in a response in ...) read before the calls are refused as too deep."""


def _items(value: Any, *keys: str) -> list[Any]:
    """The list under the first of ``keys`` ``value`` has (followed down, envelope by
    envelope), or ``value`` itself as a list."""
    envelopes = 0
    while True:
        if type(value) is list:  # the common case, first, with no counter made
            for item in value:
                if type(item) is not dict:
                    break
            else:
                return value
        if envelopes == _MAX_NESTING:
            raise UsageError(f"the tool calls nest more than {_MAX_NESTING} envelopes deep")
        envelopes += 1
        value = _plain(value)
        if isinstance(value, Mapping):
            key = next((key for key in keys if key in value), None)
            if key is None:
                return [value]
            value = value[key]
        elif isinstance(value, (list, tuple)):
            return [_plain(item) for item in value]
        else:
            raise UsageError(f"tool calls come as a list or a message, not {type(value).__name__}")


def read_tool_calls(calls: Any, provider: str) -> list[ToolCall]:
    """The tool calls in what a model produced for ``provider`` (the shapes
    :func:`run_tool_calls` takes), normalized, in order; everything else is skipped. A call
    that names no tool is read with the name ``""`` (and answered as an unknown tool)."""
    if provider not in PROVIDERS:
        raise UsageError(f"provider is one of {', '.join(map(repr, PROVIDERS))}, not {provider!r}")
    reader: Callable[[Any], ToolCall | None]
    if provider == "openai":
        reader, items = _openai_call, _items(calls, "output", "tool_calls")
    elif provider == "anthropic":
        reader, items = _anthropic_call, _items(calls, "content")
    elif provider == "gemini":
        reader, items = _gemini_call, _gemini_parts(calls)
    else:
        parsed = getattr(calls, "calls", None)  # a ParsedCompletion
        reader, items = _hf_call, _items(parsed if parsed is not None else calls, "tool_calls")
    found: list[ToolCall] = []
    for item in items:  # a plain loop: for the few items of a turn, cheaper than map
        call = reader(item)
        if call is not None:  # an item that is no call is skipped
            found.append(call)
    return found


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _name(value: Any) -> str:
    """A tool name as the model sent it (anything else names no tool)."""
    return value if type(value) is str else ""


def _openai_call(item: Any) -> ToolCall | None:
    if type(item) is not dict and not isinstance(item, Mapping):
        return None
    if item.get("type") == "function_call":
        call_id = item.get("call_id")
        name = item.get("name")
        return _new(
            ToolCall,
            (
                call_id if type(call_id) is str else None,
                name if type(name) is str else "",
                item.get("arguments"),
                "responses",
            ),
        )
    if item.get("type", "function" if "function" in item else None) != "function":
        return None  # not a Chat Completions call
    function = item.get("function")
    if not isinstance(function, Mapping):
        function = {}  # a call all the same: it is answered, as naming no tool
    return ToolCall(
        _text(item.get("id")), _name(function.get("name")), function.get("arguments"), "chat"
    )


def _anthropic_call(block: Any) -> ToolCall | None:
    if isinstance(block, Mapping) and block.get("type") == "tool_use":
        return ToolCall(
            _text(block.get("id")), _name(block.get("name")), block.get("input"), "anthropic"
        )
    return None


def _gemini_parts(value: Any) -> list[Any]:
    value = _plain(value)
    if isinstance(value, Mapping) and "candidates" in value:
        candidates = _plain(value["candidates"])
        if not isinstance(candidates, (list, tuple)):
            raise UsageError(f"Gemini candidates are a list, not {type(candidates).__name__}")
        candidate = _plain(candidates[0]) if candidates else {}
        if not isinstance(candidate, Mapping):
            raise UsageError(f"a Gemini candidate is an object, not {type(candidate).__name__}")
        value = _plain(candidate.get("content")) or {}
        if not isinstance(value, Mapping):
            raise UsageError(f"a Gemini content is an object, not {type(value).__name__}")
    return _items(value, "parts")


def _gemini_call(part: Any) -> ToolCall | None:
    if not isinstance(part, Mapping):
        return None
    function = part.get("functionCall", part.get("function_call"))
    if function is None:  # a part of another kind (a dumped SDK part holds every kind, None)
        return None
    if not isinstance(function, Mapping):
        function = {}  # a call all the same: it is answered, as naming no tool
    return ToolCall(
        _text(function.get("id")), _name(function.get("name")), function.get("args"), "gemini"
    )


def _hf_call(item: Any) -> ToolCall | None:
    if not isinstance(item, Mapping):
        return None
    if "function" in item or item.get("type") == "function":
        function = item.get("function")
        if not isinstance(function, Mapping):
            function = {}  # a call all the same: it is answered, as naming no tool
    elif item.keys() & _FLAT_CALL:
        function = item
    else:
        return None  # a message, not a call
    arguments = function.get("arguments", function.get("parameters"))
    return ToolCall(_text(item.get("id")), _name(function.get("name")), arguments, "hf")


_FLAT_CALL = frozenset(("name", "arguments", "parameters"))
"""Keys of a chat-template call written without its ``function`` wrapper."""


# --- answering ---------------------------------------------------------------------------------


_encode = json.JSONEncoder(ensure_ascii=False).encode


def _content(value: Any, error: str | None) -> str:
    if error is not None:
        return _encode({_ERROR_KEY: error})
    if isinstance(value, str):
        return value
    kind = type(value)  # the text json writes for a scalar, written at once
    if kind is int:
        return int.__repr__(value)
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    if kind is float and not value - value:  # finite: what json writes for it
        return float.__repr__(value)
    return _encode(jsonable(value))


def answer(call: ToolCall, value: Any, error: str | None = None) -> dict[str, Any]:
    """What goes back to the model for ``call``, in its provider's envelope: the call's
    result ``value``, or the ``error`` it failed with."""
    form = call.form
    if form == "responses":
        text = value if type(value) is str and error is None else _content(value, error)
        return {"type": "function_call_output", "call_id": call.id, "output": text}
    if form == "chat":
        return {"role": "tool", "tool_call_id": call.id, "content": _content(value, error)}
    if form == "anthropic":
        return {
            "type": "tool_result",
            "tool_use_id": call.id,
            "content": _content(value, None) if error is None else error,
            "is_error": error is not None,
        }
    if form == "gemini":
        response = {"output": jsonable(value)} if error is None else {_ERROR_KEY: error}
        reply: dict[str, Any] = {"name": call.name, "response": response}
        if call.id is not None:
            reply = {"id": call.id, **reply}
        return {"functionResponse": reply}
    message: dict[str, Any] = {"role": "tool", "name": call.name, "content": _content(value, error)}
    if call.id is not None:
        message["tool_call_id"] = call.id
    return message


def _checked(calls: list[ToolCall]) -> list[ToolCall]:
    for position, found in enumerate(calls):
        if found.id is None and found.form in _ANSWERED_BY_ID:
            raise UsageError(f"tool call {position} has no id to answer to")
    return calls


_ANSWERED_BY_ID = frozenset(("responses", "chat", "anthropic"))


def run_tool_calls(
    tools: Any,
    calls: Any,
    provider: str,
    *,
    context: Any = None,
    timeout: float | None = None,
) -> list[dict[str, Any]]:
    """Run the tool calls a model made and return what goes back to it, one answer per call,
    in order, each matched to its call's id. Several calls run concurrently.

    ``tools`` are the tools declared to the model (anything ``st.adopt`` takes), ``calls``
    what the model produced for ``provider``:

    - ``"openai"``: Responses ``function_call`` items (or the response's ``output``), answered
      by ``function_call_output`` items; Chat Completions ``tool_calls`` (or the assistant
      message), answered by ``tool`` role messages with ``tool_call_id``.
    - ``"anthropic"``: ``tool_use`` blocks (or the message, or its ``content``), answered by
      ``tool_result`` blocks with ``is_error``, for one ``user`` message.
    - ``"gemini"``: ``functionCall`` parts (or the content, or the response), answered by
      ``functionResponse`` parts (``{"output": ...}`` or ``{"error": ...}``).
    - ``"hf"``: chat-template ``tool_calls`` (or the assistant message, or what
      :func:`parse_tool_calls` returned), answered by ``tool`` role messages.

    Failures are answers too (see the module docs). ``context`` reaches every tool and never
    the model; a call's id is added to it as ``request_id`` (a mapping, or no context, that
    has none), the id a guarded tool runs the call under once. ``timeout`` bounds each call.
    """
    box = toolbox(tools, provider)
    found = read_tool_calls(calls, provider)
    if len(found) == 1:  # the common turn: no event loop, and the id checked here
        only = found[0]
        if only.id is None and only.form in _ANSWERED_BY_ID:
            _checked(found)
        return [box.run(only, context, timeout)]
    _checked(found)
    return run_sync(box.arun_all(found, context, timeout)) if found else []


async def arun_tool_calls(
    tools: Any,
    calls: Any,
    provider: str,
    *,
    context: Any = None,
    timeout: float | None = None,
) -> list[dict[str, Any]]:
    """:func:`run_tool_calls` for async code: the calls run concurrently on this loop."""
    box = toolbox(tools, provider)
    found = _checked(read_tool_calls(calls, provider))
    return await box.arun_all(found, context, timeout) if found else []
