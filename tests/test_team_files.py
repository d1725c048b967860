"""Team events through the tournament file and `tiebreak standings --teams`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cli
import pytest

from ranking.errors import InputError
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.tomlfile import parse_tournament_toml
from ranking.standings.team import team_event_of, team_standings
from tiebreak.files import load_tournament

LEAGUE = Path(__file__).parent / "data" / "teams" / "xiangqi-league.toml"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return cli.tiebreak(*args)


def test_team_standings_come_from_the_members_games() -> None:
    """CXA 13.2: each board scores 2/1/0 game points; the team with more wins the match."""
    tournament = load_tournament(LEAGUE)
    standings = team_standings(team_event_of(tournament))
    assert sum(row.match_points for row in standings.rows) == 2 * 6  # six matches, 2 points each
    assert sum(row.game_points for row in standings.rows) == 2 * 18  # eighteen boards, 2 points each
    ranks = [row.rank for row in standings.rows]
    assert ranks == sorted(ranks)


def test_the_json_is_extended_with_a_teams_list() -> None:
    result = run("standings", str(LEAGUE), "--teams", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data)[:5] == ["tournament", "after_round", "points", "tiebreaks", "standings"]
    assert data["team_tiebreaks"] == ["GP", "EDE", "BH:MP"]
    assert data["teams"][0]["name"] == "Hà Nội"
    assert set(data["teams"][0]) == {"rank", "id", "name", "match_points", "game_points", "tiebreaks"}
    assert len(data["standings"]) == 12


def test_the_table_shows_the_teams() -> None:
    result = run("standings", str(LEAGUE), "--teams")
    assert result.returncode == 0
    assert "Teams after round 3; tie-breaks: GP, EDE, BH:MP" in result.stdout


def test_teams_round_trip_through_toml() -> None:
    tournament = load_tournament(LEAGUE)
    assert parse_tournament_toml(write_tournament_toml(tournament)) == tournament
    assert len(tournament.teams) == 4 and tournament.team_rules == "cxa-team"


def test_asking_for_teams_of_an_individual_event_is_a_clear_error() -> None:
    result = run("standings", str(ROOT_EXAMPLE), "--teams")
    assert result.returncode == 2 and "has no teams" in result.stderr


ROOT_EXAMPLE = Path(__file__).parent.parent / "ranking" / "examples" / "chess-swiss.trf"


@pytest.mark.parametrize(("text", "message"), [
    ('team_rules = "nope"', "unknown team preset 'nope'"),
])
def test_a_bad_team_preset_is_refused_with_its_line(text: str, message: str) -> None:
    source = LEAGUE.read_text(encoding="utf-8").replace('team_rules = "cxa-team"', text)
    with pytest.raises(InputError, match=message) as caught:
        parse_tournament_toml(source, "league.toml")
    assert caught.value.line is not None


def test_a_team_round_robin_is_paired_board_by_board_from_the_berger_tables(tmp_path: Path) -> None:
    from dataclasses import replace

    from ranking.pairing.pairings import next_team_round_pairing

    league = load_tournament(LEAGUE)
    empty = replace(league, games=())
    games, byes = next_team_round_pairing(empty)
    assert byes == []
    member_of = {player: team.id for team in league.teams for player in team.roster}
    pairs = {frozenset((member_of[g.white], member_of[g.black])) for g in games}
    assert pairs == {frozenset((1, 4)), frozenset((2, 3))}  # Berger round 1 for four teams
    assert [g.board for g in games] == list(range(1, 7))
    first_boards = [g for g in games if {member_of[g.white], member_of[g.black]} == {1, 4}]
    assert [member_of[g.white] for g in first_boards] == [1, 4, 1]  # colours alternate by board
    config = tmp_path / "config.toml"
    config.write_text('[storage]\npath = "db.sqlite3"\n')
    file = tmp_path / "empty.toml"
    file.write_text(write_tournament_toml(empty), encoding="utf-8")
    assert run("import", str(file), "--slug", "lg", "--config", str(config)).returncode == 0
    paired = run("pair", "lg", "--config", str(config))
    assert "paired round 1 of lg: 6 boards" in paired.stdout
