"""The adapter kit: everything an adapter shares, so an adapter is only what is specific to
its framework.

- :class:`Adapter` declares an adapter's plugin (its three hooks) once.
- :func:`lazy_exports` gives an adapter package ``__all__`` and names loaded on first use.
- :class:`AdoptedTool` is the base of every adapter's adopted tool (a framework's own tool
  run as a standard tool), on :class:`WrapperTool`, the base of tool wrappers too.
  :func:`not_adoptable` refuses what an adapter's ``from_x`` does not take, and
  :func:`adopt_all` adopts the tools of one object or several for ``from_x_tools``.
- :func:`result_text` is a result as the text a model reads.
- :func:`build_context` builds a call's standard context with an adapter's context getter
  (:func:`context_failed` when the getter raises); :class:`AmbientContext` is the context set
  around a run, for a framework with no per-call object.
- :func:`pack_metadata` / :func:`unpack_metadata` carry what a framework has no slot for
  under :data:`METADATA_KEY`.
- :func:`to_export` is what ``to_x(tool, name=...)`` exports, under which name;
  :func:`export_tools` exports one tool or a list under a target's name rule;
  :func:`adopt_each` adopts one tool or each of a list, naming an element that is no tool.
- :func:`issues_from_pydantic` turns a pydantic ``ValidationError`` into issues;
  :data:`LARGE_NUMBER` says what JSON with a number longer than Python reads holds.
- :func:`accepting` (from a value) and :func:`accepting_json` (from JSON text) check a
  call's input once, with the tool's own check, in a framework's validation step;
  :func:`call_accepted` / :func:`acall_accepted` then run the call on the :class:`Accepted`
  input without checking it again.
- :func:`keyword_functions` runs a tool as a function and a coroutine of keyword arguments.
- :class:`BaseRuntime` is the shared half of a framework's :class:`Runtime`, which runs the
  adapter's objects as the framework does and reports each call as a :class:`NativeOutcome`;
  :func:`non_object_refusal` is the error a direct call raises for arguments that are no
  JSON object, which every runtime answers with.

The conventions every adapter follows (the guide "Write an adapter" of the documentation site,
``docs/how-to/write-an-adapter.md``, has them with an example):
``to_x(tool)`` takes anything :func:`standard_tool.adopt` takes and returns the framework's
object under a name the target accepts; ``to_x_tools(tools)`` takes one tool or several and
refuses colliding names; ``from_x(obj)`` refuses foreign objects with
``UnsupportedObjectError``.
"""

from ._protocols import NativeOutcome, Runtime
from .plugins._adapter import Adapter, lazy_exports
from .plugins._adopted import AdoptedTool, adopt_all, not_adoptable
from .plugins._context import AmbientContext, build_context, context_failed
from .plugins._metadata import (
    METADATA_KEY,
    Stored,
    adopt_each,
    as_tools,
    export_tools,
    pack_metadata,
    to_export,
    unpack_metadata,
)
from .plugins._runtime import BaseRuntime, non_object_refusal
from .run._accepted import Accepted, acall_accepted, accepting, accepting_json, call_accepted
from .schema._json import LARGE_NUMBER, result_text
from .schema._schema import issues_from_pydantic
from .tools._wrapper import WrapperTool, keyword_functions

__all__ = [
    "LARGE_NUMBER",
    "METADATA_KEY",
    "Accepted",
    "Adapter",
    "AdoptedTool",
    "AmbientContext",
    "BaseRuntime",
    "NativeOutcome",
    "Runtime",
    "Stored",
    "WrapperTool",
    "acall_accepted",
    "accepting",
    "accepting_json",
    "adopt_all",
    "adopt_each",
    "as_tools",
    "build_context",
    "call_accepted",
    "context_failed",
    "export_tools",
    "issues_from_pydantic",
    "keyword_functions",
    "lazy_exports",
    "non_object_refusal",
    "not_adoptable",
    "pack_metadata",
    "result_text",
    "to_export",
    "unpack_metadata",
]
