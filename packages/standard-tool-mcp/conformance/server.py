"""The tools of the official MCP conformance suite, served with the adapter's public API only.

``python server.py PORT`` serves them over streamable HTTP at ``http://127.0.0.1:PORT/mcp``.
Sampling and elicitation use the documented escape hatch, ``context["session"]``; everything
else is plain standard tools.
"""

from __future__ import annotations

import asyncio
import base64
import sys
from typing import Any

import mcp.types as types

import standard_tool as st
from standard_tool_mcp import Audio, Image, Resource, serve

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
WAV = base64.b64decode("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=")


@st.tool
def test_simple_text() -> str:
    """Return a simple text response."""
    return "This is a simple text response for testing."


@st.tool
def test_image_content() -> Image:
    """Return a 1x1 PNG image."""
    return Image(PNG, "image/png")


@st.tool
def test_audio_content() -> Audio:
    """Return a short WAV sound."""
    return Audio(WAV, "audio/wav")


@st.tool
def test_embedded_resource() -> Resource:
    """Return an embedded text resource."""
    return Resource("test://embedded-resource", "text/plain", text="This is an embedded resource.")


@st.tool
def test_multiple_content_types() -> list[str | Image | Resource]:
    """Return text, an image and a resource together."""
    return [
        "Multiple content types test:",
        Image(PNG, "image/png"),
        Resource("test://mixed-content-resource", "application/json", text='{"test": "data"}'),
    ]


@st.tool
async def test_tool_with_logging() -> str:
    """Log three messages while running."""
    for message in ("Tool execution started", "Tool processing data", "Tool execution completed"):
        st.report_log(message)
        await asyncio.sleep(0.05)
    return "Logging completed"


@st.tool
def test_tool_with_progress() -> str:
    """Report progress 0, 50 and 100 of 100 (a sync tool: reports cross threads)."""
    for step in (0, 50, 100):
        st.report_progress(step, 100, f"step {step}")
    return "Progress completed"


@st.tool
def test_error_handling() -> str:
    """Always fail."""
    raise RuntimeError("This tool intentionally returns an error for testing")


@st.tool
async def test_sampling(prompt: str, context: Any) -> str:
    """Ask the client's model to answer the prompt."""
    result = await context["session"].create_message(
        [types.SamplingMessage(role="user", content=types.TextContent(type="text", text=prompt))],
        max_tokens=100,
        related_request_id=context["request_id"],
    )
    content = result.content
    return f"LLM response: {getattr(content, 'text', content)}"


async def _elicit(context: Any, message: str, schema: dict[str, Any]) -> str:
    result = await context["session"].elicit(message, schema, context["request_id"])
    return f"User response: action={result.action}, content={result.content}"


@st.tool
async def test_elicitation(message: str, context: Any) -> str:
    """Ask the user for their name and email."""
    schema = {
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"},
        },
        "required": ["username", "email"],
    }
    return await _elicit(context, message, schema)


@st.tool
async def test_elicitation_sep1034_defaults(context: Any) -> str:
    """Ask for values that all have defaults."""
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {
                "type": "string",
                "enum": ["active", "inactive", "pending"],
                "default": "active",
            },
            "verified": {"type": "boolean", "default": True},
        },
    }
    return await _elicit(context, "Please review and update the form fields with defaults", schema)


@st.tool
async def test_elicitation_sep1330_enums(context: Any) -> str:
    """Ask for values with every kind of enum."""
    schema = {
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {
                "type": "string",
                "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                ],
            },
            "legacyEnum": {
                "type": "string",
                "enum": ["opt1", "opt2"],
                "enumNames": ["Option One", "Option Two"],
            },
            "untitledMulti": {
                "type": "array",
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
            },
            "titledMulti": {
                "type": "array",
                "items": {
                    "anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                    ]
                },
            },
        },
    }
    return await _elicit(context, "Please select options from the enum fields", schema)


json_schema_2020_12_tool = st.Tool(
    name="json_schema_2020_12_tool",
    description="A tool whose input schema uses JSON Schema 2020-12 keywords.",
    input_schema={
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
            }
        },
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
        "additionalProperties": False,
    },
    execute=lambda arguments, context=None: f"Hello, {arguments.get('name', 'world')}",
)


@st.tool
def test_reconnection() -> str:
    """Answer at once."""
    return "Reconnection test completed"


TOOLS = [
    test_simple_text,
    test_image_content,
    test_audio_content,
    test_embedded_resource,
    test_multiple_content_types,
    test_tool_with_logging,
    test_tool_with_progress,
    test_error_handling,
    test_sampling,
    test_elicitation,
    test_elicitation_sep1034_defaults,
    test_elicitation_sep1330_enums,
    json_schema_2020_12_tool,
    test_reconnection,
]

if __name__ == "__main__":
    serve(TOOLS, "streamable-http", port=int(sys.argv[1]), name="standard-tool-conformance")
