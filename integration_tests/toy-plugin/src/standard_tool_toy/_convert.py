"""Standard tools as toy tools, and back: only what is specific to the toy framework."""

from __future__ import annotations

from functools import partial
from typing import Any

import standard_tool as st
from standard_tool.adapters import METADATA_KEY, AdoptedTool, not_adoptable, pack_metadata
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


class ToyAdopted(AdoptedTool):
    """A toy tool as a standard tool: the kit checks its input and output here, since the
    toy runs its tools unchecked; a toy tool made by ``to_toy`` is adopted back likewise."""

    framework = "toy"

    def __init__(self, native: ToyTool) -> None:
        super().__init__(
            native, name=native.name, description=native.description, metadata=native.extras
        )

    def native_input_schema(self) -> Any:
        return self.wrapped.parameters

    def run(self, input: Any, context: Any) -> Any:
        return self.wrapped.run(input, context)


def from_toy(obj: Any) -> ToyAdopted:
    """A standard tool that runs a toy tool."""
    if not isinstance(obj, ToyTool):
        raise not_adoptable(obj, "a toy tool")
    return ToyAdopted(obj)
