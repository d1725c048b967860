"""The site of a rated open (issue 20): the players list by pairing number (``players.html``,
linked from every page of the tournament), the headline by the event's one clock, and a withdrawn
player's boards as the withdrawal rule makes them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_site_pages import rows_of, text_of

from ranking import Bye, ByeKind, Game, Result, Withdrawal
from site_builder import SiteSettings, build_site
from tiebreak.files import load_tournament

DATA = Path(__file__).resolve().parent / "data" / "open"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The eight-player open with round 1 paired (one board still being played), a half-point
    bye entered ahead for round 2, and player 7 withdrawn after round 0 (their board is a forfeit)."""
    t = load_tournament(DATA / "swiss-8.toml")
    games = (Game(1, 3, 2, Result.WHITE_WINS, 1), Game(1, 5, 6, None, 2), Game(1, 1, 7, None, 3),
             Game(1, 4, 8, Result.DRAW, 4))
    t = replace(t, games=games, byes=(Bye(2, 4, ByeKind.HALF),), withdrawals=(Withdrawal(7, 0),))
    out = tmp_path_factory.mktemp("site") / "public"
    build_site({"swiss8": t}, SiteSettings(out_dir=out, languages=("en", "vi")))
    return out


def test_the_players_page_lists_the_initial_ranking_list(site: Path) -> None:
    html = (site / "swiss8" / "players.html").read_text(encoding="utf-8")
    rows = rows_of(html, "Starting rank list")
    assert [row[:2] for row in rows] == [[str(tpn), str(pid)] for tpn, pid in enumerate((3, 6, 1, 8, 2, 5, 7, 4), 1)]
    assert rows[1][2] == "FM Vương, Bảo" and rows[6][2] == "Hồ, Anh withdrawn"
    assert "rating, then title, then name" in text_of(html)
    vietnamese = text_of((site / "vi" / "swiss8" / "players.html").read_text(encoding="utf-8"))
    assert "Danh sách xếp hạt giống" in vietnamese


def test_every_page_of_the_tournament_links_to_it(site: Path) -> None:
    for page in ("index.html", "crosstable.html", "round-1.html", "players.html"):
        assert 'href="../swiss8/players.html"' in (site / "swiss8" / page).read_text(encoding="utf-8"), page


def test_the_headline_is_the_clocks_and_a_withdrawn_players_board_is_a_forfeit(site: Path) -> None:
    standings = text_of((site / "swiss8" / "index.html").read_text(encoding="utf-8"))
    assert "Round 1 of 5 in progress: 1 game still being played." in standings  # not round 2 (a bye ahead)
    assert not (site / "swiss8" / "round-2.html").exists()
    round_one = (site / "swiss8" / "round-1.html").read_text(encoding="utf-8")
    forfeit = next(row for row in rows_of(round_one, "Round 1") if row[1] == "1")
    assert forfeit[5] == "+ −"  # board 3: 1 against the withdrawn 7, won by forfeit
