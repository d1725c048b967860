"""What the pages show (issue 14): xiangqi in its own terms, the tournament header, the round in
progress, a round robin's coming rounds, withdrawn players, starting numbers and titles, the root
index's status, the printed round sheets and their QR codes."""

from __future__ import annotations

import dataclasses
import datetime
import re
from html import unescape
from pathlib import Path

import pytest
import segno

from ranking import Result, Tournament, Withdrawal, round_robin_schedule
from site_builder import SiteSettings, build_site
from site_builder.qr import QUIET_ZONE, qr_code
from tiebreak.files import load_tournament

EXAMPLES = Path(__file__).resolve().parents[1] / "ranking" / "examples"
BASE = "https://results.example.org/"
BOT = "TiebreakResultsBot"


def text_of(html: str) -> str:
    """The page's text, one space between words (tags, scripts and QR paths left out)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def rows_of(html: str, caption: str) -> list[list[str]]:
    """The body rows (cell texts) of the table whose caption starts with ``caption``."""
    for table in re.findall(r"<table\b.*?</table>", html, flags=re.S):
        found = re.search(r"<caption[^>]*>(.*?)</caption>", table, flags=re.S)
        if found and text_of(found.group(1)).startswith(caption):
            body = re.search(r"<tbody>(.*?)</tbody>", table, flags=re.S)
            return [[text_of(cell) for cell in re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, flags=re.S)]
                    for row in re.findall(r"<tr\b.*?</tr>", body.group(1) if body else "", flags=re.S)]
    raise AssertionError(f"no table captioned {caption!r}")


@pytest.fixture(scope="module")
def xiangqi() -> Tournament:
    """The xiangqi round robin after round 4, with two games of round 4 still being played and
    rounds 5-9 not paired yet."""
    full = load_tournament(EXAMPLES / "xiangqi-rr.toml")
    games = [game for game in full.games if game.round <= 4]
    open_boards = {(4, 1), (4, 3)}
    games = [dataclasses.replace(game, result=None) if (game.round, game.board) in open_boards else game
             for game in games]
    return dataclasses.replace(full, games=tuple(games))


@pytest.fixture(scope="module")
def swiss() -> Tournament:
    """The chess Swiss with player 24 withdrawn after round 5."""
    full = load_tournament(EXAMPLES / "chess-swiss.trf")
    games = tuple(game for game in full.games if not (game.round > 5 and 24 in (game.white, game.black)))
    byes = tuple(bye for bye in full.byes if not (bye.round > 5 and bye.player == 24))
    return dataclasses.replace(full, games=games, byes=byes, withdrawals=(*full.withdrawals, Withdrawal(24, 5)))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, xiangqi: Tournament, swiss: Tournament) -> Path:
    full = load_tournament(EXAMPLES / "xiangqi-rr.toml")
    empty = dataclasses.replace(full, name="Spring Cup (not started)", games=(), byes=(),
                                records=(("042", "2027/04/01"),))
    out = tmp_path_factory.mktemp("site-pages") / "public"
    report = build_site({"rr": xiangqi, "swiss": swiss, "final": full, "empty": empty},
                        SiteSettings(out_dir=out, languages=("en", "zh", "vi"), base_url=BASE, bot_username=BOT))
    assert report.skipped == {}
    return out


def page(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


# -- xiangqi in xiangqi's terms ---------------------------------------------------------------------

def test_xiangqi_cells_are_game_points_that_add_up_to_the_points(site: Path) -> None:
    rows = rows_of(page(site, "final/crosstable.html"), "Crosstable")
    for row in rows:
        cells, points = row[3:], float(row[2])  # place, name, points, then the cells
        assert {cell for cell in cells if cell} <= {"2", "1", "0"}, row
        assert sum(int(cell) for cell in cells if cell) == points, row
    assert "½" not in text_of(page(site, "final/crosstable.html"))


def test_xiangqi_results_read_2_0_1_1_0_2_and_the_running_score_adds_them(site: Path) -> None:
    for number in range(1, 10):
        results = {row[5] for row in rows_of(page(site, f"final/round-{number}.html"), "Round")}
        assert results <= {"2-0", "1-1", "0-2"}, number
    for player in range(1, 11):
        rows = rows_of(page(site, f"final/players/{player}.html"), "Results by round")
        running = 0
        for row in rows:
            running += int(row[2])
            assert row[2] in {"2", "1", "0"} and int(row[3]) == running, (player, row)


def test_chess_keeps_1_0_and_halves(site: Path) -> None:
    results = {row[5] for row in rows_of(page(site, "swiss/round-1.html"), "Round 1")}
    assert results <= {"1-0", "0-1", "½-½", "+ −", "− +", "− −"} and "1-0" in results
    cells = {cell.split("w")[-1].split("b")[-1] for row in rows_of(page(site, "swiss/crosstable.html"), "Wall chart")
             for cell in row[3:] if cell}
    assert "½" in cells and "1" in cells and "0" in cells


def test_the_wall_chart_legend_tells_byes_from_forfeits(site: Path) -> None:
    text = text_of(page(site, "swiss/crosstable.html"))
    legend = text[text.index("How to read the table"):]
    assert "+ won by forfeit" in legend and "− lost by forfeit" in legend
    assert "HPB half-point bye" in legend and "12w… against the player in place 12" in legend
    cells = [cell for row in rows_of(page(site, "swiss/crosstable.html"), "Wall chart") for cell in row[3:]]
    assert "HPB" in cells  # a bye has no opponent and its own mark, never "+"
    assert not [cell for cell in cells if cell.endswith("+") and not re.match(r"\d+[wb]\+$", cell)]


# -- the header, progress, coming rounds ---------------------------------------------------------------

def test_the_header_shows_place_dates_arbiter_time_control_and_rules(site: Path) -> None:
    text = text_of(page(site, "final/index.html"))
    for words in ("Place Hà Nội", "Dates Mar 14, 2026 – Mar 22, 2026", "Chief arbiter Nguyễn Văn Minh",
                  "Time control 60 min + 30 s per move", "Rules cxa-rr : CXA 14.1"):
        assert words in text, words
    swiss = text_of(page(site, "swiss/index.html"))
    assert "Place Porto (POR)" in swiss and "Chief arbiter Ferreira, Ana" in swiss
    assert "2026年3月14日至2026年3月22日" in text_of(page(site, "zh/final/index.html"))
    assert "Tổng trọng tài Nguyễn Văn Minh" in text_of(page(site, "vi/final/index.html"))


def test_a_round_in_progress_is_said_with_its_unfinished_games(site: Path) -> None:
    text = text_of(page(site, "rr/index.html"))
    assert "Provisional standings: round 4 in progress" in text
    assert "Round 4 of 9 in progress: 2 games still being played." in text
    assert "Round 4 is in progress: 2 games still being played." in text_of(page(site, "rr/round-4.html"))
    assert "Final." in text_of(page(site, "final/index.html"))
    assert "第4轮（共9轮）进行中：还有2局在进行" in text_of(page(site, "zh/rr/index.html"))


def test_a_round_robins_coming_rounds_have_pages_from_the_berger_table(site: Path, xiangqi: Tournament) -> None:
    schedule = round_robin_schedule(sorted(player.id for player in xiangqi.players))
    names = {player.id: player.name for player in xiangqi.players}
    for number in range(5, 10):
        html = page(site, f"rr/round-{number}.html")
        assert f"Round {number} has not been played yet" in text_of(html)
        rows = rows_of(html, f"Round {number}")
        assert [(row[2], row[7]) for row in rows] == [(f"red {names[w]}", f"black {names[b]}")
                                                      for w, b in schedule[number - 1] if b]
        assert {row[5] for row in rows} == {"–"}
    tabs = re.search(r'<nav class="tabs".*?</nav>', page(site, "rr/round-5.html"), flags=re.S).group(0)
    assert tabs.count('class="coming"') == 5 and 'href="../rr/round-9.html"' in tabs


def test_round_pages_show_starting_number_title_rating_and_points_before_the_round(site: Path) -> None:
    rows = rows_of(page(site, "swiss/round-3.html"), "Round 3")
    first = rows[0]
    # each name with its colour as a word before it (shown on a phone, where the headings are not)
    assert first[:6] == ["1", "1", "white GM Zhang, Wei", "2603", "2", "1-0"]
    assert first[6:] == ["2", "black IM Lindqvist, Erik", "2431", "5"]


def test_the_root_index_says_how_far_each_tournament_is_newest_first(site: Path) -> None:
    text = text_of(page(site, "index.html"))
    items = re.findall(r"<li>(.*?)</li>", page(site, "index.html"), flags=re.S)
    names = [text_of(re.search(r"<a [^>]*>(.*?)</a>", item).group(1)) for item in items]
    assert names[0] == "Spring Cup (not started)" and names[1] == "Atlantic Open 2026"  # by start date
    assert "Xiangqi · not started · Apr 1, 2027" in text
    assert "Xiangqi · round 4 of 9 in progress · Mar 14, 2026 – Mar 22, 2026 · Hà Nội" in text
    assert "Chess · final · May 2, 2026 – May 6, 2026 · Porto" in text
    assert "after round 0" not in text
    empty = text_of(items[0])
    assert "leader" not in empty


# -- titles and withdrawn players ----------------------------------------------------------------------

def test_standings_show_starting_numbers_titles_and_withdrawn_players(site: Path, swiss: Tournament) -> None:
    rows = rows_of(page(site, "swiss/index.html"), "Standings after round 7")
    by_number = {int(row[1]): row for row in rows}
    assert by_number[1][2] == "GM Zhang, Wei"
    assert by_number[24][2] == "Sato, Haruto withdrawn"
    assert [number for number, row in by_number.items() if "withdrawn" in row[2]] == [24]
    player = text_of(page(site, "swiss/players/24.html"))
    assert "withdrawn Withdrew after round 5: not paired from round 6 on." in player
    assert "đã rút lui" in text_of(page(site, "vi/swiss/players/24.html"))
    assert "Sato, Haruto withdrawn" in text_of(page(site, "swiss/crosstable.html"))


# -- printed round sheets and their QR codes -------------------------------------------------------------

def test_rounds_to_play_carry_result_sheets_and_every_round_qr_codes_for_print(site: Path) -> None:
    for path in ("rr/round-4.html", "rr/round-5.html"):  # in progress, to come
        html = page(site, path)
        sheets = re.search(r'<section class="print-only result-sheets".*?</section>', html, flags=re.S).group(0)
        boards = len(rows_of(html, "Round"))
        assert sheets.count('<div class="sheet">') == boards == 5
        assert "Signatures" in sheets and "red wins" in sheets
    assert "result-sheets" not in page(site, "swiss/round-7.html")  # a finished round: the pairing list only
    html = page(site, "swiss/round-7.html")
    codes = re.findall(r'<figure class="qr">.*?</figure>', html, flags=re.S)
    assert len(codes) == 2
    assert f"{BASE}swiss/index.html" in codes[0] and f"https://t.me/{BOT}?start=swiss" in codes[1]
    assert f"{BASE}zh/swiss/index.html" in page(site, "zh/swiss/round-7.html")
    for code in codes:
        assert "<svg" in code and 'role="img"' in code and "href" not in code and "<image" not in code


@pytest.mark.parametrize("text", ["https://t.me/TiebreakResultsBot?start=example-xiangqi-rr",
                                  "https://results.example.org/zh/open/index.html"])
def test_the_qr_path_draws_exactly_segnos_dark_modules(text: str) -> None:
    code = qr_code(text)
    expected = segno.make_qr(text, error="m")
    size = expected.symbol_size(border=QUIET_ZONE)[0]
    assert code["size"] == size and code["text"] == text
    drawn = [[False] * size for _ in range(size)]
    for x, y, width in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", code["path"]):
        for column in range(int(x), int(x) + int(width)):
            drawn[int(y)][column] = True
    assert drawn == [[bool(cell) for cell in row] for row in expected.matrix_iter(border=QUIET_ZONE)]


def test_without_an_absolute_base_url_or_a_bot_there_is_no_qr_code(tmp_path: Path, xiangqi: Tournament) -> None:
    out = tmp_path / "public"
    build_site({"rr": xiangqi}, SiteSettings(out_dir=out))
    assert '<figure class="qr">' not in (out / "rr" / "round-1.html").read_text(encoding="utf-8")


def test_the_date_of_a_header_record_that_is_no_date_is_shown_as_written(tmp_path: Path,
                                                                          xiangqi: Tournament) -> None:
    vague = dataclasses.replace(xiangqi, records=(("022", "Huế"), ("042", "spring 2026")))
    out = tmp_path / "public"
    build_site({"rr": vague}, SiteSettings(out_dir=out))
    assert "Dates spring 2026" in text_of((out / "rr" / "index.html").read_text(encoding="utf-8"))
    assert datetime.date(2026, 3, 14)  # the parsed case is above


def test_results_of_a_three_point_event_with_colour_draws(tmp_path: Path, xiangqi: Tournament) -> None:
    """CXA 13.3: 3/1/0 with the draw worth 1 to red and 2 to black."""
    from ranking import Rules, Scoring

    rules = dataclasses.replace(xiangqi.rules or Rules(), scoring=Scoring(3, 1, 0, draw_first=1, draw_second=2))
    drawn = next(game for game in xiangqi.games if game.result is Result.DRAW)
    out = tmp_path / "public"
    build_site({"rr": dataclasses.replace(xiangqi, rules=rules)}, SiteSettings(out_dir=out))
    rows = rows_of((out / "rr" / f"round-{drawn.round}.html").read_text(encoding="utf-8"), f"Round {drawn.round}")
    assert "1-2" in {row[5] for row in rows} and {row[5] for row in rows} <= {"3-0", "1-2", "0-3", "…"}
