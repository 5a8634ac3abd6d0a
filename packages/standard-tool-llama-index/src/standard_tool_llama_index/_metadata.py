"""A ``ToolMetadata`` that presents a standard tool's raw input JSON Schema, derived lazily.

LlamaIndex rebuilds the parameters a model sees from a pydantic ``fn_schema`` and keeps only
``type``, ``properties``, ``required`` and ``$defs`` of it. :class:`StandardToolMetadata`
answers ``get_parameters_dict()``, ``fn_schema_str`` and ``to_openai_tool()`` with the
tool's own schema instead, and its ``fn_schema`` is a model class whose
``model_json_schema()`` is that same schema. Nothing is derived before it is asked for.
"""

from __future__ import annotations

from . import _quiet  # noqa: F401  # isort: skip  (first: imports LlamaIndex quietly)
import json
from typing import Any

from llama_index.core.tools.types import ToolMetadata
from pydantic import BaseModel, ConfigDict

import standard_tool as st
from standard_tool.adapters import pack_metadata
from standard_tool.exceptions import ConversionError

__all__ = ["MAX_DESCRIPTION", "StandardToolMetadata", "raw_schema_model"]

MAX_DESCRIPTION = 1024
"""The longest description ``ToolMetadata.to_openai_tool()`` accepts (it raises past it)."""


def raw_schema_model(name: str, text: str) -> type[BaseModel]:
    """A pydantic model class named ``name`` whose ``model_json_schema()`` is the JSON ``text``.

    It declares no fields and keeps any keyword it is given (validation is the standard
    tool's, with full JSON Schema semantics).
    """

    class RawSchemaModel(BaseModel):
        model_config = ConfigDict(extra="allow")

        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            schema: dict[str, Any] = json.loads(text)
            return schema

    RawSchemaModel.__name__ = RawSchemaModel.__qualname__ = name
    return RawSchemaModel


def _object_schema(tool: st.StandardTool, schema: dict[str, Any]) -> dict[str, Any]:
    """The schema, checked to be an object schema (LlamaIndex passes keyword arguments)."""
    kind = schema.get("type")
    if kind != "object" and not (kind is None and "properties" in schema):
        raise ConversionError(
            f"tool {tool.name!r}: LlamaIndex calls tools with keyword arguments, so the input "
            f"schema must be an object schema (type: object), not {json.dumps(kind)}"
        )
    if "properties" not in schema:  # call_tool() reads schema["properties"]
        schema = {**schema, "properties": {}}
    return schema


class StandardToolMetadata(ToolMetadata):
    """The metadata of a LlamaIndex tool that runs a standard tool.

    ``get_parameters_dict()`` is the tool's input JSON Schema exactly (a fresh copy each
    time); ``fn_schema`` a model class emitting it; ``standard_tool`` what LlamaIndex has no
    slot for: title, output JSON Schema, meta, and the original name of a renamed tool.
    """

    def __init__(
        self, tool: st.StandardTool, *, name: str, description: str, return_direct: bool = False
    ) -> None:
        self.name = name
        self.description = description
        self.return_direct = return_direct
        self._tool = tool
        self._schema_text: str | None = None
        self._fn_schema: type[BaseModel] | None = None
        self._entry: dict[str, Any] | None = None

    @property
    def schema_text(self) -> str:
        """The input JSON Schema as JSON text, derived once."""
        if self._schema_text is None:
            schema = _object_schema(self._tool, st.input_json_schema(self._tool))
            self._schema_text = json.dumps(schema, ensure_ascii=False)
        return self._schema_text

    @property
    def fn_schema(self) -> type[BaseModel]:
        """A pydantic model class whose ``model_json_schema()`` is the input schema."""
        if self._fn_schema is None:
            self._fn_schema = raw_schema_model(self.name or "tool", self.schema_text)
        return self._fn_schema

    @fn_schema.setter
    def fn_schema(self, value: type[BaseModel]) -> None:
        self._fn_schema = value

    def get_parameters_dict(self) -> dict[str, Any]:
        parameters: dict[str, Any] = json.loads(self.schema_text)
        return parameters

    @property
    def fn_schema_str(self) -> str:
        return self.schema_text

    @property
    def standard_tool(self) -> dict[str, Any]:
        """Title, output JSON Schema and meta (and an original name), as ``pack_metadata``."""
        if self._entry is None:
            self._entry = pack_metadata(self._tool, name=self.name)
        return self._entry

    def __repr__(self) -> str:
        return f"StandardToolMetadata(name={self.name!r}, description={self.description!r})"
