"""What most frameworks' runtimes share: objects made and adopted back through the registry."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Any, ClassVar

from .._protocols import StandardTool
from ._registry import adopt, convert

__all__ = ["BaseRuntime"]


class BaseRuntime:
    """The shared half of a :class:`~standard_tool.adapters.Runtime`: :meth:`native` converts with
    ``convert(tool, to=target)`` and :meth:`adopted` adopts back with ``adopt(native)``.

    A subclass sets :attr:`target` and writes ``declaration``, ``input_schema`` and ``call``,
    which are specific to its framework.
    """

    target: ClassVar[str]
    """The target whose objects this runtime runs."""

    def native(self, tool: StandardTool) -> Any:
        return convert(tool, to=self.target)

    def adopted(self, native: Any) -> AbstractContextManager[StandardTool]:
        return nullcontext(adopt(native))
