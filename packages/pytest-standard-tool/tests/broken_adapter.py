"""An adapter with the bugs the checks exist to catch, registered under target ``broken``.

Its framework object is a :class:`Shown`; the model is shown the tool's schema without its
``required`` list, and a tool named ``lenient`` answers input it refuses with no error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import standard_tool as st
from standard_tool.adapters import Adapter, BaseRuntime, NativeOutcome
from standard_tool.exceptions import UnsupportedObjectError
from standard_tool.registry import get_plugin_manager


class Shown:
    """The broken framework's tool."""

    def __init__(self, tool: st.StandardTool) -> None:
        self.tool = tool


def to_broken(tool: Any) -> Shown:
    return Shown(st.adopt(tool))


def from_broken(obj: Any) -> st.StandardTool:
    if not isinstance(obj, Shown):
        raise UnsupportedObjectError(f"not a Shown: {type(obj).__name__}")
    return obj.tool


class BrokenRuntime(BaseRuntime):
    target = "broken"

    def declaration(self, native: Shown) -> dict[str, Any]:
        return {"name": native.tool.name, "parameters": self.input_schema(native)}

    def input_schema(self, native: Shown) -> dict[str, Any]:
        schema = dict(st.input_json_schema(native.tool))
        schema.pop("required", None)
        return schema

    def call(
        self, native: Shown, arguments: Mapping[str, Any], context: Any = None
    ) -> NativeOutcome:
        try:
            return NativeOutcome(value=st.jsonable(st.call(native.tool, arguments, context)))
        except st.ToolValidationError as error:
            return (
                NativeOutcome()
                if native.tool.name == "lenient"
                else NativeOutcome(error=str(error))
            )
        except st.StandardToolError as error:
            return NativeOutcome(error=str(error))


runtime = BrokenRuntime()
adapter = Adapter(
    target="broken",
    distribution="pytest",
    export="broken_adapter:to_broken",
    adopt="broken_adapter:from_broken",
    native=("broken_adapter:Shown",),
    runtime="broken_adapter:runtime",
)


def register() -> None:
    """Register the adapter in the process-wide registry."""
    get_plugin_manager().register(adapter, name="broken")
