"""A toy framework and its adapter, as a third party would write them."""

from ._toy import ToyTool, from_toy, run_tool_call, to_toy

__all__ = ["ToyTool", "from_toy", "run_tool_call", "to_toy"]
