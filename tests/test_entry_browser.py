"""The entry page served by a real ``python -m bot`` process (console mode: no Telegram token, as
in China or Vietnam) with ``[web] listen`` on 127.0.0.1, driven by headless Chromium at 360 px
(a phone) with JavaScript off: a round's results entered by taps, one corrected, the correction
undone, each checked with ``tiebreak round --json``; a wrong secret refused (403); the page
never scrolls sideways and passes axe-core's WCAG 2.1 A and AA rules (light and dark).  Without
``[web]`` nothing listens.  The browser helpers are the site's (``tests/test_site_browser.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from bot_process import BotProcess, free_port
from open_scenario import Command, in_process, ok, store_config
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import WebDriverWait
from test_site_browser import _axe_source, _axe_violations, _chromium, _colour_scheme, _open, _viewport

from bot import web_messages as W
from bot.messages import translator

ROUND_ROBIN = Path(__file__).resolve().parent / "data" / "open" / "rr-9.toml"  # xiangqi, 2/1/0


class ConsoleBot(BotProcess):
    """``python -m bot`` without a token (console mode) and with no terminal: its console input
    ends at once, and the entry page goes on until SIGTERM."""

    def start(self) -> ConsoleBot:
        environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
        environment.pop("TELEGRAM_BOT_TOKEN", None)
        self.process = subprocess.Popen([sys.executable, "-m", "bot", "--config", str(self.config)],
                                        cwd=self.config.parent, env=environment, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return self


def configure(folder: Path, web: str) -> tuple[Path, Command]:
    config = store_config(folder, f'[bot]\narbiters = [1]\n{web}[[tournaments]]\nfile = "{ROUND_ROBIN}"\n')
    cli = in_process(config)
    ok(cli, "import", "--from-config")
    ok(cli, "pair", "rr9")
    return config, cli


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Command, str]]:
    port = free_port()
    config, cli = configure(tmp_path, f'[web]\nlisten = "127.0.0.1:{port}"\n')
    bot = ConsoleBot(config, None).start()
    try:
        bot.wait_for_output(f"serving the entry page on http://127.0.0.1:{port}/enter/<secret>")
        yield cli, ok(cli, "arbiter", "link", "rr9", "--label", "hall").strip()
        assert bot.stop() == 0
        assert "Traceback" not in bot.output()
    finally:
        bot.close()


@pytest.fixture
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    driver = _chromium(tmp_path_factory.mktemp("entry-profile"), javascript=False)
    try:
        _viewport(driver, 360)
        yield driver
    finally:
        driver.quit()


def results(cli: Command) -> dict[int, str | None]:
    return {board["board"]: board["result"] for board in json.loads(ok(cli, "round", "rr9", "1", "--json"))["boards"]}


def press(driver: WebDriver, board: int, result: str) -> None:
    """Tap ``result`` on ``board`` (opening its "Correct" first if it has a result)."""
    item = driver.find_element(By.ID, f"board-{board}")
    summaries = item.find_elements(By.TAG_NAME, "summary")
    if summaries:
        summaries[0].click()
    submit(driver, item.find_element(By.CSS_SELECTOR, f'button[name="result"][value="{result}"]'))


def submit(driver: WebDriver, button: WebElement) -> None:
    """Click a form's button and wait for the page the post redirects to."""
    button.click()
    WebDriverWait(driver, 20).until(_gone(button))
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")


def _gone(element: WebElement):
    """Selenium's ``staleness_of``, also when Chromium's driver, asked about the element while the
    next page replaces the document, answers "does not belong to the document" (a
    ``WebDriverException``, not a ``StaleElementReferenceException``): the element is gone either way."""
    stale = staleness_of(element)

    def predicate(driver: WebDriver) -> bool:
        try:
            return stale(driver)
        except WebDriverException as error:
            if "does not belong to the document" in str(error) or "No node with given id" in str(error):
                return True
            raise
    return predicate


def notice(driver: WebDriver) -> str:
    found = driver.find_elements(By.CSS_SELECTOR, ".notice")
    return found[0].text if found else ""


def sideways(driver: WebDriver) -> bool:
    return driver.execute_script("return document.documentElement.scrollWidth > document.documentElement.clientWidth")


def test_a_phone_enters_a_round_corrects_a_result_and_undoes_it_without_javascript(
        served: tuple[Command, str], phone: WebDriver) -> None:
    cli, url = served
    _open(phone, url)
    assert "第1轮" not in phone.page_source and "Round 1" in phone.page_source  # Chromium asks for English
    boards = sorted(results(cli))
    for board in boards:
        press(phone, board, "1-0")
        assert f"board {board}:" in notice(phone) and "recorded" in notice(phone), notice(phone)
        assert not sideways(phone)
    assert set(results(cli).values()) == {"1-0"}
    assert "Round 1 is complete." in notice(phone)
    press(phone, boards[0], "0-1")
    assert results(cli)[boards[0]] == "0-1" and "corrected (was 2-0)" in notice(phone)
    submit(phone, phone.find_element(By.CSS_SELECTOR, "form.undo button"))
    assert results(cli)[boards[0]] == "1-0"
    assert "Undone: round 1, board 1 0-2. The board now has 2-0." in notice(phone)
    phone.refresh()  # a reload of the page shown after a tap sends nothing again
    assert results(cli)[boards[0]] == "1-0"
    log = [json.loads(line) for line in ok(cli, "log", "rr9", "--json").splitlines()]
    assert {entry["actor"] for entry in log if entry["kind"] in ("result", "correction")} == {"web:1"}


def test_a_wrong_secret_is_refused_in_the_browser(served: tuple[Command, str], phone: WebDriver) -> None:
    _, url = served
    wrong = url[:-4] + ("abcd" if not url.endswith("abcd") else "efgh")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(wrong, timeout=10)
    assert refused.value.code == 403
    _open(phone, wrong)
    assert translator("en").gettext(W.LINK_REFUSED_TITLE) in phone.page_source
    assert not phone.find_elements(By.TAG_NAME, "form")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_entry_page_passes_axe_at_360_px(served: tuple[Command, str], tmp_path_factory: pytest.TempPathFactory,
                                             scheme: str) -> None:
    cli, url = served
    ok(cli, "result", "rr9", "1", "1", "1-0")  # a board with a result (its "Correct"), the others open
    source = _axe_source()
    driver = _chromium(tmp_path_factory.mktemp("entry-axe"))
    found = {}
    try:
        driver.set_script_timeout(60)
        _viewport(driver, 360)
        _colour_scheme(driver, scheme)
        for language in ("en", "zh", "vi", "es"):
            _open(driver, f"{url}?lang={language}")
            driver.find_element(By.TAG_NAME, "summary").click()  # the correction's buttons too
            violations = _axe_violations(driver, source)
            if violations:
                found[language] = violations
            assert not sideways(driver), language
        _open(driver, url[:-4] + "zzzz")
        if violations := _axe_violations(driver, source):
            found["refused"] = violations
    finally:
        driver.quit()
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)


def test_without_web_nothing_listens(tmp_path: Path) -> None:
    config, _ = configure(tmp_path, "")
    bot = ConsoleBot(config, None).start()
    try:
        assert bot.wait(60) == 0  # the console's input ended, and no page keeps the process
        assert "entry page" not in bot.output()
    finally:
        bot.close()
