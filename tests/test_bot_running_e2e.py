"""Running an event through the real python-telegram-bot stack against the fake Bot API
(tests/fake_telegram.py): a Swiss round proposed and confirmed by a button, the replies to an
unknown command and to bad arguments."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fake_telegram import FakeTelegram, running
from test_bot_e2e import TOKEN, exchange

from bot.app import build_application
from bot.service import BotService, BotSettings
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

SWISS = Path(__file__).resolve().parent.parent / "ranking" / "examples" / "chess-swiss.trf"
CHIEF, PLAYER = 1001, 2002


@pytest.fixture
def server() -> Iterator[FakeTelegram]:
    with FakeTelegram(TOKEN) as fake:
        yield fake


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "bot.sqlite3") as opened:
        opened.create("sw", replace(load_tournament(SWISS), rounds=9), Source("cli:test"))
        yield opened


@pytest.mark.asyncio
async def test_a_swiss_round_is_proposed_and_stored_on_the_button(server: FakeTelegram, store: SQLiteStore) -> None:
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
    async with running(build_application(TOKEN, service, base_url=server.url)) as errors:
        [proposal] = await exchange(server, server.command(CHIEF, "pair"), CHIEF)
        assert proposal["text"].startswith("Proposed pairing of round 8 (FIDE Dutch system).")
        confirm = proposal["reply_markup"]["inline_keyboard"][0][0]
        assert confirm["text"] == "Pair round 8" and 8 not in store.state("sw").paired_rounds()
        [stored] = await exchange(server, server.callback_query(CHIEF, confirm["callback_data"], proposal), CHIEF)
        assert stored["text"].startswith("Round 8 paired; boards: 12")
    assert errors == []
    assert 8 in store.state("sw").paired_rounds()


@pytest.mark.asyncio
async def test_unknown_commands_and_bad_arguments_are_answered(server: FakeTelegram, store: SQLiteStore) -> None:
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
    async with running(build_application(TOKEN, service, base_url=server.url)) as errors:
        [unknown] = await exchange(server, server.command(PLAYER, "foo"), PLAYER)
        assert unknown["text"] == "Unknown command /foo: /help lists the commands."
        [bad] = await exchange(server, server.command(PLAYER, "round", "abc"), PLAYER)
        assert bad["text"] == "Write a round number, e.g. /round 3"
        [late] = await exchange(server, server.command(PLAYER, "round", "99"), PLAYER)
        assert late["text"] == "Round 99: the tournament has 9 rounds."
        [start] = await exchange(server, server.command(PLAYER, "start", "nonexistent"), PLAYER)
        assert start["text"].startswith("No tournament “nonexistent”: /tournaments lists them.")
    assert errors == []
