"""Property tests: inputs generated from each original schema stay valid under every rendered
schema, and reach the tool unchanged through the return half.

Run by the ``providers`` session (``hypothesis`` and ``hypothesis-jsonschema``).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as hs
from hypothesis_jsonschema import from_schema

import standard_tool as st
from standard_tool.dialects import convert_schema
from standard_tool.exceptions import SchemaNotExpressibleError
from standard_tool.providers import (
    run_tool_calls,
    strict_arguments,  # how a strict-mode model writes a value
    to_anthropic,
    to_hf,
    to_openai,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import provider_corpus as corpus  # noqa: E402

TOOLS = corpus.tools()
GENERATED = sorted(
    label
    for label in TOOLS
    if label not in corpus.RECURSIVE and label not in ("long_description", "dotted.name")
)
"""Every tool of the corpus whose schema hypothesis-jsonschema can generate from."""
DIALECTS = ("openai", "anthropic", "gemini-json-schema", "gemini", "hf")
SETTINGS = settings(
    max_examples=40,
    derandomize=True,  # the same examples on every run: CI passes or fails for a reason
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _original(label: str) -> dict[str, Any]:
    return st.input_json_schema(TOOLS[label])


def _inputs(label: str) -> Any:
    """Values generated from the tool's schema (hypothesis-jsonschema reads draft-07), kept
    only when valid under the original."""
    original = _original(label)
    valid = jsonschema.Draft202012Validator(original).is_valid
    schema: Any = convert_schema(original, "draft-07")
    schema.pop("$schema", None)
    return from_schema(schema).filter(_json_ok).filter(valid)


def _rendered(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` in every dialect, as the JSON Schema it means; Gemini ``parameters`` left
    out where they refuse it, for a position Gemini cannot type (checked on the schema)."""
    rendered = {}
    for dialect in DIALECTS:
        try:
            rendered[dialect] = corpus.json_schema_of(convert_schema(schema, dialect))
        except SchemaNotExpressibleError as error:
            if dialect != "gemini":
                raise
            _check_gemini_refusal(schema, error)
    return rendered


_SAMPLES = ("s", 1, 1.5, True, None, [], {})
"""A value of each JSON kind."""


def _check_gemini_refusal(schema: dict[str, Any], error: SchemaNotExpressibleError) -> None:
    """The refusal names a position of ``schema`` Gemini has no type for: an object that
    declares no property, or a position that accepts several kinds of values or null alone.

    The pointer is Gemini's position, after nested and nullable ``anyOf`` are flattened, so it
    need not be a position of ``schema`` itself: the position it names, or another position of
    ``schema``, must be such."""
    assert "field='parametersJsonSchema'" in error.reason, error
    assert error.keyword in ("properties", "type"), error
    try:
        nodes = [_at(schema, error.pointer)]
    except (KeyError, IndexError, TypeError, ValueError):
        nodes = []
    nodes += _subschemas(schema)  # where the flattened position is not one of the schema's
    assert any(_untypeable(schema, node, error.keyword) for node in nodes), error


def _untypeable(schema: dict[str, Any], node: Any, keyword: str) -> bool:
    if not isinstance(node, dict):
        return node is True
    node = _not_null(node)  # Gemini's node for a nullable anyOf
    if keyword == "properties":
        return node.get("type") == "object" and not node.get("properties")
    accepts = jsonschema.Draft202012Validator({**node, "$defs": schema.get("$defs", {})}).is_valid
    kinds = {type(value) for value in _SAMPLES if accepts(value)}
    return len(kinds) > 1 or kinds == {type(None)}


def _subschemas(node: Any) -> Any:
    """Every subschema of ``node``, an array's missing ``items`` as ``{}``."""
    if isinstance(node, dict):
        yield node
        if node.get("type") == "array" and "items" not in node:
            yield {}
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for sub in value.values():
                    yield from _subschemas(sub)
            elif key in ("anyOf", "oneOf", "allOf", "prefixItems"):
                for sub in value:
                    yield from _subschemas(sub)
            elif key in ("items", "additionalProperties", "not"):
                yield from _subschemas(value)
    elif node is True:
        yield {}


def _at(schema: Any, pointer: str) -> Any:
    """The subschema at ``pointer``: an array's ``items`` it does not say are ``{}``. The
    pointer is Gemini's position, where a nullable ``anyOf`` is one node (``nullable``): a
    token missing from such a node is read in its branch that is not null."""
    node = schema
    tokens = [t for t in pointer.split("/")[1:] if t]
    for i, token in enumerate(tokens):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token not in node:
            node = _not_null(node)
        if isinstance(node, list):
            node = node[int(token)]
        elif token == "items" and i == len(tokens) - 1 and token not in node:
            node = {}
        else:
            node = node[token]
    return {} if node is True else node


def _not_null(node: dict[str, Any]) -> Any:
    """The one branch of ``node``'s ``anyOf``/``oneOf`` that is not ``{"type": "null"}``,
    or ``node`` itself."""
    for key in ("anyOf", "oneOf"):
        rest = [b for b in node.get(key, []) if b != {"type": "null"}]
        if len(rest) == 1 and isinstance(rest[0], dict):
            return rest[0]
    return node


def _json_ok(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("label", GENERATED)
def test_generated_inputs_stay_valid_under_every_rendering(label: str) -> None:
    original = _original(label)
    rendered = _rendered(original)
    assert ("gemini" in rendered) is (label not in corpus.NOT_GEMINI)
    validators = {d: jsonschema.Draft202012Validator(s) for d, s in rendered.items()}
    tool = TOOLS[label]

    @SETTINGS
    @given(_inputs(label))
    def check(value: Any) -> None:
        st.call(tool, copy.deepcopy(value))  # the tool accepts it
        for dialect, validator in validators.items():
            errors = [e.message for e in validator.iter_errors(value)]
            assert not errors, (dialect, errors)

    check()


@pytest.mark.parametrize("label", GENERATED)
@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "hf"])
def test_generated_inputs_reach_the_tool_unchanged(label: str, provider: str) -> None:
    original = _original(label)
    strict = provider == "openai" and to_openai(TOOLS[label])["strict"]
    seen: list[Any] = []
    spy = st.Tool(
        name=TOOLS[label].name,
        description="",
        input_schema=original,
        execute=lambda value: seen.append(value) or "ok",
    )
    strict_schema = to_openai(spy)["parameters"] if strict else None

    @SETTINGS
    @given(_inputs(label), hs.text(min_size=1, max_size=8))
    def check(value: Any, call_id: str) -> None:
        seen.clear()
        sent = strict_arguments(value, strict_schema) if strict else value
        # Strict mode merges object branches into one closed object, typing a key that the
        # branch the value matches leaves open (``{"a": 0, "b": []}`` under
        # ``anyOf: [{a: integer}, {b: string}]``): such a value cannot be written there.
        assume(not strict or jsonschema.Draft202012Validator(strict_schema).is_valid(sent))
        name = to_openai(spy)["name"] if provider != "gemini" else spy.name
        call = _call(provider, call_id, name, sent)
        [answer] = run_tool_calls([spy], call, provider=provider)
        assert _answered_ok(provider, answer, call_id), answer
        if strict:
            assert len(seen) == 1 and _same_but_nulls(seen[0], value), (seen, value)
        else:
            assert seen == [value]

    check()


def _same_but_nulls(received: Any, value: Any) -> bool:
    """Whether ``received`` is ``value`` after the strict round trip: equal, except that an
    absent property may arrive as ``null`` (where the tool's schema allows it: the tool
    validated what it received) and an undeclared key of an open object is gone."""
    if isinstance(value, dict):
        if not isinstance(received, dict):
            return False
        return all(
            _same_but_nulls(item, value[key]) if key in value else item is None
            for key, item in received.items()
        )
    if isinstance(value, list):
        return (
            isinstance(received, list)
            and len(received) == len(value)
            and all(map(_same_but_nulls, received, value))
        )
    return bool(received == value) and type(received) is type(value)


def _answered_ok(provider: str, answer: dict[str, Any], call_id: str) -> bool:
    """Whether ``answer`` is the tool's ``"ok"``, for the call ``call_id``."""
    if provider == "openai":
        return answer == {"type": "function_call_output", "call_id": call_id, "output": "ok"}
    if provider == "anthropic":
        return answer == {
            "type": "tool_result",
            "tool_use_id": call_id,
            "content": "ok",
            "is_error": False,
        }
    if provider == "gemini":
        reply = answer["functionResponse"]
        return reply["id"] == call_id and reply["response"] == {"output": "ok"}
    return answer["tool_call_id"] == call_id and answer["content"] == "ok"


def _call(provider: str, call_id: str, name: str, arguments: Any) -> list[dict[str, Any]]:
    text = json.dumps(arguments)
    if provider == "openai":
        return [{"type": "function_call", "call_id": call_id, "name": name, "arguments": text}]
    if provider == "anthropic":
        return [{"type": "tool_use", "id": call_id, "name": name, "input": json.loads(text)}]
    if provider == "gemini":
        return [{"functionCall": {"id": call_id, "name": name, "args": json.loads(text)}}]
    return [{"type": "function", "id": call_id, "function": {"name": name, "arguments": text}}]


UNTYPED = (
    {"type": "array"},
    {"type": "null"},
    {},
    {"type": "object", "additionalProperties": {"type": "integer"}},
)
"""Positions Gemini ``parameters`` have no type for."""


def _schemas(depth: int = 2, typed: bool = False) -> Any:
    """Random input schemas: objects of scalars, enums, consts, nullable and type-list
    positions, arrays (with or without items), unions and nested objects (``typed``: only
    what Gemini ``parameters`` can type)."""
    scalar = hs.sampled_from(
        [
            {"type": "string"},
            {"type": "string", "minLength": 1, "maxLength": 5},
            {"type": "string", "format": "date"},
            {"type": "integer", "minimum": 0},
            {"type": "integer", "exclusiveMaximum": 10},
            {"type": "number", "multipleOf": 0.5},
            {"type": "boolean"},
            {"type": ["string", "null"]},
            {"type": ["integer", "string"]},
            {"enum": ["a", "b"]},
            {"enum": [1, 2, None]},
            {"const": "x"},
            *(() if typed else UNTYPED),
            {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^x"}]},
            {"allOf": [{"type": "integer"}, {"minimum": 2}]},
            {"type": "string", "not": {"const": "no"}},
            {"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string"}},
            {"type": "array", "prefixItems": [{"type": "boolean"}], "maxItems": 1},
            {"$ref": "#/$defs/P"},
            {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}], "description": "A place."},
        ]
    )
    if depth == 0:
        return scalar
    inner = _schemas(depth - 1, typed)
    return hs.one_of(
        scalar,
        inner.map(lambda s: {"type": "array", "items": s}),
        hs.lists(inner, min_size=2, max_size=3).map(lambda b: {"anyOf": b}),
        inner.map(lambda s: {"anyOf": [s, {"type": "null"}]}),
        _objects(inner, typed),
    )


PLACE = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "zip": {"type": "string", "minLength": 5}},
    "required": ["city"],
}


def _objects(inner: Any, typed: bool = False) -> Any:
    names = hs.sampled_from(["a", "b", "c", "d-e", "f.g"])
    return hs.dictionaries(names, inner, min_size=int(typed), max_size=4).flatmap(
        lambda props: hs.fixed_dictionaries(
            {"type": hs.just("object"), "properties": hs.just(props)},
            optional={
                "required": hs.just(sorted(props)[: len(props) // 2]),
                "additionalProperties": hs.just(False),
            },
        )
    )


@settings(SETTINGS, max_examples=300)
@given(hs.data(), hs.booleans())
def test_random_schemas_keep_their_meaning_in_every_dialect(data: Any, typed: bool) -> None:
    schema = data.draw(_objects(_schemas(2, typed), typed))
    schema["$defs"] = {"P": PLACE}  # one model, perhaps used several times: not recursion
    jsonschema.Draft202012Validator.check_schema(schema)
    rendered = _rendered(schema)
    assert not typed or "gemini" in rendered  # what Gemini can type, it renders
    generated: Any = convert_schema(schema, "draft-07")
    valid = jsonschema.Draft202012Validator(schema).is_valid
    value = data.draw(from_schema(generated).filter(_json_ok).filter(valid))
    for dialect, target in rendered.items():
        errors = [e.message for e in jsonschema.Draft202012Validator(target).iter_errors(value)]
        assert not errors, (dialect, target, errors)
    tool = st.Tool(name="random", description="", input_schema=schema, execute=lambda v: "ok")
    if "gemini" in rendered:
        assert corpus.check_gemini(to_gemini_declaration(tool), "parameters") == []
    assert corpus.check_anthropic(to_anthropic(tool)) == []
    assert corpus.check_hf(to_hf(tool)) == []
    declaration = to_openai(tool)
    assert corpus.check_openai(declaration, "responses") == []
    if declaration["strict"]:
        sent = strict_arguments(value, declaration["parameters"])
        jsonschema.validate(sent, declaration["parameters"])
        call = [
            {
                "type": "function_call",
                "call_id": "r",
                "name": "random",
                "arguments": json.dumps(sent),
            }
        ]
        assert run_tool_calls([tool], call, provider="openai")[0]["output"] == "ok"


def to_gemini_declaration(tool: Any) -> dict[str, Any]:
    from standard_tool.providers import to_gemini

    declaration: dict[str, Any] = to_gemini(tool, field="parameters")
    return declaration
