# The toolgen runtime's _content.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Results beyond JSON: `Image`, `Audio`, `File`, `ResourceLink`, and their provider shapes.

Part of the runtime: `_runtime` (and the package) re-export the four classes and `Content`.

`Ok(data, content=[Image(png_bytes, "image/png")])` returns the data and the content. A tool may
return only the kinds its contract declares (`content_kinds = ["image", "file"]`); any other
content (or content from a tool that declares none) is `INTERNAL`, with a note in the trace.

Each provider gets the content in its own tool-result shape, after the data's JSON text:

- MCP: an `image` or `audio` block, a `resource` block (a file's blob), a `resource_link`.
- Anthropic `tool_result`: an `image` block (base64; jpeg, png, gif, webp), a `document` block (pdf
  or plain text), an image or pdf link as a URL source (http/https); no audio.
- OpenAI Responses `function_call_output`: `input_image` (a data URL, or the link), `input_file`
  (a data URL with the file name, or the link); no audio.
- Gemini `function_response.parts`: `inline_data` (base64) for images, audio and files,
  `file_data` for a link.

What a provider cannot carry is never dropped silently: it becomes a text note saying what was left
out and why (kind, media type, size). OpenAI Chat Completions tool messages carry text only, so
every piece there is such a note.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

ContentKind = Literal["image", "audio", "file", "resource_link"]
CONTENT_KINDS: tuple[ContentKind, ...] = ("image", "audio", "file", "resource_link")
"""Every kind a contract's `content_kinds` may name."""

ANTHROPIC_IMAGES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
"""The image media types Anthropic accepts in a tool result."""


def _checked_media(kind: str, media_type: str, prefix: str | None) -> None:
    if "/" not in media_type or (
        prefix is not None and not media_type.startswith(prefix)
    ):
        want = (
            f"a {prefix}* media type" if prefix else "a media type like application/pdf"
        )
        raise ValueError(f"{kind} content needs {want}, not {media_type!r}")


@dataclass(frozen=True, slots=True)
class Image:
    """An image: its bytes and media type (`image/png`)."""

    data: bytes
    media_type: str
    kind: ClassVar[ContentKind] = "image"

    def __post_init__(self) -> None:
        _checked_media("image", self.media_type, "image/")


@dataclass(frozen=True, slots=True)
class Audio:
    """A sound: its bytes and media type (`audio/wav`)."""

    data: bytes
    media_type: str
    kind: ClassVar[ContentKind] = "audio"

    def __post_init__(self) -> None:
        _checked_media("audio", self.media_type, "audio/")


@dataclass(frozen=True, slots=True)
class File:
    """A file: its bytes, media type (`application/pdf`) and a file name."""

    data: bytes
    media_type: str
    name: str = "file"
    kind: ClassVar[ContentKind] = "file"

    def __post_init__(self) -> None:
        _checked_media("file", self.media_type, None)


@dataclass(frozen=True, slots=True)
class ResourceLink:
    """A link to content the tool does not carry itself (a URI, a name, optionally a media type)."""

    uri: str
    name: str
    media_type: str | None = None
    description: str | None = None
    kind: ClassVar[ContentKind] = "resource_link"


Content: TypeAlias = Image | Audio | File | ResourceLink
"""One piece of a result's content."""

Blob: TypeAlias = Image | Audio | File


def checked(content: Iterable[Any]) -> tuple[Content, ...]:
    """`content` as a tuple; `TypeError` for anything that is not one of the content classes."""
    found = tuple(content)
    for piece in found:
        if not isinstance(piece, Image | Audio | File | ResourceLink):
            raise TypeError(
                f"content must be Image, Audio, File or ResourceLink, not {type(piece).__name__}"
            )
    return found


def undeclared(contract: Any, content: Iterable[Content]) -> str | None:
    """What the trace says when `content` holds a kind `contract` does not declare; None when all fit."""
    allowed = set(contract.content_kinds)
    extra = sorted({p.kind for p in content} - allowed)
    if not extra:
        return None
    named = ", ".join(sorted(allowed)) or "none"
    return f"{contract.name} returned content of kind(s) {', '.join(extra)}; its contract declares {named}"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _data_url(piece: Blob) -> str:
    return f"data:{piece.media_type};base64,{_b64(piece.data)}"


def note(piece: Content, provider: str, why: str) -> str:
    """The text that stands for a piece a provider cannot carry."""
    if isinstance(piece, ResourceLink):
        return f"[{piece.kind} {piece.uri} ({piece.media_type or 'unknown type'}) not attached: {provider} {why}]"
    size = len(piece.data)
    return f"[{piece.kind} content ({piece.media_type}, {size} bytes) left out: {provider} {why}]"


def mcp(piece: Content, index: int) -> dict[str, Any]:
    """An MCP content block."""
    if isinstance(piece, Image | Audio):
        return {
            "type": piece.kind,
            "data": _b64(piece.data),
            "mimeType": piece.media_type,
        }
    if isinstance(piece, File):
        resource = {
            "uri": f"attachment:{index}/{piece.name}",
            "mimeType": piece.media_type,
            "blob": _b64(piece.data),
        }
        return {"type": "resource", "resource": resource}
    block: dict[str, Any] = {
        "type": "resource_link",
        "uri": piece.uri,
        "name": piece.name,
    }
    if piece.media_type is not None:
        block["mimeType"] = piece.media_type
    if piece.description is not None:
        block["description"] = piece.description
    return block


def _web(uri: str) -> bool:
    return uri.startswith(("https://", "http://"))


def anthropic(piece: Content) -> dict[str, Any]:  # noqa: PLR0911 (one per shape)
    """A block of an Anthropic `tool_result`'s content."""
    why = "tool results carry jpeg, png, gif or webp images, pdf or plain-text documents, no audio"
    if isinstance(piece, Image) and piece.media_type in ANTHROPIC_IMAGES:
        source = {
            "type": "base64",
            "media_type": piece.media_type,
            "data": _b64(piece.data),
        }
        return {"type": "image", "source": source}
    if isinstance(piece, File) and piece.media_type == "application/pdf":
        source = {
            "type": "base64",
            "media_type": "application/pdf",
            "data": _b64(piece.data),
        }
        return {"type": "document", "source": source, "title": piece.name}
    if isinstance(piece, File) and piece.media_type == "text/plain":
        try:
            text = piece.data.decode("utf-8")
        except UnicodeDecodeError:
            return {
                "type": "text",
                "text": note(piece, "Anthropic", "needs UTF-8 plain text"),
            }
        source = {"type": "text", "media_type": "text/plain", "data": text}
        return {"type": "document", "source": source, "title": piece.name}
    if isinstance(piece, ResourceLink) and _web(piece.uri):
        if (piece.media_type or "") in ANTHROPIC_IMAGES:
            return {"type": "image", "source": {"type": "url", "url": piece.uri}}
        if piece.media_type == "application/pdf":
            return {
                "type": "document",
                "source": {"type": "url", "url": piece.uri},
                "title": piece.name,
            }
    return {"type": "text", "text": note(piece, "Anthropic", why)}


def openai_responses(piece: Content) -> dict[str, Any]:
    """A part of an OpenAI Responses `function_call_output`'s output list."""
    if isinstance(piece, Image):
        return {"type": "input_image", "image_url": _data_url(piece)}
    if isinstance(piece, File):
        return {
            "type": "input_file",
            "file_data": _data_url(piece),
            "filename": piece.name,
        }
    if isinstance(piece, ResourceLink) and _web(piece.uri):
        if (piece.media_type or "").startswith("image/"):
            return {"type": "input_image", "image_url": piece.uri}
        return {"type": "input_file", "file_url": piece.uri}
    why = (
        "function call outputs carry text, images and files, no audio or non-web links"
    )
    return {"type": "input_text", "text": note(piece, "OpenAI", why)}


def gemini(piece: Content) -> dict[str, Any]:
    """A part of a Gemini `function_response.parts` (JSON-ready: the bytes in base64)."""
    if isinstance(piece, ResourceLink):
        found: dict[str, Any] = {"file_uri": piece.uri}
        if piece.media_type is not None:
            found["mime_type"] = piece.media_type
        return {"file_data": found}
    blob: dict[str, Any] = {"mime_type": piece.media_type, "data": _b64(piece.data)}
    if isinstance(piece, File):
        blob["display_name"] = piece.name
    return {"inline_data": blob}


__all__ = [
    "CONTENT_KINDS",
    "Audio",
    "Content",
    "ContentKind",
    "File",
    "Image",
    "ResourceLink",
    "anthropic",
    "checked",
    "gemini",
    "mcp",
    "note",
    "openai_responses",
    "undeclared",
]
