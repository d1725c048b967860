"""The site's team pages and play-off status (site_builder, themes/default).

A team league gets ``<slug>/teams.html`` (team standings with match and game points, every
team tie-break, a legend and the rosters) and round pages that group the boards by team
match under a "北京 4 – 2 上海" heading; a tournament whose rules name play-off places marks
the players who need a play-off, lists each play-off group with its format and games, and,
once decided, shows the decided places.  standings.json stays the CLI's JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import cli
import pytest
from babel.messages.pofile import read_po

from ranking.event.model import Game, Result, Tournament
from ranking.scoring.points import board_points
from ranking.standings.individual import compute_standings, default_rules
from ranking.standings.playoffs import apply_playoffs
from ranking.standings.team import team_event_of, team_standings
from ranking.tiebreaks.team import TEAM_REGISTRY
from site_builder import SITE_CATALOGUE, SiteSettings, build_site
from tiebreak.files import load_tournament

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
LEAGUE_FILE = DATA / "teams" / "xiangqi-league.toml"
PLAYOFF_FILE = DATA / "playoffs" / "tied-for-first.toml"
POT = ROOT / "site_builder" / "locales" / "site.pot"
LEAGUE, PLAYOFF, DECIDED = "team-league", "playoff", "playoff-decided"


def decided_tournament() -> Tournament:
    """The tie for first played off: B beats A with red/white, then a draw (B 1½ - ½)."""
    return replace(load_tournament(PLAYOFF_FILE),
                   playoff_games=(Game(1, 2, 1, Result.WHITE_WINS), Game(2, 1, 2, Result.DRAW)))


@pytest.fixture(scope="module")
def tournaments() -> dict[str, Tournament]:
    return {LEAGUE: load_tournament(LEAGUE_FILE), PLAYOFF: load_tournament(PLAYOFF_FILE),
            DECIDED: decided_tournament()}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, tournaments: dict[str, Tournament]) -> Path:
    out = tmp_path_factory.mktemp("site-teams") / "public"
    build_site(tournaments, SiteSettings(out_dir=out, languages=("en", "zh")))
    return out


class Html(HTMLParser):
    """Links, ids, tables (caption, scoped headers, rows of cell texts) and heading texts."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.tables: list[dict] = []
        self.headings: list[tuple[str, str]] = []  # (tag, text)
        self._tables: list[dict] = []
        self._cell: list[str] | None = None
        self._heading: tuple[str, list[str]] | None = None
        self._caption: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "a" and "href" in values:
            self.links.append(values["href"])
        if tag == "table":
            self._tables.append({"caption": "", "scopes": [], "rows": [], "class": values.get("class", "")})
        elif tag == "caption":
            self._caption = []
        elif tag == "tr" and self._tables:
            self._tables[-1]["rows"].append([])
        elif tag in ("td", "th"):
            self._cell = []
            if tag == "th" and self._tables:
                self._tables[-1]["scopes"].append(values.get("scope"))
        elif tag in ("h2", "h3"):
            self._heading = (tag, [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self._tables:
            self.tables.append(self._tables.pop())
        elif tag == "caption" and self._caption is not None and self._tables:
            self._tables[-1]["caption"] = " ".join("".join(self._caption).split())
            self._caption = None
        elif tag in ("td", "th") and self._cell is not None:
            if self._tables and self._tables[-1]["rows"]:
                self._tables[-1]["rows"][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag in ("h2", "h3") and self._heading is not None:
            self.headings.append((self._heading[0], " ".join("".join(self._heading[1]).split())))
            self._heading = None

    def handle_data(self, data: str) -> None:
        for sink in (self._cell, self._caption, self._heading[1] if self._heading else None):
            if sink is not None:
                sink.append(data)


def page(site: Path, path: str, language: str = "en") -> str:
    return (site / ("" if language == "en" else f"{language}/") / path).read_text(encoding="utf-8")


def number(text: str) -> float:
    return float(text.replace(",", ".").replace("½", ".5") or 0)


def half(value: float) -> str:
    whole, halves = divmod(round(value * 2), 2)
    return (str(whole) if whole or not halves else "") + ("½" if halves else "")


# -- the team standings page --------------------------------------------------------------------

def test_the_team_page_lists_every_team_with_its_match_and_game_points(site: Path,
                                                                       tournaments: dict[str, Tournament]) -> None:
    tournament = tournaments[LEAGUE]
    table = team_standings(team_event_of(tournament))
    html = Html(page(site, f"{LEAGUE}/teams.html"))
    teams = next(t for t in html.tables if "teams" in t["class"])
    assert teams["caption"] == f"Team standings after round {table.after_round}"
    header, *rows = teams["rows"]
    shown = [code for code in table.tiebreaks if code != "GP"]  # the chain's GP is the GP column: shown once
    assert table.tiebreaks[0] == "GP" and header[:4] == ["Place", "Team", "MP", "GP"] and header[4:] == shown
    assert [(int(r[0]), r[1], number(r[2]), number(r[3])) for r in rows] == \
        [(row.rank, row.team.name, row.match_points, row.game_points) for row in table.rows]
    for cells, row in zip(rows, table.rows, strict=True):  # every team tie-break column
        assert [number(cell) for cell in cells[4:]] == [float(row.values[code]) for code in shown]
    assert set(teams["scopes"]) == {"col", "row"}
    # the legend names every code; each roster links to its players' pages
    text = unescape(page(site, f"{LEAGUE}/teams.html"))
    for code in table.tiebreaks:
        assert f"<abbr>{code}</abbr>" in text
    assert TEAM_REGISTRY["EDE"].definition in text
    for team in tournament.teams:
        assert f"team-{team.id}" in html.ids
        roster = re.search(rf'<h3 id="team-{team.id}">(.*?)</ol>', text, re.S)
        assert roster is not None and team.name in roster.group(1)
        assert re.findall(r'players/(\d+)\.html', roster.group(1)) == [str(p) for p in team.roster]


def test_the_tabs_link_the_team_page_and_every_link_resolves(site: Path) -> None:
    for language in ("en", "zh"):
        folder = site / ("" if language == "en" else language) / LEAGUE
        pages = sorted(folder.glob("*.html")) + sorted((folder / "players").glob("*.html"))
        for path in pages:
            html = Html(path.read_text(encoding="utf-8"))
            if path.parent == folder:  # the tournament's pages have the tabs
                assert any(link.endswith(f"{LEAGUE}/teams.html") for link in html.links), path
            for link in html.links:
                target, _, fragment = unquote(link).partition("#")
                resolved = (path.parent / target).resolve() if target else path
                assert resolved.is_file(), (path, link)
                if fragment:
                    assert fragment in Html(resolved.read_text(encoding="utf-8")).ids, (path, link)
    for slug in (PLAYOFF, DECIDED):  # no teams: no team page, no tab
        assert not (site / slug / "teams.html").exists()
        assert "teams.html" not in page(site, f"{slug}/index.html")


# -- the round pages: boards grouped by match ---------------------------------------------------

def test_the_round_pages_group_the_boards_under_their_match_and_its_score(site: Path,
                                                                          tournaments: dict[str, Tournament]) -> None:
    tournament = tournaments[LEAGUE]
    event = team_event_of(tournament)
    names = {player.id: player.name for player in tournament.players}
    team_names = {team.id: team.name for team in tournament.teams}
    rounds = sorted({match.round for match in event.matches})
    assert rounds == [1, 2, 3]
    for number_ in rounds:
        text = page(site, f"{LEAGUE}/round-{number_}.html")
        sections = re.findall(r'<section class="match".*?</section>', text, re.S)
        matches = [match for match in event.matches if match.round == number_]
        assert len(sections) == len(matches) == 2
        for match in matches:
            first_roster = set(event.team(match.first).roster)
            own = other = 0.0
            for game in match.boards:
                white, black = board_points(event.scoring.game, game.result)
                mine, theirs = (white, black) if game.white in first_roster else (black, white)
                own, other = own + mine, other + theirs
            heading = f"{team_names[match.first]} {half(own)} – {half(other)} {team_names[match.second]}"
            section = next(s for s in sections if Html(s).headings[0][1] == heading)
            html = Html(section)
            (table,) = html.tables
            assert table["caption"] and set(table["scopes"]) == {"col", "row"}
            boards = table["rows"][1:]
            assert [(int(row[0]), row[2], row[7]) for row in boards] == \
                [(game.board, f"red {names[game.white]}", f"black {names[game.black]}") for game in match.boards]
        assert 'class="scroll"' in text


def test_the_example_match_score_reads_like_a_team_result(site: Path) -> None:
    assert "北京</a>" in page(site, f"{LEAGUE}/round-1.html")
    assert '<span class="match-score">4 – 2</span>' in page(site, f"{LEAGUE}/round-1.html")
    assert half(2.5) == "2½" and half(1.5) == "1½" and half(0.5) == "½" and half(3) == "3"


# -- play-offs -----------------------------------------------------------------------------------

def standings_rows(text: str) -> list[list[str]]:
    """Place, name, points, ... of each row (the starting number column left out)."""
    table = next(t for t in Html(text).tables if t["caption"].startswith("Standings after"))
    return [row[:1] + row[2:] for row in table["rows"][1:]]


def test_players_who_need_a_play_off_are_marked_and_the_pending_games_listed(site: Path) -> None:
    text = page(site, f"{PLAYOFF}/index.html")
    rows = {row[1]: row[0] for row in standings_rows(text)}
    assert rows["A"] == rows["B"] == "1 play-off required"
    assert rows["C"] == "3" and rows["D"] == "4"
    html = Html(text)
    assert ("h2", "Play-offs") in html.headings
    assert ("h3", "Places 1–2: play-off required") in html.headings
    assert "Format: a two-game match." in unescape(text)
    games = next(t for t in html.tables if "playoff-games" in t["class"])
    assert games["caption"] == "Play-off games for places 1–2"
    assert [row[1:] for row in games["rows"][1:]] == [["1", "B", "to play", "A"], ["2", "A", "to play", "B"]]
    assert "2 play-off games still to play." in text


def test_a_decided_play_off_shows_the_decided_places(site: Path, tournaments: dict[str, Tournament]) -> None:
    tournament = tournaments[DECIDED]
    rules = default_rules(tournament)
    expected = apply_playoffs(compute_standings(tournament, rules), rules.playoff, tournament.playoff_games)
    assert expected.groups[0].decided
    text = page(site, f"{DECIDED}/index.html")
    rows = standings_rows(text)
    assert [(row[0], row[1]) for row in rows[:2]] == [("1 decided by play-off", "B"), ("2 decided by play-off", "A")]
    assert [row.player.name for row in expected.rows] == [row[1] for row in rows]
    assert "play-off required" not in text
    order = re.search(r'<ol class="playoff-order" start="1">(.*?)</ol>', text, re.S)
    assert order is not None and re.findall(r">([AB])</a>", order.group(1)) == ["B", "A"]
    player = page(site, f"{DECIDED}/players/1.html")
    assert "Place 2 with 2.5 points" in player


@pytest.mark.parametrize("slug", [PLAYOFF, LEAGUE])
def test_standings_json_is_the_clis_json(site: Path, slug: str) -> None:
    path = PLAYOFF_FILE if slug == PLAYOFF else LEAGUE_FILE
    completed = cli.tiebreak("standings", path, "--json", cwd=ROOT)
    assert completed.returncode == 0, completed.stderr
    assert json.loads((site / slug / "standings.json").read_text(encoding="utf-8")) == json.loads(completed.stdout)
    assert (site / slug / "standings.json").read_text(encoding="utf-8") == completed.stdout


# -- languages ------------------------------------------------------------------------------------

def test_the_chinese_pages_use_chinese_words_for_the_new_labels(site: Path) -> None:
    teams = page(site, f"{LEAGUE}/teams.html", "zh")
    for words in ("团体排名", "场分", "局分", "队员名单", "团体破同分规则", "扩展直胜", "第3轮后团体排名"):
        assert words in teams, words
    assert "Team standings" not in teams and "Rosters" not in teams
    assert ">场分</abbr></th>" in teams and ">MP</abbr></th>" not in teams  # the heading in Chinese,
    assert "<abbr>MP</abbr> 场分" in teams  # the code beside it in the legend
    assert "各台：北京 – Sài Gòn" in page(site, f"{LEAGUE}/round-1.html", "zh")
    assert "团体排名" in page(site, f"{LEAGUE}/round-1.html", "zh")
    playoff = page(site, f"{PLAYOFF}/index.html", "zh")
    for words in ("需加赛", "加赛", "两局制对抗", "待赛"):
        assert words in playoff, words
    assert "play-off required" not in playoff and "to play" not in playoff
    assert "加赛决定" in page(site, f"{DECIDED}/index.html", "zh")


def test_every_team_tiebreak_name_and_definition_is_a_site_message() -> None:
    """teams.html lists the registry's texts for pybabel; they must stay the registry's."""
    with POT.open("rb") as source:
        messages = {message.id for message in read_po(source) if message.id}
    chinese = SITE_CATALOGUE.translations("zh")
    for entry in TEAM_REGISTRY.values():
        for message in (entry.name, entry.definition):
            assert message in messages, (entry.code, message)
            assert chinese.gettext(message) != message, (entry.code, message)
