"""The bot at the edges a hostile trial found (issue 21): ``/export`` and ``/arbiters`` answer
the arbiters only; a button of an archived tournament is refused like one of no tournament,
without its name; a result never goes into a tournament its sender did not choose.  Commands
are called as the handlers call them, against a real store; what needs the network runs
through python-telegram-bot against the fake Bot API server (tests/fake_telegram.py)."""

from __future__ import annotations

import html
import itertools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cli
import pytest
from conftest import CHIEF, SLUG, XIANGQI
from fake_telegram import FakeTelegram, running

from bot import arbiters, entering, players, tournament_files
from bot import messages as M
from bot.app import build_application
from bot.formatting import escape
from bot.handlers import press
from bot.messages import translator
from bot.replies import Reply
from bot.service import BotService, Who
from ranking.event.log import Event, EventKind
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

TOKEN = "123456789:AAH-fake-token_for_tests"
PLAYER, STRANGER = 2002, 3003
EN = translator("en")
SECRET = "secret"  # the other tournament, archived in these tests
SECRET_NAME = "Closed Invitational of the Federation"
_ids = itertools.count(1)


def who(user: int) -> Who:
    number = next(_ids)
    return Who(user, user, "en", message_id=number, update_id=number)


def text_of(replies: Sequence[Reply]) -> str:
    return "\n".join(reply.text for reply in replies)


@pytest.fixture
def secret(service: BotService, store: SQLiteStore) -> int:
    """A second tournament, round 1 paired as in ``service``'s; its button key."""
    paired = store.tournament(SLUG)
    store.create(SECRET, replace(load_tournament(XIANGQI), name=SECRET_NAME, games=paired.games), Source("cli:test"))
    return store.tournament_key(SECRET)


def archive(store: SQLiteStore, slug: str) -> None:
    store.append(slug, lambda state: [Event(EventKind.ARCHIVED)], Source("cli:test"))


def results(store: SQLiteStore, slug: str) -> list[str | None]:
    return [game.result.value if game.result else None for game in store.state(slug).games.values()]


# -- /export and /arbiters -----------------------------------------------------------------------------


def test_export_and_the_arbiters_ids_are_for_the_arbiters_only(service: BotService, store: SQLiteStore) -> None:
    refused = EN.gettext(M.ARBITERS_ONLY)
    for user in (PLAYER, STRANGER):
        assert text_of(tournament_files.export(service, who(user))) == refused
        listing = text_of(arbiters.arbiters(service, who(user), ""))
        assert listing == refused and str(CHIEF) not in listing
    exported = tournament_files.export(service, who(CHIEF))
    assert [reply.document.file_name for reply in exported] == [f"{SLUG}.trf", f"{SLUG}.toml"]
    assert text_of(arbiters.arbiters(service, who(CHIEF), "")) == f"Arbiters of {SLUG}: {CHIEF}"
    assert [row["detail"] for row in store.submissions()] == ["not an arbiter"] * 4  # recorded attempts


# -- archived tournaments' buttons, and never guessing the tournament ---------------------------------


def test_a_button_of_an_archived_tournament_is_refused_without_its_name(service: BotService, store: SQLiteStore,
                                                                         secret: int) -> None:
    archive(store, SECRET)
    for data in (f"sel|{secret}", f"eb|{secret}|1|1", f"ec|{secret}|1|1|1-0", f"menu|{secret}"):
        for user in (STRANGER, CHIEF):
            replies = press(service, who(user), data)
            assert text_of(replies) == escape(EN.gettext(M.NO_SUCH_TOURNAMENT)), data
            assert SECRET_NAME not in text_of(replies)
    assert store.user(STRANGER).tournament is None and store.user(CHIEF).tournament is None
    assert results(store, SECRET) == [None] * 5


def test_a_result_is_not_put_into_a_tournament_the_arbiter_did_not_choose(service: BotService,
                                                                           store: SQLiteStore, secret: int) -> None:
    archive(store, SECRET)
    press(service, who(CHIEF), f"sel|{secret}")  # a stale button: refused
    replies = entering.text(service, who(CHIEF), "R1 B1 1-0")
    assert text_of(replies) == escape(EN.gettext(M.NO_TOURNAMENT_SELECTED))
    assert results(store, SLUG) == [None] * 5 and results(store, SECRET) == [None] * 5
    assert store.submissions()[-1]["detail"] == "no tournament"
    # The only visible tournament is still shown to players without a choice, as before.
    assert "Round 1" in text_of(players.round(service, who(PLAYER)))
    press(service, who(CHIEF), f"sel|{store.tournament_key(SLUG)}")  # chosen: now it goes in
    assert "recorded" in text_of(entering.text(service, who(CHIEF), "R1 B1 1-0"))
    assert results(store, SLUG)[0] == "1-0"


def test_a_choice_that_was_archived_is_not_replaced_by_a_guess(service: BotService, store: SQLiteStore,
                                                                secret: int) -> None:
    press(service, who(CHIEF), f"sel|{secret}")
    assert store.user(CHIEF).tournament == SECRET
    archive(store, SECRET)
    for replies in (entering.text(service, who(CHIEF), "R1 B2 0-1"), entering.enter(service, who(CHIEF))):
        assert text_of(replies) == escape(EN.gettext(M.NO_TOURNAMENT_SELECTED))
    assert results(store, SLUG) == [None] * 5 and results(store, SECRET) == [None] * 5


def test_with_one_tournament_in_the_store_an_arbiter_need_not_choose(service: BotService,
                                                                     store: SQLiteStore) -> None:
    assert "recorded" in text_of(entering.text(service, who(CHIEF), "R1 B3 1-0"))


@pytest.mark.asyncio
async def test_a_stale_selection_button_through_telegram_shows_no_name(tmp_path: Path) -> None:
    with FakeTelegram(TOKEN) as server, SQLiteStore(tmp_path / "bot.sqlite3") as store:
        store.create("open", load_tournament(XIANGQI), Source("cli:test"))
        store.create(SECRET, replace(load_tournament(XIANGQI), name=SECRET_NAME), Source("cli:test"))
        service = BotService(store)
        async with running(build_application(TOKEN, service, base_url=server.url)) as errors:
            server.push_update(server.command(STRANGER, "tournaments"))
            listing = await server.wait_for_message_async(STRANGER)
            archive(store, SECRET)  # meanwhile
            [_, stale] = [button for row in listing["reply_markup"]["inline_keyboard"] for button in row]
            server.push_update(server.callback_query(STRANGER, stale["callback_data"], listing))
            edited = await server.wait_for_call_async("editMessageText")
        assert errors == []
        assert edited["text"] == escape(EN.gettext(M.NO_SUCH_TOURNAMENT))
        assert all(SECRET_NAME not in message.get("text", "") for message in server.sent_messages(STRANGER)[1:])
        assert store.user(STRANGER).tournament is None


# -- the token in the logs -----------------------------------------------------------------------------


def test_the_token_never_reaches_the_log_in_any_case_or_encoding() -> None:
    import io
    import logging

    from bot.app import protect_logs

    token = "987654321:AAF-Secret_Token-Value"
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        protect_logs(token)
        log = logging.getLogger("telegram.ext.test")
        log.error("Bad Request: token %s is invalid", token.lower())  # as python-telegram-bot may lower it
        log.error("NetworkError: POST https://api.telegram.org/bot%s/getUpdates", token.upper())
        log.error("httpx: GET https://api.telegram.org/file/bot%s/documents/file_1.trf",
                  token.replace(":", "%3A").swapcase())
        log.error("a path with a mangled token: https://bot.example/bot%s/x?offset=3", token[:-3].lower() + "zzz")
        try:
            raise RuntimeError(f"failed: {token.swapcase()}")
        except RuntimeError:
            log.exception("with a traceback")
    finally:
        root.removeHandler(handler)
    written = stream.getvalue()
    for part in (token, token.partition(":")[2], "secret_token", "Secret_Token-Val"):
        assert part.lower() not in written.lower()
    assert written.count("https://api.telegram.org/<path>") == 2
    assert "https://bot.example/<path>" in written and "<token>" in written


# -- contradictory messages and bidi controls ----------------------------------------------------------


@pytest.mark.parametrize("message", ["R1 B1 1-0; R1 B1 0-1", "R1 B2 1-0\nR1 B1 1-0\nR1 B1 0-1",
                                     "R1 B1 1-0\nR1 B1 1-0 foul black"])
def test_a_message_that_gives_one_board_two_results_records_nothing(service: BotService, store: SQLiteStore,
                                                                   message: str) -> None:
    replies = entering.text(service, who(CHIEF), message)
    assert results(store, SLUG) == [None] * 5
    shown = text_of(replies)
    assert escape(EN.gettext(M.PROBLEMS_HEADER)) in shown
    assert "gives this board another result: nothing of this message was recorded" in shown
    [row] = store.submissions()
    assert (row["accepted"], row["rejected"]) == (0, 1)


def test_the_same_result_twice_is_recorded_once(service: BotService, store: SQLiteStore) -> None:
    shown = text_of(entering.text(service, who(CHIEF), "R1 B1 1-0; R1 B1 1-0\nR1 B2 0-1"))
    assert results(store, SLUG)[:2] == ["1-0", "0-1"]
    assert "this board is already on line 1" in shown


@pytest.mark.parametrize("control", ["\u202e", "\u202d", "\u2066", "\u2067", "\u200f", "\u061c"])
def test_a_result_line_with_a_bidi_control_is_refused(service: BotService, store: SQLiteStore,
                                                      control: str) -> None:
    replies = entering.text(service, who(CHIEF), f"R1 B3 {control}0-1\nR1 B4 1-0")
    assert results(store, SLUG)[2:4] == [None, "1-0"]  # the other line is entered
    shown = text_of(replies)
    assert f"Line 1 “R1 B3 0-1”: the line holds an invisible text-direction character (U+{ord(control):04X})" in \
        html.unescape(shown)
    assert control not in shown


def test_the_command_line_does_not_read_a_result_with_a_bidi_control(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[storage]\npath = "store.sqlite3"\n', encoding="utf-8")
    imported = cli.tiebreak("import", XIANGQI, "--slug", "xq", cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    result = cli.tiebreak("result", "xq", "1", "1", "\u202e0-1", "--correct", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    with SQLiteStore(tmp_path / "store.sqlite3") as store:
        assert store.state("xq").games[(1, 1)].result.value == "1-0"  # as imported


# -- a file whose size is declared nowhere ------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_file_of_undeclared_size_is_read_only_up_to_the_limit(tmp_path: Path) -> None:
    from bot.service import BotSettings

    big = (XIANGQI.read_bytes() + b"\n# padding\n" * 3_000_000)  # about 33 MB, a TOML file all the same
    small = XIANGQI.read_bytes()
    with FakeTelegram(TOKEN) as server, SQLiteStore(tmp_path / "bot.sqlite3") as store:
        service = BotService(store, BotSettings(arbiters=frozenset({CHIEF}), max_upload_bytes=1024 * 1024))
        big_id = server.add_file(big, "big.toml", hide_size=True)
        small_id = server.add_file(small, "small.toml", hide_size=True)
        async with running(build_application(TOKEN, service, base_url=server.url)) as errors:
            update = server.document_message(CHIEF, big_id, caption="/import big")
            assert "file_size" not in update["message"]["document"]
            server.push_update(update)
            refused = await server.wait_for_message_async(CHIEF, timeout=60)
            server.push_update(server.document_message(CHIEF, small_id, caption="/import small"))
            imported = await server.wait_for_message_async(CHIEF, count=2, timeout=60)
        assert errors == []
        assert refused["text"] == EN.format(M.FILE_OVER_LIMIT, limit="1")
        assert imported["text"].startswith("Imported ")
        assert store.slugs() == ["small"]
        [first, second] = server.calls_to("download")
        assert first["sent"] < 8 * 1024 * 1024 < len(big)  # stopped a little past 1 MB (and the socket's buffers)
        assert second["sent"] == len(small)
        assert [row["detail"] for row in store.submissions()] == ["file too large"]
