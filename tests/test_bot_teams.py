"""The bot's team and play-off views (bot/service.py): /teams, /round grouped by team match,
play-off status in /standings and /playoff, and play-off results entered by arbiters
(the PLAYOFF_RESULT event of ranking/event/log.py)."""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot import entering, handlers, players
from bot import messages as M
from bot.formatting import MESSAGE_LIMIT
from bot.messages import translator
from bot.replies import Reply
from bot.service import BotService, BotSettings, Who
from ranking.errors import InputError
from ranking.event.log import EventKind, TournamentState, playoff_result_event
from ranking.event.model import Game, Result
from ranking.standings.individual import compute_standings, default_rules
from ranking.standings.playoffs import apply_playoffs
from ranking.standings.team import team_event_of, team_standings
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore
from tiebreak.tables import format_column

DATA = Path(__file__).resolve().parent / "data"
LEAGUE = DATA / "teams" / "xiangqi-league.toml"
TIED = DATA / "playoffs" / "tied-for-first.toml"
INDIVIDUAL = Path(__file__).resolve().parent.parent / "ranking" / "examples" / "xiangqi-rr.toml"
CLI = Source("cli:test")

CHIEF = 1001
PLAYER = 2002

_ids = itertools.count(1)


def who(user: int, lang: str | None = "en") -> Who:
    number = next(_ids)
    return Who(user, user, lang, message_id=number, update_id=number)


def text_of(replies: Sequence[Reply]) -> str:
    return "\n".join(reply.text for reply in replies)


def visible(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def assert_telegram_html(replies: Sequence[Reply]) -> None:
    for reply in replies:
        assert reply.text
        assert set(re.findall(r"</?([a-z]+)[^>]*>", reply.text)) <= {"b", "pre"}, reply.text
        assert reply.text.count("<pre>") == reply.text.count("</pre>")
        assert len(visible(reply.text).encode("utf-16-le")) // 2 <= MESSAGE_LIMIT


@pytest.fixture
def service(store: SQLiteStore) -> BotService:
    return BotService(store, BotSettings(arbiters=frozenset({CHIEF})))


def test_the_commands_are_registered():
    assert handlers.COMMANDS["teams"] is handlers.on_teams
    assert handlers.COMMANDS["playoff"] is handlers.on_playoff


# -- /teams -----------------------------------------------------------------------------------

def test_teams_shows_the_team_standings(store, service):
    tournament = load_tournament(LEAGUE)
    store.create("league", tournament, CLI)
    replies = players.teams(service, who(PLAYER))
    assert_telegram_html(replies)
    shown = visible(text_of(replies))
    expected = team_standings(team_event_of(tournament))
    assert "Team standings after round 3" in shown
    table = [line.split() for line in shown.split("\n") if line and line.split()[0].isdigit()]
    mp = format_column([row.match_points for row in expected.rows])
    gp = format_column([row.game_points for row in expected.rows])
    assert [(cells[0], " ".join(cells[1:-4]), cells[-4], cells[-3]) for cells in table] == [
        (str(row.rank), row.team.name, mp[index], gp[index]) for index, row in enumerate(expected.rows)]
    header = next(line for line in shown.split("\n") if line.lstrip().startswith("#"))
    assert header.split() == ["#", "MP", "GP", "EDE", "BH:MP"]  # GP is not repeated as a tie-break
    assert [cells[-1] for cells in table] == format_column([row.values["BH:MP"] for row in expected.rows])


def test_teams_in_chinese_and_for_an_individual_event(store, service):
    store.create("league", load_tournament(LEAGUE), CLI)
    assert "第3轮后团体排名" in text_of(players.teams(service, who(PLAYER, "zh")))
    store.create("solo", load_tournament(INDIVIDUAL), CLI)
    players.start(service, who(PLAYER), "solo")
    for lang in ("en", "zh", "vi", "es"):
        replies = players.teams(service, who(PLAYER, lang))
        assert text_of(replies) == translator(lang).gettext(M.NO_TEAMS)
    assert text_of(players.teams(service, who(PLAYER))) == "This tournament has no teams."


def test_a_long_team_table_is_split_below_the_limit(store, service):
    from dataclasses import replace

    from ranking.event.model import Team

    tournament = load_tournament(LEAGUE)
    many = tuple(Team(100 + number, f"Team number {number} with a long name", ()) for number in range(400))
    store.create("league", replace(tournament, teams=tournament.teams + many), CLI)
    replies = players.teams(service, who(PLAYER))
    assert len(replies) > 1
    assert_telegram_html(replies)


# -- /round on a team event ------------------------------------------------------------------

def test_round_groups_the_boards_by_team_match(store, service):
    store.create("league", load_tournament(LEAGUE), CLI)
    replies = players.round(service, who(PLAYER), "1")
    assert_telegram_html(replies)
    text = text_of(replies)
    # round 1: 北京 (1, 2, 3) - Sài Gòn (10, 11, 12) on boards 1-3: ½-½, 0-1 (北京's 2 black wins), ½-½
    # xiangqi game points 2/1/0: 北京 1 + 2 + 1 = 4, Sài Gòn 2
    assert "<b>北京 4–2 Sài Gòn</b>" in text
    # 上海 (4, 5, 6) - Hà Nội (7, 8, 9) on boards 4-6: 1-0, 0-1, 1-0 -> 4-2
    assert "<b>上海 4–2 Hà Nội</b>" in text
    shown = visible(text)
    first, second = shown.index("北京 4–2 Sài Gòn"), shown.index("上海 4–2 Hà Nội")
    assert first < shown.index("王天一") < second < shown.index("许银川")
    assert shown.count("<pre>") == 0 and text.count("<pre>") == 2


def test_round_shows_a_match_in_progress(store, service):
    from dataclasses import replace

    tournament = load_tournament(LEAGUE)
    games = tuple(replace(game, result=None) if (game.round, game.board) == (2, 1) else game
                  for game in tournament.games)
    store.create("league", replace(tournament, games=games), CLI)
    text = text_of(players.round(service, who(PLAYER), "2"))
    # round 2, boards 1-3: Sài Gòn - Hà Nội, board 1 (10-7) unfinished, boards 2 and 3 won by Hà Nội
    assert "Sài Gòn 0–4 Hà Nội …" in visible(text)


def test_a_match_given_by_one_total_only_is_not_finished(store, service):
    """Issue 26: the view asks the core (``match_score``) for the score and whether the match is
    finished: one total without the other finishes nothing, as the clock says."""
    from ranking.event.clock import clock_of
    from ranking.event.model import Player, Team, TeamMatch, Tournament

    tournament = Tournament("Cup", tuple(Player(i, f"P{i}") for i in range(1, 9)), 1,
                            teams=(Team(1, "A", (1, 2)), Team(2, "B", (3, 4)), Team(3, "C", (5, 6)),
                                   Team(4, "D", (7, 8))),
                            team_matches=(TeamMatch(1, 1, 4, first_points=3), TeamMatch(1, 2, 3, first_points=2.5,
                                                                                         second_points=1.5)))
    assert clock_of(tournament).complete == ()
    store.create("cup", tournament, CLI)
    shown = visible(text_of(players.round(service, who(PLAYER), "1")))
    assert "A 0–0 D …" in shown and "B 2½–1½ C\n" in shown + "\n"


def test_round_of_an_individual_event_is_unchanged(store, service):
    store.create("solo", load_tournament(INDIVIDUAL), CLI)
    text = text_of(players.round(service, who(PLAYER), "1"))
    assert "–" not in visible(text).split("\n")[1]
    assert text.count("<pre>") == 1


# -- play-offs ----------------------------------------------------------------------------------

def playoff_schedule(store: SQLiteStore, slug: str) -> list[Game]:
    tournament = store.tournament(slug)
    rules = default_rules(tournament)
    playoffs = apply_playoffs(compute_standings(tournament, rules), rules.playoff, tournament.playoff_games)
    return [game for group in playoffs.groups for game in group.pending]


def test_standings_mark_the_players_who_need_a_play_off(store, service):
    store.create("tied", load_tournament(TIED), CLI)
    replies = players.standings(service, who(PLAYER))
    assert_telegram_html(replies)
    shown = visible(text_of(replies))
    rows = {line.split()[1]: line.split()[0] for line in shown.split("\n")
            if line.split() and line.split()[0][:1].isdigit() and len(line.split()) > 2}
    assert rows == {"A": "1*", "B": "1*", "C": "3", "D": "4"}
    assert "* play-off required" in shown
    assert "Play-off required for places 1-2 (two-game match): B, A" in shown or \
        "Play-off required for places 1-2 (two-game match): A, B" in shown
    first, second = playoff_schedule(store, "tied")
    names = {1: "A", 2: "B"}
    assert f"Play-off round 1: {names[first.white]} – {names[first.black]}" in shown
    assert f"Play-off round 2: {names[second.white]} – {names[second.black]}" in shown
    zh = visible(text_of(players.standings(service, who(PLAYER, "zh"))))
    assert "* 需要加赛" in zh and "第1-2名需要加赛（两局制对抗）" in zh


def test_playoff_shows_the_detail(store, service):
    store.create("tied", load_tournament(TIED), CLI)
    replies = players.playoff(service, who(PLAYER))
    assert_telegram_html(replies)
    shown = visible(text_of(replies))
    assert "Play-off test" in shown
    assert "Match" in shown and "Still to play:" in shown
    assert shown.count("Play-off round 1:") == 2  # in the match and in the list of games to play


def test_playoff_without_a_rule_or_before_the_last_round(store, service):
    from dataclasses import replace

    store.create("solo", load_tournament(INDIVIDUAL), CLI)
    assert visible(text_of(players.playoff(service, who(PLAYER)))).endswith(
        "This tournament decides no places by play-off.")
    tied = load_tournament(TIED)
    store.create("early", replace(tied, games=tuple(g for g in tied.games if g.round < 3)), CLI)
    players.start(service, who(PLAYER), "early")
    assert "follows the last round (round 3)" in visible(text_of(players.playoff(service, who(PLAYER))))
    assert "play-off" not in visible(text_of(players.standings(service, who(PLAYER))))


def test_no_play_off_is_asked_for_or_accepted_while_a_board_of_the_last_round_waits(store, service):
    """Issue 26: results in the last round do not end the event; the clock does (5-2 waits)."""
    from build import make

    from ranking.scoring.rules import PlayoffRule, Rules

    tournament = make(["1-2 1-0; 3-4 1-0; 5-6 1-0", "1-3 =; 4-6 1-0; 5-2 ?"],
                      rules=Rules(tiebreaks=("RTNG",), playoff=PlayoffRule()))
    store.create("open", tournament, CLI)
    players.start(service, who(CHIEF), "open")
    assert "follows the last round (round 2)" in visible(text_of(players.playoff(service, who(CHIEF))))
    assert "play-off" not in visible(text_of(players.standings(service, who(CHIEF))))
    before = len(store.log("open"))
    refused = visible(text_of(entering.playoff_result(service, who(CHIEF), "1 3 1-0")))
    assert "No play-off game between 1. Player 1 and 3. Player 3 is waiting for a result." in refused
    assert len(store.log("open")) == before and store.tournament("open").playoff_games == ()


def test_an_arbiter_enters_play_off_results_that_decide_the_places(store, service):
    store.create("tied", load_tournament(TIED), CLI)
    first, second = playoff_schedule(store, "tied")
    arbiter = who(CHIEF)
    replies = entering.playoff_result(service, arbiter, f"{first.white} {first.black} 1-0")
    assert_telegram_html(replies)
    names = {1: "A", 2: "B"}
    assert f"Play-off round 1: {names[first.white]} – {names[first.black]} 1-0 recorded" in visible(text_of(replies))
    logged = store.log("tied")[-1]
    assert logged.event.kind is EventKind.PLAYOFF_RESULT
    assert dict(logged.event.data) == {"round": 1, "white": first.white, "black": first.black, "result": "1-0"}
    assert (logged.actor, logged.chat_id, logged.message_id) == (f"tg:{CHIEF}", CHIEF, arbiter.message_id)
    assert store.tournament("tied").playoff_games == (Game(1, first.white, first.black, Result.WHITE_WINS),)
    # the same update again (Telegram retries) changes nothing
    assert entering.playoff_result(service, arbiter, f"{first.white} {first.black} 1-0") == []
    assert len([e for e in store.log("tied") if e.event.kind is EventKind.PLAYOFF_RESULT]) == 1
    # the second game drawn: the first game's winner takes the match
    entering.playoff_result(service, who(CHIEF), f"{second.white} {second.black} ½-½")
    assert playoff_schedule(store, "tied") == []
    winner = first.white
    shown = visible(text_of(players.standings(service, who(PLAYER))))
    rows = [line.split() for line in shown.split("\n") if line.split() and line.split()[0][:1].isdigit()
            and len(line.split()) > 2]
    assert [(cells[0], cells[1]) for cells in rows][:2] == [("1", names[winner]), ("2", names[3 - winner])]
    assert "*" not in shown.split("Places")[0].split("Standings")[1]
    # the play-off's result (1-0 then a draw: 1½-½) and the places it decided
    assert (f"Places 1-2 decided by the play-off (two-game match: {names[winner]} 1½–½ {names[3 - winner]}): "
            f"1. {names[winner]}, 2. {names[3 - winner]}") in shown
    assert "✓" in visible(text_of(players.playoff(service, who(PLAYER))))


def test_the_play_off_survives_a_fresh_store(store, service, tmp_path):
    store.create("tied", load_tournament(TIED), CLI)
    first, _ = playoff_schedule(store, "tied")
    entering.playoff_result(service, who(CHIEF), f"{first.black} {first.white} 0-1")  # colours as played
    with SQLiteStore(tmp_path / "bot.sqlite3") as again:
        assert again.tournament("tied").playoff_games == (Game(1, first.black, first.white, Result.BLACK_WINS),)


def test_play_off_entry_is_refused_to_players(store, service):
    store.create("tied", load_tournament(TIED), CLI)
    first, _ = playoff_schedule(store, "tied")
    before = len(store.log("tied"))
    replies = entering.playoff_result(service, who(PLAYER), f"{first.white} {first.black} 1-0")
    assert text_of(replies) == "Only arbiters can enter results."
    assert len(store.log("tied")) == before


def test_a_pair_without_a_pending_play_off_game_is_refused(store, service):
    store.create("tied", load_tournament(TIED), CLI)
    before = len(store.log("tied"))
    assert text_of(entering.playoff_result(service, who(CHIEF), "1 3 1-0")) == (
        "No play-off game between 1. A and 3. C is waiting for a result.")
    assert "没有待录入成绩的加赛对局" in text_of(entering.playoff_result(service, who(CHIEF, "zh"), "1 3 1-0"))
    assert text_of(entering.playoff_result(service, who(CHIEF), "1 9 1-0")).startswith(
        "Refused: player 9 is not in the tournament")
    assert text_of(entering.playoff_result(service, who(CHIEF), "1 2")) == translator("en").gettext(M.PLAYOFF_USAGE)
    assert "is not a result" in text_of(entering.playoff_result(service, who(CHIEF), "1 2 2-1x"))
    assert len(store.log("tied")) == before
    # each wins with white: the drawn match goes on to an Armageddon game; once it is played,
    # nothing of the pair is pending any more
    for game in playoff_schedule(store, "tied"):
        entering.playoff_result(service, who(CHIEF), f"{game.white} {game.black} 1-0")
    armageddon, = playoff_schedule(store, "tied")
    assert armageddon.round == 3
    assert "Match: Armageddon game" in visible(text_of(players.playoff(service, who(PLAYER))))
    entering.playoff_result(service, who(CHIEF), f"{armageddon.white} {armageddon.black} 1/2-1/2")
    assert playoff_schedule(store, "tied") == []
    assert "is waiting for a result" in text_of(entering.playoff_result(service, who(CHIEF), "1 2 1-0"))


def test_the_play_off_event_replays_and_checks_its_players():
    tournament = load_tournament(TIED)
    state = TournamentState(tournament)
    event = playoff_result_event(state, 2, 1, 2, "½-½")
    assert dict(event.data) == {"round": 2, "white": 1, "black": 2, "result": "1/2-1/2"}
    state.apply(event)
    state.apply(playoff_result_event(state, 2, 2, 1, "1-0"))  # the same game again: replaces it
    assert state.snapshot().playoff_games == (Game(2, 2, 1, Result.WHITE_WINS),)
    for args in ((1, 1, 9, "1-0"), (1, 1, 1, "1-0"), (0, 1, 2, "1-0"), (1, 1, 2, "2-1")):
        with pytest.raises(InputError, match=r"player|round|result"):
            playoff_result_event(state, *args)
