"""The core's own plugin: target ``standard``, the model providers' envelopes (``openai``,
``anthropic``, ``gemini``, ``hf``: plain dicts, with a runtime that answers a model's calls
through ``run_tool_calls``; nothing adopts them back), and adoption of plain typed
functions.

The providers are declared as any adapter is (:class:`~standard_tool.adapters.Adapter`,
functions named by ``"module:name"`` and imported on first use), so neither this plugin nor
the registry imports them.
"""

from __future__ import annotations

from types import FunctionType, MethodType
from typing import Any

from .._probe import is_instance
from ..tools._tool import Tool
from ._adapter import Adapter
from ._hookspecs import TargetInfo, hookimpl

__all__ = ["DISTRIBUTION", "PROVIDERS", "TARGET"]

TARGET = "standard"
DISTRIBUTION = "standard-tool"
PROVIDERS = {
    name: Adapter(
        target=name,
        distribution=DISTRIBUTION,
        export=f"standard_tool.providers:to_{name}",
        runtime=f"standard_tool.providers._runtime:{name.upper()}",
    )
    for name in ("anthropic", "gemini", "hf", "openai")
}
"""The provider targets (their exports are ``standard_tool.providers``' declarations)."""


@hookimpl
def standard_tool_targets() -> list[TargetInfo]:
    own = [TargetInfo.installed(TARGET, DISTRIBUTION)]
    return own + [
        info for adapter in PROVIDERS.values() for info in adapter.standard_tool_targets()
    ]


@hookimpl
def standard_tool_export(tool: Any, target: str, options: dict[str, Any]) -> Any:
    if target == TARGET:
        return tool
    adapter = PROVIDERS.get(target)
    return None if adapter is None else adapter.standard_tool_export(tool, target, options)


@hookimpl
def standard_tool_runtime(target: str) -> Any:
    adapter = PROVIDERS.get(target)
    return None if adapter is None else adapter.standard_tool_runtime(target)


@hookimpl(trylast=True)
def standard_tool_adopt(obj: Any) -> Any:
    if is_instance(obj, (FunctionType, MethodType)):
        return Tool.from_function(obj)
    return None
