"""TRF team records (``ranking.formats.trf_teams``): TRF-16 ``013``, TRF-2026 ``310``/``320``/``330``/``362``.

Fixtures in ``tests/data/teams``: ``xiangqi-league.trf`` is ``xiangqi-league.toml`` written by
``write_trf`` (4 teams x 3 boards, 3 rounds, ``013`` lines); ``three-team-cup-2026.trf`` is a
hand-made TRF-2026 file (3 teams x 2 boards: ``310`` teams, a ``320`` PAB each round, a ``330``
forfeited match, a ``362`` record); ``out-of-order-2026.trf`` is hand-made (2 teams x 3
boards, 2 rounds: a ``300`` record puts Aurora's players 2, 1 and an empty board 3 in round 1,
a ``362`` record in the 9-column layout of ``162``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cli
import pytest

from ranking.errors import InputError
from ranking.event.model import GameKind, System, Team, TeamBye, TeamByeKind, TeamMatch
from ranking.formats.trf_read import parse_trf
from ranking.formats.trf_write import write_trf
from ranking.scoring.rules import XIANGQI
from ranking.standings.team import team_event_of, team_standings
from tiebreak.files import load_tournament

ROOT = Path(__file__).parents[1]
TEAMS = Path(__file__).parent / "data" / "teams"
LEAGUE_TOML = TEAMS / "xiangqi-league.toml"
LEAGUE_TRF = TEAMS / "xiangqi-league.trf"
CUP_2026 = TEAMS / "three-team-cup-2026.trf"
OUT_OF_ORDER = TEAMS / "out-of-order-2026.trf"


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def mp_gp(standings) -> dict[int, tuple[float, float]]:
    return {row.team.id: (row.match_points, row.game_points) for row in standings.rows}


def player(pid: int, *rounds: tuple[int, str, str]) -> str:
    """A ``001`` line: start number, name, then (opponent, colour, result) per round."""
    head = f"001 {pid:>4}      {'Player ' + str(pid):<33} {'':>4} {'':<3} {'':>11} {'':<10} {'':>4} {'':>4}  "
    return (head + "".join(f"{o:>4} {c} {r}  " for o, c, r in rounds)).rstrip() + "\n"


def t013(name: str, *roster: int) -> str:
    return f"013 {name:<32}" + " ".join(f"{pid:>4}" for pid in roster) + "\n"


def t310(number: str, name: str, *roster: str) -> str:
    return f"310 {number:>3} {name:<32} {'':<5} {'':>6} {'':>6} {'':>6} {'':>3}  " + " ".join(roster) + "\n"


def cli_teams(path: Path) -> list[dict]:
    done = cli.tiebreak("standings", path, "--teams", "--json", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["teams"]


# -- TRF-16 013 ------------------------------------------------------------------------------


def test_013_teams_are_read_in_file_order_with_rosters() -> None:
    t = parse_trf(read(LEAGUE_TRF))
    assert t.teams == (
        Team(1, "北京", (1, 2, 3)),
        Team(2, "上海", (4, 5, 6)),
        Team(3, "Hà Nội", (7, 8, 9)),
        Team(4, "Sài Gòn", (10, 11, 12)),
    )
    assert not any(tag == "013" for tag, _ in t.records)  # interpreted: not kept verbatim
    assert t.team_matches == () and t.team_byes == ()


def test_the_fixture_is_the_toml_league_written_by_write_trf() -> None:
    assert parse_trf(read(LEAGUE_TRF)) == parse_trf(write_trf(load_tournament(LEAGUE_TOML)))


def test_cli_team_standings_on_the_trf16_file_match_the_toml_event() -> None:
    toml = load_tournament(LEAGUE_TOML)
    expected = mp_gp(team_standings(team_event_of(toml)))
    rows = cli_teams(LEAGUE_TRF)
    assert {row["id"]: (row["match_points"], row["game_points"]) for row in rows} == expected
    assert {row["id"]: row["name"] for row in rows} == {team.id: team.name for team in toml.teams}
    # The league has every match decided on the boards: 6 MP and 9 GP (3 boards x 2/1/0) a round.
    assert sum(mp for mp, _ in expected.values()) == 3 * 2 * 2
    assert sum(gp for _, gp in expected.values()) == 3 * 2 * 3 * 2


def test_trf_keeps_the_xiangqi_scoring_only_through_xxs() -> None:
    toml = load_tournament(LEAGUE_TOML)
    text = write_trf(toml)
    assert "XXS W=2 D=1 WL=0 BL=0" in text.splitlines()
    back = parse_trf(text)
    assert back.game is GameKind.XIANGQI  # TRF has no game kind: a ### tiebreak record keeps it ...
    assert back.team_rules == "cxa-team"  # ... and another keeps the team preset (### tiebreak team-rules)
    assert back.rules is not None and back.rules.scoring == XIANGQI  # ... but XXS keeps 2/1/0
    # Without XXS the boards would be scored 1/½/0 and every game-point total halved.
    chess = parse_trf(write_trf(replace(toml, rules=None)).replace("### tiebreak game xiangqi\n", "").replace(
        "### tiebreak team-rules cxa-team\n", ""))  # a TRF another program wrote: no ### records
    halved = {team: (mp, gp / 2) for team, (mp, gp) in mp_gp(team_standings(team_event_of(toml))).items()}
    assert mp_gp(team_standings(team_event_of(chess))) == halved


def test_013_is_written_in_the_trf16_columns() -> None:
    lines = [line for line in write_trf(load_tournament(LEAGUE_TOML)).splitlines() if line.startswith("013")]
    assert len(lines) == 4
    last = lines[3]
    assert last[4:36].rstrip() == "Sài Gòn"
    assert (last[36:40], last[41:45], last[46:50]) == ("  10", "  11", "  12")
    assert last[40] == last[45] == " "


def test_teams_round_trip_through_013() -> None:
    toml = load_tournament(LEAGUE_TOML)
    back = parse_trf(write_trf(toml))
    assert back.teams == toml.teams
    assert parse_trf(write_trf(back)) == back


def test_013_reading_is_forgiving_about_blanks_and_empty_slots() -> None:
    loose = f"013 {'Only team':<32}  1   0000    2  \n"  # shifted numbers, an empty slot, trailing blanks
    text = "012 Loose\n" + player(1, (2, "w", "1")) + player(2, (1, "b", "0")) + loose
    assert parse_trf(text).teams == (Team(1, "Only team", (1, 2)),)


# -- TRF-2026 310 / 320 / 330 / 362 ----------------------------------------------------------


def test_310_320_330_are_read_into_teams_byes_and_forfeits() -> None:
    t = parse_trf(read(CUP_2026), source="cup.trf")
    assert t.teams == (Team(1, "Oslo", (1, 2)), Team(2, "Bergen", (3, 4)), Team(3, "Tromsø", (5, 6)))
    assert t.team_byes == (
        TeamBye(1, 3, TeamByeKind.PAB),
        TeamBye(2, 2, TeamByeKind.PAB),
        TeamBye(3, 1, TeamByeKind.PAB),
    )
    assert t.team_matches == (TeamMatch(2, 1, 3, forfeit="+-"),)
    assert t.rounds == 3 and t.system is System.ROUND_ROBIN
    assert (t.team_match_points, t.team_pab) == ((2.0, 1.0, 0.0), (2.0, 2.0))  # 362 and 320's values, read
    tags = [tag for tag, _ in t.records]
    assert not {"310", "320", "330", "013", "362"} & set(tags)  # read into the tournament, written from it


def test_team_standings_of_the_2026_file() -> None:
    # Oslo: won 1½-½, forfeit win (2 boards x 1), PAB (2 boards x 1); Tromsø: PAB, forfeit loss,
    # won 2-0; Bergen: lost ½-1½, PAB, lost 0-2.  Match points 2/1/0.
    expected = {1: (6.0, 5.5), 3: (4.0, 4.0), 2: (2.0, 2.5)}
    assert mp_gp(team_standings(team_event_of(parse_trf(read(CUP_2026))))) == expected
    rows = cli_teams(CUP_2026)
    assert [(row["id"], row["match_points"], row["game_points"]) for row in rows] == [
        (team, mp, gp) for team, (mp, gp) in expected.items()
    ]


def test_the_2026_file_round_trips_and_is_written_in_fide_s_layout() -> None:
    """TRF-2026 throughout: 310 (013 cannot number the teams that 320 and 330 name), 362 in
    the columns of 162, the forfeited match on its boards in the player lines (issue 15)."""
    t = parse_trf(read(CUP_2026))
    text = write_trf(t)
    lines = text.splitlines()
    assert [line[:3] for line in lines if line[:3] in {"013", "310", "320", "330", "362"}] == [
        "362",
        "310",
        "310",
        "310",
        "320",
        "330",
    ]
    assert "362 TW 2.0   TD 1.0   TL 0.0" in lines
    assert "320  2.0  2.0 003 002 001" in lines
    assert "330 +- 002 001 003" in lines
    ask = next(line for line in lines if line.startswith("001    1"))
    assert ask[101:109] == "   5 w +"  # round 2, board 1: a forfeit win against Fjell
    assert parse_trf(text) == t


def test_310_is_preferred_to_013_which_stays_a_record() -> None:
    text = read(CUP_2026).replace(
        "362 TW", "013 Old Oslo                        1    2\n013 Old Rest                        3    4\n362 TW"
    )
    t = parse_trf(text)
    assert [team.name for team in t.teams] == ["Oslo", "Bergen", "Tromsø"]
    assert [rest for tag, rest in t.records if tag == "013"] == [
        "Old Oslo                        1    2",
        "Old Rest                        3    4",
    ]
    written = write_trf(t)
    assert [line[:3] for line in written.splitlines()].count("310") == 3  # 013 taken: teams as 310
    assert [line[:3] for line in written.splitlines()].count("013") == 2  # the kept ones, once
    assert parse_trf(written) == t


def test_teams_not_numbered_1_to_n_are_written_as_310() -> None:
    t = parse_trf(read(CUP_2026))
    renumbered = replace(
        t,
        teams=tuple(replace(team, id=team.id * 10) for team in t.teams),
        team_byes=tuple(replace(bye, team=bye.team * 10) for bye in t.team_byes),
        team_matches=tuple(replace(m, first=m.first * 10, second=m.second * 10) for m in t.team_matches),
    )
    text = write_trf(renumbered)
    team_lines = [line for line in text.splitlines() if line.startswith("310")]
    assert team_lines[0][4:7] == " 10" and team_lines[0][8:40].rstrip() == "Oslo"
    assert team_lines[0][73:77] == "   1" and team_lines[0][78:82] == "   2"
    assert parse_trf(text) == renumbered


def test_the_echecsjs_310_example_is_read() -> None:
    # TRF-2026 example (echecsjs/trf SPEC.md): players from column 74 in 5-column steps.
    players = "".join(player(pid) for pid in (1, 5, 15, 28, 44))
    text = (
        "012 Olympiad\n"
        + players
        + "310   1 India                            IND     2486   15.0   28.0  11     1    5   15   28   44\n"
    )
    assert parse_trf(text).teams == (Team(1, "India", (1, 5, 15, 28, 44)),)


# -- errors --------------------------------------------------------------------------------------

HEAD = "012 Bad\n" + player(1, (2, "w", "1")) + player(2, (1, "b", "0"))


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        (t013("Team", 1).rstrip() + " two", "start numbers"),
        (t013("", 1, 2), "team name in columns 5-36"),
        (t013("Team", 1, 9), "player 9, who has no 001 line"),
        (t013("Team", 1, 1), "listed twice"),
        (t013("A much too long team name that runs", 1), "start numbers"),
        (t310("x", "Team", "   1", "   2"), "pairing number"),
        (t310("1", "", "   1", "   2"), "team name in columns 9-40"),
        (t310("1", "Team", "   1", "  x2"), "start numbers"),
        ("320  2.0", "PAB match points"),
        ("320  2.0  2.0 00a", "team number"),
        ("330 ++ 001 001 002", "forfeit"),
        ("330 +- 001 001", "forfeit"),
    ],
)
def test_malformed_team_lines_name_the_line(line: str, fragment: str) -> None:
    team = t013("Team", 1, 2) if not line.startswith(("013", "310")) else ""
    with pytest.raises(InputError) as caught:
        parse_trf(HEAD + team + line.rstrip("\n") + "\n", source="bad.trf")
    assert caught.value.line == 4 + bool(team)
    assert caught.value.source == "bad.trf"
    assert fragment in caught.value.message


@pytest.mark.parametrize(
    ("lines", "line", "fragment"),
    [
        (t013("One", 1) + t013("Two", 1), 5, "already in the team on line 4"),
        (t310("1", "One", "   1") + t310("1", "Two", "   2"), 5, "already used on line 4"),
        (t013("One", 1, 2) + "330 +- 001 001 002\n", 5, "team 2 is not a team"),
        (t013("One", 1, 2) + "320  2.0  2.0 003\n", 5, "team 3 is not a team"),
        ("XXR 1\n" + t013("One", 1) + t013("Two", 2) + "330 +- 002 001 002\n", 7, "names round 2"),
    ],
)
def test_inconsistent_team_records_name_the_line(lines: str, line: int, fragment: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_trf(HEAD + lines)
    assert caught.value.line == line
    assert fragment in caught.value.message


def test_write_rejects_team_records_trf_cannot_hold() -> None:
    t = parse_trf(read(CUP_2026))
    with pytest.raises(InputError, match="1-999"):
        write_trf(replace(t, teams=(replace(t.teams[0], id=1000), *t.teams[1:])))
    with pytest.raises(InputError, match="not in the tournament's players"):
        write_trf(replace(t, teams=(Team(1, "Ghosts", (99,)),)))
    with pytest.raises(InputError, match="without teams"):
        write_trf(replace(t, teams=()))


# -- TRF-2026 300 (out-of-order boards) and 362 (team match points) ------------------------------


def boards_of(t) -> list[tuple[int, list[tuple[int, int, int]]]]:
    return [(m.round, [(g.board, g.white, g.black) for g in m.boards]) for m in team_event_of(t).matches]


def test_300_puts_the_match_boards_in_the_given_order() -> None:
    t = parse_trf(read(OUT_OF_ORDER))
    # Round 1 without 300 would be 1-5 on board 1 (roster order); the record says 2 first.
    assert boards_of(t) == [(1, [(1, 2, 4), (2, 5, 1)]), (2, [(1, 1, 4), (2, 5, 2), (3, 3, 6)])]
    assert "300" not in {tag for tag, _ in t.records}  # read into the boards, written from them
    without = parse_trf(read(OUT_OF_ORDER).replace("300 001 001 002 0002 0001 0000\n", ""))
    assert boards_of(without)[0] == (1, [(1, 5, 1), (2, 2, 4)])
    assert mp_gp(team_standings(team_event_of(t))) == {1: (6.0, 3.5), 2: (0.0, 1.5)}  # 362: a won match is 3


def test_300_round_trips_and_is_written_from_the_board_order() -> None:
    t = parse_trf(read(OUT_OF_ORDER))
    text = write_trf(t)
    assert [line for line in text.splitlines() if line.startswith("300")] == ["300 001 001 002 0002 0001"]
    assert parse_trf(text) == t
    in_roster_order = parse_trf(read(OUT_OF_ORDER).replace("300 001 001 002 0002 0001 0000\n", ""))
    # Aurora in roster order (1, 2) met Borealis 5, 4: Borealis is the team out of order.
    written = write_trf(in_roster_order)
    assert [line for line in written.splitlines() if line.startswith("300")] == ["300 001 002 001 0005 0004"]
    assert parse_trf(written) == in_roster_order


def test_300_for_the_other_team_and_for_both_teams() -> None:
    # Borealis (roster 4, 5, 6) in its roster order 4, 5 puts 2-4 on board 1: the fixture's boards.
    base = read(OUT_OF_ORDER).replace("300 001 001 002 0002 0001 0000\n", "")
    other = parse_trf(base + "300 001 002 001 0004 0005\n")
    assert boards_of(other)[0] == (1, [(1, 2, 4), (2, 5, 1)])
    both = parse_trf(base + "300 001 002 001 0004 0005\n300 001 001 002 0002 0001\n")
    assert boards_of(both)[0] == (1, [(1, 2, 4), (2, 5, 1)])
    with pytest.raises(InputError) as caught:
        parse_trf(base + "300 001 002 001 0004 0005\n300 001 001 002 0001 0002\n")
    assert "do not pair the same players" in caught.value.message


def test_the_roster_order_decides_the_boards_without_300() -> None:
    text = read(OUT_OF_ORDER).replace("300 001 001 002 0002 0001 0000\n", "")
    text = text.replace(t310(1, "Aurora", "   1", "   2", "   3"), t310(1, "Aurora", "   2", "   1", "   3"))
    assert boards_of(parse_trf(text))[1] == (2, [(1, 5, 2), (2, 1, 4), (3, 3, 6)])


def test_362_sets_the_team_match_points_and_is_written_in_the_columns_of_162() -> None:
    """Read onto the tournament, no longer kept verbatim (issue 15: FIDE's reference program
    reads TW, TD, TL in columns 5-6, 14-15 and 23-24 and their points in the four after)."""
    t = parse_trf(read(OUT_OF_ORDER))
    assert t.team_match_points == (3.0, 1.0, 0.0) and "362" not in {tag for tag, _ in t.records}
    assert "362 TW 3.0   TD 1.0   TL 0.0" in write_trf(t).splitlines()
    scoring = team_event_of(t).scoring
    assert (scoring.match_win, scoring.match_draw, scoring.match_loss) == (3.0, 1.0, 0.0)
    for rest, values in (("W 2.0 D 1.0 L 0.0", (2.0, 1.0, 0.0)), ("tw 2 td 1 tl 0", (2.0, 1.0, 0.0)),
                         ("TD 0.5", (2.0, 0.5, 0.0)), ("TW 3 TD 1.5   TL 0", (3.0, 1.5, 0.0))):
        loose = parse_trf(HEAD + t013("Team", 1, 2) + "362 " + rest + "\n")
        assert loose.team_match_points == values
        assert f"362 TW{values[0]:4.1f}   TD{values[1]:4.1f}   TL{values[2]:4.1f}" in write_trf(loose).splitlines()


BASE_300 = read(OUT_OF_ORDER).replace("300 001 001 002 0002 0001 0000\n", "")
LINE_300 = len(BASE_300.splitlines()) + 1


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("300 001 001 002", "the team's players in board order"),
        ("300 001 001 002 0002 x001", "the team's players in board order"),
        ("300 000 001 002 0002 0001", "the team's players in board order"),
        ("300 001 001 001 0002 0001", "paired with itself"),
        ("300 001 001 002 0000 0000", "every board is empty"),
        ("300 001 001 002 0002 0002", "listed on two boards"),
        ("300 001 001 003 0002 0001", "team 3 is not a team"),
        ("300 001 001 002 0002 0003", "played with players 1, 2"),
        ("300 001 001 002 0002", "played with players 1, 2"),
        ("300 003 001 002 0002 0001", "names round 3"),
        ("362 TW two", "team result codes"),
        ("362 TX 2.0", "team result codes"),
        ("362 TW 1.0 TD 1.0", "a won match must score more"),
    ],
)
def test_malformed_300_and_362_lines_name_the_line(line: str, fragment: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_trf(BASE_300 + line + "\n", source="ooo.trf")
    assert caught.value.line == LINE_300
    assert caught.value.source == "ooo.trf"
    assert fragment in caught.value.message


def test_300_twice_for_a_team_and_round_names_the_second_line() -> None:
    with pytest.raises(InputError) as caught:
        parse_trf(BASE_300 + "300 001 001 002 0002 0001\n300 001 001 002 0001 0002\n")
    assert caught.value.line == LINE_300 + 1
    assert f"already given on line {LINE_300}" in caught.value.message


def test_300_between_teams_that_did_not_meet_names_the_line() -> None:
    text = read(CUP_2026) + "300 002 002 003 0003 0004\n"  # round 2: 1-3 forfeited, 2 had the PAB
    with pytest.raises(InputError) as caught:
        parse_trf(text)
    assert caught.value.line == len(read(CUP_2026).splitlines()) + 1
    assert "no games between their members in round 2" in caught.value.message
