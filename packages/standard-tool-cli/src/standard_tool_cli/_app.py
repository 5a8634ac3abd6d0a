"""The ``standard-tool`` command: ``targets``, ``list``, ``show``, ``call``, ``serve``, ``check``,
``snapshot``, ``lint``, ``diff``, a gate's ``pending``, ``approve`` and ``reject``, and its
approvals inbox (``approvals serve``).

This module holds the group (:data:`cli`) and :func:`main`, which runs it and turns every
error into one line on stderr and an exit status; each family of commands lives in a module
of its own (``_inspect``, ``_call``, ``_serve``, ``_check``, ``_contracts``, ``_decisions``,
``_approvals``), attached to the group here."""

from __future__ import annotations

import os
import sys
import traceback
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

import click

import standard_tool as st
from standard_tool.checks import one_line, running_threads

from ._approvals import approvals
from ._call import call
from ._check import check
from ._contracts import diff, lint, snapshot_
from ._decisions import approve, pending, reject
from ._document import DOCUMENT
from ._errors import FAILED, USAGE, CommandError
from ._inspect import list_, show, targets
from ._options import PROG, debug_option
from ._serve import serve

__all__ = ["cli", "main"]


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="""\b
Examples:
  standard-tool targets
  standard-tool list examples/weather.py:TOOLS
  standard-tool show examples/weather.py:TOOLS multiply --as openapi-3.0
  standard-tool call examples/weather.py:TOOLS multiply --input '{"a": 6, "b": 7}'
  standard-tool check examples/weather.py:TOOLS
  standard-tool lint examples/weather.py:TOOLS
  standard-tool diff tools.lock.json examples/weather.py:TOOLS --fail-on breaking
  standard-tool serve examples/weather.py:TOOLS --transport streamable-http --port 8000
  standard-tool list 'mcp+stdio:uvx mcp-server-time'
  standard-tool approve order-42 --gate my_gate.py:GATE --approver bob
  standard-tool approvals serve my_gate.py --gate GATE --approver bob:TOKEN

Exit status: 0 on success, 1 when a tool or a check fails, 2 on a usage error.""",
)
@click.version_option(package_name="standard-tool-cli", prog_name=PROG)
@debug_option
def cli() -> None:
    """Inspect, convert, call, serve and check tools from any source.

    Every framework is reached through the adapters installed beside standard-tool
    (`standard-tool targets` lists them).
    """


for _command in (
    targets,
    list_,
    snapshot_,
    show,
    call,
    serve,
    pending,
    approve,
    reject,
    approvals,
    check,
    lint,
    diff,
):
    cli.add_command(_command)


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    """Warnings (a plugin skipped, a malformed MCP tool) as one line on stderr."""
    print(f"{PROG}: warning: {one_line(str(message))}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``) and exit with its status."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    if "--json" in args:
        DOCUMENT.divert()
    command = next((arg for arg in args if not arg.startswith("-")), None)
    where = f"{PROG} {command}" if command in cli.commands else PROG
    if not debug:
        warnings.showwarning = _show_warning
    try:
        status = cli.main(args=args, prog_name=PROG, standalone_mode=False)
    except click.exceptions.Exit as exit_:
        status = exit_.exit_code
    except click.exceptions.NoArgsIsHelpError as error:  # the bare command: click's own help
        error.show()
        status = error.exit_code
    except SystemExit as exit_:  # a command's own exit status
        status = FAILED if isinstance(exit_.code, str) else exit_.code or 0
    except click.UsageError as error:
        path = error.ctx.command_path if error.ctx else where
        message = f"{path}: {one_line(error.format_message())} (see '{path} --help')"
        status = _fail(message, error.exit_code, debug)
    except click.ClickException as error:
        status = _fail(f"{where}: {one_line(error.format_message())}", error.exit_code, debug)
    except click.Abort:
        status = _fail(f"{where}: aborted", 130, False)
    except CommandError as error:
        status = _fail(f"{where}: {error.message}", error.status, debug)
    except st.UsageError as error:
        status = _fail(f"{where}: {one_line(str(error))}", USAGE, debug)
    except st.StandardToolError as error:
        status = _fail(f"{where}: {one_line(str(error))}", FAILED, debug)
    except KeyboardInterrupt:
        status = _fail(f"{where}: interrupted", 130, False)
    except Exception as error:
        status = _fail(
            f"{where}: unexpected {type(error).__name__}: {one_line(str(error))} "
            "(--debug shows the traceback)",
            FAILED,
            debug,
        )
    _exit(status if isinstance(status, int) else 0)


def _exit(status: int) -> NoReturn:
    """Exit with ``status``. A step still running past its time limit (a tool that never
    answers) may hold a thread that Python would join at exit: the output is flushed and
    the process ends without waiting for it."""
    DOCUMENT.flush()
    if running_threads():
        os._exit(status)
    sys.exit(status)


def _fail(message: str, status: int, debug: bool) -> int:
    if debug:
        traceback.print_exc()
    print(message, file=sys.stderr, flush=True)
    if DOCUMENT.stream is not None:  # under --json, the error is the document
        DOCUMENT.print({"error": message, "exit_status": status})
    return status
