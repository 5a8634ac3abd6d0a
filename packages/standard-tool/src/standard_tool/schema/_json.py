"""What counts as JSON data: the check every value a tool receives or returns goes through.

JSON data is ``None``, booleans, strings, finite numbers, lists (tuples too) and dicts with
string keys, nested at most :data:`MAX_DEPTH` levels; a string (a key too) must be valid
Unicode, which UTF-8 can encode (JSON text may escape a lone surrogate, ``"\ud800"``, which
Python reads into a string no answer can carry). Subclasses count (a ``str`` enum is a
string). Anything else is refused with an issue naming where it is and which rule it breaks,
never the value itself.

Input is held to that as it is. Output is held to it as serialized by :func:`jsonable`: a
pydantic model, a date or a set is fine, a NaN, a value containing itself, bytes that are
not UTF-8 or an iterator (a generator: checking it would read it up) are not (binary data is fine as media that names its MIME type, see
:func:`is_media`).
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from typing import Any

from .._probe import attribute, is_instance
from ..exceptions import Issue, NotJsonError, PathItem, ToolValidationError

__all__ = [
    "BUDGET",
    "LARGE_NUMBER",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_ISSUES",
    "MIN_INT",
    "SCALARS",
    "TOO_LARGE_NUMBER",
    "broken",
    "is_json_data",
    "is_media",
    "json_issues",
    "jsonable",
    "plain",
    "plain_container",
    "result_text",
]

MAX_DEPTH = 256
"""Deepest nesting of lists and dicts accepted in a value; deeper input is refused, not crashed on."""
MAX_ISSUES = 50
"""Most issues reported for one value."""

SCALARS: frozenset[type] = frozenset({str, int, bool, type(None)})
"""The exact types that are JSON data on their own (a float must also be finite, a string
valid Unicode, an int below :data:`MAX_INT`)."""

MAX_INT = 10**4300
"""An int this large or larger (more than 4300 digits) is not JSON data: Python writes no
text for it (``sys.get_int_max_str_digits``), so no answer could carry it."""

MIN_INT = -MAX_INT
"""An int this small or smaller is not JSON data either (made once: the hot paths compare
with it, and negating :data:`MAX_INT` anew would build a 1,800-byte int each time)."""

NOT_FINITE = "must be a finite number (NaN and infinity are not JSON)"
TOO_LONG_NUMBER = "is a number too large to write (more than 4300 digits)"
TOO_DEEP = (Issue(f"value nests deeper than {MAX_DEPTH} levels"),)
_BAD_KEY = "has a key that is not a string"
NOT_UNICODE = "is a string that is not valid Unicode (it holds a lone surrogate)"
_BAD_TEXT_KEY = "has a key that is not valid Unicode (it holds a lone surrogate)"
_ONE_SHOT = "is not JSON data ({}: an iterator, which can be read only once; return a list)"

LARGE_NUMBER = "a number too large to read (more than 4300 digits)"
"""What JSON text with a number longer than Python reads (``sys.get_int_max_str_digits``)
holds: it is valid JSON, not malformed, and is refused as that."""
TOO_LARGE_NUMBER = f"the arguments hold {LARGE_NUMBER}"

_Node = tuple[Any, tuple[PathItem, ...], int]

_SURROGATE = re.compile("[\ud800-\udfff]")


def broken(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate, which no UTF-8 can encode (callers test
    ``text.isascii()`` first, which is instant, and call this only when it is false)."""
    return _SURROGATE.search(text) is not None


def json_issues(value: Any, *, convert: bool = False) -> tuple[Issue, ...] | None:
    """Where ``value`` breaks the JSON rules (at most :data:`MAX_ISSUES` issues), or ``None``.

    With ``convert``, a value that is not JSON data but serializes to it (a pydantic model,
    a dataclass, a date, an enum, a set, UTF-8 bytes...) is checked as what :func:`jsonable`
    makes of it; it is an issue only if it cannot be serialized.

    The walk is iterative and bounded: a container is walked again only when reached at a
    greater depth, so values that contain themselves end at the depth limit.
    """
    if plain(value):
        return None
    issues: list[Issue] = []
    deepest: dict[int, int] = {}
    made: dict[int, Any] = {}  # converted values, kept alive so their ids stay unique
    stack: list[_Node] = [(value, (), 0)]
    pop, push = stack.pop, stack.append
    while stack and len(issues) < MAX_ISSUES:
        node, path, depth = pop()
        kind = type(node)
        if kind is dict or kind is list or kind is tuple or isinstance(node, (dict, list, tuple)):
            if depth > MAX_DEPTH:
                return TOO_DEEP
            if deepest.get(id(node), -1) >= depth:
                continue
            deepest[id(node)] = depth
            if not isinstance(node, dict):
                for index, child in enumerate(node):
                    child_kind = type(child)
                    if child_kind is str:
                        if not child.isascii() and broken(child):
                            issues.append(Issue(NOT_UNICODE, (*path, index)))
                    elif (
                        child_kind not in SCALARS and (child_kind is not float or child - child)
                    ) or (child_kind is int and not MIN_INT < child < MAX_INT):
                        push((child, (*path, index), depth + 1))
                continue
            if convert and id(node) not in made and not all(isinstance(k, str) for k in node):
                converted = _convert(node, path, issues)  # pydantic turns keys into strings
                if converted is not None:
                    made[id(converted)] = converted
                    push((converted, path, depth))
                continue
            bad_key = False
            for key, child in node.items():
                if not isinstance(key, str):
                    if not bad_key:
                        bad_key = True
                        issues.append(Issue(_BAD_KEY, path))
                    continue
                if not key.isascii() and broken(key):  # named by its dict, not by itself
                    issues.append(Issue(_BAD_TEXT_KEY, path))
                    continue
                child_kind = type(child)
                if child_kind is str:
                    if not child.isascii() and broken(child):
                        issues.append(Issue(NOT_UNICODE, (*path, key)))
                elif (child_kind not in SCALARS and (child_kind is not float or child - child)) or (
                    child_kind is int and not MIN_INT < child < MAX_INT
                ):
                    push((child, (*path, key), depth + 1))
        elif isinstance(node, float):
            if node - node:
                issues.append(Issue(NOT_FINITE, path))
        elif isinstance(node, str):
            if not node.isascii() and broken(node):
                issues.append(Issue(NOT_UNICODE, path))
        elif isinstance(node, int):
            if not MIN_INT < node < MAX_INT:
                issues.append(Issue(TOO_LONG_NUMBER, path))
        elif isinstance(node, Iterator):  # serializing it would read it up, and lose it
            issues.append(Issue(_ONE_SHOT.format(kind.__name__), path))
        elif convert and id(node) not in made:
            converted = _convert(node, path, issues)
            if converted is not None:
                made[id(converted)] = converted
                push((converted, path, depth))
        else:
            issues.append(Issue(f"is not JSON data ({kind.__name__})", path))
    return tuple(dict.fromkeys(issues[:MAX_ISSUES])) or None


def is_json_data(text: str) -> bool:
    """Whether what pydantic-core's reader reads from the JSON text ``text`` is JSON data as
    it is, with no walk needed: so for a text of at most 308 characters with no ``e``,
    ``E``, ``N`` or ``I`` anywhere. The reader takes no lone surrogate and nests at most 200
    levels; its only values that are not JSON data are numbers that are not finite, which
    it reads from ``NaN`` and ``Infinity``, and from a number past the float range, which
    needs an exponent (written with ``e`` or ``E``) or more than 308 digits."""
    return len(text) <= 308 and not ("e" in text or "E" in text or "N" in text or "I" in text)


BUDGET = 10_000
"""Most containers :func:`plain` looks at before it leaves the value to the full walk (a
value that shares its parts may be far larger as a tree than in memory)."""


def plain(value: Any) -> bool:
    """Whether ``value`` is JSON data made of the exact JSON types only: ``dict`` with
    ``str`` keys, ``list``, ``str``, ``int``, ``bool``, ``None`` and finite ``float``,
    nested at most :data:`MAX_DEPTH` levels, every string valid Unicode.

    The fast check every call goes through: no paths and no bookkeeping. Anything unusual
    (a tuple, a subclass, an enum member, a ``Decimal``, a value that is not JSON data, more
    than :data:`BUDGET` containers) gives ``False`` and leaves the verdict, and the
    issues, to the full walk (:func:`json_issues`).
    """
    kind = type(value)
    if kind is dict or kind is list:
        try:
            return plain_container(value, 0, BUDGET) >= 0
        except RecursionError:  # the caller's stack is deep already: the full walk is iterative
            return False
    if kind is str:
        return value.isascii() or not broken(value)
    if kind is int:
        number: int = value
        return MIN_INT < number < MAX_INT
    return kind in SCALARS or (kind is float and not value - value)


def plain_container(node: Any, depth: int, budget: int) -> int:
    """What is left of ``budget`` once ``node`` (a dict or a list at ``depth``) and what it
    holds are found plain, or ``-1``."""
    budget -= 1
    if budget < 0:
        return -1
    if type(node) is dict:
        for key, item in node.items():
            if type(key) is not str or (not key.isascii() and broken(key)):
                return -1
            kind = type(item)
            if kind in SCALARS:
                if kind is str:
                    if not item.isascii() and broken(item):
                        return -1
                elif kind is int and not MIN_INT < item < MAX_INT:
                    return -1
                continue
            if kind is float:
                if item - item:  # NaN or infinity
                    return -1
            elif (kind is dict or kind is list) and depth < MAX_DEPTH:
                budget = plain_container(item, depth + 1, budget)
                if budget < 0:
                    return -1
            else:
                return -1
        return budget
    for item in node:
        kind = type(item)
        if kind in SCALARS:
            if kind is str:
                if not item.isascii() and broken(item):
                    return -1
            elif kind is int and not MIN_INT < item < MAX_INT:
                return -1
            continue
        if kind is float:
            if item - item:
                return -1
        elif (kind is dict or kind is list) and depth < MAX_DEPTH:
            budget = plain_container(item, depth + 1, budget)
            if budget < 0:
                return -1
        else:
            return -1
    return budget


def _convert(node: Any, path: tuple[PathItem, ...], issues: list[Issue]) -> Any:
    """What pydantic serializes ``node`` to, or ``None`` after recording why it cannot."""
    try:
        return _serialized(node)
    except Exception:  # a circular or too deep value, bytes that are not UTF-8, a failing __str__
        issues.append(Issue(f"cannot be serialized as JSON ({type(node).__name__})", path))
        return None


def _serialized(node: Any) -> Any:
    """``node`` serialized by pydantic; the bytes of media (see :func:`is_media`) in base64."""
    from pydantic_core import to_jsonable_python

    if not is_media(node):
        return to_jsonable_python(node, fallback=_unknown)
    converted = to_jsonable_python(node, fallback=_unknown, bytes_mode="base64")
    if isinstance(converted, dict) and "data" in converted:  # standard base64, as MCP has it
        converted["data"] = base64.b64encode(bytes(node.data)).decode("ascii")
    return converted


def _unknown(node: Any) -> Any:
    """A value pydantic has no JSON form for is refused, not turned into its ``str()``:
    its text would say nothing the model can use, and may say what it must not."""
    raise TypeError(type(node).__name__)


def is_media(value: Any) -> bool:
    """Whether ``value`` is binary data that names its type: a ``data`` attribute holding
    bytes and a ``mime_type`` string (the MCP adapter's ``Image``, ``Audio``, ``Resource``).
    Adapters present it as binary content; as JSON its bytes are base64. Bare bytes have no
    such form: they are JSON only as UTF-8 text."""
    return is_instance(attribute(value, "data"), (bytes, bytearray)) and is_instance(
        attribute(value, "mime_type"), str
    )


def jsonable(value: Any) -> Any:
    """``value`` as JSON data (dicts, lists, strings, finite numbers, booleans, ``None``).

    Pydantic models, dataclasses, dates, enums and the like become what pydantic serializes
    them to; the bytes of media (see :func:`is_media`) become base64. A value that is not
    JSON data then (an object pydantic has no JSON form for, NaN, a value containing itself,
    nesting deeper than :data:`MAX_DEPTH`, bytes that are not UTF-8) raises
    :class:`~standard_tool.exceptions.NotJsonError`.

    JSON data of the exact JSON types comes back as it is. Otherwise each part is converted
    once: a list or dict found twice in ``value`` (not a cycle) is one object in the result
    too, so a value that shares its parts never grows into a tree of copies.
    """
    if plain(value):
        return value
    issues = json_issues(value, convert=True)
    if issues is not None:
        raise NotJsonError(issues)
    try:
        converted = _build(value, {})
    except Exception:  # a part that serialized for the check and fails now
        raise NotJsonError((Issue("cannot be serialized as JSON"),)) from None
    issues = json_issues(converted)
    if issues is not None:
        raise NotJsonError(issues)
    return converted


_JSON = json.JSONEncoder(ensure_ascii=False, allow_nan=False)


def result_text(tool: str, result: Any) -> str:
    """A tool's result as the text a model reads: a string as it is, anything else as JSON
    text (of its :func:`jsonable` form, for a model, a date or the like).

    A result is checked to be JSON data before it gets here; one that still does not
    serialize is an invalid output of ``tool`` (a :class:`ToolValidationError`), not a crash.
    """
    if isinstance(result, str):
        return result
    if type(result) is int:
        return str(result)
    try:
        return _JSON.encode(result)
    except (TypeError, ValueError):
        pass
    try:
        return _JSON.encode(jsonable(result))
    except NotJsonError as exc:
        raise ToolValidationError(tool, "output", exc.issues) from None


def _build(node: Any, built: dict[int, tuple[Any, Any]]) -> Any:
    """``node`` (a value :func:`json_issues` has found serializable) serialized part by
    part, each list, tuple and dict once: ``built`` maps their ids to ``(part, result)``,
    the part held so that its id stays its own."""
    kind = type(node)
    if kind in SCALARS or kind is float:
        return node
    done = built.get(id(node))
    if done is not None:
        return done[1]
    result: Any
    if isinstance(node, (list, tuple)):
        result = []
        built[id(node)] = (node, result)
        result.extend(_build(item, built) for item in node)
    elif isinstance(node, dict) and all(type(key) is str for key in node):
        result = {}
        built[id(node)] = (node, result)
        for key, item in node.items():
            result[key] = _build(item, built)
    else:  # a model, a date, an enum, a set, a dict with other keys: pydantic's form of it
        result = _serialized(node)
        built[id(node)] = (node, result)
    return result
