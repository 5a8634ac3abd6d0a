"""The adapter contract, through an ``InMemoryRunner`` run of an ``LlmAgent`` (the adapter's
runtime)."""

from __future__ import annotations

from typing import Any

import standard_tool as st
from standard_tool.testing import AdapterContract
from standard_tool_google_adk import NAMES, Conversation, StandardAdkTool
from standard_tool_google_adk._scripted import declarations


class TestGoogleAdkContract(AdapterContract):
    target = "google-adk"
    distribution = "google-adk"
    name_rule = NAMES

    def native_schema(self, native: StandardAdkTool) -> dict[str, Any]:
        """What a run's ``LlmRequest`` sends the model: the declaration's
        ``parameters_json_schema``, which is the runtime's input schema."""
        parameters = super().native_schema(native)
        conversation = Conversation([native], ["done"])
        st.run_sync(conversation.send("go"))
        [request] = conversation.model.requests
        [declared] = declarations(request)
        assert declared.name == native.name and declared.parameters is None
        assert declared.parameters_json_schema == parameters
        return parameters
