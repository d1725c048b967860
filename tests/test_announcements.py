"""A complete round is announced on every channel's announcement chat, once, whichever way its
last result came in (bot/announcements.py): a Telegram message, a Zalo message or the entry
page's form.  Telegram (python-telegram-bot's real stack against tests/fake_telegram.py) and Zalo
(bot/zalo.py's httpx stack against tests/fake_zalo.py) run together as ``python -m bot`` runs
them, each registered in ``BotService.channels``; then the same through a real ``python -m bot``
process with both tokens and ``[web]``, the form posted over HTTP."""

from __future__ import annotations

import asyncio
import html
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from bot_process import BotProcess, free_port, write_config
from fake_telegram import FakeTelegram, running
from fake_zalo import FakeZalo
from test_bot_process import round_one
from test_entry_page import forms

from bot import entering, messages, zalo
from bot import running as running_commands
from bot.app import build_application
from bot.replies import Reply
from bot.service import TELEGRAM, BotService, BotSettings, Who
from bot.web import EntrySite
from tiebreak.config import load_config
from tiebreak.files import load_tournament
from tiebreak.links import PATH, secret_hash
from tiebreak.store import Source, SQLiteStore

TOKEN = "123456789:AAH-fake-token_for_tests"
ZALO_TOKEN = "3141592653589793238:zalo-FAKE-token-abcdefghijklmnop"
XIANGQI = Path(__file__).resolve().parent.parent / "ranking" / "examples" / "xiangqi-rr.toml"
SLUG = "xq"
CHIEF = 1001  # a chief arbiter on Telegram; on Zalo "z-chief" ([zalo].arbiters)
TELEGRAM_CHANNEL = "@results"  # [bot].channel, in [bot].language (Spanish)
ZALO_GROUP = "g-results"  # [zalo].channel, in [zalo].language (Vietnamese)
SPANISH = messages.translator("es").format(messages.ROUND_COMPLETE, round=1)
VIETNAMESE = messages.translator("vi").format(messages.ROUND_COMPLETE, round=1)
HELP = messages.translator("en").gettext(messages.HELP_START)
HELP_VI = messages.translator("vi").gettext(messages.HELP_START)  # [zalo].language


def visible(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def telegram_posts(server: FakeTelegram) -> list[str]:
    """What the bot sent to the channel (the calls as made: the fake gives ``@results`` a number)."""
    return [visible(call["text"]) for call in server.calls_to("sendMessage") if call["chat_id"] == TELEGRAM_CHANNEL]


def zalo_posts(server: FakeZalo) -> list[str]:
    return server.texts(ZALO_GROUP)


def posted_once(telegram: FakeTelegram, zalo_server: FakeZalo) -> None:
    """Round 1's standings reached each announcement chat, in its language, once."""
    [spanish] = [text for text in telegram_posts(telegram) if text.startswith(SPANISH)]
    assert "Clasificación tras la ronda 1" in spanish
    [vietnamese] = [text for text in zalo_posts(zalo_server) if text.startswith(VIETNAMESE)]
    assert len(vietnamese.splitlines()) > 10  # the standings' rows follow
    assert len(telegram_posts(telegram)) == 1 and len(zalo_posts(zalo_server)) == 1


@pytest.fixture
def service(store: SQLiteStore) -> BotService:
    """The xiangqi round robin (conftest's store), round 1 paired, boards 1-4 with a result:
    board 5 completes it; ``[bot].channel`` set, in Spanish."""
    store.create(SLUG, replace(load_tournament(XIANGQI), games=()), Source("cli:test"))
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF}), channel=TELEGRAM_CHANNEL, language="es"))
    running_commands.pair(service, Who(CHIEF, CHIEF))
    entering.text(service, Who(CHIEF, CHIEF), "R1 B1 1-0\nR1 B2 0-1\nR1 B3 1/2\nR1 B4 1-0")
    return service


@asynccontextmanager
async def both_channels(service: BotService, monkeypatch: pytest.MonkeyPatch
                        ) -> AsyncIterator[tuple[FakeTelegram, FakeZalo]]:
    """Telegram and Zalo serving ``service`` in this process, each against its fake API."""
    with FakeTelegram(TOKEN) as telegram, FakeZalo(ZALO_TOKEN) as zalo_server:
        monkeypatch.setenv(zalo.API_BASE_URL_VARIABLE, zalo_server.url)
        settings = zalo.ZaloSettings(arbiters=("z-chief",), language="vi", channel=ZALO_GROUP)
        async with running(build_application(TOKEN, service, base_url=telegram.url)) as errors:
            stopping = asyncio.Event()
            task = asyncio.ensure_future(zalo.run(service, settings, ZALO_TOKEN, stopping))
            try:
                await zalo_server.wait_for_async(lambda: zalo.CHANNEL in service.announcements, "Zalo started")
                yield telegram, zalo_server
            finally:
                stopping.set()
                await asyncio.wait_for(task, 60)
        assert errors == []
    assert zalo.CHANNEL not in service.announcements  # a stopped channel announces nothing more


async def answered_on_telegram(telegram: FakeTelegram, text: str) -> None:
    """Send ``text`` as the chief arbiter, then /help, and wait for help's answer: every reply
    to ``text`` (and what it led to for other chats) was sent before it."""
    before = len(telegram.sent_messages(CHIEF))
    telegram.push_update(telegram.text_message(CHIEF, text))
    telegram.push_update(telegram.command(CHIEF, "help"))
    await telegram.wait_for_async(
        lambda _calls: any(HELP in visible(m.get("text", "")) for m in telegram.sent_messages(CHIEF)[before:]), 30)


async def answered_on_zalo(zalo_server: FakeZalo, text: str) -> None:
    before = len(zalo_server.texts("z-chief"))
    zalo_server.push_text("z-chief", text)
    zalo_server.push_text("z-chief", "/help")
    await zalo_server.wait_for_async(lambda: any(HELP_VI in sent for sent in zalo_server.texts("z-chief")[before:]),
                                     f"the answer to {text!r}", 30)


async def entered_on_the_page(service: BotService, board: int, result: str) -> httpx.Response:
    """Tap ``result`` on ``board`` of a new link's entry page (httpx over ASGI, in this loop)."""
    secret = secrets.token_urlsafe(24)
    service.store.add_link(SLUG, "hall", secret_hash(secret), "cli:test")
    app = EntrySite(service).app()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://entry.test") as client:
        page = await client.get(PATH + secret)
        form = forms(page)[("result", board)]
        return await client.post(PATH + secret, data={**form, "result": result})


@pytest.mark.asyncio
@pytest.mark.parametrize("entry", ["telegram", "zalo", "page"])
async def test_a_round_completed_anywhere_is_announced_on_every_channel_once(
        entry: str, service: BotService, store: SQLiteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    async with both_channels(service, monkeypatch) as (telegram, zalo_server):
        assert set(service.channels) == {TELEGRAM, zalo.CHANNEL}
        if entry == "telegram":
            await answered_on_telegram(telegram, "R1 B5 0-1")
        elif entry == "zalo":
            await answered_on_zalo(zalo_server, "R1 B5 0-1")
        else:
            response = await entered_on_the_page(service, 5, "0-1")
            assert response.status_code == 303
        assert 1 in store.state(SLUG).clock().complete
        await telegram.wait_for_async(lambda _calls: telegram_posts(telegram), 30)
        await zalo_server.wait_for_async(lambda: zalo_posts(zalo_server), "the post to the Zalo group", 30)
        await answered_on_zalo(zalo_server, "/standings")  # whatever the round's end led to went out before
        await answered_on_telegram(telegram, "/standings")
        posted_once(telegram, zalo_server)


@pytest.mark.asyncio
async def test_the_page_answers_while_a_slow_channel_still_posts(service: BotService) -> None:
    """The arbiter's tap is answered at once: the round's announcement goes out beside the answer,
    not before it (a channel that is down retries for tens of seconds), and ``posted`` waits for it."""
    sent: list[Reply] = []
    release = asyncio.Event()

    async def slow_telegram(reply: Reply) -> None:
        await release.wait()
        sent.append(reply)

    service.channels[TELEGRAM] = slow_telegram
    secret = secrets.token_urlsafe(24)
    service.store.add_link(SLUG, "hall", secret_hash(secret), "cli:test")
    site = EntrySite(service)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=site.app()), base_url="http://entry.test") as client:
        form = {**forms(await client.get(PATH + secret))[("result", 5)], "result": "0-1"}
        response = await asyncio.wait_for(client.post(PATH + secret, data=form), 10)
    assert response.status_code == 303 and 1 in service.store.state(SLUG).clock().complete
    assert sent == [] and len(site.posting) == 1  # the post is still under way
    release.set()
    await asyncio.wait_for(site.posted(), 10)
    [post] = sent
    assert post.chat_id == TELEGRAM_CHANNEL and visible(post.text).startswith(SPANISH)
    assert site.posting == set()


@pytest.mark.asyncio
async def test_a_form_sent_twice_announces_once(service: BotService, monkeypatch: pytest.MonkeyPatch) -> None:
    async with both_channels(service, monkeypatch) as (telegram, zalo_server):
        secret = secrets.token_urlsafe(24)
        service.store.add_link(SLUG, "hall", secret_hash(secret), "cli:test")
        site = EntrySite(service)
        transport = httpx.ASGITransport(app=site.app())
        async with httpx.AsyncClient(transport=transport, base_url="http://entry.test") as client:
            form = {**forms(await client.get(PATH + secret))[("result", 5)], "result": "0-1"}
            assert (await client.post(PATH + secret, data=form)).status_code == 303
            assert (await client.post(PATH + secret, data=form)).status_code == 303  # a double tap
        await site.posted()
        await answered_on_telegram(telegram, "/standings")
        await answered_on_zalo(zalo_server, "/standings")
        posted_once(telegram, zalo_server)


def test_zalo_channel_setting_is_read_and_checked(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[zalo]\nchannel = "g-1"\n', encoding="utf-8")
    assert zalo.ZaloSettings.from_config(load_config(str(config))).channel == "g-1"
    for wrong in ("true", '""', "[1]"):
        config.write_text(f"[zalo]\nchannel = {wrong}\n", encoding="utf-8")
        with pytest.raises(Exception, match=r"\[zalo\]\.channel"):
            zalo.ZaloSettings.from_config(load_config(str(config)))


# -- a real process -----------------------------------------------------------------------------

def test_a_round_completed_on_the_entry_page_is_posted_to_telegram_and_zalo(tmp_path: Path) -> None:
    """``python -m bot`` with both tokens and ``[web]``: the last board's form, posted over HTTP,
    completes round 1; the standings reach the Telegram channel and the Zalo group, once."""
    port = free_port()
    extra = (f'channel = "{TELEGRAM_CHANNEL}"\nlanguage = "es"\n[zalo]\narbiters = ["z-chief"]\n'
             f'channel = "{ZALO_GROUP}"\nlanguage = "vi"\n[web]\nlisten = "127.0.0.1:{port}"')
    config = write_config(tmp_path, [round_one(tmp_path)], arbiters=[CHIEF], extra=extra)
    with FakeTelegram(TOKEN) as telegram, FakeZalo(ZALO_TOKEN) as zalo_server:
        bot = BotProcess(config, telegram, environment={zalo.TOKEN_VARIABLE: ZALO_TOKEN,
                                                        zalo.API_BASE_URL_VARIABLE: zalo_server.url})
        try:
            bot.start()
            bot.wait_for_output("serving the entry page")
            bot.wait_for_output("zalo: connected")
            with SQLiteStore(tmp_path / "data" / "bot.sqlite3") as store:
                [slug] = store.slugs()
                secret = secrets.token_urlsafe(24)
                store.add_link(slug, "hall", secret_hash(secret), "cli:test")
                boards = sorted(board for number, board in store.state(slug).games if number == 1)
            url = f"http://127.0.0.1:{port}{PATH}{secret}"
            with httpx.Client(timeout=30, headers={"Accept-Language": "en"}) as client:
                for board in boards:
                    form = {**forms(client.get(url))[("result", board)], "result": "1-0"}
                    answer = client.post(url, data=form)
                    assert answer.status_code == 303, answer.text
                again = client.post(url, data=form)  # the last form sent again: applied once
                assert again.status_code == 303
                assert "Round 1 is complete." in client.get(url + "?" + again.headers["location"].split("?")[1]).text
            bot.wait_until(lambda: telegram_posts(telegram) and zalo_posts(zalo_server), "the two posts")
            telegram.push_update(telegram.command(CHIEF, "help"))  # one more round trip on each channel
            zalo_server.push_text("z-chief", "/help")
            bot.wait_until(lambda: telegram.sent_messages(CHIEF) and zalo_server.texts("z-chief"), "help")
            assert bot.stop() == 0
        finally:
            bot.close()
        posted_once(telegram, zalo_server)
