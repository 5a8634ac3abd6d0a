"""The SDK's own high-level server with tools that elicit, sample, report progress and log.

``build()`` returns it for in-process use; run as a script, it serves it over stdio.
"""

import sys
import warnings
from typing import Annotated, Any

import mcp.types as types
from pydantic import BaseModel

from standard_tool_mcp._compat import MAJOR


class Person(BaseModel):
    name: str = "Ada"
    age: int = 36


QUESTION = "Who is calling?"
PROMPT = "Say hello"


def _prompt() -> list[types.SamplingMessage]:
    return [types.SamplingMessage(role="user", content=types.TextContent(type="text", text=PROMPT))]


def _text(result: Any) -> str:
    content = result.content
    return str(content.text if hasattr(content, "text") else content)


async def _steps(ctx: Any, count: int) -> str:
    for step in range(count):
        await ctx.report_progress(step + 1, count, f"step {step + 1}")
    with warnings.catch_warnings():  # logging is deprecated on the 2026-07-28 protocol
        warnings.simplefilter("ignore")
        await ctx.info("steps begin")
        await ctx.warning({"left": 0})
    return "done"


def build() -> Any:
    if MAJOR >= 2:
        return _build_2()
    return _build_1()


def _build_1() -> Any:
    from mcp.server.fastmcp import Context, FastMCP

    server = FastMCP("callbacks")

    @server.tool()
    async def ask(ctx: Context) -> str:
        """Ask the client who calls."""
        answer = await ctx.elicit(QUESTION, Person)
        data = getattr(answer, "data", None)
        return f"{answer.action}:{data.name if data else ''}"

    @server.tool()
    async def sample(ctx: Context) -> str:
        """Ask the client's model."""
        result = await ctx.session.create_message(_prompt(), max_tokens=10)
        return _text(result)

    @server.tool()
    async def steps(ctx: Context, count: int = 3) -> str:
        """Report progress, and log."""
        return await _steps(ctx, count)

    return server


def _build_2() -> Any:
    from mcp.server.mcpserver import (
        AcceptedElicitation,
        Context,
        Elicit,
        ElicitationResult,
        MCPServer,
        Resolve,
        Sample,
    )

    server = MCPServer("callbacks")

    def who() -> Elicit[Person]:
        return Elicit(QUESTION, Person)

    def hello() -> Sample:
        return Sample(_prompt(), max_tokens=10)

    @server.tool()
    async def ask(answer: Annotated[ElicitationResult[Person], Resolve(who)]) -> str:
        """Ask the client who calls."""
        name = answer.data.name if isinstance(answer, AcceptedElicitation) else ""
        return f"{answer.action}:{name}"

    @server.tool()
    async def sample(result: Annotated[types.CreateMessageResult, Resolve(hello)]) -> str:
        """Ask the client's model."""
        return _text(result)

    @server.tool()
    async def steps(ctx: Context, count: int = 3) -> str:
        """Report progress, and log."""
        return await _steps(ctx, count)

    return server


if __name__ == "__main__":
    if sys.argv[1:] != ["stdio"]:
        raise SystemExit("usage: callback_server.py stdio")
    build().run("stdio")
