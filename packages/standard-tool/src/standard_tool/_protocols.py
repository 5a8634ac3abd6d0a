"""The shapes the project accepts from outside: a standard tool and a standard schema."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from .exceptions import Issue

__all__ = ["JsonSchemaTarget", "Result", "StandardSchema", "StandardTool", "TargetInfo"]

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
