"""The bot end to end: ``bot.app.build_application`` with python-telegram-bot's real network
stack (HTTPXRequest, long polling, AIORateLimiter) against the fake Bot API server on 127.0.0.1
(tests/fake_telegram.py), and a real SQLite store."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_telegram import FakeTelegram, running
from telegram.ext import Application

from bot import entering
from bot import messages as M
from bot.app import API_BASE_URL_VARIABLE, MENU, build_application
from bot.formatting import MESSAGE_LIMIT, escape
from bot.service import BotService, Who
from ranking.event.log import EventKind
from ranking.event.model import Result
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.tomlfile import parse_tournament_toml
from ranking.formats.trf_read import parse_trf
from ranking.scoring.spelling import written_result
from ranking.standings.individual import default_rules
from tiebreak.files import load_tournament
from tiebreak.store import SQLiteStore

TOKEN = "123456789:AAH-fake-token_for_tests"
ROOT = Path(__file__).resolve().parent.parent
XIANGQI = ROOT / "ranking" / "examples" / "xiangqi-rr.toml"
CHIEF = 1001
PLAYER = 2002
STRANGER = 3003
SLUG = "xq"
# PTB 22 warns about RetryAfter.retry_after becoming a timedelta (opt in with PTB_TIMEDELTA=1).
ignore_retry_after_deprecation = pytest.mark.filterwarnings("ignore:.*retry_after.*:DeprecationWarning")


@pytest.fixture
def server() -> Iterator[FakeTelegram]:
    with FakeTelegram(TOKEN) as fake:
        yield fake


def bot(server: FakeTelegram, service: BotService) -> Application:
    return build_application(TOKEN, service, base_url=server.url)


async def exchange(server: FakeTelegram, update: dict[str, Any], chat_id: int, replies: int = 1,
                   timeout: float = 10) -> list[dict[str, Any]]:
    """Push ``update`` and return the ``replies`` messages the bot sent or edited in ``chat_id``."""
    before = len(server.sent_messages(chat_id))
    server.push_update(update)
    await server.wait_for_message_async(chat_id, count=before + replies, timeout=timeout)
    return server.sent_messages(chat_id)[before:before + replies]


async def settle(server: FakeTelegram, chat_id: int, timeout: float = 10) -> list[dict[str, Any]]:
    """Everything the bot sends in ``chat_id`` until it answers a /help pushed now: updates are
    handled one at a time, so whatever the earlier ones send comes before that answer."""
    before = len(server.sent_messages(chat_id))
    server.push_update(server.command(chat_id, "help"))
    marker = escape(M.translator("en").gettext(M.HELP_START))

    def answered(_calls: object) -> tuple[list[dict[str, Any]]] | None:
        sent = server.sent_messages(chat_id)[before:]
        index = next((i for i, message in enumerate(sent) if marker in message.get("text", "")), None)
        return None if index is None else (sent[:index],)

    [earlier] = await server.wait_for_async(answered, timeout)
    return earlier


def keyboard(message: dict[str, Any]) -> list[dict[str, str]]:
    return [button for row in message.get("reply_markup", {}).get("inline_keyboard", []) for button in row]


def visible(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def named(store: SQLiteStore, *lines: str) -> str:
    """A confirmation of a change: the tournament's name first, bold (issue 20), then ``lines``."""
    return "\n".join([f"<b>{escape(store.state(SLUG).base.name)}</b>", *lines])


def recorded(store: SQLiteStore, board: int, result: str, message: str = M.RESULT_RECORDED, **extra: object) -> str:
    """The confirmation of ``result`` (as stored), in the event's own points (issue 14.1)."""
    state = store.state(SLUG)
    game = state.games[(1, board)]
    players = {player.id: player.name for player in state.base.players}
    scoring = default_rules(state.base).scoring
    extra = {key: written_result(Result(value), scoring) if key == "previous" else value
             for key, value in extra.items()}
    return escape(M.translator("en").format(message, round=1, board=board, white=players[game.white],
                                            black=players[game.black],
                                            result=written_result(Result(result), scoring), **extra))


def results(store: SQLiteStore) -> dict[int, str | None]:
    return {board: game.result.value if game.result else None
            for (number, board), game in store.state(SLUG).games.items() if number == 1}


# -- the scenarios ---------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_arbiter_enters_a_round_by_text(server: FakeTelegram, service: BotService, store: SQLiteStore) -> None:
    async with running(bot(server, service)) as errors:
        assert server.commands == [{"command": name, "description": text} for name, text in MENU]
        round_one = "R1 B1 1-0\nR1 B2 0-1\n第1轮第3台 和\nván 1 bàn 4 đỏ thắng"
        [reply] = await exchange(server, server.text_message(CHIEF, round_one), CHIEF)
        assert reply["method"] == "sendMessage"
        assert reply["parse_mode"] == "HTML"
        assert reply["text"] == named(store, recorded(store, 1, "1-0"), recorded(store, 2, "0-1"),
                                      recorded(store, 3, "1/2-1/2"), recorded(store, 4, "1-0"))
        assert results(store) == {1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1-0", 5: None}

        confirmation, completion = await exchange(server, server.text_message(CHIEF, "ronda 1 tablero 5 negras ganan"),
                                                  CHIEF, replies=2)
        assert confirmation["text"] == named(store, recorded(store, 5, "0-1"))
        assert completion["text"].startswith("Round 1 is complete.\n<b>Hanoi–Hangzhou Xiangqi Invitational 2026</b>"
                                             "\nStandings after round 1\n<pre>")
        assert await settle(server, CHIEF) == []
    assert errors == []
    log = store.log(SLUG)
    assert [entry.event.kind for entry in log].count(EventKind.RESULT) == 5
    assert {(entry.actor, entry.chat_id) for entry in log if entry.event.kind is EventKind.RESULT} == {
        (f"tg:{CHIEF}", CHIEF)}


@pytest.mark.asyncio
async def test_arbiter_enters_a_result_by_taps(server: FakeTelegram, service: BotService, store: SQLiteStore) -> None:
    async with running(bot(server, service)) as errors:
        [menu] = await exchange(server, server.command(CHIEF, "enter"), CHIEF)
        assert menu["text"] == "Round 1\nChoose a board"
        boards = keyboard(menu)
        assert len(boards) == 5

        [choose] = await exchange(server, server.callback_query(CHIEF, boards[2]["callback_data"], menu), CHIEF)
        assert (choose["method"], choose["message_id"]) == ("editMessageText", menu["message_id"])
        assert choose["text"].endswith("\nChoose the result")
        draw = next(button for button in keyboard(choose) if button["text"] == "Draw 1-1")

        [confirm] = await exchange(server, server.callback_query(CHIEF, draw["callback_data"], menu), CHIEF)
        assert (confirm["method"], confirm["message_id"]) == ("editMessageText", menu["message_id"])
        assert confirm["text"].startswith("Record round 1, board 3:")
        assert results(store)[3] is None
        [yes, _back] = keyboard(confirm)

        done, next_menu = await exchange(server, server.callback_query(CHIEF, yes["callback_data"], menu), CHIEF, 2)
        assert (done["method"], done["message_id"]) == ("editMessageText", menu["message_id"])
        assert done["text"] == named(store, recorded(store, 3, "1/2-1/2"))
        assert "reply_markup" not in done  # the keyboard is gone from the confirmed message
        assert next_menu["method"] == "sendMessage"
        assert [button["text"][:1] for button in keyboard(next_menu)] == ["1", "2", "4", "5"]
    assert errors == []
    assert results(store)[3] == "1/2-1/2"
    assert len(server.calls_to("answerCallbackQuery")) == 3
    assert all(len(b["callback_data"].encode()) <= 64 for m in server.sent_messages() for b in keyboard(m))


@pytest.mark.asyncio
async def test_arbiter_corrects_a_result_with_the_yes_button(server: FakeTelegram, service: BotService,
                                                             store: SQLiteStore) -> None:
    async with running(bot(server, service)) as errors:
        await exchange(server, server.text_message(CHIEF, "R1 B2 1-0"), CHIEF)
        [question] = await exchange(server, server.text_message(CHIEF, "R1 B2 0-1"), CHIEF)
        assert question["text"].endswith("\nReplace 2-0 with 0-2?")
        assert [button["text"] for button in keyboard(question)] == ["Yes", "No"]
        assert results(store)[2] == "1-0"

        [fixed] = await exchange(server, server.callback_query(CHIEF, keyboard(question)[0]["callback_data"],
                                                               question), CHIEF)
        assert (fixed["method"], fixed["message_id"]) == ("editMessageText", question["message_id"])
        assert fixed["text"] == named(store, recorded(store, 2, "0-1", M.RESULT_CORRECTED, previous="1-0"))
    assert errors == []
    assert results(store)[2] == "0-1"
    assert [entry.event.kind for entry in store.log(SLUG)][-2:] == [EventKind.RESULT, EventKind.CORRECTION]


@pytest.mark.asyncio
async def test_a_player_reads_the_standings(server: FakeTelegram, service: BotService, store: SQLiteStore) -> None:
    entering.text(service, Who(CHIEF, CHIEF), "R1 B1 1-0\nR1 B2 0-1")
    async with running(bot(server, service)) as errors:
        [standings] = await exchange(server, server.command(PLAYER, "standings"), PLAYER)
        assert standings["parse_mode"] == "HTML"
        assert standings["text"].startswith("<b>Hanoi–Hangzhou Xiangqi Invitational 2026</b>\n"
                                            "Standings after round 1\n<pre>")
        table = visible(standings["text"]).split("\n")[3:]
        assert {table[0].split()[1], table[1].split()[1]} == {"王天一", "蒋川"}
        [chinese] = await exchange(server, server.command(PLAYER + 1, "standings", language_code="zh-hans"),
                                   PLAYER + 1)
        assert "第1轮后排名" in chinese["text"]
    assert errors == []


@pytest.mark.asyncio
async def test_an_unauthorised_result_is_refused_and_nothing_is_stored(server: FakeTelegram, service: BotService,
                                                                       store: SQLiteStore) -> None:
    before = len(store.log(SLUG))
    async with running(bot(server, service)) as errors:
        [refusal] = await exchange(server, server.text_message(STRANGER, "R1 B2 1-0"), STRANGER)
        assert refusal["text"] == "Only arbiters can enter results."
        [group] = await exchange(server, server.text_message(STRANGER, "R1 B3 0-1", chat_id=-100123), -100123)
        assert group["text"] == "Only arbiters can enter results."
    assert errors == []
    assert len(store.log(SLUG)) == before
    assert set(results(store).values()) == {None}
    rows = store.submissions()
    assert [(row["user_id"], row["chat_id"], row["accepted"], row["rejected"]) for row in rows] == [
        (STRANGER, STRANGER, 0, 1), (STRANGER, -100123, 0, 1)]
    assert all(row["message_id"] and row["update_id"] for row in rows)


@pytest.mark.asyncio
async def test_a_duplicated_update_is_applied_once(server: FakeTelegram, service: BotService,
                                                   store: SQLiteStore) -> None:
    before = len(store.log(SLUG))
    async with running(bot(server, service)) as errors:
        update = server.text_message(CHIEF, "R1 B2 1-0")
        [reply] = await exchange(server, update, CHIEF)
        assert reply["text"] == named(store, recorded(store, 2, "1-0"))
        server.redeliver(update["update_id"])
        again = await settle(server, CHIEF)  # answered like the first, not applied again
        assert [message["text"] for message in again] == [reply["text"]]
    assert errors == []
    assert len(store.log(SLUG)) == before + 1
    assert len(store.submissions()) == 1


@pytest.mark.asyncio
async def test_a_duplicated_button_press_is_applied_once(server: FakeTelegram, service: BotService,
                                                         store: SQLiteStore) -> None:
    """Telegram redelivers an update the bot did not confirm (e.g. it restarted mid-update); the
    callback query is answered already (or too old by then): answerCallbackQuery fails with 400.
    That must not turn into "Something went wrong", nor stop the press from being handled."""
    key = store.tournament_key(SLUG)
    async with running(bot(server, service)) as errors:
        [menu] = await exchange(server, server.command(CHIEF, "enter"), CHIEF)
        press = server.callback_query(CHIEF, f"ec|{key}|1|4|1-0", menu)
        done, _menu = await exchange(server, press, CHIEF, replies=2)
        assert done["text"] == named(store, recorded(store, 4, "1-0"))
        server.redeliver(press["update_id"])
        extra = await settle(server, CHIEF)
    assert results(store)[4] == "1-0"
    assert [entry.event.kind for entry in store.log(SLUG)].count(EventKind.RESULT) == 1
    # answered like the first: the same edit (Telegram refuses it: "not modified") and the menu again
    assert [message["text"] for message in extra] == ["Round 1\nChoose a board"]
    assert errors == []


@ignore_retry_after_deprecation
@pytest.mark.asyncio
async def test_a_429_is_retried(server: FakeTelegram, service: BotService) -> None:
    async with running(bot(server, service)) as errors:
        server.fail_next("sendMessage", 429, retry_after=1)
        attempts = len(server.calls_to("sendMessage"))
        started = time.monotonic()
        [standings] = await exchange(server, server.command(PLAYER, "standings"), PLAYER)
        elapsed = time.monotonic() - started
        assert "Standings after round" in standings["text"]
        assert len(server.calls_to("sendMessage")) == attempts + 2  # the refused attempt and the retry
        assert elapsed >= 1.0  # it waited as long as the server asked
        [after] = await exchange(server, server.command(PLAYER, "round"), PLAYER)
        assert "Round 1" in after["text"]
    assert errors == []
    assert len(server.sent_messages(PLAYER)) == 2


@pytest.mark.asyncio
async def test_a_4000_line_message_is_answered_without_crashing(server: FakeTelegram, service: BotService,
                                                                store: SQLiteStore) -> None:
    lines = ["R1 B1 1-0", "R1 B2 0-1"]
    lines += [f"R1 B{1 + number % 2} {'1-0' if number % 2 == 0 else '0-1'}" for number in range(1, 999)]
    lines += [f"R1 B{number} 1-0" for number in range(6, 2006)]  # no such board
    lines += ["# a remark", "", "hello", "R1 B3 2-1"] * 250
    assert len(lines) == 4000
    async with running(bot(server, service)) as errors:
        started = time.monotonic()
        server.push_update(server.text_message(CHIEF, "\n".join(lines)))
        replies = await settle(server, CHIEF)
        elapsed = time.monotonic() - started
        assert replies, "no answer"
        assert all(len(reply["text"]) <= MESSAGE_LIMIT for reply in replies)
        shown = "\n".join(visible(reply["text"]) for reply in replies)
        assert shown.startswith("Hanoi–Hangzhou Xiangqi Invitational 2026\n"
                                "Round 1, board 1: 王天一 – Nguyễn Hoàng Lâm 2-0 recorded\n")
        assert "Line 3000 “R1 B2005 1-0”: Round 1 has no board 2005" in shown
        assert shown.count("this board is already on line") == 998
        # It still answers the next message.
        [reply] = await exchange(server, server.text_message(CHIEF, "R1 B3 1-0"), CHIEF)
        assert reply["text"] == named(store, recorded(store, 3, "1-0"))
    assert errors == []
    assert elapsed < 10
    assert results(store) == {1: "1-0", 2: "0-1", 3: "1-0", 4: None, 5: None}


@pytest.mark.asyncio
async def test_import_a_document_and_export_it_back(server: FakeTelegram, service: BotService,
                                                    store: SQLiteStore) -> None:
    file_id = server.add_file(XIANGQI.read_bytes(), "xiangqi-rr.toml")
    async with running(bot(server, service)) as errors:
        [imported] = await exchange(server, server.document_message(CHIEF, file_id, caption="/import hanoi"), CHIEF)
        assert imported["text"] == ("Imported Hanoi–Hangzhou Xiangqi Invitational 2026 as hanoi; players: 10\n"
                                    "Your selected tournament is now Hanoi–Hangzhou Xiangqi Invitational 2026: your "
                                    "commands act on it (/tournaments changes it).")
        assert server.calls_to("getFile") == [{"file_id": file_id}]
        assert [call["file_path"] for call in server.calls_to("download")] == ["documents/file_1.toml"]

        trf, toml = await exchange(server, server.command(CHIEF, "export"), CHIEF, replies=2)
        assert [trf["method"], toml["method"]] == ["sendDocument", "sendDocument"]
        assert (trf["file_name"], toml["file_name"]) == ("hanoi.trf", "hanoi.toml")
        assert toml["caption"] == "Hanoi–Hangzhou Xiangqi Invitational 2026, TOML file"
        assert len(parse_trf(trf["content"].decode("utf-8")).players) == 10
        assert parse_tournament_toml(toml["content"].decode("utf-8")) == load_tournament(XIANGQI)

        # The exported file, sent back, imports as it was.
        back = server.document_message(CHIEF, toml["file_id"], caption="/import copy")
        [again] = await exchange(server, back, CHIEF)
        assert again["text"].startswith("Imported Hanoi–Hangzhou Xiangqi Invitational 2026 as copy; players: 10\n"
                                        "Your selected tournament is now")
        [refused] = await exchange(server, server.document_message(STRANGER, file_id, caption="/import x"), STRANGER)
        assert refused["text"] == "Only the arbiters named in the bot's configuration can do this."
    assert errors == []
    assert store.slugs() == [SLUG, "hanoi", "copy"]
    assert write_tournament_toml(store.tournament("copy")) == write_tournament_toml(store.tournament("hanoi"))
    assert len(server.calls_to("getFile")) == 2  # the stranger's file is refused before it is downloaded


@pytest.mark.asyncio
async def test_export_sends_two_documents(server: FakeTelegram, service: BotService, store: SQLiteStore) -> None:
    entering.text(service, Who(CHIEF, CHIEF), "R1 B1 1-0")
    async with running(bot(server, service)) as errors:
        trf, toml = await exchange(server, server.command(CHIEF, "export"), CHIEF, replies=2)
    assert errors == []
    assert [message["method"] for message in server.sent_messages(CHIEF)] == ["sendDocument", "sendDocument"]
    assert (trf["file_name"], toml["file_name"]) == (f"{SLUG}.trf", f"{SLUG}.toml")
    exported = parse_tournament_toml(toml["content"].decode("utf-8"))
    assert [(g.board, g.result) for g in exported.games if g.result] == [(1, Result.WHITE_WINS)]
    assert server.file_content(trf["file_id"]) == trf["content"]


@pytest.mark.asyncio
async def test_the_api_base_url_comes_from_the_environment(server: FakeTelegram, service: BotService,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(API_BASE_URL_VARIABLE, server.url)
    application = build_application(TOKEN, service)
    assert application.bot.base_url == f"{server.url}/bot{TOKEN}"
    async with running(application) as errors:
        [reply] = await exchange(server, server.command(PLAYER, "start", SLUG, language_code="es"), PLAYER)
        assert reply["text"].startswith("Torneo: <b>Hanoi–Hangzhou Xiangqi Invitational 2026</b>")
    assert errors == []
    assert server.calls[0][0] == "getMe"
