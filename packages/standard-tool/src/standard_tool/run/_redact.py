"""Context values kept out of what a failed call tells the model.

A tool's own exception may quote a value of the per-call context (``int(token)`` says
``invalid literal for int() with base 10: '<token>'``). When a call fails, each value found in
the context that is long enough to be a secret is replaced in the error's message by
:data:`MARKER`:

- a string of at least :data:`MIN_TEXT` characters (bytes: read as UTF-8), as it is and as
  ``repr()`` and JSON escape it;
- an integer or float whose decimal form has at least :data:`MIN_NUMBER` characters, where it
  stands as a whole number (not inside a longer run of digits); shorter numbers, booleans and
  ``None`` stay;
- found in mapping values, lists, tuples, sets, and the fields of data objects (dataclasses,
  pydantic models and secret types, attrs classes, ``SimpleNamespace``: their ``__dict__`` and
  ``__slots__``, read without running their methods), at most :data:`DEPTH` levels deep and
  :data:`VALUES` values in all, the top levels first. Other objects (a framework's request or
  session) are not entered: their many plain words (``"http"``, ``"utf-8"``) would blot out
  the message. A part of the context that cannot be read (a cycle, a mapping whose
  ``values()`` raises) is skipped; nothing here raises.

The tool's name, the exception's type name and the marker itself are never redacted: the model
knows them, and a context value that happens to be part of them must not make the error
unreadable. Only the failure path pays, and nothing when the context is ``None``. The original
exception stays the ``__cause__``, for the developer: a log of the traceback shows it whole.
"""

from __future__ import annotations

import dataclasses
import json
from collections import deque
from collections.abc import Iterable, Mapping
from itertools import islice
from types import MemberDescriptorType, SimpleNamespace
from typing import Any

from ..exceptions import Issue, StandardToolError, ToolExecutionError, ToolTimeoutError

__all__ = ["MARKER", "Secrets", "redact_error", "secrets_of"]

MARKER = "[context value]"
"""What a context value becomes in a model-facing message."""

MIN_TEXT = 4
"""Strings shorter than this are too common to redact (``"en"``, ``"yes"``)."""

MIN_NUMBER = 6
"""Numbers whose decimal form is shorter than this stay (counts, ports, years)."""

DEPTH = 6
"""How deep the context is searched."""

VALUES = 1_000
"""How many values of the context are looked at, at most."""

_DATA = (
    "__dataclass_fields__",
    "__pydantic_fields_set__",
    "__fields_set__",
    "__attrs_attrs__",
    "get_secret_value",
)
"""A class with one of these is a data object, whose fields are searched."""

_FIELD_NAMES = frozenset({"__pydantic_fields_set__", "__fields_set__"})
"""Slots of a pydantic model that hold the names of its fields, not values."""


@dataclasses.dataclass(frozen=True, slots=True)
class Secrets:
    """The forms of the context's values to look for in a message."""

    texts: tuple[str, ...]
    numbers: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.texts or self.numbers)

    def redact(self, text: str, keep: Iterable[str] = ()) -> str:
        """``text`` with every occurrence of a secret replaced by :data:`MARKER`, except inside
        an occurrence of one of ``keep`` (and of the marker itself)."""
        spans = self._spans(text)
        if not spans:
            return text
        kept = _occurrences(text, (*keep, MARKER))
        if kept:
            spans = [s for s in spans if not any(a <= s[0] and s[1] <= b for a, b in kept)]
            if not spans:
                return text
        spans.sort()
        parts, end = [], 0
        for start, stop in spans:
            if start >= end:
                parts.append(text[end:start])
                parts.append(MARKER)
                end = stop
            elif stop > end:  # overlaps the last one: extend it
                end = stop
        parts.append(text[end:])
        return "".join(parts)

    def _spans(self, text: str) -> list[tuple[int, int]]:
        spans = _occurrences(text, self.texts)
        for number in self.numbers:
            start = text.find(number)
            while start != -1:
                stop = start + len(number)
                before = text[start - 1 : start] if start else ""
                after = text[stop : stop + 1]
                if not before.isdigit() and not after.isdigit():
                    spans.append((start, stop))
                start = text.find(number, start + 1)
        return spans


def _occurrences(text: str, needles: Iterable[str]) -> list[tuple[int, int]]:
    spans = []
    for needle in needles:
        if not needle:
            continue
        start = text.find(needle)
        while start != -1:
            spans.append((start, start + len(needle)))
            start = text.find(needle, start + 1)
    return spans


def secrets_of(context: Any) -> Secrets:
    """The values in ``context`` worth redacting (see the module docs); never raises."""
    texts: dict[str, None] = {}
    numbers: dict[str, None] = {}
    seen: set[int] = set()
    queue: deque[tuple[Any, int]] = deque([(context, 0)])  # breadth first: the top first
    budget = VALUES
    while queue and budget > 0:
        value, depth = queue.popleft()
        budget -= 1
        try:
            children = _read(value, texts, numbers)
            if children is None or depth >= DEPTH or id(value) in seen:
                continue
            seen.add(id(value))
            queue.extend((child, depth + 1) for child in islice(children, budget))
        except Exception:  # a part that cannot be read is skipped
            continue
    return Secrets(tuple(texts), tuple(numbers))


def _read(value: Any, texts: dict[str, None], numbers: dict[str, None]) -> Iterable[Any] | None:
    """Record ``value`` if it is a secret; its children if it is a container, else ``None``."""
    kind = type(value)
    if value is None or kind is bool:
        return None
    if issubclass(kind, str):
        _text(str.__str__(value), texts)
        return None
    if issubclass(kind, (bytes, bytearray)):
        raw = bytes(value) if kind is bytearray else b"".join([value])
        if len(raw) >= MIN_TEXT:
            _text(raw.decode("utf-8", "replace"), texts)
            texts.setdefault(repr(raw)[2:-1])
        return None
    if issubclass(kind, int):
        _number(int.__repr__(value), numbers)
        return None
    if issubclass(kind, float):
        _number(float.__repr__(value), numbers)
        return None
    if issubclass(kind, dict):
        return list(dict.values(value))
    if issubclass(kind, (list, tuple, set, frozenset)):
        return list(islice(iter(_builtin_iter(kind)(value)), VALUES))
    if issubclass(kind, Mapping):
        return list(islice(iter(value.values()), VALUES))
    if kind is SimpleNamespace or any(hasattr(kind, mark) for mark in _DATA):
        return _attributes(value, kind)
    return None


def _builtin_iter(kind: type) -> Any:
    for base in (list, tuple, set, frozenset):
        if issubclass(kind, base):
            return base.__iter__
    raise TypeError(kind)


def _attributes(value: Any, kind: type) -> list[Any] | None:
    """An object's own attributes, read from its storage (no properties, no ``__getattr__``)."""
    found: list[Any] = []
    try:
        own = object.__getattribute__(value, "__dict__")
    except Exception:
        own = None
    if type(own) is dict:
        found.extend(islice(dict.values(own), VALUES))
    for cls in kind.__mro__:
        for slot in type.__dict__["__dict__"].__get__(cls).values():
            if type(slot) is MemberDescriptorType and slot.__name__ not in _FIELD_NAMES:
                try:
                    found.append(slot.__get__(value, kind))
                except Exception:  # an empty slot
                    continue
    return found or None


def _text(text: str, texts: dict[str, None]) -> None:
    if len(text) < MIN_TEXT:
        return
    texts.setdefault(text)
    for escaped in (
        repr(text)[1:-1],
        json.dumps(text)[1:-1],
        json.dumps(text, ensure_ascii=False)[1:-1],
    ):
        texts.setdefault(escaped)


def _number(text: str, numbers: dict[str, None]) -> None:
    if len(text) >= MIN_NUMBER:
        numbers.setdefault(text)


def redact_error(error: StandardToolError, context: Any, tool: str) -> StandardToolError:
    """``error``, or a copy of it of the same type whose message quotes no context value.

    A copy keeps the original exception as its ``__cause__`` (``error``'s own cause when it
    has one, else ``error``). An error that cannot be copied becomes a
    :class:`ToolExecutionError` saying only its type.
    """
    if context is None or isinstance(error, ToolTimeoutError):
        return error
    secrets = secrets_of(context)
    if not secrets:
        return error
    keep = _names(error, tool)
    try:
        text = str(error)
    except Exception:
        text = None
    if text is not None and secrets.redact(text, keep) == text:
        return error
    copy = _copy(error, secrets, keep)
    if copy is None:
        copy = ToolExecutionError(tool, f"{type(error).__name__} (its message quotes the context)")
    cause = error.__cause__
    copy.__cause__ = cause if cause is not None else error
    copy.__suppress_context__ = True
    copy.__traceback__ = error.__traceback__
    return copy


def _names(error: StandardToolError, tool: str) -> tuple[str, ...]:
    """What is never redacted: the tool's name, the error's own tool name, its type's name,
    and the request id a refusal names (the caller's own id for the call, said back to it)."""
    names = [tool, type(error).__name__]
    for attribute in ("tool", "request_id"):
        try:
            own = object.__getattribute__(error, attribute)
        except Exception:
            own = None
        if isinstance(own, str) and own and own not in names:
            names.append(own)
    return tuple(names)


def _copy(
    error: StandardToolError, secrets: Secrets, keep: tuple[str, ...]
) -> StandardToolError | None:
    """``error`` made again from its pickled form with every text in it redacted, or ``None``
    when that fails or still quotes the context."""
    try:
        reduced = error.__reduce__()
        if not isinstance(reduced, tuple) or not callable(reduced[0]):
            return None
        make, args = reduced[0], reduced[1]
        copy = make(*_redacted(args, secrets, keep, 0))
        state = reduced[2] if len(reduced) > 2 else None
        if isinstance(state, dict) and isinstance(getattr(copy, "__dict__", None), dict):
            copy.__dict__.update(_redacted(state, secrets, keep, 0))
        if not isinstance(copy, StandardToolError):
            return None
        text = str(copy)
        if secrets.redact(text, keep) != text:
            return None
        return copy
    except Exception:
        return None


def _redacted(value: Any, secrets: Secrets, keep: tuple[str, ...], depth: int) -> Any:
    """``value`` with its texts redacted: strings, the messages of issues, and the items of
    tuples, lists and dicts (a few levels deep); the tool names in ``keep`` stay."""
    if type(value) is str:
        return value if value in keep else secrets.redact(value, keep)
    if depth > 3:
        return value
    if type(value) is Issue:
        return Issue(secrets.redact(value.message, keep), value.path)
    if type(value) in (tuple, list):
        return type(value)(_redacted(item, secrets, keep, depth + 1) for item in value)
    if type(value) is dict:
        return {key: _redacted(item, secrets, keep, depth + 1) for key, item in value.items()}
    return value
