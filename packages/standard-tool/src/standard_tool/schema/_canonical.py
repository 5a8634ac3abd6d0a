"""Canonical JSON (RFC 8785, the JSON Canonicalization Scheme) and digests over it: the same
bytes for the same data, whatever the key order or the spelling of a number."""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from ..exceptions import UsageError

__all__ = ["canonical_json", "digest"]

_SAFE = 2**53 - 1
"""RFC 8785 writes numbers as IEEE doubles; integers past this are written digit for digit."""


def canonical_json(value: Any) -> bytes:
    """``value`` (JSON data) as RFC 8785 canonical JSON, in UTF-8.

    An integer too large for a double, which RFC 8785 has no form for, is written with all its
    digits, so that two different integers never share a form. Anything that is not JSON data
    (NaN, a set, a lone surrogate, nesting past Python's recursion limit) is a UsageError.
    """
    if _plain(value):
        try:  # no float, keys in UTF-16 order: the C encoder writes exactly RFC 8785's bytes
            return _ENCODER.encode(value).encode("utf-8")
        except (UnicodeEncodeError, RecursionError):
            pass  # a lone surrogate, or deeper than Python goes: rfc8785 says which
    import rfc8785

    try:
        try:
            return rfc8785.dumps(value)
        except rfc8785.IntegerDomainError:
            return _with_large_integers(value)
    except (rfc8785.CanonicalizationError, TypeError, ValueError, RecursionError) as exc:
        raise UsageError(f"not JSON data that can be canonicalized: {type(exc).__name__}") from None


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)
"""Sorted keys, no spaces, strings escaped as RFC 8785 does (``\\"``, ``\\\\``, ``\\b``,
``\\f``, ``\\n``, ``\\r``, ``\\t``, other controls as lowercase ``\\u00xx``, all else as is);
integers are written digit for digit. Only floats are written otherwise, so values with a float
go to rfc8785."""
_PLAIN_DEPTH = 64
"""Deeper values go to rfc8785 (which is exact at any depth Python reaches)."""
_SCALARS = (str, int, bool, type(None))


def _plain(value: Any) -> bool:
    """Whether ``value`` holds no float, only string keys below U+D800 (whose code-point order
    is their UTF-16 order, which RFC 8785 sorts by), and nests at most ``_PLAIN_DEPTH`` deep.

    Every digest of a guarded call asks this, so the walk is a loop over the containers only,
    each scalar told by its exact type first."""
    if type(value) is not dict and type(value) is not list and type(value) is not tuple:
        return isinstance(value, _SCALARS) and not isinstance(value, float)
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > _PLAIN_DEPTH:
            return False
        if type(node) is dict:
            for key in node:
                if type(key) is not str or not (key.isascii() or max(key) < "\ud800"):
                    return False
            node = node.values()
        for item in node:
            kind = type(item)
            if kind is str or kind is int or kind is bool or item is None:
                continue
            if kind is dict or kind is list or kind is tuple:
                stack.append((item, depth + 1))
            elif not isinstance(item, _SCALARS) or isinstance(item, float):
                return False
    return True


def digest(value: Any) -> str:
    """``sha256:`` and the hex SHA-256 of ``value``'s canonical JSON."""
    return "sha256:" + hashlib.sha256(canonical_json(value)).hexdigest()


def _with_large_integers(value: Any) -> bytes:
    import rfc8785

    nonce = secrets.token_hex(8)  # no string of the value can name a stand-in by chance
    digits: dict[str, str] = {}

    def stand_in(node: Any) -> Any:
        kind = type(node)
        if kind is int and not -_SAFE <= node <= _SAFE:
            token = f"\x00{nonce}:{len(digits)}"
            digits[token] = str(node)
            return token
        if kind is dict:
            return {key: stand_in(item) for key, item in node.items()}
        if kind is list or kind is tuple:
            return [stand_in(item) for item in node]
        return node

    out: bytes = rfc8785.dumps(stand_in(value))
    for token, number in digits.items():
        out = out.replace(rfc8785.dumps(token), number.encode("ascii"), 1)
    return out
