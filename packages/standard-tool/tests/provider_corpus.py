"""Hard schemas for the provider envelopes, and one rule checker per provider written from
its documentation (not from the renderer): what a rendered declaration must satisfy."""

from __future__ import annotations

import json
from collections.abc import Iterator
from enum import Enum, IntEnum
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

import standard_tool as st

DATA = Path(__file__).resolve().parent / "data"


class Address(BaseModel):
    street: str
    city: str = "Paris"
    zip: Annotated[str, Field(min_length=5, max_length=5, pattern="^[0-9]+$")] | None = None


class Person(BaseModel):
    name: str
    home: Address
    work: Address | None = None  # the same model twice: not recursion
    nicknames: list[str] = []


class Node(BaseModel):
    value: int
    children: list[Node] = []


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


class Size(str, Enum):
    S = "s"
    L = "l"


class Level(IntEnum):
    LOW = 1
    HIGH = 2


def nested(person: Person, friends: list[Person] = []) -> str:  # noqa: B006
    """Store a person and their friends.

    Args:
        person: Who.
        friends: Their friends.
    """
    return person.name


def unions(
    pet: Annotated[Cat | Dog, Field(discriminator="kind")],
    key: int | str = 0,
    other: Cat | Dog | None = None,
) -> str:
    """Adopt a pet."""
    return pet.kind


def tree(root: Node, depth: int = 1) -> int:
    """Walk a tree."""
    return root.value


def enums(
    size: Size,
    level: Level = Level.LOW,
    mode: Literal["a", "b", 3] = "a",
    fixed: Literal["only"] = "only",
) -> str:
    """Pick enums."""
    return str(size)


def optional_and_nullable(
    required_nullable: int | None,
    count: Annotated[int, Field(ge=1, lt=100)] = 5,
    label: str | None = None,
    url: Annotated[str, Field(json_schema_extra={"format": "uri"})] = "https://example.com",
    ratio: Annotated[float, Field(gt=0, le=1, multiple_of=0.25)] = 0.5,
    point: tuple[int, str] = (1, "a"),
) -> str:
    """Optional and nullable fields."""
    return ""


def nothing() -> str:
    """Take no arguments."""
    return "ok"


LONG = "Read the whole manual before calling. " * 200


def long_description(text: str) -> str:
    return text


RAW: dict[str, dict[str, Any]] = {
    "draft07_nullable": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"q": {"type": ["string", "null"]}, "n": {"type": "integer"}},
        "additionalProperties": False,
    },
    "root_recursion": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "child": {"$ref": "#"}},
        "required": ["name"],
    },
    "root_any_of": {
        "anyOf": [
            {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
            {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]},
        ]
    },
    "free_object": {"type": "object"},
    "mapping": {
        "type": "object",
        "properties": {"env": {"type": "object", "additionalProperties": {"type": "string"}}},
    },
    "type_lists": {
        "type": "object",
        "properties": {
            "v": {"type": ["integer", "string", "null"], "minimum": 0, "minLength": 1},
            "c": {"const": 3},
            "arr": {"type": "array"},
            "any": {},
            "ints": {"enum": [1, 2, None]},
        },
    },
    "combinators": {
        "type": "object",
        "properties": {
            "x": {"oneOf": [{"type": "integer"}, {"type": "boolean"}]},
            "y": {"allOf": [{"type": "integer"}, {"minimum": 2}]},
            "z": {"type": "string", "not": {"const": "no"}},
            "w": {
                "type": "object",
                "properties": {"p": {"type": "integer"}},
                "if": {"properties": {"p": {"const": 1}}},
                "then": {"required": ["p"]},
            },
        },
        "required": ["x"],
    },
}


def tools() -> dict[str, st.StandardTool]:
    """Every tool of the corpus, by a label."""
    out: dict[str, st.StandardTool] = {
        f.__name__: st.tool(f)
        for f in (nested, unions, tree, enums, optional_and_nullable, nothing)
    }
    out["long_description"] = st.tool(long_description, description=LONG)
    out["dotted.name"] = st.tool(nothing, name="files.read.all")
    for label, schema in RAW.items():
        out[label] = st.Tool(name=label, description=label, input_schema=schema, execute=_echo)
    for server, listed in json.loads((DATA / "mcp_server_schemas.json").read_text()).items():
        for tool in listed:
            out[f"{server}/{tool['name']}"] = st.Tool(
                name=tool["name"],
                description=tool["description"] or "",
                input_schema=tool["inputSchema"],
                execute=_echo,
            )
    return out


def _echo(input: Any) -> Any:
    return input


RECURSIVE = {"tree", "root_recursion"}
"""Labels whose schema is recursive (Gemini ``parameters`` refuses them)."""
NOT_STRICT = {"mapping", "type_lists"}
"""Labels whose schema has no OpenAI strict form (a mapping, a position accepting anything)."""
NOT_GEMINI = {"mapping", "type_lists"}
"""Labels whose schema has no Gemini ``parameters`` form: a mapping (no declared properties),
a position accepting values of any type (Gemini types every position)."""


# --- the rules, from the providers' documentation ---------------------------------------------

NAME_OPENAI = r"^[a-zA-Z0-9_-]{1,64}$"
NAME_GEMINI = r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$"
STRICT_SUPPORTED = {
    "type", "properties", "required", "additionalProperties", "items", "enum", "anyOf", "$ref",
    "$defs", "description", "title", "pattern", "format", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems", "const",
}  # fmt: skip
STRICT_FORMATS = {
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
}
GEMINI_SUPPORTED = {
    "type", "format", "title", "description", "nullable", "enum", "items", "properties",
    "required", "anyOf", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength",
    "pattern", "default", "propertyOrdering", "example", "minProperties", "maxProperties",
}  # fmt: skip
GEMINI_TYPES = {"string", "number", "integer", "boolean", "array", "object"}


def subschemas(schema: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object under ``schema`` with its pointer (values of ``enum``, ``const``,
    ``default`` and ``example`` are data, not schemas)."""
    if not isinstance(schema, dict):
        return
    yield pointer, schema
    for key, value in schema.items():
        if key in ("properties", "$defs", "patternProperties", "dependentSchemas") and isinstance(
            value, dict
        ):
            for name, sub in value.items():
                yield from subschemas(sub, f"{pointer}/{key}/{name}")
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from subschemas(sub, f"{pointer}/{key}/{i}")
        elif key in ("items", "additionalProperties", "not", "if", "then", "else", "contains"):
            yield from subschemas(value, f"{pointer}/{key}")


def check_openai(declaration: dict[str, Any], api: str) -> list[str]:
    """Problems OpenAI's function-calling guide names, for one declaration."""
    import re

    problems = []
    function = declaration["function"] if api == "chat" else declaration
    if declaration.get("type") != "function":
        problems.append("type is not 'function'")
    if not re.match(NAME_OPENAI, function["name"]):
        problems.append(f"name {function['name']!r}")
    schema = function["parameters"]
    if schema.get("type") != "object":
        problems.append("root is not an object")
    for key in ("anyOf", "oneOf", "allOf", "not", "enum"):
        if key in schema:
            problems.append(f"root has {key}")
    for pointer, node in subschemas(schema):
        types = node.get("type")
        types = [types] if isinstance(types, str) else types or []
        if "array" in types and "items" not in node:
            problems.append(f"{pointer}: array without items")
        if "$ref" in node:
            ref = node["$ref"]
            if not (ref == "#" or ref.startswith("#/$defs/")):
                problems.append(f"{pointer}: $ref {ref!r}")
            elif ref != "#" and ref.split("/")[-1] not in schema.get("$defs", {}):
                problems.append(f"{pointer}: $ref to nothing")
    if function.get("strict"):
        problems += _strict_problems(schema)
    return problems


def _strict_problems(schema: dict[str, Any]) -> list[str]:
    problems = []
    properties = enum_values = 0
    for pointer, node in subschemas(schema):
        for key in node:
            if key not in STRICT_SUPPORTED:
                problems.append(f"{pointer}: {key} is not supported in strict mode")
        if node.get("format") is not None and node["format"] not in STRICT_FORMATS:
            problems.append(f"{pointer}: format {node['format']!r}")
        if "$ref" in node and len(node) > 1:
            problems.append(f"{pointer}: $ref with siblings")
        if not any(k in node for k in ("type", "anyOf", "$ref")) and pointer != "":
            problems.append(f"{pointer}: no type")
        types = node.get("type")
        types = [types] if isinstance(types, str) else types or []
        if "object" in types:
            if node.get("additionalProperties") is not False:
                problems.append(f"{pointer}: additionalProperties is not false")
            if "properties" not in node:
                problems.append(f"{pointer}: object without properties")
            if set(node.get("required", [])) != set(node.get("properties", {})):
                problems.append(f"{pointer}: not every property is required")
            properties += len(node.get("properties", {}))
        enum_values += len(node.get("enum", []))
    if properties > 5000 or enum_values > 1000:
        problems.append("over the strict-mode limits")
    return problems


def check_anthropic(declaration: dict[str, Any]) -> list[str]:
    """Problems Anthropic's tool-use documentation names."""
    import re

    problems = []
    if set(declaration) - {"name", "description", "input_schema"}:
        problems.append("unknown keys")
    if not re.match(NAME_OPENAI, declaration["name"]):
        problems.append(f"name {declaration['name']!r}")
    schema = declaration["input_schema"]
    if schema.get("type") != "object":
        problems.append("root is not an object")
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            problems.append(f"root has {key}")
    for pointer, node in subschemas(schema):
        ref = node.get("$ref")
        if ref is not None and not (ref == "#" or ref.split("/")[-1] in schema.get("$defs", {})):
            problems.append(f"{pointer}: $ref to nothing")
    return problems


def check_gemini(declaration: dict[str, Any], field: str) -> list[str]:
    """Problems Gemini's function-calling documentation names."""
    import re

    problems = []
    if not re.match(NAME_GEMINI, declaration["name"]):
        problems.append(f"name {declaration['name']!r}")
    schema = declaration.get(field)
    if schema is None:
        return problems
    if schema.get("type") != "object":
        problems.append("root is not an object")
    if field == "parametersJsonSchema":
        return problems
    for pointer, node in subschemas(schema):
        for key in node:
            if key not in GEMINI_SUPPORTED:
                problems.append(f"{pointer}: {key} is not in Gemini's schema")
        types = node.get("type")
        if types is not None and types not in GEMINI_TYPES:
            problems.append(f"{pointer}: type {types!r}")
        if "enum" in node and not all(isinstance(v, str) for v in node["enum"]):
            problems.append(f"{pointer}: enum of non-strings")
        if "anyOf" in node and set(node) - {"anyOf", "description", "title", "nullable", "default"}:
            problems.append(f"{pointer}: anyOf is not alone")
        if pointer and types is None and "anyOf" not in node:
            problems.append(f"{pointer}: no type")
        if types == "array" and not isinstance(node.get("items"), dict):
            problems.append(f"{pointer}: array without items")
        if types == "object":
            if not node.get("properties"):
                problems.append(f"{pointer}: object with empty properties")
            missing = set(node.get("required", [])) - set(node.get("properties", {}))
            if missing:
                problems.append(f"{pointer}: required names missing from properties")
    return problems


def check_hf(declaration: dict[str, Any]) -> list[str]:
    """The shape ``apply_chat_template(tools=...)`` takes (``get_json_schema``'s)."""
    problems = []
    if declaration.get("type") != "function" or set(declaration) != {"type", "function"}:
        problems.append("not a function tool")
    function = declaration["function"]
    if not {"name", "description", "parameters"} <= set(function):
        problems.append("missing keys")
    if function["parameters"].get("type") != "object":
        problems.append("root is not an object")
    for pointer, node in subschemas(function["parameters"]):
        if "$ref" in node and node["$ref"] != "#" and "$defs" not in function["parameters"]:
            problems.append(f"{pointer}: $ref to nothing")
    return problems


def json_schema_of(rendered: Any) -> Any:
    """An OpenAPI-style schema (``nullable``) as the JSON Schema it means, for validation."""
    if isinstance(rendered, list):
        return [json_schema_of(item) for item in rendered]
    if not isinstance(rendered, dict):
        return rendered
    out = {k: json_schema_of(v) for k, v in rendered.items() if k != "nullable"}
    if isinstance(rendered.get("properties"), dict):
        out["properties"] = {k: json_schema_of(v) for k, v in rendered["properties"].items()}
    if rendered.get("nullable") is True:
        return {"anyOf": [out, {"type": "null"}]}
    return out
