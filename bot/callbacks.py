"""The ``callback_data`` of the bot's inline buttons: which kind of button (``Action``) and
its fields, within Telegram's 64 bytes (``bot.parsing.encode_callback``)::

    sel|KEY                      /tournaments: choose tournament KEY (``Store.tournament_key``)
    lang|CODE                    /language: choose a language
    menu|KEY                     /enter: the open boards of the current round
    eb|KEY|ROUND|BOARD           /enter: a board was chosen, offer the results
    er|KEY|ROUND|BOARD|RESULT    /enter: a result was chosen, ask to confirm it
    ec|KEY|ROUND|BOARD|RESULT    /enter: the result is confirmed, record it
    fix|KEY|ROUND|BOARD|RESULT|OLD   "Replace 1-0 with 0-1?" Yes: record the correction of OLD
    keep|KEY|ROUND|BOARD         "Replace 1-0 with 0-1?" No: keep the result
    pair|KEY|ROUND|DIGEST        /pair: store the proposed pairing of ROUND (DIGEST: Proposal.digest)
    nopair|KEY                   /pair: do not
    unpair|KEY|ROUND|COUNT       /unpair: take back ROUND with the COUNT boards that have results or fouls
    nounpair|KEY                 /unpair: do not

A tournament is named by its short numeric key rather than its slug, which may be long.
``decode`` checks the fields each action carries (``FIELDS``), so forged or damaged data is
refused there, before any command reads it.
``bot/handlers.py`` says which command answers each action; ``PATTERN`` is what its
``CallbackQueryHandler`` matches.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from bot.formatting import cut
from bot.parsing import decode_callback, encode_callback, whole_number
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
    PAIR = "pair"
    NO_PAIR = "nopair"
    UNPAIR = "unpair"
    NO_UNPAIR = "nounpair"

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
        """Field ``index`` as an integer (``decode`` checked that it is one)."""
        return int(self.fields[index])


#: the fields of each action: ``n`` a number (ASCII digits), ``s`` a text; a REPLACE button
#: made before it carried the result it replaces has one field fewer
FIELDS: dict[Action, tuple[str, ...]] = {
    Action.SELECT: ("n",),
    Action.LANGUAGE: ("s",),
    Action.MENU: ("n",),
    Action.BOARD: ("nnn",),
    Action.RESULT: ("nnns",),
    Action.CONFIRM: ("nnns",),
    Action.REPLACE: ("nnnss", "nnns"),
    Action.KEEP: ("nnn",),
    Action.PAIR: ("nns",),
    Action.NO_PAIR: ("n",),
    Action.UNPAIR: ("nnn",),
    Action.NO_UNPAIR: ("n",),
}
BUTTON_TEXT_LIMIT = 64  # UTF-16 code units of a button's label that a phone shows well


def encode(action: Action, *fields: int | str) -> str:
    """``encode(Action.BOARD, 7, 3, 5) == "eb|7|3|5"`` (ValueError beyond 64 bytes)."""
    return encode_callback(action.value, *fields)


def decode(data: str) -> Press:
    """The inverse of ``encode``; ValueError for data that no button of the bot carries: an
    unknown action, or fields missing, extra or not numbers where numbers belong.

    >>> decode("eb|7|3|5").fields
    ('7', '3', '5')
    >>> decode("eb|7|x|5")
    Traceback (most recent call last):
    ValueError: callback data 'eb|7|x|5': expected the fields nnn
    """
    callback = decode_callback(data)
    action = Action(callback.action)
    if not any(_fits(callback.fields, shape) for shape in FIELDS[action]):
        raise ValueError(f"callback data {data!r}: expected the fields {' or '.join(FIELDS[action])}")
    return Press(action, callback.fields, data)


def _fits(fields: tuple[str, ...], shape: str) -> bool:
    if len(fields) != len(shape):
        return False
    return all(whole_number(field) is not None if kind == "n" else bool(field)
               for field, kind in zip(fields, shape, strict=True))


def button(text: str, action: Action, *fields: int | str) -> Button:
    """An inline button labelled ``text`` (cut to ``BUTTON_TEXT_LIMIT``) that sends ``action``
    and ``fields`` when pressed."""
    return Button(cut(text, BUTTON_TEXT_LIMIT), encode(action, *fields))


#: the ``callback_data`` of every kind of button (``re.match``, as ``CallbackQueryHandler`` uses it)
PATTERN = "(?s)^(?:" + "|".join(re.escape(action.value) for action in Action) + r")(?:\|.*)?$"
