"""The bot under hostile input and a failing network (issue 10: items 5, 6, 7, 15, 16, 17):
a stale "Replace?" button, files checked before they are downloaded, refused attempts
recorded, forged callback data and Unicode digits, an update delivered twice, a confirmation
lost to the network, and names that break Telegram's limits.  Commands are called as the
handlers call them, against a real store; what needs the network runs against the fake Bot API
server (tests/fake_telegram.py)."""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from fake_telegram import FakeTelegram, running

from bot import answers, arbiters, entering, players, tournament_files
from bot import messages as M
from bot.app import build_application
from bot.callbacks import BUTTON_TEXT_LIMIT
from bot.formatting import MESSAGE_LIMIT, escape, pack, utf16_length
from bot.handlers import press
from bot.messages import translator
from bot.replies import Reply
from bot.running import pair, undo, withdraw
from bot.service import BotService, BotSettings, Who
from ranking.event.log import EventKind, result_event
from ranking.event.model import Player
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
XIANGQI = ROOT / "ranking" / "examples" / "xiangqi-rr.toml"
TOKEN = "123456789:AAH-fake-token_for_tests"
CHIEF, STRANGER = 1001, 3003
SLUG = "xq"
EN = translator("en")
_ids = itertools.count(1)


def who(user: int, chat: int | None = None, text: str | None = None) -> Who:
    number = next(_ids)
    return Who(user, user if chat is None else chat, "en", message_id=number, update_id=number, text=text)


def text_of(replies: Sequence[Reply]) -> str:
    return "\n".join(reply.text for reply in replies)


def buttons(reply: Reply) -> list:
    return [button for row in reply.buttons for button in row]


def result_of(store: SQLiteStore, board: int) -> str | None:
    game = store.state(SLUG).games[(1, board)]
    return game.result.value if game.result else None


# -- item 5: a stale "Replace X with Y?" ------------------------------------------------------


def test_a_stale_replace_button_never_overwrites_a_newer_correction(service: BotService, store: SQLiteStore) -> None:
    entering.text(service, who(CHIEF), "R1 B2 1-0")
    [question] = entering.text(service, who(CHIEF), "R1 B2 0-1")
    yes = buttons(question)[0]
    # Meanwhile someone else corrects the board from the command line.
    store.append(SLUG, lambda state: [result_event(state, 1, 2, "1/2-1/2", correct=True)], Source("cli:other"))
    [again] = press(service, who(CHIEF), yes.data)
    assert result_of(store, 2) == "1/2-1/2"  # not overwritten
    state = store.state(SLUG)
    names = {player.id: player.name for player in state.base.players}
    game = state.games[(1, 2)]
    assert again.text == escape(EN.format(M.CHANGED_MEANWHILE, round=1, board=2, white=names[game.white],
                                          black=names[game.black], old="1-1")  # the event's 2/1/0 points
                                + "\n" + EN.format(M.CONFIRM_REPLACE, old="1-1", new="0-2"))
    [yes_now, _no] = buttons(again)
    assert yes_now.data.endswith("|0-1|1/2-1/2")
    press(service, who(CHIEF), yes_now.data)  # asked again and answered: now it is replaced
    assert result_of(store, 2) == "0-1"
    assert [entry.event.kind for entry in store.log(SLUG)].count(EventKind.CORRECTION) == 2


def test_a_replace_button_whose_result_was_taken_back_is_refused(service: BotService, store: SQLiteStore) -> None:
    entering.text(service, who(CHIEF), "R1 B3 1-0")
    [question] = entering.text(service, who(CHIEF), "R1 B3 0-1")
    assert text_of(undo(service, who(CHIEF))).split("\n")[1].startswith("Undone")
    replies = press(service, who(CHIEF), buttons(question)[0].data)
    assert result_of(store, 3) is None
    assert "no longer has 2-0 (changed meanwhile)" in html.unescape(text_of(replies))  # in 2/1/0 points


def test_a_replace_button_of_an_older_version_asks_again(service: BotService, store: SQLiteStore) -> None:
    entering.text(service, who(CHIEF), "R1 B4 1-0")
    key = store.tournament_key(SLUG)
    [again] = press(service, who(CHIEF), f"fix|{key}|1|4|0-1")  # without the result it replaces
    assert result_of(store, 4) == "1-0"
    assert buttons(again)[0].data == f"fix|{key}|1|4|0-1|1-0"


# -- item 6: a file is checked before it is downloaded -------------------------------------------


@pytest.mark.asyncio
async def test_files_are_checked_before_they_are_downloaded(tmp_path: Path) -> None:
    content = XIANGQI.read_bytes()
    with FakeTelegram(TOKEN) as server, SQLiteStore(tmp_path / "bot.sqlite3") as store:
        settings = BotSettings(arbiters=frozenset({CHIEF}), max_upload_bytes=len(content) - 1)
        service = BotService(store, settings)
        file_id = server.add_file(content, "xiangqi-rr.toml")
        async with running(build_application(TOKEN, service, base_url=server.url)) as errors:
            server.push_update(server.document_message(STRANGER, file_id, caption="/import hanoi"))
            refused = await server.wait_for_message_async(STRANGER)
            assert refused["text"] == EN.gettext(M.CHIEF_ONLY)
            server.push_update(server.document_message(CHIEF, file_id, caption="/import hanoi"))
            too_large = await server.wait_for_message_async(CHIEF)
            assert too_large["text"].startswith("The file is too large (")
            assert server.calls_to("getFile") == [] and server.calls_to("download") == []
            service.settings = replace(settings, max_upload_bytes=len(content))
            server.push_update(server.document_message(CHIEF, file_id, caption="/import hanoi"))
            imported = await server.wait_for_message_async(CHIEF, count=2)
            assert imported["text"].startswith("Imported ")
        assert errors == []
        assert len(server.calls_to("download")) == 1
        assert store.slugs() == ["hanoi"]
        assert [(row["user_id"], row["detail"]) for row in store.submissions()] == [
            (STRANGER, "not a chief arbiter"), (CHIEF, "file too large")]


# -- item 7: refused privileged attempts are recorded ---------------------------------------------


def test_every_refused_privileged_attempt_is_recorded(service: BotService, store: SQLiteStore) -> None:
    before = len(store.submissions())
    attempts = [
        (tournament_files.import_file, ("x.toml", XIANGQI.read_bytes()), "/import", "not a chief arbiter"),
        (arbiters.arbiters, (f"add {STRANGER}",), f"/arbiters add {STRANGER}", "not an arbiter"),
        (arbiters.arbiters, ("",), "/arbiters", "not an arbiter"),
        (tournament_files.export, (), "/export", "not an arbiter"),
        (withdraw, ("3",), "/withdraw 3", "not an arbiter"),
        (pair, (), "/pair", "not an arbiter"),
        (undo, (), "/undo", "not an arbiter"),
        (entering.playoff_result, ("1 2 1-0",), "/playoff 1 2 1-0", "not an arbiter"),
    ]
    asked = []
    for command, args, text, _ in attempts:
        stranger = who(STRANGER, text=text)
        asked.append(stranger)
        command(service, stranger, *args)
    rows = store.submissions()[before:]
    assert [(row["user_id"], row["update_id"], row["text"], row["accepted"], row["rejected"], row["detail"])
            for row in rows] == [(STRANGER, stranger.update_id, text, 0, 1, reason)
                                 for stranger, (_, _, text, reason) in zip(asked, attempts, strict=True)]
    assert all(row["tournament"] == SLUG for row in rows[1:])


# -- item 15: forged callback data, Unicode digits, an update delivered twice -----------------------


@pytest.mark.parametrize("data", ["sel|999", "sel|abc", "sel|", "sel|1|2", "eb|1|1", "eb|1|x|2", "eb|1|²|2",
                                  "ec|1|1|1", "ec|1|1|1|", "fix|1|1|1|1-0|1-0|x", "keep|1|1", "menu|-1",
                                  "lang|", "lang|xx", "zz|1", "", "|", "eb|99999|1|1", "ec|99999|1|1|1-0",
                                  "ec|1|99|99|1-0", "ec|1|1|1|9-9"])
def test_forged_callback_data_gets_a_clear_reply(service: BotService, store: SQLiteStore, data: str) -> None:
    before = store.log(SLUG)
    replies = press(service, who(CHIEF), data)
    shown = html.unescape(text_of(replies))
    assert shown in (EN.gettext(M.NOT_UNDERSTOOD), EN.gettext(M.NO_SUCH_TOURNAMENT)) or \
        shown.startswith("Round 1 has no board") or "Round 99 has no board" in shown, shown
    assert store.log(SLUG) == before


def test_unicode_digits_are_not_numbers(service: BotService, store: SQLiteStore) -> None:
    assert text_of(arbiters.arbiters(service, who(CHIEF), "add ²")) == escape(EN.gettext(M.ARBITERS_USAGE))
    assert text_of(entering.playoff_result(service, who(CHIEF), "² 1 1-0")) == escape(EN.gettext(M.PLAYOFF_USAGE))
    assert text_of(withdraw(service, who(CHIEF), "²")) == escape(EN.format(M.PLAYER_NOT_FOUND, query="²"))
    assert text_of(players.player(service, who(CHIEF), "²")) == escape(EN.format(M.PLAYER_NOT_FOUND, query="²"))
    assert text_of(players.iam(service, who(CHIEF), "²")) == escape(EN.format(M.PLAYER_NOT_FOUND, query="²"))


def test_a_withdraw_delivered_twice_is_answered_like_the_first(service: BotService, store: SQLiteStore) -> None:
    update = who(CHIEF, text="/withdraw 3")
    first = answers.answer_once(service, update, withdraw, "3")
    second = answers.answer_once(service, update, withdraw, "3")
    assert text_of(first.replies).split("\n")[1].startswith("Player 3, ") and second.replies == first.replies
    assert [entry.event.kind for entry in store.log(SLUG)].count(EventKind.WITHDRAWAL) == 1
    # Even without the saved answer (the bot killed between storing and answering) it is no error.
    assert text_of(withdraw(service, update, "3")) == text_of(first.replies)


def test_an_update_applied_but_never_answered_is_told_what_it_recorded(service: BotService,
                                                                       store: SQLiteStore) -> None:
    update = who(CHIEF, text="R1 B5 1-0\nR1 B4 0-1")
    [first] = entering.text(service, update, "R1 B5 1-0\nR1 B4 0-1")  # stored; the answer was not saved
    again = answers.answer_once(service, update, entering.text, "R1 B5 1-0\nR1 B4 0-1")
    assert text_of(again.replies) == first.text  # read back from the log
    assert [entry.event.kind for entry in store.log(SLUG)].count(EventKind.RESULT) == 2
    assert text_of(answers.answer_once(service, who(CHIEF), players.start).replies)  # an ordinary update
    pressed = who(CHIEF, text="/withdraw 3")
    withdraw(service, pressed, "3")
    [said] = answers.answer_once(service, pressed, withdraw, "3").replies
    assert said.text == escape(EN.gettext(M.ALREADY_HANDLED))  # nothing to read back: handled before


@pytest.mark.parametrize(("user", "text", "expected"), [
    (STRANGER, "R1 B5 1-0", lambda: EN.gettext(M.ARBITERS_ONLY)),
    (CHIEF, "R1 B99 1-0", lambda: "Round 1 has no board 99"),
])
def test_an_update_refused_but_never_answered_is_refused_again_and_recorded_once(
        service: BotService, store: SQLiteStore, user: int, text: str, expected) -> None:
    update = who(user, text=text)
    before, log = len(store.submissions()), store.log(SLUG)
    [first] = entering.text(service, update, text)  # refused and recorded; the answer was not saved
    again = answers.answer_once(service, update, entering.text, text)  # Telegram delivers it again
    assert html.unescape(text_of(again.replies)) == html.unescape(first.text)
    assert expected() in html.unescape(first.text)
    assert [row["update_id"] for row in store.submissions()[before:]] == [update.update_id]
    assert store.log(SLUG) == log  # nothing applied


# -- item 16: a confirmation lost to the network ------------------------------------------------------


@pytest.mark.asyncio
async def test_a_confirmation_lost_to_the_network_is_retried_then_sent_with_the_next_reply(
        service: BotService, store: SQLiteStore) -> None:
    with FakeTelegram(TOKEN) as server:
        async with running(build_application(TOKEN, service, base_url=server.url)) as errors:
            server.fail_next("sendMessage", 502, times=2)  # two failed attempts, the third one passes
            server.push_update(server.text_message(CHIEF, "R1 B1 1-0"))
            first = await server.wait_for_message_async(CHIEF)
            assert first["text"].endswith(" 2-0 recorded")  # the event's 2/1/0 points
            server.fail_next("sendMessage", 502, times=len(answers.RETRY_PAUSES) + 1)  # every attempt fails
            server.push_update(server.text_message(CHIEF, "R1 B2 0-1"))
            server.push_update(server.text_message(CHIEF, "R1 B3 1-0"))
            earlier, now = [await server.wait_for_message_async(CHIEF, count=count) for count in (2, 3)]
        assert errors == []
    assert result_of(store, 2) == "0-1" and result_of(store, 3) == "1-0"
    assert earlier["text"].startswith(escape(EN.gettext(M.EARLIER_ANSWER)) + "\n")
    assert earlier["text"].endswith(" 0-2 recorded") and now["text"].endswith(" 2-0 recorded")
    shown = [message["text"] for message in server.sent_messages(CHIEF)]
    assert not any("went wrong" in text for text in shown)
    assert store.unsent_answers(CHIEF) == []


def test_no_message_says_the_arbiters_were_told() -> None:
    for code in ("en", "zh", "vi", "es"):
        assert "arbiters have been told" not in translator(code).gettext(M.INTERNAL_ERROR)
    assert "arbiters have been told" not in "".join(
        value for name, value in vars(M).items() if name.isupper() and isinstance(value, str))


# -- item 17: Telegram's limits, counted as Telegram counts -------------------------------------------


def test_pack_never_cuts_inside_a_tag_and_counts_utf16(service: BotService) -> None:
    for block in ["<b>" + "&amp;" * 3000 + "</b>", "🏆" * 3000, "<b>" + "名" * 5000 + "</b>\n" + "x" * 5000]:
        messages = pack([block])
        assert len(messages) > 1
        for message in messages:
            assert utf16_length(message) <= MESSAGE_LIMIT
            assert message.count("<b>") == message.count("</b>")
            assert not re.search(r"<[^>]*$|&[#\w]*$", message)
        assert "".join(re.sub(r"</?b>", "", message) for message in messages).replace("\n", "") == \
            re.sub(r"</?b>", "", block).replace("\n", "")


def test_very_long_names_stay_within_telegrams_limits(tmp_path: Path) -> None:
    long = "Nguyễn 🏆 " * 600  # far beyond any limit, stored before import capped names
    tournament = load_tournament(XIANGQI)
    tournament = replace(tournament, name=long, players=tuple(
        replace(player, name=long) if player.id == 1 else player for player in tournament.players))
    with SQLiteStore(tmp_path / "bot.sqlite3") as store:
        store.create("long", tournament, Source("cli:test"))
        service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
        iam = players.iam(service, who(CHIEF), "1")
        replies = [*iam, *players.tournaments(service, who(CHIEF)), *players.standings(service, who(CHIEF)),
                   *players.player(service, who(CHIEF), "1")]
    assert len(iam) > 1  # the /iam reply is split too
    for reply in replies:
        assert utf16_length(reply.text) <= MESSAGE_LIMIT
        assert reply.text.count("<b>") == reply.text.count("</b>")
        assert reply.text.count("<pre>") == reply.text.count("</pre>")
        for button in buttons(reply):
            assert utf16_length(button.text) <= BUTTON_TEXT_LIMIT


def test_the_longest_name_import_allows_fits_a_button(service: BotService, store: SQLiteStore) -> None:
    name = "测" * 100
    tournament = replace(load_tournament(XIANGQI), games=(), name=name,
                         players=(Player(1, name), Player(2, "B")))
    store.create("cap", tournament, Source("cli:test"))
    [listing] = players.tournaments(service, who(CHIEF))
    assert all(utf16_length(button.text) <= BUTTON_TEXT_LIMIT for button in buttons(listing))
