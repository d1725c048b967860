"""A result's path through the bot, kept short so the arbiter's reply stays fast: the standings
are computed once per change of the log (players refreshing /standings share them, and a round's
end told to the arbiter and to the channel computes them once); the replies are worded after the
store's write transaction, not while it holds the lock; the site build is asked for with the
tournament the result changed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import bot.service
from bot import entering, players, running
from bot.service import BotService, BotSettings, Who
from tiebreak.files import load_tournament
from tiebreak.i18n import Translator
from tiebreak.store import Source, SQLiteStore

XIANGQI = Path(__file__).resolve().parent.parent / "ranking" / "examples" / "xiangqi-rr.toml"
CHIEF = 1001
CHANNEL = "@tiebreak_results"


@pytest.fixture
def store(tmp_path: Path):
    with SQLiteStore(tmp_path / "bot.sqlite3") as opened:
        yield opened


@pytest.fixture
def changed() -> list[str]:
    """The tournaments the site build was asked for."""
    return []


@pytest.fixture
def service(store: SQLiteStore, changed: list[str]) -> BotService:
    """The xiangqi round robin with round 1 paired (boards 1-10, 2-9, 3-8, 4-7, 5-6), and a
    channel that gets the standings when a round is complete."""
    store.create("xq", replace(load_tournament(XIANGQI), games=()), Source("cli:test"))
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF}), channel=CHANNEL), on_change=changed.append)
    running.pair(service, Who(CHIEF, CHIEF))
    changed.clear()
    return service


def message(service: BotService, text: str, update: int) -> list:
    return entering.text(service, Who(CHIEF, CHIEF, "en", message_id=update, update_id=update, text=text), text)


def test_the_standings_are_computed_once_per_change_of_the_log(service: BotService, changed: list[str],
                                                               monkeypatch) -> None:
    computed = []
    real = bot.service.final_standings
    monkeypatch.setattr(bot.service, "final_standings", lambda tournament: computed.append(1) or real(tournament))
    fan = Who(5, 5, "en")
    for _ in range(3):  # players refreshing /standings
        assert "<pre>" in players.standings(service, fan)[0].text
    assert len(computed) == 1
    for update, board in enumerate((1, 2, 3, 4), start=100):
        message(service, f"R1 B{board} 1-0", update)
    assert len(computed) == 1  # no reply to these shows standings: none computed
    last = message(service, "R1 B5 0-1", 200)  # round 1 complete: standings to the arbiter and to the channel
    assert [reply.chat_id for reply in last].count(CHANNEL) >= 1 and "<pre>" in last[-1].text
    assert len(computed) == 2
    players.standings(service, fan)
    assert len(computed) == 2  # the same log: the same standings
    assert changed == ["xq"] * 5  # each result asked for a build of its tournament


def test_the_replies_are_worded_after_the_write_transaction(service: BotService, store: SQLiteStore,
                                                            monkeypatch) -> None:
    worded = []

    def watched(method):
        def wording(self, *args, **kwargs):
            worded.append((args[0], store._connection.in_transaction))
            return method(self, *args, **kwargs)
        return wording

    for name in ("format", "nformat"):
        monkeypatch.setattr(Translator, name, watched(getattr(Translator, name)))
    replies = message(service, "R1 B1 1-0\nR1 B2 0-1\nR1 B3 1-1", 300)
    assert len(replies) == 1 and replies[0].text.count("Round 1, board") == 3
    assert worded and not [text for text, in_transaction in worded if in_transaction]
