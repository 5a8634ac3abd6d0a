"""MCP content blocks as plain Python values, both ways."""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from standard_tool import jsonable

__all__ = [
    "Audio",
    "Image",
    "Resource",
    "ResourceLink",
    "from_content",
    "is_media",
    "text_block",
    "to_content",
]


@dataclass(frozen=True)
class Image:
    """An image block: raw bytes and their MIME type."""

    data: bytes
    mime_type: str


@dataclass(frozen=True)
class Audio:
    """An audio block: raw bytes and their MIME type."""

    data: bytes
    mime_type: str


@dataclass(frozen=True)
class ResourceLink:
    """A link to a resource the server can read."""

    uri: str
    name: str
    mime_type: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class Resource:
    """An embedded resource: ``text`` for text contents, ``data`` for binary ones."""

    uri: str
    mime_type: str | None = None
    text: str | None = None
    data: bytes | None = None


Value = str | Image | Audio | ResourceLink | Resource


def _block_value(block: Any) -> Any:
    if getattr(block, "type", None) == "text":  # the common block: its text, with no dump
        text = getattr(block, "text", None)
        if type(text) is str:
            return text
    wire = block.model_dump(by_alias=True, exclude_none=True, mode="json")
    kind = wire.get("type")
    if kind == "text":
        return wire["text"]
    if kind in ("image", "audio"):
        cls = Image if kind == "image" else Audio
        return cls(base64.b64decode(wire["data"]), wire["mimeType"])
    if kind == "resource_link":
        return ResourceLink(
            wire["uri"], wire["name"], wire.get("mimeType"), wire.get("description")
        )
    if kind == "resource":
        contents = wire["resource"]
        blob = contents.get("blob")
        return Resource(
            contents["uri"],
            contents.get("mimeType"),
            contents.get("text"),
            None if blob is None else base64.b64decode(blob),
        )
    return wire


def from_content(blocks: Sequence[Any]) -> Any:
    """One block's value, a list of values for several blocks, ``None`` for none."""
    values = [_block_value(block) for block in blocks]
    if not values:
        return None
    return values[0] if len(values) == 1 else values


def _block(value: Any) -> dict[str, Any] | None:
    if isinstance(value, (Image, Audio)):
        kind = "image" if isinstance(value, Image) else "audio"
        return {
            "type": kind,
            "data": base64.b64encode(value.data).decode(),
            "mimeType": value.mime_type,
        }
    if isinstance(value, ResourceLink):
        link = {"type": "resource_link", "uri": value.uri, "name": value.name}
        if value.mime_type:
            link["mimeType"] = value.mime_type
        if value.description:
            link["description"] = value.description
        return link
    if isinstance(value, Resource):
        contents: dict[str, Any] = {"uri": value.uri}
        if value.mime_type:
            contents["mimeType"] = value.mime_type
        if value.data is not None:
            contents["blob"] = base64.b64encode(value.data).decode()
        else:
            contents["text"] = value.text or ""
        return {"type": "resource", "resource": contents}
    return None


def to_content(value: Any) -> list[Any] | None:
    """Content blocks for a media value, or for a list holding at least one (its strings
    become text blocks, its other values JSON text); ``None`` for any other value."""
    native = _native_blocks()
    if isinstance(value, (*_MEDIA, *native)):
        items = [value]
    elif isinstance(value, list) and any(isinstance(item, (*_MEDIA, *native)) for item in value):
        items = value
    else:
        return None
    adapter = _content_adapter()
    blocks = []
    for item in items:
        if isinstance(item, native):
            blocks.append(item)
            continue
        block = _block(item)
        blocks.append(text_block(item) if block is None else adapter.validate_python(block))
    return blocks


_MEDIA = (Image, Audio, ResourceLink, Resource)


def is_media(annotation: Any) -> bool:
    """Whether a return annotation names a media value (in a union or list, too): such a
    tool returns content blocks, and declares no output schema."""
    import typing

    if isinstance(annotation, type) and issubclass(annotation, (*_MEDIA, *_native_blocks())):
        return True
    return any(is_media(arg) for arg in typing.get_args(annotation))


@lru_cache(maxsize=1)
def _native_blocks() -> tuple[type, ...]:
    """The SDK's own content block classes, which a tool may return as they are."""
    import mcp.types as types

    return (
        types.TextContent,
        types.ImageContent,
        types.AudioContent,
        types.ResourceLink,
        types.EmbeddedResource,
    )


@lru_cache(maxsize=1)
def _content_adapter() -> Any:
    import mcp.types as types
    from pydantic import TypeAdapter

    return TypeAdapter(types.ContentBlock)


def text_block(value: Any) -> Any:
    """A text block: a string as is, anything else as JSON text."""
    import mcp.types as types

    text = value if isinstance(value, str) else json.dumps(jsonable(value), ensure_ascii=False)
    return types.TextContent(type="text", text=text)
