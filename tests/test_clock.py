"""The event's clock (``ranking.event.clock``): which rounds are paired, which round is next and
which rounds may be paired, asked the same way by the event log, the pairing functions, the
site's overview and the application's pairing proposal (issue 26, "One decision, one place")."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranking.event.clock import clock_of
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
