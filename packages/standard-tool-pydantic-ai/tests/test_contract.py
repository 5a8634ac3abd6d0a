"""The adapter contract, through a real PydanticAI agent run (the adapter's runtime)."""

from __future__ import annotations

from standard_tool.testing import AdapterContract
from standard_tool_pydantic_ai import NAMES


class TestPydanticAIContract(AdapterContract):
    target = "pydantic-ai"
    distribution = "pydantic-ai-slim"
    name_rule = NAMES
