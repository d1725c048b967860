"""The Zalo channel's own guarantees (bot/zalo.py) against the fake Zalo API (tests/fake_zalo.py):
numbered choices, the webhook's secret, a message delivered twice, replies over 2000
characters, 429s retried, and, through real ``python -m bot`` processes, a kill while a message
waits and the token never shown; plus the conversation at handler level (bot/conversation.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from bot_process import ROOT, BotProcess, free_port, write_config
from fake_zalo import FakeZalo, post_webhook
from test_bot_process import round_one

from bot import conversation, zalo
from bot import messages as M
from bot.service import BotService, Who
from tiebreak.store import CHANNEL_ID_BASE, SQLiteStore

TOKEN = "3141592653589793238:zalo-FAKE-token-abcdefghijklmnop"
SLUG = "xq"
CHIEF = "z-chief"
SECRET = "webhook-secret-for-tests"
XIANGQI = ROOT / "ranking" / "examples" / "xiangqi-rr.toml"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeZalo]:
    with FakeZalo(TOKEN) as fake:
        monkeypatch.setenv(zalo.API_BASE_URL_VARIABLE, fake.url)
        yield fake


@asynccontextmanager
async def serving(service: BotService, settings: zalo.ZaloSettings | None = None) -> AsyncIterator[None]:
    stopping = asyncio.Event()
    task = asyncio.ensure_future(zalo.run(service, settings or zalo.ZaloSettings(arbiters=(CHIEF,)), TOKEN, stopping))
    try:
        yield
    finally:
        stopping.set()
        await asyncio.wait_for(task, 60)


def results(store: SQLiteStore) -> dict[int, str | None]:
    return {board: game.result.value if game.result else None
            for (number, board), game in store.state(SLUG).games.items() if number == 1}


# -- numbered choices --------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_choices_are_numbered_and_answered_by_number(server: FakeZalo, service: BotService,
                                                           store: SQLiteStore) -> None:
    async with serving(service):
        server.push_text(CHIEF, "/enter")
        [menu] = await asyncio.to_thread(server.wait_for_texts, CHIEF, 1)
        lines = menu.split("\n")
        assert lines[:2] == ["Round 1", "Choose a board"]
        assert [line[:3] for line in lines[3:8]] == ["1. ", "2. ", "3. ", "4. ", "5. "]
        assert lines[-1] == "Answer with a number from 1 to 5."
        server.push_text(CHIEF, "4")
        texts = await asyncio.to_thread(server.wait_for_texts, CHIEF, 2)
        assert "Choose the result" in texts[1] and texts[1].split("\n")[-1].startswith("Answer with a number")
        draw = next(line for line in texts[1].split("\n") if "1-1" in line).split(".")[0]
        server.push_text(CHIEF, draw)
        texts = await asyncio.to_thread(server.wait_for_texts, CHIEF, 3)
        assert texts[2].startswith("Record round 1, board 4:")
        server.push_text(CHIEF, "1")  # Confirm
        await asyncio.to_thread(server.wait_for_texts, CHIEF, 4)
        assert results(store)[4] == "1/2-1/2"
        server.push_text(CHIEF, "99")  # not a number offered: read as a result line, refused in words
        texts = await asyncio.to_thread(server.wait_for_texts, CHIEF, 6)
    assert results(store)[4] == "1/2-1/2"
    assert "“99”: no result" in "\n".join(texts[4:])
    assert not any("<b>" in text or "&amp;" in text for text in texts)  # plain text, no markup


def test_a_number_is_a_choice_only_when_choices_were_offered(service: BotService, store: SQLiteStore) -> None:
    who = conversation.who_of(service, conversation.Incoming("zalo", "u1", "u1", "2"))
    assert conversation.chosen(service, who, "2") is None
    [menu] = conversation.respond(service, who, conversation.Incoming("zalo", "u1", "u1", "/language"))
    text = conversation.numbered(service, who, menu)
    assert "\n1. " in text and text.endswith(M.translator("en").format(M.ANSWER_BY_NUMBER, last=4))
    assert conversation.chosen(service, who, "2") == [button for row in menu.buttons for button in row][1].data
    assert conversation.chosen(service, who, "5") is None
    assert conversation.chosen(service, who, "x") is None


# -- the conversation, at handler level ------------------------------------------------------

def test_identity_is_per_channel(service: BotService, store: SQLiteStore) -> None:
    zalo_user = conversation.who_of(service, conversation.Incoming("zalo", "abc", "abc", "hi", "m1"))
    web_user = conversation.who_of(service, conversation.Incoming("web", "abc", "abc", "hi"))
    telegram = conversation.who_of(service, conversation.Incoming("tg", "42", "42", "hi"))
    assert zalo_user.user_id != web_user.user_id
    assert zalo_user.user_id <= -CHANNEL_ID_BASE and zalo_user.chat_id == zalo_user.user_id
    assert conversation.who_of(service, conversation.Incoming("zalo", "abc", "abc", "x")).user_id == zalo_user.user_id
    assert (telegram.user_id, telegram.actor) == (42, "tg:42")
    assert zalo_user.actor == "zalo:abc" and zalo_user.dedupe_key == "zalo-message:abc:m1"
    assert store.channel_address(zalo_user.user_id) == ("zalo", "abc")
    assert store.channel_address(42) is None


def test_commands_route_the_same_on_every_channel(service: BotService, store: SQLiteStore) -> None:
    stranger = Who(5005, 5005)
    for text in ("/standings", "/round 1", "/player 1", "/tournaments", "/STANDINGS@tiebreak_bot"):
        name, _, words = text[1:].partition(" ")
        expected = conversation.COMMANDS[name.split("@")[0].lower()](service, stranger, words)
        assert conversation.respond_to_text(service, stranger, text) == expected
    [unknown] = conversation.respond_to_text(service, stranger, "/frobnicate")
    assert "/frobnicate" in unknown.text
    [refusal] = conversation.respond_to_text(service, stranger, "R1 B1 1-0")
    assert refusal.text == "Only arbiters can enter results."
    [picture] = conversation.respond(service, stranger, conversation.Incoming("zalo", "p", "p", ""))
    assert picture.text == M.translator("en").gettext(M.NOT_UNDERSTOOD)


def test_a_long_reply_is_cut_at_2000_characters() -> None:
    text = "\n".join(f"line {number} " + "x" * 50 for number in range(200))
    pieces = conversation.split_text(text, zalo.TEXT_LIMIT)
    assert len(pieces) > 1 and all(1 <= len(piece) <= 2000 for piece in pieces)
    assert "\n".join(pieces) == text
    assert all(len(piece) <= 2000 for piece in conversation.split_text("许" * 4500, zalo.TEXT_LIMIT))


def test_zalo_settings_are_checked(tmp_path: Path) -> None:
    from ranking import InputError
    from tiebreak.config import load_config
    config = write_config(tmp_path, [XIANGQI], arbiters=[1], extra='[zalo]\narbiters = "me"')
    with pytest.raises(InputError, match=r"\[zalo\].arbiters"):
        zalo.ZaloSettings.from_config(load_config(str(config)))
    config = write_config(tmp_path, [XIANGQI], arbiters=[1], extra='[zalo]\narbiters = ["a1", 77]\nlanguage = "vi"')
    settings = zalo.ZaloSettings.from_config(load_config(str(config)))
    assert (settings.arbiters, settings.language, settings.webhook_url) == (("a1", "77"), "vi", None)


# -- delivery ----------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_a_message_delivered_twice_is_applied_once(server: FakeZalo, service: BotService,
                                                         store: SQLiteStore) -> None:
    async with serving(service):
        update = server.push_text(CHIEF, "R1 B2 1-0", message_id="dup-1")
        await asyncio.to_thread(server.wait_for_texts, CHIEF, 1)
        server.push(update)  # Zalo delivers it again
        server.push_text(CHIEF, "/help")
        texts = await asyncio.to_thread(server.wait_for_texts, CHIEF, 2)
    assert texts[1].startswith(M.translator("en").gettext(M.HELP_START)[:20])  # nothing in between
    assert results(store)[2] == "1-0"
    assert sum(entry.event.data.get("board") == 2 for entry in store.log(SLUG) if entry.event.kind == "result") == 1


@pytest.mark.asyncio
async def test_429_and_5xx_are_retried(server: FakeZalo, service: BotService, store: SQLiteStore,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zalo, "SEND_PAUSES", (0.05, 0.05, 0.05))
    monkeypatch.setattr(zalo, "BACKOFF", (0.05,))
    server.fail("getUpdates", 502, times=2)
    server.fail("sendMessage", 429, times=2, retry_after=0.2)
    async with serving(service):
        server.push_text(CHIEF, "R1 B3 0-1")
        [reply] = await asyncio.to_thread(server.wait_for_texts, CHIEF, 1)
    assert "board 3" in reply and results(store)[3] == "0-1"
    assert len(server.calls_to("sendMessage")) == 3


@pytest.mark.asyncio
async def test_an_answer_that_cannot_be_sent_goes_out_with_the_next(server: FakeZalo, service: BotService,
                                                                    store: SQLiteStore,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zalo, "SEND_PAUSES", (0.01,))
    server.fail("sendMessage", 503, times=2)
    async with serving(service):
        server.push_text(CHIEF, "R1 B1 1-0")
        await server.wait_for_async(lambda: len(server.calls_to("sendMessage")) >= 2, "two attempts")
        server.push_text(CHIEF, "/help")
        texts = await asyncio.to_thread(server.wait_for_texts, CHIEF, 1)
    assert "board 1" in texts[0] and results(store)[1] == "1-0"


# -- the webhook ---------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_the_webhook_needs_the_secret(server: FakeZalo, service: BotService, store: SQLiteStore,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/zalo/hook"
    monkeypatch.setenv(zalo.SECRET_VARIABLE, SECRET)
    settings = zalo.ZaloSettings(arbiters=(CHIEF,), webhook_url=url, webhook_port=port)
    log_before = len(store.log(SLUG))
    async with serving(service, settings):
        await server.wait_for_async(lambda: server.webhook, "setWebhook")
        assert server.webhook == {"url": url, "secret_token": SECRET}
        update = FakeZalo.update(CHIEF, "R1 B1 1-0", message_id="w1")
        for secret in (None, "wrong-secret", SECRET.upper(), ""):
            assert await asyncio.to_thread(post_webhook, url, update, secret) == 403
        assert len(store.log(SLUG)) == log_before and store.waiting("zalo") == [] and server.sent == []
        assert store.submissions() == []
        assert await asyncio.to_thread(post_webhook, url, {"not": "an update"}, SECRET) == 400
        assert await asyncio.to_thread(post_webhook, url, update, SECRET) == 200
        assert results(store)[1] == "1-0" and len(server.texts(CHIEF)) == 1  # answered before the 200
        assert await asyncio.to_thread(post_webhook, url, update, SECRET) == 200  # delivered again
    assert len(server.texts(CHIEF)) == 1 and len(store.log(SLUG)) == log_before + 1


# -- real processes ----------------------------------------------------------------------------

def zalo_process(config: Path, server: FakeZalo, **environment: str) -> BotProcess:
    return BotProcess(config, None, token="", base_url="",
                      environment={"TELEGRAM_BOT_TOKEN": "", zalo.TOKEN_VARIABLE: TOKEN,
                                   zalo.API_BASE_URL_VARIABLE: server.url, **environment})


def test_killed_while_a_message_waits_nothing_is_lost_or_applied_twice(server: FakeZalo, tmp_path: Path) -> None:
    config = write_config(tmp_path, [round_one(tmp_path)], arbiters=[1], extra=f'[zalo]\narbiters = ["{CHIEF}"]')
    bot = zalo_process(config, server)
    try:
        bot.start()
        server.hold_sends()  # the answer to the first message never gets through
        server.push_text(CHIEF, "R1 B1 1-0", message_id="k1")
        bot.wait_until(lambda: server.calls_to("sendMessage"), "the answer being sent")
        server.push_text(CHIEF, "R1 B2 0-1", message_id="k2")  # waits behind it, at the API
        bot.kill()
    finally:
        bot.close()
    server.release_sends()  # the answer the killed process was sending reaches nobody
    with SQLiteStore(tmp_path / "data" / "bot.sqlite3") as store:
        slug = store.slugs()[0]
        assert [row[0] for row in store.waiting("zalo")] != []  # "R1 B1 1-0" waits, handled
    again = zalo_process(config, server)
    try:
        again.start()
        again.wait_until(lambda: sum("board 2" in text for text in server.texts(CHIEF)) >= 1, "the waiting message")
        server.push_text(CHIEF, "/help")
        again.wait_until(lambda: any(text.startswith(M.translator("en").gettext(M.HELP_START)[:20])
                                     for text in server.texts(CHIEF)), "help")
        assert again.stop() == 0
    finally:
        again.close()
    with SQLiteStore(tmp_path / "data" / "bot.sqlite3") as store:
        games = store.state(slug).games
        assert (games[(1, 1)].result.value, games[(1, 2)].result.value) == ("1-0", "0-1")
        results_logged = [entry for entry in store.log(slug) if entry.event.kind == "result"]
        assert len(results_logged) == 2 and {entry.actor for entry in results_logged} == {f"zalo:{CHIEF}"}
        assert store.waiting("zalo") == []
    assert sum("board 1" in text for text in server.texts(CHIEF)) >= 1  # the answer went out after the restart
    for process in (bot, again):
        assert TOKEN not in "\n".join(process.lines) and TOKEN.split(":")[1] not in "\n".join(process.lines)


def test_the_token_is_never_shown(server: FakeZalo, tmp_path: Path) -> None:
    config = write_config(tmp_path, [XIANGQI], arbiters=[1])
    wrong = BotProcess(config, None, token="", base_url="",
                       environment={"TELEGRAM_BOT_TOKEN": "", zalo.TOKEN_VARIABLE: TOKEN + "x",
                                    zalo.API_BASE_URL_VARIABLE: server.url})
    try:
        wrong.start()
        assert wrong.wait() == 2
        output = "\n".join(wrong.lines)
        assert "refused the token" in output and "ZALO_BOT_TOKEN" in output
        assert TOKEN not in output and "zalo-FAKE-token" not in output
    finally:
        wrong.close()
    unreachable = BotProcess(config, None, token="", base_url="",
                             environment={"TELEGRAM_BOT_TOKEN": "", zalo.TOKEN_VARIABLE: TOKEN,
                                          zalo.API_BASE_URL_VARIABLE: f"http://127.0.0.1:{free_port()}"})
    try:
        unreachable.start()
        assert unreachable.wait() == 2
        output = "\n".join(unreachable.lines)
        assert "cannot reach the Zalo Bot API" in output and "zalo-FAKE-token" not in output
    finally:
        unreachable.close()
    json.dumps(server.calls)  # the fake saw the token in the URL only, never in a body
    assert all(TOKEN not in json.dumps(body) for _, body in server.calls)


def test_a_zalo_user_is_made_a_tournament_arbiter(service: BotService, store: SQLiteStore) -> None:
    chief = Who(1001, 1001)
    [added] = conversation.respond_to_text(service, chief, "/arbiters add zalo:helper-7")
    assert "zalo:helper-7" in added.text
    helper = conversation.who_of(service, conversation.Incoming("zalo", "helper-7", "helper-7", "R1 B1 1-0", "h1"))
    [recorded] = conversation.respond(service, helper, conversation.Incoming("zalo", "helper-7", "helper-7",
                                                                            "R1 B1 1-0", "h1"))
    assert "board 1" in recorded.text and results(store)[1] == "1-0"
    assert store.log(SLUG)[-1].actor == "zalo:helper-7"
    [listed] = conversation.respond_to_text(service, chief, "/arbiters")
    assert "1001" in listed.text and "zalo:helper-7" in listed.text


def test_the_programs_the_bot_starts_never_get_the_zalo_token() -> None:
    from tiebreak.library import child_environment
    environment = child_environment({"ZALO_BOT_TOKEN": TOKEN, "ZALO_WEBHOOK_SECRET": SECRET,
                                     "TELEGRAM_BOT_TOKEN": "1:x", "PATH": "/usr/bin"})
    assert environment == {"PATH": "/usr/bin"}


def test_a_refused_group_message_is_recorded_with_its_zalo_sender(service: BotService, store: SQLiteStore) -> None:
    """The submissions say who sent each message on every channel: a stranger's result in a Zalo
    group is kept with the stranger's Zalo id, the group's as its chat."""
    incoming = conversation.Incoming("zalo", "stranger-9", "group-3", "R1 B1 1-0", "g1", private=False)
    who = conversation.who_of(service, incoming)
    conversation.respond(service, who, incoming)
    [row] = store.submissions()
    assert row["detail"] == "not an arbiter" and row["accepted"] == 0
    assert (row["user_id"], row["chat_id"], row["message_id"]) == ("stranger-9", "group-3", "g1")
    assert results(store)[1] != "1-0"
