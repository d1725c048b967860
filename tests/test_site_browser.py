"""The built site in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, installed by ``.ci/run``) driven by selenium, with axe-core (npm, installed
into tests/browser/node_modules by ``make test``) injected into the pages.

The bundled examples, the xiangqi round robin part-way through round 4 (two games still being
played, rounds 5-9 to come, a player withdrawn), a team league, a CXA team round robin, VN
two-game matches and a VN round robin with annulled games are built in all four languages and
served on 127.0.0.1.  At 360 px (a phone: mobile viewport, overlay scroll bars)
and 1366 px (a desktop), in English, Chinese and Vietnamese:

- the standings table is found by its caption, which is also its accessible name;
- the page body never scrolls sideways on any main page (wide tables scroll in their region);
- the language switcher leads to the same page in Chinese, and the Chinese names are drawn
  with a font that has their glyphs (fonts-noto-cjk);
- a PNG of each main page is written under tests/artifacts/ (ignored by git), to look at;
- both players of every board are on screen without scrolling sideways, and on a phone each
  board is stacked (the second player under the first);
- at 360 x 640 and 1280 x 800 in all four languages, the standings, round, crosstable and
  player pages keep each row's place, name, points and first tie-break (standings), both
  players with their colours as words, points and result (rounds), name and points
  (crosstable), result and running score (player) on screen without scrolling sideways at
  360 px, no cell overlaps another or spills out of its box, and axe-core finds nothing;
- every page type passes axe-core's WCAG 2.1 A and AA rules, in light and in dark mode;
- the print layout (print media emulation, and Chromium's PDF on A4 and letter) drops the
  navigation and shows the result sheets and QR codes, nothing wider than the paper.

Also: the optional script sorts the standings by a clicked header and filters them by name,
ignoring case and diacritics and saying when nothing matches; and with JavaScript off every
table is there and complete.  Without Chromium these tests fail
(they do not skip): CI installs it.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import http.server
import json
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from ranking import Tournament, Withdrawal
from site_builder import SiteSettings, TournamentPages, build_site
from tiebreak.files import load_tournament

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
EXAMPLES = Path(__file__).resolve().parents[1] / "ranking" / "examples"
LEAGUE = Path(__file__).resolve().parent / "data" / "teams" / "xiangqi-league.toml"
XIANGQI = Path(__file__).resolve().parent / "data" / "xiangqi"  # issue 22's events
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
AXE = Path(__file__).resolve().parent / "browser" / "node_modules" / "axe-core" / "axe.min.js"
LANGUAGES = ("en", "zh", "vi", "es")
SHOWN = ("en", "zh", "vi")  # the languages every page type is looked at in
WIDTHS = (360, 1366)
AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
HEIGHT = 800
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                  "--lang=en-US")
CHINESE_NAME = "王天一"  # player 1 of the xiangqi example
NAME = 2  # the standings' name column (after the place and the starting number)


class Site:
    def __init__(self, root: Path, base: str, tournaments: dict[str, TournamentPages]) -> None:
        self.root = root
        self.base = base
        self.pages = tournaments

    def url(self, path: str, language: str = "en") -> str:
        return self.base + ("" if language == "en" else f"{language}/") + path

    def main_pages(self) -> list[tuple[str, str]]:
        """(name for the screenshot, path) of each main page: the index, and per tournament
        the standings, round 1, the crosstable or wall chart and player 1's page; the live
        round robin's round in progress, a coming round and a player's page during that round
        (the place after round 3, labelled); the team standings."""
        pages = [("index", "index.html")]
        for slug in self.pages:
            pages += [(f"{slug}-standings", f"{slug}/index.html"), (f"{slug}-round-1", f"{slug}/round-1.html"),
                      (f"{slug}-crosstable", f"{slug}/crosstable.html"), (f"{slug}-player-1", f"{slug}/players/1.html")]
        pages += [("live-round-4", "live/round-4.html"), ("live-round-7", "live/round-7.html"),
                  ("live-player-1", "live/players/1.html"), ("league-teams", "league/teams.html")]
        return pages

    def page_types(self) -> list[tuple[str, str]]:
        """One page of each type: the index, standings (with a withdrawn player and a round in
        progress), a round being played, a coming round, a Swiss round, a crosstable, a wall
        chart, a player's page (a withdrawn one), the team standings, a team round, the players list;
        and issue 22's: a crosstable with annulled games (VN 21.5.1), the wall chart of two-game
        matches (VN 21.2), a CXA team round robin's standings; and a round of two-game matches, a
        player's page with both games of each match, a CXA team round and a round with an
        annulled board."""
        return [("index", "index.html"), ("standings", "live/index.html"), ("round", "live/round-4.html"),
                ("coming-round", "live/round-7.html"), ("swiss-round", "chess-swiss/round-3.html"),
                ("crosstable", "xiangqi-rr/crosstable.html"), ("wall-chart", "chess-swiss/crosstable.html"),
                ("player", "live/players/8.html"), ("teams", "league/teams.html"),
                ("team-round", "league/round-1.html"), ("players", "chess-swiss/players.html"),
                ("annulled-crosstable", "vn-rr-withdrawals/crosstable.html"),
                ("match-wall-chart", "vn-match/crosstable.html"), ("cxa-teams", "cxa-team-rr/teams.html"),
                ("match-round", "vn-match/round-2.html"), ("match-player", "vn-match/players/2.html"),
                ("cxa-team-round", "cxa-team-rr/round-1.html"), ("annulled-round", "vn-rr-withdrawals/round-3.html")]


def live_round_robin(full: Tournament) -> Tournament:
    """The xiangqi round robin in round 4: boards 1 and 3 still being played, rounds 5-9 to
    come, player 8 withdrawn after round 4 (its later games are not in the table anyway)."""
    games = tuple(dataclasses.replace(game, result=None) if (game.round, game.board) in {(4, 1), (4, 3)} else game
                  for game in full.games if game.round <= 4)
    return dataclasses.replace(full, name=full.name + " (live)", games=games, withdrawals=(Withdrawal(8, 4),))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    tournaments = {"xiangqi-rr": load_tournament(EXAMPLES / "xiangqi-rr.toml"),
                   "chess-swiss": load_tournament(EXAMPLES / "chess-swiss.trf")}
    out = tmp_path_factory.mktemp("site") / "public"
    more = {name: load_tournament(XIANGQI / f"{name}.toml")
            for name in ("cxa-team-rr", "vn-match", "vn-rr-withdrawals")}
    build_site({**tournaments, "live": live_round_robin(tournaments["xiangqi-rr"]), "league": load_tournament(LEAGUE),
                **more},
               SiteSettings(out_dir=out, languages=LANGUAGES, base_url="https://results.example.org/",
                            bot_username="TiebreakResultsBot"))
    root = out.resolve()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Site(root, f"http://127.0.0.1:{server.server_port}/",
                   {slug: TournamentPages(slug, tournament) for slug, tournament in tournaments.items()})
    finally:
        server.shutdown()
        server.server_close()


def _chromium(profile: Path, *, javascript: bool = True) -> WebDriver:
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.is_file()]
    if missing:
        pytest.fail(f"browser tests need Debian's chromium and chromium-driver; missing {', '.join(missing)}: "
                    "run `apt-get install chromium chromium-driver fonts-noto-cjk` as root (.ci/run does)",
                    pytrace=False)
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    # An explicit driver path: selenium-manager is not run, so nothing is downloaded.
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(20)
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    driver = _chromium(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def browser_without_js(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    driver = _chromium(tmp_path_factory.mktemp("chromium-profile-nojs"), javascript=False)
    try:
        yield driver
    finally:
        driver.quit()


def _viewport(driver: WebDriver, width: int) -> None:
    """A phone below 600 px (mobile viewport, overlay scroll bars), a desktop above."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": width < 600})


def _open(driver: WebDriver, url: str) -> None:
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


_OVERFLOW = """
const root = document.documentElement;
const wide = [];
for (const element of document.body.querySelectorAll('*')) {
  if (element.closest('.scroll')) continue;
  const box = element.getBoundingClientRect();
  if (box.right > root.clientWidth + 0.5) {
    wide.push(element.tagName.toLowerCase() + (element.className ? '.' + element.className : '')
              + ' right=' + Math.round(box.right));
  }
}
return {scroll: root.scrollWidth, client: root.clientWidth, inner: window.innerWidth, wide: wide.slice(0, 5)};
"""


def _assert_no_sideways_scroll(driver: WebDriver, width: int) -> None:
    sizes = driver.execute_script(_OVERFLOW)
    where = f"{driver.current_url} at {width} px: {sizes}"
    assert sizes["inner"] == width, f"the viewport was widened to fit the page, {where}"
    assert sizes["scroll"] <= sizes["client"], f"the page body scrolls sideways, {where}"


def _assert_captions_fit(driver: WebDriver) -> None:
    """A table's caption wraps inside its scrolling region instead of running off screen."""
    cut = driver.execute_script(
        "return Array.from(document.querySelectorAll('.scroll caption')).filter(caption => {"
        " const box = caption.getBoundingClientRect(), region = caption.closest('.scroll').getBoundingClientRect();"
        " return box.left < region.left - 0.5 || box.right > region.right + 0.5; }).map(c => c.textContent);")
    assert not cut, f"captions cut off on {driver.current_url}: {cut}"


def _screenshot(driver: WebDriver, name: str) -> None:
    """The whole page (not only the viewport) as tests/artifacts/NAME.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    width, height = driver.execute_script(
        "return [document.documentElement.clientWidth, document.documentElement.scrollHeight]")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 8000), "scale": 1}})
    (ARTIFACTS / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))


def _standings_table(driver: WebDriver, caption: str | None = None):
    """The standings table found by its caption (the exact text when given)."""
    if caption is None:
        tables = driver.find_elements(By.XPATH, "//table[caption[@id='standings-caption']]")
    else:
        tables = driver.find_elements(By.XPATH, f"//table[caption[normalize-space()='{caption}']]")
    assert len(tables) == 1, f"no single table captioned {caption!r} on {driver.current_url}"
    return tables[0]


@pytest.mark.parametrize("width", WIDTHS)
def test_main_pages_never_scroll_sideways(site: Site, browser: WebDriver, width: int) -> None:
    _viewport(browser, width)
    for language in SHOWN:
        for name, path in site.main_pages():
            _open(browser, site.url(path, language))
            _assert_no_sideways_scroll(browser, width)
            _assert_captions_fit(browser)
            if language == "en" or name == "index" or name.endswith(("-standings", "-player-1", "round-4")):
                _screenshot(browser, f"{language}-{name}-{width}")


@pytest.mark.parametrize("width", WIDTHS)
def test_standings_table_is_found_by_its_caption(site: Site, browser: WebDriver, width: int) -> None:
    _viewport(browser, width)
    for slug, pages in site.pages.items():
        _open(browser, site.url(f"{slug}/index.html"))
        caption = f"Standings after round {pages.standings.after_round}"
        table = _standings_table(browser, caption)
        assert table.aria_role == "table"
        assert table.accessible_name == caption
        assert table.is_displayed()
        region = table.find_element(By.XPATH, "./ancestor::div[@role='region'][1]")
        assert region.accessible_name == caption  # the scrolling region is named by the caption too
        rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
        assert len(rows) == len(pages.tournament.players)
        assert rows[0].is_displayed()


@pytest.mark.parametrize("width", WIDTHS)
def test_language_switcher_leads_to_the_chinese_page(site: Site, browser: WebDriver, width: int) -> None:
    _viewport(browser, width)
    _open(browser, site.url("xiangqi-rr/index.html"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    switcher = browser.find_element(By.CSS_SELECTOR, "nav.languages")
    link = switcher.find_element(By.LINK_TEXT, "简体中文")
    assert link.is_displayed()
    link.click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/zh/xiangqi-rr/index.html"))
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-Hans"
    assert browser.find_element(By.CSS_SELECTOR, "nav.languages [aria-current='page']").text == "简体中文"
    table = _standings_table(browser)
    assert table.is_displayed()
    assert CHINESE_NAME in table.text
    _assert_no_sideways_scroll(browser, width)
    _assert_drawn_with_a_chinese_font(browser, "#standings tbody a[href$='players/1.html']", CHINESE_NAME)
    # and back to English from the Chinese page
    browser.find_element(By.CSS_SELECTOR, "nav.languages a[hreflang='en']").click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/xiangqi-rr/index.html")
                                     and "/zh/" not in d.current_url)


def _chinese_fonts() -> set[str]:
    """The families fontconfig says cover Chinese."""
    if shutil.which("fc-list") is None:
        pytest.fail("fc-list (Debian's fontconfig, a dependency of chromium) is missing", pytrace=False)
    listing = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, check=True).stdout
    return {family.strip() for line in listing.splitlines() for family in line.split(",") if family.strip()}


def _assert_drawn_with_a_chinese_font(driver: WebDriver, selector: str, text: str) -> None:
    """Every glyph of ``text`` comes from an installed font that fontconfig says covers Chinese
    (no empty boxes): Chromium reports the fonts it used for the element's text."""
    fonts = _chinese_fonts()
    assert fonts, "no font covering Chinese is installed: apt-get install fonts-noto-cjk"
    document = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})
    node = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": document["root"]["nodeId"], "selector": selector})
    assert node["nodeId"], f"nothing matches {selector}"
    driver.execute_cdp_cmd("CSS.enable", {})
    try:
        used = driver.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
    finally:
        driver.execute_cdp_cmd("CSS.disable", {})
    assert used, f"no font drew {text!r}"
    assert {font["familyName"] for font in used} <= fonts, f"{text!r} drawn with {used}, not one of {sorted(fonts)}"
    assert sum(font["glyphCount"] for font in used) == len(text)


def _column(table, index: int) -> list[str]:
    """The text of column ``index`` in the rows shown, top to bottom."""
    return table.parent.execute_script(
        "return Array.from(arguments[0].tBodies[0].rows).filter(row => !row.hidden)"
        ".map(row => row.children[arguments[1]].textContent.trim());", table, index)


@pytest.mark.parametrize("width", WIDTHS)
def test_script_sorts_by_a_clicked_header_and_filters_by_name(site: Site, browser: WebDriver, width: int) -> None:
    _viewport(browser, width)
    _open(browser, site.url("chess-swiss/index.html"))
    table = _standings_table(browser)
    headers = table.find_elements(By.CSS_SELECTOR, "thead th")
    points = next(index for index, header in enumerate(headers) if header.text == "Points")
    headers[points].click()
    assert headers[points].get_attribute("aria-sort") == "ascending"
    ascending = [float(text) for text in _column(table, points)]
    assert ascending == sorted(ascending) and ascending[0] < ascending[-1]
    headers[points].click()
    assert headers[points].get_attribute("aria-sort") == "descending"
    assert [float(text) for text in _column(table, points)] == sorted(ascending, reverse=True)
    headers[0].click()  # back to standings order by place
    assert [int(text) for text in _column(table, 0)] == sorted(int(text) for text in _column(table, 0))
    search = browser.find_element(By.CSS_SELECTOR, "input[data-filter='standings']")
    assert search.is_displayed()  # the script shows the filter
    search.send_keys("nguyen")
    assert _column(table, NAME) == ["WIM Nguyen, Minh Anh"]
    search.clear()
    search.send_keys(" ")  # an input event with an empty query shows every row again
    assert len(_column(table, NAME)) == len(site.pages["chess-swiss"].tournament.players)


def test_pages_are_complete_without_javascript(site: Site, browser_without_js: WebDriver) -> None:
    driver = browser_without_js
    _viewport(driver, 360)
    for slug, pages in site.pages.items():
        players = len(pages.tournament.players)
        _open(driver, site.url(f"{slug}/index.html"))
        table = _standings_table(driver, f"Standings after round {pages.standings.after_round}")
        assert not driver.find_elements(By.CSS_SELECTOR, "[aria-sort]"), "the script ran"
        assert not driver.find_element(By.CSS_SELECTOR, ".filter").is_displayed()
        rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
        assert len(rows) == players and all(row.is_displayed() for row in rows)
        columns = 6 + len(pages.standings.tiebreaks)
        assert all(len(row.find_elements(By.XPATH, "./*")) == columns for row in rows)
        names = {row.player.name for row in pages.standings.rows}
        assert {name.removeprefix(f"{title} ") for name, title in zip(
            _column(table, NAME), (row.player.title for row in pages.standings.rows), strict=True)} == names
        _assert_no_sideways_scroll(driver, 360)
        _screenshot(driver, f"nojs-en-{slug}-standings-360")
        _open(driver, site.url(f"{slug}/crosstable.html"))
        rows = driver.find_elements(By.CSS_SELECTOR, "table.crosstable tbody tr")
        assert len(rows) == players
        _assert_no_sideways_scroll(driver, 360)


# -- round pages: both players on screen, stacked on a phone --------------------------------------

ROUND_PAGES = ("live/round-4.html", "live/round-7.html", "chess-swiss/round-3.html", "xiangqi-rr/round-9.html",
               "league/round-1.html", "vn-match/round-2.html", "cxa-team-rr/round-1.html")
_BOARDS = """
const width = document.documentElement.clientWidth;
return Array.from(document.querySelectorAll('table.pairings tbody tr')).map(row => {
  const box = cell => { const r = row.querySelector(cell).getBoundingClientRect();
                        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const region = row.closest('.scroll');
  return {white: box('.name.w'), black: box('.name.b'), result: box('.result'), width: width,
          scrolls: region.scrollWidth > region.clientWidth + 1, display: getComputedStyle(row).display};
});
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", SHOWN)
def test_both_players_of_every_board_are_on_screen_without_scrolling(site: Site, browser: WebDriver, width: int,
                                                                     language: str) -> None:
    _viewport(browser, width)
    for path in ROUND_PAGES:
        _open(browser, site.url(path, language))
        boards = browser.execute_script(_BOARDS)
        assert boards, path
        for board in boards:
            where = f"{browser.current_url} at {width} px: {board}"
            assert not board["scrolls"], f"the boards scroll sideways, {where}"
            for side in ("white", "black", "result"):
                assert board[side]["left"] >= 0 and board[side]["right"] <= board["width"] + 0.5, where
            if width < 600:  # stacked: the second player under the first, the result beside both
                assert board["display"] == "grid", where
                assert board["black"]["top"] >= board["white"]["bottom"] - 0.5, where
        _assert_no_sideways_scroll(browser, width)


def test_the_tab_strip_shows_the_current_round(site: Site, browser: WebDriver) -> None:
    _viewport(browser, 360)
    for path, current in (("live/round-7.html", "[aria-current]"), ("live/index.html", "[data-current]")):
        _open(browser, site.url(path))
        strip = browser.find_element(By.CSS_SELECTOR, ".tabs")
        tab = strip.find_element(By.CSS_SELECTOR, f"a{current}:not(:first-child)")
        assert browser.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", strip)
        left, right = browser.execute_script(
            "const s = arguments[0].getBoundingClientRect(), t = arguments[1].getBoundingClientRect();"
            "return [t.left - s.left, s.right - t.right];", strip, tab)
        assert left >= -0.5 and right >= -0.5, (path, left, right)


# -- phones: what a player reads at 360 px, in every language ---------------------------------------

PHONE, DESKTOP = (360, 640), (1280, 800)
#: page type -> (pages, the cells of each body row that must be on screen at 360 px without scrolling)
READ_ON_A_PHONE = {
    "standings": (("chess-swiss/index.html", "live/index.html"), ("td.place", "th.name", "td.points", "td.tb")),
    "round": (("chess-swiss/round-3.html", "live/round-4.html", "league/round-1.html"),
              ("td.name.w", "td.name.b", "td.pts", "td.result", ".colour-word")),
    "crosstable": (("chess-swiss/crosstable.html", "xiangqi-rr/crosstable.html"), ("th.name", "td.points")),
    "player": (("chess-swiss/players/1.html", "live/players/8.html"), ("th.rd", "td.name", "td.result", "td.score")),
}
_ROWS = """
const [selectors, kind] = arguments;
const width = document.documentElement.clientWidth;
const table = document.querySelector(kind === 'round' ? 'table.pairings' : kind === 'player' ? 'table.games'
                                     : kind === 'standings' ? 'table.standings' : 'table.crosstable');
const problems = [];
const label = (row, cell) => `row ${Array.from(row.parentNode.rows).indexOf(row) + 1} ${cell.className}`
                             + ` "${cell.textContent.trim().slice(0, 30)}"`;
const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
                          && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
let rows = 0;
for (const t of document.querySelectorAll('table.pairings, table.games, table.standings, table.crosstable')) {
  for (const row of t.tBodies[0].rows) {
    rows += 1;
    const cells = Array.from(row.children).filter(cell => cell.getClientRects().length);
    for (const [i, cell] of cells.entries()) {
      const box = cell.getBoundingClientRect();
      if (cell.scrollWidth > cell.clientWidth + 1) problems.push(`${label(row, cell)} spills out of its cell`);
      for (const other of cells.slice(i + 1)) {
        if (overlap(box, other.getBoundingClientRect())) {
          problems.push(`${label(row, cell)} overlaps ${label(row, other)}`);
        }
      }
      const parts = Array.from(cell.children).filter(part => part.getClientRects().length);
      for (const [j, part] of parts.entries()) {  // each line box of an element that wraps on its own
        for (const next of parts.slice(j + 1)) {
          if (Array.from(part.getClientRects()).some(a => Array.from(next.getClientRects()).some(b => overlap(a, b)))) {
            const name = element => element.className || element.tagName;
            problems.push(`${label(row, cell)}: ${name(part)} overlaps ${name(next)}`);
          }
        }
      }
    }
    if (width < 600 && t === table) {  // at 360 px: what must be read lies on screen, in its region's view
      const region = (t.closest('.scroll') || document.documentElement).getBoundingClientRect();
      for (const selector of selectors) {
        const cell = row.querySelector(selector);
        if (selector === 'td.tb' && !t.querySelector('thead th.tb')) continue;  // a chain without tie-breaks
        if (!cell) { if (!selector.startsWith('.')) problems.push(`row ${rows}: no ${selector}`); continue; }
        const box = cell.getBoundingClientRect();
        if (box.left < Math.max(0, region.left) - 0.5 || box.right > Math.min(width, region.right) + 0.5) {
          problems.push(`${label(row, cell)} is off screen: ${Math.round(box.left)}-${Math.round(box.right)}`
                        + ` of ${Math.round(region.left)}-${Math.round(region.right)}`);
        }
      }
    }
  }
}
return {rows: rows, problems: problems.slice(0, 8)};
"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x640", "1280x800"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phone_shows_places_names_points_and_results_without_scrolling(site: Site, browser: WebDriver,
                                                                         language: str, size: tuple[int, int]) -> None:
    """At 360 x 640 (and 1280 x 800) in every language: on the standings, round, crosstable and
    player pages, each row's place, name, points and first tie-break (standings), both players,
    their colours as words, points and result (rounds), name and points (crosstable), round,
    opponent, result and running score (player) lie on screen without scrolling sideways;
    no cell overlaps another or spills out of its box; the page passes axe-core."""
    width, height = size
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    browser.set_script_timeout(60)
    source = _axe_source()
    problems = {}
    for kind, (paths, selectors) in READ_ON_A_PHONE.items():
        for number, path in enumerate(paths):
            _open(browser, site.url(path, language))
            _assert_no_sideways_scroll(browser, width)
            found = browser.execute_script(_ROWS, list(selectors), kind)
            assert found["rows"], f"no table rows on {browser.current_url}"
            if found["problems"]:
                problems[browser.current_url] = found["problems"]
            if number == 0:  # one page of each type through axe-core
                violations = _axe_violations(browser, source)
                if violations:
                    problems[f"{browser.current_url} (axe-core)"] = violations
                _screenshot(browser, f"phone-{language}-{kind}-{width}x{height}")
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)


# -- the name filter -------------------------------------------------------------------------------

@pytest.mark.parametrize("language", SHOWN)
def test_the_filter_ignores_case_and_diacritics_and_matches_names_only(site: Site, browser: WebDriver,
                                                                       language: str) -> None:
    _viewport(browser, 360)
    _open(browser, site.url("xiangqi-rr/index.html", language))
    table = _standings_table(browser)
    search = browser.find_element(By.CSS_SELECTOR, "input[data-filter='standings']")
    message = browser.find_element(By.CSS_SELECTOR, ".filter .no-match")
    everyone = len(_column(table, NAME))
    for query, expected in (("nguyen", ["Nguyễn Hoàng Lâm", "Nguyễn Thành Bảo"]),
                            ("NGUYEN thanh", ["Nguyễn Thành Bảo"]), ("uong duong bac", ["Uông Dương Bắc"]),
                            ("tran chanh", ["Trần Chánh Tâm"]), ("王天", ["王天一"]), ("lai ly", ["Lại Lý Huynh"])):
        search.clear()
        search.send_keys(query)
        assert sorted(_column(table, NAME)) == expected, query
        assert not message.is_displayed()
    for query in ("2", "chn", "zzz"):  # a number, a federation: other cells do not match
        search.clear()
        search.send_keys(query)
        assert _column(table, NAME) == [], query
        assert message.is_displayed() and message.text
    search.clear()
    search.send_keys(" ")
    assert len(_column(table, NAME)) == everyone and not message.is_displayed()


# -- accessibility: axe-core ------------------------------------------------------------------------

def _axe_source() -> str:
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): run `npm ci --prefix tests/browser` (make test does)",
                    pytrace=False)
    return AXE.read_text(encoding="utf-8")


def _colour_scheme(driver: WebDriver, scheme: str) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})


def _axe_violations(driver: WebDriver, source: str) -> list[dict]:
    driver.execute_script(source)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})"
        ".then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}))))"
        ".catch(e => done([{id: 'axe-error', help: String(e), nodes: []}]));", AXE_RULES)
    return result


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", SHOWN)
def test_every_page_type_passes_axe_at_wcag_2_1_aa(site: Site, browser: WebDriver, language: str,
                                                  scheme: str) -> None:
    source = _axe_source()
    browser.set_script_timeout(60)
    found = {}
    try:
        _colour_scheme(browser, scheme)
        for width in WIDTHS if language == "en" else (360,):
            _viewport(browser, width)
            for name, path in site.page_types():
                _open(browser, site.url(path, language))
                violations = _axe_violations(browser, source)
                if violations:
                    found[f"{name} at {width} px"] = violations
    finally:
        _colour_scheme(browser, "light")
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)


# -- print ---------------------------------------------------------------------------------------

A4_CONTENT = 703  # px: 210 mm less the 12 mm margins at 96 px per inch (letter's is wider)


def test_a_round_prints_its_pairing_list_result_sheets_and_qr_codes(site: Site, browser: WebDriver) -> None:
    _viewport(browser, A4_CONTENT)
    _open(browser, site.url("live/round-4.html"))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        shown = browser.execute_script(
            "const seen = s => Array.from(document.querySelectorAll(s)).some(e => e.getClientRects().length);"
            "return {nav: seen('header.site') || seen('.tabs') || seen('footer.site'), boards: seen('table.pairings'),"
            " sheets: document.querySelectorAll('.result-sheets .sheet').length,"
            " visibleSheets: seen('.result-sheets .sheet'), qr: document.querySelectorAll('.qr svg').length,"
            " visibleQr: seen('.qr svg')};")
        assert shown == {"nav": False, "boards": True, "sheets": 5, "visibleSheets": True, "qr": 2, "visibleQr": True}
        _assert_no_sideways_scroll(browser, A4_CONTENT)
        wide = browser.execute_script(
            "return Array.from(document.querySelectorAll('main *')).filter(e => e.getBoundingClientRect().right"
            " > document.documentElement.clientWidth + 0.5).map(e => e.tagName + '.' + e.className).slice(0, 5);")
        assert wide == []
        _screenshot(browser, "print-live-round-4")
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    for paper, (width, height) in {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}.items():
        for language in SHOWN:
            _open(browser, site.url("live/round-4.html", language))
            printed = browser.execute_cdp_cmd("Page.printToPDF", {
                "paperWidth": width, "paperHeight": height, "preferCSSPageSize": True, "printBackground": False})
            pdf = base64.b64decode(printed["data"])
            assert pdf.startswith(b"%PDF")
            pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
            assert pages >= 2, (paper, language, pages)  # the pairing list, then the result sheets
            if language == "en":
                ARTIFACTS.mkdir(exist_ok=True)
                (ARTIFACTS / f"live-round-4-{paper}.pdf").write_bytes(pdf)


# -- issue 22's events in Chinese and Vietnamese, on a phone -------------------------------------------

@pytest.mark.parametrize(("language", "red", "black", "team_rules"), [
    ("zh", "红方", "黑方", "团体规则"), ("vi", "Đỏ", "Đen", "Luật đồng đội")])
def test_two_game_matches_and_a_cxa_team_round_robin_read_in_their_language(
        site: Site, browser: WebDriver, language: str, red: str, black: str, team_rules: str) -> None:
    """VN 21.2: round 2 holds both games of each match (1-3 and 3-1, 2-4 and 4-2), each row's
    players on screen; player 2's page lists both of its games in round 2.  CXA 14.5: the
    header names the team preset, the team table shows match points, then game points, once."""
    _viewport(browser, 360)
    _open(browser, site.url("vn-match/round-2.html", language))
    rows = browser.find_elements(By.CSS_SELECTOR, "table.pairings tbody tr")
    pairs = [(row.find_element(By.CSS_SELECTOR, ".sn.w").text, row.find_element(By.CSS_SELECTOR, ".sn.b").text)
             for row in rows]
    assert pairs == [("1", "3"), ("3", "1"), ("2", "4"), ("4", "2")]
    assert all(row.is_displayed() for row in rows)
    heads = [cell.get_attribute("textContent").strip()
             for cell in browser.find_elements(By.CSS_SELECTOR, "table.pairings thead th.name")]
    assert heads == [red, black]
    _open(browser, site.url("vn-match/players/2.html", language))
    games = browser.find_elements(By.XPATH, "//table[contains(@class, 'games')]//tbody/tr")
    assert sum(1 for game in games if game.find_elements(By.XPATH, "./*[1]")[0].text.strip() == "2") == 2
    _assert_no_sideways_scroll(browser, 360)
    _open(browser, site.url("cxa-team-rr/index.html", language))
    header = browser.find_element(By.CSS_SELECTOR, "dl.header")
    assert team_rules in header.text and "cxa-team-rr" in header.text
    _open(browser, site.url("cxa-team-rr/teams.html", language))
    columns = [cell.get_attribute("textContent").strip() for cell in
               browser.find_elements(By.CSS_SELECTOR, "table thead th abbr")][:2]
    assert columns == [{"zh": "场分", "vi": "Điểm trận"}[language], {"zh": "局分", "vi": "Điểm ván"}[language]]
    _assert_no_sideways_scroll(browser, 360)
