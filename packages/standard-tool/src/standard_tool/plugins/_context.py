"""How an adapter builds a call's standard context: from a framework's per-call object by a
getter, or from a value set around a run, for frameworks with no per-call object."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ..exceptions import ToolExecutionError

__all__ = ["AmbientContext", "build_context", "context_failed"]


def context_failed(tool: str, exc: BaseException) -> ToolExecutionError:
    """The failure of a call of ``tool`` whose context getter raised ``exc``: named by the
    exception's type only, since its message may quote context values."""
    return ToolExecutionError(
        tool, f"the per-call context could not be built ({type(exc).__name__})"
    )


def build_context(tool: str, getter: Callable[..., Any], *native: Any) -> Any:
    """The standard context ``getter`` builds from a framework's per-call objects
    (``native``) for a call of ``tool``; a getter that raises is :func:`context_failed`."""
    try:
        return getter(*native)
    except Exception as exc:
        raise context_failed(tool, exc) from exc


class AmbientContext:
    """A standard context set around a run (:meth:`around`) and read at each call
    (:meth:`get`): a context variable, which the tasks and worker threads a framework starts
    for tool calls copy."""

    def __init__(self, name: str) -> None:
        self._value: ContextVar[Any] = ContextVar(name, default=None)

    def __deepcopy__(self, memo: dict[int, Any]) -> AmbientContext:
        return self  # one value around a run, whichever copy of a tool reads it

    def get(self, *ignored: Any) -> Any:
        """The standard context set by the innermost :meth:`around` (else ``None``); any
        arguments (a framework's per-call object) are ignored, so that it serves as a
        context getter."""
        return self._value.get()

    @contextmanager
    def around(self, value: Any) -> Iterator[None]:
        """Give exported tools ``value`` as their context inside the block (an agent run)."""
        token = self._value.set(value)
        try:
            yield
        finally:
            self._value.reset(token)
