"""The built site in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, installed by ``.ci/run``) driven by selenium.

The bundled examples are built in all four languages and served on 127.0.0.1.  At 360 px
(a phone: mobile viewport, overlay scroll bars) and 1280 px (a desktop):

- the standings table is found by its caption, which is also its accessible name;
- the page body never scrolls sideways on any main page (wide tables scroll in their region);
- the language switcher leads to the same page in Chinese, and the Chinese names are drawn
  with a font that has their glyphs (fonts-noto-cjk);
- a PNG of each main page is written under tests/artifacts/ (ignored by git), to look at.

Also: the optional script sorts the standings by a clicked header and filters them by name,
and with JavaScript off every table is there and complete.  Without Chromium these tests fail
(they do not skip): CI installs it.
"""

from __future__ import annotations

import base64
import functools
import http.server
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

from site_builder import SiteSettings, TournamentPages, build_site
from tiebreak.files import load_tournament

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
EXAMPLES = Path(__file__).resolve().parents[1] / "ranking" / "examples"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
LANGUAGES = ("en", "zh", "vi", "es")
WIDTHS = (360, 1280)
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
        the standings, round 1, the crosstable or wall chart and player 1's page."""
        pages = [("index", "index.html")]
        for slug in self.pages:
            pages += [(f"{slug}-standings", f"{slug}/index.html"), (f"{slug}-round-1", f"{slug}/round-1.html"),
                      (f"{slug}-crosstable", f"{slug}/crosstable.html"), (f"{slug}-player-1", f"{slug}/players/1.html")]
        return pages


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    tournaments = {"xiangqi-rr": load_tournament(EXAMPLES / "xiangqi-rr.toml"),
                   "chess-swiss": load_tournament(EXAMPLES / "chess-swiss.trf")}
    out = tmp_path_factory.mktemp("site") / "public"
    build_site(tournaments, SiteSettings(out_dir=out, languages=LANGUAGES))
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
    for language in ("en", "zh"):
        for name, path in site.main_pages():
            _open(browser, site.url(path, language))
            _assert_no_sideways_scroll(browser, width)
            _assert_captions_fit(browser)
            if language == "en" or name == "index" or name.endswith(("-standings", "-player-1")):
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
