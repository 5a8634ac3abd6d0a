"""What only a LangGraph run needs: imported from inside one, never with the package."""

from __future__ import annotations

from langgraph.errors import GraphBubbleUp

from standard_tool.exceptions import UsageError

__all__ = ["GraphUsageError"]


class GraphUsageError(UsageError, GraphBubbleUp):
    """A :class:`~standard_tool.exceptions.UsageError` raised inside a LangGraph run for the
    app: it passes a tool node's error handling (which gives the model what it catches), and
    the run raises it, the thread's checkpoint left as it was."""
