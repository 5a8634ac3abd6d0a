"""Convert the example tools to every installed target and call them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from weather import TOOLS

import standard_tool as st

CALLS = {
    "get_forecast": {"location": {"city": "Lyon"}, "day": "2026-12-02"},
    "wait_and_echo": {"message": "hello", "seconds": 0.01},
    "multiply": {"a": 6, "b": 7},
}


def main() -> None:
    print("installed targets:", ", ".join(f"{t.name} ({t.distribution} {t.version})" for t in st.targets()))
    for example in TOOLS:
        print(f"\n== {example.name}: {example.description.splitlines()[0]}")
        print("input schema:", json.dumps(st.input_json_schema(example)))
        for target in st.targets():
            converted = st.convert(example, to=target.name)
            print(f"  -> {target.name}: {type(converted).__module__}.{type(converted).__qualname__}")
        result = st.call(example, CALLS[example.name])
        print("call:", json.dumps(st.jsonable(result)))
        failed = st.call(st.with_formatted_output(example), {"unexpected": 1})
        print("bad input:", failed["error"].replace("\n", " | "))


if __name__ == "__main__":
    main()
