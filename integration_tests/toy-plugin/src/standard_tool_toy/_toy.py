"""The toy framework: a tool is a name, a description, JSON parameters and a runner."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import standard_tool as st


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
