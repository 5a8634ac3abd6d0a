"""``targets``, ``list`` and ``show``: what is installed, what a SOURCE holds, and how a
target sees one of its tools."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import click

import standard_tool as st
from standard_tool.adapters import Adapter
from standard_tool.checks import one_line
from standard_tool.dialects import dialects
from standard_tool.registry import get_plugin_manager, runtime

from ._document import DOCUMENT
from ._errors import FAILED, CommandError, did_you_mean
from ._options import (
    SOURCE_HELP,
    debug_option,
    described,
    json_option,
    open_tools,
    pin_option,
    server_options,
    timeout_option,
)
from ._render import arguments_summary, console, summary
from ._sources import find_tool

__all__ = ["has_runtime", "list_", "show", "standard_declaration", "targets"]


@click.command(
    epilog="""\b
Examples:
  standard-tool targets
  standard-tool targets --json"""
)
@json_option
@debug_option
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
        DOCUMENT.print({"targets": rows, "dialects": dialects()})
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


@click.command(
    "list",
    epilog="""\b
Examples:
  standard-tool list examples/weather.py:TOOLS
  standard-tool list examples/weather.py:TOOLS --json
  standard-tool list 'mcp+stdio:uvx mcp-server-time'
  standard-tool list http://127.0.0.1:8000/mcp""",
)
@click.argument("source")
@json_option
@pin_option
@server_options
@timeout_option
@debug_option
def list_(source: str, as_json: bool, timeout: float) -> None:
    """The tools SOURCE holds: name, title, description and arguments."""
    with ExitStack() as stack:
        tools = open_tools(source, stack, timeout)
        if as_json:
            DOCUMENT.print([standard_declaration(tool) for tool in tools])
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
        + did_you_mean(target, [*installed, *dialects()])
    )


@click.command(
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
@server_options
@timeout_option
@debug_option
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
        found = find_tool(open_tools(source, stack, timeout), tool, source)
        try:
            declaration = _declaration(found, target)
        except st.StandardToolError as error:
            raise CommandError(
                f"cannot show {tool!r} as {target!r}: {one_line(str(error))}", FAILED
            ) from error
        DOCUMENT.print(declaration)


for _command in (list_, show):
    described(_command, SOURCE_HELP)
