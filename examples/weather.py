"""Example tools: sync and async functions, nested input models, an output schema."""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from standard_tool import Tool, tool


class Location(BaseModel):
    """A place on Earth."""

    city: str = Field(min_length=1)
    country: str = Field(default="FR", pattern="^[A-Z]{2}$")


Summary = Literal["sunny", "cloudy", "rain"]
SUMMARIES: tuple[Summary, ...] = ("sunny", "cloudy", "rain")


class Forecast(BaseModel):
    """The weather expected on one day."""

    city: str
    day: date
    high_c: float
    summary: Summary


@tool(meta={"read_only": True, "idempotent": True})
def get_forecast(location: Location, day: date, units: Literal["c", "f"] = "c") -> Forecast:
    """Forecast the weather for a place and a day.

    Args:
        location: Where to forecast.
        day: The day, as an ISO date.
        units: Temperature units of the summary.
    """
    high = 18.5 + len(location.city) % 5
    summary = SUMMARIES[day.toordinal() % 3]
    return Forecast(city=location.city, day=day, high_c=high, summary=summary)


@tool
async def wait_and_echo(message: str, seconds: Annotated[float, Field(ge=0, le=1)] = 0) -> str:
    """Wait a little, then echo the message back.

    Args:
        message: What to echo.
        seconds: How long to wait first (at most one second).
    """
    await asyncio.sleep(seconds)
    return message


def _multiply(input: dict[str, Any], context: dict[str, Any] | None = None) -> dict[str, int]:
    return {"product": input["a"] * input["b"]}


multiply = Tool(
    name="multiply",
    title="Multiply",
    description="Multiply two integers.",
    input_schema={
        "type": "object",
        "properties": {
            "a": {"type": "integer", "description": "First factor."},
            "b": {"type": "integer", "description": "Second factor."},
        },
        "required": ["a", "b"],
        "additionalProperties": False,
    },
    output_schema={
        "type": "object",
        "properties": {"product": {"type": "integer"}},
        "required": ["product"],
    },
    execute=_multiply,
    meta={"destructive": False},
)

TOOLS = [get_forecast, wait_and_echo, multiply]
