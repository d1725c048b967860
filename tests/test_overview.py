"""The tournament's header, progress and coming round-robin rounds (ranking/event/overview.py), and the
header keys of the tournament TOML file."""

from __future__ import annotations

import dataclasses
import datetime
from pathlib import Path

import pytest

from ranking import (
    Game,
    InputError,
    Player,
    Result,
    Stage,
    System,
    Tournament,
    coming_rounds,
    parse_tournament_toml,
    parse_trf,
    round_robin_schedule,
    tournament_details,
    tournament_progress,
    write_tournament_toml,
    write_trf,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "ranking" / "examples"

HEADER_TOML = """\
[tournament]
name = "Hanoi Open"
game = "xiangqi"
rules = "cxa-swiss-bh"
place = "Hà Nội"
federation = "VIE"
start_date = 2026-03-14
end_date = "2026/03/20"
chief_arbiter = "Nguyễn Văn A"
deputy_arbiters = "Trần B, Lê C"
time_control = "60 min + 30 s"

[[players]]
id = 1
name = "A"
"""


def test_the_trf_header_records_are_the_tournaments_details() -> None:
    details = tournament_details(parse_trf((EXAMPLES / "chess-swiss.trf").read_text(encoding="utf-8")))
    assert (details.place, details.federation, details.chief_arbiter) == ("Porto", "POR", "Ferreira, Ana")
    assert (details.start, details.end) == (datetime.date(2026, 5, 2), datetime.date(2026, 5, 6))
    assert details.time_control == "90'/40 moves + 30' + 30\" per move"


def test_toml_header_keys_are_kept_as_trf_records_and_written_back_as_keys() -> None:
    tournament = parse_tournament_toml(HEADER_TOML)
    details = tournament_details(tournament)
    assert details.place == "Hà Nội" and details.federation == "VIE"
    assert details.start == datetime.date(2026, 3, 14) and details.end == datetime.date(2026, 3, 20)
    assert (details.chief_arbiter, details.deputy_arbiters) == ("Nguyễn Văn A", "Trần B, Lê C")
    assert details.time_control == "60 min + 30 s"
    assert (details.preset, details.rules.startswith("CXA 14.3.1")) == ("cxa-swiss-bh", True)
    assert dict(tournament.records)["042"] == "2026/03/14"
    text = write_tournament_toml(tournament)
    assert 'place = "Hà Nội"' in text and 'start_date = "2026/03/14"' in text and "records" not in text
    assert parse_tournament_toml(text) == tournament
    trf = write_trf(tournament)
    assert "\n022 Hà Nội\n" in trf and "\n042 2026/03/14\n" in trf and "\n122 60 min + 30 s\n" in trf
    assert tournament_details(parse_trf(trf)) == details  # the rules too, in a ### tiebreak record


@pytest.mark.parametrize(("line", "words"), [
    ('place = "Hanoi"\nrecords = [["022", "Hue"]]', "place and the record 022"),
    ("start_date = 14", "start_date = 14: expected a date"),
    ('time_control = "90 min\\n+ 30 s"', "time_control"),
])
def test_a_header_key_that_cannot_be_kept_is_one_clear_line(line: str, words: str) -> None:
    text = f'[tournament]\nname = "X"\n{line}\n[[players]]\nid = 1\nname = "A"\n'
    with pytest.raises(InputError, match=words):
        parse_tournament_toml(text, source="x.toml")


def test_dates_as_trf_files_write_them() -> None:
    from ranking import parse_date
    assert parse_date("2026/5/2") == parse_date("2026-05-02") == parse_date("02.05.2026") == datetime.date(2026, 5, 2)
    assert parse_date("2026/02/30") is None and parse_date("spring") is None


def players(count: int) -> tuple[Player, ...]:
    return tuple(Player(number, f"P{number}") for number in range(1, count + 1))


def schedule_games(count: int, rounds: int, results: dict[int, Result | None]) -> tuple[Game, ...]:
    """The Berger games of rounds 1..``rounds`` (results by round: None leaves them open)."""
    table = round_robin_schedule(list(range(1, count + 1)))
    return tuple(Game(number, white, black, results.get(number, Result.DRAW), board)
                 for number in range(1, rounds + 1)
                 for board, (white, black) in enumerate([pair for pair in table[number - 1] if pair[1]], start=1))


def test_progress_from_not_started_to_final() -> None:
    empty = Tournament("RR", players(6), 5, system=System.ROUND_ROBIN)
    assert tournament_progress(empty).stage is Stage.NOT_STARTED
    paired = dataclasses.replace(empty, games=schedule_games(6, 1, {1: None}))
    assert tournament_progress(paired) == tournament_progress(paired).__class__(Stage.IN_PROGRESS, 1, 5, 0, 3, 0)
    games = list(schedule_games(6, 3, {3: None}))
    games[-1] = dataclasses.replace(games[-1], result=Result.WHITE_WINS)  # 2 of round 3's 3 games are open
    playing = dataclasses.replace(empty, games=tuple(games))
    progress = tournament_progress(playing)
    assert (progress.stage, progress.round, progress.finished, progress.unfinished) == (Stage.IN_PROGRESS, 3, 2, 2)
    between = dataclasses.replace(empty, games=schedule_games(6, 3, {}))
    assert (tournament_progress(between).stage, tournament_progress(between).round) == (Stage.BETWEEN_ROUNDS, 3)
    final = dataclasses.replace(empty, games=schedule_games(6, 5, {}))
    assert tournament_progress(final).stage is Stage.FINAL


def test_progress_from_a_clock_the_caller_has(monkeypatch: pytest.MonkeyPatch) -> None:
    """The site builder gives the clock it computed once per build: the progress is the same,
    and the clock is not computed again."""
    from ranking.event import overview
    from ranking.event.clock import clock_of

    games = list(schedule_games(6, 3, {3: None}))
    games[-1] = dataclasses.replace(games[-1], result=Result.WHITE_WINS)
    playing = Tournament("RR", players(6), 5, system=System.ROUND_ROBIN, games=tuple(games))
    expected, clock = tournament_progress(playing), clock_of(playing)
    monkeypatch.setattr(overview, "clock_of", lambda tournament: pytest.fail("the clock computed again"))
    assert tournament_progress(playing, clock) == expected
    assert (expected.stage, expected.round, expected.unfinished) == (Stage.IN_PROGRESS, 3, 2)


@pytest.mark.parametrize(("count", "system", "rounds"), [(6, System.ROUND_ROBIN, 5), (5, System.ROUND_ROBIN, 5),
                                                          (4, System.DOUBLE_ROUND_ROBIN, 6)])
def test_coming_rounds_of_a_round_robin_are_the_berger_tables(count: int, system: System, rounds: int) -> None:
    schedule = round_robin_schedule(list(range(1, count + 1)), double=system is System.DOUBLE_ROUND_ROBIN)
    played = tuple(Game(1, white, black, Result.DRAW, board)
                   for board, (white, black) in enumerate([pair for pair in schedule[0] if pair[1]], start=1))
    tournament = Tournament("RR", players(count), rounds, played, system=system)
    coming = coming_rounds(tournament)
    assert [number for number, _, _ in coming] == list(range(2, rounds + 1))
    for number, games, byes in coming:
        assert [(game.white, game.black) for game in games] == [pair for pair in schedule[number - 1] if pair[1]]
        assert all(game.result is None for game in games)
        assert [bye.player for bye in byes] == [white for white, black in schedule[number - 1] if black is None]


def test_no_coming_rounds_for_a_swiss_or_a_round_robin_paired_by_other_numbers() -> None:
    assert coming_rounds(Tournament("Swiss", players(6), 5)) == []
    odd = Tournament("RR", players(6), 5, (Game(1, 1, 2, Result.DRAW, 1),), system=System.ROUND_ROBIN)
    assert coming_rounds(odd) == []  # 1-2 is not a round-1 game of the table


def test_a_coming_round_is_the_round_the_pairing_will_make_a_recorded_bye_included() -> None:
    from ranking.event.model import Bye, ByeKind
    from ranking.pairing.pairings import next_round_pairing

    five = Tournament("RR", players(5), 5, system=System.ROUND_ROBIN)
    sits_out = [white for white, black in round_robin_schedule([1, 2, 3, 4, 5])[0] if black is None]
    asked = dataclasses.replace(five, byes=(Bye(1, sits_out[0], ByeKind.HALF),))  # imported with the file
    number, games, byes = coming_rounds(asked)[0]
    assert number == 1 and byes == [Bye(1, sits_out[0], ByeKind.HALF)]
    assert next_round_pairing(asked) == (games, byes)
    plain = coming_rounds(five)[0]
    assert plain[2] == [Bye(1, sits_out[0], ByeKind.ZERO)] and next_round_pairing(five) == (plain[1], plain[2])
