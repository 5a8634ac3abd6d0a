"""The toy framework: a tool is a name, a description, JSON parameters and a text runner."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import standard_tool as st
from standard_tool.exceptions import UnsupportedObjectError


@dataclass
class ToyTool:
    """The toy framework's own tool object."""

    name: str
    description: str
    parameters: dict[str, Any]
    run: Callable[[dict[str, Any], Any], Any]
    extras: dict[str, Any] = field(default_factory=dict)


def run_tool_call(tool: ToyTool, arguments_json: str, context: Any = None) -> tuple[bool, str]:
    """The toy runtime: a model's call in, ``(ok, text for the model)`` out."""
    try:
        result = tool.run(json.loads(arguments_json), context)
    except Exception as exc:  # the toy framework reports every failure as text
        return False, str(exc)
    return True, json.dumps(st.jsonable(result))


def to_toy(tool: st.StandardTool) -> ToyTool:
    """A toy tool that runs ``tool``."""
    extras = {
        "title": getattr(tool, "title", None),
        "output_schema": st.output_json_schema(tool),
        "meta": dict(getattr(tool, "meta", None) or {}),
    }
    return ToyTool(
        name=tool.name,
        description=tool.description,
        parameters=st.input_json_schema(tool),
        run=lambda arguments, context: st.call(tool, arguments, context),
        extras={"standard_tool": extras},
    )


def from_toy(obj: Any) -> st.StandardTool:
    """A standard tool that runs a toy tool."""
    if not isinstance(obj, ToyTool):
        raise UnsupportedObjectError(f"not a ToyTool: {type(obj).__name__}")
    extras = obj.extras.get("standard_tool", {})
    return st.Tool(
        name=obj.name,
        title=extras.get("title"),
        description=obj.description,
        input_schema=obj.parameters,
        output_schema=extras.get("output_schema"),
        meta=extras.get("meta"),
        execute=lambda arguments, context: obj.run(arguments, context),
    )
