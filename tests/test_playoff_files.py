"""Play-offs (docs/rules.md#play-offs) through the tournament file and the command line."""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path

import cli

from ranking.event.model import Game, Result
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.tomlfile import parse_tournament_toml
from tiebreak.files import load_tournament

FILE = Path(__file__).parent / "data" / "playoffs" / "tied-for-first.toml"


def standings_json(path: Path) -> dict:
    result = cli.tiebreak("standings", path, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_tie_for_first_asks_for_a_play_off_then_the_match_decides(tmp_path: Path) -> None:
    data = standings_json(FILE)
    top = [(row["id"], row["rank"], row.get("playoff")) for row in data["standings"][:2]]
    assert sorted(top) == [(1, 1, "required"), (2, 1, "required")]
    assert data["playoffs"][0]["format"] == "match"

    tournament = load_tournament(FILE)
    played = replace(tournament, playoff_games=(Game(1, 2, 1, Result.WHITE_WINS), Game(2, 1, 2, Result.DRAW)))
    decided = tmp_path / "decided.toml"
    decided.write_text(write_tournament_toml(played), encoding="utf-8")
    data = standings_json(decided)
    assert [(row["id"], row["rank"], row.get("playoff")) for row in data["standings"][:2]] == [
        (2, 1, "decided"), (1, 2, "decided")]


def test_the_play_off_rule_and_games_round_trip_through_toml() -> None:
    tournament = replace(load_tournament(FILE), playoff_games=(Game(1, 2, 1, Result.WHITE_WINS),))
    again = parse_tournament_toml(write_tournament_toml(tournament))
    assert again == tournament
    assert again.rules.playoff.places == (1,)


def test_the_table_says_play_off_required() -> None:
    result = cli.tiebreak("standings", FILE)
    assert "play-off required for places 1-2 (match): " in result.stdout
    assert "play-off round 1:" in result.stdout


def test_an_arbiter_enters_the_play_off_from_the_command_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[storage]\npath = "db.sqlite3"\n')

    def tiebreak(*args: str) -> subprocess.CompletedProcess[str]:
        return cli.tiebreak(*args, "--config", config)

    assert tiebreak("import", str(FILE), "--slug", "po").returncode == 0
    assert "play-off required for places 1-2 (match)" in tiebreak("playoff", "po").stdout
    refused = tiebreak("playoff", "po", "1", "3", "4", "1-0")
    assert refused.returncode == 2 and "has no game 3 - 4 waiting" in refused.stderr
    assert tiebreak("playoff", "po", "1", "2", "1", "1-0").returncode == 0
    decided = tiebreak("playoff", "po", "2", "1", "2", "=")
    # 2 beat 1 with white, then drew: 1½-½, and the places the play-off gave
    assert "places 1-2 decided by the play-off (match: B 1.5-0.5 A): 1. B, 2. A" in decided.stdout
    data = json.loads(tiebreak("standings", "po", "--json").stdout)
    assert [(row["id"], row["rank"]) for row in data["standings"][:2]] == [(2, 1), (1, 2)]
    assert "playoff-result" in tiebreak("log", "po").stdout
