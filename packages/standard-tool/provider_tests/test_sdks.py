"""Rendered declarations and answers, accepted by the providers' own SDK types (no network).

Run by the ``providers`` session, which installs ``openai``, ``anthropic`` and
``google-genai``; they are imported at the top, so a missing SDK fails the session.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anthropic.types as anthropic_types
import pytest
from google.genai import types as genai
from openai.types.chat import ChatCompletionFunctionTool, ChatCompletionToolMessageParam
from openai.types.responses import FunctionTool, ResponseFunctionToolCall
from openai.types.responses.response_input_item_param import FunctionCallOutput
from pydantic import TypeAdapter

import standard_tool as st
from standard_tool.exceptions import SchemaNotExpressibleError
from standard_tool.providers import run_tool_calls, to_anthropic, to_gemini, to_hf, to_openai

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import provider_corpus as corpus  # noqa: E402

TOOLS = corpus.tools()
LABELS = sorted(TOOLS)


@pytest.mark.parametrize("label", LABELS)
def test_openai_types_accept_the_declarations(label: str) -> None:
    for strict in (None, False):
        responses = to_openai(TOOLS[label], strict=strict)
        assert FunctionTool.model_validate(responses).model_dump(exclude_none=True) == responses
        chat = to_openai(TOOLS[label], api="chat", strict=strict)
        assert ChatCompletionFunctionTool.model_validate(chat).model_dump(exclude_none=True) == chat


@pytest.mark.parametrize("label", LABELS)
def test_anthropic_types_accept_the_declarations(label: str) -> None:
    declaration = to_anthropic(TOOLS[label])
    TypeAdapter(anthropic_types.ToolParam).validate_python(declaration)
    tool = anthropic_types.ToolParam(**declaration)  # type: ignore[typeddict-item]
    assert tool["input_schema"]["type"] == "object"


@pytest.mark.parametrize("label", LABELS)
def test_genai_types_accept_the_declarations(label: str) -> None:
    json_schema = to_gemini(TOOLS[label], field="parametersJsonSchema")
    assert genai.FunctionDeclaration.model_validate(json_schema).parameters_json_schema
    if label in corpus.RECURSIVE or label in corpus.NOT_GEMINI:
        with pytest.raises(SchemaNotExpressibleError) as raised:
            to_gemini(TOOLS[label], field="parameters")
        if label in corpus.NOT_GEMINI:  # a position Gemini has no type for: refused, with why
            assert raised.value.keyword in ("type", "properties")
            assert "field='parametersJsonSchema'" in raised.value.reason
        assert to_gemini(TOOLS[label]) == json_schema  # by default, the form that can say it
        return
    declaration = to_gemini(TOOLS[label])
    parsed = genai.FunctionDeclaration.model_validate(declaration)  # extra keys are refused
    assert parsed.name == declaration["name"]
    if "parameters" in declaration:
        assert parsed.parameters is not None and parsed.parameters.type == genai.Type.OBJECT
    genai.Tool(function_declarations=[parsed])


@pytest.mark.parametrize("label", LABELS)
def test_hf_declarations_are_openai_chat_tools(label: str) -> None:
    declaration = to_hf(TOOLS[label])
    function = {k: v for k, v in declaration["function"].items() if k != "return"}
    ChatCompletionFunctionTool.model_validate({"type": "function", "function": function})


@st.tool
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


def test_answers_fit_the_sdk_types() -> None:
    call = ResponseFunctionToolCall(
        type="function_call", call_id="c1", name="add", arguments='{"a": 1, "b": null}'
    )
    [output] = run_tool_calls(add, [call], provider="openai")
    TypeAdapter(FunctionCallOutput).validate_python(output)
    assert output == {"type": "function_call_output", "call_id": "c1", "output": "2"}

    chat = {"id": "t1", "type": "function", "function": {"name": "add", "arguments": "{}"}}
    [message] = run_tool_calls(add, [chat], provider="openai")
    TypeAdapter(ChatCompletionToolMessageParam).validate_python(message)

    block = anthropic_types.ToolUseBlock(type="tool_use", id="u1", name="add", input={"a": 2})
    [result] = run_tool_calls(add, [block], provider="anthropic")
    TypeAdapter(anthropic_types.ToolResultBlockParam).validate_python(result)
    assert result["content"] == "3" and result["is_error"] is False

    part = genai.Part(function_call=genai.FunctionCall(id="g1", name="add", args={"a": 3}))
    content = genai.Content(role="model", parts=[part])
    [answer] = run_tool_calls(add, content, provider="gemini")
    parsed: Any = genai.Part.model_validate(answer)
    assert parsed.function_response.response == {"output": 4}
    assert parsed.function_response.id == "g1"
