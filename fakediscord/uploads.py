"""File uploads and application emojis as Discord checks them (pure helpers of the fake).

Multipart requests (docs: Reference > Uploading Files): the JSON goes in a ``payload_json`` part,
each file in a part named ``files[n]`` with a filename; ``attachments[].id`` in the JSON names the
``n`` of a new upload (or the id of an attachment the message already has, when editing). At most
10 files per message, each at most :data:`MAX_UPLOAD` bytes (the limit of a server without boosts).

Application emojis (docs: Resources > Emoji, "Create Application Emoji"): a name of 2-32 letters,
digits or underscores, unique among the application's emojis; an image given as a data URI
(``data:image/png;base64,...``) of a PNG, JPEG, GIF, WebP or AVIF of at most 256 KiB; at most
:data:`MAX_APP_EMOJIS` per application.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from typing import Any

MAX_FILES = 10
MAX_UPLOAD = 10 * 1024 * 1024
MAX_EMOJI_BYTES = 256 * 1024
MAX_APP_EMOJIS = 2000
FILE_FIELD = re.compile(r"files\[(\d+)\]")
EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
_DATA_URI = re.compile(r"data:(image/(?:png|jpeg|jpg|gif|webp|avif));base64,(.*)", re.DOTALL)


def sniff(data: bytes) -> tuple[str | None, int | None, int | None]:
    """The content type Discord would report for these bytes, and an image's width and height."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return "image/png", w, h
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return "image/gif", w, h
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg", None, None
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp", None, None
    if data[:1] in (b"{", b"["):
        return "application/json", None, None
    try:
        data[:4096].decode("utf-8")
    except UnicodeDecodeError:
        return None, None, None
    return "text/plain; charset=utf-8", None, None


def upload_errors(files: list[dict[str, Any]], body: Any) -> list[str]:
    """What Discord refuses in a multipart message: field names, counts, sizes, attachment ids."""
    errors: list[str] = []
    if len(files) > MAX_FILES:
        errors.append(f"files: Must be {MAX_FILES} or fewer in length (got {len(files)}).")
    indexes = set()
    for f in files:
        m = FILE_FIELD.fullmatch(str(f.get("field") or ""))
        if m is None:
            errors.append(f"{f.get('field')}: file fields are named files[n]")
            continue
        indexes.add(int(m.group(1)))
        if not f.get("filename"):
            errors.append(f"{f.get('field')}: a file needs a filename")
    attachments = body.get("attachments") if isinstance(body, dict) else None
    if isinstance(attachments, list):
        for i, a in enumerate(attachments):
            if not isinstance(a, dict) or "id" not in a:
                errors.append(f"attachments.{i}.id: required")
                continue
            try:
                aid = int(a["id"])
            except (TypeError, ValueError):
                errors.append(f"attachments.{i}.id: not a number")
                continue
            if aid < 10_000 and aid not in indexes:  # a new upload's index, not a snowflake
                errors.append(f"attachments.{i}.id: no files[{aid}] was uploaded")
    return errors


def too_large(files: list[dict[str, Any]]) -> str | None:
    for f in files:
        if int(f.get("size", 0)) > MAX_UPLOAD:
            return f"{f.get('filename')} is {f.get('size')} bytes; the limit is {MAX_UPLOAD}"
    return None


def emoji_image(uri: Any) -> tuple[bytes | None, str | None]:
    """The image bytes of a data URI, or None and why Discord refuses it."""
    if not isinstance(uri, str):
        return None, "image: required string"
    m = _DATA_URI.fullmatch(uri.strip())
    if m is None:
        return None, "image: Invalid image data (a data:image/...;base64, URI: PNG, JPEG, GIF, WebP, AVIF)"
    try:
        data = base64.b64decode(m.group(2), validate=True)
    except (binascii.Error, ValueError):
        return None, "image: Invalid image data (not base64)"
    if len(data) > MAX_EMOJI_BYTES:
        return None, f"image: File cannot be larger than {MAX_EMOJI_BYTES // 1024} kb."
    kind, _, _ = sniff(data)
    if kind is None or not kind.startswith("image/"):
        return None, "image: Invalid image data (not an image)"
    return data, None


def emoji_name_error(name: Any, taken: set[str]) -> str | None:
    if not isinstance(name, str) or EMOJI_NAME.fullmatch(name) is None:
        return "name: Must be between 2 and 32 in length and contain only letters, digits and underscores."
    if name in taken:
        return "name: Application emoji names must be unique."
    return None


def component_emoji_errors(components: Any, known: set[int], where: str = "components") -> list[str]:
    """Custom emojis on buttons and select options must exist (the application's or a server's)."""
    errors: list[str] = []
    if not isinstance(components, list):
        return errors
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        here = f"{where}.{i}"
        emoji = comp.get("emoji")
        if isinstance(emoji, dict) and emoji.get("id") is not None:
            try:
                ok = int(emoji["id"]) in known
            except (TypeError, ValueError):
                ok = False
            if not ok:
                errors.append(f"{here}.emoji.id: Invalid emoji")
        for j, opt in enumerate(comp.get("options") or []):
            e = opt.get("emoji") if isinstance(opt, dict) else None
            if isinstance(e, dict) and e.get("id") is not None:
                try:
                    ok = int(e["id"]) in known
                except (TypeError, ValueError):
                    ok = False
                if not ok:
                    errors.append(f"{here}.options.{j}.emoji.id: Invalid emoji")
        errors += component_emoji_errors(comp.get("components"), known, f"{here}.components")
    return errors
