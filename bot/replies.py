"""What the bot sends: a ``Reply`` (Telegram HTML text, inline buttons, or a document), and
the packing of reply blocks into as few messages as Telegram's limit allows.

Commands (``bot/players.py``, ``bot/arbiters.py``) return lists of replies; ``bot/handlers.py``
sends them, and nothing else in the bot knows how a message reaches Telegram.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.formatting import pack


@dataclass(frozen=True)
class Button:
    """An inline button: its label and its ``callback_data`` (``bot.callbacks.button`` makes both)."""

    text: str
    data: str


@dataclass(frozen=True)
class Document:
    """A file to send, e.g. the TRF and TOML files of /export."""

    file_name: str
    content: bytes
    caption: str = ""


@dataclass(frozen=True)
class Reply:
    """A message to send: HTML ``text`` below Telegram's limit, optional inline buttons; to
    ``chat_id`` (None: the chat the update came from); ``edit`` replaces the message a button
    was pressed on."""

    text: str = ""
    buttons: tuple[tuple[Button, ...], ...] = ()
    chat_id: int | str | None = None
    document: Document | None = None
    edit: bool = False


def packed(blocks: Sequence[str], *, chat_id: int | str | None = None) -> list[Reply]:
    """The blocks (HTML lines, ``<pre>`` tables) joined into as few replies as fit."""
    return [Reply(text, chat_id=chat_id) for text in pack(blocks)]
