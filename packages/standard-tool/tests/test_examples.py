"""The bundled examples the README shows work as it says."""

from __future__ import annotations

import asyncio
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import standard_tool as st

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"examples_{name}", EXAMPLES / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


weather = _load("weather")


def test_forecast_tool() -> None:
    forecast = weather.get_forecast
    schema = st.input_json_schema(forecast)
    assert schema["required"] == ["location", "day"]
    assert schema["properties"]["location"] == {
        "$ref": "#/$defs/Location",
        "description": "Where to forecast.",
    }
    output = st.output_json_schema(forecast)
    assert output is not None
    assert output["properties"]["summary"] == {
        "enum": ["sunny", "cloudy", "rain"],
        "type": "string",
    }
    result = st.call(forecast, {"location": {"city": "Lyon"}, "day": "2026-12-02"})
    assert st.jsonable(result) == {
        "city": "Lyon",
        "day": "2026-12-02",
        "high_c": 22.5,
        "summary": "rain",
    }
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(forecast, {"location": {"city": "Lyon", "country": "France"}, "day": "tomorrow"})
    assert raised.value.fields == ("location.country", "day")
    assert dict(forecast.meta) == {"read_only": True, "idempotent": True}


def test_async_example_inside_a_loop() -> None:
    async def run() -> tuple[str, str]:
        return st.call(weather.wait_and_echo, {"message": "a"}), await st.acall(
            weather.wait_and_echo, {"message": "b", "seconds": 0.01}
        )

    assert asyncio.run(run()) == ("a", "b")
    with pytest.raises(st.ToolValidationError, match="seconds"):
        st.call(weather.wait_and_echo, {"message": "a", "seconds": 5})


def test_raw_schema_example() -> None:
    assert st.call(weather.multiply, {"a": 6, "b": 7}) == {"product": 42}
    output = st.output_json_schema(weather.multiply)
    assert output is not None and output["required"] == ["product"]
    assert weather.multiply.title == "Multiply"


def test_providers_example_runs_the_loop_for_every_provider() -> None:
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "providers.py")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in out.splitlines()}
    assert "('get_forecast', True)" in lines["openai tools"]
    assert '"call_id": "call_2", "output": "{\\"product\\": 42}"' in out
    assert "b: must be of type integer" in lines["openai chat"]
    assert (
        '"is_error": false' in lines["anthropic"]
        and '\\"summary\\": \\"rain\\"' in lines["anthropic"]
    )
    assert '"response": {"output": {"product": 42}}' in lines["gemini"]
    assert '"role": "tool", "name": "get_forecast"' in out and '"high_c\\": 22.5' in out
