"""The providers' runtime: a model's tool call in a provider's envelope, run by
:func:`~standard_tool.providers.run_tool_calls`, and the answer the model reads back.

A provider shows a model its own dialect of the input schema (OpenAI's strict mode makes
every property required, and nullable where it was optional; Gemini's is an OpenAPI
subset), so :meth:`ProviderRuntime.input_schema` is that dialect, not the tool's schema.
A valid call is sent as a model constrained by that dialect writes it (strict mode: every
declared property, ``null`` for an absent one, nothing undeclared); an invalid one as it
is, as a model that ignores the schema sends it. Answers are read as the model reads them:
text that parses as JSON is that JSON (a string result that looks like JSON too), and the
text itself is kept (Gemini's answer is an object, not text).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._protocols import NativeOutcome, StandardTool
from ..plugins._registry import adopt, convert
from ..plugins._runtime import BaseRuntime
from ._tool_calls import _ERROR_KEY, run_tool_calls

__all__ = [
    "ANTHROPIC",
    "GEMINI",
    "HF",
    "OPENAI",
    "ProviderRuntime",
    "ProviderTool",
    "strict_arguments",
]


@dataclass(frozen=True)
class ProviderTool:
    """A tool as a provider's model knows it: its declaration, the tool that runs, and
    whether an input is valid for that tool's schema (compiled once)."""

    tool: StandardTool
    declaration: dict[str, Any]
    accepts: Callable[[Any], bool]

    @property
    def function(self) -> dict[str, Any]:
        """The part of the declaration with the name and the schema."""
        inner = self.declaration.get("function")
        return inner if isinstance(inner, dict) else self.declaration

    @property
    def name(self) -> str:
        name: str = self.function["name"]
        return name

    @property
    def standard_tool(self) -> StandardTool:
        """The standard tool that runs."""
        return self.tool


class ProviderRuntime(BaseRuntime):
    """One provider's tool calls and answers (``openai``, ``anthropic``, ``gemini``, ``hf``)."""

    dialect = True
    """A model is shown the provider's dialect of the input schema, not the schema itself."""

    def __init__(self, target: str) -> None:
        self.target = target  # type: ignore[misc]

    def native(self, tool: StandardTool) -> ProviderTool:
        tool = adopt(tool)
        return ProviderTool(tool, convert(tool, to=self.target), _validator(tool))

    def declaration(self, native: ProviderTool) -> dict[str, Any]:
        return native.declaration

    def input_schema(self, native: ProviderTool) -> dict[str, Any]:
        function = native.function
        for key in ("input_schema", "parameters", "parametersJsonSchema"):
            if isinstance(function.get(key), dict):
                schema: dict[str, Any] = function[key]
                return schema
        return {}

    def run(
        self, native: ProviderTool, arguments: dict[str, Any], context: Any = None
    ) -> NativeOutcome:
        sent: Any = arguments
        if native.function.get("strict") is True and native.accepts(arguments):
            sent = strict_arguments(arguments, self.input_schema(native))
        [answer] = run_tool_calls(
            [native.tool], [self._envelope(native.name, sent)], self.target, context=context
        )
        return _read(answer)

    def _envelope(self, name: str, arguments: Any) -> dict[str, Any]:
        """The call in the target's envelope, with an id of its own, as a model gives it."""
        text, call_id = json.dumps(arguments), f"call_{uuid.uuid4().hex}"
        if self.target == "openai":
            return {"type": "function_call", "call_id": call_id, "name": name, "arguments": text}
        if self.target == "anthropic":
            return {"type": "tool_use", "id": call_id, "name": name, "input": json.loads(text)}
        if self.target == "gemini":
            return {"functionCall": {"id": call_id, "name": name, "args": json.loads(text)}}
        return {"type": "function", "id": call_id, "function": {"name": name, "arguments": text}}


def _validator(tool: StandardTool) -> Callable[[Any], bool]:
    """Whether a value is valid for ``tool``'s input schema (``False`` when the validator
    cannot take the schema or the value: such a call is sent as it is)."""
    import jsonschema_rs

    from ..tools._json_schemas import input_json_schema

    try:
        is_valid = jsonschema_rs.validator_for(input_json_schema(tool)).is_valid
    except Exception:
        return lambda value: False

    def accepts(value: Any) -> bool:
        try:
            return bool(is_valid(value))
        except Exception:
            return False

    return accepts


def strict_arguments(value: Any, schema: Any) -> Any:
    """``value`` as a strict-mode model writes it under ``schema`` (the strict rendering):
    every declared property (``null`` for an absent one), nothing undeclared."""
    import jsonschema_rs

    if not isinstance(schema, dict):
        return value
    kind = schema.get("type")
    if isinstance(value, dict) and kind in ("object", ["object", "null"]):
        return {
            name: strict_arguments(value[name], sub) if name in value else None
            for name, sub in schema.get("properties", {}).items()
        }
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [strict_arguments(item, schema["items"]) for item in value]
    for branch in schema.get("anyOf", []):
        candidate = strict_arguments(value, branch)
        try:
            if jsonschema_rs.validator_for(branch).is_valid(candidate):
                return candidate
        except Exception:
            continue
    return value


def _read(answer: dict[str, Any]) -> NativeOutcome:
    """The answer as the model reads it."""
    if "functionResponse" in answer:  # gemini
        response = answer["functionResponse"]["response"]
        if _ERROR_KEY in response:
            return NativeOutcome(error=str(response[_ERROR_KEY]))
        return NativeOutcome(value=response.get("output"))
    if answer.get("type") == "tool_result":  # anthropic
        return NativeOutcome.from_json_text(str(answer["content"]), is_error=answer["is_error"])
    text = str(answer["output"] if "output" in answer else answer["content"])
    outcome = NativeOutcome.from_json_text(text, is_error=False)
    value = outcome.value
    if (
        isinstance(value, dict)
        and list(value) == [_ERROR_KEY]
        and isinstance(value[_ERROR_KEY], str)
    ):
        return NativeOutcome(error=value[_ERROR_KEY])
    return outcome


OPENAI = ProviderRuntime("openai")
ANTHROPIC = ProviderRuntime("anthropic")
GEMINI = ProviderRuntime("gemini")
HF = ProviderRuntime("hf")
"""Each provider's runtime, as its target's plugin names it (``standard_tool.plugins._builtin``)."""
