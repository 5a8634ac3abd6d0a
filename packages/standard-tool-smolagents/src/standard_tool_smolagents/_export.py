"""Standard tools as smolagents tools."""

from __future__ import annotations

import json
import keyword
from collections.abc import Iterable
from functools import cached_property
from typing import Any

from smolagents import Tool
from smolagents.agent_types import AgentText, AgentType

import standard_tool as st
from standard_tool import call
from standard_tool.adapters import build_context, export_tools, pack_metadata
from standard_tool.exceptions import ConversionError, Issue
from standard_tool.names import NameRule, check_name, sanitize_name

from ._context import ContextGetter, current_context
from ._inputs import inputs_of, output_type_of, required_nulls

__all__ = [
    "FINAL_ANSWER",
    "NAMES",
    "JsonDict",
    "JsonList",
    "StandardSmolTool",
    "to_smolagents",
    "to_smolagents_tools",
]

NAMES: NameRule = NameRule("smolagents", "a-zA-Z0-9_", 64, first="a-zA-Z_")
"""The names a smolagents tool gets: Python identifiers (a ``CodeAgent`` calls tools as
functions), within the 64 characters of the function-calling APIs."""
FINAL_ANSWER = "final_answer"
"""The name of smolagents' own final answer tool: an agent given a tool of that name uses it
instead (``tools.setdefault("final_answer", FinalAnswerTool())`` in
``MultiStepAgent._setup_tools``), and a call of it ends the run with its result as the answer."""
_JSON = json.JSONEncoder(ensure_ascii=False, allow_nan=False)


class JsonDict(dict):  # type: ignore[type-arg]
    """A tool's object result: a ``dict`` for the code an agent runs, JSON text for the model
    (smolagents shows a model ``str()`` of a result)."""

    def __str__(self) -> str:
        return _JSON.encode(self)


class JsonList(list):  # type: ignore[type-arg]
    """A tool's array result: a ``list`` for code, JSON text for the model."""

    def __str__(self) -> str:
        return _JSON.encode(self)


_PLAIN = (str, int, float, bool, type(None))


def _for_agents(result: Any) -> Any:
    """The result as JSON data (a model's or dataclass's JSON form), objects and arrays as
    :class:`JsonDict`/:class:`JsonList`."""
    if type(result) in _PLAIN:
        return result
    result = st.jsonable(result)
    if type(result) is dict:
        return JsonDict(result)
    if type(result) is list:
        return JsonList(result)
    return result


class StandardSmolTool(Tool):  # type: ignore[misc]
    """A smolagents ``Tool`` that runs a standard tool.

    ``inputs`` and ``output_type`` say what smolagents' format can (derived on first use); the
    standard tool validates every call against its whole input schema. Called by keyword or
    positionally (in the order of the schema's properties), as a ``CodeAgent``'s code calls
    it, or with one dict of arguments; an argument the schema requires and allows ``null`` for
    is ``nullable`` in ``inputs`` (its only word for it), so one left out is passed as
    ``null``. It raises the project's typed errors, which agents show the model. Object and
    array results are a ``dict``/``list`` whose ``str()`` is JSON.
    """

    skip_forward_signature_validation = True

    def __init__(
        self, tool: st.StandardTool, *, name: str, context: ContextGetter | None = None
    ) -> None:
        self.name = name
        self.description = tool.description
        self.is_initialized = True
        self._standard = tool
        self._get_context = context

    def validate_arguments(self) -> None:
        """Nothing to check: the name, description, ``inputs`` and ``output_type`` are made
        here, in the form smolagents checks for (``to_smolagents`` checks the name)."""

    @property
    def standard_tool(self) -> st.StandardTool:
        """The standard tool this smolagents tool runs."""
        return self._standard

    @cached_property
    def _schema(self) -> Any:
        return st.input_json_schema(self._standard)

    @cached_property
    def _properties(self) -> list[str]:
        properties = self._schema.get("properties") if isinstance(self._schema, dict) else None
        return list(properties or ())

    @cached_property
    def _nulls(self) -> tuple[str, ...]:
        """The arguments passed as ``null`` when left out (see :func:`required_nulls`)."""
        return required_nulls(self._schema)

    @cached_property
    def inputs(self) -> dict[str, dict[str, Any]]:
        return inputs_of(self._schema)

    @cached_property
    def output_type(self) -> str:
        return output_type_of(st.output_json_schema(self._standard))

    @cached_property
    def output_schema(self) -> dict[str, Any] | None:
        """The output JSON Schema when the result is an object (smolagents then tells a
        ``CodeAgent`` that the tool returns a dict)."""
        schema = st.output_json_schema(self._standard)
        return schema if self.output_type == "object" and isinstance(schema, dict) else None

    @cached_property
    def standard_metadata(self) -> dict[str, Any]:
        """Title, output schema, meta and original name, restored by ``from_smolagents``."""
        return pack_metadata(self._standard, name=self.name)

    def _arguments(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        if not args:
            return kwargs
        if len(args) == 1 and not kwargs and type(args[0]) is dict:
            names = self._properties
            if all(key in names for key in args[0]):
                return dict(args[0])
        names = self._properties
        if len(args) > len(names):
            issue = Issue(f"takes {len(names)} arguments, not {len(args)}")
            raise st.ToolValidationError(self._standard.name, "input", [issue])
        arguments = dict(zip(names, args, strict=False))
        for key in kwargs:
            if key in arguments:
                issue = Issue("given both by position and by keyword", (key,))
                raise st.ToolValidationError(self._standard.name, "input", [issue])
        arguments.update(kwargs)
        return arguments

    def _context(self) -> Any:
        getter = self._get_context
        if getter is None:
            return current_context()
        return build_context(self._standard.name, getter)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self(*args, **kwargs)

    def __call__(self, *args: Any, sanitize_inputs_outputs: bool = False, **kwargs: Any) -> Any:
        if args or sanitize_inputs_outputs or self._get_context is not None or self._nulls:
            return self._call(args, kwargs, sanitize_inputs_outputs)
        result = call(self._standard, kwargs, current_context())  # the common call, inline
        return result if type(result) in _PLAIN else _for_agents(result)

    def _call(self, args: tuple[Any, ...], kwargs: dict[str, Any], sanitize: bool) -> Any:
        if sanitize:  # agents' values (a stored image...) as their raw value
            args = tuple(a.to_raw() if isinstance(a, AgentType) else a for a in args)
            kwargs = {k: v.to_raw() if isinstance(v, AgentType) else v for k, v in kwargs.items()}
        arguments = self._arguments(args, kwargs)
        for key in self._nulls:
            arguments.setdefault(key, None)
        result = call(self._standard, arguments, self._context())
        if sanitize:  # what a tool-calling agent shows the model is str()
            if type(result) is str:
                return AgentText(result)
            if result is None or type(result) is bool:
                return AgentText(_JSON.encode(result))  # "null", "true": JSON, not Python
        return _for_agents(result)

    def __repr__(self) -> str:
        return f"StandardSmolTool({self.name!r})"


def to_smolagents(
    tool: Any, *, name: str | None = None, context: ContextGetter | None = None
) -> StandardSmolTool:
    """A smolagents ``Tool`` running ``tool`` (anything :func:`standard_tool.adopt` takes).

    Its name is ``name`` (checked against :data:`NAMES`), or the tool's name made valid for
    :data:`NAMES` (the original is kept in ``standard_metadata`` and restored by
    ``from_smolagents``). ``context`` gives the standard context of each call (default: the
    value of :func:`standard_context` around the run, else ``None``).

    A tool named ``final_answer`` (by its own name or by ``name``) takes the place of
    smolagents' own final answer tool in an agent, as smolagents lets a user's do: a call of
    it ends the run with its result as the answer. A name made valid that would be
    ``final_answer``, or a Python keyword, gets a trailing ``_``.
    """
    standard = st.adopt(tool)
    if name is not None:
        name = check_name(name, NAMES)
    else:
        name = _unreserved(sanitize_name(standard.name, NAMES), standard.name)
    if keyword.iskeyword(name):
        name = f"{name}_"
    if not isinstance(standard.description, str):
        raise ConversionError(f"tool {standard.name!r}: the description must be a string")
    return StandardSmolTool(standard, name=name, context=context)


def to_smolagents_tools(
    tools: Iterable[Any] | Any, *, context: ContextGetter | None = None
) -> list[StandardSmolTool]:
    """smolagents tools for one tool or several; two names that collide raise ``ToolNameError``."""

    def export(tool: st.StandardTool, name: str) -> StandardSmolTool:
        return to_smolagents(tool, name=_unreserved(name, tool.name), context=context)

    return export_tools(tools, export, NAMES)


def _unreserved(name: str, original: str) -> str:
    """``name``, made valid from ``original``, with a trailing ``_`` when it became
    ``final_answer`` (only a tool of that name takes the final answer tool's place)."""
    return f"{name}_" if name == FINAL_ANSWER != original else name
