"""The static site (site_builder/, themes/default): the bundled examples built in all four
languages, in process and by ``python -m site_builder build``.

Every page exists in every language and nothing else is written; the downloads are the CLI's
JSON, a CSV and the TRF; every link resolves to a file of the site and no page references an
external URL; names are text, never markup; colour words follow the game; tables have
captions and scoped headers; a build is incremental (unchanged pages keep their file, inode
and mtime) and atomic (a build that fails leaves the previous site exactly as it was).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import multiprocessing
import os
import re
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import cli
import jinja2
import pytest

from ranking.event.model import Result, Tournament
from site_builder import SITE_CATALOGUE, BuildReport, SiteSettings, build_site, workers
from site_builder.build import BuildError
from tiebreak.files import load_tournament
from tiebreak.library import slug_for

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "ranking" / "examples"
DATA = Path(__file__).resolve().parent / "data" / "site"
EXAMPLE_FILES = (EXAMPLES / "xiangqi-rr.toml", EXAMPLES / "chess-swiss.trf")
HOSTILE_FILE = DATA / "hostile-names.toml"
LANGUAGES = ("en", "zh", "vi", "es")
HTML_LANG = {"en": "en", "zh": "zh-Hans", "vi": "vi", "es": "es"}
SCRIPT_NAME = "<script>alert(1)</script>"
XIANGQI, SWISS, HOSTILE = "example-xiangqi-rr", "chess-swiss", "hostile-names"
URL_ATTRIBUTES = {"href", "src", "srcset", "action", "formaction", "poster", "data", "cite", "background",
                  "xlink:href", "ping", "manifest", "longdesc", "usemap", "icon"}
SCHEME_OR_HOST = re.compile(r"^\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//|\\\\)")
CSS_EXTERNAL = re.compile(r"""url\(\s*['"]?\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)|@import""", re.IGNORECASE)


# -- helpers ---------------------------------------------------------------------------------

def load(files: Iterable[Path]) -> dict[str, Tournament]:
    """slug -> tournament, the slug chosen as ``tiebreak import`` and the site command choose it."""
    tournaments = {}
    for path in files:
        tournament = load_tournament(path)
        tournaments[slug_for(tournament, str(path), None)] = tournament
    return tournaments


def settings(out: Path) -> SiteSettings:
    return SiteSettings(out_dir=out, languages=LANGUAGES)


def prefix(language: str) -> str:
    """The folder of a language: the first (default) one is the site root."""
    return "" if language == LANGUAGES[0] else f"{language}/"


def paired_rounds(tournament: Tournament) -> list[int]:
    return sorted({game.round for game in tournament.games})


def expected_pages(tournaments: dict[str, Tournament]) -> set[str]:
    pages = set()
    for language in LANGUAGES:
        folder = prefix(language)
        pages.add(folder + "index.html")
        for slug, tournament in tournaments.items():
            base = f"{folder}{slug}/"
            pages |= {base + "index.html", base + "crosstable.html", base + "players.html"}
            pages |= {f"{base}round-{number}.html" for number in paired_rounds(tournament)}
            pages |= {f"{base}players/{player.id}.html" for player in tournament.players}
    return pages


def expected_downloads(tournaments: dict[str, Tournament]) -> set[str]:
    return {f"{slug}/{name}" for slug in tournaments for name in ("standings.json", "standings.csv", f"{slug}.trf")}


def site_files(root: Path) -> dict[str, Path]:
    """Every file of the site (relative path -> path), but the build's own records at its root
    (``.manifest.json`` and other dot files, which the publishers leave out)."""
    files = {}
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            relative = path.relative_to(root).as_posix()
            if not relative.startswith("."):
                files[relative] = path
    return files


def snapshot(root: Path) -> dict[str, tuple[int, int, bytes]]:
    """relative path -> (inode, mtime in ns, content)."""
    result = {}
    for relative, path in site_files(root).items():
        status = path.stat()
        result[relative] = (status.st_ino, status.st_mtime_ns, path.read_bytes())
    return result


def cli_json(path: Path) -> dict:
    completed = cli.tiebreak("standings", path, "--json")
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def replace_result(tournament: Tournament, round_number: int, board: int, result: Result) -> Tournament:
    games = tuple(dataclasses.replace(game, result=result) if (game.round, game.board) == (round_number, board)
                  else game for game in tournament.games)
    assert games != tournament.games
    return dataclasses.replace(tournament, games=games)


class Page(HTMLParser):
    """What the tests look at in one HTML file."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.attributes: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.html_lang: str | None = None
        self.tables: list[dict] = []
        self.open_tables: list[dict] = []
        self.scripts: list[dict[str, str | None]] = []
        self.styles: list[str] = []
        self.tags: list[str] = []
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.cells: list[str] = []  # the text of each <td> and <th>
        self._cell: list[str] | None = None
        self._in: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        self.tags.append(tag)
        self.elements.append((tag, values))
        for name, value in values.items():
            self.attributes.append((tag, name, value))
            if name == "style":
                self.styles.append(value)
        if tag == "html":
            self.html_lang = values.get("lang")
        elif tag == "table":
            self.open_tables.append({"caption": False, "headers": []})
        elif tag == "caption" and self.open_tables:
            self.open_tables[-1]["caption"] = True
        elif tag == "th" and self.open_tables:
            self.open_tables[-1]["headers"].append(values.get("scope"))
        if tag in ("td", "th"):
            self._cell = []
        elif tag == "script":
            self.scripts.append(dict(attrs))
        if tag in ("script", "style"):
            self._in.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self._in.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.open_tables:
            self.tables.append(self.open_tables.pop())
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell).strip())
            self._cell = None
        if tag in ("script", "style") and self._in and self._in[-1] == tag:
            self._in.pop()

    def handle_data(self, data: str) -> None:
        if self._in and self._in[-1] == "style":
            self.styles.append(data)
        elif self._in and self._in[-1] == "script":
            if data.strip():
                self.scripts[-1]["inline"] = data
        else:
            self.text.append(data)
            if self._cell is not None:
                self._cell.append(data)

    @property
    def all_text(self) -> str:
        return "".join(self.text)


def parse(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))


class Site:
    def __init__(self, root: Path, tournaments: dict[str, Tournament], report: BuildReport) -> None:
        self.root = root
        self.tournaments = tournaments
        self.report = report
        self.files = site_files(root)
        self.html = {relative: path for relative, path in self.files.items() if relative.endswith(".html")}
        self._parsed: dict[str, Page] = {}

    def page(self, relative: str) -> Page:
        if relative not in self._parsed:
            self._parsed[relative] = parse(self.files[relative])
        return self._parsed[relative]

    def text(self, relative: str) -> str:
        return self.files[relative].read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The two bundled examples and a tournament of hostile names, in all four languages."""
    tournaments = load([*EXAMPLE_FILES, HOSTILE_FILE])
    assert set(tournaments) == {XIANGQI, SWISS, HOSTILE}
    out = tmp_path_factory.mktemp("site") / "public"
    report = build_site(tournaments, settings(out))
    return Site(out, tournaments, report)


# -- the pages -------------------------------------------------------------------------------

def test_every_page_exists_in_every_language_and_nothing_else(site: Site) -> None:
    pages = expected_pages(site.tournaments)
    assert len(pages) == len(LANGUAGES) * (1 + sum(3 + len(paired_rounds(t)) + len(t.players)
                                                   for t in site.tournaments.values()))
    static = {relative for relative in site.files if relative.startswith("static/")}
    assert {"static/style.css", "static/tables.js"} <= static
    assert set(site.files) - static == pages | expected_downloads(site.tournaments)
    assert site.report.pages == len(pages) + len(expected_downloads(site.tournaments))
    assert site.report.rendered == site.report.pages and site.report.reused == 0


def test_the_root_index_lists_every_tournament_in_every_language(site: Site) -> None:
    for language in LANGUAGES:
        page = site.page(prefix(language) + "index.html")
        hrefs = {value for tag, name, value in page.attributes if tag == "a" and name == "href"}
        for slug, tournament in site.tournaments.items():
            assert f"{slug}/index.html" in hrefs
            assert tournament.name in page.all_text


@pytest.mark.parametrize("slug", [XIANGQI, SWISS, HOSTILE])
def test_standings_json_is_the_clis_json(site: Site, slug: str) -> None:
    source = {XIANGQI: EXAMPLE_FILES[0], SWISS: EXAMPLE_FILES[1], HOSTILE: HOSTILE_FILE}[slug]
    assert json.loads(site.text(f"{slug}/standings.json")) == cli_json(source)


@pytest.mark.parametrize("slug", [XIANGQI, SWISS, HOSTILE])
def test_standings_csv_has_one_row_per_player_with_the_jsons_ranks_and_points(site: Site, slug: str) -> None:
    standings = json.loads(site.text(f"{slug}/standings.json"))
    raw = site.files[f"{slug}/standings.csv"].read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM: spreadsheet programs then read it as UTF-8
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert len(rows) == len(site.tournaments[slug].players) == len(standings["standings"])
    for row, entry in zip(rows, standings["standings"], strict=True):
        assert (int(row["rank"]), int(row["id"]), row["name"]) == (entry["rank"], entry["id"], entry["name"])
        assert float(row["points"]) == entry["points"]
        for code in standings["tiebreaks"]:
            assert float(row[code]) == pytest.approx(entry["tiebreaks"][code])


@pytest.mark.parametrize("slug", [XIANGQI, SWISS, HOSTILE])
def test_the_trf_download_reads_back_as_the_same_players_and_games(site: Site, slug: str) -> None:
    again = load_tournament(site.files[f"{slug}/{slug}.trf"])
    tournament = site.tournaments[slug]
    assert [p.id for p in again.players] == [p.id for p in tournament.players]
    for read, player in zip(again.players, tournament.players, strict=True):
        assert read.name == player.name[:33].rstrip()  # TRF's name field has 33 characters
    assert sorted((g.round, g.white, g.black, g.result) for g in again.games) == \
        sorted((g.round, g.white, g.black, g.result) for g in tournament.games)


def test_every_link_resolves_to_a_file_inside_the_site(site: Site) -> None:
    root = site.root.resolve()
    checked = 0
    for relative, path in site.html.items():
        for tag, name, value in site.page(relative).attributes:
            if name not in ("href", "src"):
                continue
            target = value.split("#", 1)[0]
            if not target:
                continue  # a fragment of the same page
            assert not SCHEME_OR_HOST.match(target) and "?" not in target, (relative, tag, value)
            resolved = (path.parent / unquote(target)).resolve()
            assert resolved.is_relative_to(root) and resolved.is_file(), (relative, tag, value)
            checked += 1
    assert checked > 20 * len(site.html)


def test_no_page_references_an_external_url(site: Site) -> None:
    for relative in site.html:
        page = site.page(relative)
        for tag, name, value in page.attributes:
            if name in URL_ATTRIBUTES or name.startswith("on"):
                assert not SCHEME_OR_HOST.match(value), (relative, tag, name, value)
            assert "://" not in value or name.startswith("xmlns"), (relative, tag, name, value)
        for style in page.styles:
            assert not CSS_EXTERNAL.search(style), (relative, style)
        for script in page.scripts:  # only the theme's own script, from the site
            assert script.get("src") and "inline" not in script, (relative, script)
    for relative, path in site.files.items():
        if relative.endswith(".css"):
            assert not CSS_EXTERNAL.search(path.read_text(encoding="utf-8")), relative
        if relative.endswith(".js"):
            assert not re.search(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}", path.read_text(encoding="utf-8")), relative


def test_a_name_that_is_markup_appears_as_text(site: Site) -> None:
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    for relative, path in site.html.items():
        html = path.read_text(encoding="utf-8")
        assert "<script>alert" not in html and "<img src=x" not in html and "<b>bold" not in html, relative
        page = site.page(relative)
        assert not any(name.startswith("on") for _tag, name, _value in page.attributes), relative
        assert all(script.get("src") for script in page.scripts), relative
        if relative.split("/")[-1] == "index.html" or f"{HOSTILE}/" in relative:
            assert not {"img", "i", "b"} & set(page.tags), relative
    tournament = site.tournaments[HOSTILE]
    for language in LANGUAGES:
        base = f"{prefix(language)}{HOSTILE}/"
        pages = [base + "index.html", base + "crosstable.html", base + "players.html", base + "players/1.html",
                 base + "players/2.html",
                 *(f"{base}round-{n}.html" for n in paired_rounds(tournament))]
        for relative in pages:
            assert escaped in site.text(relative), relative
            assert SCRIPT_NAME in site.page(relative).all_text, relative
        index = prefix(language) + "index.html"  # the leader, through a translated message
        assert escaped in site.text(index)
        for relative in (index, base + "index.html"):
            assert tournament.name in site.page(relative).all_text, relative
        player = site.page(base + "players/1.html")
        assert player.all_text.count(SCRIPT_NAME) >= 2  # <title> and <h1>


def test_every_page_is_byte_for_byte_what_stock_jinja2_renders(site: Site, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The site's code generator escapes ``{{ value }}`` without a ``Markup`` per value
    (``site_builder.environment.output_escape``): the same site built with Jinja2's own
    escaping is the same, file for file, the hostile names included."""
    from jinja2.compiler import CodeGenerator

    from site_builder import environment

    def built(out: Path) -> Path:  # a new environment, so the build writes its compiled templates beside it
        monkeypatch.setattr(environment, "_ENVIRONMENTS", {})  # (the process keeps one per theme and language)
        build_site(site.tournaments, settings(out))
        return out

    ours = built(tmp_path / "ours" / "public")
    monkeypatch.setattr(environment._SiteCodeGenerator, "_output_child_pre", CodeGenerator._output_child_pre)
    stock = built(tmp_path / "public")
    files = site_files(stock.resolve())
    assert files.keys() == site.files.keys()
    assert [name for name, path in files.items() if path.read_bytes() != site.files[name].read_bytes()] == []

    def compiled(out: Path) -> list[bytes]:  # the templates' code as the build compiled it
        return [path.read_bytes() for path in (out.parent / ".public.templates").glob("*.cache")]  # not the words
    assert compiled(stock) and compiled(ours)
    assert not any(b"output_escape" in code for code in compiled(stock))  # Jinja2's own escape this time
    assert all(b"output_escape" in code for code in compiled(ours))


@pytest.mark.parametrize("language", LANGUAGES)
def test_xiangqi_pages_say_red_and_black_and_chess_pages_white_and_black(site: Site, language: str) -> None:
    words = SITE_CATALOGUE.translations(language)
    red, white, black = (words.gettext(word) for word in ("red", "white", "black"))
    assert len({red, white, black}) == 3
    for slug, first, other in ((XIANGQI, red, white), (SWISS, white, red), (HOSTILE, white, red)):
        base = f"{prefix(language)}{slug}/"
        for number in paired_rounds(site.tournaments[slug]):
            cells = set(site.page(f"{base}round-{number}.html").cells)
            assert {first.capitalize(), black.capitalize()} <= cells, (base, number)
            assert other.capitalize() not in cells, (base, number)
        for player in site.tournaments[slug].players:
            words = {word for cell in site.page(f"{base}players/{player.id}.html").cells
                     for word in re.split(r"\s*·\s*|\s+", cell)}
            assert words & {first, black}, (base, player.id)  # each game's colour, beside the opponent
            assert not words & {other, other.capitalize()}, (base, player.id)


def test_every_table_has_a_caption_and_scoped_headers(site: Site) -> None:
    tables = 0
    for relative in site.html:
        for table in site.page(relative).tables:
            assert table["caption"], relative
            assert table["headers"] and all(scope in ("col", "row", "colgroup", "rowgroup")
                                            for scope in table["headers"]), relative
            tables += 1
    assert tables >= len(site.html) - len(LANGUAGES)  # every page but the root index has a table


def test_html_lang_is_the_pages_language(site: Site) -> None:
    for relative in site.html:
        folder = relative.split("/", 1)[0]
        language = folder if folder in LANGUAGES[1:] else LANGUAGES[0]
        assert site.page(relative).html_lang == HTML_LANG[language], relative


def test_the_language_switcher_leads_to_the_same_page_in_every_language(site: Site) -> None:
    root = site.root.resolve()
    for relative, path in site.html.items():
        folder = relative.split("/", 1)[0]
        here = relative.split("/", 1)[1] if folder in LANGUAGES[1:] else relative
        targets = {hreflang: (path.parent / href).resolve().relative_to(root).as_posix()
                   for hreflang, href in _anchors_with_hreflang(site.page(relative))}
        assert targets == {HTML_LANG[language]: prefix(language) + here for language in LANGUAGES
                           if prefix(language) + here != relative}, relative


def _anchors_with_hreflang(page: Page) -> list[tuple[str, str]]:
    """(hreflang, href) of each ``<a href hreflang>``."""
    return [(attributes["hreflang"], attributes["href"]) for tag, attributes in page.elements
            if tag == "a" and "hreflang" in attributes and "href" in attributes]


@pytest.mark.parametrize("slug", [XIANGQI, SWISS])
def test_each_player_page_draws_a_rank_chart_as_inline_svg(site: Site, slug: str) -> None:
    standings = json.loads(site.text(f"{slug}/standings.json"))
    for language in LANGUAGES:
        for player in site.tournaments[slug].players:
            page = site.page(f"{prefix(language)}{slug}/players/{player.id}.html")
            assert page.tags.count("svg") == 1, player.id
            assert page.tags.count("circle") == standings["after_round"], player.id
            assert "polyline" in page.tags and "img" not in page.tags and "object" not in page.tags


# -- the build command -----------------------------------------------------------------------

def test_the_build_command_builds_the_configured_tournaments(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("\n".join([
        "[storage]", 'path = "store.sqlite3"',
        "[site]", 'out_dir = "unused"', 'base_url = "https://results.example.org/"', 'theme = "default"',
        'languages = ["en", "zh", "vi", "es"]',
        *(f"[[tournaments]]\nfile = {json.dumps(str(path))}" for path in EXAMPLE_FILES), ""]), encoding="utf-8")
    out = tmp_path / "out" / "site"
    command = ("build", "--config", config, "--out", out)
    completed = cli.site_builder(*command, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith("built ") and str(out) in completed.stdout
    tournaments = load(EXAMPLE_FILES)
    files = site_files(out)
    static = {relative for relative in files if relative.startswith("static/")}
    assert set(files) - static == expected_pages(tournaments) | expected_downloads(tournaments)
    assert not (tmp_path / "unused").exists()
    first = snapshot(out)
    for slug, path in zip(tournaments, EXAMPLE_FILES, strict=True):
        assert json.loads(files[f"{slug}/standings.json"].read_text(encoding="utf-8")) == cli_json(path)
    for relative, path in files.items():  # the page texts hold no URL of the configuration either,
        if relative.endswith(".html"):  # but in the QR codes of the printed round sheets
            text = re.sub(r'<figure class="qr">.*?</figure>', "", path.read_text(encoding="utf-8"), flags=re.S)
            assert "example.org" not in text, relative

    again = cli.site_builder(*command, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "(0 written," in again.stdout
    assert snapshot(out) == first


# -- incremental -----------------------------------------------------------------------------

@pytest.fixture
def examples() -> dict[str, Tournament]:
    return load(EXAMPLE_FILES)


def test_a_second_build_with_nothing_changed_rewrites_nothing(tmp_path: Path, examples) -> None:
    out = tmp_path / "public"
    first = build_site(examples, settings(out))
    before = snapshot(out)
    second = build_site(examples, settings(out))
    assert second.rendered == 0 and second.files == []
    assert second.reused == second.pages == first.pages
    assert snapshot(out) == before  # same inode, same mtime, same bytes for every file


def test_changing_one_result_rewrites_only_the_pages_that_show_it(tmp_path: Path, examples) -> None:
    out = tmp_path / "public"
    build_site(examples, settings(out))
    before = snapshot(out)
    # Swiss round 7, board 11: 20 - 23 was a draw; now white wins.  Both players are far down.
    game = next(g for g in examples[SWISS].games if (g.round, g.board) == (7, 11))
    assert (game.white, game.black, game.result) == (20, 23, Result.DRAW)
    changed_tournaments = {**examples, SWISS: replace_result(examples[SWISS], 7, 11, Result.WHITE_WINS)}
    report = build_site(changed_tournaments, settings(out))
    after = snapshot(out)

    assert set(after) == set(before)
    rewritten = {path for path in after if after[path][:2] != before[path][:2]}
    changed = {path for path in after if after[path][2] != before[path][2]}
    assert rewritten == changed == set(report.files)  # only pages whose content changed
    assert report.rendered == len(rewritten) < report.pages
    for language in LANGUAGES:
        base = f"{prefix(language)}{SWISS}/"
        assert {base + "index.html", base + "round-7.html", base + "players/20.html",
                base + "players/23.html"} <= rewritten
        # players who did not meet 20 or 23 keep their page: the leader at least
        assert base + "players/1.html" not in rewritten
        assert not any(path.startswith(f"{prefix(language)}{XIANGQI}/") for path in rewritten)
    assert {f"{SWISS}/standings.json", f"{SWISS}/standings.csv"} <= rewritten
    # far down the standings, players who never met 20 or 23 keep the file of their unchanged page
    met = {g.white for g in examples[SWISS].games if g.black in (20, 23)} | \
        {g.black for g in examples[SWISS].games if g.white in (20, 23)}
    order = [entry["id"] for entry in json.loads(after[f"{SWISS}/standings.json"][2])["standings"]]
    far_down = [player for player in order[len(order) // 2:] if player not in met | {20, 23}]
    kept = [f"{prefix(language)}{SWISS}/players/{player}.html" for language in LANGUAGES for player in far_down
            if after[f"{prefix(language)}{SWISS}/players/{player}.html"][2]
            == before[f"{prefix(language)}{SWISS}/players/{player}.html"][2]]
    assert kept and not set(kept) & rewritten


def test_a_players_page_digest_without_its_page_is_that_of_the_page(tmp_path: Path, examples,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``player_page_digest`` (what a build looks at for every player's page in every language)
    is the digest of the page it would render, joined differently for speed."""
    from site_builder import plan
    works = []
    real = plan.plan
    monkeypatch.setattr("site_builder.build.plan", lambda work, **options: works.append(work) or real(work, **options))
    build_site(examples, settings(tmp_path / "public"))
    [work] = works
    checked = 0
    for slug, pages in work.pages_by_slug.items():
        for language in work.settings.languages:
            for player in pages.tournament.players:
                page = plan.player_page(work, slug, language, player.id)
                assert plan.player_page_digest(work, slug, language, player.id) == plan.page_digest(page, work)
                checked += 1
    assert checked > 100


def test_forked_workers_build_the_same_site_as_one_process(tmp_path: Path, examples,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The parallel build (workers forked when a site is big) and the build shared with one
    forked helper (a few pages to render) make the same files, and their incremental rebuilds
    keep the same pages, as a build in this process."""
    changed = {**examples, SWISS: replace_result(examples[SWISS], 7, 11, Result.WHITE_WINS)}
    pools = []
    get_context = multiprocessing.get_context
    monkeypatch.setattr(multiprocessing, "get_context", lambda method: pools.append(method) or get_context(method))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # two workers, on any machine
    helpers = []
    shared = workers._shared
    monkeypatch.setattr(workers, "_shared", lambda tasks, work: helpers.append(len(tasks)) or shared(tasks, work))
    made = []

    class Noted(workers.Helper):
        def __init__(self, tasks, work, order) -> None:
            made.append(sorted({kind for kind, _ in tasks}))
            super().__init__(tasks, work, order)

    monkeypatch.setattr(workers, "Helper", Noted)
    reports = {}
    for mode, parallel_from, split_from, split_players in (("in-process", 10**9, 10**9, 10**9),
                                                           ("forked", 2, 2, 2), ("helper", 10**9, 2, 2)):
        monkeypatch.setattr("site_builder.workers.PARALLEL_FROM", parallel_from)
        monkeypatch.setattr("site_builder.workers.SPLIT_FROM", split_from)
        monkeypatch.setattr("site_builder.workers.SPLIT_PLAYERS", split_players)
        made.clear()
        out = tmp_path / mode / "public"
        first = build_site(examples, settings(out))
        reports[mode] = (first.pages, first.rendered, sorted(build_site(changed, settings(out)).files))
        if mode == "in-process":
            assert not made
        if mode == "forked":
            assert pools == ["fork", "fork"] and not helpers  # its two builds, not the first mode's
            assert made == [["downloads"]]  # the rebuild's downloads made beside its planning
        elif mode == "helper":
            assert pools == ["fork", "fork"] and len(helpers) == 2  # a helper at each of its builds
            # and the rebuild's downloads made by one of their own, beside the planning and the pages
            assert made[1] == ["downloads"] and len(made) == 3, made
    in_process = tmp_path / "in-process" / "public"
    for mode in ("forked", "helper"):
        assert {path: file.read_bytes() for path, file in site_files(in_process).items()} == {
            path: file.read_bytes() for path, file in site_files(tmp_path / mode / "public").items()}, mode
        assert reports[mode] == reports["in-process"], mode
    assert reports["helper"][2]  # the rebuild wrote the changed pages...
    assert len(reports["helper"][2]) < reports["helper"][0]  # ...and only them


def test_before_it_forks_a_build_compiles_the_templates_of_the_pages_it_renders(tmp_path: Path) -> None:
    """After one result, a build compiles only the few pages' templates (and the ones every page
    extends or imports) before it forks its helper; a full build all the site's, never the
    entry page's (``entry/``)."""
    from site_builder.environment import THEMES, compile_templates, site_environment

    theme = THEMES / "default"
    compile_templates(theme, "a test's templates", ["vi"], tmp_path, {"round.html", "player.html"})
    loaded = {template.name for template in site_environment(theme, "a test's templates", "vi").cache.values()}
    assert loaded == {"base.html", "macros.html", "round.html", "player.html"}
    compile_templates(theme, "a test's templates", ["vi"], tmp_path)
    loaded = {template.name for template in site_environment(theme, "a test's templates", "vi").cache.values()}
    assert "standings.html" in loaded and "crosstable.html" in loaded and "teams.html" in loaded
    assert not any(name.startswith("entry/") for name in loaded)


def test_the_helper_and_this_process_take_each_task_once(tmp_path: Path, examples,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Shared with a forked helper, every task is carried out exactly once, in one of the two
    processes: the tasks and files of a build here."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr("site_builder.workers.PARALLEL_FROM", 10**9)
    taken = tmp_path / "taken"
    do = workers._do

    def noting(task, work):  # both processes append to one file: one line per task carried out
        with taken.open("a", encoding="utf-8") as lines:
            lines.write(f"{os.getpid()} {task!r}\n")
        return do(task, work)

    monkeypatch.setattr(workers, "_do", noting)
    monkeypatch.setattr("site_builder.workers.SPLIT_FROM", 2)
    monkeypatch.setattr("site_builder.workers.SPLIT_PLAYERS", 2)
    report = build_site(examples, settings(tmp_path / "shared" / "public"))
    lines = taken.read_text(encoding="utf-8").splitlines()
    tasks = [line.partition(" ")[2] for line in lines]
    assert len(tasks) == len(set(tasks))  # none taken twice
    assert len({line.partition(" ")[0] for line in lines}) == 2  # both processes took some
    taken.unlink()
    monkeypatch.setattr("site_builder.workers.SPLIT_FROM", 10**9)
    alone = build_site(examples, settings(tmp_path / "alone" / "public"))
    assert sorted(tasks) == sorted(line.partition(" ")[2] for line in taken.read_text(encoding="utf-8").splitlines())
    assert sorted(report.files) == sorted(alone.files) and len(report.files) == len(set(report.files))


def test_a_page_missing_from_the_previous_build_is_written_again(tmp_path: Path, examples) -> None:
    out = tmp_path / "public"
    build_site(examples, settings(out))
    page = out / f"{SWISS}/players/1.html"
    content = page.read_bytes()
    page.unlink()
    report = build_site(examples, settings(out))
    assert report.files == [f"{SWISS}/players/1.html"]
    assert page.read_bytes() == content


def test_a_build_recycles_the_folder_before_the_current_one_and_is_what_a_fresh_build_makes(
        tmp_path: Path, examples) -> None:
    """From the third build on, the build folder is the one before the current one, renamed and
    brought up to date (what changed since it written, linked or removed, the folders left
    empty removed): the site is byte for byte what a fresh build makes, the previous build is
    kept as it was, and no more than two builds stay."""
    out = tmp_path / "public"
    swiss = examples[SWISS]
    variants = [examples, {**examples, SWISS: replace_result(swiss, 7, 11, Result.WHITE_WINS)},
                {SWISS: replace_result(swiss, 7, 1, Result.BLACK_WINS)},  # the round robin archived
                examples, {**examples, SWISS: replace_result(swiss, 7, 11, Result.BLACK_WINS)}]
    folders: list[tuple[str, int]] = []  # each build's folder: name and inode
    for number, tournaments in enumerate(variants):
        build_site(tournaments, settings(out))
        current = out.resolve()
        folders.append((current.name, current.stat().st_ino))
        fresh = tmp_path / f"fresh-{number}" / "public"
        build_site(tournaments, settings(fresh))
        assert {name: path.read_bytes() for name, path in site_files(current).items()} == \
            {name: path.read_bytes() for name, path in site_files(fresh.resolve()).items()}, number
        def folders_of(root: Path) -> list[str]:
            return sorted(os.path.relpath(top, root) for top, _, _ in os.walk(root))
        assert folders_of(current) == folders_of(fresh.resolve())  # no folder left empty
        builds = sorted(path.name for path in tmp_path.glob(".public.build-*"))
        assert builds == sorted({name for name, _ in folders[-2:]}), number
        if number >= 2:  # the folder of the build before the previous one, renamed
            assert folders[number][1] == folders[number - 2][1] and folders[number][0] != folders[number - 2][0]


def test_a_file_removed_by_hand_from_the_folder_a_build_recycles_is_made_again(tmp_path: Path, examples) -> None:
    """The folder a build recycles is listed once (not looked at file by file): a file removed
    from it since is linked or written again, and the site is what a fresh build makes."""
    out = tmp_path / "public"
    changed = {**examples, SWISS: replace_result(examples[SWISS], 7, 11, Result.WHITE_WINS)}
    build_site(examples, settings(out))
    oldest = out.resolve()
    inode = oldest.stat().st_ino
    build_site(changed, settings(out))
    for name in (f"{SWISS}/players/1.html", f"{SWISS}/players/20.html", "index.html"):  # kept, changed, kept
        (oldest / name).unlink()
    build_site(examples, settings(out))
    assert out.resolve().stat().st_ino == inode  # that folder, recycled
    fresh = tmp_path / "fresh" / "public"
    build_site(examples, settings(fresh))
    assert {name: path.read_bytes() for name, path in site_files(out.resolve()).items()} == \
        {name: path.read_bytes() for name, path in site_files(fresh.resolve()).items()}


# -- atomic ----------------------------------------------------------------------------------

def fail_on_render(monkeypatch: pytest.MonkeyPatch, failing_call: int) -> list[int]:
    calls = [0]
    render = jinja2.Template.render

    def counting_render(self, *args, **kwargs):
        calls[0] += 1
        if calls[0] == failing_call:
            raise RuntimeError("template failed part-way")
        return render(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "render", counting_render)
    # render in this process, so the count is this process's (forked workers would count apart)
    monkeypatch.setattr("site_builder.workers.PARALLEL_FROM", 10**9)
    monkeypatch.setattr("site_builder.workers.SPLIT_FROM", 10**9)
    return calls


def test_a_build_that_fails_part_way_leaves_the_previous_site_as_it_was(
        tmp_path: Path, examples, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "public"
    build_site(examples, settings(out))
    entries = sorted(path.name for path in tmp_path.iterdir())
    target = os.readlink(out)
    before = snapshot(out)
    renamed = {**examples, XIANGQI: dataclasses.replace(examples[XIANGQI], name="Renamed Invitational")}
    calls = fail_on_render(monkeypatch, failing_call=10)
    with pytest.raises(RuntimeError, match="part-way"):
        build_site(renamed, settings(out))
    assert calls[0] == 10
    assert snapshot(out) == before
    assert os.readlink(out) == target
    assert sorted(path.name for path in tmp_path.iterdir()) == entries  # no temporary folder left

    monkeypatch.undo()  # and the next build completes
    report = build_site(renamed, settings(out))
    assert report.rendered > 10
    assert "Renamed Invitational" in (out / f"{XIANGQI}/index.html").read_text(encoding="utf-8")


def test_a_first_build_that_fails_leaves_nothing(tmp_path: Path, examples, monkeypatch: pytest.MonkeyPatch) -> None:
    fail_on_render(monkeypatch, failing_call=10)
    with pytest.raises(RuntimeError):
        build_site(examples, settings(tmp_path / "public"))
    # no site, no build folder; the compiled templates stay for the next build (the cache is
    # made when this process first compiles the theme: whether a test before this one did
    # depends on the order the tests run in)
    assert [path.name for path in tmp_path.iterdir() if path.name != ".public.templates"] == []


def test_a_render_failing_in_a_worker_process_leaves_the_previous_site(tmp_path: Path, examples,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The same guarantee when pages are rendered by forked worker processes."""
    out = tmp_path / "public"
    build_site(examples, settings(out))
    before = snapshot(out)
    render = jinja2.Template.render

    def failing_render(self, *args, **kwargs):
        if kwargs.get("t", {}).get("name") == "Renamed Invitational":
            raise RuntimeError("template failed in a worker")
        return render(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "render", failing_render)
    monkeypatch.setattr("site_builder.workers.PARALLEL_FROM", 2)
    renamed = {**examples, XIANGQI: dataclasses.replace(examples[XIANGQI], name="Renamed Invitational")}
    with pytest.raises(RuntimeError, match="in a worker"):
        build_site(renamed, settings(out))
    assert snapshot(out) == before


def test_a_failure_in_a_forked_helper_is_raised_and_leaves_the_previous_site(
        tmp_path: Path, examples, monkeypatch: pytest.MonkeyPatch) -> None:
    """Shared with forked helpers (the pages', the downloads'), a full disk met there (only
    there) fails the build as it would here (``BuildError``, one line); the previous site
    stays, nothing of the failed build is left, and the next build completes."""
    out = tmp_path / "public"
    build_site(examples, settings(out))
    before = snapshot(out)
    entries = sorted(path.name for path in tmp_path.iterdir())
    write = workers.write_file
    builder = os.getpid()

    def full_in_a_helper(target: Path, content: bytes) -> None:
        if os.getpid() != builder:
            raise OSError(28, "No space left on device", str(target))
        write(target, content)

    monkeypatch.setattr(workers, "write_file", full_in_a_helper)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr("site_builder.workers.PARALLEL_FROM", 10**9)
    monkeypatch.setattr("site_builder.workers.SPLIT_FROM", 2)
    monkeypatch.setattr("site_builder.workers.SPLIT_PLAYERS", 2)
    renamed = {**examples, XIANGQI: dataclasses.replace(examples[XIANGQI], name="Renamed Invitational")}
    with pytest.raises(BuildError, match="the disk is full"):
        build_site(renamed, settings(out))
    assert snapshot(out) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == entries  # no build folder left
    monkeypatch.setattr(workers, "write_file", write)
    build_site(renamed, settings(out))
    assert "Renamed Invitational" in (out / f"{XIANGQI}/index.html").read_text(encoding="utf-8")
