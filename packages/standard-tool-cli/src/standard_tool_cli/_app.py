"""The ``standard-tool`` command: ``targets``, ``list``, ``show``, ``call``, ``serve``, ``check``,
``lint``, ``diff``, a gate's ``pending``, ``approve`` and ``reject``, and its approvals inbox
(``approvals serve``)."""

from __future__ import annotations

import inspect
import json
import os
import sys
import traceback
import warnings
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, NoReturn, TextIO, TypeVar, cast

import click

import standard_tool as st
from standard_tool.adapters import LARGE_NUMBER, Adapter
from standard_tool.checks import (
    CHECKS,
    DESCRIPTIONS,
    DIRECT,
    CheckResult,
    bounded,
    check_tool,
    installed_targets,
    one_line,
    running_threads,
)
from standard_tool.contracts import (
    LINT_RULES,
    diff_tools,
    dump_snapshot,
    lint_tools,
    load_snapshot,
    snapshot,
)
from standard_tool.dialects import dialects
from standard_tool.exceptions import StepTimeoutError
from standard_tool.registry import get_plugin_manager, runtime

from ._approvals import approvers_of, gate_of, serve_inbox
from ._decisions import decided, pending as still_pending, request_text, waiting
from ._errors import FAILED, USAGE, CommandError
from ._render import (
    arguments_summary,
    check_report,
    console,
    diff_report,
    lint_report,
    print_json,
    summary,
)
from ._sources import FORMS, GATE_FORMS, ServerLog, find_tool, load_gate, open_source

__all__ = ["cli", "main"]

F = TypeVar("F", bound=Callable[..., Any])


class _Document:
    """Where the command's JSON goes: stdout. Under ``--json`` (:meth:`divert`), stdout
    holds that one document only: everything else written to it, by Python or at the file
    descriptor (a tool's ``print()``, a SOURCE that prints while loading, a subprocess),
    goes to stderr."""

    def __init__(self) -> None:
        self.stream: TextIO | None = None
        """The saved stdout, once diverted."""

    def divert(self) -> None:
        sys.stdout.flush()
        try:
            out = sys.stdout.fileno()
            saved: TextIO = os.fdopen(os.dup(out), "w", encoding=sys.stdout.encoding or "utf-8")
            os.dup2(sys.stderr.fileno(), out)
        except (AttributeError, OSError, ValueError):  # no file descriptors (in-process)
            saved = sys.stdout
        self.stream = saved
        sys.stdout = sys.stderr

    def print(self, value: Any) -> None:
        print_json(value, file=self.stream)

    def flush(self) -> None:
        for stream in (self.stream, sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass


_DOCUMENT = _Document()
PROG = "standard-tool"
SOURCE_HELP = f"""SOURCE is {FORMS}: a standard tool, a list of tools, a framework's tool, toolkit or
toolset (anything an installed adapter adopts), or the tools of an MCP server."""
GATE_HELP = f"""--gate is {GATE_FORMS}, naming a standard_tool.boundary.Gate."""


def _debug(command: F) -> F:
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


def _show_traceback(error: BaseException) -> None:
    """Under ``--debug``, the traceback of ``error`` (a tool's failure) on stderr."""
    context = click.get_current_context(silent=True)
    if context is not None and context.meta.get("standard_tool.debug"):
        traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)


def _json(command: F) -> F:
    return click.option(
        "--json", "as_json", is_flag=True, help="Machine-readable output: JSON on stdout."
    )(command)


def _timeout(command: F) -> F:
    return click.option(
        "--timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=60.0,
        show_default=True,
        help="Seconds a tool call (and an MCP server's answer) may take.",
    )(command)


def _gate(required: bool = False) -> Callable[[F], F]:
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


def _server(command: F) -> F:
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


def _pin(command: F) -> F:
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


def _open_source(source: str, stack: ExitStack, timeout: float) -> list[Any]:
    """The tools of SOURCE, an mcp+stdio: server started with ``--env`` and ``--verbose``."""
    meta = click.get_current_context().meta
    errlog = cast("TextIO", ServerLog(shown=bool(meta.get("standard_tool.verbose"))))
    env = meta.get("standard_tool.env") or {}
    pin = meta.get("standard_tool.pin")
    return open_source(source, stack, timeout=timeout, env=env, errlog=errlog, pin=pin)


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
@_debug
def cli() -> None:
    """Inspect, convert, call, serve and check tools from any source.

    Every framework is reached through the adapters installed beside standard-tool
    (`standard-tool targets` lists them).
    """


@cli.command(
    epilog="""\b
Examples:
  standard-tool targets
  standard-tool targets --json"""
)
@_json
@_debug
def targets(as_json: bool) -> None:
    """The installed targets, with their frameworks' versions.

    A target with a runtime can run tools the way its framework does (`call --via`,
    `check`). `show --as` also takes the JSON Schema dialects listed after the targets.
    """
    rows = [
        {
            "target": info.name,
            "framework": info.distribution,
            "version": info.version,
            "runtime": has_runtime(info.name),
        }
        for info in st.targets()
    ]
    if as_json:
        _DOCUMENT.print({"targets": rows, "dialects": dialects()})
        return
    from rich.table import Table

    table = Table("target", "framework", "version", "runtime", title="Installed targets")
    for row in rows:
        table.add_row(
            str(row["target"]),
            str(row["framework"]),
            str(row["version"] or "-"),
            "yes" if row["runtime"] else "-",
        )
    out = console()
    out.print(table)
    out.print(f"JSON Schema dialects (show --as): {', '.join(dialects())}")


@cli.command(
    "list",
    epilog="""\b
Examples:
  standard-tool list examples/weather.py:TOOLS
  standard-tool list examples/weather.py:TOOLS --json
  standard-tool list 'mcp+stdio:uvx mcp-server-time'
  standard-tool list http://127.0.0.1:8000/mcp""",
)
@click.argument("source")
@_json
@_pin
@_server
@_timeout
@_debug
def list_(source: str, as_json: bool, timeout: float) -> None:
    """The tools SOURCE holds: name, title, description and arguments."""
    with ExitStack() as stack:
        tools = _open_source(source, stack, timeout)
        if as_json:
            _DOCUMENT.print([standard_declaration(tool) for tool in tools])
            return
        from rich.table import Table

        table = Table("name", "title", "description", "arguments (*: required)", show_lines=True)
        for tool in tools:
            table.add_row(
                tool.name,
                getattr(tool, "title", None) or "",
                summary(tool.description),
                arguments_summary(st.input_json_schema(tool)),
            )
        console().print(table)


@cli.command(
    "snapshot",
    epilog="""\b
Examples:
  standard-tool snapshot examples/weather.py:TOOLS -o tools.lock.json
  standard-tool snapshot 'mcp+stdio:uvx mcp-server-time' -o time.lock.json
  standard-tool list 'mcp+stdio:uvx mcp-server-time' --pin time.lock.json""",
)
@click.argument("source")
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    help="Write the snapshot to FILE (default: print it).",
)
@_server
@_timeout
@_debug
def snapshot_(source: str, output: str | None, timeout: float) -> None:
    """Every tool SOURCE holds, with its description, schemas and digests: sorted JSON, the
    same text for the same tools (commit it; `--pin` holds a source to it, `diff` compares)."""
    with ExitStack() as stack:
        taken = snapshot(_open_source(source, stack, timeout))
    text = dump_snapshot(taken)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot write {output!r}: {error.strerror or error}", FAILED) from None
    count = len(taken["tools"])
    click.echo(f"{output}: {count} tool{'s' if count != 1 else ''}", err=True)


def has_runtime(target: str) -> bool:
    """Whether ``target``'s adapter has a runtime; an ``Adapter`` says so without importing
    its framework, another plugin is asked through the registry."""
    manager = get_plugin_manager()
    owner = manager.target_owners().get(target)
    if owner is None:
        return False
    plugin = manager.get_plugin(owner[0])
    if isinstance(plugin, Adapter):
        return plugin.runtime is not None
    return runtime(target) is not None


def standard_declaration(tool: Any, dialect: str = "draft-2020-12") -> dict[str, Any]:
    """The tool as the standard describes it, with its schemas in ``dialect``."""
    return {
        "name": tool.name,
        "title": getattr(tool, "title", None),
        "description": tool.description,
        "input_schema": st.input_json_schema(tool, target=dialect),
        "output_schema": st.output_json_schema(tool, target=dialect),
        "meta": st.jsonable(dict(getattr(tool, "meta", None) or {})),
    }


def _declaration(tool: Any, target: str) -> Any:
    installed = [info.name for info in st.targets()]
    if target == "standard":
        return standard_declaration(tool)
    if target in installed:
        registered = runtime(target)
        if registered is not None:
            return registered.declaration(registered.native(tool))
        native = st.convert(tool, to=target)
        try:
            return st.jsonable(native)
        except st.StandardToolError:
            raise CommandError(
                f"target {target!r} makes a {type(native).__qualname__}, which has no JSON form "
                "and no runtime to describe it"
            ) from None
    if target in dialects():
        return standard_declaration(tool, target)
    raise CommandError(
        f"--as {target!r} is neither an installed target ({', '.join(installed)}) nor a JSON "
        f"Schema dialect ({', '.join(dialects())}); `standard-tool targets` lists both"
    )


@cli.command(
    epilog="""\b
Examples:
  standard-tool show examples/weather.py:TOOLS get_forecast
  standard-tool show examples/weather.py:TOOLS get_forecast --as draft-07
  standard-tool show examples/weather.py:TOOLS get_forecast --as langchain
  standard-tool show examples/weather.py:TOOLS get_forecast --as mcp"""
)
@click.argument("source")
@click.argument("tool")
@click.option(
    "--as",
    "target",
    default="standard",
    show_default=True,
    help="A target (its framework's definition or provider envelope) or a JSON Schema dialect.",
)
@_server
@_timeout
@_debug
def show(source: str, tool: str, target: str, timeout: float) -> None:
    """The declaration of TOOL as a target sees it, as JSON.

    `--as standard` (the default) is the standard declaration (name, title, description,
    input and output JSON Schema, meta); a JSON Schema dialect (`draft-07`, `openapi-3.0`)
    gives the same with the schemas in that dialect; an installed target gives what that
    framework sends a model (`langchain`: `convert_to_openai_tool`, `llama-index`: its
    `to_openai_tool`, `mcp`: the `tools/list` entry, `pydantic-ai`: the `ToolDefinition`,
    `openai-agents`: its Responses API function declaration, `smolagents`:
    `get_tool_json_schema`, `agent-framework`: `to_json_schema_spec`, `google-adk`: the
    `FunctionDeclaration`, `haystack`: the `tool_spec`, `agno`: the function as a run sends
    it, a provider, `openai`, `anthropic`, `gemini` or `hf`: its envelope). `standard-tool
    targets` lists the installed targets and dialects.
    """
    with ExitStack() as stack:
        found = find_tool(_open_source(source, stack, timeout), tool, source)
        try:
            declaration = _declaration(found, target)
        except st.StandardToolError as error:
            raise CommandError(
                f"cannot show {tool!r} as {target!r}: {one_line(str(error))}", FAILED
            ) from error
        _DOCUMENT.print(declaration)


def _json_value(text: str, option: str) -> Any:
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


@cli.command(
    epilog="""\b
Examples:
  standard-tool call examples/weather.py:TOOLS multiply --input '{"a": 6, "b": 7}'
  standard-tool call examples/weather.py:TOOLS multiply --input '{"a": 6, "b": 7}' --via langchain
  standard-tool call examples/weather.py:TOOLS wait_and_echo --input @args.json --json
  echo '{"timezone": "Europe/Paris"}' | \\
    standard-tool call 'mcp+stdio:uvx mcp-server-time' get_current_time --input -
  standard-tool call my_tools.py:TOOLS send --input '{"to": "ada"}' --gate my_gate.py:GATE \\
    --actor alice --request-id order-42"""
)
@click.argument("source")
@click.argument("tool")
@click.option(
    "--input",
    "input_text",
    default="{}",
    show_default=True,
    help="The arguments, as JSON (@path reads a file, - reads stdin).",
)
@click.option("--via", help="Run the call through this target's own runtime (e.g. langchain).")
@click.option("--context", "context_text", help="The per-call context, as JSON.")
@_gate()
@click.option("--actor", help='Who makes the call: the context\'s "actor".')
@click.option("--tenant", help='For whom the call is made: the context\'s "tenant".')
@click.option(
    "--request-id",
    help="The call's request id, the context's \"request_id\" (a gate runs a request id once).",
)
@_json
@_pin
@_server
@_timeout
@_debug
def call(
    source: str,
    tool: str,
    input_text: str,
    via: str | None,
    context_text: str | None,
    gate_spec: str | None,
    actor: str | None,
    tenant: str | None,
    request_id: str | None,
    as_json: bool,
    timeout: float,
) -> None:
    """Run TOOL once and print its result (JSON) or its error.

    Without `--via` (or with `--via standard`) the tool is called directly; with a target,
    the tool is converted to it and run as its framework runs a model's tool call
    (`langchain`: `invoke` with a `ToolCall`; `mcp`: served in memory and called by a
    client; `pydantic-ai`, `llama-index`, `openai-agents`, `smolagents`, `agent-framework`,
    `google-adk`, `haystack` and `agno`: an agent run with a scripted model; `openai`,
    `anthropic`, `gemini` and `hf`: a model's call in the provider's envelope, answered by
    `run_tool_calls`), and what the model would get back is printed.

    With `--gate`, the call goes through that gate (`gate.guard`): a refused call prints its
    refusal, one line of JSON, and fails. `--actor`, `--tenant` and `--request-id` set those
    keys of the context, where a gate reads who calls, for whom, and under which request id.
    """
    arguments = _json_value(input_text, "--input")
    context = None if context_text is None else _json_value(context_text, "--context")
    context = _with_identity(context, {"actor": actor, "tenant": tenant, "request_id": request_id})
    gate = None if gate_spec is None else load_gate(gate_spec)
    with ExitStack() as stack:
        found = find_tool(_open_source(source, stack, timeout), tool, source)
        if gate is not None:
            found = gate.guard(found)
        value, error = _run(found, arguments, context, via, timeout)
    if as_json:
        _DOCUMENT.print(
            {"tool": tool, "via": via, "ok": error is None, "value": value, "error": error}
        )
    elif error is None:
        print_json(value)
    if error is not None:
        if not as_json:
            click.echo(f"{PROG} call: {error}", err=True)
        sys.exit(FAILED)


def _with_identity(context: Any, identity: dict[str, str | None]) -> Any:
    """The context with the keys that ``--actor``, ``--tenant`` and ``--request-id`` set."""
    given = {key: value for key, value in identity.items() if value is not None}
    if not given:
        return context
    if context is None:
        return given
    options = ", ".join(f"--{key.replace('_', '-')}" for key in given)
    if not isinstance(context, dict):
        raise CommandError(
            f"{options} {'sets a key' if len(given) == 1 else 'set keys'} of the context, "
            "and --context is not a JSON object; "
            'give an object, e.g. --context \'{"user": "ada"}\''
        )
    for key, value in given.items():
        if key in context and context[key] != value:
            raise CommandError(
                f"--{key.replace('_', '-')} and --context's {key!r} differ; give it once"
            )
    return {**context, **given}


def _run(
    tool: Any, arguments: Any, context: Any, via: str | None, timeout: float
) -> tuple[Any, str | None]:
    if via is None or via == "standard":
        try:
            return st.jsonable(st.call(tool, arguments, context, timeout=timeout)), None
        except st.StandardToolError as error:
            _show_traceback(error)
            return None, one_line(str(error))
    try:
        registered = runtime(via)
    except st.UnknownTargetError as error:
        raise CommandError(f"--via: {one_line(str(error))}") from error
    if registered is None:
        with_runtime = [info.name for info in st.targets() if has_runtime(info.name)]
        raise CommandError(
            f"--via {via!r}: that target has no runtime to call through (an export-only "
            f"target); targets with one: {', '.join(with_runtime) or 'none'}"
        )
    try:
        outcome = bounded(
            timeout, lambda: registered.call(registered.native(tool), arguments, context)
        )
    except StepTimeoutError:
        return None, f"through {via}: tool {tool.name!r} gave no answer within {timeout:g} s"
    except st.UsageError as error:
        raise CommandError(f"--via {via!r}: {one_line(str(error))}") from error
    except st.StandardToolError as error:
        _show_traceback(error)
        return None, f"through {via}: {one_line(str(error))}"
    if outcome.error is not None:
        return None, f"through {via}: {one_line(outcome.error)}"
    return outcome.value, None


@cli.command(
    epilog="""\b
Examples:
  standard-tool serve examples/weather.py:TOOLS
  standard-tool serve examples/weather.py:TOOLS --transport streamable-http --port 8000
  standard-tool serve 'mcp+stdio:uvx mcp-server-time' --transport streamable-http --port 0
  standard-tool serve my_tools.py:TOOLS --gate my_gate.py:GATE

An MCP client configuration runs it over stdio, e.g.
  {"command": "uv", "args": ["run", "standard-tool", "serve", "my_tools.py:TOOLS"]}"""
)
@click.argument("source")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "streamable-http"]),
    default="stdio",
    show_default=True,
)
@click.option("--host", default="127.0.0.1", show_default=True, help="streamable-http only.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="streamable-http only; 0 takes a free port.",
)
@click.option("--name", default="standard-tool", show_default=True, help="The server's name.")
@_gate()
@_server
@_timeout
@_debug
def serve(
    source: str,
    transport: str,
    host: str,
    port: int,
    name: str,
    gate_spec: str | None,
    timeout: float,
) -> None:
    """Serve the tools of SOURCE over MCP until stopped (Ctrl-C).

    One line on stderr says what is served and where; over stdio, stdout is the MCP channel.
    With `--gate`, every call goes through that gate (`gate.guard`): a refused call answers
    the client with an error whose text is the refusal, one line of JSON.
    """
    try:
        from standard_tool_mcp import serve as serve_mcp
    except ImportError:
        raise CommandError(
            "serve needs the MCP adapter; install it: pip install standard-tool-mcp"
        ) from None
    gate = None if gate_spec is None else load_gate(gate_spec)
    with ExitStack() as stack:
        tools = _open_source(source, stack, timeout)
        if gate is not None:
            tools = gate.guard(tools)
        try:
            serve_mcp(tools, transport, host, port, name=name)  # type: ignore[arg-type]
        except KeyboardInterrupt:
            return
        except st.UsageError as error:
            raise CommandError(f"cannot serve SOURCE {source!r}: {one_line(str(error))}") from error


_DECISION = """The gate's store must be one that the process which made the call shares (a
file or a database, not a MemoryStore)."""


def _whose(command: F) -> F:
    """``--tenant`` and ``--actor``: the caller whose call it is, as its approval request names
    them (a gate keeps each caller's request ids apart)."""
    command = click.option(
        "--actor", help="Who made the call (its approval request's actor), if anyone."
    )(command)
    return click.option(
        "--tenant", help="For whom the call was made (its approval request's tenant), if anyone."
    )(command)


@cli.command(
    epilog="""\b
Examples:
  standard-tool pending order-42 --gate my_gate.py:GATE --tenant acme --actor alice"""
)
@click.argument("request_id")
@_gate(required=True)
@_whose
@_debug
def pending(request_id: str, gate_spec: str, tenant: str | None, actor: str | None) -> None:
    """The call waiting for approval under REQUEST_ID, of the caller --tenant and --actor name
    (as the call gave them), as JSON: its approval request whole (id, tool, tenant, actor, the
    arguments exactly as they will run but for values the tool marks secret, their JSON text
    as summary, and the digest an approval is bound to)."""
    gate = load_gate(gate_spec)
    approval = still_pending(waiting(gate, gate_spec, request_id, tenant, actor))
    click.echo(request_text(approval))


@cli.command(
    epilog="""\b
Examples:
  standard-tool approve order-42 --gate my_gate.py:GATE --tenant acme --actor alice --approver bob
  standard-tool approve order-42 --gate my_gate.py:GATE --actor alice --approver bob \\
    --expires-in 600"""
)
@click.argument("request_id")
@_gate(required=True)
@_whose
@click.option("--approver", required=True, help="Who approves (kept with the approval).")
@click.option(
    "--expires-in",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Seconds the approval holds (default: until the call is made).",
)
@_debug
def approve(
    request_id: str,
    gate_spec: str,
    tenant: str | None,
    actor: str | None,
    approver: str,
    expires_in: float | None,
) -> None:
    """Approve the call waiting under REQUEST_ID, of the caller --tenant and --actor name: made
    again by that caller with that request id and the same arguments, it runs once. Prints
    what was approved, whole. Unless the gate allows it (self_approval), the approver may not
    be the call's actor."""
    gate = load_gate(gate_spec)
    approval = waiting(gate, gate_spec, request_id, tenant, actor)
    try:
        gate.approve(
            request_id, tenant=tenant, actor=actor, approver=approver, expires_in=expires_in
        )
    except st.UsageError as error:  # decided already (it says what became of it), or refused
        raise CommandError(one_line(str(error))) from None
    decision: dict[str, Any] = {"approver": approver}
    if expires_in is not None:
        decision["expires_in"] = expires_in
    click.echo(decided("approved", approval, **decision))


@cli.command(
    epilog="""\b
Examples:
  standard-tool reject order-42 --gate my_gate.py:GATE --actor alice --approver bob \\
    --reason 'wrong account'"""
)
@click.argument("request_id")
@_gate(required=True)
@_whose
@click.option("--approver", required=True, help="Who rejects (kept with the decision).")
@click.option("--reason", default="", help="Why, kept with the decision (not shown to a model).")
@_debug
def reject(
    request_id: str,
    gate_spec: str,
    tenant: str | None,
    actor: str | None,
    approver: str,
    reason: str,
) -> None:
    """Reject the call waiting under REQUEST_ID, of the caller --tenant and --actor name: made
    again, it is refused (`denied`). Prints what was rejected, whole."""
    gate = load_gate(gate_spec)
    approval = waiting(gate, gate_spec, request_id, tenant, actor)
    try:
        gate.reject(request_id, tenant=tenant, actor=actor, approver=approver, reason=reason)
    except st.UsageError as error:  # decided already: it says what became of it
        raise CommandError(one_line(str(error))) from None
    click.echo(decided("rejected", approval, approver=approver, reason=reason))


@cli.group()
def approvals() -> None:
    """A gate's approvals inbox: a web page where people approve or reject its held calls."""


@approvals.command(
    "serve",
    epilog="""\b
Examples:
  standard-tool approvals serve my_gate.py --gate GATE --approver bob:$BOB_TOKEN
  standard-tool approvals serve --gate my_gate.py:GATE --approver bob:$BOB_TOKEN \\
    --approver carol:$CAROL_TOKEN --tenant acme --port 8080""",
)
@click.argument("source", required=False)
@click.option(
    "--gate",
    "gate_spec",
    required=True,
    metavar="NAME",
    help="The standard_tool.boundary.Gate: its attribute name in SOURCE (package.module or "
    "path/to/file.py), or, without SOURCE, package.module:attribute or "
    "path/to/file.py:attribute.",
)
@click.option(
    "--approver",
    "approver_specs",
    multiple=True,
    required=True,
    metavar="NAME:TOKEN",
    help="A person who may decide, and the token they sign in with (at least 16 characters; "
    "repeatable).",
)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8001,
    show_default=True,
    help="0 takes a free port.",
)
@click.option("--tenant", help="Show and decide only the calls of this tenant.")
@_debug
def serve_approvals(
    source: str | None,
    gate_spec: str,
    approver_specs: tuple[str, ...],
    host: str,
    port: int,
    tenant: str | None,
) -> None:
    """Serve the approvals inbox of a gate over HTTP until stopped (Ctrl-C).

    The page lists the calls the gate holds, newest first, with their arguments whole, and the
    recent decisions. A person signs in with their --approver token, then approves a call or
    rejects it with a reason, recorded in the gate's store with their name as the approver;
    the call, made again by its caller, then runs once, or is refused. The gate's store must
    be one the calling processes share (a SqliteStore or a RedisStore, not a MemoryStore).
    One line on stderr says where the inbox is. Needs uvicorn and Starlette:
    pip install 'standard-tool-cli[approvals]'.
    """
    spec, gate = gate_of(source, gate_spec)
    serve_inbox(gate, spec, approvers_of(approver_specs), host, port, tenant)


@cli.command(
    epilog="""\b
Examples:
  standard-tool check examples/weather.py:TOOLS
  standard-tool check examples/weather.py:TOOLS --target langchain --target mcp
  standard-tool check 'mcp+stdio:uvx mcp-server-time' \\
    --input get_current_time='{"timezone": "Europe/Paris"}' \\
    --input convert_time=@convert_time.json
  standard-tool check 'mcp+stdio:uvx mcp-server-time' --json"""
)
@click.argument("source")
@click.option(
    "--target",
    "-t",
    "only",
    multiple=True,
    help="Check only this target (repeatable; default: every installed one).",
)
@click.option(
    "--input",
    "given",
    multiple=True,
    metavar="TOOL=JSON",
    help="An input to call TOOL with, as JSON (@path reads a file, - reads stdin); repeatable, "
    "tried in order: a tool given inputs is called with those only.",
)
@click.option(
    "--samples",
    type=click.IntRange(1, 50),
    default=5,
    show_default=True,
    help="Inputs made from a tool's schema tried, at most, until one runs.",
)
@_json
@_server
@_timeout
@_debug
def check(
    source: str,
    only: Sequence[str],
    given: Sequence[str],
    samples: int,
    as_json: bool,
    timeout: float,
) -> None:
    """Run every tool of SOURCE through every installed target; print what passed.

    For each tool, the direct call (the `standard` target) is tried with the inputs `--input`
    gives for it, in order, and only those; without any, with inputs made from its input
    schema: first the values the schema gives (`examples`, `default`, `const`, `enum`,
    property by property), then hypothesis-jsonschema's draws, the same on every run. The
    first input that runs is the one compared, and an input the schema refuses is derived
    from it. Then, through each target's own runtime:

    {checks}

    When no input runs directly, `call` fails directly and through every target with one
    reason, which says what was tried: give an input that runs with `--input TOOL=JSON`. A
    result that breaks the tool's output schema fails `call` the same way. A result is
    compared as the model reads it: a text result as its text, after what the framework does
    to every result (the legend names such targets). A target that cannot run a tool skips
    the checks it cannot run, saying why.

    A cell of the table counts the checks of a tool through a target by outcome (`pass 5`,
    `pass 3, skip 2`, `FAIL 1, pass 4`); a check that does not apply to a target is skipped,
    not failed, and each failure and skip is listed with its reason, a reason shared by
    several targets once. While it works, a line per tool and target goes to stderr (a
    progress bar on a terminal). Exits 1 when any check fails.
    """
    installed = installed_targets()
    unknown = [name for name in only if name not in installed]
    if unknown:
        raise CommandError(
            f"--target {unknown[0]!r} is not installed; installed targets: {', '.join(installed)}"
        )
    names = [name for name in installed if not only or name in only]
    inputs = _given_inputs(given)
    with ExitStack() as stack:
        tools = _open_source(source, stack, timeout)
        _known_tools(inputs, tools)
        results = _checked(tools, names, samples, timeout, inputs)
    failures = [r for r in results if r.status == "fail"]
    if as_json:
        _DOCUMENT.print(
            {
                "source": source,
                "targets": names,
                "checks": list(CHECKS),
                "passed": not failures,
                "results": [vars(r) for r in results],
            }
        )
    else:
        check_report([tool.name for tool in tools], names, results)
    if failures:
        sys.exit(FAILED)


def _given_inputs(given: Sequence[str]) -> dict[str, list[Any]]:
    """The inputs ``--input TOOL=JSON`` gives, by tool, in order."""
    inputs: dict[str, list[Any]] = {}
    for spec in given:
        name, equals, text = spec.partition("=")
        if not equals or not name.strip():
            raise CommandError(
                f"--input {spec!r} names no tool; write --input TOOL=JSON, e.g. "
                '--input multiply=\'{"a": 6, "b": 7}\''
            )
        inputs.setdefault(name, []).append(_input_value(name, text))
    return inputs


def _input_value(name: str, text: str) -> Any:
    """The JSON of ``--input NAME=TEXT``: inline, ``@path`` or ``-`` (stdin)."""
    return _json_value(text, f"--input {name}=")


def _known_tools(inputs: dict[str, list[Any]], tools: Sequence[Any]) -> None:
    """Refuse ``--input`` for a tool SOURCE does not hold."""
    names = [tool.name for tool in tools]
    unknown = [name for name in inputs if name not in names]
    if unknown:
        raise CommandError(
            f"--input {unknown[0]}=...: no tool {unknown[0]!r} in SOURCE; its tools: "
            f"{', '.join(names)}"
        )


def _checked(
    tools: Sequence[Any],
    names: Sequence[str],
    samples: int,
    timeout: float,
    inputs: dict[str, list[Any]],
) -> list[CheckResult]:
    """Every check of ``tools`` through ``names``, telling stderr how far it is: a progress
    bar on a terminal, else a first line, then a line as each tool is checked through each
    target."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    results: list[CheckResult] = []
    err = console(stderr=True)
    total = len(tools) * len(names)
    if not err.is_terminal:
        print(
            f"checking {_count(len(tools), 'tool')} through {_count(len(names), 'target')}",
            file=sys.stderr,
            flush=True,
        )
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("checking", total=total)
        for tool in tools:
            progress.update(task, description=f"{tool.name}: calling it directly")

            def done(target: str, name: str = tool.name) -> None:
                progress.update(task, advance=1, description=f"{name}: {target} checked")
                if not err.is_terminal:
                    where = "directly" if target == DIRECT else f"through {target}"
                    count = int(progress.tasks[0].completed)
                    print(f"checked {name} {where} ({count}/{total})", file=sys.stderr, flush=True)

            results += check_tool(
                tool,
                names,
                timeout=timeout,
                samples=samples,
                inputs=inputs.get(tool.name),
                progress=done,
            )
    return results


def _count(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@cli.command(
    epilog="""\b
Examples:
  standard-tool lint examples/weather.py:TOOLS
  standard-tool lint examples/weather.py:TOOLS --json
  standard-tool lint 'mcp+stdio:uvx mcp-server-time'"""
)
@click.argument("source")
@_json
@_server
@_timeout
@_debug
def lint(source: str, as_json: bool, timeout: float) -> None:
    """Where the tools of SOURCE leave what every provider and framework reads alike.

    For each tool: its name against each target's name rule, its description (missing, too
    long for LlamaIndex), parameters without a description, `required` naming an undeclared
    property, credentials and internal hosts in anything a model is shown, and what each
    provider's dialect (openai, openai-strict, anthropic, gemini, gemini-json-schema, hf)
    does to its input schema: a keyword rewritten, written into the description, dropped, or
    refused. Each finding has a rule id, a level (error, warning, info), a JSON Pointer into
    the tool's snapshot entry and, when it concerns one, the target. Exits 1 when any finding
    is an error.
    """
    with ExitStack() as stack:
        tools = _open_source(source, stack, timeout)
        findings = lint_tools(tools)
    counts = {level: sum(f.level == level for f in findings) for level in LEVELS}
    if as_json:
        _DOCUMENT.print(
            {
                "source": source,
                "passed": not counts["error"],
                "counts": counts,
                "rules": {
                    rule: {"level": level, "summary": text}
                    for rule, (level, text) in LINT_RULES.items()
                },
                "findings": [finding.to_dict() for finding in findings],
            }
        )
    else:
        lint_report(len(tools), findings)
    if counts["error"]:
        sys.exit(FAILED)


LEVELS = ("error", "warning", "info")
"""The levels of a lint finding, the gravest first."""


@cli.command(
    epilog="""\b
Examples:
  standard-tool diff tools.lock.json examples/weather.py:TOOLS
  standard-tool diff tools.lock.json 'mcp+stdio:uvx mcp-server-time' --fail-on breaking
  standard-tool diff old.lock.json new.lock.json --json"""
)
@click.argument("old")
@click.argument("new")
@click.option(
    "--fail-on",
    type=click.Choice(["breaking", "compatible"]),
    help="Exit 1 when a breaking change is found (breaking), or any change but a description, "
    "a title, an annotation or meta (compatible).",
)
@_json
@_server
@_timeout
@_debug
def diff(old: str, new: str, fail_on: str | None, as_json: bool, timeout: float) -> None:
    """What changed from the tools of OLD to those of NEW, and whether it breaks callers.

    Each of OLD and NEW is a SOURCE or a snapshot file (a `.json` file whose `format` is
    `standard-tool-snapshot/1`, as `standard_tool.contracts.dump_snapshot` writes it). Lists
    the tools added, removed and renamed, and each change of a schema, a description or the
    meta as a finding: its rule (see CONTRACTS.md, `## Diff rules`), the JSON pointer where it
    is, and its level: breaking (an input refused now that was valid before, an output
    possible now that was not), compatible, or info.
    """
    with ExitStack() as stack:
        found = diff_tools(_side(old, stack, timeout), _side(new, stack, timeout))
    levels = {finding.level for finding in found.findings}
    failed = bool(
        fail_on and ("breaking" in levels or (fail_on == "compatible" and levels - {"info"}))
    )
    if as_json:
        _DOCUMENT.print(
            {"old": old, "new": new, "fail_on": fail_on, "failed": failed, **found.to_dict()}
        )
    else:
        diff_report(found)
    if failed:
        sys.exit(FAILED)


def _side(source: str, stack: ExitStack, timeout: float) -> dict[str, Any]:
    """A snapshot of OLD or NEW: a snapshot file read back, or one taken of SOURCE's tools."""
    if source.endswith(".json") and Path(source).is_file():
        return load_snapshot(source)
    return snapshot(_open_source(source, stack, timeout))


check.help = inspect.cleandoc(check.help or "").replace(
    "{checks}",
    "\n".join(f"`{name}`: {DESCRIPTIONS[name]}." for name in CHECKS).replace("\n", "\n\n"),
)
for _command in (list_, snapshot_, show, call, serve, check, lint, diff):
    _command.help = f"{inspect.cleandoc(_command.help or '')}\n\n{SOURCE_HELP}"
for _command in (call, serve):
    _command.help = f"{_command.help}\n\n{GATE_HELP}"
for _command in (pending, approve, reject):
    _command.help = f"{inspect.cleandoc(_command.help or '')}\n\n{GATE_HELP} {_DECISION}"


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
        _DOCUMENT.divert()
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
    _DOCUMENT.flush()
    if running_threads():
        os._exit(status)
    sys.exit(status)


def _fail(message: str, status: int, debug: bool) -> int:
    if debug:
        traceback.print_exc()
    print(message, file=sys.stderr, flush=True)
    if _DOCUMENT.stream is not None:  # under --json, the error is the document
        _DOCUMENT.print({"error": message, "exit_status": status})
    return status
