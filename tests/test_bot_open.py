"""Running a rated open from the phone (issue 20): /player add|edit|remove, /unpair, /withdraw,
/return, /bye and /undo of any change, with the refusals of the command line worded in the
user's language (never a command-line option), players found by name ignoring case and
diacritics, every confirmation naming the tournament, the result buttons in the user's language
and the game's colour words, and one current round.  Each test checks what the event log,
``round --json`` and the players list say afterwards; the last ones go through the real
python-telegram-bot stack against the fake Bot API (tests/fake_telegram.py)."""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from fake_telegram import FakeTelegram, running
from test_bot_e2e import TOKEN, exchange

from bot import entering, players
from bot import messages as M
from bot import running as commands
from bot.app import build_application
from bot.handlers import press
from bot.replies import Reply
from bot.service import BotService, BotSettings, Who
from ranking.event.clock import clock_of
from ranking.event.log import foul_event, result_event, round_to_unpair
from ranking.event.players import players_json
from ranking.event.refusals import TEXT, Code
from tiebreak.files import load_tournament
from tiebreak.running import round_json
from tiebreak.store import Source, SQLiteStore

DATA = Path(__file__).resolve().parent / "data" / "open"
CHIEF, HELPER, PLAYER = 1001, 4004, 2002
CLI = Source("cli:test")
_ids = itertools.count(1)


def who(user: int, lang: str = "en") -> Who:
    number = next(_ids)
    return Who(user, user, lang, message_id=number, update_id=number)


def text_of(replies: Sequence[Reply]) -> str:
    return "\n".join(reply.text for reply in replies)


def lines(replies: Sequence[Reply]) -> list[str]:
    return text_of(replies).split("\n")


def kinds(store: SQLiteStore, slug: str) -> list[str]:
    return [entry.event.kind.value for entry in store.log(slug)]


def afterwards(store: SQLiteStore, slug: str) -> tuple[list[int], dict | None, list[dict]]:
    """What the event says: its log, ``round --json`` of the current round (None before round 1
    is paired) and ``players --json``; a refusal leaves all three as they were."""
    state = store.state(slug)
    current = clock_of(state.snapshot()).current
    return ([entry.id for entry in store.log(slug)], round_json(state, current) if current else None,
            players_json(store.tournament(slug)))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "bot.sqlite3") as opened:
        opened.create("swiss8", load_tournament(DATA / "swiss-8.toml"), CLI)
        opened.create("rr9", load_tournament(DATA / "rr-9.toml"), CLI)
        yield opened


@pytest.fixture
def service(store: SQLiteStore) -> BotService:
    return BotService(store, BotSettings(arbiters=frozenset({CHIEF})))


def select(service: BotService, slug: str, user: int = CHIEF) -> None:
    service.remember(who(user), tournament=slug)


def heading(store: SQLiteStore, slug: str) -> str:
    return f"<b>{store.state(slug).base.name}</b>"


def pair(service: BotService, store: SQLiteStore) -> None:
    """/pair and its confirmation button (a Swiss round is shown first)."""
    [proposal] = commands.pair(service, who(CHIEF))
    if proposal.buttons:
        press(service, who(CHIEF), proposal.buttons[0][0].data)


def enter_round(service: BotService, store: SQLiteStore, slug: str, number: int) -> None:
    boards = round_json(store.state(slug), number)["boards"]
    text = "\n".join(f"R{number} B{board['board']} {('1-0', '1/2', '0-1')[board['board'] % 3]}" for board in boards)
    entering.text(service, who(CHIEF), text)


# -- players, by number or by name ------------------------------------------------------------------

def test_a_name_is_found_ignoring_case_and_diacritics(service: BotService, store: SQLiteStore) -> None:
    select(service, "rr9", PLAYER)
    card = text_of(players.player(service, who(PLAYER), "lai ly huynh"))
    assert "1. Lại Lý Huynh" in card
    several = lines(players.player(service, who(PLAYER), "NGUYEN"))
    assert several[1:] == ["2. Nguyễn Thành Bảo", "5. Nguyễn Hoàng Lâm", "7. Diệp Khai Nguyên",
                           "8. Nguyễn Minh Nhật Quang"]
    assert "1. Lại Lý Huynh" in text_of(players.player(service, who(PLAYER), "Huynh Lai"))  # any word order
    assert text_of(players.iam(service, who(PLAYER), "vo minh nhat")).startswith("You are player 9 of")
    assert text_of(players.player(service, who(PLAYER), "nobody")) == "No player matches “nobody”"


def test_player_edit_corrects_a_player_by_name_and_re_ranks(service: BotService, store: SQLiteStore) -> None:
    select(service, "swiss8")
    reply = lines(commands.change_player(service, who(CHIEF), "edit ly hung rating 2500; title gm"))
    assert reply == [heading(store, "swiss8"), "Player 4, Lý, Hùng, corrected: rating 1500 → 2500, title – → GM"]
    assert players_json(store.tournament("swiss8"))[0]["id"] == 4
    assert kinds(store, "swiss8")[-1] == "player-edited"
    before = afterwards(store, "swiss8")
    vi = text_of(commands.change_player(service, who(CHIEF, "vi"), "edit 4 rating 12000"))
    assert vi == "Bị từ chối: hệ số Elo 12000: cần từ 0 đến 9999 (0 = chưa có hệ số)"
    zh = text_of(commands.change_player(service, who(CHIEF, "zh"), "edit 4 title Grandmaster"))
    assert zh == "未执行：称号 Grandmaster：应为 GM、IM、WGM、FM、WIM、CM、WFM 或 WCM"
    assert afterwards(store, "swiss8") == before  # nothing written
    assert text_of(commands.change_player(service, who(CHIEF), "edit 4")).startswith("Write /player add")
    select(service, "swiss8", PLAYER)
    assert text_of(commands.change_player(service, who(PLAYER), "edit 4 rating 2000")) == (
        "Only arbiters can enter results.")


def test_player_edit_corrects_a_fide_id(service: BotService, store: SQLiteStore) -> None:
    select(service, "swiss8")
    reply = lines(commands.change_player(service, who(CHIEF), "edit 4 fide 12345678"))
    assert reply == [heading(store, "swiss8"), "Player 4, Lý, Hùng, corrected: FIDE id – → 12345678"]
    assert store.tournament("swiss8").player(4).fide_id == "12345678"
    before = afterwards(store, "swiss8")
    vi = text_of(commands.change_player(service, who(CHIEF, "vi"), "edit 4 fide 12a"))
    assert vi == "Bị từ chối: mã FIDE 12a: cần là các chữ số (tối đa 11)"
    assert afterwards(store, "swiss8") == before  # nothing written
    zh = lines(commands.change_player(service, who(CHIEF, "zh"), "edit 4 fide_id 87654321"))
    assert zh[-1].endswith("FIDE ID 12345678 → 87654321")


def test_player_add_is_a_late_entry_with_its_pairing_number(service: BotService, store: SQLiteStore) -> None:
    select(service, "swiss8")
    reply = lines(commands.change_player(service, who(CHIEF), "add Mai, Thảo; 2250; vie; Đà Nẵng; WFM"))
    assert reply == [heading(store, "swiss8"), "Player 9 added: Mai, Thảo (pairing number 3)"]
    assert players_json(store.tournament("swiss8"))[2] == {
        "tpn": 3, "id": 9, "name": "Mai, Thảo", "rating": 2250, "title": "WFM", "federation": "VIE",
        "club": "Đà Nẵng", "withdrawn": False}
    assert kinds(store, "swiss8")[-1] == "player-added"
    pair(service, store)
    assert 9 in {side for board in round_json(store.state("swiss8"), 1)["boards"]
                 for side in (board["white"], board["black"])}


def test_player_remove_before_round_1_and_the_refusal_after(service: BotService, store: SQLiteStore) -> None:
    select(service, "rr9")
    assert lines(commands.change_player(service, who(CHIEF), "remove Võ Minh Nhất")) == [
        heading(store, "rr9"), "Player 9, Võ Minh Nhất, removed from the tournament."]
    assert store.state("rr9").base.rounds == 7  # eight players: drawn again (CXA 14.4)
    assert [row["id"] for row in players_json(store.tournament("rr9"))] == list(range(1, 9))
    assert kinds(store, "rr9")[-1] == "player-removed"
    pair(service, store)
    assert len(round_json(store.state("rr9"), 1)["boards"]) == 4
    before = afterwards(store, "rr9")
    refusal = text_of(commands.change_player(service, who(CHIEF, "es"), "remove 8"))
    assert refusal == "Rechazado: el jugador 8 está en la ronda 1, ya emparejada: usa /withdraw"
    assert afterwards(store, "rr9") == before


# -- un-pairing, returns, byes -------------------------------------------------------------------

def test_unpair_asks_first_when_the_round_has_results_and_undo_brings_them_back(service: BotService,
                                                                                store: SQLiteStore) -> None:
    select(service, "swiss8")
    pair(service, store)
    assert lines(commands.unpair_round(service, who(CHIEF))) == [heading(store, "swiss8"),
                                                                 "Round 1 un-paired: 4 boards taken back."]
    pair(service, store)
    entering.text(service, who(CHIEF), "R1 B1 1-0")
    [question] = commands.unpair_round(service, who(CHIEF, "zh"))
    assert question.text.endswith("第1轮已有 1 台录入了结果或犯规。撤销编排并一并收回吗？（/undo 可以恢复）")
    assert [button.text for button in question.buttons[0]] == ["撤销第1轮编排", "取消"]
    assert kinds(store, "swiss8")[-1] == "result"  # nothing yet
    [done] = press(service, who(CHIEF), question.buttons[0][0].data)
    assert done.edit and done.text.endswith("Round 1 un-paired: 4 boards taken back, with 1 result (/undo brings it "
                                            "back).")
    assert 1 not in store.state("swiss8").paired_rounds()
    undone = lines(commands.undo(service, who(CHIEF)))
    assert undone[1] == "Undone: the un-pairing of round 1. Round 1 is paired again as it was."
    assert round_json(store.state("swiss8"), 1)["boards"][0]["result"] == "1-0"
    [again] = commands.unpair_round(service, who(CHIEF))
    entering.text(service, who(CHIEF), "R1 B2 1-0")  # the round changes before the answer
    stale = press(service, who(CHIEF), again.buttons[0][0].data)
    assert text_of(stale).endswith("The tournament changed since that question; nothing was un-paired.")
    assert kinds(store, "swiss8")[-1] == "result"
    assert text_of(press(service, who(CHIEF), question.buttons[0][1].data)) == "Not un-paired."


def test_the_unpair_question_and_its_button_count_what_the_core_counts(service: BotService, store: SQLiteStore,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The round un-pairing takes back and its boards with a result or a foul are decided once
    (``ranking.event.log.round_to_unpair``): a board with a foul alone counts, and the button
    confirms against what the core counts when it is pressed."""
    select(service, "swiss8")
    pair(service, store)
    entering.text(service, who(CHIEF), "R1 B1 1-0")
    store.append("swiss8", lambda state: [foul_event(state, 1, 2, "white")], Source(f"tg:{CHIEF}"))
    [question] = commands.unpair_round(service, who(CHIEF))
    assert "Round 1 has results or fouls on 2 boards." in question.text
    assert round_to_unpair(store.state("swiss8")) == (1, 2)
    monkeypatch.setattr(commands, "round_to_unpair", lambda state: (1, 3))  # as if a third board had a result
    assert text_of(press(service, who(CHIEF), question.buttons[0][0].data)).endswith(
        "The tournament changed since that question; nothing was un-paired.")
    monkeypatch.undo()
    [done] = press(service, who(CHIEF), question.buttons[0][0].data)
    assert done.text.endswith("Round 1 un-paired: 4 boards taken back, with 1 result (/undo brings it back).")


def test_withdraw_and_return_by_name(service: BotService, store: SQLiteStore) -> None:
    select(service, "swiss8")
    pair(service, store)
    enter_round(service, store, "swiss8", 1)
    assert lines(commands.withdraw(service, who(CHIEF), "ho anh 1"))[1] == "Player 7, Hồ, Anh, withdrawn after round 1"
    pair(service, store)
    assert lines(commands.return_withdrawn(service, who(CHIEF), "Hồ, Anh")) == [
        heading(store, "swiss8"), "Player 7, Hồ, Anh, is back: paired again from round 3."]
    assert {"player": 7, "kind": "zero"} in round_json(store.state("swiss8"), 2)["byes"]
    assert [row["withdrawn"] for row in players_json(store.tournament("swiss8")) if row["id"] == 7] == [False]
    assert kinds(store, "swiss8")[-1] == "player-returned"
    before = afterwards(store, "swiss8")
    zh = text_of(commands.return_withdrawn(service, who(CHIEF, "zh"), "7"))
    assert zh == "未执行：7 号棋手没有退赛"
    assert afterwards(store, "swiss8") == before


def test_the_refusals_of_the_issue_in_the_bot(service: BotService, store: SQLiteStore) -> None:
    """A bye for a round already paired, a result for a round not paired, a late entry once the
    final round is paired: refused in the user's language, nothing written."""
    select(service, "swiss8")
    pair(service, store)
    before = afterwards(store, "swiss8")
    assert text_of(commands.bye(service, who(CHIEF, "vi"), "3 1 zero")) == (
        "Bị từ chối: kỳ thủ số 3 đã có ván đấu ở ván 1")
    es = M.translator("es")
    assert text_of(entering.text(service, who(CHIEF, "es"), "R2 B1 1-0")).split("\n")[1] == es.format(
        M.PROBLEM_LINE, line=1, text="R2 B1 1-0", reason=es.format(M.ROUND_NOT_PAIRED, round=2))
    assert afterwards(store, "swiss8") == before
    for number in range(1, 6):
        if number > 1:
            pair(service, store)
        enter_round(service, store, "swiss8", number)
    before = afterwards(store, "swiss8")
    late = text_of(commands.add_player(service, who(CHIEF, "zh"), "Late"))
    assert late == "未执行：最后一轮（第5轮）已经编排：补报的棋手已无轮次可赛"
    assert afterwards(store, "swiss8") == before


def test_a_bye_for_the_round_already_paired_is_refused(service: BotService, store: SQLiteStore) -> None:
    select(service, "swiss8")
    commands.bye(service, who(CHIEF), "4 1 half")  # entered before round 1 is paired
    pair(service, store)
    assert {"player": 4, "kind": "half"} in round_json(store.state("swiss8"), 1)["byes"]
    before = afterwards(store, "swiss8")
    refusal = text_of(commands.bye(service, who(CHIEF, "es"), "4 1 zero"))
    assert refusal == ("Rechazado: la ronda 1 ya está emparejada: un bye se anota antes de emparejar su ronda")
    assert afterwards(store, "swiss8") == before


def test_undo_is_refused_naming_the_later_change(service: BotService, store: SQLiteStore) -> None:
    select(service, "swiss8")
    pair(service, store)
    store.append("swiss8", lambda state: [result_event(state, 1, 1, "1-0")], Source(f"tg:{HELPER}"))
    later = store.log("swiss8")[-1].id
    before = afterwards(store, "swiss8")
    zh = text_of(commands.undo(service, who(CHIEF, "zh")))
    assert zh == f"未执行：之后的一项操作依赖于它：一项成绩（记录 {later}，由 tg:{HELPER} 录入）；请先撤销那一项"
    assert afterwards(store, "swiss8") == before


def test_undo_takes_back_every_kind_of_change_from_the_phone(service: BotService, store: SQLiteStore) -> None:
    """/undo walks back a removal, a correction, a late entry, a bye, a pairing, a result, a
    withdrawal and a return, newest first, each said in the arbiter's language with what there
    is now; the log, the round and the players list say the same."""
    select(service, "swiss8")
    start = players_json(store.tournament("swiss8"))
    commands.change_player(service, who(CHIEF), "remove 8")
    commands.change_player(service, who(CHIEF), "edit dinh thu club Huế")
    commands.change_player(service, who(CHIEF), "add Late, Entry; 1900")
    commands.bye(service, who(CHIEF), "9 1 half")
    pair(service, store)
    entering.text(service, who(CHIEF), "R1 B1 1-0")
    commands.withdraw(service, who(CHIEF), "4 1")
    commands.return_withdrawn(service, who(CHIEF), "4")
    assert kinds(store, "swiss8")[-8:] == ["player-removed", "player-edited", "player-added", "bye", "round-paired",
                                           "result", "withdrawal", "player-returned"]

    def row(pid: int) -> dict | None:
        return next((r for r in players_json(store.tournament("swiss8")) if r["id"] == pid), None)

    def paired() -> list[int]:
        return store.state("swiss8").paired_rounds()

    steps = [
        ("Đã hoàn tác: việc trở lại của 4. Lý, Hùng. Kỳ thủ lại được tính là rút lui sau ván 1.",
         lambda: row(4)["withdrawn"] is True),
        ("Đã hoàn tác: việc rút lui của 4. Lý, Hùng. Kỳ thủ tiếp tục thi đấu.", lambda: row(4)["withdrawn"] is False),
        ("Đã hoàn tác: ván 1, bàn 1 1-0. Bàn này giờ là: chưa có kết quả.",
         lambda: round_json(store.state("swiss8"), 1)["boards"][0]["result"] is None),
        ("Đã hoàn tác: việc xếp cặp ván 1. Ván 1 hiện chưa xếp cặp.",
         lambda: paired() == [] and round_json(store.state("swiss8"), 1)["boards"] == []),
        ("Đã hoàn tác: miễn đấu tính hòa của 9. Late, Entry ở ván 1.",
         lambda: round_json(store.state("swiss8"), 1)["byes"] == []),
        ("Đã hoàn tác: việc đăng ký muộn của 9. Late, Entry. Kỳ thủ không còn trong giải.", lambda: row(9) is None),
        ("Đã hoàn tác: việc sửa thông tin 5. Đinh, Thu: câu lạc bộ Huế → –.", lambda: row(5)["club"] == ""),
        ("Đã hoàn tác: việc xóa 8. Chu, Đức. Kỳ thủ lại có trong giải.", lambda: players_json(
            store.tournament("swiss8")) == start),
    ]
    for line, check in steps:
        before = len(store.log("swiss8"))
        assert lines(commands.undo(service, who(CHIEF, "vi"))) == [heading(store, "swiss8"), line]
        assert len(store.log("swiss8")) == before + 1 and "undo" in store.log("swiss8")[-1].event.data, line
        assert check(), line
    before = afterwards(store, "swiss8")
    assert text_of(commands.undo(service, who(CHIEF, "vi"))) == "Không có gì để hoàn tác."
    assert afterwards(store, "swiss8") == before


# -- one current round ---------------------------------------------------------------------------

def test_a_bye_for_the_next_round_leaves_the_current_round_where_it_is(service: BotService,
                                                                      store: SQLiteStore) -> None:
    select(service, "swiss8")
    pair(service, store)
    commands.bye(service, who(CHIEF), "4 2 half")  # round 2 is not paired: it is not the current round
    select(service, "swiss8", PLAYER)
    assert text_of(players.round(service, who(PLAYER))).split("\n")[1] == "Round 1"
    [menu] = entering.enter(service, who(CHIEF))
    assert menu.text.startswith("Round 1\n")
    recorded = text_of(entering.text(service, who(CHIEF), "B1 1-0"))
    assert "Round 1, board 1:" in recorded
    assert round_json(store.state("swiss8"), 1)["boards"][0]["result"] == "1-0"


# -- the words of the buttons and of every refusal --------------------------------------------------

@pytest.mark.parametrize(("slug", "language", "words"), [
    ("rr9", "zh", ["红胜 2-0", "和 1-1", "黑胜 0-2"]),
    ("rr9", "en", ["Red wins 2-0", "Draw 1-1", "Black wins 0-2"]),
    ("rr9", "vi", ["Đỏ thắng 2-0", "Hòa 1-1", "Đen thắng 0-2"]),
    ("swiss8", "zh", ["白胜 1-0", "和 ½-½", "黑胜 0-1"]),
    ("swiss8", "es", ["Ganan blancas 1-0", "Tablas ½-½", "Ganan negras 0-1"]),
])
def test_result_buttons_speak_the_users_language_and_the_games_colours(service: BotService, store: SQLiteStore,
                                                                       slug: str, language: str,
                                                                       words: list[str]) -> None:
    select(service, slug)
    pair(service, store)
    [menu] = entering.enter(service, who(CHIEF, language))
    [choose] = press(service, who(CHIEF, language), menu.buttons[0][0].data)
    assert [button.text for button in choose.buttons[0]] == words


@pytest.mark.parametrize("language", ["en", "zh", "vi", "es"])
def test_every_refusal_has_the_bots_words_and_no_command_line_option(language: str) -> None:
    tr = M.translator(language)
    fields = string.Formatter()
    for code in Code:
        message = tr.gettext(M.REFUSALS[code])
        assert not re.search(r"(?<![\w-])--[a-z]", message), (code, message)
        core = {name for _, name, _, _ in fields.parse(TEXT[code]) if name}
        mine = {name for _, name, _, _ in fields.parse(message) if name}
        assert mine <= core, (code, mine - core)  # only values the core gives
    assert set(M.REFUSALS) == set(Code)


# -- through Telegram ----------------------------------------------------------------------------

@pytest.fixture
def server() -> Iterator[FakeTelegram]:
    with FakeTelegram(TOKEN) as fake:
        yield fake


@pytest.mark.asyncio
async def test_an_open_from_the_phone(server: FakeTelegram, store: SQLiteStore) -> None:
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
    select(service, "swiss8")
    async with running(build_application(TOKEN, service, base_url=server.url)) as errors:
        [edited] = await exchange(server, server.command(CHIEF, "player", "edit 4 rating 2500"), CHIEF)
        assert edited["text"] == f"{heading(store, 'swiss8')}\nPlayer 4, Lý, Hùng, corrected: rating 1500 → 2500"
        assert players_json(store.tournament("swiss8"))[0]["id"] == 4
        [proposal] = await exchange(server, server.command(CHIEF, "pair"), CHIEF)
        [paired] = await exchange(server, server.callback_query(
            CHIEF, proposal["reply_markup"]["inline_keyboard"][0][0]["callback_data"], proposal), CHIEF)
        assert paired["text"].startswith("Round 1 paired; boards: 4")
        [result] = await exchange(server, server.text_message(CHIEF, "B1 1-0"), CHIEF)
        assert result["text"].startswith(heading(store, "swiss8"))
        [question] = await exchange(server, server.command(CHIEF, "unpair", language_code="vi"), CHIEF)
        assert "Hủy xếp cặp và bỏ luôn các kết quả đó?" in question["text"]
        [done] = await exchange(server, server.callback_query(
            CHIEF, question["reply_markup"]["inline_keyboard"][0][0]["callback_data"], question,
            language_code="vi"), CHIEF)
        assert done["text"].endswith("Đã hủy xếp cặp ván 1: bỏ 4 bàn, cùng 1 kết quả (/undo sẽ khôi phục).")
        assert store.state("swiss8").paired_rounds() == []
        [back] = await exchange(server, server.command(CHIEF, "undo"), CHIEF)
        assert back["text"].endswith("Undone: the un-pairing of round 1. Round 1 is paired again as it was.")
        assert round_json(store.state("swiss8"), 1)["boards"][0]["result"] == "1-0"
        before = afterwards(store, "swiss8")
        [refused] = await exchange(server, server.command(CHIEF, "withdraw", "99", language_code="zh"), CHIEF)
        assert refused["text"] == "未执行：本比赛没有 99 号棋手（序号：1-8）"
        assert afterwards(store, "swiss8") == before
    assert errors == []
    assert kinds(store, "swiss8")[-3:] == ["result", "round-unpaired", "round-paired"]


@pytest.mark.asyncio
async def test_withdraw_return_remove_and_refusals_from_the_phone(server: FakeTelegram, store: SQLiteStore) -> None:
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
    select(service, "rr9")
    async with running(build_application(TOKEN, service, base_url=server.url)) as errors:
        [removed] = await exchange(server, server.command(CHIEF, "player", "remove vo minh nhat"), CHIEF)
        assert removed["text"] == f"{heading(store, 'rr9')}\nPlayer 9, Võ Minh Nhất, removed from the tournament."
        assert store.state("rr9").base.rounds == 7 and 9 not in store.state("rr9").ids
        [paired] = await exchange(server, server.command(CHIEF, "pair"), CHIEF)
        assert "Round 1 paired; boards: 4" in paired["text"]
        [withdrawn] = await exchange(server, server.command(CHIEF, "withdraw", "Lai Ly Huynh 0"), CHIEF)
        assert withdrawn["text"].endswith("Player 1, Lại Lý Huynh, withdrawn after round 0")
        board = next(b for b in round_json(store.state("rr9"), 1)["boards"] if 1 in (b["white"], b["black"]))
        assert board["result"] == ("-+" if board["white"] == 1 else "+-")  # what the withdrawal rule makes of it
        assert [row["withdrawn"] for row in players_json(store.tournament("rr9")) if row["id"] == 1] == [True]
        before = afterwards(store, "rr9")
        [back] = await exchange(server, server.command(CHIEF, "return", "1", language_code="es"), CHIEF)
        assert back["text"] == ("Rechazado: el jugador 1 se retiró tras la ronda 0 y desde entonces se emparejó la "
                                "ronda 1: un round robin solo readmite a un jugador antes de eso")
        [bye] = await exchange(server, server.command(CHIEF, "bye", "3 2", language_code="vi"), CHIEF)
        assert bye["text"] == ("Bị từ chối: giải vòng tròn không có miễn đấu theo yêu cầu: ván vắng mặt bị xử "
                               "thua")
        assert afterwards(store, "rr9") == before  # both refusals wrote nothing
        [undone] = await exchange(server, server.command(CHIEF, "undo", language_code="zh"), CHIEF)
        assert undone["text"].endswith("已撤销：1. Lại Lý Huynh 的退赛。该棋手继续参赛。")
        again = next(b for b in round_json(store.state("rr9"), 1)["boards"] if b["board"] == board["board"])
        assert again["result"] is None  # the board waits for its game again
    assert errors == []
    assert kinds(store, "rr9")[-4:] == ["player-removed", "round-paired", "withdrawal", "player-returned"]


def test_round_shows_what_the_withdrawal_rule_makes_of_a_board(service: BotService, store: SQLiteStore) -> None:
    select(service, "rr9")
    select(service, "rr9", PLAYER)
    pair(service, store)
    board = round_json(store.state("rr9"), 1)["boards"][0]
    commands.withdraw(service, who(CHIEF), f"{board['white']} 0")
    row = next(line for line in lines(players.round(service, who(PLAYER))) if line.startswith(f"{board['board']} "))
    assert "-+" in row and "…" not in row  # not waiting to be played: a forfeit under the withdrawal rule
