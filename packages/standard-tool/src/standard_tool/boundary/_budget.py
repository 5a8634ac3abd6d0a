"""Budgets: how many calls a tool, an actor or a tenant may make, per period or in all."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal

from ..exceptions import UsageError
from ._types import CallRequest

__all__ = ["Budget"]


@dataclass(frozen=True)
class Budget:
    """At most ``limit`` calls per ``per`` seconds (a token bucket, refilled evenly), or in all
    when ``per`` is ``None``, counted separately for each tool, actor or tenant (``key``).

    ``tools`` limits the budget to those tool names (default: every tool the gate guards); it
    is kept as a frozenset. A call with no actor (or tenant) counts under the empty name.
    """

    limit: int
    per: float | None = None
    key: Literal["tool", "actor", "tenant"] = "tool"
    tools: Collection[str] | None = None
    _terms: str = field(init=False, repr=False, compare=False, default="")

    def __post_init__(self) -> None:
        if type(self.limit) is not int or self.limit < 0:
            raise UsageError(f"a budget's limit is a whole number of calls, not {self.limit!r}")
        if self.per is not None and not (
            type(self.per) in (int, float) and self.per > 0 and self.per != float("inf")
        ):
            raise UsageError(f"a budget's period is a number of seconds, not {self.per!r}")
        if self.key not in ("tool", "actor", "tenant"):
            raise UsageError(f"a budget counts per 'tool', 'actor' or 'tenant', not {self.key!r}")
        if self.tools is not None:
            # A string is a collection of letters: "transfer" would match "trans" and "t".
            if isinstance(self.tools, str) or not all(isinstance(t, str) for t in self.tools):
                raise UsageError("a budget's tools are a collection of tool names, not a string")
            object.__setattr__(self, "tools", frozenset(self.tools))
        tools = None if self.tools is None else sorted(self.tools)
        terms = json.dumps([self.limit, self.per, tools, self.key], ensure_ascii=False)
        object.__setattr__(self, "_terms", terms[:-1])

    def applies(self, request: CallRequest) -> bool:
        return self.tools is None or request.tool in self.tools

    def bucket(self, request: CallRequest) -> str:
        """The store's key for this call's bucket: the budget's terms, then whose it is, as
        one JSON array (``[limit, per, tools, key, who]``), so that no two budgets or callers
        share a bucket whatever their names hold (``,``, ``:``, quotes)."""
        who = {"tool": request.tool, "actor": request.actor, "tenant": request.tenant}[self.key]
        return f"budget:{self._terms}, {json.dumps(who or '', ensure_ascii=False)}]"
