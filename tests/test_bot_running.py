"""Running an event from the bot (issue 11), command by command against a real SQLite store:
identities per tournament, archived tournaments, late entries, byes, undo, Swiss pairing,
the player's card and the replies to what the bot cannot read."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from bot import arbiters, players
from bot import messages as M
from bot.formatting import escape
from bot.messages import translator
from bot.replies import Reply
from bot.service import BotService, BotSettings, Who
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "ranking" / "examples"
XIANGQI = EXAMPLES / "xiangqi-rr.toml"
SWISS = EXAMPLES / "chess-swiss.trf"
CLI = Source("cli:test")
CHIEF, PLAYER, STRANGER = 1001, 2002, 3003
_ids = itertools.count(1)


def who(user: int, lang: str | None = "en") -> Who:
    number = next(_ids)
    return Who(user, user, lang, message_id=number, update_id=number)


def text_of(replies: Sequence[Reply]) -> str:
    return "\n".join(reply.text for reply in replies)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "bot.sqlite3") as opened:
        yield opened


@pytest.fixture
def service(store: SQLiteStore) -> BotService:
    return BotService(store, BotSettings(arbiters=frozenset({CHIEF})))


def two_events(store: SQLiteStore) -> tuple[str, str]:
    """Two round robins without results: "a" (the xiangqi example) and "b" (a copy)."""
    tournament = replace(load_tournament(XIANGQI), games=())
    store.create("a", tournament, CLI)
    store.create("b", replace(tournament, name="Second Open"), CLI)
    return "a", "b"


def choose(service: BotService, user: int, slug: str) -> None:
    players.start(service, who(user), slug)


# -- 11.7: who a user is, per tournament -----------------------------------------------------------

def test_iam_in_one_tournament_is_not_who_you_are_in_another(service: BotService, store: SQLiteStore) -> None:
    a, b = two_events(store)
    choose(service, PLAYER, a)
    assert "You are player 4 of " in text_of(players.iam(service, who(PLAYER), "4"))
    choose(service, PLAYER, b)
    assert text_of(players.me(service, who(PLAYER))) == escape(
        translator("en").format(M.WHO_ARE_YOU, tournament="Second Open"))
    choose(service, PLAYER, a)
    assert "4. " in text_of(players.me(service, who(PLAYER)))


def test_subscriptions_are_per_tournament_and_notifications_name_it(service: BotService,
                                                                     store: SQLiteStore) -> None:
    a, b = two_events(store)
    choose(service, PLAYER, a)
    players.iam(service, who(PLAYER), "4")
    players.subscribe(service, who(PLAYER))
    choose(service, PLAYER, b)
    players.iam(service, who(PLAYER), "5")  # a player of b too, but not subscribed there
    choose(service, CHIEF, b)
    assert [reply for reply in arbiters.pair(service, who(CHIEF)) if reply.chat_id == PLAYER] == []
    choose(service, CHIEF, a)
    [note] = [reply for reply in arbiters.pair(service, who(CHIEF)) if reply.chat_id == PLAYER]
    assert note.text.startswith(f"<b>{escape(store.state(a).base.name)}</b>\n")
