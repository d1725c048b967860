"""The conversation, written once for every channel (Telegram, Zalo, the entry page, the console).

A channel adapter reads a message into an ``Incoming`` (channel-neutral: the channel's name and
its own ids of the sender, the chat and the message, the text, or the data of a chosen choice),
and calls::

    who = conversation.who_of(service, incoming, update_id)      # the bot's identity of the sender
    replies = conversation.respond(service, who, incoming)         # parse, authorise, apply, answer

``respond`` (run it in a worker thread: the store is SQLite, which blocks) parses the text
(``/command words``, result lines, or a chosen choice), authorises it and applies it through
the application layer (``bot/players.py``, ``bot/entering.py``, ``bot/running.py``, ...), and
returns the replies as plain data (``bot.replies.Reply``: the text, its choices, the chat it goes
to when not the sender's).  ``plain_text`` and ``Reply.choices`` give what a text-only
channel shows; ``numbered`` and ``chosen`` turn choices into numbered lines the user answers by
number (Zalo), and back.  ``admission`` is the rate limit and ``error_text`` the answer to a
message whose handling failed, for every channel alike.

Identity is per channel: the event log records ``tg:123`` or ``zalo:abc`` with the chat and
message ids (``Who.actor``), and every other table keys the user by the bot's number for them
(``Store.channel_id``: a Telegram id itself, a number of its own for every other channel).
Replies addressed to another chat (a subscriber, the results channel) may belong to another
channel: ``forward`` sends them through the adapter that registered itself in
``BotService.channels``.
"""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot import arbiters, callbacks, entering, players, running, tournament_files
from bot import messages as M
from bot.callbacks import Action
from bot.formatting import utf16_length
from bot.limits import Admission
from bot.replies import Reply
from bot.service import TELEGRAM, BotService, ButtonCommand, Who
from tiebreak.store import StoreError

log = logging.getLogger(__name__)

#: a command as the conversation runs it: ``route(service, who, words after the command)``
Route = Callable[[BotService, Who, str], list[Reply]]


def _player(service: BotService, who: Who, words: str) -> list[Reply]:
    """/player NAME|NUMBER: a player's card; /player add|edit|remove ...: an arbiter's change."""
    if words.split(" ", 1)[0].lower() in ("add", "edit", "remove"):
        return running.change_player(service, who, words)
    return players.player(service, who, words)


def _playoff(service: BotService, who: Who, words: str) -> list[Reply]:
    """/playoff: the play-offs; /playoff WHITE BLACK RESULT: an arbiter enters a play-off result."""
    if words.strip():
        return entering.playoff_result(service, who, words)
    return players.playoff(service, who)


def _words(command: Callable[..., list[Reply]]) -> Route:
    return lambda service, who, words: command(service, who, words)


def _bare(command: Callable[..., list[Reply]], *args: object) -> Route:
    return lambda service, who, _words: command(service, who, *args)


#: every command and what runs it (``bot/app.py``'s MENU lists those Telegram offers in its menu)
COMMANDS: dict[str, Route] = {
    "start": _words(players.start),  # /start [SLUG]: the help; a deep link selects tournament SLUG
    "help": _bare(players.start),
    "tournaments": _bare(players.tournaments),
    "standings": _words(players.standings),  # /standings [N]
    "round": _words(players.round),  # /round [N]
    "teams": _bare(players.teams),
    "playoff": _playoff,
    "player": _player,
    "iam": _words(players.iam),  # /iam NUMBER
    "me": _bare(players.me),
    "subscribe": _bare(players.subscribe),
    "unsubscribe": _bare(players.subscribe, False),
    "language": _words(players.language),  # /language [NAME]
    "enter": _bare(entering.enter),
    "undo": _bare(running.undo),
    "pair": _bare(running.pair),
    "unpair": _bare(running.unpair_round),
    "return": _words(running.return_withdrawn),  # /return NUMBER|NAME
    "withdraw": _words(running.withdraw),  # /withdraw NUMBER [ROUND]
    "import": _bare(tournament_files.import_help),  # without a file (Telegram: with one, a document's caption)
    "export": _bare(tournament_files.export),
    "arbiters": _words(arbiters.arbiters),  # /arbiters [add|remove USER]
    "addplayer": _words(running.add_player),  # /addplayer NAME[; RATING[; FEDERATION[; CLUB]]]
    "bye": _words(running.bye),  # /bye NUMBER [ROUND] [half|zero|full]
    "archive": _bare(running.archive),
    "restore": _words(running.restore),  # /restore SLUG
}

#: every kind of choice (Telegram: inline button) and the command that answers it (``bot/callbacks.py``)
BUTTONS: dict[Action, ButtonCommand] = {
    Action.SELECT: players.select,
    Action.LANGUAGE: players.choose_language,
    Action.MENU: entering.board_menu,
    Action.BOARD: entering.choose_board,
    Action.RESULT: entering.choose_result,
    Action.CONFIRM: entering.confirm_result,
    Action.REPLACE: entering.replace_result,
    Action.KEEP: entering.keep_result,
    Action.PAIR: running.confirm_pairing,
    Action.NO_PAIR: running.cancel_pairing,
    Action.UNPAIR: running.confirm_unpair,
    Action.NO_UNPAIR: running.cancel_unpair,
}

_COMMAND = re.compile(r"/([A-Za-z0-9_]+)(?:@\S*)?(?:\s+(.*))?", re.DOTALL)


@dataclass(frozen=True)
class Incoming:
    """A message on any channel, as its adapter reads it: the channel's name (``tg``, ``zalo``,
    ``web``) and its own ids of the sender, the chat and the message; what was sent (``text``),
    or the data of a chosen choice (``choice``); the sender's language if the channel gives it;
    ``private``: a one-to-one chat."""

    channel: str
    sender: str
    chat: str
    text: str = ""
    message_id: str | None = None
    choice: str | None = None
    language: str | None = None
    private: bool = True

    def to_json(self) -> str:
        return json.dumps(self.__dict__, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Incoming:
        return cls(**json.loads(text))


def who_of(service: BotService, incoming: Incoming, update_id: int | None = None) -> Who:
    """The bot's identity of ``incoming``'s sender: a Telegram id is its own number, any other
    channel's ids get theirs from the store (``Store.channel_id``).  ``update_id`` numbers the
    message for its saved answer (a Telegram update id, or a negative number of the channel's
    inbox: the two never meet)."""
    if incoming.channel == TELEGRAM:
        user, chat = int(incoming.sender), int(incoming.chat)
    else:
        user = service.store.channel_id(incoming.channel, incoming.sender)
        chat = user if incoming.chat == incoming.sender else service.store.channel_id(incoming.channel, incoming.chat)
    text = f"[button] {incoming.choice}" if incoming.choice is not None else incoming.text
    return Who(user, chat, incoming.language, incoming.message_id, update_id, text, incoming.channel,
               incoming.sender, incoming.chat, incoming.private)


def respond(service: BotService, who: Who, incoming: Incoming) -> list[Reply]:
    """The replies to ``incoming``: a chosen choice, a ``/command``, or result lines (a message
    without text, such as a picture, is not understood)."""
    if incoming.choice is not None:
        return press(service, who, incoming.choice)
    if not incoming.text.strip():  # a picture, a sticker, a voice message
        return players.not_understood(service, who)
    return respond_to_text(service, who, incoming.text)


def respond_to_text(service: BotService, who: Who, text: str) -> list[Reply]:
    """A ``/command words`` runs its command (an unknown one is answered so); anything else is
    result lines from an arbiter (``bot.entering.text``)."""
    stripped = text.strip()
    found = _COMMAND.fullmatch(stripped) if stripped.startswith("/") else None
    if found is not None and found.group(1).lower() in COMMANDS:
        return COMMANDS[found.group(1).lower()](service, who, " ".join((found.group(2) or "").split()))
    if stripped.startswith("/"):
        return running.unknown_command(service, who, stripped)
    return entering.text(service, who, text)


def press(service: BotService, who: Who, data: str) -> list[Reply]:
    """The replies to a chosen choice (a pressed inline button), by its data; data no choice of
    the bot carries (forged, damaged, of an older version) is "not understood"."""
    try:
        pressed = callbacks.decode(data)
    except ValueError:
        return players.not_understood(service, who)
    return BUTTONS[pressed.action](service, who, pressed)


def admission(service: BotService, who: Who) -> list[Reply] | None:
    """None when ``who``'s message is to be read; else it is not (a player over
    ``[bot].rate_limit``, ``bot/limits.py``), and the replies say so once (then nothing)."""
    verdict = service.limiter.admit(who.user_id, lambda: who.user_id in service.arbiter_ids())
    if verdict is Admission.READ:
        return None
    if verdict is Admission.TELL:
        text = service.tr(who).format(M.SLOW_DOWN, limit=service.settings.rate_limit,
                                      seconds=service.limiter.wait(who.user_id))
        return [Reply(html.escape(text, quote=False))]
    return []


def error_text(service: BotService, who: Who, error: BaseException) -> str:
    """What the user is told when handling their message failed, without internals: it was
    recorded but not answered, it was not recorded because the database cannot be used, or it
    was not handled (send it again)."""
    from bot.answers import handled  # bot.answers imports the commands this module routes to

    tr = service.tr(who)
    try:
        if handled(service.store, who):
            return tr.gettext(M.ERROR_AFTER_RECORDING)
        if isinstance(error, StoreError):
            return tr.format(M.STORE_UNAVAILABLE, problem=error.problem)
        return tr.gettext(M.INTERNAL_ERROR)
    except StoreError as unreadable:
        return tr.format(M.STORE_UNAVAILABLE, problem=unreadable.problem)


# -- text-only channels --------------------------------------------------------------------------

_TAG = re.compile(r"</?(?:b|i|pre|code)>")


def plain_text(text: str) -> str:
    """A reply's text without its markup (``<b>``, ``<pre>``) and entities, as a text-only
    channel shows it."""
    return html.unescape(_TAG.sub("", text))


def numbered(service: BotService, who: Who, reply: Reply) -> str:
    """``reply``'s plain text, its choices numbered below it and a line saying to answer by
    number; the choices are kept for ``who``'s chat (``chosen``) until others are offered."""
    text = plain_text(reply.text)
    choices = [button for row in reply.buttons for button in row]
    if not choices:
        return text
    service.store.offer_choices(reply_chat(who, reply), json.dumps([button.data for button in choices]))
    lines = [f"{number}. {button.text}" for number, button in enumerate(choices, start=1)]
    hint = service.tr(who).format(M.ANSWER_BY_NUMBER, last=len(choices))
    return "\n".join([text, "", *lines, "", hint])


def chosen(service: BotService, who: Who, text: str) -> str | None:
    """The data of the choice a message answers by number (``numbered``), or None when it is
    not a number of the choices ``who``'s chat was last offered."""
    number = text.strip().rstrip(".")
    if not (number.isascii() and number.isdigit()) or len(number) > 3:
        return None
    offered = service.store.offered_choices(who.chat_id)
    data = json.loads(offered) if offered else []
    return data[int(number) - 1] if 1 <= int(number) <= len(data) else None


def reply_chat(who: Who, reply: Reply) -> int:
    """The bot's number of the chat ``reply`` goes to."""
    return who.chat_id if reply.chat_id is None else int(reply.chat_id)


def split_text(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` UTF-16 code units, cut at line ends where it can,
    else between two characters; none empty."""
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while utf16_length(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            cut = limit
            while utf16_length(line[:cut]) > limit:
                cut -= 1
            pieces.append(line[:cut])
            line = line[cut:]
        candidate = f"{current}\n{line}" if current else line
        if current and utf16_length(candidate) > limit:
            pieces.append(current)
            current = line
        else:
            current = candidate
    if current.strip():
        pieces.append(current)
    return [piece for piece in pieces if piece.strip()] or ["-"]


def channel_of(service: BotService, chat_id: int | str | None) -> str:
    """The channel a reply to ``chat_id`` goes through (Telegram for its own ids and ``@names``)."""
    if not isinstance(chat_id, int):
        return TELEGRAM
    address = service.store.channel_address(chat_id)
    return address[0] if address else TELEGRAM


async def forward(service: BotService, reply: Reply) -> None:
    """Send ``reply`` to another channel's chat through its adapter (``BotService.channels``);
    a channel that is not running here is logged and passed over."""
    channel = channel_of(service, reply.chat_id)
    send = service.channels.get(channel)
    if send is None:
        log.warning("a message for a %s chat was not sent: that channel is not running", channel)
        return
    await send(reply)


def documents_refused(service: BotService, who: Who, replies: Sequence[Reply]) -> list[Reply]:
    """``replies`` for a channel that cannot carry files: a document becomes a line saying so."""
    return [Reply(html.escape(service.tr(who).gettext(M.NO_FILES_HERE), quote=False), chat_id=reply.chat_id)
            if reply.document is not None else reply for reply in replies]

