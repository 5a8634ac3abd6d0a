"""Sample tools covering the shapes an adapter must carry, with valid and invalid calls.

Between them: sync (``add``) and async (``greet``, ``plan``) tools; no arguments (``ping``);
nested models and ``$defs`` (``greet``, ``plan``, ``search``); optional and nullable fields;
enums and literals (``plan``, ``search``); unions (``plan``'s label, ``search``'s filter); lists
of objects (``plan``); defaults; output schemas (``search``, ``plan``); a tool that raises
(``explode``); one that uses its context (``whoami``); a long description and a name with a
dot (``catalog.lookup``).
"""

from __future__ import annotations

import asyncio
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, Field

from .._protocols import StandardTool
from ..tools._tool import Tool, tool

__all__ = ["INVALID_CALLS", "SECRET", "VALID_CALLS", "sample_tools"]

SECRET = "s3cr3t-context-token"
"""A value placed in every per-call context; it must never reach a model."""


class Address(BaseModel):
    street: str
    city: str = Field(description="City name.")
    zip_code: str | None = None


class Person(BaseModel):
    name: str = Field(min_length=1)
    tags: list[str] = []
    address: Address | None = None


class Priority(str, Enum):
    low = "low"
    high = "high"


class Step(BaseModel):
    title: str = Field(min_length=1)
    minutes: int = Field(ge=0, description="How long it takes.")
    kind: Literal["work", "break"] = "work"


class Plan(BaseModel):
    steps: list[Step]
    total: int
    priority: Priority
    label: str | int | None


def _add(a: int, b: int = 1) -> int:
    """Add two integers.

    Args:
        a: The first addend.
        b: The second addend.
    """
    return a + b


async def _greet(person: Person, shout: bool = False) -> str:
    """Greet a person by name.

    Args:
        person: Who to greet.
        shout: Whether to shout.
    """
    await asyncio.sleep(0)
    text = f"Hello, {person.name}" + (f" from {person.address.city}" if person.address else "")
    return text.upper() if shout else text


def _explode(reason: str) -> str:
    """Fail on purpose.

    Args:
        reason: Why it fails.
    """
    raise RuntimeError(f"exploded: {reason}")


def _whoami(label: str, context: Any = None) -> dict[str, Any]:
    """Say whether a per-call context arrived, without revealing it.

    Args:
        label: Echoed back.
    """
    return {"label": label, "has_context": context is not None}


_SCHEMA_TOOL_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "description": "What to look for."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 5},
        "filters": {
            "anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}],
            "description": "Optional filter.",
        },
        "mode": {"enum": ["fast", "deep"]},
    },
    "required": ["query"],
    "additionalProperties": False,
    "$defs": {
        "Filter": {
            "type": "object",
            "properties": {"field": {"type": "string"}, "equals": {"type": ["string", "number"]}},
            "required": ["field", "equals"],
            "additionalProperties": False,
        }
    },
}
_SCHEMA_TOOL_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "hits": {"type": "array", "items": {"type": "string"}},
        "total": {"type": "integer"},
    },
    "required": ["hits", "total"],
}


def _search(input: dict[str, Any]) -> dict[str, Any]:
    limit = input.get("limit", 5)
    hits = [f"{input['query']}-{i}" for i in range(min(limit, 3))]
    return {"hits": hits, "total": len(hits)}


def _ping() -> str:
    """Answer pong; takes no arguments."""
    return "pong"


async def _plan(
    steps: list[Step], priority: Priority = Priority.low, label: str | int | None = None
) -> Plan:
    """Plan steps in order and add up their minutes.

    Args:
        steps: The steps, each with a title, minutes and a kind.
        priority: How urgent the plan is.
        label: A name or a number for the plan, or null.
    """
    await asyncio.sleep(0)
    return Plan(steps=steps, total=sum(s.minutes for s in steps), priority=priority, label=label)


LOOKUP_DESCRIPTION = "Look an item up in the catalogue by its stock-keeping unit.\n\n" + "\n".join(
    f"Rule {i}: a unit is letters, a dash and digits; an unknown unit gives null."
    for i in range(1, 13)
)
"""A long description, of several lines (1,024 characters at most: LlamaIndex's limit)."""


def _lookup(sku: str, fields: list[str] | None = None) -> dict[str, Any] | None:
    item = {"sku": sku, "name": f"item {sku}", "price": 9.5}
    if not sku.startswith("A-"):
        return None
    return {k: v for k, v in item.items() if fields is None or k in fields}


def sample_tools() -> dict[str, StandardTool]:
    """Fresh sample tools covering the shapes an adapter must carry, by name."""
    return {
        "add": tool(_add, name="add"),
        "greet": tool(
            _greet, name="greet", title="Greeter", meta={"read_only": True, "category": "social"}
        ),
        "search": Tool(
            name="search",
            title="Search",
            description="Search the catalogue.",
            input_schema=_SCHEMA_TOOL_INPUT,
            output_schema=_SCHEMA_TOOL_OUTPUT,
            execute=_search,
            meta={"destructive": False, "idempotent": True},
        ),
        "explode": tool(_explode, name="explode"),
        "whoami": tool(_whoami, name="whoami"),
        "ping": tool(_ping, name="ping"),
        "plan": tool(_plan, name="plan", title="Planner"),
        "catalog.lookup": tool(_lookup, name="catalog.lookup", description=LOOKUP_DESCRIPTION),
    }


# A valid call, and its expected result as JSON data, for each sample tool.
VALID_CALLS: dict[str, tuple[dict[str, Any], Any]] = {
    "add": ({"a": 2, "b": 3}, 5),
    "greet": (
        {"person": {"name": "Ada", "address": {"street": "1 Loop", "city": "Paris"}}},
        "Hello, Ada from Paris",
    ),
    "search": ({"query": "lamp", "limit": 2}, {"hits": ["lamp-0", "lamp-1"], "total": 2}),
    "whoami": ({"label": "x"}, {"label": "x", "has_context": True}),
    "ping": ({}, "pong"),
    "plan": (
        {"steps": [{"title": "a", "minutes": 5}, {"title": "b", "minutes": 10, "kind": "break"}]},
        {
            "steps": [
                {"title": "a", "minutes": 5, "kind": "work"},
                {"title": "b", "minutes": 10, "kind": "break"},
            ],
            "total": 15,
            "priority": "low",
            "label": None,
        },
    ),
    "catalog.lookup": (
        {"sku": "A-1", "fields": ["sku", "price"]},
        {"sku": "A-1", "price": 9.5},
    ),
}
# An invalid call and a field the error must name, for each sample tool with input.
INVALID_CALLS: dict[str, tuple[Any, str]] = {
    "add": ({"a": "two"}, "a"),
    "greet": ({"person": {"name": ""}}, "name"),
    "search": ({"query": "lamp", "limit": 500}, "limit"),
    "plan": ({"steps": [{"title": "a", "minutes": -1}]}, "minutes"),
    "catalog.lookup": ({"sku": ["A-1"]}, "sku"),
}
