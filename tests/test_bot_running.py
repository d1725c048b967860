"""Running an event from the bot (issue 11), command by command against a real SQLite store:
identities per tournament, archived tournaments, late entries, byes, undo, Swiss pairing,
the player's card and the replies to what the bot cannot read."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_bot_service import CHIEF, CLI, PLAYER, SWISS, XIANGQI, text_of, who

from bot import entering, players, running
from bot import messages as M
from bot.formatting import escape
from bot.handlers import press
from bot.messages import translator
from bot.replies import Reply
from bot.service import BotService, BotSettings
from tiebreak.files import load_tournament
from tiebreak.store import SQLiteStore


@pytest.fixture
def service(store: SQLiteStore) -> BotService:
    """The bot over an empty store (``tests/conftest.py``'s ``store``); each test imports its own."""
    return BotService(store, BotSettings(arbiters=frozenset({CHIEF})))


def two_events(store: SQLiteStore) -> tuple[str, str]:
    """Two round robins without results: "a" (the xiangqi example) and "b" (a copy)."""
    tournament = replace(load_tournament(XIANGQI), games=())
    store.create("a", tournament, CLI)
    store.create("b", replace(tournament, name="Second Open"), CLI)
    return "a", "b"


def choose(service: BotService, user: int, slug: str) -> None:
    players.start(service, who(user), slug)


# -- 11.7: who a user is, per tournament -----------------------------------------------------------

def test_iam_in_one_tournament_is_not_who_you_are_in_another(service: BotService, store: SQLiteStore) -> None:
    a, b = two_events(store)
    choose(service, PLAYER, a)
    assert "You are player 4 of " in text_of(players.iam(service, who(PLAYER), "4"))
    choose(service, PLAYER, b)
    assert text_of(players.me(service, who(PLAYER))) == escape(
        translator("en").format(M.WHO_ARE_YOU, tournament="Second Open"))
    choose(service, PLAYER, a)
    assert "4. " in text_of(players.me(service, who(PLAYER)))


def test_subscriptions_are_per_tournament_and_notifications_name_it(service: BotService,
                                                                     store: SQLiteStore) -> None:
    a, b = two_events(store)
    choose(service, PLAYER, a)
    players.iam(service, who(PLAYER), "4")
    players.subscribe(service, who(PLAYER))
    choose(service, PLAYER, b)
    players.iam(service, who(PLAYER), "5")  # a player of b too, but not subscribed there
    choose(service, CHIEF, b)
    assert [reply for reply in running.pair(service, who(CHIEF)) if reply.chat_id == PLAYER] == []
    choose(service, CHIEF, a)
    [note] = [reply for reply in running.pair(service, who(CHIEF)) if reply.chat_id == PLAYER]
    assert note.text.startswith(f"<b>{escape(store.state(a).base.name)}</b>\n")


def import_swiss(store: SQLiteStore, slug: str = "sw", rounds: int = 9) -> str:
    """The chess Swiss (7 rounds played) as a 9-round event: round 8 is next."""
    store.create(slug, replace(load_tournament(SWISS), rounds=rounds), CLI)
    return slug


def buttons(reply: Reply) -> list:
    return [button for row in reply.buttons for button in row]


# -- 12.3: /pair in a Swiss shows the Dutch pairing and stores it on confirmation -----------------

def test_pair_proposes_the_dutch_pairing_and_stores_it_when_confirmed(service: BotService,
                                                                      store: SQLiteStore) -> None:
    slug = import_swiss(store)
    choose(service, CHIEF, slug)
    choose(service, PLAYER, slug)
    players.iam(service, who(PLAYER), "1")
    players.subscribe(service, who(PLAYER))
    [proposal] = running.pair(service, who(CHIEF))
    assert proposal.text.startswith("Proposed pairing of round 8 (FIDE Dutch system).")
    assert "Zhang, Wei" in proposal.text and 8 not in store.state(slug).paired_rounds()
    confirm, cancel = buttons(proposal)
    assert confirm.text == "Pair round 8" and cancel.text == "Cancel"
    replies = press(service, who(CHIEF), confirm.data)
    assert text_of(replies).startswith("Round 8 paired; boards: 12")
    assert 8 in store.state(slug).paired_rounds()
    [note] = [reply for reply in replies if reply.chat_id == PLAYER]
    assert note.text.startswith("<b>Atlantic Open 2026</b>\nRound 8, board 1: Zhang, Wei")
    assert text_of(press(service, who(CHIEF), confirm.data)).startswith(  # round 9 is next now
        "The tournament changed since that proposal; this is the pairing now.\nBoards without a result")


def test_a_stale_proposal_is_shown_again_and_cancel_stores_nothing(service: BotService, store: SQLiteStore) -> None:
    slug = import_swiss(store)
    choose(service, CHIEF, slug)
    [proposal] = running.pair(service, who(CHIEF))
    confirm, cancel = buttons(proposal)
    assert press(service, who(CHIEF), cancel.data)[0].text == "Not paired."
    running.bye(service, who(CHIEF), "1 8 half")  # the pairing is not the one proposed any more
    [again] = press(service, who(CHIEF), confirm.data)
    assert again.text.startswith("The tournament changed since that proposal; this is the pairing now.")
    assert "Not paired: 1. Zhang, Wei (half-point bye)" in again.text
    assert 8 not in store.state(slug).paired_rounds()


def test_a_round_that_cannot_be_paired_is_explained(service: BotService, store: SQLiteStore) -> None:
    from ranking.event.model import Game, Player, Result, Tournament

    tiny = Tournament("Tiny", (Player(1, "A"), Player(2, "B")), 2, (Game(1, 1, 2, Result.WHITE_WINS, 1),),
                      records=(("092", "Swiss"),))
    store.create("tiny", tiny, CLI)
    choose(service, CHIEF, "tiny")
    text = text_of(running.pair(service, who(CHIEF)))
    assert text.startswith("Round 2 cannot be paired: ") and "1" in text and "2" in text


# -- 11.6: late entries and byes from the bot ---------------------------------------------------------

def test_addplayer_and_bye(service: BotService, store: SQLiteStore) -> None:
    slug = import_swiss(store)
    choose(service, CHIEF, slug)
    assert text_of(running.add_player(service, who(CHIEF), "Lê Văn An; 1850; vie; Hà Nội")) == (
        "<b>Atlantic Open 2026</b>\nPlayer 25 added: Lê Văn An (pairing number 25)")
    assert store.tournament(slug).player(25).federation == "VIE"
    assert text_of(running.add_player(service, who(CHIEF), "")).startswith("Write /addplayer")
    assert text_of(running.bye(service, who(CHIEF), "25 8 zero")) == (
        "<b>Atlantic Open 2026</b>\nRound 8: zero-point bye for 25. Lê Văn An")
    assert text_of(running.bye(service, who(CHIEF), "3")) == (
        "<b>Atlantic Open 2026</b>\nRound 8: half-point bye for 3. Silva, João Pedro")
    assert text_of(running.bye(service, who(CHIEF), "3 8 quarter")).startswith("Write /bye")
    assert text_of(running.bye(service, who(PLAYER), "3")) == "Only arbiters can enter results."
    assert text_of(running.undo(service, who(CHIEF))) == (
        "<b>Atlantic Open 2026</b>\nUndone: the half-point bye of 3. Silva, João Pedro in round 8.")
    a, _ = two_events(store)
    choose(service, CHIEF, a)
    running.pair(service, who(CHIEF))
    assert text_of(running.add_player(service, who(CHIEF), "Late")).startswith(
        "Refused: a round robin takes no late entries once round 1 is paired")


# -- 11.4: archived tournaments -------------------------------------------------------------------

def test_a_chief_arbiter_archives_a_tournament_and_restores_it(service: BotService, store: SQLiteStore) -> None:
    a, b = two_events(store)
    choose(service, CHIEF, b)
    assert text_of(running.archive(service, who(PLAYER))) == escape(translator("en").gettext(M.CHIEF_ONLY))
    assert text_of(running.archive(service, who(CHIEF))).startswith("Second Open is archived")
    assert [row[0].text.removeprefix("✓ ") for row in players.tournaments(service, who(PLAYER))[0].buttons] == [
        store.state(a).base.name]
    assert text_of(running.restore(service, who(CHIEF), "b")) == "Second Open is back in /tournaments."
    assert len(players.tournaments(service, who(PLAYER))[0].buttons) == 2
    assert text_of(running.restore(service, who(CHIEF), "nope")) == "No tournament “nope”: /tournaments lists them."


# -- 11.9: the player's card --------------------------------------------------------------------------

def test_the_players_card_shows_their_own_result_in_the_events_points(service: BotService,
                                                                     store: SQLiteStore) -> None:
    a, _ = two_events(store)
    choose(service, CHIEF, a)
    choose(service, PLAYER, a)
    running.pair(service, who(CHIEF))
    entering.text(service, who(CHIEF), "R1 B1 1-0")  # board 1: player 1 (red) beats 10
    card = text_of(players.player(service, who(PLAYER), "10"))
    assert "Rd  Bd  Colour  Opponent" in card
    row = card.split("\n")[2].removesuffix("</pre>")
    assert row.split()[:3] == ["1", "1", "Black"] and row.endswith(" 0")  # the loser's own 0, not 1-0
    assert text_of(players.player(service, who(PLAYER), "1")).split("\n")[2].removesuffix("</pre>").endswith(" 2")
    zh = text_of(players.player(service, who(PLAYER, "zh"), "10"))
    assert "轮" in zh and "黑方" in zh and "Black" not in zh
    assert "Red" not in text_of(players.player(service, who(PLAYER, "en"), "10"))


def test_standings_headers_and_numbers_follow_the_language(service: BotService, store: SQLiteStore) -> None:
    a, _ = two_events(store)
    choose(service, PLAYER, a)
    choose(service, CHIEF, a)
    running.pair(service, who(CHIEF))
    entering.text(service, who(CHIEF), "R1 B1 1-0\nR1 B2 1-1\nR1 B3 0-1\nR1 B4 1-0\nR1 B5 1-1")
    zh = text_of(players.standings(service, who(PLAYER, "zh")))
    assert "积分" in zh and "小分" in zh and "胜局" in zh and "Pts" not in zh
    vi = text_of(players.standings(service, who(PLAYER, "vi")))
    assert "Điểm" in vi and "HS" in vi
    en = text_of(players.standings(service, who(PLAYER, "en")))
    assert "More tie-breaks: BPG, DEB (/standings all shows every column)" in en
    every = text_of(players.standings(service, who(PLAYER, "en"), "all"))
    assert "DEB" in every.split("\n")[2] and "More tie-breaks" not in every


def test_numbers_have_the_languages_decimal_sign(service: BotService, store: SQLiteStore) -> None:
    slug = import_swiss(store)
    choose(service, PLAYER, slug)
    assert "4,5" in text_of(players.standings(service, who(PLAYER, "es")))
    assert "4.5" in text_of(players.standings(service, who(PLAYER, "en")))


# -- 11.10: what the bot could not read is answered -------------------------------------------------

def test_bad_arguments_and_unknown_commands_get_a_reply(service: BotService, store: SQLiteStore) -> None:
    slug = import_swiss(store)
    choose(service, PLAYER, slug)
    assert text_of(running.unknown_command(service, who(PLAYER), "/foo bar")) == (
        "Unknown command /foo: /help lists the commands.")
    assert text_of(players.round(service, who(PLAYER), "abc")) == "Write a round number, e.g. /round 3"
    assert text_of(players.round(service, who(PLAYER), "99")) == "Round 99: the tournament has 9 rounds."
    assert text_of(players.round(service, who(PLAYER), "8")) == "Round 8 is not paired yet (paired rounds: 1-7)."
    assert text_of(players.standings(service, who(PLAYER), "abc")).startswith("Write how many rows")
    assert text_of(players.start(service, who(PLAYER), "nonexistent")).startswith(
        "No tournament “nonexistent”: /tournaments lists them.")


@pytest.mark.parametrize(("language", "asked", "expected"), [
    ("en", "3", "Round 3 is not paired yet (paired rounds: none)."),
    ("en", "", "No round is paired yet."),
    ("en", "99", "Round 99: the tournament has 9 rounds."),
    ("zh", "3", "第3轮尚未编排（已编排的轮次：无）。"),
    ("vi", "3", "Ván 3 chưa được xếp cặp (các ván đã xếp cặp: không có)."),
    ("es", "3", "La ronda 3 aún no está emparejada (rondas emparejadas: ninguna)."),
])
def test_round_before_anything_is_paired_says_what_tiebreak_round_says(service: BotService, store: SQLiteStore,
                                                                        language: str, asked: str,
                                                                        expected: str) -> None:
    """/round decides as ``tiebreak round`` does (``tiebreak.running.round_to_show``): round 3
    of an event with nothing paired is a round not paired yet, round 99 one it does not have."""
    slug = import_swiss(store)
    store.create("fresh", replace(store.state(slug).base, games=(), byes=(), withdrawals=()), CLI)
    choose(service, PLAYER, "fresh")
    assert text_of(players.round(service, who(PLAYER, language), asked)) == expected


def test_undo_takes_back_a_foul_and_says_what_the_board_has_now(service: BotService, store: SQLiteStore) -> None:
    a, _ = two_events(store)
    choose(service, CHIEF, a)
    running.pair(service, who(CHIEF))
    entering.text(service, who(CHIEF), "R1 B1 1-0")
    entering.text(service, who(CHIEF), "R1 B1 1-0 foul black")  # the result stands; a foul is added
    assert store.state(a).game(1, 1).fouls_black == 1
    assert text_of(running.undo(service, who(CHIEF))).split("\n")[1].startswith("Undone: a foul by ")
    assert store.state(a).game(1, 1).fouls_black == 0
    assert text_of(running.undo(service, who(CHIEF))).split("\n")[1] == (
        "Undone: round 1, board 1 2-0. The board now has no result.")
    assert text_of(running.undo(service, who(CHIEF))).split("\n")[1] == (  # and the pairing before
        "Undone: the pairing of round 1. Round 1 is not paired now.")
    assert text_of(running.undo(service, who(CHIEF))) == "Nothing to undo."


# -- 11.8: a request applied before is answered, never silence or a false success ----------------

def test_a_repeated_pair_is_not_a_false_success(service: BotService, store: SQLiteStore) -> None:
    a, _ = two_events(store)
    choose(service, CHIEF, a)
    first = who(CHIEF)
    assert text_of(running.pair(service, first)).startswith("Round 1 paired")
    again = text_of(running.pair(service, first))  # the same update: the store applied it once
    assert not again.startswith("Round 2 paired") and store.state(a).paired_rounds() == [1]
