"""Read a tool's descriptions out of a Google, NumPy or Sphinx style docstring."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["Docstring", "parse_docstring"]

_PARAMS = (
    "args",
    "arguments",
    "parameters",
    "params",
    "keyword args",
    "keyword arguments",
    "other parameters",
)
_RETURNS = ("returns", "return", "yields", "yield")
_OTHERS = (
    "raises", "raise", "warns", "warn", "warning", "warnings", "example", "examples",
    "note", "notes", "attributes", "methods", "todo", "see also", "references",
    "attention", "caution", "danger", "error", "hint", "important", "tip",
    "receives", "receive",
)  # fmt: skip
_SECTIONS = {
    **dict.fromkeys(_PARAMS, "params"),
    **dict.fromkeys(_RETURNS, "returns"),
    **dict.fromkeys(_OTHERS, "other"),
}

_SPHINX_PARAMS = frozenset({"param", "parameter", "arg", "argument", "key", "keyword"})
_SPHINX_RETURNS = frozenset({"returns", "return", "yields", "yield"})
_SPHINX_FIELDS = _SPHINX_PARAMS | _SPHINX_RETURNS | {
    "type", "rtype", "ytype", "raises", "raise", "except", "exception",
    "var", "ivar", "cvar", "vartype", "meta",
}  # fmt: skip

_SPHINX = re.compile(
    r"^ *:(param|parameter|arg|argument|key|keyword|returns?|raises?|type|rtype)\b", re.MULTILINE
)
# The \b stops the name from backtracking, which keeps the match linear in the line length.
_FIELD = re.compile(r":(\w+)\b([^:]*):(.*)")
_DASHES = re.compile(r"-{3,}")
_NAME = re.compile(r"\*{0,2}([A-Za-z_]\w*)")
_OPEN, _CLOSE = "([{", ")]}"

_Entry = tuple[tuple[str, ...], list[str]]
_Head = Callable[[str], "tuple[tuple[str, ...], str] | None"]
_Section = tuple[str, list[str]]


@dataclass(frozen=True, slots=True)
class Docstring:
    """A parsed docstring: the prose description, each argument's text and the returns text."""

    description: str
    params: Mapping[str, str]
    returns: str | None


def parse_docstring(doc: str | None) -> Docstring:
    """Parse a docstring written in the Google, NumPy or Sphinx style, detecting which."""
    if not doc or not doc.strip():
        return Docstring("", {}, None)
    text = inspect.cleandoc(doc.replace("\r\n", "\n").replace("\r", "\n"))
    lines = [line.rstrip() for line in text.split("\n")]
    if _SPHINX.search(text):
        return _sphinx(lines)
    headers = [
        i
        for i in range(len(lines) - 1)
        if lines[i][:1] not in ("", " ")
        and not _DASHES.fullmatch(lines[i])
        and _DASHES.fullmatch(lines[i + 1].strip())
    ]
    if any(_kind(lines[i]) for i in headers):
        bounds = [*headers, len(lines)]
        sections = [
            (_kind(lines[h]) or "other", lines[h + 2 : bounds[k + 1]])
            for k, h in enumerate(headers)
        ]
        return _assemble(lines[: headers[0]], sections, _numpy_head, _numpy_returns)
    start, sections = _google_sections(lines)
    return _assemble(lines[:start], sections, _google_head, _google_returns)


def _kind(title: str) -> str | None:
    return _SECTIONS.get(title.strip().removesuffix(":").rstrip().lower())


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join(lines: list[str]) -> str:
    """Join lines into paragraphs: one space within a paragraph, a blank line between them."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        text = line.strip()
        if text:
            paragraphs[-1].append(text)
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


def _close(text: str, start: int) -> int | None:
    """The index just past the bracket closing the one at ``start``, or None if unbalanced."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in _OPEN:
            depth += 1
        elif text[i] in _CLOSE:
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _assemble(
    prose: list[str], sections: list[_Section], head: _Head, returns_of: Callable[[list[str]], str]
) -> Docstring:
    params: dict[str, str] = {}
    returns: str | None = None
    for kind, body in sections:
        if kind == "params":
            for names, lines in _entries(body, head):
                text = _join(lines)
                for name in names:
                    params[name] = text
        elif kind == "returns" and returns is None:
            returns = returns_of(body) or None
    return Docstring("\n".join(prose).strip(), params, returns)


def _entries(body: list[str], head: _Head) -> list[_Entry]:
    """Split a section into entries: a head line at the section's indent, then deeper lines."""
    base = min((_indent(line) for line in body if line), default=0)
    entries: list[_Entry] = []
    for line in body:
        parsed = head(line.strip()) if line and _indent(line) <= base else None
        if parsed is not None:
            entries.append((parsed[0], [parsed[1]]))
        elif entries:
            entries[-1][1].append(line)
    return entries


def _google_sections(lines: list[str]) -> tuple[int, list[_Section]]:
    """Find ``Header:`` sections; each runs over the indented and blank lines below it."""
    start = len(lines)
    sections: list[_Section] = []
    body: list[str] | None = None
    for i, line in enumerate(lines):
        kind = _kind(line) if line.endswith(":") and line[0] != " " else None
        if kind is not None:
            start = min(start, i)
            body = []
            sections.append((kind, body))
        elif body is not None and (not line or line[0] == " "):
            body.append(line)
        else:
            body = None
    return start, sections


def _google_head(line: str) -> tuple[tuple[str, ...], str] | None:
    """``name (type): text`` or ``name: text``; the type may nest brackets."""
    match = _NAME.match(line)
    if match is None:
        return None
    rest = line[match.end() :].lstrip()
    if rest.startswith("("):
        end = _close(rest, 0)
        if end is None:
            return None
        rest = rest[end:].lstrip()
    if not rest.startswith(":"):
        return None
    return (match[1],), rest[1:].strip()


def _google_returns(body: list[str]) -> str:
    """The returns text without a leading type such as ``int:`` or ``dict[str, int] | None:``."""
    text = _join(body)
    i = 0
    while i < len(text):
        char = text[i]
        if char in _OPEN:
            end = _close(text, i)
            if end is None:
                return text
            i = end
        elif char == ":":
            return text[i + 1 :].strip() if i and text[i + 1 : i + 2].isspace() else text
        elif char.isalnum() or char in "_.|" or (char == " " and "|" in text[i - 1 : i + 2]):
            i += 1
        else:
            return text
    return text


def _numpy_head(line: str) -> tuple[tuple[str, ...], str] | None:
    """``name : type`` or ``x, y : type``; the description follows on deeper lines."""
    matches = [_NAME.fullmatch(name.strip()) for name in line.split(":", 1)[0].split(",")]
    if not all(matches):
        return None
    return tuple(m[1] for m in matches if m), ""


def _numpy_returns(body: list[str]) -> str:
    """The entries' descriptions (an entry without one gives its own line), or the plain text."""
    entries = _entries(body, lambda line: ((line,), ""))
    texts = [(_join(lines), names[0]) for names, lines in entries]
    if not any(text for text, _ in texts):
        return _join(body)
    return "\n\n".join(text or head for text, head in texts)


def _sphinx(lines: list[str]) -> Docstring:
    start = len(lines)
    fields: list[tuple[str, str, list[str]]] = []
    depth = -1  # the indent of the open field, -1 when none is open
    for i, line in enumerate(lines):
        match = _FIELD.match(line.lstrip())
        if match and match[1] in _SPHINX_FIELDS and (depth < 0 or _indent(line) <= depth):
            start = min(start, i)
            depth = _indent(line)
            fields.append((match[1], match[2].strip(), [match[3]]))
        elif depth >= 0 and (not line or _indent(line) > depth):
            fields[-1][2].append(line)
        else:
            depth = -1
    params: dict[str, str] = {}
    returns: str | None = None
    for name, argument, body in fields:
        if name in _SPHINX_PARAMS and argument:
            params[argument.split()[-1].lstrip("*")] = _join(body)
        elif name in _SPHINX_RETURNS and returns is None:
            returns = _join(body) or None
    return Docstring("\n".join(lines[:start]).strip(), params, returns)
