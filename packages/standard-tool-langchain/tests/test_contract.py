"""The adapter contract, through LangChain's own tool-call runtime (the adapter's runtime)."""

from __future__ import annotations

from standard_tool.testing import AdapterContract
from standard_tool_langchain import NAMES


class TestLangChainContract(AdapterContract):
    target = "langchain"
    distribution = "langchain-core"
    name_rule = NAMES
