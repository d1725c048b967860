"""docs/rules.md#withdrawals: what a withdrawal does to the results."""

from __future__ import annotations

from dataclasses import replace

import pytest
from build import make

from ranking.event.model import Result, System, Withdrawal
from ranking.event.withdrawals import apply_withdrawals
from ranking.scoring.rules import Options, RoundRobinWithdrawal, Rules
from ranking.standings.individual import compute_standings

# A 4-player round robin; player 4 withdraws.  Rounds 1-3 on the Berger table.
ROUNDS = ["1-4 1-0; 2-3 =", "4-3 ?; 1-2 ?", "2-4 ?; 3-1 ?"]


def rr(after_round: int, results: list[str]) -> object:
    tournament = make(results, system=System.ROUND_ROBIN)
    return replace(tournament, withdrawals=(Withdrawal(4, after_round),))


def points(tournament, mode: RoundRobinWithdrawal) -> dict[int, float]:
    standings = compute_standings(tournament, Rules(options=Options(rr_withdrawal=mode)))
    return {row.player.id: row.points for row in standings.rows}


def test_fide_keeps_results_and_forfeits_the_unplayed_games() -> None:
    tournament = rr(1, ["1-4 1-0; 2-3 =", "4-3 ?; 1-2 =", "2-4 ?; 3-1 ="])
    assert points(tournament, RoundRobinWithdrawal.KEEP) == {1: 2.0, 2: 2.0, 3: 2.0, 4: 0.0}
    effects = apply_withdrawals(tournament, Rules())
    assert {(g.round, g.result) for g in effects.forfeited} == {(2, Result.BLACK_WINS_FORFEIT),
                                                               (3, Result.WHITE_WINS_FORFEIT)}


def test_vn_annuls_a_player_who_played_half_or_fewer() -> None:
    """VN 21.5.1: 1 game of 3 played -> everything annulled, opponents lose those points."""
    tournament = rr(1, ["1-4 1-0; 2-3 =", "4-3 ?; 1-2 =", "2-4 ?; 3-1 ="])
    assert points(tournament, RoundRobinWithdrawal.ANNUL_AT_MOST_HALF) == {1: 1.0, 2: 1.0, 3: 1.0, 4: 0.0}


def test_vn_keeps_results_of_a_player_who_played_more_than_half() -> None:
    tournament = rr(2, ["1-4 1-0; 2-3 =", "4-3 0-1; 1-2 =", "2-4 ?; 3-1 ="])
    assert points(tournament, RoundRobinWithdrawal.ANNUL_AT_MOST_HALF) == {1: 2.0, 2: 2.0, 3: 2.0, 4: 0.0}


@pytest.mark.parametrize(("mode", "annulled"), [(RoundRobinWithdrawal.ANNUL_AT_MOST_HALF, True),
                                                (RoundRobinWithdrawal.ANNUL_BELOW_HALF, False)])
def test_exactly_half_is_annulled_by_vn_but_not_by_the_older_cxa_rule(mode, annulled) -> None:
    # 6 players, 5 games each; 4 withdraws... use a double round robin of 3 players: 4 games each
    results = ["1-2 1-0; 3 Z", "3-1 =; 2 Z", "2-3 0-1; 1 Z", "2-1 ?; 3 Z", "1-3 ?; 2 Z", "3-2 ?; 1 Z"]
    tournament = replace(make(results, system=System.DOUBLE_ROUND_ROBIN), withdrawals=(Withdrawal(2, 3),))
    effects = apply_withdrawals(tournament, Rules(options=Options(rr_withdrawal=mode)))
    assert bool(effects.annulled) is annulled


def test_swiss_results_stand_and_a_paired_opponent_wins_by_forfeit() -> None:
    """VN 21.5.2 / FIDE: results stand; a game already paired is a forfeit win."""
    tournament = replace(make(["1-2 1-0; 3-4 =", "1-3 ?; 2-4 ?"]), withdrawals=(Withdrawal(4, 1),))
    standings = compute_standings(tournament)
    by_id = {row.player.id: row.points for row in standings.rows}
    assert by_id[2] == 1.0 and by_id[4] == 0.5
