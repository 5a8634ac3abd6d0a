"""The core's own plugin: target ``standard``, the model providers' envelopes (``openai``,
``anthropic``, ``gemini``, ``hf``: plain dicts, with a runtime that answers a model's calls
through ``run_tool_calls``; nothing adopts them back), and adoption of plain typed
functions."""

from __future__ import annotations

from types import FunctionType, MethodType
from typing import Any

from ._probe import is_instance
from .hookspecs import TargetInfo, hookimpl

TARGET = "standard"
PROVIDER_TARGETS = ("anthropic", "gemini", "hf", "openai")
"""Targets whose export is a provider's tool declaration (``standard_tool.providers``)."""
DISTRIBUTION = "standard-tool"


@hookimpl
def standard_tool_targets() -> list[TargetInfo]:
    return [TargetInfo.installed(name, DISTRIBUTION) for name in (TARGET, *PROVIDER_TARGETS)]


@hookimpl
def standard_tool_export(tool: Any, target: str, options: dict[str, Any]) -> Any:
    if target == TARGET:
        return tool
    if target in PROVIDER_TARGETS:
        from . import providers

        export = getattr(providers, f"to_{target}")
        return export(tool, **options)
    return None


@hookimpl
def standard_tool_runtime(target: str) -> Any:
    if target in PROVIDER_TARGETS:
        from ._provider_runtime import ProviderRuntime

        return ProviderRuntime(target)
    return None


@hookimpl(trylast=True)
def standard_tool_adopt(obj: Any) -> Any:
    if is_instance(obj, (FunctionType, MethodType)):
        from ._tool import Tool

        return Tool.from_function(obj)
    return None
