"""A whole event run from the console bot alone (issue 11, "What it must show"): an 8-player
xiangqi round robin without ``rounds`` is imported with ``:send``, every round is paired and
entered (by text and by taps, with a correction, a foul and a withdrawal; a late entry is
refused), the console restarts between rounds (a new process: a new store connection and
update numbers that must not repeat), and the exported files read back to the same standings."""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import replace
from pathlib import Path

from bot.console import run_console
from bot.service import BotService, BotSettings
from ranking.formats.toml_export import write_tournament_toml
from ranking.standings.final import final_standings
from tiebreak.files import load_tournament
from tiebreak.store import SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
XIANGQI = ROOT / "ranking" / "examples" / "xiangqi-rr.toml"
CHIEF = 1001


def session(database: Path, outbox: Path, *lines: str) -> str:
    """One run of the console (a fresh process as far as the store can tell): the lines typed,
    what it printed."""
    out = io.StringIO()
    with SQLiteStore(database) as store:
        service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
        asyncio.run(run_console(service, CHIEF, "en", lines=io.StringIO("\n".join(lines) + "\n"), out=out,
                                outbox=outbox))
    return out.getvalue()


def boards(database: Path, slug: str, number: int) -> dict[int, tuple[int, int]]:
    with SQLiteStore(database) as store:
        state = store.state(slug)
        return {board: (game.white, game.black) for (r, board), game in state.games.items() if r == number}


def test_a_whole_round_robin_from_the_console(tmp_path: Path) -> None:
    example = load_tournament(XIANGQI)
    eight = replace(example, games=(), players=example.players[:8], rounds=0)
    text = write_tournament_toml(eight).replace("rounds = 0\n", "")
    assert "rounds" not in text.split("[[players]]")[0]
    (tmp_path / "rr8.toml").write_text(text, encoding="utf-8")
    database, outbox = tmp_path / "data" / "store.sqlite3", tmp_path / "outbox"

    shown = session(database, outbox, f":send {tmp_path / 'rr8.toml'} /import rr8", "/pair")
    assert "Imported Hanoi–Hangzhou Xiangqi Invitational 2026 as rr8; players: 8" in shown
    assert "Round 1 paired; boards: 4" in shown and "Red" in shown
    withdrawn = None
    for number in range(1, 8):
        if number > 1:  # the console restarts to pair, and again to enter the round
            paired = session(database, outbox, "/pair")
            assert f"Round {number} paired; boards: 4" in paired, paired
        games = boards(database, "rr8", number)
        assert len(games) == 4
        if number == 5:  # a played result for the withdrawn player is refused, and nothing is stored
            board = next(board for board, pair in games.items() if 8 in pair)
            refused = session(database, outbox, f"R5 B{board} 2-0")
            assert "player 8 withdrew after round 4: round 5, board" in refused, refused
            assert "is a forfeit (" in refused
        lines = []
        for board, (white, black) in sorted(games.items()):
            if withdrawn in (white, black):
                result = "-+" if white == withdrawn else "+-"  # the withdrawal rule: a forfeit
            else:
                result = ("2-0", "1-1", "0-2")[(number + board) % 3]
            if board == 4 and withdrawn is None:
                continue  # entered by taps below
            lines.append(f"R{number} B{board} {result}" + (" foul black" if (number, board) == (3, 2) else ""))
        if withdrawn is None:  # board 4 by taps: the board, a draw, confirm
            lines += ["/enter", ":tap 1", ":tap 2", ":tap 1"]
        if number == 1:
            lines.append("/addplayer Late Entry")
        if number == 2:  # a correction, confirmed with Yes
            lines += ["R2 B1 0-2", ":tap 1"]
        if number == 4:
            lines.append("/withdraw 8")
        printed = session(database, outbox, *lines)
        assert printed.count("recorded") >= 3, printed  # every result answered, none silently dropped
        assert f"Round {number} is complete." in printed, printed
        assert "Already applied" not in printed  # a restarted console repeats no update number
        if number == 1:
            assert "Refused: a round robin takes no late entries once round 1 is paired" in printed
        if number == 2:
            assert "Replace" in printed and "corrected (was" in printed
        if number == 3:
            assert "1 foul by" in printed
        if number == 4:
            assert "Player 8, " in printed and "withdrawn after round 4" in printed
            withdrawn = 8
    exported = session(database, outbox, "/standings", "/export", "/pair")
    assert "Every round is already paired." in exported
    assert (outbox / "rr8.trf").read_text(encoding="utf-8").startswith("012 Hanoi")
    assert "[tournament]" in (outbox / "rr8.toml").read_text(encoding="utf-8")
    again = session(database, outbox, f":send {outbox / 'rr8.toml'} /import back",
                    f":send {outbox / 'rr8.trf'} /import trf")
    assert "as back" in again and "as trf" in again
    with SQLiteStore(database) as store:
        original = store.tournament("rr8")
        assert original.rounds == 7 and len(original.games) == 28
        assert sum(game.fouls_black for game in original.games) == 1
        assert final_standings(store.tournament("back")).as_json() == final_standings(original).as_json()
        trf, mine = final_standings(store.tournament("trf")), final_standings(original)
        assert trf.points() == mine.points() and trf.ranks() == mine.ranks()
        numbers = [row["update_id"] for row in store.submissions() if row["update_id"] is not None]
        assert len(numbers) == len(set(numbers))
    assert re.search(r"Standings after round 7", exported)

