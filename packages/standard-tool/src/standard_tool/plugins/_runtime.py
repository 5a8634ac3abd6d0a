"""What most frameworks' runtimes share: objects made and adopted back through the registry,
and a call's arguments refused as a direct call refuses them when they are no JSON object."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any, ClassVar

from .._protocols import NativeOutcome, StandardTool
from ..exceptions import ToolValidationError
from ..run._accepted import accepting
from ..schema._schema import JsonSchema
from ._registry import adopt, convert

__all__ = ["BaseRuntime", "non_object_refusal"]

_OBJECT = JsonSchema({"type": "object"})
"""What every framework's runtime takes as a call's arguments: a JSON object."""


def non_object_refusal(tool: StandardTool, arguments: Any) -> ToolValidationError:
    """The error a direct call of ``tool`` raises for ``arguments`` that are no JSON object
    (no framework's runtime takes them): the tool's own input check's, for a tool whose check
    runs apart from it (the core's ``Tool``), else the JSON type's, under the tool's name."""
    check = accepting(tool)
    if check is not None:
        try:
            check(arguments)
        except ToolValidationError as error:
            return error
    return ToolValidationError(tool.name, "input", _OBJECT.validate(arguments).issues or ())


class BaseRuntime:
    """The shared half of a :class:`~standard_tool.adapters.Runtime`: :meth:`native` converts with
    ``convert(tool, to=target)``, :meth:`adopted` adopts back with ``adopt(native)``, and
    :meth:`call` refuses arguments that are no JSON object as a direct call of the tool
    refuses them, and hands any other to :meth:`run` as a ``dict``.

    A subclass sets :attr:`target` and writes ``declaration`` and :meth:`run`, which are
    specific to its framework (and ``input_schema`` when the declaration does not hold the
    schema where :meth:`input_schema` looks); one whose framework changes a result before the
    model reads it says how with :meth:`normalise` and :attr:`normalisation`.
    """

    target: ClassVar[str]
    """The target whose objects this runtime runs."""
    normalisation: ClassVar[str] = ""
    """What :meth:`normalise` does, in words for a legend (empty: nothing)."""

    def native(self, tool: StandardTool) -> Any:
        return convert(tool, to=self.target)

    def adopted(self, native: Any) -> AbstractContextManager[StandardTool]:
        return nullcontext(adopt(native))

    def call(self, native: Any, arguments: Any, context: Any = None) -> NativeOutcome:
        """A model's call of ``native`` with ``arguments``: refused as a direct call of
        :meth:`standard_tool` refuses it when ``arguments`` is no mapping, else :meth:`run`."""
        if not isinstance(arguments, Mapping):
            refusal = non_object_refusal(self.standard_tool(native), arguments)
            return NativeOutcome(error=str(refusal))
        return self.run(native, dict(arguments), context)

    def declaration(self, native: Any) -> dict[str, Any]:
        """What the framework sends a model for ``native``, as JSON data."""
        raise NotImplementedError(f"{type(self).__name__} shows no declaration: write it")

    def input_schema(self, native: Any) -> dict[str, Any]:
        """The input JSON Schema in :meth:`declaration`: its ``parameters`` (in the OpenAI
        chat form, ``function.parameters``), ``parameters_json_schema`` or ``inputSchema``."""
        shown = self.declaration(native)
        if isinstance(shown.get("function"), Mapping):
            shown = shown["function"]
        for key in ("parameters", "parameters_json_schema", "inputSchema"):
            schema = shown.get(key)
            if isinstance(schema, dict):
                return schema
        raise LookupError(f"{type(self).__name__}: the declaration holds no input schema")

    def run(self, native: Any, arguments: dict[str, Any], context: Any = None) -> NativeOutcome:
        """A model's call of ``native`` with the JSON object ``arguments``, run as the
        framework runs it (``context`` is the standard per-call context): what the model gets
        back."""
        raise NotImplementedError(f"{type(self).__name__} does not run calls: write run()")

    def standard_tool(self, native: Any) -> StandardTool:
        """The standard tool behind ``native``, whose direct call :meth:`call` answers as: the
        one it runs (its ``standard_tool``, as every adapter's exported objects have), else
        ``native`` adopted."""
        runs = getattr(native, "standard_tool", None)
        return runs if isinstance(runs, StandardTool) else adopt(native)

    def normalise(self, value: Any) -> Any:
        """What the framework makes of the result ``value`` (JSON data) before the model reads
        it (default: nothing)."""
        return value
