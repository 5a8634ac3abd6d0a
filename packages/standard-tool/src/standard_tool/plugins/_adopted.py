"""The base of every adapter's adopted tool: a framework's own tool object run as a standard tool."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cached_property
from typing import Any, ClassVar, TypeVar

from ..exceptions import ConversionError, UnsupportedObjectError
from ..tools._json_schemas import input_json_schema
from ..tools._wrapper import WrapperTool
from ._metadata import unpack_metadata

__all__ = ["AdoptedTool", "adopt_all", "not_adoptable"]

T = TypeVar("T")


class AdoptedTool(WrapperTool):
    """A standard tool that runs a framework's own tool object (:attr:`native`) as the
    framework runs it.

    What every adapter shares is here; a subclass says only what is its framework's own:

    - :attr:`framework`, the framework's name in messages, and :attr:`exported`, the classes
      of the adapter's own export, whose tools run a standard tool (:attr:`standard_tool`);
    - :meth:`native_input_schema`, the JSON Schema the framework shows a model;
    - :meth:`run` / :meth:`arun` (and the other :class:`WrapperTool` members), how the
      framework calls its tool.

    A tool of :attr:`exported` comes back as the standard tool it runs: its input schema is
    that tool's, and it checks its own input and output. Any other tool's input and output
    are checked here against its schemas, since no framework checks a raw JSON Schema itself.
    """

    framework: ClassVar[str] = "framework"
    """The framework's name, as messages say it."""
    exported: ClassVar[tuple[type, ...]] = ()
    """The adapter's own tool classes, made by its ``to_x``: each has ``standard_tool``."""
    input_by_json_schema = True
    """The input is checked against the JSON Schema a model is shown, JSON types strict,
    whichever target runs the tool (the framework's own validation runs on top)."""

    def __init__(
        self, native: Any, *, name: Any, description: Any = "", metadata: Any = None, **fields: Any
    ) -> None:
        """Adopt ``native`` under ``name`` (refused unless a non-empty string); what the
        adapter's export stored in ``metadata`` (see :func:`pack_metadata`) comes back first,
        then ``fields``."""
        if not isinstance(name, str) or not name:
            raise ConversionError(
                f"{self.framework} tool without a name ({type(native).__name__}): a tool "
                "needs one to be called"
            )
        if not isinstance(description, str):
            raise ConversionError(
                f"{self.framework} tool {name!r}: the description must be a string"
            )
        stored = unpack_metadata(metadata).fields()
        stored.setdefault("name", name)
        super().__init__(native, **{"description": description, **stored, **fields})

    @property
    def native(self) -> Any:
        """The framework's tool object."""
        return self.wrapped

    @cached_property
    def standard_tool(self) -> Any:
        """The standard tool that a tool of :attr:`exported` runs (``None`` for any other)."""
        if self.exported and isinstance(self.wrapped, self.exported):
            return getattr(self.wrapped, "standard_tool", None)
        return None

    @cached_property
    def _ours(self) -> bool:
        return self.standard_tool is not None

    @cached_property
    def input_schema(self) -> Any:
        """The JSON Schema of the arguments the model provides: the standard tool's, for a
        tool of :attr:`exported`; else what the framework shows a model."""
        if self._ours:
            return input_json_schema(self.standard_tool)
        return self.native_input_schema()

    def native_input_schema(self) -> Any:
        """The JSON Schema the framework shows a model for :attr:`native`."""
        return getattr(self.wrapped, "input_schema", None)

    @cached_property
    def validate_input(self) -> bool:  # type: ignore[override]
        """Checked here, except by tools of :attr:`exported`, which check their own input."""
        return not self._ours

    @cached_property
    def validate_output(self) -> bool:  # type: ignore[override]
        """Checked here, except by tools of :attr:`exported`, which check their own output."""
        return not self._ours

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def not_adoptable(
    obj: Any, what: str, *, holders: tuple[type, ...] = (), holder: str = "", many: str = ""
) -> UnsupportedObjectError:
    """The refusal of ``obj``, which is not ``what`` (``"a LlamaIndex tool"``): for one of
    ``holders`` (an object that holds several tools, such as an agent), saying it is
    ``holder`` and naming ``many``, the function that adopts its tools."""
    if holders and isinstance(obj, holders):
        return UnsupportedObjectError(
            f"{type(obj).__name__} is {holder}, which holds several tools: adopt them with {many}"
        )
    return UnsupportedObjectError(f"not {what}: {type(obj).__module__}.{type(obj).__qualname__}")


def adopt_all(
    tools: Any,
    adopt: Callable[[Any], T],
    *,
    single: tuple[type, ...],
    tools_of: Callable[[Any], Iterable[Any] | None],
) -> list[T]:
    """Each tool adopted (``adopt``) of one object of ``single`` or an iterable of objects,
    where an object that holds several tools gives them by ``tools_of`` (``None``: the
    object is one tool itself)."""
    items = [tools] if isinstance(tools, single) else tools
    out: list[T] = []
    for item in items:
        held = tools_of(item)
        out.extend(adopt(tool) for tool in ([item] if held is None else held))
    return out
