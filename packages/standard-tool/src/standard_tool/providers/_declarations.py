"""Tool declarations in each model provider's envelope: plain dicts, no provider SDK."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from .._protocols import StandardTool
from ..exceptions import SchemaNotExpressibleError, UsageError
from ..names import ANTHROPIC_NAMES, GEMINI_NAMES, HF_NAMES, OPENAI_NAMES, NameRule
from ..plugins._metadata import export_tools, is_one
from ..plugins._registry import adopt
from ..schema._schema import JsonSchema, as_schema
from ..schema.dialects._providers import HfOutputDialect
from ..schema.dialects._registry import convert_schema
from ..tools._json_schemas import input_json_schema, output_json_schema

__all__ = [
    "NAME_RULES",
    "PROVIDERS",
    "Provider",
    "openai_strict_problem",
    "render_schema",
    "to_anthropic",
    "to_gemini",
    "to_hf",
    "to_openai",
]

Provider = Literal["openai", "anthropic", "gemini", "hf"]
PROVIDERS: tuple[Provider, ...] = ("openai", "anthropic", "gemini", "hf")
NAME_RULES: dict[str, NameRule] = {
    "openai": OPENAI_NAMES,
    "anthropic": ANTHROPIC_NAMES,
    "gemini": GEMINI_NAMES,
    "hf": HF_NAMES,
}
"""The tool-name rule of each provider."""

log = logging.getLogger("standard_tool.providers")
T = TypeVar("T")


def render_schema(tool: StandardTool, dialect: str) -> dict[str, Any]:
    """``tool``'s input JSON Schema in ``dialect``; a refusal names the tool."""
    declared = as_schema(getattr(tool, "input_schema", None))
    source = declared.schema if isinstance(declared, JsonSchema) else input_json_schema(tool)
    try:
        rendered: dict[str, Any] = convert_schema(source, dialect)  # type: ignore[assignment]
    except SchemaNotExpressibleError as error:
        raise SchemaNotExpressibleError(
            error.target, error.keyword, error.pointer, error.reason, tool=tool.name
        ) from None
    return rendered


def openai_strict_problem(tool: Any) -> SchemaNotExpressibleError | None:
    """Why ``tool``'s input schema has no OpenAI strict form (naming the keyword and where),
    or ``None`` when it has one."""
    try:
        render_schema(adopt(tool), "openai-strict")
    except SchemaNotExpressibleError as error:
        return error
    return None


def _each(tools: Any, rule: NameRule, render: Callable[[StandardTool, str], T]) -> T | list[T]:
    """``render(tool, name)`` for one tool, or a list for several, names made valid for
    ``rule`` (two that collide raise ``ToolNameError``)."""
    single = is_one(tools)
    out = export_tools(tools, render, rule)
    return out[0] if single else out


def _description(tool: StandardTool) -> str:
    description = tool.description or getattr(tool, "title", None) or ""
    return description if isinstance(description, str) else ""


def to_openai(
    tools: Any,
    *,
    api: Literal["responses", "chat"] = "responses",
    strict: bool | None = None,
) -> Any:
    """OpenAI function tool declarations: one dict for one tool, a list for several.

    ``api="responses"`` gives the Responses API's ``{"type": "function", "name", ...}``,
    ``"chat"`` the Chat Completions ``{"type": "function", "function": {...}}``.
    ``strict=True`` renders strict-mode schemas (raising ``SchemaNotExpressibleError`` for a
    schema that has none), ``False`` plain ones, ``None`` strict where the schema allows it
    (the reason it does not is logged on ``standard_tool.providers`` and returned by
    :func:`openai_strict_problem`).
    """
    if api not in ("responses", "chat"):
        raise UsageError(f"api is 'responses' or 'chat', not {api!r}")
    if strict not in (True, False, None):
        raise UsageError(f"strict is True, False or None, not {strict!r}")

    def render(tool: StandardTool, name: str) -> dict[str, Any]:
        is_strict = strict is not False
        if strict is False:
            parameters = render_schema(tool, "openai")
        else:
            try:
                parameters = render_schema(tool, "openai-strict")
            except SchemaNotExpressibleError as error:
                if strict:
                    raise
                log.info("tool %r is declared without strict mode: %s", tool.name, error)
                parameters, is_strict = render_schema(tool, "openai"), False
        function = {
            "name": name,
            "description": _description(tool),
            "parameters": parameters,
            "strict": is_strict,
        }
        if api == "chat":
            return {"type": "function", "function": function}
        return {"type": "function", **function}

    return _each(tools, OPENAI_NAMES, render)


def to_anthropic(tools: Any) -> Any:
    """Anthropic tool declarations (``{"name", "description", "input_schema"}``): one dict
    for one tool, a list for several."""

    def render(tool: StandardTool, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "description": _description(tool),
            "input_schema": render_schema(tool, "anthropic"),
        }

    return _each(tools, ANTHROPIC_NAMES, render)


def to_gemini(
    tools: Any, *, field: Literal["parameters", "parametersJsonSchema"] | None = None
) -> Any:
    """Gemini function declarations: one dict for one tool, a list for several (the
    ``functionDeclarations`` of a Gemini tool).

    ``field="parameters"`` renders Gemini's OpenAPI subset, where every position has a type
    and every object declared properties (recursion, a position accepting any value and an
    object of any properties are refused with ``SchemaNotExpressibleError``, by pointer);
    ``"parametersJsonSchema"`` renders JSON Schema, which expresses them all; ``None``
    renders ``parameters`` where the schema allows it, else ``parametersJsonSchema`` (the
    reason is logged on ``standard_tool.providers``). A tool without arguments has no
    ``parameters``.
    """
    if field not in ("parameters", "parametersJsonSchema", None):
        raise UsageError(f"field is 'parameters', 'parametersJsonSchema' or None, not {field!r}")

    def render(tool: StandardTool, name: str) -> dict[str, Any]:
        chosen = field or "parameters"
        try:
            schema = render_schema(tool, _GEMINI_DIALECTS[chosen])
        except SchemaNotExpressibleError as error:
            if field is not None:
                raise
            log.info("tool %r is declared with parametersJsonSchema: %s", tool.name, error)
            chosen = "parametersJsonSchema"
            schema = render_schema(tool, _GEMINI_DIALECTS[chosen])
        declaration: dict[str, Any] = {"name": name, "description": _description(tool)}
        if chosen == "parametersJsonSchema" or schema.get("properties"):
            declaration[chosen] = schema
        return declaration

    return _each(tools, GEMINI_NAMES, render)


_GEMINI_DIALECTS = {"parameters": "gemini", "parametersJsonSchema": "gemini-json-schema"}
"""The dialect each field of a Gemini declaration renders."""


def to_hf(tools: Any) -> Any:
    """Tools for open-model chat templates (``tokenizer.apply_chat_template(tools=...)``): the
    shape ``transformers.utils.get_json_schema`` gives, one dict for one tool, a list for
    several."""

    def render(tool: StandardTool, name: str) -> dict[str, Any]:
        function: dict[str, Any] = {
            "name": name,
            "description": _description(tool),
            "parameters": render_schema(tool, "hf"),
        }
        output = output_json_schema(tool)
        if isinstance(output, dict):
            try:
                function["return"] = HfOutputDialect("hf", output).run()
            except SchemaNotExpressibleError:
                pass  # a return schema is a courtesy to the model: never worth failing for
        return {"type": "function", "function": function}

    return _each(tools, HF_NAMES, render)
