"""What the commands share: their options (``--json``, ``--timeout``, ``--gate``, ``--env``,
``--verbose``, ``--pin``, ``--debug``), SOURCE opened as those options say, JSON read from an
option, and the words of their help."""

from __future__ import annotations

import inspect
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO, TypeVar, cast

import click

from standard_tool.adapters import LARGE_NUMBER

from ._errors import CommandError
from ._sources import FORMS, GATE_FORMS, ServerLog, open_source

__all__ = [
    "GATE_HELP",
    "PROG",
    "SOURCE_HELP",
    "debug_option",
    "described",
    "gate_option",
    "json_option",
    "json_value",
    "open_tools",
    "pin_option",
    "server_options",
    "show_traceback",
    "timeout_option",
    "warn",
]

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=click.Command)

PROG = "standard-tool"
SOURCE_HELP = f"""SOURCE is {FORMS}: a standard tool, a list of tools, a framework's tool, toolkit or
toolset (anything an installed adapter adopts), or the tools of an MCP server."""
GATE_HELP = f"""--gate is {GATE_FORMS}, naming a standard_tool.boundary.Gate."""


def described(command: C, *paragraphs: str) -> C:
    """``command`` with ``paragraphs`` after its own help (SOURCE_HELP, GATE_HELP...)."""
    command.help = "\n\n".join([inspect.cleandoc(command.help or ""), *paragraphs])
    return command


def debug_option(command: F) -> F:
    return click.option(
        "--debug",
        is_flag=True,
        expose_value=False,
        callback=_debugging,
        help="Show the traceback of an error.",
    )(command)


def _debugging(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta["standard_tool.debug"] = True


def show_traceback(error: BaseException) -> None:
    """Under ``--debug``, the traceback of ``error`` (a tool's failure) on stderr."""
    context = click.get_current_context(silent=True)
    if context is not None and context.meta.get("standard_tool.debug"):
        traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)


def warn(text: str) -> None:
    """One line on stderr: ``standard-tool COMMAND: warning: text``."""
    context = click.get_current_context(silent=True)
    where = context.command_path if context is not None else PROG
    click.echo(f"{where}: warning: {text}", err=True)


def json_option(command: F) -> F:
    return click.option(
        "--json", "as_json", is_flag=True, help="Machine-readable output: JSON on stdout."
    )(command)


def timeout_option(command: F) -> F:
    return click.option(
        "--timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=60.0,
        show_default=True,
        help="Seconds a tool call (and an MCP server's answer) may take.",
    )(command)


def gate_option(required: bool = False) -> Callable[[F], F]:
    def option(command: F) -> F:
        return click.option(
            "--gate",
            "gate_spec",
            metavar="MODULE:ATTR",
            required=required,
            help="A standard_tool.boundary.Gate (package.module:attribute or "
            "path/to/file.py:attribute)"
            + (
                ": the one whose store keeps the call." if required else " every call goes through."
            ),
        )(command)

    return option


def server_options(command: F) -> F:
    command = click.option(
        "--verbose",
        is_flag=True,
        expose_value=False,
        callback=_keep("verbose"),
        help="Show what an mcp+stdio: server writes on stderr, each line prefixed 'server: '.",
    )(command)
    return click.option(
        "--env",
        "env",
        multiple=True,
        metavar="KEY[=VALUE]",
        expose_value=False,
        callback=_environment,
        help="Set a variable of an mcp+stdio: server's environment (repeatable); KEY alone "
        "passes this command's own value.",
    )(command)


def pin_option(command: F) -> F:
    return click.option(
        "--pin",
        metavar="FILE",
        expose_value=False,
        callback=_keep("pin"),
        help="A snapshot (standard-tool snapshot SOURCE -o FILE) the tools are held to: a tool "
        "whose description or schemas differ from it, or that it does not name, is refused.",
    )(command)


def _keep(name: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def keep(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        ctx.meta[f"standard_tool.{name}"] = value

    return keep


def _environment(ctx: click.Context, param: click.Parameter, values: Sequence[str]) -> None:
    """``--env KEY=VALUE`` and ``--env KEY`` (this command's own value), as a mapping."""
    env: dict[str, str] = {}
    for given in values:
        key, equals, value = given.partition("=")
        if not key:
            raise click.BadParameter(f"{given!r} names no variable; write KEY=VALUE or KEY")
        if not equals:
            if key not in os.environ:
                raise click.BadParameter(
                    f"{key!r} is not set in this command's environment; write {key}=VALUE"
                )
            value = os.environ[key]
        env[key] = value
    ctx.meta["standard_tool.env"] = env


def open_tools(source: str, stack: ExitStack, timeout: float) -> list[Any]:
    """The tools of SOURCE, an mcp+stdio: server started with ``--env`` and ``--verbose``,
    held to ``--pin``."""
    meta = click.get_current_context().meta
    errlog = cast("TextIO", ServerLog(shown=bool(meta.get("standard_tool.verbose"))))
    env = meta.get("standard_tool.env") or {}
    pin = meta.get("standard_tool.pin")
    return open_source(source, stack, timeout=timeout, env=env, errlog=errlog, pin=pin)


def json_value(text: str, option: str) -> Any:
    """The JSON value of an option: inline JSON, ``@path`` to a file, or ``-`` for stdin."""
    if text == "-":
        text = sys.stdin.read()
    elif text.startswith("@"):
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(
                f"{option} {text!r}: cannot read the file ({error.strerror}); give a path that "
                "exists after @"
            ) from None
    example = f"{option}{'' if option.endswith('=') else ' '}'{{\"a\": 1}}'"
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(
            f"{option} is not valid JSON ({error.msg} at line {error.lineno} column "
            f"{error.colno}); quote it for the shell, e.g. {example}"
        ) from None
    except RecursionError:
        raise CommandError(f"{option} nests too deep to read") from None
    except ValueError:  # valid JSON with a number longer than Python reads
        raise CommandError(f"{option} holds {LARGE_NUMBER}") from None
