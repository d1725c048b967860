"""The scorecards behind the site's player pages and team rounds (``ranking.player_scorecards``,
``ranking.team_scorecards``) and the legends under its tables: read from the standings' own
scoresheets, so they cannot disagree with the standings."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ranking import (
    REGISTRY,
    TEAM_REGISTRY,
    Bye,
    ByeKind,
    Game,
    Player,
    Result,
    Tournament,
    Withdrawal,
    compute_standings,
    default_rules,
    legend,
    player_scorecards,
    team_event_of,
    team_legend,
    team_scorecards,
    team_standings,
)
from tiebreak.files import load_tournament

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
TEAM_FILES = (DATA / "teams" / "xiangqi-league.toml", DATA / "teams" / "three-team-cup-2026.trf")
FILES = (ROOT / "ranking" / "examples" / "xiangqi-rr.toml", ROOT / "ranking" / "examples" / "chess-swiss.trf",
         DATA / "site" / "hostile-names.toml", *TEAM_FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_every_card_adds_up_to_the_players_points_in_the_standings(path: Path) -> None:
    tournament = load_tournament(path)
    standings = compute_standings(tournament)
    cards = player_scorecards(tournament)
    for row in standings.rows:
        card = cards[row.player.id]
        assert card.player == row.player
        assert [entry.round for entry in card.rounds] == list(range(1, standings.after_round + 1))
        assert card.points == row.points
        assert card.rounds[-1].score == row.points  # the running score ends at the total


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_a_cards_performance_is_the_standings_tpr_and_aro(path: Path) -> None:
    tournament = load_tournament(path)
    rules = replace(default_rules(tournament), tiebreaks=("TPR", "ARO"))
    cards = player_scorecards(tournament, rules)
    for row in compute_standings(tournament, rules).rows:
        assert (cards[row.player.id].tpr, cards[row.player.id].aro) == (row.values["TPR"], row.values["ARO"])


def test_a_card_shows_each_rounds_opponent_colour_result_and_running_score() -> None:
    players = tuple(Player(number, name, 2000 - 100 * number) for number, name in enumerate("ABCD", start=1))
    games = (Game(1, 1, 2, Result.WHITE_WINS, board=1), Game(1, 3, 4, Result.DRAW, board=2),
             Game(2, 4, 1, Result.DRAW, board=1))
    tournament = Tournament("Four", players, 3, games, byes=(Bye(2, 2, ByeKind.HALF), Bye(2, 3, ByeKind.HALF)))
    card = player_scorecards(tournament)[1]
    first, second = card.rounds
    assert (first.opponent, first.white, first.board, first.result, first.points, first.score) == (
        2, True, 1, Result.WHITE_WINS, 1.0, 1.0)
    assert (second.opponent, second.white, second.result, second.points, second.score) == (
        4, False, Result.DRAW, 0.5, 1.5)
    bye = player_scorecards(tournament)[2].rounds[1]
    assert (bye.opponent, bye.bye, bye.points, bye.score) == (None, ByeKind.HALF, 0.5, 0.5)


def test_a_game_left_unplayed_by_a_withdrawal_counts_as_a_forfeit_win_on_the_card() -> None:
    """A game left unplayed by a withdrawal is on the card as the standings count it: won by
    forfeit (so the page's cells add up to the score)."""
    players = tuple(Player(number, name) for number, name in enumerate("ABCD", start=1))
    games = (Game(1, 1, 2, Result.WHITE_WINS), Game(1, 3, 4, Result.WHITE_WINS),
             Game(2, 1, 3, None), Game(2, 4, 2, None))
    tournament = Tournament("Four", players, 3, games, withdrawals=(Withdrawal(4, 1),))
    cards = player_scorecards(tournament, after_round=2)
    unfinished, forfeited = cards[1].rounds[1], cards[2].rounds[1]
    assert (unfinished.result, unfinished.points, unfinished.score) == (None, None, None)
    assert (forfeited.opponent, forfeited.result, forfeited.points, forfeited.score) == (
        4, Result.BLACK_WINS_FORFEIT, 1.0, 1.0)


@pytest.mark.parametrize("path", TEAM_FILES, ids=lambda path: path.name)
def test_every_team_card_adds_up_to_the_team_standings(path: Path) -> None:
    event = team_event_of(load_tournament(path))
    table = team_standings(event)
    cards = team_scorecards(event)
    for row in table.rows:
        rounds = cards[row.team.id].rounds
        assert len(rounds) == table.after_round
        assert sum(entry.match_points or 0 for entry in rounds) == row.match_points
        assert sum(entry.game_points or 0 for entry in rounds) == row.game_points


def test_the_legend_names_each_code_as_the_registry_does() -> None:
    entries = legend(["BH-C1", "AROC", "DE"])
    assert [entry.code for entry in entries] == ["BH-C1", "AROC", "DE"]
    assert [entry.name for entry in entries] == [REGISTRY["BH"].name, REGISTRY["ARO"].name, REGISTRY["DE"].name]
    assert [entry.orders for entry in entries] == [False, False, True]
    assert entries[0].article == REGISTRY["BH"].article and entries[0].definition == REGISTRY["BH"].definition
    [team] = team_legend(["BH:MP/C1"])
    assert (team.code, team.name) == ("BH:MP/C1", TEAM_REGISTRY["BH"].name)
