"""Converting JSON Schemas between draft 2020-12, draft-07 and OpenAPI 3.0."""

from __future__ import annotations

import copy
import sys
from typing import Any, Literal, Optional, Union

import jsonschema
import pytest
from pydantic import BaseModel, Field, conint

from standard_tool.exceptions import SchemaNotExpressibleError, UsageError
from standard_tool.schema.dialects._drafts import detect_dialect
from standard_tool.schema.dialects._registry import convert_schema
from standard_tool.schema.dialects._walk import MAX_DEPTH

S2020 = "https://json-schema.org/draft/2020-12/schema"
S07 = "http://json-schema.org/draft-07/schema#"


_KEPT_IN_OPENAPI = {
    "title": "t",
    "description": "d",
    "format": "date",
    "pattern": "^a",
    "readOnly": True,
    "writeOnly": False,
    "deprecated": True,
    "discriminator": {"propertyName": "kind"},
    "uniqueItems": True,
    "multipleOf": 2,
}
"""Keywords OpenAPI 3.0 has as they are."""


def to07(schema: dict[str, Any]) -> Any:
    return convert_schema(schema, "draft-07")


def to2020(schema: dict[str, Any]) -> Any:
    return convert_schema({"$schema": S07, **schema}, "draft-2020-12")


def to_openapi(schema: Any) -> Any:
    return convert_schema(schema, "openapi-3.0")


def refused(schema: Any, target: Any) -> SchemaNotExpressibleError:
    with pytest.raises(SchemaNotExpressibleError) as caught:
        convert_schema(schema, target)
    return caught.value


def containers(value: Any) -> list[Any]:
    """Every dict and list inside ``value``, ``value`` included."""
    if isinstance(value, dict):
        return [value, *(c for v in value.values() for c in containers(v))]
    if isinstance(value, list):
        return [value, *(c for v in value for c in containers(v))]
    return []


def nested(keyword: str, levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {keyword: schema}
    return schema


# --- detect_dialect ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "dialect"),
    [
        ({"$schema": S2020}, "draft-2020-12"),
        ({"$schema": "https://json-schema.org/draft/2019-09/schema"}, "draft-2020-12"),
        ({"$schema": S07}, "draft-07"),
        ({"$schema": "http://json-schema.org/draft-07/schema"}, "draft-07"),
        ({"$schema": "http://json-schema.org/draft-06/schema#"}, "draft-07"),
        ({"$schema": "http://json-schema.org/draft-04/schema#"}, "draft-07"),
        ({"$schema": "https://example.com/my-meta"}, "draft-2020-12"),
        ({"type": "string"}, "draft-2020-12"),
        (True, "draft-2020-12"),
    ],
)
def test_detect_dialect(schema: Any, dialect: str) -> None:
    assert detect_dialect(schema) == dialect


# --- 2020-12 -> draft-07 ----------------------------------------------------------------------


def test_defs_become_definitions_and_refs_follow() -> None:
    schema = {
        "$schema": S2020,
        "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/A/$defs/B"}},
        "$defs": {
            "A": {"$defs": {"B": {"type": "integer"}}, "items": {"$ref": "#/$defs/A/$defs/B"}}
        },
    }
    assert to07(schema) == {
        "$schema": S07,
        "properties": {
            "a": {"$ref": "#/definitions/A"},
            "b": {"$ref": "#/definitions/A/definitions/B"},
        },
        "definitions": {
            "A": {
                "definitions": {"B": {"type": "integer"}},
                "items": {"$ref": "#/definitions/A/definitions/B"},
            }
        },
    }


def test_ref_rewriting_follows_structure_not_text() -> None:
    schema = {
        "properties": {
            "$defs": {"type": "string"},
            "x": {"$ref": "#/properties/$defs"},
            "y": {"$ref": "#/$defs/T/prefixItems/1"},
            "z": {"$ref": "#/$defs/T/items"},
            "w": {"$ref": "https://example.com/s#/$defs/Q"},
        },
        "$defs": {"T": {"prefixItems": [{}, {"type": "integer"}], "items": False}},
    }
    props = to07(schema)["properties"]
    assert props["x"] == {"$ref": "#/properties/$defs"}
    assert props["y"] == {"$ref": "#/definitions/T/items/1"}
    assert props["z"] == {"$ref": "#/definitions/T/additionalItems"}
    assert props["w"] == {"$ref": "https://example.com/s#/$defs/Q"}


def test_prefix_items_become_tuple_items() -> None:
    schema = {"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False}
    assert to07(schema) == {
        "items": [{"type": "string"}, {"type": "integer"}],
        "additionalItems": False,
    }
    assert to07({"prefixItems": [{"type": "string"}]}) == {"items": [{"type": "string"}]}


def test_stray_additional_items_is_not_activated() -> None:
    schema = {"prefixItems": [{"type": "string"}], "additionalItems": False}
    assert to07(schema) == {"items": [{"type": "string"}]}


def test_plain_items_stay_items() -> None:
    assert to07({"items": {"type": "string"}}) == {"items": {"type": "string"}}


def test_dependent_keywords_become_dependencies() -> None:
    schema = {
        "dependentRequired": {"card": ["billing"]},
        "dependentSchemas": {"vip": {"required": ["tier"]}},
    }
    assert to07(schema) == {"dependencies": {"card": ["billing"], "vip": {"required": ["tier"]}}}


def test_dependent_keywords_on_one_property_are_both_kept() -> None:
    schema = {"dependentRequired": {"a": ["b"]}, "dependentSchemas": {"a": {"required": ["c"]}}}
    assert to07(schema) == {
        "dependencies": {"a": {"allOf": [{"required": ["b"]}, {"required": ["c"]}]}}
    }


def test_ref_siblings_are_wrapped_for_draft07() -> None:
    schema = {"$defs": {"S": {"type": "string"}}, "$ref": "#/$defs/S", "maxLength": 3}
    assert to07(schema) == {
        "definitions": {"S": {"type": "string"}},
        "allOf": [{"$ref": "#/definitions/S"}],
        "maxLength": 3,
    }
    both = {"$ref": "#/$defs/S", "allOf": [{"minLength": 1}], "$defs": {"S": {}}}
    assert to07(both)["allOf"] == [{"$ref": "#/definitions/S"}, {"minLength": 1}]
    assert to07({"$ref": "#/$defs/S", "$defs": {"S": {}}})["allOf"] == [{"$ref": "#/definitions/S"}]


def test_schema_uri_is_rewritten_only_when_present() -> None:
    assert to07({"$schema": S2020})["$schema"] == S07
    assert "$schema" not in to07({"type": "string"})


def test_defs_and_definitions_are_merged() -> None:
    schema = {"$defs": {"A": {"type": "string"}}, "definitions": {"B": {"type": "integer"}}}
    assert to07(schema) == {"definitions": {"B": {"type": "integer"}, "A": {"type": "string"}}}
    error = refused({"$defs": {"A": {}}, "definitions": {"A": {}}}, "draft-07")
    assert (error.keyword, error.pointer) == ("$defs", "/$defs")


@pytest.mark.parametrize(
    ("keyword", "value"),
    [
        ("$dynamicRef", "#meta"),
        ("$dynamicAnchor", "meta"),
        ("$recursiveRef", "#"),
        ("unevaluatedProperties", False),
        ("unevaluatedItems", False),
        ("minContains", 2),
        ("maxContains", 3),
    ],
)
def test_draft07_cannot_express(keyword: str, value: Any) -> None:
    schema = {"properties": {"a/b": {"items": {keyword: value}}}}
    error = refused(schema, "draft-07")
    assert error.target == "draft-07"
    assert error.keyword == keyword
    assert error.pointer == f"/properties/a~1b/items/{keyword}"
    assert keyword in str(error) and error.pointer in str(error)


SEMANTIC_CASES = [
    (
        {"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
        [["a", 1], ["a"], [], ["a", 1, 2], [1, "a"], ["a", "b"]],
    ),
    (
        {"prefixItems": [{"type": "string"}], "items": {"type": "boolean"}},
        [["a", True, False], ["a", 1], [1]],
    ),
    (
        {
            "type": "object",
            "dependentRequired": {"card": ["billing"]},
            "dependentSchemas": {"vip": {"required": ["tier"]}},
        },
        [{}, {"card": 1}, {"card": 1, "billing": 2}, {"vip": 1}, {"vip": 1, "tier": 2}],
    ),
    (
        {
            "$defs": {"Name": {"type": "string", "minLength": 2}},
            "type": "object",
            "properties": {"n": {"$ref": "#/$defs/Name", "maxLength": 4}},
        },
        [{"n": "ab"}, {"n": "a"}, {"n": "abcde"}, {"n": 3}],
    ),
    (
        {
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
            "$ref": "#/$defs/Node",
            "required": ["next"],
        },
        [{"next": {}}, {}, {"next": {"next": 3}}, {"next": {"next": {}}}],
    ),
]


@pytest.mark.parametrize(("schema", "instances"), SEMANTIC_CASES)
def test_draft07_output_keeps_meaning(schema: dict[str, Any], instances: list[Any]) -> None:
    source = jsonschema.Draft202012Validator(schema)
    converted = to07(schema)
    jsonschema.Draft7Validator.check_schema(converted)
    target = jsonschema.Draft7Validator(converted)
    verdicts = [source.is_valid(instance) for instance in instances]
    assert True in verdicts and False in verdicts
    assert [target.is_valid(instance) for instance in instances] == verdicts


@pytest.mark.parametrize(("schema", "instances"), SEMANTIC_CASES)
def test_draft2020_output_keeps_meaning(schema: dict[str, Any], instances: list[Any]) -> None:
    draft07 = to07(schema)
    back = convert_schema({"$schema": S07, **draft07}, "draft-2020-12")
    jsonschema.Draft202012Validator.check_schema(back)
    source = jsonschema.Draft7Validator(draft07)
    target = jsonschema.Draft202012Validator(back)
    assert [target.is_valid(i) for i in instances] == [source.is_valid(i) for i in instances]


# --- draft-07 -> 2020-12 ----------------------------------------------------------------------


def test_definitions_become_defs_and_refs_follow() -> None:
    schema = {
        "properties": {"a": {"$ref": "#/definitions/A"}},
        "definitions": {"A": {"items": [{"$ref": "#/definitions/B"}]}, "B": {"type": "string"}},
    }
    assert to2020(schema) == {
        "$schema": S2020,
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"prefixItems": [{"$ref": "#/$defs/B"}]}, "B": {"type": "string"}},
    }


def test_tuple_items_become_prefix_items() -> None:
    schema = {"items": [{"type": "string"}], "additionalItems": {"type": "integer"}}
    assert to2020(schema) == {
        "$schema": S2020,
        "prefixItems": [{"type": "string"}],
        "items": {"type": "integer"},
    }


def test_additional_items_without_tuple_items_is_dropped() -> None:
    schema = {"items": {"type": "string"}, "additionalItems": False}
    assert to2020(schema) == {"$schema": S2020, "items": {"type": "string"}}


def test_dependencies_are_split() -> None:
    schema = {"dependencies": {"card": ["billing"], "vip": {"required": ["tier"]}, "x": True}}
    assert to2020(schema) == {
        "$schema": S2020,
        "dependentRequired": {"card": ["billing"]},
        "dependentSchemas": {"vip": {"required": ["tier"]}, "x": True},
    }


def test_ref_pointers_into_tuple_items_and_dependencies_follow() -> None:
    schema = {
        "definitions": {"T": {"items": [{}, {"type": "integer"}], "additionalItems": False}},
        "dependencies": {"a": {"type": "object"}},
        "properties": {
            "i": {"$ref": "#/definitions/T/items/1"},
            "j": {"$ref": "#/definitions/T/additionalItems"},
            "k": {"$ref": "#/dependencies/a"},
        },
    }
    assert to2020(schema)["properties"] == {
        "i": {"$ref": "#/$defs/T/prefixItems/1"},
        "j": {"$ref": "#/$defs/T/items"},
        "k": {"$ref": "#/dependentSchemas/a"},
    }


DISCRIMINATED = {
    "$defs": {"Cat": {"type": "object"}, "Dog": {"type": "object"}},
    "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
    "discriminator": {"propertyName": "kind", "mapping": {"c": "#/$defs/Cat", "d": "#/$defs/Dog"}},
}


def test_discriminator_mapping_follows_renamed_definitions() -> None:
    draft07 = to07(DISCRIMINATED)
    assert draft07["discriminator"]["mapping"] == {
        "c": "#/definitions/Cat",
        "d": "#/definitions/Dog",
    }
    back = convert_schema({"$schema": S07, **draft07}, "draft-2020-12")
    assert back == {**DISCRIMINATED, "$schema": S2020}


def test_openapi_drops_discriminator_mapping_after_inlining() -> None:
    assert to_openapi(DISCRIMINATED) == {
        "oneOf": [{"type": "object"}, {"type": "object"}],
        "discriminator": {"propertyName": "kind"},
    }


def test_single_ref_in_all_of_is_unwrapped() -> None:
    schema = {"allOf": [{"$ref": "#/definitions/S"}], "maxLength": 3, "definitions": {"S": {}}}
    assert to2020(schema) == {
        "$schema": S2020,
        "$ref": "#/$defs/S",
        "maxLength": 3,
        "$defs": {"S": {}},
    }
    two = {"allOf": [{"$ref": "#/definitions/S"}, {"minLength": 1}], "definitions": {"S": {}}}
    assert to2020(two)["allOf"] == [{"$ref": "#/$defs/S"}, {"minLength": 1}]


def test_draft04_boolean_exclusive_bounds_become_numbers() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "minimum": 0,
        "exclusiveMinimum": True,
        "maximum": 9,
        "exclusiveMaximum": False,
    }
    assert convert_schema(schema, "draft-2020-12") == {
        "$schema": S2020,
        "exclusiveMinimum": 0,
        "maximum": 9,
    }


def test_source_dialect_equal_to_target_is_a_plain_copy() -> None:
    schema = {"$schema": S07, "items": [{"type": "string"}], "definitions": {"A": {}}}
    assert convert_schema(schema, "draft-07") == schema
    modern = {"prefixItems": [True], "$defs": {"A": {"const": [1]}}}
    assert convert_schema(modern, "draft-2020-12") == modern
    assert convert_schema(False, "draft-07") is False


@pytest.mark.parametrize(
    "schema",
    [
        {
            "$schema": S2020,
            "$defs": {"Pair": {"prefixItems": [{"type": "string"}, {"$ref": "#/$defs/Num"}]}},
            "properties": {
                "p": {"$ref": "#/$defs/Pair"},
                "q": {"$ref": "#/$defs/Pair/prefixItems/1"},
            },
        },
        {
            "$defs": {"Num": {"type": "number"}},
            "prefixItems": [{"$ref": "#/$defs/Num"}],
            "items": False,
        },
        {"dependentRequired": {"a": ["b", "c"]}, "dependentSchemas": {"d": {"required": ["e"]}}},
        {"$defs": {"S": {"type": "string"}}, "$ref": "#/$defs/S", "minLength": 1},
        {
            "properties": {
                "x": {"$defs": {"Inner": True}, "items": {"$ref": "#/properties/x/$defs/Inner"}}
            }
        },
    ],
)
def test_round_trip_through_draft07(schema: dict[str, Any]) -> None:
    draft07 = to07(schema)
    back = convert_schema({"$schema": S07, **draft07}, "draft-2020-12")
    assert back == {**schema, "$schema": S2020}


# --- OpenAPI 3.0 ------------------------------------------------------------------------------


class Address(BaseModel):
    """A postal address."""

    street: str
    zip: Optional[str] = None  # noqa: UP045 - pydantic's Optional, on purpose


class Pet(BaseModel):
    species: Literal["dog", "cat"]
    name: str


class Person(BaseModel):
    """Someone we know."""

    name: str = Field(description="Full name", examples=["Ada"])
    age: conint(gt=0, lt=150)  # type: ignore[valid-type]
    role: Literal["admin", "user"] = "user"
    kind: Literal["person"] = "person"
    home: Optional[Address] = None  # noqa: UP045
    work: Address = Field(description="Where they work")
    pets: list[Pet] = []
    score: Union[int, float, None] = None  # noqa: UP007


ADDRESS = {
    "description": "A postal address.",
    "properties": {
        "street": {"title": "Street", "type": "string"},
        "zip": {"type": "string", "nullable": True, "default": None, "title": "Zip"},
    },
    "required": ["street"],
    "title": "Address",
    "type": "object",
}


def test_pydantic_schema_to_openapi() -> None:
    assert to_openapi(Person.model_json_schema()) == {
        "description": "Someone we know.",
        "properties": {
            "name": {
                "description": "Full name",
                "example": "Ada",
                "title": "Name",
                "type": "string",
            },
            "age": {
                "minimum": 0,
                "exclusiveMinimum": True,
                "maximum": 150,
                "exclusiveMaximum": True,
                "title": "Age",
                "type": "integer",
            },
            "role": {
                "default": "user",
                "enum": ["admin", "user"],
                "title": "Role",
                "type": "string",
            },
            "kind": {"enum": ["person"], "default": "person", "title": "Kind", "type": "string"},
            "home": {**ADDRESS, "default": None, "nullable": True},
            "work": {**ADDRESS, "description": "Where they work"},
            "pets": {
                "default": [],
                "items": {
                    "properties": {
                        "species": {"enum": ["dog", "cat"], "title": "Species", "type": "string"},
                        "name": {"title": "Name", "type": "string"},
                    },
                    "required": ["species", "name"],
                    "title": "Pet",
                    "type": "object",
                },
                "title": "Pets",
                "type": "array",
            },
            "score": {
                "anyOf": [{"type": "integer"}, {"type": "number"}],
                "default": None,
                "title": "Score",
                "nullable": True,
            },
        },
        "required": ["name", "age", "work"],
        "title": "Person",
        "type": "object",
    }


def test_draft07_source_to_openapi() -> None:
    schema = {
        "$schema": S07,
        "definitions": {"Id": {"type": "integer", "exclusiveMinimum": 0}},
        "properties": {"id": {"$ref": "#/definitions/Id"}},
    }
    assert to_openapi(schema) == {
        "properties": {"id": {"type": "integer", "minimum": 0, "exclusiveMinimum": True}}
    }


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": ["string", "null"]}, {"type": "string", "nullable": True}),
        ({"type": ["null", "integer"]}, {"type": "integer", "nullable": True}),
        ({"type": ["string"]}, {"type": "string"}),
        (
            {"type": ["string", "integer"], "minLength": 1},
            {"anyOf": [{"type": "string"}, {"type": "integer"}], "minLength": 1},
        ),
        (
            {"type": ["string", "integer", "null"]},
            {"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": True},
        ),
        (
            {"type": ["string", "integer"], "anyOf": [{"minLength": 1}, {"minimum": 1}]},
            {
                "allOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}]}],
                "anyOf": [{"minLength": 1}, {"minimum": 1}],
            },
        ),
    ],
)
def test_openapi_type_lists(schema: dict[str, Any], expected: dict[str, Any]) -> None:
    assert to_openapi(schema) == expected


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (
            {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "T"},
            {"type": "string", "title": "T", "nullable": True},
        ),
        (
            {"oneOf": [{"type": "null"}, {"type": "integer", "minimum": 1}]},
            {"type": "integer", "minimum": 1, "nullable": True},
        ),
        (
            {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
            {"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": True},
        ),
        (
            {"anyOf": [{"type": "string"}, {"type": "null"}], "type": "integer"},
            {"anyOf": [{"type": "string"}], "type": "integer", "nullable": True},
        ),
        (
            {"anyOf": [{"type": "string", "title": "A"}, {"type": "null"}], "title": "B"},
            {"type": "string", "title": "B", "nullable": True},
        ),
    ],
)
def test_openapi_null_branches(schema: dict[str, Any], expected: dict[str, Any]) -> None:
    assert to_openapi(schema) == expected


@pytest.mark.parametrize(
    ("schema", "pointer"),
    [
        ({"type": "null"}, "/type"),
        ({"properties": {"x": {"type": ["null"]}}}, "/properties/x/type"),
        ({"anyOf": [{"type": "null"}]}, "/anyOf"),
    ],
)
def test_openapi_refuses_null_alone(schema: dict[str, Any], pointer: str) -> None:
    error = refused(schema, "openapi-3.0")
    assert (error.keyword, error.pointer) == ("type", pointer)


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"const": "x"}, {"enum": ["x"]}),
        ({"const": None, "type": "string"}, {"enum": [None], "type": "string", "nullable": True}),
        ({"enum": ["a", None]}, {"enum": ["a", None], "nullable": True}),
        ({"exclusiveMinimum": 1}, {"minimum": 1, "exclusiveMinimum": True}),
        ({"exclusiveMaximum": 1.5}, {"maximum": 1.5, "exclusiveMaximum": True}),
        ({"minimum": 5, "exclusiveMinimum": 3}, {"minimum": 5}),
        ({"minimum": 3, "exclusiveMinimum": 5}, {"minimum": 5, "exclusiveMinimum": True}),
        ({"maximum": 3, "exclusiveMaximum": 5}, {"maximum": 3}),
        ({"examples": ["a", "b"]}, {"example": "a"}),
        ({"examples": []}, {}),
        ({"example": "e", "examples": ["a"]}, {"example": "e"}),
        (True, {}),
        (False, {"not": {}}),
        ({"items": True, "not": False}, {"items": {}, "not": {"not": {}}}),
        ({"additionalProperties": False}, {"additionalProperties": False}),
        (
            {"additionalProperties": {"type": "string"}},
            {"additionalProperties": {"type": "string"}},
        ),
        (
            {
                "$schema": S2020,
                "$id": "https://example.com/s",
                "$comment": "c",
                "$anchor": "top",
                "contentMediaType": "text/plain",
                "contentEncoding": "base64",
                "type": "string",
            },
            {"type": "string"},
        ),
        ({"x-order": 3, "vendorHint": {"a": 1}}, {"x-order": 3, "vendorHint": {"a": 1}}),
        (_KEPT_IN_OPENAPI, _KEPT_IN_OPENAPI),
    ],
)
def test_openapi_keywords(schema: Any, expected: dict[str, Any]) -> None:
    assert to_openapi(schema) == expected


def test_openapi_inlines_every_local_pointer() -> None:
    schema = {
        "$defs": {"Name": {"type": "string", "minLength": 1}, "Alias": {"$ref": "#/$defs/Name"}},
        "definitions": {"Old": {"type": "integer"}},
        "properties": {
            "a": {"$ref": "#/$defs/Alias"},
            "b": {"$ref": "#/definitions/Old"},
            "c": {"$ref": "#/properties/a", "description": "like a"},
            "d": {"$ref": "#/$defs/Name", "maxLength": 9},
            "e": {"$ref": "#/$defs/Name", "minLength": 2},
            "f": {"$ref": "#/%24defs/Name"},
        },
    }
    name = {"type": "string", "minLength": 1}
    assert to_openapi(schema) == {
        "properties": {
            "a": name,
            "b": {"type": "integer"},
            "c": {**name, "description": "like a"},
            "d": {**name, "maxLength": 9},
            "e": {"minLength": 2, "allOf": [name]},
            "f": name,
        }
    }


def test_openapi_inlined_nodes_are_independent_copies() -> None:
    converted = to_openapi({"$defs": {"A": {"enum": [[1]]}}, "items": {"$ref": "#/$defs/A"},
                            "not": {"$ref": "#/$defs/A"}})  # fmt: skip
    assert converted["items"] == converted["not"]
    assert converted["items"] is not converted["not"]
    assert converted["items"]["enum"] is not converted["not"]["enum"]


@pytest.mark.parametrize(
    ("schema", "pointer", "message"),
    [
        (
            {"$defs": {"N": {"items": {"$ref": "#/$defs/N"}}}, "$ref": "#/$defs/N"},
            "/$defs/N/items/$ref",
            "recursive",
        ),
        ({"properties": {"me": {"$ref": "#"}}}, "/properties/me/$ref", "recursive"),
        ({"items": {"$ref": "other.json#/$defs/A"}}, "/items/$ref", "local"),
        ({"$defs": {"A": {"$anchor": "a"}}, "items": {"$ref": "#a"}}, "/items/$ref", "local"),
        ({"items": {"$ref": "#/$defs/Missing"}}, "/items/$ref", "points at nothing"),
    ],
)
def test_openapi_refuses_uninlinable_refs(
    schema: dict[str, Any], pointer: str, message: str
) -> None:
    error = refused(schema, "openapi-3.0")
    assert (error.keyword, error.pointer) == ("$ref", pointer)
    assert message in str(error)


def test_openapi_refuses_reference_explosion() -> None:
    defs: dict[str, Any] = {"D0": {"type": "string"}}
    for i in range(1, 25):
        defs[f"D{i}"] = {"anyOf": [{"$ref": f"#/$defs/D{i - 1}"}, {"$ref": f"#/$defs/D{i - 1}"}]}
    error = refused({"$defs": defs, "$ref": "#/$defs/D24"}, "openapi-3.0")
    assert error.keyword == "$ref"
    assert "inlining grows the schema" in str(error)


@pytest.mark.parametrize(
    ("keyword", "value"),
    [
        ("prefixItems", [{}]),
        ("contains", {}),
        ("minContains", 1),
        ("maxContains", 1),
        ("patternProperties", {"^a": {}}),
        ("propertyNames", {"maxLength": 3}),
        ("dependentRequired", {"a": ["b"]}),
        ("dependentSchemas", {"a": {}}),
        ("if", {}),
        ("then", {}),
        ("else", {}),
        ("unevaluatedProperties", False),
        ("unevaluatedItems", False),
        ("$dynamicRef", "#meta"),
    ],
)
def test_openapi_cannot_express(keyword: str, value: Any) -> None:
    schema = {"properties": {"a/b": {keyword: value}, "t~x": {"type": "string"}}}
    error = refused(schema, "openapi-3.0")
    assert error.target == "openapi-3.0"
    assert (error.keyword, error.pointer) == (keyword, f"/properties/a~1b/{keyword}")


def test_openapi_refuses_draft07_tuple_items_and_dependencies() -> None:
    error = refused({"$schema": S07, "properties": {"t~x": {"items": [{}]}}}, "openapi-3.0")
    assert (error.keyword, error.pointer) == ("items", "/properties/t~0x/items")
    error = refused({"$schema": S07, "dependencies": {"a": ["b"]}}, "openapi-3.0")
    assert (error.keyword, error.pointer) == ("dependencies", "/dependencies")


def test_openapi_error_inside_a_definition_points_at_the_definition() -> None:
    schema = {"$defs": {"P": {"prefixItems": [{}]}}, "properties": {"p": {"$ref": "#/$defs/P"}}}
    error = refused(schema, "openapi-3.0")
    assert (error.keyword, error.pointer) == ("prefixItems", "/$defs/P/prefixItems")


def test_openapi_ignores_unused_definitions() -> None:
    schema = {"$defs": {"Unused": {"if": {}, "then": {}}}, "type": "object"}
    assert to_openapi(schema) == {"type": "object"}


# --- every target -----------------------------------------------------------------------------

TARGETS: list[Any] = ["draft-2020-12", "draft-07", "openapi-3.0"]

RICH = {
    "$schema": S2020,
    "$defs": {"Tag": {"type": "string", "examples": ["x"], "default": "x"}},
    "type": "object",
    "properties": {
        "const": {"type": "string", "const": "c"},
        "$ref": {"type": "integer", "exclusiveMinimum": 0},
        "properties": {"type": ["string", "null"]},
        "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}, "default": [["a"]]},
        "meta": {"additionalProperties": {"enum": [{"a": [1]}, None]}},
    },
    "required": ["const", "$ref"],
}


@pytest.mark.parametrize("target", TARGETS)
def test_input_is_not_mutated_nor_shared(target: Any) -> None:
    before = copy.deepcopy(RICH)
    converted = convert_schema(RICH, target)
    assert before == RICH
    assert not {id(c) for c in containers(converted)} & {id(c) for c in containers(RICH)}


@pytest.mark.parametrize("target", TARGETS)
def test_properties_named_like_keywords_survive(target: Any) -> None:
    props = convert_schema(RICH, target)["properties"]  # type: ignore[index]
    assert set(props) == {"const", "$ref", "properties", "tags", "meta"}
    if target == "openapi-3.0":
        assert props["const"] == {"type": "string", "enum": ["c"]}
        assert props["$ref"] == {"type": "integer", "minimum": 0, "exclusiveMinimum": True}
        assert props["properties"] == {"type": "string", "nullable": True}
    else:
        assert props["const"] == RICH["properties"]["const"]  # type: ignore[index]
        assert props["$ref"] == RICH["properties"]["$ref"]  # type: ignore[index]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("keyword", ["items", "not", "anyOf"])
def test_depth_limit(target: Any, keyword: str) -> None:
    def deep(levels: int) -> dict[str, Any]:
        if keyword != "anyOf":
            return nested(keyword, levels)
        schema: dict[str, Any] = {"type": "string"}
        for _ in range(levels):
            schema = {"anyOf": [schema, {"type": "integer"}]}
        return schema

    convert_schema(deep(MAX_DEPTH - 1), target)
    for levels in (MAX_DEPTH + 1, 20_000):
        error = refused(deep(levels), target)
        assert error.keyword == "depth"


@pytest.mark.parametrize("target", TARGETS)
def test_depth_limit_covers_plain_values(target: Any) -> None:
    value: Any = 0
    for _ in range(20_000):
        value = [value]
    error = refused({"properties": {"x": {"default": value}}}, target)
    assert error.keyword == "depth"
    assert error.pointer.startswith("/properties/x/default/0/0")


@pytest.mark.parametrize("target", TARGETS)
def test_recursion_limit_is_reported_as_depth(target: Any) -> None:
    frames, limit = 0, sys.getrecursionlimit()
    frame = sys._getframe()
    while frame.f_back is not None:
        frames, frame = frames + 1, frame.f_back
    sys.setrecursionlimit(frames + 120)
    try:
        error = refused(nested("not", MAX_DEPTH - 1), target)
    finally:
        sys.setrecursionlimit(limit)
    assert error.keyword == "depth"
    assert "recursion limit" in str(error)


def test_bad_arguments() -> None:
    with pytest.raises(UsageError):
        convert_schema({}, "openapi-3.1")
    with pytest.raises(UsageError):
        convert_schema([], "draft-07")  # type: ignore[arg-type]
