"""``call``: one call of a tool, directly or through a target's runtime, behind a gate or not."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from contextlib import ExitStack
from typing import Any

import click

import standard_tool as st
from standard_tool.checks import bounded, one_line
from standard_tool.exceptions import StepTimeoutError
from standard_tool.registry import runtime

from ._document import DOCUMENT
from ._errors import FAILED, CommandError, did_you_mean
from ._gates import warn_unused_gates
from ._inspect import has_runtime
from ._options import (
    GATE_HELP,
    PROG,
    SOURCE_HELP,
    debug_option,
    described,
    gate_option,
    json_option,
    json_value,
    open_tools,
    pin_option,
    server_options,
    show_traceback,
    timeout_option,
)
from ._render import print_json
from ._sources import find_tool, load_gate

__all__ = ["call"]


@click.command(
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
    help="The arguments, as JSON (@path reads a file, - reads stdin); left out, {} for a tool "
    "whose input schema requires no property (said on stderr), else a usage error.",
)
@click.option("--via", help="Run the call through this target's own runtime (e.g. langchain).")
@click.option("--context", "context_text", help="The per-call context, as JSON.")
@gate_option()
@click.option("--actor", help='Who makes the call: the context\'s "actor".')
@click.option("--tenant", help='For whom the call is made: the context\'s "tenant".')
@click.option(
    "--request-id",
    help="The call's request id, the context's \"request_id\" (a gate runs a request id once).",
)
@json_option
@pin_option
@server_options
@timeout_option
@debug_option
def call(
    source: str,
    tool: str,
    input_text: str | None,
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

    Without `--input`, a tool whose input schema requires no property is called with `{}`,
    and stderr says so; for one that requires some, it is a usage error naming them.

    With `--gate`, the call goes through that gate (`gate.guard`): a refused call prints its
    refusal, one line of JSON, and fails. `--actor`, `--tenant` and `--request-id` set those
    keys of the context, where a gate reads who calls, for whom, and under which request id.
    Without `--gate`, a warning on stderr names a gate that SOURCE's module defines and that
    guards none of its tools.
    """
    arguments = None if input_text is None else json_value(input_text, "--input")
    context = None if context_text is None else json_value(context_text, "--context")
    context = _with_identity(context, {"actor": actor, "tenant": tenant, "request_id": request_id})
    gate = None if gate_spec is None else load_gate(gate_spec)
    with ExitStack() as stack:
        tools = open_tools(source, stack, timeout)
        found = find_tool(tools, tool, source)
        if input_text is None:
            arguments = _no_input(found)
        if gate is None:
            warn_unused_gates(source, tools)
        else:
            found = gate.guard(found)
        value, error = _run(found, arguments, context, via, timeout)
    if as_json:
        DOCUMENT.print(
            {"tool": tool, "via": via, "ok": error is None, "value": value, "error": error}
        )
    elif error is None:
        print_json(value)
    if error is not None:
        if not as_json:
            click.echo(f"{PROG} call: {error}", err=True)
        sys.exit(FAILED)


def _no_input(tool: Any) -> dict[str, Any]:
    """The input of a call without ``--input``: ``{}`` when the tool's input schema requires
    no property (said on stderr), else a usage error naming those it requires."""
    schema = st.input_json_schema(tool)
    required = schema.get("required") if isinstance(schema, Mapping) else None
    names = [name for name in required if isinstance(name, str)] if required else []
    if names:
        example = ", ".join(f'"{name}": ...' for name in names)
        raise CommandError(
            f"no --input given, and tool {tool.name!r} requires {', '.join(names)}; give "
            f"{'it' if len(names) == 1 else 'them'}, e.g. --input '{{{example}}}'"
        )
    click.echo(f"{PROG} call: no --input given: calling {tool.name!r} with {{}}", err=True)
    return {}


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
            show_traceback(error)
            return None, one_line(str(error))
    installed = [info.name for info in st.targets()]
    if via not in installed:
        raise CommandError(
            f"--via {via!r} is not an installed target; installed targets: "
            f"{', '.join(installed)}{did_you_mean(via, installed)}"
        )
    registered = runtime(via)
    if registered is None:
        with_runtime = [name for name in installed if has_runtime(name)]
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
        show_traceback(error)
        return None, f"through {via}: {one_line(str(error))}"
    if outcome.error is not None:
        return None, f"through {via}: {one_line(outcome.error)}"
    return outcome.value, None


described(call, SOURCE_HELP, GATE_HELP)
