"""Output: JSON on stdout, rich tables for people, one-line errors on stderr."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, TextIO

__all__ = ["arguments_summary", "console", "print_json", "summary"]


def print_json(value: Any, file: TextIO | None = None) -> None:
    """``value`` as indented JSON on stdout, or ``file`` (non-ASCII kept, so names read as
    written)."""
    stream = sys.stdout if file is None else file
    stream.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
    stream.flush()


def console(stderr: bool = False) -> Any:
    """A rich console on stdout (or stderr), as wide as the terminal (120 columns otherwise)."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, width=None if stream.isatty() else 120, soft_wrap=False)


def summary(text: str | None) -> str:
    """The first line of a description."""
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def _type_of(schema: Any) -> str:
    if not isinstance(schema, Mapping):
        return "any"
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return "|".join(json.dumps(value) for value in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind == "array":
        return f"array[{_type_of(schema.get('items'))}]"
    if kind:
        return f"{kind} ({schema['format']})" if "format" in schema else str(kind)
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    for combiner in ("anyOf", "oneOf"):
        if isinstance(schema.get(combiner), list):
            return "|".join(_type_of(option) for option in schema[combiner])
    return "any"


def arguments_summary(schema: Mapping[str, Any]) -> str:
    """One line per argument: ``name*: type = default`` (``*``: required)."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return "(none)" if schema.get("type") == "object" else _type_of(schema)
    required = set(schema.get("required") or ())
    lines = []
    for name, sub in properties.items():
        line = f"{name}{'*' if name in required else ''}: {_type_of(sub)}"
        if isinstance(sub, Mapping) and "default" in sub:
            line += f" = {json.dumps(sub['default'])}"
        lines.append(line)
    return "\n".join(lines)
