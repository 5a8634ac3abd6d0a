"""Provider envelopes: declarations that follow each provider's rules, and the return half."""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import standard_tool as st
from standard_tool.dialects import convert_schema, dialects
from standard_tool.exceptions import ModelOutputError, SchemaNotExpressibleError, ToolNameError
from standard_tool.providers import (
    arun_tool_calls,
    openai_strict_problem,
    parse_tool_calls,
    run_tool_calls,
    to_anthropic,
    to_gemini,
    to_hf,
    to_openai,
)
from standard_tool.testing import within

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provider_corpus as corpus  # noqa: E402

TOOLS = corpus.tools()
LABELS = sorted(TOOLS)


# --- declarations ------------------------------------------------------------------------------


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("api", ["responses", "chat"])
@pytest.mark.parametrize("strict", [None, False])
def test_openai_declarations_follow_the_rules(label: str, api: str, strict: bool | None) -> None:
    declaration = to_openai(TOOLS[label], api=api, strict=strict)  # type: ignore[arg-type]
    assert corpus.check_openai(declaration, api) == []
    function = declaration["function"] if api == "chat" else declaration
    assert function["strict"] is (strict is None and label not in corpus.NOT_STRICT)


@pytest.mark.parametrize("label", sorted(set(LABELS) - corpus.NOT_STRICT))
def test_strict_declarations_follow_strict_rules(label: str) -> None:
    declaration = to_openai(TOOLS[label], strict=True)
    assert declaration["strict"] is True and corpus.check_openai(declaration, "responses") == []


@pytest.mark.parametrize("label", sorted(corpus.NOT_STRICT))
def test_strict_true_refuses_naming_the_tool_and_where(label: str) -> None:
    with pytest.raises(SchemaNotExpressibleError) as raised:
        to_openai(TOOLS[label], strict=True)
    assert raised.value.tool == label and raised.value.pointer.startswith("/properties")
    assert f"tool {label!r}" in str(raised.value)
    problem = openai_strict_problem(TOOLS[label])
    assert problem is not None and problem.keyword == raised.value.keyword


def test_strict_none_says_why_it_is_not_strict(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("INFO", logger="standard_tool.providers"):
        assert to_openai(TOOLS["mapping"])["strict"] is False
    assert "'mapping'" in caplog.text and "additionalProperties" in caplog.text
    assert openai_strict_problem(TOOLS["nested"]) is None


@pytest.mark.parametrize(
    ("schema", "keyword", "pointer"),
    [
        ({"type": ["array", "string"]}, "items", "/properties/a/items"),
        ({"type": ["object", "string"]}, "properties", "/properties/a"),
        ({"anyOf": [{"type": "object"}, {"type": "string"}]}, "properties", "/properties/a/anyOf/0"),
        ({"anyOf": [{"type": "array", "items": {}}, {"type": "null"}]}, "type",
         "/properties/a/anyOf/0/items"),
        ({"type": "array", "items": {"oneOf": [{"type": "object", "properties": {}},
                                               {"type": "integer"}]}},
         "properties", "/properties/a/items/oneOf/0"),
        ({"type": "array", "prefixItems": [{"type": "integer"}, {"type": ["object", "null"]}],
          "maxItems": 2}, "properties", "/properties/a/prefixItems/1"),
        ({"$ref": "#/$defs/D"}, "properties", "/$defs/D"),
        ({"allOf": [{"type": ["integer", "array"]}]}, "items", "/properties/a/items"),
        ({"type": "object", "properties": {"b": {"type": "object",
                                                 "additionalProperties": {"type": "integer"}}}},
         "additionalProperties", "/properties/a/properties/b/additionalProperties"),
    ],
)  # fmt: skip
def test_strict_mode_is_checked_in_every_branch(
    schema: dict[str, Any], keyword: str, pointer: str
) -> None:
    root = {
        "type": "object",
        "properties": {"a": schema},
        "$defs": {"D": {"type": ["string", "object"]}},
    }
    tool = st.Tool(name="branchy", description="", input_schema=root, execute=_echo_input)
    for api in ("responses", "chat"):
        declaration = to_openai(tool, api=api)
        assert corpus.check_openai(declaration, api) == []
        assert (declaration["function"] if api == "chat" else declaration)["strict"] is False
    with pytest.raises(SchemaNotExpressibleError) as raised:
        to_openai(tool, strict=True)
    assert (raised.value.tool, raised.value.keyword, raised.value.pointer) == (
        "branchy",
        keyword,
        pointer,
    )


def test_a_type_list_branch_is_rendered_as_strict_mode_wants() -> None:
    schema = {"type": ["object", "string"], "properties": {"x": {"type": "integer"}}}
    tool = st.Tool(
        name="t", description="", input_schema={"properties": {"a": schema}}, execute=_echo_input
    )
    declaration = to_openai(tool, strict=True)
    assert corpus.check_openai(declaration, "responses") == []
    branch = declaration["parameters"]["properties"]["a"]["anyOf"][0]
    assert branch["additionalProperties"] is False and branch["required"] == ["x"]


def _echo_input(input: Any) -> Any:
    return input


@pytest.mark.parametrize("label", LABELS)
def test_anthropic_declarations_follow_the_rules(label: str) -> None:
    assert corpus.check_anthropic(to_anthropic(TOOLS[label])) == []


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("field", ["parameters", "parametersJsonSchema"])
def test_gemini_declarations_follow_the_rules(label: str, field: str) -> None:
    if field == "parameters" and label in corpus.RECURSIVE:
        with pytest.raises(SchemaNotExpressibleError) as raised:
            to_gemini(TOOLS[label], field=field)  # type: ignore[arg-type]
        assert raised.value.tool == TOOLS[label].name and raised.value.keyword == "$ref"
        assert "recursi" in str(raised.value) and raised.value.pointer != "/"
        return
    if field == "parameters" and label in corpus.NOT_GEMINI:
        with pytest.raises(SchemaNotExpressibleError) as raised:
            to_gemini(TOOLS[label], field=field)  # type: ignore[arg-type]
        assert raised.value.tool == TOOLS[label].name and raised.value.pointer != "/"
        assert "parametersJsonSchema" in str(raised.value)
        return
    assert corpus.check_gemini(to_gemini(TOOLS[label], field=field), field) == []  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("schema", "keyword", "pointer", "why"),
    [
        ({"type": "array"}, "type", "/properties/a/items", "any type"),
        ({"type": "array", "items": {}}, "type", "/properties/a/items", "any type"),
        ({"type": "array", "items": True}, "type", "/properties/a/items", "any type"),
        ({"type": ["array", "string"]}, "type", "/properties/a/items", "any type"),
        ({"type": ["array", "null"], "items": {"type": "null"}}, "type", "/properties/a/items",
         "null alone"),
        ({}, "type", "/properties/a", "any type"),
        ({"description": "Anything."}, "type", "/properties/a", "any type"),
        ({"anyOf": [{"type": "integer"}, {}]}, "type", "/properties/a/anyOf/1", "any type"),
        ({"type": "object"}, "properties", "/properties/a", "declares none"),
        ({"type": "object", "properties": {}}, "properties", "/properties/a", "declares none"),
        ({"type": "object", "additionalProperties": {"type": "integer"}}, "properties",
         "/properties/a", "declares none"),
        ({"type": ["object", "string"]}, "properties", "/properties/a", "declares none"),
        ({"anyOf": [{"type": "object"}, {"type": "string"}]}, "properties",
         "/properties/a/anyOf/0", "declares none"),
        ({"type": "array", "items": {"type": "object"}}, "properties", "/properties/a/items",
         "declares none"),
    ],
)  # fmt: skip
def test_gemini_parameters_refuse_what_gemini_cannot_type(
    schema: dict[str, Any], keyword: str, pointer: str, why: str
) -> None:
    root = {"type": "object", "properties": {"a": schema, "b": {"type": "integer"}}}
    tool = st.Tool(name="loose", description="", input_schema=root, execute=_echo_input)
    with pytest.raises(SchemaNotExpressibleError, match=why) as raised:
        to_gemini(tool, field="parameters")
    assert (raised.value.tool, raised.value.keyword, raised.value.pointer) == (
        "loose",
        keyword,
        pointer,
    )
    assert "field='parametersJsonSchema'" in str(raised.value)
    declaration = to_gemini(tool, field="parametersJsonSchema")
    assert set(declaration["parametersJsonSchema"]["properties"]) == {"a", "b"}
    assert to_gemini(tool) == declaration  # by default, where parameters cannot say it
    assert st.convert(tool, to="gemini") == declaration


def test_gemini_declares_parameters_by_default_where_they_can_say_the_schema() -> None:
    tool = st.Tool(
        name="typed",
        description="",
        input_schema={"type": "object", "properties": {"a": {"type": "integer"}}},
        execute=_echo_input,
    )
    assert set(to_gemini(tool)) == {"name", "description", "parameters"}
    with pytest.raises(st.UsageError, match="not 'schema'"):
        to_gemini(tool, field="schema")  # type: ignore[arg-type]


def test_gemini_parameters_type_every_position() -> None:
    properties: dict[str, Any] = {
        "mixed": {"enum": ["a", 3, True]},
        "pair": {"type": ["integer", "array"], "items": {"type": "string"}},
        "twice": {"anyOf": [{"anyOf": [{"type": "string"}, {"type": "null"}]}, {"type": "null"}]},
    }
    declaration = to_gemini(
        st.Tool(
            name="typed",
            description="",
            input_schema={"properties": properties},
            execute=_echo_input,
        )
    )
    assert corpus.check_gemini(declaration, "parameters") == []
    properties = declaration["parameters"]["properties"]
    assert properties["mixed"]["anyOf"] == [
        {"type": "string", "enum": ["a"]},
        {"type": "integer"},
        {"type": "boolean"},
    ]
    assert properties["pair"]["anyOf"][1] == {"type": "array", "items": {"type": "string"}}
    assert properties["twice"] == {"type": "string", "nullable": True}
    for value in ("a", 3, True):
        jsonschema.validate({"mixed": value}, corpus.json_schema_of(declaration["parameters"]))
    properties["none"] = {"type": "object", "properties": {}, "additionalProperties": False}
    tool = st.Tool(
        name="typed", description="", input_schema={"properties": properties}, execute=_echo_input
    )
    with pytest.raises(SchemaNotExpressibleError, match="declares none"):
        to_gemini(tool, field="parameters")  # an object that must be empty has no form there


@pytest.mark.parametrize("label", LABELS)
def test_hf_declarations_follow_the_rules(label: str) -> None:
    assert corpus.check_hf(to_hf(TOOLS[label])) == []


def test_a_model_used_twice_is_inlined_not_mistaken_for_recursion() -> None:
    schema = to_gemini(TOOLS["nested"])["parameters"]
    person = schema["properties"]["person"]
    assert person["properties"]["home"]["properties"].keys() == {"street", "city", "zip"}
    assert person["properties"]["work"]["nullable"] is True
    assert "$ref" not in json.dumps(schema) and "$defs" not in schema


def test_true_recursion_is_kept_where_the_target_has_references() -> None:
    for schema in (
        to_openai(TOOLS["tree"], strict=True)["parameters"],
        to_anthropic(TOOLS["tree"])["input_schema"],
        to_gemini(TOOLS["tree"], field="parametersJsonSchema")["parametersJsonSchema"],
    ):
        assert set(schema["$defs"]) == {"Node"}
        children = schema["$defs"]["Node"]["properties"]["children"]
        assert "#/$defs/Node" in json.dumps(children)
    root = to_anthropic(TOOLS["root_recursion"])["input_schema"]
    assert root["properties"]["child"] == {"$ref": "#"}


def test_strict_mode_keeps_rules_in_the_description() -> None:
    properties = to_openai(TOOLS["optional_and_nullable"], strict=True)["parameters"]["properties"]
    assert properties["url"]["type"] == ["string", "null"]
    assert 'format: "uri"' in properties["url"]["description"]
    assert 'default: "https://example.com"' in properties["url"]["description"]
    assert properties["count"]["minimum"] == 1 and properties["count"]["exclusiveMaximum"] == 100
    assert properties["required_nullable"]["anyOf"] == [{"type": "integer"}, {"type": "null"}]
    assert properties["point"]["items"] == {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    zip_code = to_openai(TOOLS["nested"], strict=True)["parameters"]["properties"]["person"]
    zip_code = zip_code["properties"]["home"]["properties"]["zip"]
    assert "minLength: 5" in json.dumps(zip_code) and "pattern" in json.dumps(zip_code)


def test_gemini_parameters_spell_what_openapi_cannot() -> None:
    loose = corpus.RAW["type_lists"]  # without its positions of any type ("arr", "any")
    typed = {k: v for k, v in loose["properties"].items() if k not in ("arr", "any")}
    tool = st.Tool(
        name="typed",
        description="",
        input_schema={**loose, "properties": typed},
        execute=_echo_input,
    )
    schema = to_gemini(tool)["parameters"]["properties"]
    assert schema["v"]["nullable"] is True
    assert [b["type"] for b in schema["v"]["anyOf"]] == ["integer", "string"]
    assert schema["c"] == {"type": "integer", "description": "(enum: [3])"}
    assert schema["ints"]["nullable"] is True and "enum" not in schema["ints"]
    enums = to_gemini(TOOLS["enums"])["parameters"]["properties"]
    assert enums["size"]["enum"] == ["s", "l"] and "enum" not in enums["level"]
    assert enums["fixed"]["enum"] == ["only"]
    assert "parameters" not in to_gemini(TOOLS["nothing"])
    bounds = to_gemini(TOOLS["optional_and_nullable"])["parameters"]["properties"]["ratio"]
    assert (
        bounds["minimum"] == 0
        and bounds["maximum"] == 1
        and "exclusiveMinimum" in bounds["description"]
    )


def test_gemini_keeps_the_rules_beside_an_any_of_its_branches_disagree_with() -> None:
    x = {
        "anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}],
        "maxLength": 5,
        "description": "an x",
    }
    record: list[Any] = []
    schema = {"type": "object", "properties": {"x": x}}
    out = convert_schema(schema, "gemini", record=record)
    assert isinstance(out, dict)
    assert out["properties"]["x"] == {
        "anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}],
        "description": "an x (maxLength: 5)",
    }
    assert [(c.pointer, c.action) for c in record] == [("/properties/x/maxLength", "described")]


def test_root_combinators_become_one_object() -> None:
    for schema in (
        to_anthropic(TOOLS["root_any_of"])["input_schema"],
        to_openai(TOOLS["root_any_of"], strict=False)["parameters"],
    ):
        assert schema["type"] == "object" and "anyOf" not in schema
        assert set(schema["properties"]) == {"a", "b"} and "required" not in schema


def test_a_root_that_is_not_an_object_is_refused() -> None:
    odd = st.Tool(name="odd", description="d", input_schema={"type": "string"}, execute=lambda i: i)
    with pytest.raises(SchemaNotExpressibleError, match="tool 'odd'.*object"):
        to_anthropic(odd)


def test_names_follow_each_provider_and_collisions_are_errors() -> None:
    dotted = TOOLS["dotted.name"]
    assert to_openai(dotted)["name"] == "files_read_all"
    assert to_gemini(dotted)["name"] == "files.read.all"
    other = st.tool(corpus.nothing, name="files_read_all")
    with pytest.raises(ToolNameError, match="files.read.all.*files_read_all"):
        to_anthropic([dotted, other])
    assert [d["name"] for d in to_gemini([dotted, other])] == ["files.read.all", "files_read_all"]


def test_one_tool_gives_a_dict_several_a_list() -> None:
    assert isinstance(to_hf(TOOLS["nothing"]), dict)
    assert [d["function"]["name"] for d in to_hf([TOOLS["nothing"], TOOLS["tree"]])] == [
        "nothing",
        "tree",
    ]
    assert to_openai(corpus.nothing)["name"] == "nothing"  # anything st.adopt takes


def test_provider_dialects_are_builtin_dialects() -> None:
    assert {"openai", "openai-strict", "anthropic", "gemini", "gemini-json-schema", "hf"} <= set(
        dialects()
    )
    schema = st.input_json_schema(TOOLS["nested"], target="gemini")
    assert "$defs" not in schema


def test_convert_reaches_every_provider_and_adopt_is_unaffected() -> None:
    tool = TOOLS["enums"]
    assert st.convert(tool, to="openai", api="chat")["function"]["name"] == "enums"
    assert st.convert(tool, to="anthropic") == to_anthropic(tool)
    assert st.convert(tool, to="gemini", field="parametersJsonSchema") == to_gemini(
        tool, field="parametersJsonSchema"
    )
    assert st.convert(tool, to="hf") == to_hf(tool)
    infos = {info.name: info for info in st.targets()}
    for name in ("openai", "anthropic", "gemini", "hf"):
        assert infos[name].distribution == "standard-tool" and infos[name].version
    with pytest.raises(st.UnsupportedObjectError):
        st.adopt(to_openai(tool))


def test_hf_matches_transformers_get_json_schema() -> None:
    """``to_hf`` against what transformers returned for the same documented functions
    (recorded in ``data/hf_get_json_schema.json``, its version named there). It may say
    more (defaults, closed objects, tuple lengths, titles), never something else."""
    sys.path.insert(0, str(corpus.DATA))
    import hf_functions

    recorded = json.loads((corpus.DATA / "hf_get_json_schema.json").read_text())
    assert recorded["transformers"]
    extra = {"default", "additionalProperties", "minItems", "maxItems", "title"}
    for function in hf_functions.FUNCTIONS:
        ours = to_hf(st.tool(function))  # type: ignore[call-overload]
        theirs = recorded["schemas"][function.__name__]
        theirs["function"].get("return", {}).pop("description", None)  # from "Returns:"
        assert _contains(ours, theirs, extra), function.__name__


def _contains(ours: Any, theirs: Any, extra: set[str]) -> bool:
    if isinstance(theirs, dict):
        if not isinstance(ours, dict) or set(ours) - set(theirs) - extra:
            return False
        return all(k in ours and _contains(ours[k], v, extra) for k, v in theirs.items())
    return bool(ours == theirs)


# --- meaning is kept ---------------------------------------------------------------------------

SAMPLES: dict[str, list[dict[str, Any]]] = {
    "nested": [
        {"person": {"name": "a", "home": {"street": "s"}}},
        {
            "person": {"name": "a", "home": {"street": "s", "zip": "12345"}, "work": None},
            "friends": [{"name": "b", "home": {"street": "t", "city": "x"}, "nicknames": ["c"]}],
        },
    ],
    "unions": [{"pet": {"kind": "cat"}}, {"pet": {"kind": "dog", "good": False}, "key": "k"}],
    "enums": [{"size": "s"}, {"size": "l", "level": 2, "mode": 3, "fixed": "only"}],
    "optional_and_nullable": [
        {"required_nullable": None},
        {"required_nullable": 1, "count": 2, "label": "x", "ratio": 0.25, "point": [1, "b"]},
    ],
    "nothing": [{}],
    "tree": [{"root": {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}}],
}


def _strict_form(value: Any, schema: dict[str, Any]) -> Any:
    """What a strict-mode model sends for ``value``: every declared property, absent ones null."""
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        return {
            name: _strict_form(value.get(name), sub) for name, sub in schema["properties"].items()
        }
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_strict_form(v, schema["items"]) for v in value]
    for branch in schema.get("anyOf", []):
        if isinstance(branch, dict) and "$ref" in branch:
            continue
        try:
            jsonschema.validate(_strict_form(value, branch), branch)
        except (jsonschema.ValidationError, jsonschema.SchemaError, TypeError):
            continue
        return _strict_form(value, branch)
    return value


@pytest.mark.parametrize("label", sorted(SAMPLES))
def test_valid_inputs_stay_valid_and_reach_the_tool_unchanged(label: str) -> None:
    tool = TOOLS[label]
    for value in SAMPLES[label]:
        st.call(tool, value)  # valid under the original
        for dialect in ("openai", "anthropic", "gemini-json-schema"):
            jsonschema.validate(value, convert_schema(st.input_json_schema(tool), dialect))
        if label not in corpus.RECURSIVE:
            gemini = corpus.json_schema_of(convert_schema(st.input_json_schema(tool), "gemini"))
            jsonschema.validate(value, gemini)
        hf = corpus.json_schema_of(convert_schema(st.input_json_schema(tool), "hf"))
        jsonschema.validate(value, hf)
        strict = to_openai(tool, strict=True)["parameters"]
        sent = _strict_form(value, strict) if "$defs" not in strict else None
        if sent is not None:
            jsonschema.validate(sent, strict)
            received = _received(tool, sent)
            assert received == st.jsonable(st.call(tool, value)), (label, sent)


def _received(tool: Any, arguments: dict[str, Any]) -> Any:
    """What ``tool`` got when a strict-mode model sent ``arguments`` (its result, as JSON)."""
    seen: list[Any] = []
    spy = st.Tool(
        name=tool.name,
        description="",
        input_schema=st.input_json_schema(tool),
        execute=lambda value: seen.append(value) or "ok",  # type: ignore[func-returns-value]
    )
    call = {
        "type": "function_call",
        "call_id": "c",
        "name": spy.name,
        "arguments": json.dumps(arguments),
    }
    [answer] = run_tool_calls([spy], [call], provider="openai")
    assert answer["output"] == "ok", answer
    return st.jsonable(st.call(tool, seen[0]))


def test_strict_null_for_absent_never_reaches_the_tool() -> None:
    seen: list[Any] = []

    @st.tool
    def book(
        room: str, nights: int = 1, note: str | None = None, guest: corpus.Address | None = None
    ) -> str:
        """Book."""
        seen.append((room, nights, note, guest))
        return "ok"

    arguments = {
        "room": "a",
        "nights": None,
        "note": None,
        "guest": {"street": "s", "city": None, "zip": None},
    }
    call = {
        "type": "function_call",
        "call_id": "c",
        "name": "book",
        "arguments": json.dumps(arguments),
    }
    assert run_tool_calls(book, [call], provider="openai")[0]["output"] == "ok"
    assert seen == [("a", 1, None, corpus.Address(street="s", city="Paris", zip=None))]


# --- the return half ---------------------------------------------------------------------------


@st.tool
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


@st.tool
def fail(reason: str) -> str:
    """Always fails."""
    raise RuntimeError("broken on purpose")


@st.tool(name="files.read")
def read(path: str) -> dict[str, str]:
    """Read a file."""
    return {"path": path, "text": "hello"}


LOOP_TOOLS = [add, fail, read]
SECRET = "context-secret-value"


def _openai_calls() -> list[dict[str, Any]]:
    return [
        {"type": "function_call", "call_id": "c1", "name": "add", "arguments": '{"a": 2, "b": 3}'},
        {"type": "function_call", "call_id": "c2", "name": "add", "arguments": '{"a": 2,'},
        {"type": "function_call", "call_id": "c3", "name": "nope", "arguments": "{}"},
        {
            "type": "function_call",
            "call_id": "c4",
            "name": "add",
            "arguments": '{"a": "x", "c": 1}',
        },
        {"type": "function_call", "call_id": "c5", "name": "fail", "arguments": '{"reason": "r"}'},
        {
            "type": "function_call",
            "call_id": "c6",
            "name": "files_read",
            "arguments": '{"path": "p"}',
        },
    ]


def _no_leaks(text: str) -> None:
    assert "Traceback" not in text and SECRET not in text and 'File "' not in text


def test_openai_responses_loop() -> None:
    answers = run_tool_calls(LOOP_TOOLS, _openai_calls(), provider="openai", context=SECRET)
    assert [a["call_id"] for a in answers] == ["c1", "c2", "c3", "c4", "c5", "c6"]
    assert all(a["type"] == "function_call_output" for a in answers)
    out = [a["output"] for a in answers]
    assert out[0] == "5"
    assert "not valid JSON" in json.loads(out[1])["error"] and "'add'" in out[1]
    assert "Unknown tool" in out[2] and "'files_read'" in out[2]
    error = json.loads(out[3])["error"]
    assert "'add'" in error and "- a:" in error and "- c:" in error
    assert "broken on purpose" in out[4] and "'fail'" in out[4]
    assert json.loads(out[5]) == {"path": "p", "text": "hello"}
    for text in out:
        _no_leaks(text)


def test_openai_chat_completions_loop() -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "t1", "type": "function", "function": {"name": "add", "arguments": '{"a": 1}'}},
            {
                "id": "t2",
                "type": "function",
                "function": {"name": "fail", "arguments": '{"reason": "x"}'},
            },
        ],
    }
    answers = run_tool_calls(LOOP_TOOLS, message, provider="openai")
    assert answers[0] == {"role": "tool", "tool_call_id": "t1", "content": "2"}
    assert answers[1]["tool_call_id"] == "t2" and "broken" in answers[1]["content"]


def test_anthropic_loop() -> None:
    content = [
        {"type": "text", "text": "Let me add."},
        {"type": "tool_use", "id": "u1", "name": "add", "input": {"a": 4}},
        {"type": "tool_use", "id": "u2", "name": "add", "input": {"b": 4}},
    ]
    answers = run_tool_calls(
        LOOP_TOOLS, {"role": "assistant", "content": content}, provider="anthropic"
    )
    assert answers[0] == {
        "type": "tool_result",
        "tool_use_id": "u1",
        "content": "5",
        "is_error": False,
    }
    assert answers[1]["is_error"] is True and "- a: Field required" in answers[1]["content"]


def test_gemini_loop() -> None:
    parts = [
        {"text": "Calling."},
        {"functionCall": {"id": "g1", "name": "files.read", "args": {"path": "x"}}},
        {"functionCall": {"name": "fail", "args": {"reason": "y"}}},
    ]
    answers = run_tool_calls(LOOP_TOOLS, {"role": "model", "parts": parts}, provider="gemini")
    assert answers[0] == {
        "functionResponse": {
            "id": "g1",
            "name": "files.read",
            "response": {"output": {"path": "x", "text": "hello"}},
        }
    }
    assert "broken" in answers[1]["functionResponse"]["response"]["error"]
    assert "id" not in answers[1]["functionResponse"]


def test_hf_loop_from_a_raw_completion() -> None:
    completion = parse_tool_calls(
        'Two sums.<tool_call>{"name": "add", "arguments": {"a": 1}}</tool_call>'
        '<tool_call>{"name": "add", "arguments": {"a": 2, "b": 2}}</tool_call>',
        format="qwen",
    )
    assert completion.content == "Two sums."
    answers = run_tool_calls(LOOP_TOOLS, completion, provider="hf")
    assert answers == [
        {"role": "tool", "name": "add", "content": "2"},
        {"role": "tool", "name": "add", "content": "4"},
    ]
    assert completion.message["tool_calls"] == completion.calls


def test_parallel_calls_run_concurrently() -> None:
    barrier = threading.Barrier(3, timeout=5)

    @st.tool
    def meet(n: int) -> int:
        """Wait for the others."""
        barrier.wait()
        return n

    calls = [
        {
            "type": "function_call",
            "call_id": f"m{i}",
            "name": "meet",
            "arguments": json.dumps({"n": i}),
        }
        for i in range(3)
    ]
    answers = within(10, run_tool_calls, [meet], calls, "openai")
    assert [a["output"] for a in answers] == ["0", "1", "2"]

    async def together() -> list[dict[str, Any]]:
        barrier.reset()
        return await arun_tool_calls([meet], calls, provider="openai")

    assert [a["call_id"] for a in asyncio.run(together())] == ["m0", "m1", "m2"]


def test_async_tools_and_timeouts() -> None:
    @st.tool
    async def slow(seconds: float) -> str:
        """Sleep."""
        await asyncio.sleep(seconds)
        return "done"

    calls = [
        {"type": "tool_use", "id": "s1", "name": "slow", "input": {"seconds": 0}},
        {"type": "tool_use", "id": "s2", "name": "slow", "input": {"seconds": 5}},
    ]
    start = time.perf_counter()
    answers = run_tool_calls([slow], calls, provider="anthropic", timeout=0.2)
    assert time.perf_counter() - start < 3
    assert answers[0]["content"] == "done" and answers[1]["is_error"] is True
    assert "timed out" in answers[1]["content"]


def test_sdk_objects_are_read_through_model_dump() -> None:
    class Dumped:
        def model_dump(self, **options: Any) -> dict[str, Any]:
            return {
                "type": "function_call",
                "call_id": "d1",
                "name": "add",
                "arguments": '{"a": 9}',
            }

    assert run_tool_calls(add, [Dumped()], provider="openai")[0]["output"] == "10"


def test_a_call_without_an_id_is_a_usage_error() -> None:
    with pytest.raises(st.UsageError, match="no id"):
        run_tool_calls(
            add, [{"type": "tool_use", "name": "add", "input": {}}], provider="anthropic"
        )
    with pytest.raises(st.UsageError, match="provider"):
        run_tool_calls(add, [], provider="cohere")


def test_hostile_arguments_become_readable_errors() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    for arguments in (deep, '"just a string"', "[1, 2]", "\x00", '{"a": NaN}'):
        call = {"type": "function_call", "call_id": "h", "name": "add", "arguments": arguments}
        [answer] = run_tool_calls(add, [call], provider="openai")
        error = json.loads(answer["output"])["error"]
        assert "'add'" in error and len(error) < 2000
        _no_leaks(error)


# --- raw completions of open-weight models -----------------------------------------------------


def test_hermes_several_calls_and_text() -> None:
    parsed = parse_tool_calls(
        'Sure.\n<tool_call>\n{"name": "add", "arguments": {"a": 1}}\n</tool_call>\nAnd:\n'
        '<tool_call>{"name": "add", "arguments": "{\\"a\\": 2}"}</tool_call><|im_end|>'
    )
    assert parsed.content == "Sure.\n\nAnd:"
    assert [c["function"]["arguments"] for c in parsed.calls] == [{"a": 1}, {"a": 2}]


def test_llama3_json_calls() -> None:
    assert parse_tool_calls("Just text.", "llama3").calls == []
    parsed = parse_tool_calls('{"name": "add", "parameters": {"a": 1}}<|eot_id|>', "llama3")
    assert parsed.calls[0]["function"] == {"name": "add", "arguments": {"a": 1}}
    several = parse_tool_calls(
        'Checking.<|python_tag|>{"name": "add", "parameters": {"a": 1}}; '
        '{"name": "add", "parameters": {"a": 2}}<|eom_id|>',
        "llama3",
    )
    assert several.content == "Checking." and len(several.calls) == 2


def test_mistral_both_forms() -> None:
    old = parse_tool_calls(
        'Ok.[TOOL_CALLS][{"name": "add", "arguments": {"a": 1}, "id": "abc123XYZ"}, '
        '{"name": "add", "arguments": {"a": 2}, "id": "def456UVW"}]</s>',
        "mistral",
    )
    assert old.content == "Ok." and [c["id"] for c in old.calls] == ["abc123XYZ", "def456UVW"]
    new = parse_tool_calls(
        '[TOOL_CALLS]add[ARGS]{"a": 1}[TOOL_CALLS]add[CALL_ID]k9[ARGS]{}', "mistral"
    )
    assert [c["function"]["arguments"] for c in new.calls] == [{"a": 1}, {}]
    answers = run_tool_calls(add, old, provider="hf")
    assert [a["tool_call_id"] for a in answers] == ["abc123XYZ", "def456UVW"]


@pytest.mark.parametrize(
    ("text", "format", "why"),
    [
        ('<tool_call>{"name": "add", "arguments": {"a": 1}', "hermes", "never closed"),
        ('<tool_call>{"name": "add", "arguments": {"a": 1</tool_call>', "hermes", "cut off"),
        ('<tool_call><tool_call>{"name": "a"}</tool_call>', "hermes", "another"),
        ("</tool_call>", "hermes", "closes no"),
        ('<tool_call>{"arguments": {}}</tool_call>', "hermes", "no tool name"),
        ('<tool_call>{"name": "a", "arguments": [1]}</tool_call>', "hermes", "not a JSON object"),
        (
            '<tool_call>{"name": "a", "arguments": {}, "parameters": {}}</tool_call>',
            "hermes",
            "twice",
        ),
        ('<tool_call>{"name": "a"} trailing</tool_call>', "hermes", "text after"),
        ('{"name": "add", "parameters": {"a": 1}', "llama3", "cut off"),
        ('{"name": "add", "parameters": {}} and then some words', "llama3", "not a tool call"),
        ('{"answer": 42}', "llama3", "no tool name"),
        ("<|python_tag|>", "llama3", "cut off"),
        ('[TOOL_CALLS][{"name": "add", "arguments": {"a": 1}}', "mistral", "cut off"),
        ("[TOOL_CALLS]add", "mistral", "ARGS"),
        ('[TOOL_CALLS][{"name": "add", "arguments": {}}] text', "mistral", "not a tool call"),
    ],
)
def test_ambiguous_or_truncated_completions_are_refused(text: str, format: Any, why: str) -> None:
    with pytest.raises(ModelOutputError, match=why) as raised:
        parse_tool_calls(text, format)
    assert "{" not in str(raised.value)  # says where and why, never quotes the completion


BIG = "1" * 5000  # valid JSON, longer than Python reads (sys.get_int_max_str_digits)


@pytest.mark.parametrize(
    ("text", "format"),
    [
        ('<tool_call>{"name": "add", "arguments": {"a": ' + BIG + "}}</tool_call>", "hermes"),
        (
            '<tool_call>{"name": "add", "arguments": "{\\"a\\": ' + BIG + '}"}</tool_call>',
            "hermes",
        ),
        ('{"name": "add", "parameters": {"a": ' + BIG + "}}", "llama3"),
        ('[TOOL_CALLS]add[ARGS]{"a": ' + BIG + "}", "mistral"),
    ],
)
def test_a_number_too_large_to_read_is_refused_as_that(text: str, format: Any) -> None:
    with pytest.raises(ModelOutputError, match=r"too large to read \(more than 4300 digits\)"):
        parse_tool_calls(text, format)


def test_keys_a_call_does_not_have_are_named_clipped() -> None:
    key = "k" * 100_000
    with pytest.raises(ModelOutputError, match="keys a tool call does not have") as raised:
        parse_tool_calls('<tool_call>{"name": "add", "' + key + '": 1}</tool_call>', "hermes")
    assert len(str(raised.value)) < 200


def test_unknown_format_is_a_usage_error() -> None:
    with pytest.raises(st.UsageError, match="hermes"):
        parse_tool_calls("x", "chatml")  # type: ignore[arg-type]


def test_the_providers_module_exports_what_all_says() -> None:
    from standard_tool import providers

    assert providers.__all__ == sorted(providers.__all__)
    exported = {name for name in dir(providers) if not name.startswith("_")}
    assert exported - {"annotations"} == set(providers.__all__)


def test_a_root_union_with_one_object_branch_keeps_the_object() -> None:
    schema = {
        "anyOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"type": "integer"}}}]
    }
    tool = st.Tool(name="u", description="d", input_schema=schema, execute=lambda i: i)
    rendered = to_anthropic(tool)["input_schema"]
    assert rendered == {"type": "object", "properties": {"a": {"type": "integer"}}}
    never = st.Tool(
        name="s", description="d", input_schema={"anyOf": [{"type": "string"}]}, execute=len
    )
    with pytest.raises(SchemaNotExpressibleError, match="tool 's'.*anyOf"):
        to_anthropic(never)


def test_kept_definitions_have_names_a_reference_can_hold() -> None:
    schema = {
        "type": "object",
        "properties": {"t": {"$ref": "#/$defs/a~1b c"}},
        "$defs": {"a/b c": {"type": "object", "properties": {"next": {"$ref": "#/$defs/a~1b c"}}}},
    }
    tool = st.Tool(name="odd", description="d", input_schema=schema, execute=lambda i: i)
    rendered = to_anthropic(tool)["input_schema"]
    assert list(rendered["$defs"]) == ["a_b_c"]
    assert rendered["$defs"]["a_b_c"]["properties"]["next"] == {"$ref": "#/$defs/a_b_c"}
    jsonschema.validate({"t": {"next": {"next": {}}}}, rendered)


def test_read_tool_calls_normalizes_every_provider() -> None:
    from standard_tool.providers import ToolCall, read_tool_calls

    assert read_tool_calls(_openai_calls()[:1], "openai") == [
        ToolCall("c1", "add", '{"a": 2, "b": 3}', "responses")
    ]
    content = [
        {"type": "text", "text": "x"},
        {"type": "tool_use", "id": "u", "name": 7, "input": {}},
    ]
    assert read_tool_calls({"content": content}, "anthropic") == [
        ToolCall("u", "", {}, "anthropic")
    ]
    parts = {"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {}}}]}}]}
    assert read_tool_calls(parts, "gemini") == [ToolCall(None, "f", {}, "gemini")]
    with pytest.raises(st.UsageError):
        read_tool_calls([], "mistral")


@pytest.mark.parametrize(
    ("schema", "keyword", "pointer"),
    [
        ({"type": "object", "properties": [1, 2]}, "properties", "/properties"),
        ({"properties": "x"}, "properties", "/properties"),
        ({"type": "object", "properties": {"a": 3}}, "properties", "/properties/a"),
        ({"type": "object", "properties": {"a": [1]}}, "properties", "/properties/a"),
        ({"properties": {"a": {"type": "array", "items": 3}}}, "items", "/properties/a/items"),
        ({"properties": {"a": {"anyOf": {"x": 1}}}}, "anyOf", "/properties/a/anyOf"),
        ({"properties": {"a": {"anyOf": [{}, 2]}}}, "anyOf", "/properties/a/anyOf/1"),
        ({"anyOf": [1, 2]}, "anyOf", "/anyOf/0"),
        ({"allOf": [1, {"type": "object"}]}, "allOf", "/allOf/0"),
        ({"properties": {"a": {"type": "string"}}, "required": [3]}, "required", "/required"),
        ({"properties": {"a": {}}, "required": 3}, "required", "/required"),
        ({"properties": {"a": {"type": 3}}}, "type", "/properties/a/type"),
        ({"properties": {"a": {"enum": "abc"}}}, "enum", "/properties/a/enum"),
        ({"properties": {}, "$defs": [1]}, "$defs", "/$defs"),
        ({"properties": {"a": {"not": 3}}}, "not", "/properties/a/not"),
        ({"properties": {"a": {"type": "array", "prefixItems": [None]}}}, "prefixItems",
         "/properties/a/prefixItems/0"),
    ],
)  # fmt: skip
def test_an_invalid_schema_is_refused_the_same_way_by_every_provider(
    schema: dict[str, Any], keyword: str, pointer: str
) -> None:
    tool = st.Tool(name="bad", description="", input_schema=schema, execute=lambda i: i)
    renders: list[Callable[[], Any]] = [
        lambda: to_openai(tool),
        lambda: to_openai(tool, strict=True),
        lambda: to_openai(tool, strict=False),
        lambda: to_anthropic(tool),
        lambda: to_gemini(tool),
        lambda: to_gemini(tool, field="parametersJsonSchema"),
        lambda: to_hf(tool),
    ]
    for render in renders:
        with pytest.raises(SchemaNotExpressibleError, match="not a valid JSON Schema") as raised:
            render()
        assert raised.value.tool == "bad" and raised.value.keyword == keyword
        assert raised.value.pointer == pointer


@pytest.mark.parametrize(
    "response",
    [
        {"candidates": [None]},
        {"candidates": [[{"functionCall": {"name": "add", "args": {}}}]]},
        {"candidates": [{"content": 7}]},
        {"candidates": "none"},
    ],
)
def test_a_malformed_gemini_response_is_a_usage_error(response: Any) -> None:
    from standard_tool.providers import read_tool_calls

    with pytest.raises(st.UsageError, match="Gemini|not int"):
        read_tool_calls(response, "gemini")
    assert read_tool_calls({"candidates": [{"content": None}]}, "gemini") == []


@pytest.mark.parametrize(
    ("provider", "key"),
    [("openai", "output"), ("openai", "tool_calls"), ("anthropic", "content"),
     ("gemini", "parts"), ("hf", "tool_calls")],
)  # fmt: skip
def test_a_too_deep_envelope_is_a_usage_error(provider: str, key: str) -> None:
    from standard_tool.providers import read_tool_calls

    envelope: Any = []
    for _ in range(5000):
        envelope = {key: envelope}
    with pytest.raises(st.UsageError, match="nest"):
        read_tool_calls(envelope, provider)
    with pytest.raises(st.UsageError, match="nest"):
        run_tool_calls(add, envelope, provider)


def test_every_call_is_answered_even_one_that_names_no_tool() -> None:
    message = {
        "role": "assistant",
        "tool_calls": [
            {"id": "t1", "type": "function", "function": "add"},
            {"id": "t2", "type": "function", "function": None},
            {"id": "t3", "type": "function", "function": {"arguments": "{}"}},
            {"id": "t4", "type": "function", "function": {"name": "add", "arguments": '{"a": 1}'}},
        ],
    }
    answers = run_tool_calls(add, message, provider="openai")
    assert [a["tool_call_id"] for a in answers] == ["t1", "t2", "t3", "t4"]
    for answer in answers[:3]:
        assert "the call names no tool" in json.loads(answer["content"])["error"]
    assert answers[3]["content"] == "2"
    hf = [
        {"id": "h1", "type": "function", "function": {"arguments": {"a": 1}}},
        {"id": "h2", "type": "function", "function": [1]},
        {"id": "h3", "type": "function", "function": {"name": "add", "arguments": {"a": 1}}},
    ]
    answers = run_tool_calls(add, {"role": "assistant", "tool_calls": hf}, provider="hf")
    assert [a["tool_call_id"] for a in answers] == ["h1", "h2", "h3"]
    assert all("names no tool" in a["content"] for a in answers[:2])
    parts = [
        {"functionCall": "add"},
        {"functionCall": {"id": "g2", "args": {}}},
        {"text": "x", "functionCall": None},
    ]
    answers = run_tool_calls(add, {"parts": parts}, provider="gemini")
    assert len(answers) == 2 and answers[1]["functionResponse"]["id"] == "g2"
    assert all("names no tool" in a["functionResponse"]["response"]["error"] for a in answers)
    assert run_tool_calls(add, {"role": "assistant", "content": "hi"}, provider="hf") == []


def _parse_seconds(text: str, format: Any) -> float:
    """The best of three runs, the garbage collector paused (its passes are noise here)."""
    gc.collect()
    gc.disable()
    try:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            parse_tool_calls(text, format)
            best = min(best, time.perf_counter() - start)
        return best
    finally:
        gc.enable()


@pytest.mark.parametrize(
    ("unit", "format"),
    [
        ("</s>", "hermes"),
        ("<|eot_id|> ", "llama3"),
        ("<|im_end|>\n", "mistral"),
        ('{"name": "f", "parameters": {}}; ', "llama3"),
        ("[TOOL_CALLS]f[ARGS]{}", "mistral"),
        ('[TOOL_CALLS][{"name": "f", "arguments": {}}]', "mistral"),
        ('<tool_call>{"name": "f", "arguments": {}}</tool_call>', "hermes"),
    ],
)
def test_parsing_grows_linearly_with_the_completion(unit: str, format: Any) -> None:
    n = 250_000 // len(unit) + 1  # about 250 kB, then four times as much
    ratios = []
    for _ in range(3):  # a busy machine may slow one measure; quadratic work fails them all
        small = _parse_seconds(unit * n, format)
        large = _parse_seconds(unit * (4 * n), format)
        ratios.append(large / max(small, 0.005))
        if ratios[-1] < 8:  # quadratic work would take 16 times as long
            break
    assert min(ratios) < 8, ratios
