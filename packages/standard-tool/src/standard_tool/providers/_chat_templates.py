"""Tool calls in the raw completions of open-weight models, in the common chat-template formats.

A completion is read whole or refused: a call cut off, JSON that does not parse, text where
only calls may stand, or a call that is not ``{name, arguments}`` raise
:class:`~standard_tool.exceptions.ModelOutputError` (saying where, never quoting the text).
Nothing is guessed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from .._text import clip
from ..exceptions import ModelOutputError, UsageError
from ..schema._json import LARGE_NUMBER

__all__ = ["FORMATS", "ParsedCompletion", "parse_tool_calls"]

Format = Literal["hermes", "qwen", "llama3", "mistral"]
FORMATS: tuple[str, ...] = ("hermes", "qwen", "llama3", "mistral")
"""The formats :func:`parse_tool_calls` reads (``qwen`` is ``hermes``)."""

_DECODER = json.JSONDecoder()
_END_TOKENS = ("<|eot_id|>", "<|eom_id|>", "<|im_end|>", "</s>", "<|end_of_text|>")
_ENDING_BACKWARDS = re.compile(
    r"(?:\s*(?:" + "|".join(re.escape(token[::-1]) for token in _END_TOKENS) + r")){0,512}\s*"
)
"""At most 512 of the end tokens (and the whitespace) that close a completion, spelled
backwards: a repeat the matcher keeps a mark for each time round is kept short, so that
stripping any number of them is linear (Python 3.10 has no possessive repeat)."""
_SPACE = re.compile(r"\s*")
_NAME = re.compile(r"[^\s\[\]{}]+")


@dataclass(frozen=True)
class ParsedCompletion:
    """A completion split into its text and its tool calls.

    ``calls`` are in the chat-template shape (``{"type": "function", "function": {"name",
    "arguments"}}``, with ``"id"`` where the model gave one): what an assistant message's
    ``tool_calls`` holds, and what ``run_tool_calls(..., provider="hf")`` takes.
    """

    content: str
    calls: list[dict[str, Any]] = field(default_factory=list)

    @property
    def message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.calls:
            message["tool_calls"] = self.calls
        return message


def parse_tool_calls(text: str, format: Format = "hermes") -> ParsedCompletion:
    """The text and tool calls of a raw completion (several calls per message).

    - ``"hermes"`` / ``"qwen"``: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``
      blocks (Hermes, Qwen 2.5 and 3, and the many templates that copied them).
    - ``"llama3"``: Llama 3.1-3.3 JSON calls, ``{"name": ..., "parameters": {...}}``, alone
      in the message or after ``<|python_tag|>``, several separated by ``;``.
    - ``"mistral"``: ``[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]``, or the newer
      ``[TOOL_CALLS]name[ARGS]{...}`` form.

    Raises :class:`~standard_tool.exceptions.ModelOutputError` for a completion that cannot
    be read without guessing.
    """
    if not isinstance(text, str):
        raise UsageError(f"a completion is a string, not {type(text).__name__}")
    text = _without_end_tokens(text)
    if format in ("hermes", "qwen"):
        return _hermes(text)
    if format == "llama3":
        return _llama3(text)
    if format == "mistral":
        return _mistral(text)
    raise UsageError(f"format is one of {', '.join(map(repr, FORMATS))}, not {format!r}")


def _without_end_tokens(text: str) -> str:
    """``text`` without the end tokens (and whitespace) that close it: matched over the text
    read backwards, 512 tokens at a time, nothing copied but the result."""
    backwards, stripped = text[::-1], 0
    while True:
        end = _ENDING_BACKWARDS.match(backwards, stripped).end()  # type: ignore[union-attr]
        if end == stripped:
            return text[: len(text) - stripped]
        stripped = end


def _skip_space(text: str, position: int) -> int:
    """Where the whitespace at ``text[position]`` ends."""
    return _SPACE.match(text, position).end()  # type: ignore[union-attr]


def _call(value: Any, where: str, arguments_keys: tuple[str, ...]) -> dict[str, Any]:
    """One call in the chat-template shape, from a decoded ``{name, arguments}`` object."""
    if not isinstance(value, dict):
        raise ModelOutputError(f"{where} is not a JSON object")
    name = value.get("name")
    if not isinstance(name, str) or not name:
        raise ModelOutputError(f"{where} has no tool name")
    present = [key for key in arguments_keys if key in value]
    if len(present) > 1:
        raise ModelOutputError(f"{where} gives its arguments twice ({', '.join(present)})")
    arguments = value[present[0]] if present else {}
    if isinstance(arguments, str):  # some models send the arguments as JSON text
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError:
            raise ModelOutputError(f"{where} has arguments that are not valid JSON") from None
        except RecursionError:
            raise ModelOutputError(f"{where} has arguments that nest too deep") from None
        except ValueError:  # valid JSON with a number longer than Python reads
            raise ModelOutputError(f"{where} has arguments that hold {LARGE_NUMBER}") from None
    if not isinstance(arguments, dict):
        raise ModelOutputError(f"{where} has arguments that are not a JSON object")
    unknown = sorted(set(value) - {"name", "id", *arguments_keys})
    if unknown:
        keys = ", ".join(clip(key) for key in unknown[:10]) + (", ..." if len(unknown) > 10 else "")
        raise ModelOutputError(f"{where} has keys a tool call does not have: {keys}")
    call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": arguments}}
    if isinstance(value.get("id"), str):
        call["id"] = value["id"]
    return call


def _decode(text: str, start: int, where: str) -> tuple[Any, int]:
    """The JSON value starting at ``text[start]`` and where it ends."""
    try:
        return _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as error:
        cut = error.pos >= len(text)
        why = "is cut off" if cut else f"is not valid JSON (at character {error.pos - start})"
        raise ModelOutputError(f"{where} {why}") from None
    except RecursionError:
        raise ModelOutputError(f"{where} nests too deep") from None
    except ValueError:  # valid JSON with a number longer than Python reads
        raise ModelOutputError(f"{where} holds {LARGE_NUMBER}") from None


_OPEN, _CLOSE = "<tool_call>", "</tool_call>"


def _hermes(text: str) -> ParsedCompletion:
    calls, outside, position, index = [], [], 0, 0
    while True:
        start = text.find(_OPEN, position)
        stray = text.find(_CLOSE, position)
        if stray != -1 and (start == -1 or stray < start):
            raise ModelOutputError(f"a {_CLOSE} closes no {_OPEN} (tool call {index + 1})")
        if start == -1:
            outside.append(text[position:])
            break
        outside.append(text[position:start])
        end = text.find(_CLOSE, start)
        where = f"tool call {index + 1}"
        if end == -1:
            raise ModelOutputError(f"{where} is cut off: {_OPEN} is never closed")
        body = text[start + len(_OPEN) : end]
        if _OPEN in body:
            raise ModelOutputError(f"{where} holds another {_OPEN} before it is closed")
        stripped = body.strip()
        if not stripped:
            raise ModelOutputError(f"{where} is empty")
        value, stop = _decode(stripped, 0, where)
        if stripped[stop:].strip():
            raise ModelOutputError(f"{where} has text after its JSON object")
        calls.append(_call(value, where, ("arguments", "parameters")))
        position, index = end + len(_CLOSE), index + 1
    return ParsedCompletion(_joined(outside), calls)


def _joined(parts: list[str]) -> str:
    return re.sub(r"\n{3,}", "\n\n", "".join(parts)).strip()


_PYTHON_TAG = "<|python_tag|>"


def _llama3(text: str) -> ParsedCompletion:
    tag = text.find(_PYTHON_TAG)
    if tag != -1:
        content, body = text[:tag].strip(), text[tag + len(_PYTHON_TAG) :].strip()
        if not body:
            raise ModelOutputError(f"tool call 1 is cut off: nothing follows {_PYTHON_TAG}")
    else:
        stripped = text.strip()
        if not stripped.startswith(("{", "[")):
            return ParsedCompletion(stripped)
        content, body = "", stripped
    calls: list[dict[str, Any]] = []
    position = 0
    while position < len(body):
        where = f"tool call {len(calls) + 1}"
        value, position = _decode(body, position, where)
        values = value if isinstance(value, list) else [value]
        for item in values:
            calls.append(_call(item, f"tool call {len(calls) + 1}", ("parameters", "arguments")))
        position = _skip_space(body, position)
        if body.startswith(";", position):
            position = _skip_space(body, position + 1)
        elif position < len(body) and body[position] not in "{[":
            raise ModelOutputError(f"{where} is followed by text that is not a tool call")
    if not calls:
        raise ModelOutputError("the completion holds no tool call where one was announced")
    return ParsedCompletion(content, calls)


_TOOL_CALLS, _ARGS, _CALL_ID = "[TOOL_CALLS]", "[ARGS]", "[CALL_ID]"


def _mistral(text: str) -> ParsedCompletion:
    first = text.find(_TOOL_CALLS)
    if first == -1:
        return ParsedCompletion(text.strip())
    content = text[:first].strip()
    calls: list[dict[str, Any]] = []
    position = first
    while position < len(text):
        if not text.startswith(_TOOL_CALLS, position):
            raise ModelOutputError(
                f"tool call {len(calls)} is followed by text that is not a tool call"
            )
        position = _skip_space(text, position + len(_TOOL_CALLS))
        where = f"tool call {len(calls) + 1}"
        if position == len(text):
            raise ModelOutputError(f"{where} is cut off: nothing follows {_TOOL_CALLS}")
        if text[position] == "[":  # [TOOL_CALLS][{...}, ...]
            value, stop = _decode(text, position, where)
            for item in value if isinstance(value, list) else [value]:
                calls.append(_call(item, f"tool call {len(calls) + 1}", ("arguments",)))
            position = _skip_space(text, stop)
            continue
        args = text.find(_ARGS, position)  # [TOOL_CALLS]name[CALL_ID]id[ARGS]{...}
        if args == -1:
            raise ModelOutputError(f"{where} is cut off: its {_ARGS} never comes")
        head, call_id = text[position:args], None
        if _CALL_ID in head:
            head, call_id = (part.strip() for part in head.split(_CALL_ID, 1))
        name = head.strip()
        if not _NAME.fullmatch(name):
            raise ModelOutputError(f"{where} has no valid tool name before {_ARGS}")
        value, stop = _decode(text, args + len(_ARGS), where)
        found = {"name": name, "arguments": value, **({"id": call_id} if call_id else {})}
        calls.append(_call(found, where, ("arguments",)))
        position = _skip_space(text, stop)
    return ParsedCompletion(content, calls)
