"""Documented functions that ``transformers.utils.get_json_schema`` accepts, for comparing
``to_hf`` with it (``hf_get_json_schema.json`` holds what it returned; ``make_hf_fixtures.py``
writes that file)."""

from __future__ import annotations

from enum import Enum
from typing import Literal


class Color(Enum):
    RED = "red"
    GREEN = "green"


def multiply(x: float, y: float) -> float:
    """A function that multiplies two numbers.

    Args:
        x: The first number to multiply.
        y: The second number to multiply.

    Returns:
        The product.
    """
    return x * y


def get_weather(location: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
    """Get the current weather in a given location.

    Args:
        location: The city and country, e.g. "Paris, France".
        unit: The unit of temperature.
    """
    return f"20 {unit} in {location}"


def search(query: str, limit: int = 10, tags: list[str] | None = None) -> list[str]:
    """Search the notes.

    Args:
        query: What to look for.
        limit: How many results at most.
        tags: Only notes with all of these tags.
    """
    return [query][:limit]


def pick(
    choice: int | str, flags: dict[str, bool] | None = None, ratio: float | None = None
) -> str:
    """Pick something.

    Args:
        choice: An index or a name.
        flags: Switches by name.
        ratio: A share between 0 and 1, if any.
    """
    return str(choice)


def paint(color: Color, point: tuple[float, float], verbose: bool = False) -> str:
    """Paint a point.

    Args:
        color: The color to use.
        point: Where to paint, as x and y.
        verbose: Whether to say more.
    """
    return color.value


def ping() -> str:
    """Check that the service answers."""
    return "pong"


FUNCTIONS = [multiply, get_weather, search, pick, paint, ping]
