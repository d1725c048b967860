"""The site of xiangqi and Vietnamese events in their own words (issue 22), rendered in Chinese
and Vietnamese: a CXA team round robin (CXA 14.5), VN two-game matches (VN 21.2), a VN round
robin with withdrawals (VN 21.5.1), colour-dependent scoring (CXA 13.3) with a free round, and
an individual event's team classification (CXA 14.8).

What the pages must say: column headings in the page's language with the code in the legend;
the rules named by their own article, never "FIDE C.07" for a CXA or VN chain; match points
where they are the score; the free round of a round robin; red and black; the venue as a venue;
GP once on the team page; crosstables whose cells add up to the totals.  The values are the
ones worked by hand in ``tests/test_xiangqi_events.py``.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from site_builder import SiteSettings, build_site
from tiebreak.files import load_tournament

DATA = Path(__file__).parent / "data" / "xiangqi"
FILES = ("cxa-team-rr", "vn-match", "vn-rr-withdrawals", "three-point-colour", "provinces")


class Tables(HTMLParser):
    """Every table of a page: rows of cells, each (text, class, title)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[tuple[str, str, str]]]] = []
        self._cell: list[str] | None = None
        self._attrs: dict[str, str] = {}
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell, self._attrs = [], {name: value or "" for name, value in attrs}

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append((" ".join("".join(self._cell).split()), self._attrs.get("class", ""),
                                        self._attrs.get("title", "")))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site-xiangqi") / "public"
    report = build_site({name: load_tournament(DATA / f"{name}.toml") for name in FILES},
                        SiteSettings(out_dir=out, languages=("en", "zh", "vi", "es")))
    assert report.skipped == {}
    return out


def page(site: Path, language: str, path: str) -> str:
    return (site / ("" if language == "en" else language) / path).read_text(encoding="utf-8")


def table(html: str, index: int = 0) -> list[list[str]]:
    return [[text for text, _, _ in row] for row in Tables(html).tables[index]]


# -- a CXA team round robin ----------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "headings"), [
    ("zh", ["名次", "队名", "场分", "局分", "队胜局", "直胜", "队犯规", "后手胜局", "后手局数"]),
    ("vi", ["Hạng", "Đội", "Điểm trận", "Điểm ván", "Ván thắng của đội", "Đối đầu", "Phạm quy của đội",
            "Thắng cầm đen", "Số ván cầm đen"]),
])
def test_the_team_round_robin_in_its_own_words(site: Path, language: str, headings: list[str]) -> None:
    html = page(site, language, "cxa-team-rr/teams.html")
    header, *rows = table(html)
    assert header == headings  # GP once: the chain's first code is the GP column itself
    # MP, GP, WIN:T, DE, FOUL:T, BWG:T, BPG:T worked by hand (test_xiangqi_events.py)
    assert [row[2:] for row in rows] == [["4", "7", "2", "0", "0", "1", "3"], ["4", "7", "1", "0", "2", "0", "3"],
                                         ["2", "5", "1", "1", "0", "1", "3"], ["2", "5", "1", "2", "1", "0", "3"]]
    for code in ("MP", "GP", "WIN:T", "DE", "FOUL:T", "BWG:T", "BPG:T"):  # the codes in the legend
        assert f"<abbr>{code}</abbr>" in html, code
    assert "Team game wins" not in html and "FIDE C.07 (" not in html


@pytest.mark.parametrize(("language", "words", "venue"), [
    ("zh", ["积分", "小分", "胜局", "直胜", "犯规", "后走局数", "对局后走"], "地点"),
    ("vi", ["Điểm", "Hệ số", "Số ván thắng", "Đối đầu", "Phạm quy", "Số ván cầm đen", "Đi sau khi đối đầu"],
     "Địa điểm"),
])
def test_the_players_standings_head_their_columns_in_the_pages_language(site: Path, language: str,
                                                                      words: list[str], venue: str) -> None:
    html = page(site, language, "cxa-team-rr/index.html")
    header = table(html)[0]
    assert header[3:10] == words  # points, then the cxa-rr chain (CXA 14.1)
    assert f"<dt>{venue}</dt><dd>成都</dd>" in html  # the venue, not a place in the standings
    assert "CXA 14.1" in html and "FIDE C.07 (" not in html  # the rules by their own article
    for code in ("SB", "WIN", "DE", "FOUL", "BPG", "DEB"):
        assert f"<dt><abbr>{code}</abbr>" in html


def test_red_and_black_in_every_language(site: Path) -> None:
    for language, red, black in (("zh", "红方", "黑方"), ("vi", "Đỏ", "Đen"), ("es", "Rojas", "Negras"),
                                 ("en", "Red", "Black")):
        header = table(page(site, language, "cxa-team-rr/round-1.html"))[0]
        assert red in header and black in header, (language, header)
        assert not {"White", "白方", "Trắng", "Blancas"} & set(header)


# -- VN two-game matches ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "score", "sentence", "venue"), [
    ("zh", "场分", "场分：胜1，和0.5，负0，先按场分排名，再按局分：每局胜2，和1，负0。", "地点"),
    ("vi", "Điểm trận", "Điểm trận: thắng 1, hòa 0,5, thua 0; xếp hạng theo điểm trận trước, rồi điểm ván: "
                        "mỗi ván thắng 2, hòa 1, thua 0.", "Địa điểm"),
])
def test_two_game_matches_are_scored_in_match_points(site: Path, language: str, score: str, sentence: str,
                                                     venue: str) -> None:
    html = page(site, language, "vn-match/index.html")
    header, *rows = table(html)
    assert header[3:5] == [score, {"zh": "局分", "vi": "Điểm ván"}[language]]
    # match points then game points, worked by hand (test_xiangqi_events.py)
    decimal = "," if language == "vi" else "."
    assert [(row[1], row[3], row[4]) for row in rows] == [("1", f"1{decimal}5", "5"), ("2", "1", "5"), ("3", "1", "4"),
                                                          ("4", f"0{decimal}5", "2")]
    assert sentence in html
    assert "VN 21.2" in html and "FIDE C.07 (" not in html
    assert f"<dt>{venue}</dt><dd>Thành phố Hồ Chí Minh</dd>" in html
    assert "vn-match.toml" in html and "vn-match.trf" not in html  # TRF cannot hold a match: the TOML file
    player = page(site, language, "vn-match/players/1.html")
    assert {"zh": "第1名，场分1.5", "vi": "Hạng 1 với 1,5 điểm trận"}[language] in player
    cross = table(page(site, language, "vn-match/crosstable.html"))
    assert cross[0][2] == score  # #, name, points (on a phone's screen), then the rounds
    letter = {"zh": "红", "vi": "đỏ"}[language]  # red's mark in the wall chart
    assert cross[1][3:5] == [f"2{letter}2 1", f"3{letter}0 2"]  # both games of each match: 2+1 and 0+2


def test_the_two_game_matches_toml_download_is_the_file(site: Path) -> None:
    from ranking import parse_tournament_toml

    text = (site / "vn-match" / "vn-match.toml").read_text(encoding="utf-8")
    assert parse_tournament_toml(text) == load_tournament(DATA / "vn-match.toml")


# -- a VN round robin with withdrawals: the crosstable adds up -------------------------------------------


@pytest.mark.parametrize("language", ["zh", "vi"])
def test_the_crosstable_adds_up_with_annulled_games_and_vn_forfeits(site: Path, language: str) -> None:
    html = page(site, language, "vn-rr-withdrawals/crosstable.html")
    rows = Tables(html).tables[0][1:]
    # standings order: 2, 1, 3, 4, 6, 5 (test_xiangqi_events.py); columns in the same order, after
    # #, name and points (kept on a phone's screen)
    annulled = rows[5]  # player 5, last: every game annulled
    assert [cell[0] for cell in annulled[3:9]] == ["X", "X", "X", "X", "X", ""]
    assert all("annulled" in cell[1] for cell in annulled[3:8])
    assert annulled[2][0] == "0"
    column = [row[3 + 5][0] for row in rows[:5]]  # everyone's cell against player 5
    assert column == ["X"] * 5
    third = rows[2]  # player 3: ½ (2), ½ (1), self, 0 (4), X = forfeit won against 6, X = annulled (5)
    assert [cell[0] for cell in third[3:9]] == ["½", "½", "", "0", "X", "X"]
    assert "withdrawal" in third[7][1] and "annulled" in third[8][1]
    assert rows[4][3 + 2][0] == "0" and "withdrawal" in rows[4][5][1]  # player 6 against 3: 0
    # the cells add up: a played game its points, X won by forfeit 1, annulled X nothing
    for row in rows:
        total = 0.0
        for text, kind, _ in row[3:9]:
            if kind.endswith("annulled") or not text:
                continue
            total += 1.0 if text == "X" else float(text.replace("½", "0.5") or 0)
        assert total == float(row[2][0].replace(",", ".")), row
    legend = page(site, language, "vn-rr-withdrawals/crosstable.html")
    assert {"zh": "已取消", "vi": "bị hủy"}[language] in legend


# -- colour-dependent scoring, the free round ------------------------------------------------------------


@pytest.mark.parametrize(("language", "free", "sentence"), [
    ("zh", "轮空", "积分：胜 3，和棋执红方得 1、执黑方得 2，负 0。"),
    ("vi", "Miễn đấu", "Điểm: thắng 3, hòa 1 khi cầm đỏ và 2 khi cầm đen, thua 0."),
    ("es", "Ronda libre", "Puntos: victoria 3, tablas 1 con rojas y 2 con negras, derrota 0."),
])
def test_a_round_robins_free_round_is_a_free_round(site: Path, language: str, free: str, sentence: str) -> None:
    assert f"{free}: <a" in page(site, language, "three-point-colour/round-1.html")
    player = page(site, language, "three-point-colour/players/3.html")
    assert free.lower() in player.lower()
    assert not any(word in player for word in ("零分轮空", "miễn đấu không điểm", "descanso sin puntos", "ZPB"))
    assert sentence in page(site, language, "three-point-colour/index.html")


# -- an individual event with a team classification ------------------------------------------------------


@pytest.mark.parametrize("language", ["zh", "vi"])
def test_a_team_classification_shows_places_only(site: Path, language: str) -> None:
    header, *rows = table(page(site, language, "provinces/teams.html"))
    assert header[2:] == [{"zh": "队员名次和", "vi": "Tổng thứ hạng"}[language]]  # no MP, no GP
    assert [(row[1], row[2]) for row in rows] == [("北京", "6"), ("广东", "8"), ("上海", "9"), ("黑龙江", "13")]
