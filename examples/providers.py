"""The whole tool loop with each model provider's API, no agent framework: declare the tools,
read what the model sent back, run it, answer. The model's replies are scripted here (no
network); with a real client, pass the declarations as ``tools=`` and its reply as is.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from weather import TOOLS  # noqa: E402

from standard_tool.providers import (  # noqa: E402
    parse_tool_calls,
    run_tool_calls,
    to_anthropic,
    to_gemini,
    to_hf,
    to_openai,
)

FORECAST = {"location": {"city": "Lyon"}, "day": "2026-12-02"}

# What each provider's model answers when it wants the forecast and a product: the shapes
# its API returns (a response's output items, a message's content blocks, a candidate's parts).
OPENAI_RESPONSE_OUTPUT = [
    {"type": "reasoning", "id": "rs_1", "summary": []},
    {
        "type": "function_call",
        "call_id": "call_1",
        "name": "get_forecast",
        # strict mode: every property is sent, null for the ones the model leaves out
        "arguments": json.dumps(
            {"location": {"city": "Lyon", "country": None}, "day": "2026-12-02"}
        ),
    },
    {
        "type": "function_call",
        "call_id": "call_2",
        "name": "multiply",
        "arguments": '{"a": 6, "b": 7}',
    },
]
OPENAI_CHAT_MESSAGE = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {
            "id": "call_9",
            "type": "function",
            "function": {"name": "multiply", "arguments": '{"a": 6, "b": "seven"}'},
        }
    ],
}
ANTHROPIC_MESSAGE = {
    "role": "assistant",
    "content": [
        {"type": "text", "text": "Checking the forecast."},
        {"type": "tool_use", "id": "toolu_1", "name": "get_forecast", "input": FORECAST},
    ],
}
GEMINI_CONTENT = {
    "role": "model",
    "parts": [{"functionCall": {"id": "fc_1", "name": "multiply", "args": {"a": 6, "b": 7}}}],
}
QWEN_COMPLETION = (
    "Let me look that up.\n<tool_call>\n"
    '{"name": "get_forecast", "arguments": {"location": {"city": "Lyon"}, "day": "2026-12-02"}}'
    "\n</tool_call><|im_end|>"
)


def main() -> None:
    # OpenAI Responses: declarations in `tools=`, the output items back in `input=`
    declared = to_openai(TOOLS)
    print("openai tools:", [(d["name"], d["strict"]) for d in declared])
    answers = run_tool_calls(TOOLS, OPENAI_RESPONSE_OUTPUT, provider="openai")
    show("openai responses", answers)

    # OpenAI Chat Completions: a bad argument comes back as an error the model can fix
    to_openai(TOOLS, api="chat")
    show("openai chat", run_tool_calls(TOOLS, OPENAI_CHAT_MESSAGE, provider="openai"))

    # Anthropic: the tool_result blocks go back in one user message
    to_anthropic(TOOLS)
    blocks = run_tool_calls(TOOLS, ANTHROPIC_MESSAGE, provider="anthropic")
    show("anthropic", [{"role": "user", "content": blocks}])

    # Gemini: the functionResponse parts go back in one content
    declarations = to_gemini(TOOLS)
    print(
        "gemini tool:",
        [d["name"] for d in {"functionDeclarations": declarations}["functionDeclarations"]],
    )
    show("gemini", run_tool_calls(TOOLS, GEMINI_CONTENT, provider="gemini"))

    # An open-weight model: tools into the chat template, its raw completion parsed
    to_hf(TOOLS)  # tokenizer.apply_chat_template(messages, tools=...)
    completion = parse_tool_calls(QWEN_COMPLETION, format="qwen")
    messages: list[dict[str, Any]] = [completion.message]
    messages += run_tool_calls(TOOLS, completion, provider="hf")
    show("chat template", messages)


def show(label: str, items: list[dict[str, Any]]) -> None:
    for item in items:
        print(f"{label}: {json.dumps(item)}")


if __name__ == "__main__":
    main()
