"""FIDE Arbiters' Manual 2026 worked examples of unplayed rounds (C.07 art. 16), both editions.

Each case gives one player's rounds and the final scores of the opponents; the test builds
a tournament with exactly those scores (opponents' other games are against fresh filler
players) and checks BH, BH-C1 and SB under the 2024-08 (OLD) and 2026-03 (NEW) columns.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from build import games_reaching

from ranking.event.model import Bye, ByeKind, Game, Player, Result, Tournament
from ranking.scoring.rules import Edition, Options, Rules
from ranking.standings.individual import compute_standings

DATA = Path(__file__).parent / "data" / "validation" / "fide_arbiters_manual_2026_unplayed_examples"
CASES = [case for case in json.loads((DATA / "expected.json").read_text())["cases"] if "rounds" in case]

#: What the manual's notes say about scheduled opponents who did not play on: the rounds
#: after the forfeit in which they were absent (zero-point byes, C.07 16.2.5).
ABSENT_AFTER_FORFEIT = {"Example 01": 2, "Example 04": 9}

PLAYER = 1


class _Builder:
    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self.games: list[Game] = []
        self.byes: list[Bye] = []
        self.next_id = 2

    def new_player(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def opponent(self, round_number: int, final: float, own: float, absent_after: int) -> int:
        """A player whose score ends at ``final`` after scoring ``own`` in ``round_number``."""
        me = self.new_player()
        needed = final - own
        free = [r for r in range(1, self.rounds + 1) if r != round_number]
        free = free[: len(free) - absent_after] if absent_after else free
        for r in range(round_number + 1, round_number + 1 + absent_after):
            self.byes.append(Bye(r, me, ByeKind.ZERO))
        fillers, self.next_id = games_reaching(me, needed, free, self.next_id)
        self.games.extend(fillers)
        return me


def build(case: dict) -> Tournament:
    builder = _Builder(case["rounds_in_tournament"])
    absent_after = next((n for key, n in ABSENT_AFTER_FORFEIT.items() if case["id"].startswith(key)), 0)
    for entry in case["rounds"]:
        number, kind, points = entry["round"], entry["kind"], entry["points"]
        if kind == "requested_bye_zero":
            builder.byes.append(Bye(number, PLAYER, ByeKind.ZERO))
            continue
        forfeit = kind.startswith("forfeit")
        opponent = builder.opponent(number, entry["opponent_final_score"], 1 - points,
                                    absent_after if forfeit else 0)
        result = {
            (False, 1): Result.WHITE_WINS, (False, 0.5): Result.DRAW, (False, 0): Result.BLACK_WINS,
            (True, 1): Result.WHITE_WINS_FORFEIT, (True, 0): Result.BLACK_WINS_FORFEIT,
        }[forfeit, points]
        builder.games.append(Game(number, PLAYER, opponent, result))
    players = tuple(Player(i, f"P{i}") for i in range(1, builder.next_id))
    return Tournament(case["id"], players, case["rounds_in_tournament"], tuple(builder.games),
                      tuple(builder.byes))


EXPECTATIONS = [
    (case["id"], edition, code, value)
    for case in CASES
    for column, edition in (("2024-08 rules (OLD column)", Edition.FIDE_2024),
                            ("2026-03 rules (NEW column)", Edition.FIDE_2026))
    for code, value in case["expected"][column].items()
]


@pytest.mark.parametrize(("case_id", "edition", "code", "expected"), EXPECTATIONS)
def test_arbiters_manual_2026_unplayed_round_example(case_id: str, edition: Edition, code: str,
                                                     expected: float) -> None:
    case = next(case for case in CASES if case["id"] == case_id)
    tournament = build(case)
    standings = compute_standings(tournament, Rules(tiebreaks=(code,), options=Options(fide_edition=edition)))
    row = next(row for row in standings.rows if row.player.id == PLAYER)
    assert row.points == case["player_score"]
    assert row.values[code] == expected


def test_every_printed_example_is_checked() -> None:
    assert len(EXPECTATIONS) == 12
