"""The shapes the project accepts from outside: a standard tool and a standard schema."""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from .exceptions import Issue

__all__ = [
    "JsonSchemaTarget",
    "NativeOutcome",
    "Result",
    "Runtime",
    "StandardSchema",
    "StandardTool",
    "TargetInfo",
]

JsonSchemaTarget = str
"""A JSON Schema dialect a schema can be emitted in: ``"draft-2020-12"``, ``"draft-07"``,
``"openapi-3.0"``, or any name given to :func:`standard_tool.dialects.register_dialect`."""


@dataclass(frozen=True, slots=True)
class Result:
    """What validation returns: the validated value, or the issues that failed."""

    value: Any = None
    issues: tuple[Issue, ...] | None = None

    @property
    def ok(self) -> bool:
        return self.issues is None


@runtime_checkable
class StandardSchema(Protocol):
    """Anything that validates values and describes itself as JSON Schema.

    The Python counterpart of Standard Schema plus Standard JSON Schema. ``side`` picks the
    input form (what is accepted) or the output form (what comes out of validation once
    serialized); they differ for schemas that transform values.
    """

    def validate(self, value: Any, /) -> Result: ...

    def json_schema(
        self,
        *,
        side: Literal["input", "output"] = "input",
        target: JsonSchemaTarget = "draft-2020-12",
    ) -> dict[str, Any]: ...


@runtime_checkable
class StandardTool(Protocol):
    """A tool that describes itself: the Python shape of StandardToolV0.

    ``input_schema`` and ``output_schema`` are anything :func:`standard_tool.as_schema`
    accepts, or ``None``. ``meta`` is static data for consumers; ``execute`` never sees it.
    ``execute`` may be a plain or an async function; ``context`` carries per-call values
    (tokens, ids, framework objects) and is never validated or shown to a model.

    A tool that has both a sync and an async implementation may also offer an async
    ``aexecute(input, context=None)``; :func:`standard_tool.acall` prefers it.
    """

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str | None: ...
    @property
    def description(self) -> str: ...
    @property
    def input_schema(self) -> Any: ...
    @property
    def output_schema(self) -> Any: ...
    @property
    def meta(self) -> Mapping[str, Any]: ...

    def execute(self, input: Any, context: Any = None) -> Any: ...


@dataclass(frozen=True, slots=True)
class TargetInfo:
    """A target an adapter exports to, and the framework it needs."""

    name: str
    """The name passed to ``convert(..., to=name)``."""
    distribution: str
    """The framework's distribution on PyPI, e.g. ``langchain-core``."""
    version: str | None
    """The framework's installed version, or ``None`` when it is not installed."""

    @classmethod
    def installed(cls, name: str, distribution: str) -> TargetInfo:
        """The target ``name``, with ``distribution``'s version read from package metadata."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            return cls(name, distribution, version(distribution))
        except PackageNotFoundError:
            return cls(name, distribution, None)


@dataclass(frozen=True)
class NativeOutcome:
    """What a framework's runtime hands the model for one tool call."""

    value: Any = None
    """The result, as JSON data (``None`` on error)."""
    error: str | None = None
    """The error text the model sees, or ``None`` on success."""
    text: str | None = None
    """The text the model reads for the result, when the framework hands it text (``None``
    otherwise, and on error)."""

    @classmethod
    def from_json_text(cls, text: str, *, is_error: bool) -> NativeOutcome:
        """The outcome of a framework's text result: the error text, or the text with the
        value it holds as JSON (the text itself when it is not JSON)."""
        if is_error:
            return cls(error=text)
        try:
            return cls(value=json.loads(text), text=text)
        except (TypeError, ValueError):
            return cls(value=text, text=text)


@runtime_checkable
class Runtime(Protocol):
    """A framework's own runtime for the objects its adapter makes: what a model is shown,
    and a model's tool call run the way that framework runs it.

    An adapter names one with ``Adapter(runtime=...)``; :func:`standard_tool.registry.runtime`
    finds it by target. The contract suite (``standard_tool.testing``) and the command line
    (``standard-tool call --via``, ``standard-tool check``) go through it. Most subclass
    :class:`~standard_tool.adapters.BaseRuntime`, whose :meth:`call` refuses arguments that are
    no JSON object as a direct call of the tool does and runs any other with its ``run``.

    Optional attributes say where a framework departs from the tool:

    - ``dialect = True``: the target shows a model its own dialect of the schema (a
      provider's), and the checks (``standard_tool.checks``) do not compare
      :meth:`input_schema` with the tool's; ``dialect`` may instead be a function of the
      native object returning the dialect's name (``None``: the schema itself), and the
      checks compare :meth:`input_schema` with the tool's schema rendered in it.
    - ``prechecks = True``: the framework checks a call's arguments itself before the tool
      runs, and says so without naming the tool (smolagents' agents); the checks then ask
      only that such a call is refused.
    - ``normalise(value)`` and ``normalisation``: what the framework makes of a result (JSON
      data) before the model reads it, and the same in words (smolagents strips a text
      result's surrounding whitespace); the checks compare ``normalise`` of the direct call's
      result with what the model reads.

    A runtime that cannot run a tool as it is (a name the framework reserves) raises
    :class:`~standard_tool.exceptions.UnsupportedToolError`, naming the tool and why.
    """

    def native(self, tool: StandardTool) -> Any:
        """The framework's object for ``tool``, in the form the other methods take."""
        ...

    def declaration(self, native: Any) -> dict[str, Any]:
        """What the framework sends a model for ``native``, as JSON data."""
        ...

    def input_schema(self, native: Any) -> dict[str, Any]:
        """The input JSON Schema a model is shown for ``native``."""
        ...

    def call(self, native: Any, arguments: Any, context: Any = None) -> NativeOutcome:
        """A model's call of ``native`` with ``arguments``, run as the framework runs it
        (``context`` is the standard per-call context): what the model gets back. Arguments
        that are no JSON object are refused as a direct call of the tool refuses them."""
        ...

    def adopted(self, native: Any) -> AbstractContextManager[StandardTool]:
        """``native`` adopted back as a standard tool, usable inside the ``with`` block."""
        ...
