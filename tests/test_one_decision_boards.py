"""One decision, one place (issue 26): which boards of a round are open and what result a board
holds is the clock's answer (``ranking.event.clock.decided_games``), and every view reads it:
/enter, the entry page, ``round --json``, the bot's /round and player card, the TRF export."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from open_scenario import in_process, ok, store_config
from test_bot_service import CHIEF, CLI, who
from test_entry_page import Page, buttons, forms

from bot import entering, players
from bot.messages import translator
from bot.service import BotService, BotSettings
from bot.views import player_blocks, round_blocks
from bot.web import EntrySite
from ranking import Game, Player, Result, Tournament, Withdrawal, clock_of
from ranking.event.clock import decided_games
from ranking.formats.toml_export import write_tournament_toml
from tiebreak.exports import with_decided_boards
from tiebreak.running import round_json
from tiebreak.store import SQLiteStore

#: Four players; round 1 entered; round 2: 1-3 without a result, 2-4 drawn; player 3 withdrew
#: after round 1, so 1-3 is a forfeit won by 1 (C.07 16.1) and round 2 is complete.
WITHDRAWN = Tournament(
    "Withdrawal Open", tuple(Player(i, f"Player {i}") for i in range(1, 5)), 3,
    (Game(1, 1, 2, Result.WHITE_WINS, 1), Game(1, 3, 4, Result.BLACK_WINS, 2),
     Game(2, 1, 3, None, 1), Game(2, 2, 4, Result.DRAW, 2)),
    withdrawals=(Withdrawal(3, 1),))


def test_the_clock_decides_the_withdrawn_players_board() -> None:
    clock = clock_of(WITHDRAWN)
    assert (clock.current, clock.open_boards, clock.complete) == (2, (), (1, 2))
    decided = decided_games(WITHDRAWN, 2)
    assert [(item.game.board, item.game.result, item.annulled) for item in decided] == [
        (1, Result.WHITE_WINS_FORFEIT, False), (2, Result.DRAW, False)]


def test_enter_offers_no_board_the_withdrawal_rule_decides(store: SQLiteStore) -> None:
    store.create("wd", WITHDRAWN, CLI)
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
    players.start(service, who(CHIEF), "wd")
    [menu] = entering.enter(service, who(CHIEF))
    assert menu.text == "Every game of round 2 has a result."
    assert not menu.buttons


@pytest_asyncio.fixture
async def withdrawn_page(tmp_path: Path) -> AsyncIterator[Page]:
    path = tmp_path / "wd.toml"
    path.write_text(write_tournament_toml(WITHDRAWN).replace("[tournament]\n", '[tournament]\nslug = "wd"\n', 1),
                    encoding="utf-8")
    config = store_config(tmp_path, '[web]\nlisten = "127.0.0.1:8080"\n')
    cli = in_process(config)
    ok(cli, "import", str(path))
    url = ok(cli, "arbiter", "link", "wd", "--label", "hall").strip()
    store = SQLiteStore(tmp_path / "data" / "store.sqlite3")
    site = EntrySite(BotService(store, BotSettings()))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=site.app()), base_url="http://entry.test") as client:
        yield Page(cli, store, client, url, "wd")
    store.close()


@pytest.mark.asyncio
async def test_the_entry_page_shows_the_forfeit_and_offers_no_buttons_for_it(withdrawn_page: Page) -> None:
    shown = await withdrawn_page.get()
    assert "Round 2" in shown.text
    board = shown.text.split('id="board-1"', 1)[1].split("</li>", 1)[0]
    assert '<p class="now">Result: +-</p>' in board
    assert buttons(shown, 1) == [] and ("result", 1) not in forms(shown)
    assert ("result", 2) in forms(shown)  # the draw entered can be corrected
    assert withdrawn_page.round(2) == {1: "+-", 2: "1/2-1/2"}


def test_every_view_holds_the_forfeit(store: SQLiteStore) -> None:
    store.create("wd", WITHDRAWN, CLI)
    state = store.state("wd")
    tr = translator("en")
    assert [board["result"] for board in round_json(state, 2)["boards"]] == ["+-", "1/2-1/2"]
    assert "…" not in "\n".join(round_blocks(state, 2, tr))
    card = "\n".join(player_blocks(state, 1, tr))
    assert "…" not in card and "+" in card
    assert [game.result for game in with_decided_boards(WITHDRAWN).games if game.round == 2] == [
        Result.WHITE_WINS_FORFEIT, Result.DRAW]
