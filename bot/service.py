"""Who is asking, and the guards every command passes first.

``BotService`` is the bot without Telegram: the store, the ``[bot]`` settings, what to call
after a change, the running channels and their announcement chats.  A command
(``bot/players.py``, ``bot/entering.py``, ``bot/running.py``, ...) is a function called as
``command(service, who, ...)``; its guard (``anyone``, ``needs_tournament``, ``arbiters_only``,
``chief_only``, ``arbiters_button``) answers a refused request itself and otherwise hands the
body a ``Request``: who asks, in which language, and (``TournamentRequest``) about which
tournament.  ``Request.say`` builds the usual one-message reply.  Results go through the
store's event log (``tiebreak.store``) with the channel, user, chat and message.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Concatenate, ParamSpec, TypeAlias

from bot import messages as M
from bot.callbacks import Press
from bot.formatting import escape, pack
from bot.limits import RateLimiter
from bot.messages import translator
from bot.replies import Reply
from ranking import FinalStandings, InputError, Player, Tournament, TournamentState, final_standings
from ranking.event.players import find_players
from ranking.event.refusals import Code, Refusal
from tiebreak.config import Config
from tiebreak.i18n import Translator
from tiebreak.store import Identity, Source, Store, UserPrefs

P = ParamSpec("P")
MEGABYTE = 1024 * 1024
ARBITERS_TTL = 5.0  # seconds ``BotService.arbiter_ids`` is kept


@dataclass(frozen=True)
class BotSettings:
    """``[bot]`` of config.toml: chief arbiters (every tournament), default language, the
    channel that gets the standings after each round, webhook settings."""

    arbiters: frozenset[int] = frozenset()
    language: str = "en"
    channel: int | str | None = None
    webhook_url: str | None = None
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    max_upload_bytes: int = 5 * MEGABYTE  # a file sent to the bot (/import, /pair); [bot].max_upload_mb
    rate_limit: int = 20  # messages a minute a player may send (arbiters: no limit); [bot].rate_limit, 0: none

    @classmethod
    def from_config(cls, config: Config) -> BotSettings:
        section = config.raw.get("bot", {})
        arbiters = section.get("arbiters", [])
        if not isinstance(arbiters, list) or not all(isinstance(user, int) for user in arbiters):
            raise InputError("[bot].arbiters must be a list of Telegram user ids (numbers)",
                             source=str(config.path))
        upload = section.get("max_upload_mb", 5)
        if isinstance(upload, bool) or not isinstance(upload, int | float) or not 0 < upload <= 2000:
            raise InputError("[bot].max_upload_mb must be a number of megabytes, 1-2000 (the self-hosted "
                             "Bot API server allows 2000)", source=str(config.path))
        rate = section.get("rate_limit", 20)
        if isinstance(rate, bool) or not isinstance(rate, int) or not 0 <= rate <= 10_000:
            raise InputError("[bot].rate_limit must be the messages a minute a player may send, 0-10000 "
                             "(0: no limit; arbiters are never limited)", source=str(config.path))
        return cls(frozenset(arbiters), str(section.get("language", "en")), section.get("channel"),
                   section.get("webhook_url"), str(section.get("webhook_listen", "127.0.0.1")),
                   int(section.get("webhook_port", 8443)), int(upload * MEGABYTE), rate)


TELEGRAM = "tg"  # the channel name of Telegram in the event log (``tg:<user id>``)


@dataclass(frozen=True)
class AnnouncementChat:
    """A chat that gets the standings each time a round is complete: a channel's group or
    channel (``[bot].channel`` on Telegram, ``[zalo].channel`` on Zalo) as a reply addresses it
    (``Reply.chat_id``: a Telegram id or ``@name``, the bot's number of another channel's chat),
    and the language of the posts."""

    chat_id: int | str
    language: str


@dataclass(frozen=True)
class Who:
    """The person behind a message and where it came from, on any channel.

    ``user_id`` and ``chat_id`` are the bot's numbers (a Telegram id itself; for another channel
    the number ``Store.channel_id`` gives its id), which the bot's tables use; ``sender`` and
    ``chat`` are the channel's own ids as the event log records them (None: the numbers);
    ``update_id`` numbers the update for the saved answers (``bot/answers.py``); ``private``:
    a one-to-one chat (None: Telegram's rule, a positive chat id)."""

    user_id: int
    chat_id: int
    language_code: str | None = None
    message_id: int | str | None = None
    update_id: int | None = None
    text: str | None = None  # what they sent (a message's text or a file's caption), for the submissions
    channel: str = TELEGRAM
    sender: str | None = None
    chat: str | None = None
    private: bool | None = None

    @property
    def actor(self) -> str:
        """``tg:123``, ``zalo:abc``: the channel and its own id of the user, as the log records it."""
        return f"{self.channel}:{self.sender if self.sender is not None else self.user_id}"

    @property
    def dedupe_key(self) -> str | None:
        """The message's ``Source.dedupe_key``: the store applies a message once."""
        if self.channel == TELEGRAM:
            return update_key(self.update_id)
        if self.message_id is None:
            return None
        return f"{self.channel}-message:{self.chat if self.chat is not None else self.chat_id}:{self.message_id}"

    @property
    def in_private(self) -> bool:
        return self.private if self.private is not None else self.chat_id > 0


@dataclass
class BotService:
    """The bot without Telegram: the store (typed by its protocol), the ``[bot]`` settings, what
    to call when a round is complete and after results or pairings; and who is asking."""

    store: Store
    settings: BotSettings = field(default_factory=BotSettings)
    on_round_complete: Callable[[str, int], None] | None = None
    on_change: Callable[[str], None] | None = None  # after results or pairings: a debounced site build
    #: slug -> (the tournament as the log had it, its final standings): computed once per change of the log
    _finals: dict[str, tuple[Tournament, FinalStandings]] = field(default_factory=dict, init=False, repr=False)
    limiter: RateLimiter = field(init=False, repr=False)  # players' messages a minute (bot.limits)
    #: the running channel adapters by name (``tg``, ``zalo``): each sends a reply to one of its
    #: chats, for the replies another channel's message leads to (``bot.conversation.forward``)
    channels: dict[str, Callable[[Reply], Awaitable[None]]] = field(default_factory=dict, repr=False)
    #: each channel's announcement chat by channel name (``bot/announcements.py`` posts a complete
    #: round's standings to every one): Telegram's is ``[bot].channel``; another channel's adapter
    #: adds its own when it starts (Zalo: ``[zalo].channel``)
    announcements: dict[str, AnnouncementChat] = field(default_factory=dict, repr=False)
    _arbiters: tuple[float, frozenset[int]] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.settings.rate_limit)
        if self.settings.channel is not None:
            self.announcements.setdefault(TELEGRAM, AnnouncementChat(self.settings.channel, self.settings.language))

    def arbiter_ids(self) -> frozenset[int]:
        """Everyone who may enter results somewhere: the chief arbiters and each tournament's
        (archived ones included), as of at most ``ARBITERS_TTL`` seconds ago.  Their updates
        are handled first and never rate-limited."""
        now = time.monotonic()
        if self._arbiters is None or now - self._arbiters[0] > ARBITERS_TTL:
            ids = set(self.settings.arbiters)
            for slug in self.store.slugs(archived=True):
                ids |= self.store.state(slug).arbiters
            self._arbiters = (now, frozenset(ids))
        return self._arbiters[1]

    def prefs(self, who: Who) -> UserPrefs:
        """The user's preferences; their private chat is remembered on the way (for /subscribe)."""
        prefs = self.store.user(who.user_id)
        if prefs.chat_id != who.chat_id and who.in_private:
            prefs = replace(prefs, chat_id=who.chat_id)
            self.store.save_user(prefs)
        return prefs

    def remember(self, who: Who, **changes: object) -> None:
        """Save ``changes`` to the user's preferences (tournament, language)."""
        self.store.save_user(replace(self.prefs(who), **changes))

    def tr(self, who: Who) -> Translator:
        """The user's language: the one chosen with /language, else Telegram's, else ``[bot].language``."""
        chosen = self.store.user(who.user_id).language
        return translator(chosen or who.language_code, self.settings.language)

    def selected(self, who: Who, entering: bool = False) -> str | None:
        """The user's tournament: the one they chose while it is not archived; when they chose
        none, the only one there is.  ``entering`` (a result, or another arbiters' command): the
        only one only when the store holds no other, archived ones included.  The tournament
        of an entry is never guessed: a user whose choice was archived, or who may believe
        another one is theirs, is asked to choose."""
        slugs = self.store.slugs()
        chosen = self.store.user(who.user_id).tournament
        if chosen in slugs:
            return chosen
        if chosen is not None or len(slugs) != 1:
            return None
        if entering and len(self.store.slugs(archived=True)) != 1:
            return None
        return slugs[0]

    def is_arbiter(self, user_id: int, slug: str | None) -> bool:
        """A chief arbiter, or an arbiter of tournament ``slug`` (``/arbiters add``)."""
        if self.is_chief(user_id):
            return True
        return slug is not None and user_id in self.store.state(slug).arbiters

    def is_chief(self, user_id: int) -> bool:
        """Named in ``[bot].arbiters``: every tournament, /import, /arbiters add and remove."""
        return user_id in self.settings.arbiters

    def source(self, who: Who) -> Source:
        """Who, where and which update, as the event log records them (an update counts once)."""
        return Source(who.actor, who.chat if who.chat is not None else who.chat_id, who.message_id, who.dedupe_key)

    def tournament_of_key(self, key: int) -> str | None:
        """The slug of the tournament a button names by its key; None for no such tournament
        (forged or stale callback data) and for an archived one, whose buttons are refused
        like those of a tournament that does not exist (its name is not shown)."""
        try:
            slug = self.store.slug_for_key(key)
        except InputError:
            return None
        return None if self.store.is_archived(slug) else slug

    def final(self, slug: str) -> FinalStandings:
        """The final standings of ``slug`` as its log now stands (``ranking.final_standings``),
        computed once per change of the log: the store keeps a tournament's state by the log's
        last event id, and the state its snapshot, the same object until an event is applied.
        Every reply showing standings in between (players refreshing /standings, a round's end
        told to the arbiter and to the channel) shares them."""
        tournament = self.store.tournament(slug)
        known = self._finals.get(slug)
        if known is None or known[0] is not tournament:
            known = self._finals[slug] = (tournament, final_standings(tournament))
        return known[1]

    def changed(self, slug: str) -> None:
        """Results or pairings of ``slug`` changed: tell whoever waits for that (the site build)."""
        if self.on_change is not None:
            self.on_change(slug)

    def request(self, who: Who) -> Request:
        """``who``'s request, to be answered in their language."""
        return Request(self, who, self.tr(who))


@dataclass(frozen=True)
class Request:
    """A request being answered: the service, who asks, and the language of the answer."""

    service: BotService
    who: Who
    tr: Translator

    @property
    def store(self) -> Store:
        return self.service.store

    @property
    def source(self) -> Source:
        return self.service.source(self.who)

    def say(self, message: str, /, *, edit: bool = False, **values: object) -> list[Reply]:
        """``message`` of ``bot.messages`` in the asker's language with its ``{placeholders}``
        filled, escaped, as the one reply."""
        text = self.tr.format(message, **values) if values else self.tr.gettext(message)
        return [Reply(piece, edit=edit and number == 0) for number, piece in enumerate(pack([escape(text)]))]

    def refuse(self, error: InputError) -> list[Reply]:
        """The reply to a request the core refused (``Refused: player 9 is not in the
        tournament``): a ``Refusal`` worded in the asker's language (``bot.messages.REFUSALS``);
        another error (a file that cannot be read) as the reader gave it."""
        return self.say(M.REQUEST_REFUSED, reason=self.reason(error))

    def reason(self, error: InputError) -> str:
        """Why the core refused, in the asker's language where it is a ``Refusal``."""
        return error.where() + M.describe_refusal(error, self.tr) if isinstance(error, Refusal) else str(error)

    def refused(self, slug: str | None, reason: str, message: str, /, text: str | None = None,
                **values: object) -> list[Reply]:
        """Refuse the request for want of a right (or a tournament): record it as a rejected
        submission (docs/architecture.md#storage) with ``reason``, and answer ``message``."""
        self.store.record_submission(self.source, text or self.who.text or "", slug, 0, 1, reason,
                                     self.who.update_id)
        return self.say(message, **values)

    def in_language(self, code: str) -> Request:
        return replace(self, tr=translator(code))

    def prefs(self) -> UserPrefs:
        return self.service.prefs(self.who)

    def remember(self, **changes: object) -> None:
        self.service.remember(self.who, **changes)

    def selected(self, entering: bool = False) -> str | None:
        return self.service.selected(self.who, entering)

    def is_arbiter(self, slug: str | None) -> bool:
        return self.service.is_arbiter(self.who.user_id, slug)

    @property
    def is_chief(self) -> bool:
        return self.service.is_chief(self.who.user_id)

    def about(self, slug: str) -> TournamentRequest:
        return TournamentRequest(self.service, self.who, self.tr, slug)


@dataclass(frozen=True)
class TournamentRequest(Request):
    """A request about tournament ``slug`` (the user's, or the one a button names)."""

    slug: str

    def state(self) -> TournamentState:
        return self.store.state(self.slug)

    def name(self) -> str:
        """The tournament's name, as replies name it."""
        return self.store.state(self.slug).base.name

    def identity(self) -> Identity:
        """Who the asker is in this tournament (/iam) and whether they get its pairings."""
        return self.store.identity(self.who.user_id, self.slug)

    def tournament(self) -> Tournament:
        return self.store.tournament(self.slug)

    def final(self) -> FinalStandings:
        """The tournament's final standings (``BotService.final``: once per change of its log)."""
        return self.service.final(self.slug)

    def player(self, query: str) -> Player | list[Reply]:
        """The one player ``query`` names (a starting number, or a name ignoring case and
        diacritics: ``ranking.event.players.find_players``), or the reply saying none or several do."""
        tournament = self.tournament()
        found = find_players(tournament, query)
        if len(found) == 1:
            return found[0]
        if not found:
            number = query.strip().lstrip("#")
            if number.isascii() and number.isdigit():
                return self.refuse(Refusal(Code.PLAYER_UNKNOWN, player=int(number),
                                           ids=sorted(player.id for player in tournament.players)))
            return self.say(M.PLAYER_NOT_FOUND, query=query.strip())
        lines = [escape(self.tr.format(M.PLAYER_AMBIGUOUS, query=query.strip()))]
        lines += [f"{player.id}. {escape(player.name)}" for player in found[:20]]
        return [Reply(text) for text in pack(lines)]

    def heading(self) -> str:
        """The tournament's name, bold: the first line of every confirmation of a change."""
        return f"<b>{escape(self.name())}</b>"

    def confirm(self, message: str, /, *, edit: bool = False, **values: object) -> list[Reply]:
        """``say``, under the tournament's name: a change is confirmed naming the tournament."""
        text = self.tr.format(message, **values) if values else self.tr.gettext(message)
        return [Reply(piece, edit=edit and number == 0)
                for number, piece in enumerate(pack([self.heading(), escape(text)]))]


# -- the guards ---------------------------------------------------------------------------------

#: a command as handlers call it: ``command(service, who, *arguments)``
Command: TypeAlias = Callable[Concatenate[BotService, Who, P], list[Reply]]
#: a pressed button as handlers call it (``bot.handlers.BUTTONS``)
ButtonCommand: TypeAlias = Callable[[BotService, Who, Press], list[Reply]]


def anyone(body: Callable[Concatenate[Request, P], list[Reply]]) -> Command[P]:
    """A command anyone may use, with or without a tournament."""
    @functools.wraps(body)
    def command(service: BotService, who: Who, /, *args: P.args, **kwargs: P.kwargs) -> list[Reply]:
        return body(service.request(who), *args, **kwargs)
    return command


def needs_tournament(body: Callable[Concatenate[TournamentRequest, P], list[Reply]]) -> Command[P]:
    """A command about the user's tournament: refused while none is selected."""
    return _about_the_tournament(body, arbiters=False)


def arbiters_only(body: Callable[Concatenate[TournamentRequest, P], list[Reply]]) -> Command[P]:
    """A command for the arbiters of the user's tournament (and the chief arbiters)."""
    return _about_the_tournament(body, arbiters=True)


def chief_only(body: Callable[Concatenate[Request, P], list[Reply]]) -> Command[P]:
    """A command for the chief arbiters named in ``[bot].arbiters`` only."""
    @functools.wraps(body)
    def command(service: BotService, who: Who, /, *args: P.args, **kwargs: P.kwargs) -> list[Reply]:
        request = service.request(who)
        if not request.is_chief:
            return request.refused(request.selected(), "not a chief arbiter", M.CHIEF_ONLY)
        return body(request, *args, **kwargs)
    return command


def arbiters_button(body: Callable[[TournamentRequest, Press], list[Reply]]) -> ButtonCommand:
    """A button of /enter or of a replace question: about the tournament its first field names,
    for that tournament's arbiters only; a refused press that would enter a result is recorded
    as a rejected submission."""
    @functools.wraps(body)
    def command(service: BotService, who: Who, press: Press, /) -> list[Reply]:
        request = service.request(who)
        slug = service.tournament_of_key(press.int(0))
        if slug is None:
            return request.say(M.NO_SUCH_TOURNAMENT, edit=True)
        if not request.is_arbiter(slug):
            if press.action.enters_result:
                return request.refused(slug, "not an arbiter", M.ARBITERS_ONLY, f"[button] {press.data}")
            return request.say(M.ARBITERS_ONLY)
        return body(request.about(slug), press)
    return command


def _about_the_tournament(body: Callable[Concatenate[TournamentRequest, P], list[Reply]], *,
                          arbiters: bool) -> Command[P]:
    """The guard of ``needs_tournament`` and ``arbiters_only``; an arbiters' command refused
    (no tournament, or not an arbiter of it) is recorded as a rejected submission."""
    @functools.wraps(body)
    def command(service: BotService, who: Who, /, *args: P.args, **kwargs: P.kwargs) -> list[Reply]:
        request = service.request(who)
        slug = request.selected(entering=arbiters)
        if slug is None:
            if arbiters:
                return request.refused(None, "no tournament", M.NO_TOURNAMENT_SELECTED)
            return request.say(M.NO_TOURNAMENT_SELECTED)
        if arbiters and not request.is_arbiter(slug):
            return request.refused(slug, "not an arbiter", M.ARBITERS_ONLY)
        return body(request.about(slug), *args, **kwargs)
    return command


def update_key(update_id: int | None) -> str | None:
    """The ``Source.dedupe_key`` of a Telegram update: the store applies an update once."""
    return f"tg-update:{update_id}" if update_id is not None else None
