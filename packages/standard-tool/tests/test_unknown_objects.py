"""An object with no JSON form is refused as output, never sent as its ``str()``."""

from __future__ import annotations

from typing import Any

import pytest

import standard_tool as st
from standard_tool.exceptions import NotJsonError


class Opaque:
    def __repr__(self) -> str:
        return "Opaque(token=sk-secret)"


@pytest.mark.parametrize("value", [Opaque(), {"nested": [Opaque()]}, object()])
def test_jsonable_refuses_objects_pydantic_cannot_serialize(value: Any) -> None:
    with pytest.raises(NotJsonError) as raised:
        st.jsonable(value)
    assert "cannot be serialized as JSON" in str(raised.value)
    assert "sk-secret" not in str(raised.value)


def test_a_tool_returning_one_fails_on_its_output() -> None:
    tool = st.Tool(name="opaque", description="d", execute=lambda i, c=None: [Opaque()])
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(tool, {})
    assert raised.value.target == "output" and "sk-secret" not in str(raised.value)
    assert st.call(st.with_formatted_output(tool), {})["error"].startswith(
        "Invalid output for tool 'opaque'"
    )
