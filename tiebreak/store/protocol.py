"""The ``Store`` protocol, in its parts (the event log, the channels' memory), and the values it
takes and gives: what the bot, the site and the command line need from a store."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ranking.event.log import Event, LoggedEvent, TournamentState
from ranking.event.model import Tournament


@dataclass(frozen=True)
class UserPrefs:
    """What the bot remembers of a Telegram user (who they are in a tournament: ``Identity``)."""

    user_id: int
    chat_id: int | None = None
    language: str | None = None  # chosen with /language; None: the user's Telegram language
    tournament: str | None = None  # the selected tournament's slug


@dataclass(frozen=True)
class Identity:
    """Who a Telegram user is in one tournament (/iam) and whether they get its pairings
    (/subscribe); ``chat_id`` and ``language`` are the user's, for notifications."""

    user_id: int
    tournament: str
    player_id: int | None = None
    subscribed: bool = False
    chat_id: int | None = None
    language: str | None = None


@dataclass(frozen=True)
class EntryLink:
    """A personal link to the entry page (``tiebreak.links``): ``id`` names it in the log
    (``web:<id>``); the secret itself is never stored, only its SHA-256."""

    id: int
    tournament: str
    label: str
    created_at: str
    created_by: str
    revoked_at: str | None = None


@dataclass(frozen=True)
class Source:
    """Who asked and from where: ``actor`` is ``tg:<user id>``, ``zalo:<user id>`` (a chat
    channel and its own id of the user) or ``cli:<user>``; a chat message also gives its chat and
    message (the channel's own ids), and a ``dedupe_key`` so a repeat applies once."""

    actor: str
    chat_id: int | str | None = None
    message_id: int | str | None = None
    dedupe_key: str | None = None


@dataclass
class Submission:
    """A submission (docs/architecture.md#storage) recorded in the transaction of the events it led to,
    so a process killed between the two leaves both or neither; ``decide`` fills in the counts."""

    text: str
    tournament: str | None
    update_id: int | None = None
    accepted: int = 0
    rejected: int = 0
    detail: str = ""


#: Turns the current state into the events to append (or raises InputError, writing nothing).
Decide = Callable[[TournamentState], Sequence[Event]]


class EventLog(Protocol):
    """The tournaments and their event logs (``tiebreak.store.log``)."""

    def slugs(self, archived: bool = False) -> list[str]: ...

    def is_archived(self, slug: str) -> bool: ...

    def create(self, slug: str, tournament: Tournament, source: Source) -> None: ...

    def tournament_key(self, slug: str) -> int: ...

    def slug_for_key(self, key: int) -> str: ...

    def state(self, slug: str) -> TournamentState: ...

    def tournament(self, slug: str) -> Tournament: ...

    def versions(self) -> dict[str, int]: ...

    def append(self, slug: str, decide: Decide, source: Source,
               submission: Submission | None = None) -> list[LoggedEvent]: ...

    def log(self, slug: str) -> list[LoggedEvent]: ...


class ChannelMemory(Protocol):
    """What the chat channels remember (``tiebreak.store.channels``): users and their
    selections, submissions and update offsets, answers to deliver, the inbox, the choices
    offered, the entry page's links and keys."""

    def user(self, user_id: int) -> UserPrefs: ...

    def save_user(self, prefs: UserPrefs) -> None: ...

    def identity(self, user_id: int, slug: str) -> Identity: ...

    def save_identity(self, identity: Identity) -> None: ...

    def subscribers(self, slug: str) -> list[Identity]: ...

    def last_update_id(self) -> int: ...

    def record_submission(self, source: Source, text: str, tournament: str | None, accepted: int,
                          rejected: int, detail: str = "", update_id: int | None = None) -> None: ...

    def has_submission(self, update_id: int) -> bool: ...

    def submissions(self) -> list[dict]: ...

    def applied(self, dedupe_key: str) -> bool: ...

    def answer(self, update_id: int) -> str | None: ...

    def save_answer(self, update_id: int, chat_id: int | None, replies: str) -> None: ...

    def mark_answer(self, update_id: int, sent: bool) -> None: ...

    def unsent_answers(self, chat_id: int) -> list[tuple[int, str]]: ...

    def channel_id(self, channel: str, external: str) -> int: ...

    def channel_address(self, number: int) -> tuple[str, str] | None: ...

    def receive(self, channel: str, message_key: str, body: str) -> int | None: ...

    def waiting(self, channel: str) -> list[tuple[int, str]]: ...

    def finish(self, inbox_id: int) -> None: ...

    def offer_choices(self, chat_id: int, choices: str) -> None: ...

    def offered_choices(self, chat_id: int) -> str | None: ...

    def add_link(self, slug: str, label: str, secret_sha256: str, actor: str) -> EntryLink: ...

    def revoke_link(self, slug: str, label: str) -> EntryLink | None: ...

    def link_by_secret(self, secret_sha256: str) -> EntryLink | None: ...

    def links(self, slug: str) -> list[EntryLink]: ...

    def web_key(self, name: str, make: Callable[[], str]) -> str: ...


class Store(EventLog, ChannelMemory, Protocol):
    """What the bot, the site and the command line need from a store."""

    def close(self) -> None: ...

    def __enter__(self) -> Store: ...

    def __exit__(self, *exc: object) -> None: ...
