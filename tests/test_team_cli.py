"""Team events on the command line (docs/architecture.md#command-line, issue 15 items 4 and 5):
``--teams --team-tiebreaks CODES --fide-edition 2024|2026 --json``, the team chain of a TRF-2026
``212``/``202``, and the team records read and written as TRF-2026 has them (``320`` values,
``240`` team byes, ``362`` in the columns of ``162``, a forfeited ``330`` match on its boards), up
to a round trip through the store's import and export.

``board-tiebreaks-swiss.trf`` (tests/data/teams/README.md): 5 teams x 3 boards, 2 rounds, chess
boards, match points 2/1/0.  Round 1: A-B 1½-1½, C-D 1½-1½, E the PAB (320: 2 MP, 3 GP); round 2:
A-C 1½-1½, B-E 3-0, D the PAB.  MP: A 2, B 3, C 2, D 3, E 2; GP: A 3, B 4½, C 3, D 4½, E 3.
BH:MP: opponents' MP, a PAB counting a dummy (C.07 16.4): the team's own score in the 2024
edition, capped at a drawn match in every round (1 x 2 = 2) in 2026.  So D: C 2 + dummy 3 = 5
(2024) or 2 + 2 = 4 (2026), and BH:MP/C1 (cut the lowest) 3 (2024) or 2 (2026); B: A 2 + E 2,
BH:MP/C1 2 in both.  EMGSB (opponents' MP x own GP against them): B 2 x 1½ + 2 x 3 = 9; D 2 x 1½
+ dummy x 3 (the PAB's GP) = 12 (2024) or 9 (2026).  EDEBT cannot separate B and D (they never
met, C.07 6.3).  So with MPVGP, BH:MP/C1, EMGSB, EDEBT: 2024 ranks D before B; 2026 ties them.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cli
import pytest
from open_scenario import store_config

from ranking.errors import InputError
from ranking.event.model import Bye, ByeKind, TeamBye, TeamByeKind
from ranking.formats.trf_read import parse_trf
from ranking.formats.trf_write import write_trf
from ranking.standings.team import team_event_of, team_standings

TEAMS = Path(__file__).parent / "data" / "teams"
SWISS = TEAMS / "board-tiebreaks-swiss.trf"
CUP = TEAMS / "three-team-cup-2026.trf"
CHAIN = "MPVGP,BH:MP/C1,EMGSB,EDEBT"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return cli.tiebreak(*args, cwd=cwd)


def team_json(path: Path, *options: str) -> dict:
    done = run("standings", str(path), "--json", *options)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def rows(data: dict) -> dict[str, tuple]:
    return {row["name"]: (row["rank"], row["match_points"], row["game_points"], row["tiebreaks"])
            for row in data["teams"]}


# -- the command line ---------------------------------------------------------------------------------

def test_the_team_command_line_end_to_end_in_both_editions() -> None:
    edition_2024 = team_json(SWISS, "--teams", "--team-tiebreaks", CHAIN, "--fide-edition", "2024")
    assert list(edition_2024)[-2:] == ["team_tiebreaks", "teams"]
    assert edition_2024["team_tiebreaks"] == CHAIN.split(",")
    assert set(edition_2024["teams"][0]) == {"rank", "id", "name", "match_points", "game_points", "tiebreaks"}
    assert rows(edition_2024)["TeamD"] == (1, 3.0, 4.5, {"MPVGP": 4.5, "BH:MP/C1": 3.0, "EMGSB": 12.0, "EDEBT": 0})
    assert rows(edition_2024)["TeamB"] == (2, 3.0, 4.5, {"MPVGP": 4.5, "BH:MP/C1": 2.0, "EMGSB": 9.0, "EDEBT": 0})
    edition_2026 = team_json(SWISS, "--teams", "--team-tiebreaks", CHAIN, "--fide-edition", "2026")
    assert rows(edition_2026)["TeamD"] == (1, 3.0, 4.5, {"MPVGP": 4.5, "BH:MP/C1": 2.0, "EMGSB": 9.0, "EDEBT": 0})
    assert rows(edition_2026)["TeamB"] == (1, 3.0, 4.5, {"MPVGP": 4.5, "BH:MP/C1": 2.0, "EMGSB": 9.0, "EDEBT": 0})
    assert team_json(SWISS, "--teams", "--team-tiebreaks", CHAIN) == edition_2026  # 2026 is the default


def test_team_tiebreaks_imply_teams_and_the_individual_standings_stay() -> None:
    data = team_json(SWISS, "--team-tiebreaks", "BH:MP")
    assert data["team_tiebreaks"] == ["BH:MP"] and len(data["teams"]) == 5
    assert [row["id"] for row in data["standings"]] == [
        row["id"] for row in team_json(SWISS)["standings"]]


def test_the_table_names_the_team_chain() -> None:
    done = run("standings", str(SWISS), "--teams", "--team-tiebreaks", CHAIN, "--fide-edition", "2024")
    assert done.returncode == 0, done.stderr
    assert f"Teams after round 2; tie-breaks: {CHAIN.replace(',', ', ')}" in done.stdout


@pytest.mark.parametrize(("options", "message"), [
    (["--teams", "--team-tiebreaks", "BH:XP"], "team tie-break 'BH:XP'"),
    (["--teams", "--team-tiebreaks", "NOPE"], "unknown team tie-break 'NOPE'"),
    (["--teams", "--fide-edition", "2025"], "invalid choice"),
])
def test_bad_team_options_are_one_line_and_status_2(options: list[str], message: str) -> None:
    done = run("standings", str(SWISS), *options)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 or "usage:" in done.stderr
    assert message in done.stderr


# -- the team chain of a TRF -------------------------------------------------------------------------

def with_records(path: Path, *records: str) -> str:
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition("092 ")
    return head + "".join(f"{record}\n" for record in records) + "092 " + rest


@pytest.mark.parametrize(("records", "primary", "team_chain", "chain"), [
    (["212 PTS:GP, MP, BH:GP"], "GP", ("MP", "BH:GP"), ()),  # ranked by game points first
    (["212 PTS, EDE, BH:MP"], "", ("EDE", "BH:MP"), ()),  # team codes: the team chain
    (["212 PTS:MP, GP, LOT"], "MP", ("GP", "LOT"), ()),  # PTS:MP says it is the team chain
    (["212 PTS, BH, SB"], "", (), ("BH", "SB")),  # individual codes: the individual chain, as before
    (["212 PTS:MP, EDE", "202 BH-C1, SB"], "MP", ("EDE",), ("BH-C1", "SB")),  # both
])
def test_a_212_or_202_with_team_codes_gives_the_team_chain(tmp_path: Path, records, primary, team_chain,
                                                           chain) -> None:
    t = parse_trf(with_records(SWISS, *records))
    assert (t.team_primary, t.team_tiebreaks) == (primary, team_chain)
    assert (t.rules.tiebreaks if t.rules else ()) == chain
    assert parse_trf(write_trf(t)) == t
    path = tmp_path / "cup.trf"
    path.write_text(with_records(SWISS, *records), encoding="utf-8")
    data = team_json(path, "--teams")
    assert data["team_tiebreaks"] == list(team_chain or ("GP", "EDE", "EMGSB"))


def test_a_file_ranked_by_game_points_first() -> None:
    event = team_event_of(parse_trf(with_records(SWISS, "212 PTS:GP, MP")))
    standings = team_standings(event)
    assert standings.primary == "GP"
    assert [(row.team.name, row.game_points) for row in standings.rows][:2] == [("TeamB", 4.5), ("TeamD", 4.5)]


def test_a_bad_team_chain_in_the_file_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.trf"
    path.write_text(with_records(SWISS, "212 PTS:MP, GP, BH:XP"), encoding="utf-8")
    done = run("standings", str(path), "--teams")
    assert done.returncode == 2
    assert done.stderr.strip() == (f"tiebreak: error: {path}:5: the team tie-break chain in the file: team tie-break "
                                   "'BH:XP': expected :MP or :GP after BH; choose a chain with --team-tiebreaks")
    assert run("standings", str(path), "--teams", "--team-tiebreaks", "GP").returncode == 0


# -- 320, 240 ------------------------------------------------------------------------------------------

def test_the_values_of_a_320_record_are_used() -> None:
    """Cup (tests/data/teams/three-team-cup-2026.trf) with a PAB worth a drawn match, 1 MP and 1 GP:
    Oslo 2 + 2 + 1 MP and 1½ + 2 + 1 GP; Tromsø 1 + 0 + 2 and 1 + 0 + 2; Bergen 0 + 1 + 0 and
    ½ + 1 + 0."""
    t = parse_trf(CUP.read_text(encoding="utf-8").replace("320  2.0  2.0", "320  1.0  1.0"))
    assert t.team_pab == (1.0, 1.0)
    found = {row.team.name: (row.match_points, row.game_points) for row in team_standings(team_event_of(t)).rows}
    assert found == {"Oslo": (5.0, 4.5), "Tromsø": (3.0, 3.0), "Bergen": (1.0, 1.5)}
    assert "320  1.0  1.0 003 002 001" in write_trf(t).splitlines()
    assert parse_trf(write_trf(t)) == t


def test_320_records_must_agree_on_the_values() -> None:
    text = CUP.read_text(encoding="utf-8").replace("320  2.0  2.0 003 002 001", "320  2.0  2.0 003 000 000\n"
                                                   "320  1.0  1.0 000 002 001")
    with pytest.raises(InputError, match="320: a PAB worth 1 MP and 1 GP, but line"):
        parse_trf(text)


@pytest.mark.parametrize(("letter", "kind", "points"), [
    ("H", TeamByeKind.HPB, (3.0, 3.0)),  # a drawn match, every board drawn: 1 MP, 2 x ½ GP
    ("Z", TeamByeKind.ZPB, (2.0, 2.0)),
    ("F", TeamByeKind.FPB, (4.0, 4.0)),  # a won match, every board won
])
def test_team_byes_of_240_records_are_read_and_written(letter: str, kind: TeamByeKind, points) -> None:
    """Tromsø's round-1 PAB of the cup replaced by a 240 bye (Tromsø then wins round 3 2-0)."""
    text = CUP.read_text(encoding="utf-8").replace("320  2.0  2.0 003 002 001",
                                                   f"320  2.0  2.0 000 002 001\n240 {letter} 001  003")
    t = parse_trf(text)
    assert TeamBye(1, 3, kind) in t.team_byes and "240" not in {tag for tag, _ in t.records}
    found = {row.team.name: (row.match_points, row.game_points) for row in team_standings(team_event_of(t)).rows}
    assert found["Tromsø"] == points
    written = write_trf(t)
    assert f"240 {letter} 001  003" in written.splitlines()
    assert parse_trf(written) == t


@pytest.mark.parametrize(("line", "message"), [
    ("240 X 001  003", "240: expected the kind of bye"),
    ("240 H 001  009", "240: team 9 is not a team"),
    ("240 H 001", "240: expected the kind of bye"),
    ("240 H 001  001", "240: team 1 already has a bye in round 1"),
])
def test_bad_240_records_name_the_line(line: str, message: str) -> None:
    text = CUP.read_text(encoding="utf-8").replace("320  2.0  2.0 003 002 001", f"320  2.0  2.0 001 002 003\n{line}")
    with pytest.raises(InputError, match=message) as caught:
        parse_trf(text)
    assert caught.value.line == text.splitlines().index(line) + 1


def test_an_individual_file_reads_its_240_records_as_byes() -> None:
    t = parse_trf((Path(__file__).parent / "data" / "trf" / "trf2026.trf").read_text(encoding="utf-8"))
    assert not any(tag == "240" for tag, _ in t.records) and not t.teams
    assert Bye(3, 2, ByeKind.HALF) in t.byes


# -- FIDE's layout and the round trip through the store -------------------------------------------------

def test_a_forfeited_match_without_boards_is_written_on_its_boards() -> None:
    """The cup as it was before (the round-2 forfeit only in 330): the writer puts the match on its
    boards, as FIDE's reference program reads a forfeited match; the team standings stay."""
    lines = CUP.read_text(encoding="utf-8").splitlines()
    round_two = slice(101, 111)  # columns 102-111

    def without_round_two(line: str) -> str:
        if not line.startswith(("001    1", "001    2", "001    5", "001    6")):
            return line
        return (line[:round_two.start] + " " * 10 + line[round_two.stop:]).rstrip()

    old = "\n".join(map(without_round_two, lines)) + "\n"
    before = parse_trf(old)
    assert not [game for game in before.games if game.round == 2]
    written = write_trf(before)
    after = parse_trf(written)
    assert sorted((g.round, g.white, g.black, g.result.value) for g in after.games if g.round == 2) == [
        (2, 1, 5, "+-"), (2, 6, 2, "-+")]
    assert [(row.team.id, row.match_points, row.game_points) for row in team_standings(team_event_of(after)).rows] \
        == [(row.team.id, row.match_points, row.game_points) for row in team_standings(team_event_of(before)).rows]


def test_a_team_trf_2026_file_round_trips_through_import_and_export(tmp_path: Path) -> None:
    config = store_config(tmp_path)
    source = tmp_path / "cup.trf"
    source.write_text(with_records(CUP, "212 PTS:GP, MP, EMGSB"), encoding="utf-8")
    imported = run("import", str(source), "--slug", "cup", "--config", str(config))
    assert imported.returncode == 0, imported.stderr
    exported = run("export", "cup", "--format", "trf", "--config", str(config))
    assert exported.returncode == 0, exported.stderr
    text = exported.stdout
    original = parse_trf(source.read_text(encoding="utf-8"))
    back = parse_trf(text)
    assert back == original
    lines = text.splitlines()
    # FIDE's columns (TRF-2026): 212 with the team point system, 362 as 162, 310 with the team
    # standings, 320, 330, and the forfeited match on its boards.
    assert "212 PTS:GP,MP,EMGSB" in lines
    assert "362 TW 2.0   TD 1.0   TL 0.0" in lines
    oslo = next(line for line in lines if line.startswith("310   1"))
    assert (oslo[4:7], oslo[8:40].rstrip(), oslo[54:60], oslo[61:67], oslo[68:71], oslo[73:77], oslo[78:82]) == (
        "  1", "Oslo", "   6.0", "   5.5", "  1", "   1", "   2")
    pab = next(line for line in lines if line.startswith("320"))
    assert (pab[4:8], pab[9:13], pab[14:17], pab[18:21], pab[22:25]) == (" 2.0", " 2.0", "003", "002", "001")
    forfeit = next(line for line in lines if line.startswith("330"))
    assert (forfeit[4:6], forfeit[7:10], forfeit[11:14], forfeit[15:18]) == ("+-", "002", "001", "003")
    fjell = next(line for line in lines if line.startswith("001    5"))
    assert fjell[101:109] == "   1 b -"
    again = run("standings", "cup", "--teams", "--json", "--config", str(config))
    assert again.returncode == 0, again.stderr
    assert [row["name"] for row in json.loads(again.stdout)["teams"]] == ["Oslo", "Tromsø", "Bergen"]
