"""SOURCE: where the tools come from (a Python object, a file's object, or an MCP server)."""

from __future__ import annotations

import importlib
import importlib.util
import io
import os
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple, TextIO

import standard_tool as st
from standard_tool.boundary import Gate
from standard_tool.checks import one_line
from standard_tool.contracts import Pin
from standard_tool.exceptions import PinMismatchError
from standard_tool.registry import adopt_tools, is_standard_tool

from ._errors import CommandError
from ._http import not_found_hint

__all__ = [
    "FORMS",
    "GATE_FORMS",
    "MCP_STDIO",
    "ServerLog",
    "find_tool",
    "is_file",
    "load_gate",
    "load_object",
    "open_source",
    "source_module",
]

MCP_STDIO = "mcp+stdio:"
FORMS = (
    "package.module:attribute, path/to/file.py:attribute, "
    "'mcp+stdio:COMMAND ARGS...' or an http(s):// URL"
)
"""The forms a SOURCE takes, for messages."""
GATE_FORMS = "package.module:attribute or path/to/file.py:attribute"
"""The forms a ``--gate`` takes, for messages."""


def open_source(
    source: str,
    stack: ExitStack,
    *,
    timeout: float | None = 60,
    env: Mapping[str, str] | None = None,
    errlog: TextIO | None = None,
    pin: str | None = None,
) -> list[Any]:
    """The standard tools ``source`` holds; an MCP session stays open until ``stack`` closes.

    An ``mcp+stdio:`` server gets the MCP SDK's default environment
    (``mcp.client.stdio.get_default_environment()``) with ``env`` added, and writes its
    stderr to ``errlog`` (default: ``sys.stderr``); ``env`` is a usage error for another
    SOURCE. ``pin`` is the path of a snapshot the tools are held to
    (:class:`standard_tool.contracts.Pin`): a tool unlike it, or not in it, is refused with
    :class:`~standard_tool.exceptions.PinMismatchError`.
    """
    held = None if pin is None else _pin(pin)
    if env and not source.startswith(MCP_STDIO):
        raise CommandError(
            f"--env sets the environment of a server the command starts: it takes a "
            f"'mcp+stdio:COMMAND' SOURCE, not {source!r}"
        )
    if source.startswith(MCP_STDIO):
        try:
            command = shlex.split(source.removeprefix(MCP_STDIO))
        except ValueError as error:  # an unbalanced quote, a trailing backslash
            raise CommandError(
                f"SOURCE {source!r} is not a command line ({str(error).lower()}); balance its "
                "quotes, e.g. 'mcp+stdio:uvx mcp-server-time'"
            ) from error
        if not command:
            raise CommandError(
                f"SOURCE {source!r} names no command; write 'mcp+stdio:COMMAND ARGS...', "
                "e.g. 'mcp+stdio:uvx mcp-server-time'"
            )
        return _connect(source, command, stack, timeout, env=env or {}, errlog=errlog, pin=held)
    if source.startswith(("http://", "https://")):
        return _connect(source, source, stack, timeout, pin=held)
    tools = _adopt(source, load_object(source))
    if not tools:
        raise CommandError(f"SOURCE {source!r} holds no tools; give a tool or a non-empty list")
    if held is not None:
        for tool in tools:
            held.check(tool, source)
    return tools


def _pin(path: str) -> Pin:
    """The pin of ``--pin PATH``: a snapshot file (``standard-tool snapshot SOURCE -o PATH``)."""
    try:
        return Pin(path)
    except st.UsageError as error:
        raise CommandError(f"--pin {path!r}: {one_line(str(error))}") from None


def _connect(
    source: str,
    server: Any,
    stack: ExitStack,
    timeout: float | None,
    *,
    env: Mapping[str, str] | None = None,
    errlog: TextIO | None = None,
    pin: Pin | None = None,
) -> list[Any]:
    """The tools of an MCP server; ``env`` given, a stdio server's full environment is the
    SDK's default one with ``env`` added; ``pin`` given, they are held to it."""
    try:
        from standard_tool_mcp import connect
    except ImportError:
        raise CommandError(
            f"SOURCE {source!r} is an MCP server, which needs the MCP adapter; "
            "install it: pip install standard-tool-mcp"
        ) from None
    options: dict[str, Any] = {} if pin is None else {"pin": pin}
    if env is not None:
        from mcp.client.stdio import get_default_environment

        options.update(env={**get_default_environment(), **env}, errlog=errlog)
    try:
        tools: list[Any] = stack.enter_context(connect(server, timeout=timeout, **options))
    except st.UsageError as error:
        raise CommandError(f"SOURCE {source!r}: {one_line(str(error))}") from error
    except PinMismatchError:
        raise  # it answered, and is not what was pinned
    except Exception as error:
        hint = not_found_hint(server, timeout) if isinstance(server, str) else None
        raise CommandError(
            f"cannot reach the MCP server of SOURCE {source!r}: {_describe(error)}"
            + (
                f" ({hint})"
                if hint
                else "; check that the command runs (or the URL answers) on its own"
            )
        ) from error
    return tools


class ServerLog(io.TextIOBase):
    """A stdio server's stderr: held back, or (``shown``) written to ours a line at a time,
    each prefixed ``server: `` (so it reads apart from the command's own lines). A server
    that fails to start is named with its last lines on stderr either way."""

    def __init__(self, shown: bool = False) -> None:
        super().__init__()
        self.shown = shown
        self._partial = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.shown:
            *lines, self._partial = (self._partial + text).split("\n")
            if len(self._partial) > _PARTIAL_CHARS:  # a line without end: shown as it is
                lines.append(self._partial)
                self._partial = ""
            for line in lines:
                sys.stderr.write(f"server: {line}\n")
            sys.stderr.flush()
        return len(text)


_PARTIAL_CHARS = 64 * 1024


def _describe(error: BaseException) -> str:
    """The innermost meaningful error of ``error`` (task groups nest what failed)."""
    while getattr(error, "exceptions", None):  # an exception group: what failed inside
        error = error.exceptions[0]  # type: ignore[attr-defined]
    text = one_line(str(error))
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class _Named(NamedTuple):
    """What an object named ``package.module:attribute`` is for, in messages."""

    what: str
    """How the command line calls it: ``SOURCE``, ``--gate``."""
    forms: str
    example: str
    hint: Callable[[Any], str]
    """A hint naming the module's attributes that would do."""


def load_object(source: str) -> Any:
    """The object ``package.module:attribute`` or ``path/to/file.py:attribute`` names."""
    return _load_object(source, _SOURCE)


def load_gate(spec: str) -> Gate:
    """The :class:`~standard_tool.boundary.Gate` that ``package.module:attribute`` or
    ``path/to/file.py:attribute`` names; anything else is a usage error naming what it is."""
    found = _load_object(spec, _GATE)
    if not isinstance(found, Gate):
        raise CommandError(
            f"--gate {spec!r} is a {_type_name(found)}, not a standard_tool.boundary.Gate; "
            f"name a Gate object, e.g. {_GATE.example}"
        )
    return found


def source_module(source: str) -> ModuleType | None:
    """The module whose attribute SOURCE names (a file's or an importable one, loaded once
    per process); ``None`` for an MCP server."""
    if source.startswith((MCP_STDIO, "http://", "https://")):
        return None
    module: ModuleType = _module(source, _SOURCE)
    return module


def _module(source: str, named: _Named) -> Any:
    where, colon, attribute = source.rpartition(":")
    if not colon or not where or not attribute:
        raise CommandError(
            f"{named.what} {source!r} names no attribute; write {named.forms} "
            f"(e.g. {named.example})"
        )
    if is_file(where):
        return _load_file(source, Path(where), named.what)
    return _import(source, where, named.what)


def is_file(where: str) -> bool:
    """Whether ``where``, the part of a SOURCE before its attribute, names a file (else a
    module)."""
    return where.endswith(".py") or "/" in where or os.sep in where


def _load_object(source: str, named: _Named) -> Any:
    module = _module(source, named)
    where, _, attribute = source.rpartition(":")
    obj: Any = module
    walked: list[str] = []
    for part in attribute.split("."):
        if not hasattr(obj, part):
            owner = ".".join([where, *walked]) if walked else where
            raise CommandError(
                f"{owner!r} has no attribute {part!r} ({named.what} {source!r}); "
                f"{named.hint(module) if not walked else 'check the name'}"
            )
        obj = getattr(obj, part)
        walked.append(part)
    return obj


def _load_file(source: str, path: Path, what: str) -> Any:
    if not path.is_file():
        raise CommandError(
            f"no file {str(path)!r} ({what} {source!r}); give a path to a Python file, "
            f"relative to {os.getcwd()} or absolute"
        )
    path = path.resolve()
    name = f"standard_tool_source_{abs(hash(str(path)))}"
    if name in sys.modules:
        return sys.modules[name]
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # as `python path/to/file.py` does, for its own imports
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise CommandError(f"{str(path)!r} cannot be loaded as Python ({what} {source!r})")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:  # a file that exits does not load either
        del sys.modules[name]
        raise CommandError(
            f"loading {str(path)!r} raised {_describe(error)} ({what} {source!r}); "
            "fix the file (--debug shows the traceback)"
        ) from error
    return module


def _import(source: str, name: str, what: str) -> Any:
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` does: modules of the current folder
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and (name == error.name or name.startswith(error.name + ".")):
            raise CommandError(
                f"no module {name!r} ({what} {source!r}); install it, run from the folder "
                "that holds it, or give a file: path/to/file.py:attribute"
            ) from error
        raise CommandError(
            f"importing {name!r} raised {_describe(error)} ({what} {source!r}); "
            "install what it needs"
        ) from error
    except (Exception, SystemExit) as error:  # a module that exits does not load either
        raise CommandError(
            f"importing {name!r} raised {_describe(error)} ({what} {source!r}); "
            "fix the module (--debug shows the traceback)"
        ) from error


def _candidates(module: Any) -> str:
    """A hint naming the module's attributes that hold tools."""
    names = sorted(
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and (
            is_standard_tool(value)
            or (
                issubclass(type(value), (list, tuple))  # type() asks nothing of the value
                and value
                and all(map(is_standard_tool, value))
            )
        )
    )
    return f"its tools: {', '.join(names)}" if names else "it holds no standard tools"


def _gates(module: Any) -> str:
    """A hint naming the module's attributes that hold a gate."""
    names = sorted(
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and isinstance(value, Gate)
    )
    return f"its gates: {', '.join(names)}" if names else "it holds no Gate"


_SOURCE = _Named("SOURCE", FORMS, "examples/weather.py:TOOLS", _candidates)
_GATE = _Named("--gate", GATE_FORMS, "my_gate.py:GATE", _gates)


def _type_name(obj: Any) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def _adopt(source: str, obj: Any) -> list[Any]:
    try:
        return adopt_tools(obj)
    except st.UnsupportedObjectError as error:
        if issubclass(type(obj), (list, tuple)):  # the core names the element that is no tool
            raise CommandError(f"SOURCE {source!r}: {one_line(str(error))}") from error
        installed = ", ".join(target.name for target in st.targets())
        raise CommandError(
            f"SOURCE {source!r} is a {_type_name(obj)}, which no "
            f"installed adapter adopts (installed targets: {installed}); give a tool, a list "
            "of tools, or a framework's tool, toolkit or toolset"
        ) from error
    except st.StandardToolError as error:
        raise CommandError(
            f"cannot adopt the tools of SOURCE {source!r}: {one_line(str(error))}"
        ) from error


def find_tool(tools: Sequence[Any], name: str, source: str) -> Any:
    """The tool named ``name``; a usage error naming the ones there are otherwise."""
    found = [tool for tool in tools if tool.name == name]
    if len(found) == 1:
        return found[0]
    names = ", ".join(tool.name for tool in tools)
    if found:
        raise CommandError(f"{len(found)} tools are named {name!r} in SOURCE {source!r}")
    raise CommandError(f"no tool {name!r} in SOURCE {source!r}; its tools: {names}")
