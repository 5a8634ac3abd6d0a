"""Every error the project raises, in one place.

The hierarchy::

    StandardToolError                  base of everything raised here
    ├── ToolValidationError            a value does not match a tool's input or output schema
    ├── ToolExecutionError             a tool ran and failed (the cause is chained)
    ├── ToolRefusedError               an execution boundary refused a call, or reports its outcome
    ├── PinMismatchError               a tool differs from its pinned snapshot, or is not in it
    ├── UnsupportedToolError           a target cannot run a tool as it is (a name it reserves)
    ├── ServerError                    a tool server failed outside any one tool call
    │   └── ToolTimeoutError           a tool did not finish in time; the caller stopped waiting
    ├── ConversionError                a tool cannot be converted to or from a target
    │   ├── UnsupportedObjectError     no installed adapter owns the object
    │   └── SchemaNotExpressibleError  the target dialect cannot express a schema keyword
    ├── PluginError                    the plugin registry cannot do what was asked
    │   └── UnknownTargetError         no installed adapter exports to that target
    ├── UsageError                     the developer used the API wrongly (bad definition, bad argument)
    │   └── ToolNameError              a name breaks a target's rules, or two names collide
    ├── NotJsonError                   a value is not JSON data and cannot be made JSON data
    ├── ModelOutputError               a model's raw completion cannot be read as tool calls
    ├── InputGenerationError           no input can be generated from a schema (checks)
    └── StepTimeoutError               a step of a check did not end within its time limit

Errors raised while serving a model (validation and execution errors) carry the tool's
name; their ``str()`` is meant for the model and never contains a traceback or the per-call
context. Every error pickles (multiprocessing, logging handlers) and keeps its attributes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ._text import clip

__all__ = [
    "ConversionError",
    "InputGenerationError",
    "Issue",
    "ModelOutputError",
    "NotJsonError",
    "PinMismatchError",
    "PluginError",
    "REFUSAL_CODES",
    "SchemaNotExpressibleError",
    "ServerError",
    "StandardToolError",
    "StepTimeoutError",
    "StoreError",
    "ToolExecutionError",
    "ToolNameError",
    "ToolRefusedError",
    "ToolTimeoutError",
    "ToolValidationError",
    "UnknownTargetError",
    "UnsupportedObjectError",
    "UnsupportedToolError",
    "UsageError",
]

PathItem = str | int


@dataclass(frozen=True, slots=True)
class Issue:
    """One reason a value failed validation: where (a path of keys and indexes) and why."""

    message: str
    path: tuple[PathItem, ...] = ()

    @property
    def location(self) -> str:
        """The path as a readable dotted string (``items.0.name``), or ``<root>``; a long
        key is clipped (see :func:`~standard_tool._text.clip`), :attr:`path` keeps it whole."""
        return ".".join(clip(str(p)) for p in self.path) if self.path else "<root>"

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


class StandardToolError(Exception):
    """Base class of every error raised by standard-tool and its adapters."""


class ToolValidationError(StandardToolError, ValueError):
    """A tool's input or output does not match its schema.

    Attributes:
        tool: the tool's name.
        target: ``"input"`` or ``"output"``.
        issues: what failed, each with a path and a message.
    """

    def __init__(
        self, tool: str, target: Literal["input", "output"], issues: Iterable[Issue]
    ) -> None:
        self.tool = tool
        self.target = target
        self.issues: tuple[Issue, ...] = tuple(issues)
        super().__init__(self._message())

    def _message(self) -> str:
        head = f"Invalid {self.target} for tool {self.tool!r}"
        if not self.issues:
            return head
        shown = self.issues[:20]
        more = len(self.issues) - len(shown)
        lines = [f"  - {issue}" for issue in shown]
        if more:
            lines.append(f"  ... and {more} more")
        plural = "s" if len(self.issues) != 1 else ""
        return f"{head} ({len(self.issues)} issue{plural}):\n" + "\n".join(lines)

    @property
    def fields(self) -> tuple[str, ...]:
        """The locations that failed, in order, without repeats."""
        return tuple(dict.fromkeys(issue.location for issue in self.issues))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.tool, self.target, self.issues))


class ToolExecutionError(StandardToolError):
    """A tool ran and raised; the original exception is ``__cause__``.

    Attributes:
        tool: the tool's name.
        message: what failed, without the ``Tool 'x' failed:`` prefix (the original error's
            type and message, nothing more; a value of the call's context it quotes is
            replaced by ``[context value]``, while ``__cause__`` keeps it as it was).
    """

    def __init__(self, tool: str, message: str) -> None:
        self.tool = tool
        self.message = message
        super().__init__(f"Tool {tool!r} failed: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.tool, self.message))


REFUSAL_CODES: dict[str, bool] = {
    "invalid_arguments": True,
    "not_found": False,
    "denied": False,
    "stale": True,
    "held_for_review": False,
    "budget_exceeded": True,
    "disabled": False,
    "timeout": True,
    "unknown_outcome": False,
    "failed": False,
    "unavailable": True,
}
"""Every code a :class:`ToolRefusedError` carries, and whether a model may retry the call as it
is (``stale``: with fresh data; ``budget_exceeded``: later; ``timeout``: with the same request
id, which then answers the call's outcome once it is known, never a second effect;
``unavailable``: later, when the gate's store answers again)."""


class ToolRefusedError(StandardToolError):
    """A guarded call (``standard_tool.boundary``) was refused before it ran, or ended without
    a result: one vocabulary, whatever framework the call came through.

    ``str()`` is what the model reads, the same in every framework: one line of JSON with
    ``code``, ``retryable``, ``message`` and ``request_id``. A denial and an unknown record,
    a hidden tool and an unknown one, read alike when the boundary's steps say so.

    Attributes:
        tool: the tool's name.
        code: one of :data:`REFUSAL_CODES`.
        message: a short message, safe for a model (no value of the call's context).
        request_id: the call's request id (the same on a retry of the same call).
        retryable: whether the same call may succeed later (from :data:`REFUSAL_CODES`).
        approval: for ``held_for_review``, what a person is asked to approve (``id``,
            ``tool``, ``tenant``, ``actor``, ``arguments``, ``summary``, ``digest``: see
            ``standard_tool.boundary.Approval.request``), else ``None``; it is not part of
            ``str()``.
    """

    def __init__(
        self,
        tool: str,
        code: str,
        message: str,
        request_id: str | None = None,
        approval: dict[str, Any] | None = None,
    ) -> None:
        if code not in REFUSAL_CODES:
            raise UsageError(
                f"unknown refusal code {clip(code)!r}; use one of {list(REFUSAL_CODES)}"
            )
        self.tool = tool
        self.code = code
        self.message = message
        self.request_id = request_id
        self.approval = approval
        super().__init__(json.dumps(self.payload, ensure_ascii=False, separators=(", ", ": ")))

    @property
    def retryable(self) -> bool:
        return REFUSAL_CODES[self.code]

    @property
    def payload(self) -> dict[str, Any]:
        """The model-facing form, as a dict (``str()`` is its JSON)."""
        return {
            "code": self.code,
            "retryable": self.retryable,
            "message": self.message,
            "request_id": self.request_id,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.tool, self.code, self.message, self.request_id, self.approval))


class UnsupportedToolError(StandardToolError):
    """A target cannot run a tool as it is: its framework reserves the tool's name, say.

    Attributes:
        tool: the tool's name.
        target: the target.
        reason: why, in words.
    """

    def __init__(self, tool: str, target: str, reason: str) -> None:
        self.tool = tool
        self.target = target
        self.reason = reason
        super().__init__(f"tool {clip(tool)!r} cannot run through {target} as it is: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.tool, self.target, self.reason))


class StoreError(StandardToolError):
    """A gate's store (``standard_tool.boundary``) cannot answer as it promised: its file was
    deleted or replaced, its server is gone. A gate refuses the call (``unavailable``)."""


class PinMismatchError(StandardToolError):
    """A tool is not what its pin (a snapshot, see ``standard_tool.contracts``) promised: its
    description, input schema or output schema changed, or the pin does not name it.

    Attributes:
        tool: the tool's name.
        changed: what differs, in a fixed order: ``description``, ``input``, ``output``; or
            ``("unpinned",)`` for a tool the pin does not name.
        source: what the tool came from (a server), when known.
    """

    def __init__(self, tool: str, changed: Sequence[str], source: str | None = None) -> None:
        self.tool = tool
        self.changed = tuple(changed)
        self.source = source
        where = f" of {clip(source)}" if source else ""
        if self.changed == ("unpinned",):
            text = f"tool {clip(tool)!r}{where} is not in the pin, and unpinned tools are refused"
        else:
            parts = ", ".join(self.changed)
            text = f"tool {clip(tool)!r}{where} differs from its pin: {parts} changed"
        super().__init__(text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.tool, self.changed, self.source))


class ServerError(StandardToolError):
    """A tool server (an MCP server, say) failed or did not answer outside any one tool call.

    Attributes:
        server: what names the server (a command, a URL, or an operation such as
            ``tools/list``).
        message: what failed.
    """

    def __init__(self, server: str, message: str) -> None:
        self.server = server
        self.message = message
        super().__init__(f"{server}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.server, self.message))


class ConversionError(StandardToolError):
    """A tool cannot be converted to, or adopted from, a target."""


class UnsupportedObjectError(ConversionError, TypeError):
    """No installed adapter knows how to adopt this object."""


class SchemaNotExpressibleError(ConversionError):
    """A schema uses a keyword the target dialect cannot express.

    Attributes:
        target: the dialect asked for.
        keyword: the JSON Schema keyword.
        pointer: JSON Pointer of the node that uses it.
        tool: the name of the tool whose schema it is, when one is known.
    """

    def __init__(
        self, target: str, keyword: str, pointer: str, reason: str = "", tool: str | None = None
    ) -> None:
        self.target = target
        self.keyword = keyword
        self.pointer = pointer or "/"
        self.reason = reason
        self.tool = tool
        detail = f": {reason}" if reason else ""
        whose = f"tool {tool!r}: " if tool is not None else ""
        super().__init__(f"{whose}{target} cannot express {keyword!r} at {self.pointer}{detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.target, self.keyword, self.pointer, self.reason, self.tool))


class PluginError(StandardToolError):
    """The plugin registry cannot do what was asked."""


class UnknownTargetError(PluginError, LookupError):
    """No installed adapter exports to the requested target."""

    def __init__(self, target: str, installed: Sequence[str], provider: str | None = None) -> None:
        self.target = target
        self.installed = tuple(installed)
        self.provider = provider
        """The distribution that provides ``target``, when it is a known one."""
        listing = ", ".join(repr(name) for name in self.installed) or "none"
        hint = f" (install {provider!r} to add it)" if provider else ""
        super().__init__(f"Unknown target {target!r}{hint}; installed targets: {listing}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.target, self.installed, self.provider))


class UsageError(StandardToolError, TypeError):
    """The developer used the API wrongly: a bad tool definition or a bad argument."""


class ToolNameError(UsageError, ValueError):
    """A tool name breaks a target's naming rules, or two names collide."""


class ToolTimeoutError(ToolExecutionError):
    """A tool did not finish within its time limit, and the caller stopped waiting.

    A sync tool's thread cannot be stopped: it runs on, and its result is dropped.

    Attributes:
        tool: the tool's name.
        seconds: the limit.
    """

    def __init__(self, tool: str, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(tool, f"no result within {seconds:g} s (timed out)")

    def __reduce__(self) -> tuple[type[ToolTimeoutError], tuple[str, float]]:
        return (type(self), (self.tool, self.seconds))


class NotJsonError(StandardToolError, ValueError):
    """A value is not JSON data and cannot be made JSON data (see ``standard_tool.jsonable``).

    Attributes:
        issues: where the value breaks the JSON rules and which rule, never the value itself.
    """

    def __init__(self, issues: Iterable[Issue]) -> None:
        self.issues: tuple[Issue, ...] = tuple(issues)
        shown = "; ".join(str(issue) for issue in self.issues[:5])
        more = f"; ... and {len(self.issues) - 5} more" if len(self.issues) > 5 else ""
        super().__init__(f"not JSON data: {shown}{more}")

    def __reduce__(self) -> tuple[type[NotJsonError], tuple[tuple[Issue, ...]]]:
        return (type(self), (self.issues,))


class ModelOutputError(StandardToolError, ValueError):
    """A model's raw completion cannot be read as tool calls: truncated, malformed, or
    ambiguous. The message says where and why, never quoting the completion."""


class InputGenerationError(StandardToolError, ValueError):
    """No input can be generated from a tool's input schema (``standard_tool.checks``): the
    schema admits no value, or uses what the generator cannot draw from."""


class StepTimeoutError(StandardToolError, TimeoutError):
    """A step of a check (a conversion, a framework's call) did not end within its time
    limit; it may still be running, in a daemon thread."""
