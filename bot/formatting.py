"""Telegram HTML for the bot's replies: escaped text, ``<pre>`` tables padded by display width
(so Chinese and Vietnamese names line up), and splitting below the 4,096-character limit.

Telegram counts lengths in UTF-16 code units (an emoji or a rare CJK character counts two), so
every limit here is counted so (``utf16_length``), on the HTML source: at least as long as the
text Telegram counts after parsing the tags.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from tiebreak.columns import display_width, render_table

MESSAGE_LIMIT = 4096  # Telegram's limit on a message's text, entities included
_SAFE_LIMIT = MESSAGE_LIMIT - 96  # room for the <pre></pre> tags and a heading


def escape(text: object) -> str:
    """Any user-supplied string, safe inside Telegram HTML."""
    return html.escape(str(text), quote=False)


def utf16_length(text: str) -> int:
    """The length Telegram counts: UTF-16 code units.

    >>> utf16_length("许银川"), utf16_length("♞"), utf16_length("🏆")
    (3, 1, 2)
    """
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def cut(text: str, limit: int) -> str:
    """Plain ``text`` within ``limit`` UTF-16 code units, ending in an ellipsis when cut.

    >>> cut("Nguyễn Hoàng Lâm", 8)
    'Nguyễn …'
    """
    if utf16_length(text) <= limit:
        return text
    kept, used = [], 1  # the ellipsis
    for char in text:
        used += utf16_length(char)
        if used > limit:
            break
        kept.append(char)
    return "".join(kept) + "…"


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` display columns, with an ellipsis when cut."""
    if display_width(text) <= width:
        return text
    kept = ""
    for char in text:
        if display_width(kept + char) > width - 1:
            break
        kept += char
    return kept + "…"


def pre_table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[bool]) -> list[str]:
    """The table as one or more ``<pre>`` blocks, each within the message limit (counted as
    sent: escaped)."""
    lines = [escape(line) for line in render_table(header, rows, numeric).splitlines()]
    return [f"<pre>{chunk}</pre>" for chunk in _chunks(lines, _SAFE_LIMIT)]


def pack(blocks: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Join reply blocks (lines of text, ``<pre>`` tables) into as few messages as fit in
    ``limit`` UTF-16 code units.  A ``<pre>`` block is never cut when it fits (``pre_table``
    keeps each one short enough); a longer block is cut at line ends, and a single over-long
    line between two characters: never inside a tag or an entity, and a tag open at the cut
    (``<b>``) is closed there and opened again in the next message."""
    messages: list[str] = []
    current = ""
    for block in blocks:
        fits = utf16_length(block) <= limit
        pieces = [block] if block.startswith("<pre>") and fits else _split_text(block, limit)
        for piece in pieces:
            if current and utf16_length(current) + 1 + utf16_length(piece) > limit:
                messages.append(current)
                current = piece
            else:
                current = f"{current}\n{piece}" if current else piece
    if current:
        messages.append(current)
    return messages


def _split_text(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit``: cut at line ends where it can, else between two
    characters; the tags open at a cut are closed there and opened again after it."""
    pieces: list[str] = []
    opened: list[str] = []  # the opening tags in force, outermost first
    piece = ""
    for line in text.split("\n"):
        joined = f"{piece}\n{line}" if piece else line
        if utf16_length(joined) + utf16_length(_closers(_after(opened, line))) <= limit:
            piece = joined
            opened = _after(opened, line)
            continue
        if piece:
            pieces.append(piece + _closers(opened))
        piece = "".join(opened)
        size, fresh, closing = utf16_length(piece), True, utf16_length(_closers(opened))
        for token in _TOKEN.findall(line):
            after = _after(opened, token)
            after_closing = closing if after is opened else utf16_length(_closers(after))
            length = utf16_length(token)
            if not fresh and size + length + after_closing > limit:
                pieces.append(piece + _closers(opened))
                piece = "".join(opened)
                size, fresh = utf16_length(piece), True
            piece += token
            size += length
            fresh = fresh and token.startswith("<")
            opened, closing = after, after_closing
    pieces.append(piece)
    return pieces


_TOKEN = re.compile(r"<[^>]*>|&#?\w+;|[^<&]|[<&]", re.DOTALL)
_TAG = re.compile(r"<(/?)\s*(\w+)[^>]*?(/?)>")


def _after(opened: list[str], text: str) -> list[str]:
    """The tags open after ``text`` when ``opened`` were open before it."""
    if "<" not in text:
        return opened
    opened = list(opened)
    for match in _TAG.finditer(text):
        if match.group(1):
            if opened:
                opened.pop()
        elif not match.group(3):
            opened.append(match.group(0))
    return opened


def _closers(opened: list[str]) -> str:
    names = [match.group(2) if (match := _TAG.match(tag)) else "b" for tag in reversed(opened)]
    return "".join(f"</{name}>" for name in names)


def _chunks(lines: list[str], limit: int) -> list[str]:
    """Join lines into chunks no longer than ``limit`` characters (the header repeats)."""
    header, body = lines[0], lines[1:]
    chunks: list[str] = []
    current = header
    for line in body:
        if utf16_length(current) + 1 + utf16_length(line) > limit:
            chunks.append(current)
            current = header
        current += "\n" + line
    chunks.append(current)
    return chunks
