"""The MCP runtime's refusal of arguments that are no JSON object when it serves a tool it
did not make (only a descriptor and a server), and the text blocks beside structured content."""

from __future__ import annotations

import json

import pytest

import standard_tool as st
from standard_tool.testing import VALID_CALLS, sample_tools
from standard_tool_mcp._runtime import MCPRuntime, ServedTool

RUNTIME = MCPRuntime()


def _tagged(input: dict[str, str]) -> str:
    return input["tag"]


@pytest.mark.parametrize("arguments", [[], [["tag", "x"]], "", None, 5], ids=json.dumps)
def test_a_served_tool_of_unknown_origin_is_refused_under_the_name_a_client_adopts(
    arguments: object,
) -> None:
    tool = st.Tool(
        name="tag it.v2",  # served as tag_it.v2, adopted back as tag it.v2
        description="Tag.",
        input_schema={"type": "object", "properties": {"tag": {"type": "string"}}},
        execute=_tagged,
    )
    made = RUNTIME.native(tool)
    served = ServedTool(made.descriptor, made.server)  # no standard tool known
    assert served.name != tool.name and served.tool is None
    with pytest.raises(st.ToolValidationError) as direct:
        st.call(tool, arguments)
    assert RUNTIME.call(served, arguments).error == str(direct.value)
    assert RUNTIME.standard_tool(served).name == tool.name


def test_structured_content_keeps_the_text_the_model_reads() -> None:
    arguments, expected = VALID_CALLS["search"]
    outcome = RUNTIME.call(RUNTIME.native(sample_tools()["search"]), arguments)
    assert outcome.value == expected
    assert outcome.text is not None and json.loads(outcome.text) == expected
