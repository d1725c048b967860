"""The event's clock (``ranking.event.clock``): which rounds are paired, which round is next and
which rounds may be paired, asked the same way by the event log, the pairing functions, the
site's overview and the application's pairing proposal (issue 26, "One decision, one place")."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranking.event import clock
from ranking.event.clock import board_results, clock_of
from ranking.event.log import TournamentState, pairing_event
from ranking.event.refusals import Code, Refusal
from ranking.formats.tomlfile import parse_tournament_toml
from tiebreak.running import propose_pairing

LEAGUE = Path(__file__).parent / "data" / "teams" / "xiangqi-league.toml"


def league_by_totals() -> str:
    """The four-team xiangqi league, its round 1 given as two team matches by their totals
    (``first_points``/``second_points``), no board games."""
    text = LEAGUE.read_text(encoding="utf-8")
    head, _, _ = text.partition("[[games]]")
    teams = text[text.index("[[teams]]"):]
    return head + teams + """
[[team_matches]]
round = 1
first = 1
second = 4
first_points = 4
second_points = 2

[[team_matches]]
round = 1
second = 3
first = 2
first_points = 3
second_points = 3
"""


def test_a_team_round_robin_paired_by_its_totals_is_not_paired_again() -> None:
    league = parse_tournament_toml(league_by_totals(), "league.toml")
    assert not league.games and len(league.team_matches) == 2
    clock = clock_of(league)
    assert (clock.paired, clock.complete, clock.next_round) == ((1,), (1,), 2)
    proposal = propose_pairing(league)
    assert proposal.round == 2 and {game.round for game in proposal.games} == {2}
    state = TournamentState(league)
    assert state.paired_rounds() == [1]
    with pytest.raises(Refusal) as again:
        pairing_event(state, 1, proposal.games, ())
    assert again.value.code is Code.ROUND_ALREADY_PAIRED
    with pytest.raises(Refusal) as board:  # round 1 is paired, by its totals: it has no board 1
        state.game(1, 1)
    assert board.value.code is Code.NO_SUCH_BOARD
    state.apply(proposal.event(state))
    assert state.paired_rounds() == [1, 2]


SWISS_WITHOUT_ROUNDS = """
[tournament]
name = "Club Swiss"
system = "swiss"
""" + "".join(f"""
[[players]]
id = {number}
name = "Player {number}"
rating = {2000 - number}
""" for number in range(1, 5))


def test_a_swiss_whose_rounds_are_not_known_is_paired_round_after_round() -> None:
    from ranking.event.log import bye_event, withdrawal_event
    from ranking.event.model import ByeKind
    from tiebreak.checks import check_admissible

    swiss = parse_tournament_toml(SWISS_WITHOUT_ROUNDS, "club.toml")
    check_admissible(swiss, "club")
    assert swiss.rounds == 0 and clock_of(swiss).limit is None and clock_of(swiss).may_pair(12)
    state = TournamentState(swiss)
    proposal = propose_pairing(state.snapshot())
    assert proposal.round == 1 and len(proposal.games) == 2
    state.apply(proposal.event(state))  # the proposal shown is the one stored on confirm
    assert state.paired_rounds() == [1]
    state.apply(bye_event(state, 3, 4, ByeKind.HALF))  # a bye asked for ahead
    state.apply(withdrawal_event(state, 2, after_round=2))
    with pytest.raises(Refusal) as zero:
        bye_event(state, 0, 4, ByeKind.HALF)
    assert zero.value.code is Code.ROUND_OUT_OF_RANGE


def test_a_round_robin_may_pair_the_rounds_of_its_schedule_whatever_its_rounds_say() -> None:
    from dataclasses import replace

    league = parse_tournament_toml(league_by_totals(), "league.toml")
    assert clock_of(league).limit == 3
    state = TournamentState(replace(league, rounds=9))  # four teams: three rounds
    with pytest.raises(Refusal) as beyond:
        pairing_event(state, 4, (), ())
    assert beyond.value.code is Code.ROUND_OUT_OF_RANGE and beyond.value.params["rounds"] == 3


def test_a_round_of_a_swiss_whose_rounds_are_not_known_is_shown() -> None:
    from tiebreak.running import round_to_show

    state = TournamentState(parse_tournament_toml(SWISS_WITHOUT_ROUNDS, "club.toml"))
    for _ in range(2):
        state.apply(propose_pairing(state.snapshot()).event(state))
    assert round_to_show(state, 2) == 2 and round_to_show(state, None) == 1
    with pytest.raises(Refusal) as later:
        round_to_show(state, 3)
    assert later.value.code is Code.ROUND_NOT_PAIRED


def test_a_clock_from_the_board_results_the_caller_has(monkeypatch: pytest.MonkeyPatch) -> None:
    """The site's pages give ``clock_of`` the board results they computed: the same clock, and
    the results are not computed again."""
    tournament = parse_tournament_toml(SWISS_WITHOUT_ROUNDS, "swiss.toml")
    expected, results = clock_of(tournament), board_results(tournament)
    monkeypatch.setattr(clock, "board_results", lambda tournament: pytest.fail("the results computed again"))
    assert clock_of(tournament, results) == expected
