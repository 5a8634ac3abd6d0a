"""Standard tools as toy tools, and back: only what is specific to the toy framework."""

from __future__ import annotations

from functools import partial
from typing import Any

import standard_tool as st
from standard_tool.adapters import METADATA_KEY, WrapperTool, pack_metadata, unpack_metadata
from standard_tool.exceptions import UnsupportedObjectError
from standard_tool.names import OPENAI_NAMES, sanitize_name

from standard_tool_toy._toy import ToyTool


def to_toy(tool: Any, *, name: str | None = None) -> ToyTool:
    """A toy tool that runs ``tool`` (anything ``st.adopt`` takes)."""
    tool = st.adopt(tool)
    name = name or sanitize_name(tool.name, OPENAI_NAMES)
    return ToyTool(
        name=name,
        description=tool.description,
        parameters=st.input_json_schema(tool),
        run=partial(st.call, tool),
        extras={METADATA_KEY: pack_metadata(tool, name=name)},
    )


class ToyAdopted(WrapperTool):
    """A toy tool as a standard tool: the toy runs its tools unchecked, so check here."""

    validate_input = True
    validate_output = True

    @property
    def name(self) -> str:
        return unpack_metadata(self.wrapped.extras).name or self.wrapped.name

    @property
    def title(self) -> str | None:
        return unpack_metadata(self.wrapped.extras).title

    @property
    def input_schema(self) -> Any:
        return self.wrapped.parameters

    @property
    def output_schema(self) -> Any:
        return unpack_metadata(self.wrapped.extras).output_schema

    @property
    def meta(self) -> dict[str, Any]:
        return unpack_metadata(self.wrapped.extras).meta

    def run(self, input: Any, context: Any) -> Any:
        return self.wrapped.run(input, context)


def from_toy(obj: Any) -> ToyAdopted:
    """A standard tool that runs a toy tool."""
    if not isinstance(obj, ToyTool):
        raise UnsupportedObjectError(f"not a ToyTool: {type(obj).__name__}")
    return ToyAdopted(obj)
