"""Nothing is lost on import (issue 21): for every tournament file of ``tests/data`` (and the
bundled examples), the standings computed from the stored tournament are those computed from
the file, game for game, unless the file is one ``REFUSED`` names, which the store must refuse;
a file the store would not keep whole (two games on one board, a game listed twice) is refused,
naming both entries."""

from __future__ import annotations

import fnmatch
import subprocess
from pathlib import Path

import cli
import pytest

from ranking import InputError, final_standings
from ranking.standings.team import team_event_of, team_standings
from tiebreak.files import decode, detect_format, load_tournament
from tiebreak.library import import_tournament
from tiebreak.store import Source, SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def tournament_files() -> list[Path]:
    """Every TRF or tournament TOML file of tests/data and ranking/examples, told by content."""
    found = []
    for path in sorted([*DATA.rglob("*"), *(ROOT / "ranking" / "examples").glob("*")]):
        if (path.is_file() and path.stat().st_size < 2_000_000
                and detect_format(decode(path.read_bytes())[0], path.name) is not None):
            found.append(path)
    return found


FILES = tournament_files()

#: the files of tests/data that look like tournaments and are refused, each for its reason: the
#: refusal is tested where its problem is, and here a file refused without being named fails
REFUSED = {
    "tests/data/*/errors/*": "one error each (tests/test_trf.py, tests/test_tomlfile.py)",
    "tests/data/cli/broken.trf": "a start number that is not a number (tests/test_cli.py)",
    "tests/data/cli/unknown-chain.trf": "an unknown tie-break code (tests/test_cli.py)",
    "tests/data/berger/*.txt": "the Berger tables, not tournaments (tests/test_pairing.py)",
    "tests/data/golden/*.table.txt": "the standings printed, not tournaments (tests/test_golden.py)",
    "tests/data/import/bidi-in-club.toml": "a control character in a club (tests/test_import_checks.py)",
    "tests/data/import/escape-in-name.toml": "a control character in a name (tests/test_import_checks.py)",
    "tests/data/import/line-break-in-name.toml": "a line break in a name (tests/test_import_checks.py)",
    "tests/data/import/long-federation.toml": "a federation longer than TRF's 3 columns (tests/test_import_checks.py)",
    "tests/data/import/long-name.toml": "a name of 101 characters (tests/test_import_checks.py)",
}


def refused(path: Path) -> bool:
    return any(fnmatch.fnmatch(str(path.relative_to(ROOT)), pattern) for pattern in REFUSED)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SQLiteStore:
    with SQLiteStore(tmp_path_factory.mktemp("store") / "store.sqlite3") as opened:
        yield opened


def test_the_data_has_files_to_compare() -> None:
    assert len(FILES) > 100


@pytest.mark.parametrize("path", FILES, ids=[str(path.relative_to(ROOT)) for path in FILES])
def test_the_stored_tournament_ranks_as_the_file(store: SQLiteStore, path: Path) -> None:
    slug = f"t{FILES.index(path)}"
    if refused(path):
        with pytest.raises(InputError):
            import_tournament(store, load_tournament(path), str(path), slug, Source("cli:test"))
        return
    tournament = load_tournament(path)
    slug = import_tournament(store, tournament, str(path), slug, Source("cli:test"))
    stored = store.tournament(slug)
    assert len(store.state(slug).games) == len(tournament.games)  # every game kept
    assert sorted((g.round, g.white, g.black, g.result) for g in stored.games) == \
        sorted((g.round, g.white, g.black, g.result) for g in tournament.games)
    assert final_standings(stored).as_json() == final_standings(tournament).as_json()
    if tournament.teams:
        assert team_standings(team_event_of(stored)).as_json() == team_standings(team_event_of(tournament)).as_json()


# -- a file the store would not keep whole ----------------------------------------------------------

XIANGQI = ROOT / "ranking" / "examples" / "xiangqi-rr.toml"
GAME = '\n[[games]]\nround = 1\n{board}white = {white}\nblack = {black}\nresult = "1-0"\n'


def tiebreak(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return cli.tiebreak(*args, cwd=cwd)


def with_game(folder: Path, board: int | None, white: int, black: int) -> tuple[Path, int]:
    """The xiangqi round robin with one more game of round 1; the file and that game's line."""
    text = XIANGQI.read_text(encoding="utf-8")
    path = folder / "event.toml"
    path.write_text(text + GAME.format(board=f"board = {board}\n" if board is not None else "", white=white,
                                       black=black), encoding="utf-8")
    return path, text.count("\n") + 2


def first_line_of(path: Path, white: int, black: int) -> int:
    """The line of the ``[[games]]`` header of the first game ``white`` against ``black``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = 0
    for number, line in enumerate(lines, start=1):
        header = number if line == "[[games]]" else header
        if lines[number - 1:number + 1] == [f"white = {white}", f"black = {black}"]:
            return header
    raise AssertionError("no such game")


FOUR = """[tournament]
name = "Club"
rounds = 3
{players}
[[games]]
round = 1
{board}white = 1
black = 2
result = "1-0"

[[games]]
round = 1
board = 1
white = 3
black = 4
result = "0-1"
"""


@pytest.mark.parametrize("numbered", [False, True])
def test_import_refuses_two_games_on_one_board_naming_both_lines(tmp_path: Path, numbered: bool) -> None:
    players = "".join(f'\n[[players]]\nid = {number}\nname = "P{number}"\n' for number in range(1, 5))
    path = tmp_path / "club.toml"
    path.write_text(FOUR.format(players=players, board="" if numbered else "board = 1\n"), encoding="utf-8")
    first = first_line_of(path, 1, 2)
    second = first_line_of(path, 3, 4)
    (tmp_path / "config.toml").write_text('[storage]\npath = "store.sqlite3"\n', encoding="utf-8")
    assert tiebreak("import", str(XIANGQI), "--slug", "fine", cwd=tmp_path).returncode == 0
    for command in (["import", str(path), "--slug", "club"], ["standings", str(path), "--json"]):
        result = tiebreak(*command, cwd=tmp_path)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr == (
            f"tiebreak: error: {path}:{second}: [[games]] entries 1 (line {first}) and 2 (line {second}) are both "
            "on board 1 of round 1: expected one game per board"
            + (" (a game without a board is put on the board after the highest of its round so far)" if numbered
               else "") + "\n")
    assert "club" not in tiebreak("list", "--json", cwd=tmp_path).stdout


def test_standings_refuses_a_game_listed_twice_in_one_line(tmp_path: Path) -> None:
    path, line = with_game(tmp_path, 11, 1, 10)  # round 1's first game again, on another board
    first = first_line_of(path, 1, 10)
    for args in ([], ["--json"]):
        result = tiebreak("standings", str(path), *args, cwd=tmp_path)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr == (f"tiebreak: error: {path}:{line}: [[games]] entries 1 (line {first}) and 46 "
                                 f"(line {line}) both pair players 1 and 10 in round 1: expected one game of a pair "
                                 "per round (the games of a pair in one round form a match only when the event "
                                 'scores matches, e.g. rules = "vn-match")\n')


def test_a_two_game_match_is_not_a_game_listed_twice(tmp_path: Path) -> None:
    text = "\n".join(['[tournament]', 'name = "Match"', 'game = "xiangqi"', 'rules = "vn-match"', 'rounds = 1', '',
                      '[[players]]', 'id = 1', 'name = "A"', '', '[[players]]', 'id = 2', 'name = "B"', '',
                      '[[games]]', 'round = 1', 'white = 1', 'black = 2', 'result = "1-0"', '',
                      '[[games]]', 'round = 1', 'white = 2', 'black = 1', 'result = "1/2-1/2"', ''])
    path = tmp_path / "match.toml"
    path.write_text(text, encoding="utf-8")
    assert [game.board for game in load_tournament(path).games] == [0, 0]
    result = tiebreak("standings", str(path), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert '"points": 1.0' in result.stdout and '"points": 0.0' in result.stdout  # 1 and 0 match points
