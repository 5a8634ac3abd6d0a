"""The portability lint: each rule on a tool made to break it, the provider findings checked
against what each provider's dialect really renders, and the bundled examples."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import standard_tool as st
from standard_tool.contracts import LINT_RULES, Finding, lint_tool, lint_tools, snapshot
from standard_tool.contracts._wording import _REWRITTEN
from standard_tool.dialects import ACTIONS, Change, convert_schema
from standard_tool.exceptions import SchemaNotExpressibleError
from standard_tool.schema.dialects._registry import PROVIDER_DIALECTS

CONTRACTS = Path(__file__).resolve().parents[1] / "CONTRACTS.md"
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"lint_{name}", EXAMPLES / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def tool(
    name: str = "weather",
    description: str = "The weather in a city.",
    schema: dict[str, Any] | None = None,
) -> st.Tool:
    return st.Tool(
        name=name,
        description=description,
        input_schema=schema
        or {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "A city."}},
            "required": ["city"],
        },
        execute=lambda input, context=None: "sunny",
    )


def of(findings: list[Finding], rule: str) -> list[Finding]:
    return [f for f in findings if f.rule == rule]


def test_the_table_of_contracts_md_and_lint_rules_agree() -> None:
    text = CONTRACTS.read_text(encoding="utf-8")
    section = text.split("\n## Lint rules\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(lint/[a-z-]+)` \| (\w+) \| (.+) \|$", section, re.MULTILINE)
    assert {rule: (level, summary) for rule, level, summary in rows} == dict(LINT_RULES)
    assert len(rows) == len(LINT_RULES)
    assert {level for level, _ in LINT_RULES.values()} == {"error", "warning", "info"}


def test_a_clean_tool_has_no_error_or_warning() -> None:
    findings = lint_tool(tool())
    assert [f for f in findings if f.level != "info"] == []
    assert all(f.rule in LINT_RULES and f.level == LINT_RULES[f.rule][0] for f in findings)


def test_a_missing_description_is_found_at_its_pointer() -> None:
    (found,) = of(lint_tool(tool(description="  ")), "lint/description-missing")
    assert (found.pointer, found.level, found.tool, found.target) == (
        "/description",
        "warning",
        "weather",
        None,
    )


def test_a_description_past_llama_index_limit_is_an_error_for_llama_index() -> None:
    assert of(lint_tool(tool(description="x" * 1024)), "lint/description-too-long") == []
    (found,) = of(lint_tool(tool(description="x" * 1025)), "lint/description-too-long")
    assert (found.pointer, found.level, found.target) == ("/description", "error", "llama-index")


def test_a_name_a_target_renames_is_found_for_that_target_only() -> None:
    findings = of(lint_tool(tool(name="weather.now")), "lint/name-renamed")
    assert sorted(f.target or "" for f in findings) == ["anthropic", "hf", "openai"]
    assert {f.pointer for f in findings} == {"/name"}
    everywhere = of(lint_tool(tool(name="the weather")), "lint/name-renamed")
    assert sorted(f.target or "" for f in everywhere) == sorted(
        ["anthropic", "gemini", "hf", "mcp", "openai"]
    )
    assert of(lint_tool(tool(name="weather_now")), "lint/name-renamed") == []


SECRETS = [
    "https://ann:hunter22@crm.example.com/v1",
    "sk-proj-" + "Ab3dE5gH7jK9mN1pQ3rS5tU7",
    "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "AKIA" + "IOSFODNN7EXAMPLE",
    "xoxb-" + "1234567890-abcdefghij",
    "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlX2hlcmU",
    "-----BEGIN RSA PRIVATE KEY-----",
    "Use the key Zx81Kq0PmW4vTn7Rb2Ys5Hc9Lg3Fd6Ja in the header.",
]
HOSTS = [
    "Served at http://localhost:8080/api.",
    "Reads db.internal.",
    "The printer.local queue.",
    "Posts to 10.2.3.4.",
    "Posts to 192.168.1.20:9000.",
    "Posts to 172.20.0.1.",
    "Loopback 127.0.0.1 only.",
]
PLAIN = [
    "Look it up on https://example.com/docs (version 1.2.3).",
    "Resolved through 8.8.8.8 or 192.0.2.10.",
    "get_current_weather_for_the_city_of_Lyon_2026",
    "The local time and the internal state.",
    "sha256:" + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
]


@pytest.mark.parametrize("text", SECRETS)
def test_a_credential_in_a_description_is_an_error_that_never_quotes_it(text: str) -> None:
    found = of(lint_tool(tool(description=f"The weather. {text}")), "lint/credential")
    assert [(f.pointer, f.level) for f in found] == [("/description", "error")]
    assert text not in found[0].message and "hunter22" not in found[0].message


@pytest.mark.parametrize("text", HOSTS)
def test_an_internal_host_in_a_parameter_description_is_found_where_it_stands(text: str) -> None:
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string", "description": text}},
    }
    found = of(lint_tool(tool(schema=schema)), "lint/internal-host")
    assert [(f.pointer, f.level) for f in found] == [
        ("/input_schema/properties/city/description", "warning")
    ]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_text_is_neither_a_credential_nor_an_internal_host(text: str) -> None:
    findings = lint_tool(tool(description=text))
    assert of(findings, "lint/credential") == of(findings, "lint/internal-host") == []


def test_a_title_and_a_default_are_read_too() -> None:
    schema = {
        "type": "object",
        "title": "Calls localhost",
        "properties": {
            "token": {"type": "string", "description": "A token.", "default": SECRETS[2]}
        },
    }
    findings = lint_tool(tool(schema=schema))
    assert [f.pointer for f in of(findings, "lint/credential")] == [
        "/input_schema/properties/token/default"
    ]
    assert [f.pointer for f in of(findings, "lint/internal-host")] == ["/input_schema/title"]


def test_parameters_without_description_are_found_a_reference_counting_as_one() -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "where": {"$ref": "#/$defs/Place"},
            "when": {"type": "string", "description": "A date."},
        },
        "$defs": {
            "Place": {
                "type": "object",
                "description": "A place.",
                "properties": {"lat": {"type": "number"}},
            }
        },
    }
    found = of(lint_tool(tool(schema=schema)), "lint/parameter-description-missing")
    assert [(f.pointer, f.level) for f in found] == [
        ("/input_schema/$defs/Place/properties/lat", "warning"),
        ("/input_schema/properties/city", "warning"),
    ]


def test_required_naming_an_undeclared_property_is_an_error() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string", "description": "A."}},
        "required": ["a", "b"],
        "anyOf": [{"required": ["a"]}],  # a branch requires what its parent declares
    }
    found = of(lint_tool(tool(schema=schema)), "lint/required-undeclared")
    assert [(f.pointer, f.level) for f in found] == [("/input_schema/required/1", "error")]
    assert "'b'" in found[0].message


KEYWORDS: dict[str, dict[str, Any]] = {
    "plain": {"type": "string"},
    "format_date": {"type": "string", "format": "date"},
    "format_uri": {"type": "string", "format": "uri"},
    "min_length": {"type": "string", "minLength": 2},
    "pattern": {"type": "string", "pattern": "^[a-z]+$"},
    "default": {"type": "integer", "default": 3},
    "examples": {"type": "integer", "examples": [1, 2]},
    "exclusive": {"type": "number", "exclusiveMinimum": 0},
    "multiple": {"type": "number", "multipleOf": 5},
    "unique": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    "min_props": {
        "type": "object",
        "properties": {"x": {"type": "string"}},
        "minProperties": 1,
        "additionalProperties": False,
    },
    "const": {"const": "fixed"},
    "number_enum": {"enum": [1, 2, 3]},
    "read_only": {"type": "string", "readOnly": True},
    "deprecated": {"type": "string", "deprecated": True},
}
"""One property per keyword outside the interoperable core (and a plain one)."""
FLAT = {"type": "object", "properties": KEYWORDS, "additionalProperties": False}


@pytest.mark.parametrize("target", PROVIDER_DIALECTS)
def test_each_provider_finding_is_what_its_dialect_renders(target: str) -> None:
    converted = convert_schema(FLAT, target)
    assert isinstance(converted, dict)
    findings = [f for f in lint_tool(tool(schema=FLAT)) if f.target == target]
    said = {
        (f.pointer, f.rule)
        for f in findings
        if f.rule in ("lint/schema-described", "lint/schema-dropped")
    }
    for name, source in KEYWORDS.items():
        rendered = converted["properties"][name]
        for keyword in source:
            pointer = f"/input_schema/properties/{name}/{keyword}"
            described = (pointer, "lint/schema-described") in said
            dropped = (pointer, "lint/schema-dropped") in said
            rewritten = any(
                f.pointer == pointer and f.rule == "lint/schema-rewritten" for f in findings
            )
            gone = keyword not in rendered
            # left out exactly when the lint says described, dropped or rewritten
            assert gone == (described or dropped or rewritten), (name, keyword)
            assert not (described and dropped)
            note = rendered.get("description", "")
            if described:
                assert re.search(rf"\b{keyword}\b", note), (name, keyword)
            if dropped:
                assert keyword not in note, (name, keyword)
    assert not [f for f in findings if f.rule == "lint/schema-refused"]


def test_a_rewritten_const_becomes_the_enum_the_lint_says() -> None:
    for target in PROVIDER_DIALECTS:
        converted = convert_schema(FLAT, target)
        assert isinstance(converted, dict)
        (found,) = [
            f
            for f in lint_tool(tool(schema=FLAT))
            if f.target == target and f.pointer == "/input_schema/properties/const/const"
        ]
        assert found.rule == "lint/schema-rewritten" and found.level == "info"
        assert "const" not in converted["properties"]["const"]


REFUSED: list[tuple[str, dict[str, Any]]] = [
    ("mapping", {"type": "object", "additionalProperties": {"type": "string"}}),
    ("anything", {}),
    ("tree", {"$ref": "#"}),
]


@pytest.mark.parametrize(("name", "sub"), REFUSED)
@pytest.mark.parametrize("target", PROVIDER_DIALECTS)
def test_a_refusal_is_found_exactly_where_the_dialect_refuses(
    target: str, name: str, sub: dict[str, Any]
) -> None:
    schema = {"type": "object", "properties": {name: {**sub, "description": "It."}}}
    refused = of(
        [f for f in lint_tool(tool(schema=schema)) if f.target == target], "lint/schema-refused"
    )
    try:
        convert_schema(schema, target)
    except SchemaNotExpressibleError as error:
        (found,) = refused
        assert found.level == "error"
        assert found.pointer == "/input_schema" + (error.pointer if error.pointer != "/" else "")
        assert repr(error.keyword) in found.message
    else:
        assert refused == []


# -- what each provider finding says ----------------------------------------------------------


def _said(schema: dict[str, Any], target: str, pointer: str) -> list[tuple[str, str]]:
    """The rule and message of each finding of ``target`` at ``pointer``."""
    return [
        (f.rule, f.message)
        for f in lint_tool(tool(schema=schema))
        if f.target == target and f.pointer == pointer
    ]


def test_a_default_written_into_the_description_is_said_in_a_sentence() -> None:
    schema = {
        "type": "object",
        "properties": {"days": {"type": "integer", "description": "Days.", "default": 3}},
    }
    assert _said(schema, "openai-strict", "/input_schema/properties/days/default") == [
        (
            "lint/schema-described",
            "'default' is left out of the schema the model is shown and written into its "
            "description: the model reads the default there, and a call that leaves the "
            "argument out reaches the tool without it",
        )
    ]


def test_a_rule_written_into_the_description_says_the_tool_refuses_what_breaks_it() -> None:
    [(_, message)] = _said(FLAT, "openai-strict", "/input_schema/properties/min_length/minLength")
    assert message == (
        "'minLength' is left out of the schema the model is shown and written into its "
        "description: the model reads the rule, but the provider does not enforce it, so a "
        "call that breaks it reaches the tool, which refuses it"
    )


def test_what_gemini_leaves_out_is_said_for_what_it_is() -> None:
    examples = _said(FLAT, "gemini", "/input_schema/properties/examples/examples")
    assert examples == [
        (
            "lint/schema-dropped",
            "'examples' is left out of the schema the model is shown, with no note: the "
            "model does not see it, and it does not change what the tool accepts",
        )
    ]
    [(_, closed)] = _said(FLAT, "gemini", "/input_schema/additionalProperties")
    assert "undeclared properties are refused" in closed
    [(_, bound)] = _said(FLAT, "gemini", "/input_schema/properties/exclusive/exclusiveMinimum")
    assert bound == (
        "'exclusiveMinimum' is shown to the model as the inclusive minimum and written into "
        "the description: the model may send the bound itself, which the tool refuses"
    )
    undeclared = {
        "type": "object",
        "properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}},
                             "required": ["x", "y"]}},
    }  # fmt: skip
    [(_, names)] = _said(undeclared, "gemini", "/input_schema/properties/a/required")
    assert names.startswith("'required' names properties the object does not declare")
    [(rule, bare)] = _said({"type": "object"}, "gemini", "/input_schema")
    assert rule == "lint/schema-described" and "'a JSON object'" in bare


def test_a_refusal_says_what_cannot_be_expressed_and_why() -> None:
    schema = {"type": "object", "properties": {"x": {"description": "Anything."}}}
    [(rule, message)] = _said(schema, "openai-strict", "/input_schema/properties/x")
    assert rule == "lint/schema-refused"
    assert message == (
        "'type' cannot be expressed in the schema the provider shows the model, so converting "
        "the tool for it raises SchemaNotExpressibleError: strict mode needs a type at every "
        "position; this one accepts any value"
    )


def _object(props: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **more}


S = {"type": "string"}
REWRITES: list[dict[str, Any]] = [
    _object(
        {
            "merged": {"allOf": [S, {"minLength": 1}]},
            "nullable": {"type": ["string", "null"]},
            "null_branch": {"anyOf": [S, {"type": "null"}]},
            "enum_null": {"enum": ["a", None]},
            "numbers": {"enum": [1, 2]},
            "strings": {"enum": ["a", "b"]},
            "spread": {"anyOf": [S, {**S, "maxLength": 5}], "minLength": 1},
            "const": {"const": "x"},
            "one_of": {"oneOf": [S, {"type": "integer"}]},
            "tuple": {"type": "array", "prefixItems": [S, {"type": "integer"}], "items": False},
            "types": {"type": ["string", "integer"]},
            "bare": {"anyOf": [S, {"type": "integer"}]},
            "where": {"$ref": "#/$defs/Place"},
        },
        **{"$defs": {"Place": _object({"city": S}, required=["city"])}},
    ),
    _object({"array": {"type": "array"}, "free": {"type": "object"}}),
    {"$ref": "#/$defs/A", "$defs": {"A": _object({"a": S})}},
    {"anyOf": [_object({"a": S}), _object({"b": S})]},
    {"type": ["object", "null"], "properties": {"a": S}},
    _object({"next": {"$ref": "#", "description": "The next."}}),
]
"""Schemas that make the provider dialects note every rewrite they make."""
TERSE = re.compile(r"^'[^']*' (rewritten|described|dropped|refused): ")


def test_every_rewrite_a_dialect_notes_has_its_own_sentence() -> None:
    noted: set[str] = set()
    for schema in REWRITES:
        for target in PROVIDER_DIALECTS:
            record: list[Change] = []
            try:
                convert_schema(schema, target, record=record)
            except SchemaNotExpressibleError:
                pass
            noted |= {c.detail for c in record if c.action == "rewritten"}
    assert noted == set(_REWRITTEN)  # none said by the general sentence, none unused
    messages = [
        f.message
        for schema in REWRITES
        for f in lint_tool(tool(schema=schema))
        if f.rule.startswith("lint/schema-")
    ]
    assert messages and not [m for m in messages if TERSE.match(m)]


def test_a_message_does_not_name_the_provider_so_targets_share_it() -> None:
    found = [
        f
        for f in lint_tool(tool(schema=REWRITES[0]))
        if f.pointer == "/input_schema/properties/where/$ref"
    ]
    assert sorted(f.target or "" for f in found) == sorted(PROVIDER_DIALECTS)
    assert len({f.message for f in found}) == 1
    assert not any(target in found[0].message for target in PROVIDER_DIALECTS)


def test_convert_schema_records_each_change_and_a_refusal_last() -> None:
    record: list[Change] = []
    out = convert_schema(FLAT, "gemini", record=record)
    assert isinstance(out, dict)
    assert {c.action for c in record} <= set(ACTIONS)
    assert Change("/properties/number_enum/enum", "enum", "described", record[0].detail) in [
        Change(c.pointer, c.keyword, c.action, record[0].detail) for c in record
    ]
    assert convert_schema(FLAT, "gemini") == out  # recording changes nothing
    record = []
    with pytest.raises(SchemaNotExpressibleError):
        convert_schema({"type": "object", "properties": {"x": {}}}, "openai-strict", record=record)
    assert (record[-1].pointer, record[-1].keyword, record[-1].action) == (
        "/properties/x",
        "type",
        "refused",
    )


def test_the_bundled_examples_lint_without_errors_and_point_into_their_snapshot(
    tmp_path: Path,
) -> None:
    weather = _load("weather")
    crm = _load("crm")
    tools = [*weather.TOOLS, crm.create_task_draft(crm.Crm(tmp_path / "crm.db"))]
    findings = lint_tools(tools)
    assert [f for f in findings if f.level == "error"] == []
    entries = {entry["name"]: entry for entry in snapshot(tools)["tools"]}
    for found in findings:
        node: Any = entries[found.tool]
        for token in found.pointer.split("/")[1:]:
            token = token.replace("~1", "/").replace("~0", "~")
            node = node[int(token)] if isinstance(node, list) else node[token]
    forecast = [f for f in findings if f.tool == "get_forecast"]
    assert (
        "/input_schema/$defs/Location/properties/city",
        "lint/parameter-description-missing",
    ) in {(f.pointer, f.rule) for f in forecast}
    # weather's units default is written into the description by strict mode only
    described = {f.target for f in forecast if f.pointer.endswith("/units/default")}
    assert described == {"openai-strict"}
    assert [f.tool for f in findings] == sorted(f.tool for f in findings)
