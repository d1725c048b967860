"""The ``callback_data`` of the bot's inline buttons: which kind of button (``Action``) and
its fields, within Telegram's 64 bytes (``bot.parsing.encode_callback``)::

    sel|KEY                      /tournaments: choose tournament KEY (``Store.tournament_key``)
    lang|CODE                    /language: choose a language
    menu|KEY                     /enter: the open boards of the current round
    eb|KEY|ROUND|BOARD           /enter: a board was chosen, offer the results
    er|KEY|ROUND|BOARD|RESULT    /enter: a result was chosen, ask to confirm it
    ec|KEY|ROUND|BOARD|RESULT    /enter: the result is confirmed, record it
    fix|KEY|ROUND|BOARD|RESULT   "Replace 1-0 with 0-1?" Yes: record the correction
    keep|KEY|ROUND|BOARD         "Replace 1-0 with 0-1?" No: keep the result

A tournament is named by its short numeric key rather than its slug, which may be long.
``bot/handlers.py`` says which command answers each action; ``PATTERN`` is what its
``CallbackQueryHandler`` matches.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from bot.parsing import decode_callback, encode_callback
from bot.replies import Button


class Action(enum.StrEnum):
    """The kinds of inline buttons (their first field of ``callback_data``)."""

    SELECT = "sel"
    LANGUAGE = "lang"
    MENU = "menu"
    BOARD = "eb"
    RESULT = "er"
    CONFIRM = "ec"
    REPLACE = "fix"
    KEEP = "keep"

    @property
    def enters_result(self) -> bool:
        """Whether pressing it records a result (a refused press is then recorded too)."""
        return self in (Action.CONFIRM, Action.REPLACE)


@dataclass(frozen=True, slots=True)
class Press:
    """A pressed button: its action, its fields as text, and the ``callback_data`` as sent."""

    action: Action
    fields: tuple[str, ...]
    data: str

    def int(self, index: int) -> int:
        """Field ``index`` as an integer (ValueError if it is not one, IndexError if missing)."""
        return int(self.fields[index])


def encode(action: Action, *fields: int | str) -> str:
    """``encode(Action.BOARD, 7, 3, 5) == "eb|7|3|5"`` (ValueError beyond 64 bytes)."""
    return encode_callback(action.value, *fields)


def decode(data: str) -> Press:
    """The inverse of ``encode``; ValueError for data that no button of the bot carries."""
    callback = decode_callback(data)
    return Press(Action(callback.action), callback.fields, data)


def button(text: str, action: Action, *fields: int | str) -> Button:
    """An inline button labelled ``text`` that sends ``action`` and ``fields`` when pressed."""
    return Button(text, encode(action, *fields))


#: the ``callback_data`` of every kind of button (``re.match``, as ``CallbackQueryHandler`` uses it)
PATTERN = "(?s)^(?:" + "|".join(re.escape(action.value) for action in Action) + r")(?:\|.*)?$"
