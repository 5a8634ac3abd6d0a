"""A toy framework and its adapter, as a third party would write them."""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._convert import ToyAdopted as ToyAdopted, from_toy as from_toy, to_toy as to_toy
    from ._toy import ToyTool as ToyTool, run_tool_call as run_tool_call

__all__, __getattr__, __dir__ = lazy_exports(__name__)
