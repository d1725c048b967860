"""The results scenario, once, through every chat channel: Telegram (python-telegram-bot's real
stack against tests/fake_telegram.py) and Zalo (bot/zalo.py's httpx stack against
tests/fake_zalo.py).  Each test is parametrised over the channels; a ``Chat`` drives one the
way a user does (send text, choose a choice: tap a button, or answer its number) and reads the
replies as the user sees them (plain text)."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from fake_telegram import FakeTelegram, running
from fake_zalo import FakeZalo

from bot import messages as M
from bot import zalo
from bot.app import build_application
from bot.service import BotService
from ranking.event.log import EventKind
from tiebreak.store import SQLiteStore

TOKEN = "123456789:AAH-fake-token_for_tests"
ZALO_TOKEN = "3141592653589793238:zalo-FAKE-token-abcdefghijklmnop"
SLUG = "xq"
CHIEF = 1001  # conftest's chief arbiter (Telegram); on Zalo the user "z-chief" in [zalo].arbiters
HELP = M.translator("en").gettext(M.HELP_START)


def visible(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))


class TelegramChat:
    channel = "tg"

    def __init__(self, server: FakeTelegram) -> None:
        self.server = server

    def user(self, number: int) -> int:
        return number

    def actor(self, number: int) -> str:
        return f"tg:{number}"

    async def _settle(self, chat: int, before: int) -> list[dict[str, Any]]:
        self.server.push_update(self.server.command(chat, "help"))

        def answered(_calls: object) -> tuple[list[dict[str, Any]]] | None:
            sent = self.server.sent_messages(chat)[before:]
            index = next((i for i, message in enumerate(sent) if HELP in visible(message.get("text", ""))), None)
            return None if index is None else (sent[:index],)

        [earlier] = await self.server.wait_for_async(answered, 20)
        return earlier

    async def say(self, number: int, text: str) -> list[str]:
        before = len(self.server.sent_messages(number))
        if text.startswith("/"):
            name, _, words = text[1:].partition(" ")
            self.server.push_update(self.server.command(number, name, words))
        else:
            self.server.push_update(self.server.text_message(number, text))
        return [visible(message["text"]) for message in await self._settle(number, before)]

    def _keyboard(self, number: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        sent = self.server.sent_messages(number)
        message = next(m for m in reversed(sent) if m.get("reply_markup", {}).get("inline_keyboard"))
        return message, [b for row in message["reply_markup"]["inline_keyboard"] for b in row]

    def labels(self, number: int) -> list[str]:
        return [button["text"] for button in self._keyboard(number)[1]]

    async def choose(self, number: int, label: str) -> list[str]:
        sent = self.server.sent_messages(number)
        message, buttons = self._keyboard(number)
        button = next(b for b in buttons if b["text"] == label)
        before = len(sent)
        self.server.push_update(self.server.callback_query(number, button["callback_data"], message))
        return [visible(m["text"]) for m in await self._settle(number, before)]


class ZaloChat:
    channel = "zalo"

    def __init__(self, server: FakeZalo) -> None:
        self.server = server

    def user(self, number: int) -> str:
        return "z-chief" if number == CHIEF else f"z-{number}"

    def actor(self, number: int) -> str:
        return f"zalo:{self.user(number)}"

    async def say(self, number: int, text: str) -> list[str]:
        chat = self.user(number)
        before = len(self.server.texts(chat))
        self.server.push_text(chat, text)
        self.server.push_text(chat, "/help")

        def answered() -> list[str] | None:
            sent = self.server.texts(chat)[before:]
            index = next((i for i, message in enumerate(sent) if HELP in message), None)
            return None if index is None else sent[:index]

        return await self.server.wait_for_async(answered, f"the answer to {text!r}")

    def _choices(self, number: int) -> list[str]:
        last = next(text for text in reversed(self.server.texts(self.user(number))) if re.search(r"^1\. ", text, re.M))
        return [line.split(". ", 1)[1] for line in last.split("\n") if re.fullmatch(r"\d+\. .*", line)]

    def labels(self, number: int) -> list[str]:
        return self._choices(number)

    async def choose(self, number: int, label: str) -> list[str]:
        return await self.say(number, str(self._choices(number).index(label) + 1))


@asynccontextmanager
async def chat_on(channel: str, service: BotService, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    """The bot serving ``service`` on ``channel`` against its fake API, and a ``Chat`` with it."""
    if channel == "tg":
        with FakeTelegram(TOKEN) as server:
            async with running(build_application(TOKEN, service, base_url=server.url)) as errors:
                yield TelegramChat(server)
            assert errors == []
        return
    with FakeZalo(ZALO_TOKEN) as server:
        monkeypatch.setenv(zalo.API_BASE_URL_VARIABLE, server.url)
        stopping = asyncio.Event()
        task = asyncio.ensure_future(zalo.run(service, zalo.ZaloSettings(arbiters=("z-chief",)), ZALO_TOKEN,
                                              stopping))
        try:
            yield ZaloChat(server)
        finally:
            stopping.set()
            await asyncio.wait_for(task, 60)


CHANNELS = pytest.mark.parametrize("channel", ["tg", "zalo"])


def results(store: SQLiteStore) -> dict[int, str | None]:
    return {board: game.result.value if game.result else None
            for (number, board), game in store.state(SLUG).games.items() if number == 1}


@CHANNELS
@pytest.mark.asyncio
async def test_an_arbiter_runs_round_one(channel: str, service: BotService, store: SQLiteStore,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Results by text in four languages, by choices, a correction, an undo, a refusal, the
    standings: the same replies on every channel, the same events in the log with the channel's
    identity."""
    name = store.state(SLUG).base.name
    start = len(store.log(SLUG))  # the tournament and its round 1 (conftest)
    async with chat_on(channel, service, monkeypatch) as chat:
        [confirmation] = await chat.say(CHIEF, "R1 B1 1-0\n第1轮第2台 和\nván 1 bàn 4 đỏ thắng")
        assert confirmation.split("\n")[0] == name
        assert len(confirmation.split("\n")) == 4 and "board 2" in confirmation
        assert results(store) == {1: "1-0", 2: "1/2-1/2", 3: None, 4: "1-0", 5: None}

        [menu] = await chat.say(CHIEF, "/enter")
        assert menu.startswith("Round 1\nChoose a board")
        [board] = await chat.choose(CHIEF, next(label for label in chat.labels(CHIEF) if label.startswith("3")))
        assert "Choose the result" in board
        [confirm] = await chat.choose(CHIEF, next(label for label in chat.labels(CHIEF) if label.endswith("0-2")))
        assert confirm.startswith("Record round 1, board 3:")
        assert results(store)[3] is None
        done = await chat.choose(CHIEF, chat.labels(CHIEF)[0])  # confirm
        assert done[0].startswith(name) and "board 3" in done[0]
        assert results(store)[3] == "0-1"

        [question] = await chat.say(CHIEF, "R1 B1 0-1")
        assert "Replace 2-0 with 0-2?" in question
        [fixed] = await chat.choose(CHIEF, "Yes")
        assert "board 1" in fixed and results(store)[1] == "0-1"

        [undone] = await chat.say(CHIEF, "/undo")
        assert undone.startswith(name) and results(store)[1] == "1-0"

        before = len(store.log(SLUG))
        [refusal] = await chat.say(4004, "R1 B5 1-0")
        assert refusal == "Only arbiters can enter results."
        assert len(store.log(SLUG)) == before

        confirmation, completion = await chat.say(CHIEF, "R1 B5 0-1")
        assert completion.startswith(f"Round 1 is complete.\n{name}\nStandings after round 1")
        [standings] = await chat.say(4004, "/standings")
        assert standings.startswith(f"{name}\nStandings after round 1")
    assert set(results(store).values()) == {"1-0", "0-1", "1/2-1/2"}
    changes = store.log(SLUG)[start:]
    assert {entry.actor for entry in changes} == {chat.actor(CHIEF)}
    assert all(entry.message_id is not None and entry.chat_id is not None for entry in changes
               if entry.event.kind is EventKind.RESULT)
    strangers = [row for row in store.submissions() if str(row["chat_id"]) == str(chat.user(4004))]
    assert [(row["accepted"], row["rejected"], row["text"]) for row in strangers] == [(0, 1, "R1 B5 1-0")]

