"""Properties that hold for every tournament (hypothesis-generated, byes, forfeits and
withdrawals included)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import id_mappings, renumbered, scoring_systems, tournaments

from ranking.event.model import ByeKind, Result
from ranking.scoring.rules import Edition, Options, Rules, Scoring
from ranking.standings.individual import compute_standings

#: Every tie-break that does not look at starting numbers (TPN, LOT) or at their order.
NEUTRAL_CHAIN = ("DE", "BH-C1", "BH", "BH/M1", "SB", "SB-C1", "FB", "AOB", "KS", "WIN", "WON", "BPG", "BWG",
                 "PS", "REP", "STD", "FOUL", "GP", "ARO", "ARO-C1", "TPR", "PTP", "APRO", "APPO",
                 "PREV", "PS-D", "DEB")

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _rows(standings):
    return {row.player.id: (row.rank, row.points, row.values) for row in standings.rows}


@SETTINGS
@given(st.data(), tournaments(), scoring_systems(), st.sampled_from(list(Edition)))
def test_renumbering_players_changes_nothing(data, tournament, scoring, edition) -> None:
    mapping = data.draw(id_mappings([player.id for player in tournament.players]))
    rules = Rules(scoring, NEUTRAL_CHAIN, Options(fide_edition=edition))
    before = _rows(compute_standings(tournament, rules))
    after = _rows(compute_standings(renumbered(tournament, mapping), rules))
    assert {mapping[player]: row for player, row in before.items()} == after


def _awarded(tournament, scoring: Scoring, rounds: int) -> float:
    """Points handed out by the games and byes of rounds 1..rounds, counted independently."""
    total = 0.0
    for game in tournament.games:
        if game.round > rounds or game.result is None:
            continue
        total += {
            Result.WHITE_WINS: scoring.win + scoring.loss,
            Result.BLACK_WINS: scoring.win + scoring.loss,
            Result.DRAW: scoring.game_points(scoring.outcome_of(scoring.draw), True)
            + scoring.game_points(scoring.outcome_of(scoring.draw), False),
            Result.WHITE_WINS_FORFEIT: scoring.forfeit_win_points + scoring.forfeit_loss_points,
            Result.BLACK_WINS_FORFEIT: scoring.forfeit_win_points + scoring.forfeit_loss_points,
            Result.DOUBLE_FORFEIT: 2 * scoring.forfeit_loss_points,
            Result.BOTH_LOSE: 2 * scoring.loss,
            Result.WHITE_HALF: scoring.draw_first if scoring.draw_first is not None else scoring.draw,
            Result.BLACK_HALF: scoring.draw_second if scoring.draw_second is not None else scoring.draw,
        }[game.result] + (scoring.loss if game.result in (Result.WHITE_HALF, Result.BLACK_HALF) else 0)
    playing = {(game.round, player) for game in tournament.games for player in (game.white, game.black)}
    for bye in tournament.byes:
        if bye.round <= rounds and (bye.round, bye.player) not in playing:
            total += {ByeKind.PAIRING: scoring.pairing_bye_points, ByeKind.FULL: scoring.full_bye_points,
                      ByeKind.HALF: scoring.half_bye_points, ByeKind.ZERO: scoring.zero_bye}[bye.kind]
    return total


@SETTINGS
@given(tournaments(), scoring_systems())
def test_points_sum_to_what_was_awarded(tournament, scoring) -> None:
    standings = compute_standings(tournament, Rules(scoring, ("WIN",)))
    assert sum(row.points for row in standings.rows) == _awarded(tournament, scoring, standings.after_round)


@SETTINGS
@given(tournaments(), scoring_systems(), st.sampled_from(list(Edition)))
def test_cuts_never_raise_a_buchholz_or_sonneborn_berger(tournament, scoring, edition) -> None:
    chain = ("BH", "BH-C1", "BH-C2", "BH-M1", "SB", "SB-C1", "SB-C2")
    standings = compute_standings(tournament, Rules(scoring, chain, Options(fide_edition=edition)))
    for row in standings.rows:
        values = row.values
        assert values["BH"] >= values["BH-C1"] >= values["BH-C2"]
        assert values["BH-C1"] >= values["BH-M1"]
        assert values["SB"] >= values["SB-C1"] >= values["SB-C2"]


@SETTINGS
@given(tournaments(), scoring_systems())
def test_places_follow_points_and_ties_share_the_better_place(tournament, scoring) -> None:
    chain = ("BH-C1", "BH", "SB", "DE", "WIN")
    rows = compute_standings(tournament, Rules(scoring, chain)).rows
    for position, row in enumerate(rows):
        ahead = [other for other in rows if (other.points, *other.values.values()) != (row.points, *row.values.values())
                 and other.rank < row.rank]
        assert row.rank == len(ahead) + 1
        if position:
            previous = rows[position - 1]
            assert previous.points >= row.points
            equal = (previous.points, *previous.values.values()) == (row.points, *row.values.values())
            assert (previous.rank == row.rank) == equal or previous.rank < row.rank


@SETTINGS
@given(st.integers(1, 8))
def test_a_tournament_of_draws_is_one_shared_first_place(pairs) -> None:
    from build import make

    tournament = make(["; ".join(f"{2 * i - 1}-{2 * i} =" for i in range(1, pairs + 1))])
    standings = compute_standings(tournament, Rules(tiebreaks=("BH-C1", "BH", "SB", "DE", "WIN", "PS", "ARO")))
    assert {row.rank for row in standings.rows} == {1}


def test_rules_are_frozen() -> None:
    rules = Rules()
    try:
        rules.tiebreaks = ("BH",)  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("Rules must be immutable")
    assert replace(rules, tiebreaks=("BH",)).tiebreaks == ("BH",)
