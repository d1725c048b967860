"""Telegram HTML for the bot's replies: escaped text, ``<pre>`` tables padded by display width
(so Chinese and Vietnamese names line up), and splitting below the 4,096-character limit."""

from __future__ import annotations

import html
from collections.abc import Sequence

from tiebreak.tables import display_width, render_table

MESSAGE_LIMIT = 4096  # Telegram's limit on a message's text, entities included
_SAFE_LIMIT = MESSAGE_LIMIT - 96  # room for the <pre></pre> tags and a heading


def escape(text: object) -> str:
    """Any user-supplied string, safe inside Telegram HTML."""
    return html.escape(str(text), quote=False)


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
    """The table as one or more ``<pre>`` blocks, each within the message limit."""
    lines = render_table(header, rows, numeric).splitlines()
    return [f"<pre>{escape(chunk)}</pre>" for chunk in _chunks(lines, _SAFE_LIMIT)]


def pack(blocks: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Join reply blocks (lines of text, ``<pre>`` tables) into as few messages as fit in
    ``limit`` characters.  A ``<pre>`` block is never cut (``pre_table`` keeps each one
    short enough); a long text block is cut at line ends, and a single over-long line
    between two HTML entities, never inside one."""
    messages: list[str] = []
    current = ""
    for block in blocks:
        pieces = [block] if block.startswith("<pre>") else _split_text(block, limit)
        for piece in pieces:
            if current and len(current) + 1 + len(piece) > limit:
                messages.append(current)
                current = piece
            else:
                current = f"{current}\n{piece}" if current else piece
    if current:
        messages.append(current)
    return messages


def _split_text(text: str, limit: int) -> list[str]:
    pieces: list[str] = []
    for line in text.split("\n"):
        while len(line) > limit:
            cut = limit
            entity = line.rfind("&", 0, cut)
            if entity != -1 and line.find(";", entity, cut) == -1:
                cut = entity or limit  # do not cut inside &amp; &lt; &gt;
            pieces.append(line[:cut])
            line = line[cut:]
        pieces.append(line)
    return pieces


def _chunks(lines: list[str], limit: int) -> list[str]:
    """Join lines into chunks no longer than ``limit`` characters (the header repeats)."""
    header, body = lines[0], lines[1:]
    chunks: list[str] = []
    current = header
    for line in body:
        if len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = header
        current += "\n" + line
    chunks.append(current)
    return chunks
