"""The entry page (issue 23), against the Starlette app in this process (httpx over ASGI): the
current round, a form of result buttons per board in the game's colour words and the browser's
language, results, corrections and undo through the bot's own commands (logged as
``web:<link id>``), and the rules: 403 for a wrong, revoked or missing secret and for a form
without a valid CSRF token, a form applied once however often it is sent, post/redirect/get,
a localised 400 for what the buttons never send.  Each change is checked in the event log and
``round --json``; a refusal leaves both as they were."""

from __future__ import annotations

import html
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlencode

import httpx
import pytest
import pytest_asyncio
from open_scenario import Command, in_process, ok, store_config

from bot import messages as M
from bot import web_messages as W
from bot.messages import translator
from bot.service import BotService, BotSettings
from bot.web import EntrySite
from tiebreak.store import SQLiteStore

ROUND_ROBIN = Path(__file__).resolve().parent / "data" / "open" / "rr-9.toml"  # xiangqi, 2/1/0, nine players
SWISS = Path(__file__).resolve().parent / "data" / "open" / "swiss-8.toml"  # chess
RESULTS = ["1-0", "1/2-1/2", "0-1", "+-", "--", "-+"]


class Page:
    """The entry site of one link, and the command line on the same store."""

    def __init__(self, cli: Command, store: SQLiteStore, client: httpx.AsyncClient, url: str, slug: str) -> None:
        self.cli, self.store, self.client, self.url, self.slug = cli, store, client, url, slug
        self.path = "/enter/" + url.rsplit("/", 1)[1]

    async def get(self, language: str = "en", path: str | None = None) -> httpx.Response:
        return await self.client.get(path or self.path, headers={"Accept-Language": language})

    async def post(self, form: dict[str, str], language: str = "en", path: str | None = None) -> httpx.Response:
        return await self.client.post(path or self.path, data=form, headers={"Accept-Language": language})

    async def tap(self, board: int, result: str, language: str = "en", correct: bool = False) -> httpx.Response:
        """Press ``result`` on ``board`` (its correction form when ``correct``) as a browser
        does, and follow the redirect."""
        form = forms(await self.get(language))[("result", board)]
        assert (form.get("previous") is not None) == correct
        return await self.follow(await self.post({**form, "result": result}, language), language)

    async def follow(self, response: httpx.Response, language: str = "en") -> httpx.Response:
        """The page a form's answer (a 303) sends the browser to."""
        assert response.status_code == 303, response.text
        return await self.client.get(response.headers["location"] if response.headers["location"].startswith("/")
                                     else self.path.rsplit("/", 1)[0] + "/" + response.headers["location"],
                                     headers={"Accept-Language": language})

    def log(self) -> list[dict]:
        return [json.loads(line) for line in ok(self.cli, "log", self.slug, "--json").splitlines()]

    def round(self, number: int = 1) -> dict[int, str | None]:
        data = json.loads(ok(self.cli, "round", self.slug, str(number), "--json"))
        return {board["board"]: board["result"] for board in data["boards"]}


def forms(response: httpx.Response) -> dict[tuple[str, int], dict[str, str]]:
    """Each form of the page by (action, board): its hidden fields."""
    found = {}
    for form in re.findall(r'<form method="post".*?</form>', response.text, re.S):
        fields = {name: html.unescape(value)
                  for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form)}
        found[(fields["action"], int(fields.get("board", 0)))] = fields
    return found


def buttons(response: httpx.Response, board: int) -> list[tuple[str, str]]:
    """(value, label) of each result button of ``board``'s form."""
    block = response.text.split(f'id="board-{board}"', 1)[1].split("</li>", 1)[0]
    return [(value, html.unescape(label)) for value, label in
            re.findall(r'<button type="submit" name="result" value="([^"]+)">([^<]+)</button>', block)]


def notice(response: httpx.Response) -> str:
    match = re.search(r'<div class="notice" role="status">(.*?)</div>', response.text, re.S)
    return html.unescape(re.sub(r"<[^>]+>|\s+", " ", match.group(1))).strip() if match else ""


async def opened(tmp_path: Path, tournament: Path, slug: str) -> AsyncIterator[Page]:
    config = store_config(tmp_path, '[web]\nlisten = "127.0.0.1:8080"\n')
    cli = in_process(config)
    ok(cli, "import", str(tournament))
    ok(cli, "pair", slug)
    url = ok(cli, "arbiter", "link", slug, "--label", "hall").strip()
    store = SQLiteStore(tmp_path / "data" / "store.sqlite3")
    site = EntrySite(BotService(store, BotSettings()))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=site.app()), base_url="http://entry.test") as client:
        yield Page(cli, store, client, url, slug)
    store.close()


@pytest_asyncio.fixture
async def page(tmp_path: Path) -> AsyncIterator[Page]:
    async for opened_page in opened(tmp_path, ROUND_ROBIN, "rr9"):
        yield opened_page


@pytest_asyncio.fixture
async def chess(tmp_path: Path) -> AsyncIterator[Page]:
    async for opened_page in opened(tmp_path, SWISS, "swiss8"):
        yield opened_page


# -- what the page shows --------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_every_open_board_is_a_form_of_result_buttons_with_a_csrf_token_and_its_own_key(page: Page) -> None:
    response = await page.get()
    assert response.status_code == 200
    assert "Round 1" in response.text and "Hội An Xiangqi Round Robin" in response.text
    boards = sorted(page.round())
    found = forms(response)
    assert sorted(board for action, board in found if action == "result") == boards
    assert [value for value, _ in buttons(response, boards[0])] == RESULTS
    keys = [form["key"] for form in found.values()]
    assert len(set(keys)) == len(keys) == len(boards) + 1  # the undo form too
    assert all(form["csrf"] for form in found.values())
    assert "<script" not in response.text
    assert response.headers["cache-control"] == "no-store" and response.headers["referrer-policy"] == "no-referrer"


@pytest.mark.asyncio
@pytest.mark.parametrize(("language", "words"), [
    ("zh-CN,zh;q=0.9", ["红胜 2-0", "和 1-1", "黑胜 0-2", "第1轮"]),
    ("en-GB", ["Red wins 2-0", "Draw 1-1", "Black wins 0-2", "Red wins by forfeit (+-)"]),
    ("fr-FR, vi;q=0.8", ["Đỏ thắng 2-0", "Hòa 1-1", "Đen thắng 0-2"]),
    ("es-ES", ["Ganan rojas 2-0", "Tablas 1-1", "Ganan negras 0-2"]),
])
async def test_buttons_speak_the_browsers_language_and_the_games_colour_words(page: Page, language: str,
                                                                            words: list[str]) -> None:
    response = await page.get(language)
    labels = [label for _, label in buttons(response, 1)] + [response.text]
    for word in words:
        assert any(word in label for label in labels), (word, labels[:6])
    assert 'lang="' + {"zh": "zh-Hans", "en": "en", "fr": "vi", "es": "es"}[language[:2]] + '"' in response.text


@pytest.mark.asyncio
@pytest.mark.parametrize(("asked", "html_lang"), [
    ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"), ("ZH", "zh-Hans"), ("zh_Hans", "zh-Hans"), ("vi-VN", "vi"),
    ("ES", "es"), ("en-US", "en"), ("fr", "vi"), ("", "vi"),
])
async def test_lang_in_the_address_is_read_as_the_bot_reads_a_language_tag(page: Page, asked: str,
                                                                           html_lang: str) -> None:
    """``?lang=`` names a language as ``/language`` and Telegram's language code do
    (``tiebreak.i18n.supported_language``): any case, any region; one Tiebreak does not speak
    leaves the browser's (here Vietnamese)."""
    response = await page.get("vi", page.path + "?" + urlencode({"lang": asked}))
    assert response.status_code == 200
    assert f'<html lang="{html_lang}">' in response.text


@pytest.mark.asyncio
async def test_a_chess_page_says_white_and_black(chess: Page) -> None:
    labels = [label for _, label in buttons(await chess.get(), 1)]
    assert labels[:3] == ["White wins 1-0", "Draw ½-½", "Black wins 0-1"]
    assert labels[3] == "White wins by forfeit (+-)"


# -- entering, correcting, undoing -----------------------------------------------------------------

@pytest.mark.asyncio
async def test_a_tap_records_the_result_as_the_link_and_the_page_says_so(page: Page) -> None:
    before = len(page.log())
    shown = await page.tap(1, "1-0", "vi")
    assert page.round()[1] == "1-0"
    entry = page.log()[-1]
    assert len(page.log()) == before + 1
    assert (entry["kind"], entry["actor"], entry["round"], entry["board"]) == ("result", "web:1", 1, 1)
    assert "Ván 1, bàn 1" in notice(shown) or "bàn 1" in notice(shown), notice(shown)
    assert forms(shown).get(("result", 1), {}).get("previous") == "1-0"  # now behind "Correct"
    submissions = page.store.submissions()
    assert submissions[-1]["text"] == "[web] R1 B1 1-0" and submissions[-1]["accepted"] == 1


@pytest.mark.asyncio
async def test_a_form_sent_twice_is_applied_once(page: Page) -> None:
    form = {**forms(await page.get())[("result", 2)], "result": "0-1"}
    first, second = await page.post(form), await page.post(form)
    assert first.status_code == second.status_code == 303
    assert first.headers["location"] == second.headers["location"]
    assert [e["kind"] for e in page.log()].count("result") == 1
    again = await page.client.get(page.path + "?" + second.headers["location"].split("?", 1)[1])
    assert "0-2" in notice(again)  # the first answer, shown again


@pytest.mark.asyncio
async def test_a_correction_replaces_the_result_and_undo_takes_it_back(page: Page) -> None:
    await page.tap(3, "1-0")
    corrected = await page.tap(3, "0-1", correct=True)
    assert page.round()[3] == "0-1"
    assert page.log()[-1]["kind"] == "correction" and page.log()[-1]["previous"] == "1-0"
    assert "corrected (was 2-0)" in notice(corrected)
    response = await page.post(forms(corrected)[("undo", 0)])
    assert response.status_code == 303
    shown = await page.client.get(page.path + "?" + response.headers["location"].split("?", 1)[1])
    assert page.round()[3] == "1-0"
    assert "Undone: round 1, board 3 0-2. The board now has 2-0." in notice(shown)


@pytest.mark.asyncio
async def test_undo_takes_back_only_the_links_own_changes(page: Page) -> None:
    ok(page.cli, "result", "rr9", "1", "4", "1-0")  # the chief arbiter, at the terminal
    response = await page.post(forms(await page.get("es"))[("undo", 0)], "es")
    shown = await page.client.get(page.path + "?" + response.headers["location"].split("?", 1)[1],
                                  headers={"Accept-Language": "es"})
    assert page.round()[4] == "1-0"
    assert notice(shown) == "No hay nada que deshacer."


@pytest.mark.asyncio
async def test_a_board_changed_meanwhile_is_not_overwritten(page: Page) -> None:
    stale = forms(await page.get())[("result", 1)]
    ok(page.cli, "result", "rr9", "1", "1", "0-1")  # another arbiter, meanwhile
    response = await page.post({**stale, "result": "1-0"})
    assert response.status_code == 303
    assert page.round()[1] == "0-1"
    again = await page.client.get(page.path + "?" + response.headers["location"].split("?", 1)[1])
    assert "already has 0-2" in notice(again)


@pytest.mark.asyncio
async def test_the_round_complete_is_said(page: Page) -> None:
    boards = sorted(page.round())
    for board in boards:
        shown = await page.tap(board, "1/2-1/2")
    assert "Round 1 is complete." in notice(shown)
    # round 2 is not paired: the current round stays the latest paired one (ranking.event.clock)
    assert "Round 1" in shown.text and shown.text.count("Result: 1-1") == len(boards)
    assert ("result", boards[0]) in forms(shown)  # each behind its "Correct" now


@pytest.mark.asyncio
async def test_a_core_refusal_is_worded_as_the_bot_words_it(page: Page) -> None:
    form = forms(await page.get("vi"))[("result", 1)]  # a page opened before the withdrawal
    ok(page.cli, "withdraw", "rr9", str(json.loads(ok(page.cli, "round", "rr9", "1", "--json"))["boards"][0]["white"]),
       "--after-round", "0")
    assert ("result", 1) not in forms(await page.get("vi"))  # the board is decided: no buttons now
    before = page.log()
    shown = await page.follow(await page.post({**form, "result": "1-0"}, "vi"), "vi")
    assert page.log() == before and page.round()[1] in (None, "-+")
    assert notice(shown).startswith(translator("vi").format(M.REQUEST_REFUSED, reason="").strip()), notice(shown)


# -- refusals -----------------------------------------------------------------------------------------

@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/enter/" + "x" * 43, "/enter/", "/enter", "/enter/short"])
async def test_a_wrong_or_missing_secret_gets_403_and_writes_nothing(page: Page, path: str) -> None:
    form = {**forms(await page.get())[("result", 1)], "result": "1-0"}
    before = page.log()
    assert (await page.get("zh", path)).status_code == 403
    response = await page.post(form, "zh", path)
    assert response.status_code == 403 and translator("zh").gettext(W.LINK_REFUSED_TITLE) in response.text
    assert page.log() == before and page.round()[1] is None
    assert "Hội An" not in response.text


@pytest.mark.asyncio
async def test_a_revoked_link_gets_403(page: Page) -> None:
    form = {**forms(await page.get())[("result", 1)], "result": "1-0"}
    ok(page.cli, "arbiter", "revoke", "rr9", "hall")
    assert (await page.get()).status_code == 403
    assert (await page.post(form)).status_code == 403
    assert page.round()[1] is None


@pytest.mark.asyncio
@pytest.mark.parametrize("token", ["", "123", "1.abc", "{now}.0000", "{old}.{signature}"])
async def test_a_form_without_a_valid_csrf_token_gets_403_and_writes_nothing(page: Page, token: str) -> None:
    form = {**forms(await page.get())[("result", 1)], "result": "1-0"}
    issued, signature = form["csrf"].split(".")
    form["csrf"] = token.format(now=issued, old=int(issued) - 2 * 24 * 3600, signature=signature)
    response = await page.post(form)
    assert response.status_code == 403 and "out of date" in response.text
    assert page.round()[1] is None


@pytest.mark.asyncio
async def test_another_links_token_is_refused(page: Page) -> None:
    other = ok(page.cli, "arbiter", "link", "rr9", "--label", "other").strip()
    theirs = forms(await page.client.get("/enter/" + other.rsplit("/", 1)[1]))[("result", 1)]
    form = {**forms(await page.get())[("result", 1)], "result": "1-0", "csrf": theirs["csrf"]}
    assert (await page.post(form)).status_code == 403
    assert page.round()[1] is None


@pytest.mark.asyncio
@pytest.mark.parametrize("change", [{"result": "2-1"}, {"round": "x"}, {"board": "-1"}, {"action": "delete"},
                                    {"key": "short"}, {"previous": "9-9"}, {"round": "99"}])
async def test_what_the_buttons_never_send_is_a_clear_message(page: Page, change: dict[str, str]) -> None:
    form = {**forms(await page.get("vi"))[("result", 1)], "result": "1-0", **change}
    response = await page.post(form, "vi")
    assert response.status_code in (303, 400)
    text = response.text if response.status_code == 400 else notice(
        await page.client.get(page.path + "?" + response.headers["location"].split("?", 1)[1],
                              headers={"Accept-Language": "vi"}))
    vi = translator("vi")
    said = [vi.gettext(W.BAD_FORM), vi.format(M.ROUND_NOT_PAIRED, round=99)]
    assert "Traceback" not in text and any(line in html.unescape(text) for line in said), text[:800]
    assert page.round()[1] is None


@pytest.mark.asyncio
async def test_an_oversized_or_foreign_body_is_400(page: Page) -> None:
    form = forms(await page.get())[("result", 1)]
    big = await page.client.post(page.path, content=b"a=" + b"x" * 10_000,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert big.status_code == 400
    as_json = await page.client.post(page.path, json={**form, "result": "1-0"})
    assert as_json.status_code == 400
    assert page.round()[1] is None


@pytest.mark.asyncio
async def test_names_are_escaped(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[storage]\npath = "s.sqlite3"\n[web]\nlisten = "127.0.0.1:8080"\n', encoding="utf-8")
    cli = in_process(config)
    ok(cli, "import", str(ROUND_ROBIN))
    ok(cli, "player", "rr9", "edit", "1", "--name", "<script>alert(1)</script> & Co")
    ok(cli, "pair", "rr9")
    url = ok(cli, "arbiter", "link", "rr9").strip()
    with SQLiteStore(tmp_path / "s.sqlite3") as store:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=EntrySite(BotService(store)).app()),
                                     base_url="http://entry.test") as client:
            text = (await client.get("/enter/" + url.rsplit("/", 1)[1])).text
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in text
