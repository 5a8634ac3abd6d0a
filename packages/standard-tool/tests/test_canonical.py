"""Canonical JSON (RFC 8785) and the digests over it: one form for the same data."""

from __future__ import annotations

import json
import struct
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st_h

from standard_tool.exceptions import UsageError
from standard_tool.schema._canonical import canonical_json, digest

# RFC 8785, section 3.2.2: the example input and its canonical form.
RFC_INPUT = r"""{
  "numbers": [333333333.33333329, 1E30, 4.50,
              2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}"""
RFC_OUTPUT = (
    r"""{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"""
    r""""string":"€$\u000f\nA'B\"\\\\\"/"}"""
)

# RFC 8785, section 3.2.3: property sorting by UTF-16 code units.
RFC_SORT_INPUT = r"""{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}"""
RFC_SORT_VALUES = [
    "Carriage Return",
    "One",
    "Control",
    "Latin Small Letter O With Diaeresis",
    "Euro Sign",
    "Emoji: Grinning Face",
    "Hebrew Letter Dalet With Dagesh",
]

# RFC 8785, appendix B: IEEE 754 doubles (as hex) and their JSON form.
RFC_NUMBERS = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


def test_the_rfc_example() -> None:
    assert canonical_json(json.loads(RFC_INPUT)).decode("utf-8") == RFC_OUTPUT


def test_the_rfc_property_order() -> None:
    out = json.loads(canonical_json(json.loads(RFC_SORT_INPUT)))
    assert list(out.values()) == RFC_SORT_VALUES


@pytest.mark.parametrize(("ieee", "expected"), RFC_NUMBERS)
def test_the_rfc_numbers(ieee: str, expected: str) -> None:
    number = struct.unpack(">d", bytes.fromhex(ieee))[0]
    assert canonical_json(number) == expected.encode("ascii")


def test_key_order_and_number_spelling_give_the_same_bytes() -> None:
    spellings = ['{"a": 1, "b": [1, 2.50]}', '{"b": [1.0, 25e-1], "a": 1e0}']
    forms = {canonical_json(json.loads(text)) for text in spellings}
    assert forms == {b'{"a":1,"b":[1,2.5]}'}
    assert len({digest(json.loads(text)) for text in spellings}) == 1
    assert digest({"a": 1}).startswith("sha256:")
    assert digest({"a": 1}) != digest({"a": 2})


def test_large_integers_keep_every_digit() -> None:
    big = 2**64 + 1
    assert canonical_json({"n": big, "m": -big}) == f'{{"m":{-big},"n":{big}}}'.encode()
    # Past 2**53 neighbours share a double; their canonical forms must still differ.
    assert float(2**53) == float(2**53 + 1)
    assert canonical_json(2**53) != canonical_json(2**53 + 1)
    assert digest([2**70]) != digest([2**70 + 1])
    # A string holding the same digits is another value.
    assert canonical_json([2**64]) != canonical_json([str(2**64)])
    # Strings around the large integer are kept as they are.
    value = {"text": "\x00 x", "n": [10**30, "10**30"]}
    assert json.loads(canonical_json(value)) == value


@pytest.mark.parametrize(
    "value",
    [float("nan"), float("inf"), {"a": {1, 2}}, "\ud800", {"k": ["\udfff"]}],
    ids=["nan", "infinity", "set", "lone-surrogate", "nested-surrogate"],
)
def test_what_is_not_json_data_is_a_usage_error(value: Any) -> None:
    with pytest.raises(UsageError):
        canonical_json(value)
    with pytest.raises(UsageError):
        digest(value)


def test_a_large_integer_next_to_what_is_not_json_data_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        canonical_json({"n": 2**64, "bad": float("nan")})


_KEYS = st_h.text(st_h.characters(codec="utf-8"), max_size=6)
_VALUES = st_h.recursive(
    st_h.none()
    | st_h.booleans()
    | st_h.integers(-(2**53) + 1, 2**53 - 1)
    | st_h.floats(allow_nan=False, allow_infinity=False)
    | st_h.text(st_h.characters(codec="utf-8"), max_size=8),
    lambda inner: st_h.lists(inner, max_size=4) | st_h.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_the_fast_path_writes_exactly_what_rfc8785_writes(value: Any) -> None:
    import rfc8785

    assert canonical_json(value) == rfc8785.dumps(value)
