"""What the bot sends: a ``Reply`` (Telegram HTML text, inline buttons, or a document), and
the packing of reply blocks into as few messages as Telegram's limit allows.

Commands (``bot/players.py``, ``bot/entering.py``, ``bot/running.py``, ...) return lists of
replies; ``bot/handlers.py`` sends them, and nothing else in the bot knows how a message reaches
Telegram.
"""

from __future__ import annotations

import base64
import json
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


def replies_to_json(replies: Sequence[Reply]) -> str:
    """The replies as JSON, as the store keeps an update's answer (``bot.answers``)."""
    return json.dumps([{"text": reply.text, "buttons": [[[button.text, button.data] for button in row]
                                                        for row in reply.buttons],
                        "chat_id": reply.chat_id, "edit": reply.edit,
                        "document": None if reply.document is None else {
                            "file_name": reply.document.file_name, "caption": reply.document.caption,
                            "content": base64.b64encode(reply.document.content).decode("ascii")}}
                       for reply in replies], ensure_ascii=False)


def replies_from_json(text: str) -> list[Reply]:
    """The inverse of ``replies_to_json``."""
    replies = []
    for item in json.loads(text):
        document = item.get("document")
        replies.append(Reply(
            item["text"], tuple(tuple(Button(label, data) for label, data in row) for row in item["buttons"]),
            item["chat_id"],
            None if document is None else Document(document["file_name"], base64.b64decode(document["content"]),
                                                   document["caption"]),
            item["edit"]))
    return replies
