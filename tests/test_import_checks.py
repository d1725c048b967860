"""What the store admits (issue 10: items 9, 10, 11, 17): an import that the TRF export, the
site or a terminal could not cope with later is refused with one line, from the command line
and from the bot; what the terminal shows never holds a control character.  The files are in
tests/data/import."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from test_store_faults import configure, tiebreak

from bot import tournament_files
from bot.service import BotService, BotSettings, Who
from ranking.errors import InputError
from ranking.event.model import Player, Tournament
from ranking.event.refusals import Code, Refusal
from ranking.formats.trf_read import parse_trf
from tiebreak.checks import MAX_NAME_LENGTH, PLAYER_FIELDS, check_names, check_player
from tiebreak.exports import export_text
from tiebreak.files import load_tournament
from tiebreak.running import player_edit
from tiebreak.store import Source, SQLiteStore
from tiebreak.wording import cli_text

DATA = Path(__file__).parent / "data" / "import"
XIANGQI_DATA = Path(__file__).parent / "data" / "xiangqi"
EXAMPLES = Path(__file__).resolve().parent.parent / "ranking" / "examples"
CHIEF = 1001


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return configure(tmp_path, "store.sqlite3")


def stored(config: Path) -> list[str]:
    database = config.parent / "store.sqlite3"
    if not database.exists():
        return []
    with sqlite3.connect(database) as connection:
        return [row[0] for row in connection.execute("SELECT slug FROM tournaments")]


def refused(result: subprocess.CompletedProcess[str], *expected: str) -> str:
    assert result.returncode == 2, result.stdout
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    for part in expected:
        assert part in line, line
    return line


@pytest.mark.parametrize(("file", "expected"), [
    ("escape-in-name.toml", ["player 1's name", "control character \\x1b"]),
    ("line-break-in-name.toml", ["player 1's name", "control character \\n"]),
    ("bidi-in-club.toml", ["player 1's club", "control character \\u202e"]),
    ("long-name.toml", ["player 1's name has 101 characters, at most 100"]),
    ("long-federation.toml", ["federation 'VIETNAM'", "TRF export"]),
    ("reserved-slug.toml", ["the slug 'zh' is taken by the site's own pages"]),
])
def test_an_import_the_store_could_not_cope_with_is_one_line_and_stores_nothing(config: Path, file: str,
                                                                                 expected: list[str]) -> None:
    line = refused(tiebreak(config, "import", str(DATA / file)), file, *expected)
    assert "\x1b" not in line and "\u202e" not in line
    assert stored(config) == []


@pytest.mark.parametrize("slug", ["zh", "VI", "es", "en", "index.html", "static", "Static", "open.html",
                                  "open.json", "a" * 65])
def test_a_slug_that_collides_with_the_sites_paths_is_refused(config: Path, slug: str) -> None:
    refused(tiebreak(config, "import", str(EXAMPLES / "chess-swiss.trf"), "--slug", slug), "slug")
    assert stored(config) == []


def test_a_slug_made_from_the_file_name_is_checked_too(config: Path, tmp_path: Path) -> None:
    file = tmp_path / "static.trf"
    file.write_bytes((EXAMPLES / "chess-swiss.trf").read_bytes())
    refused(tiebreak(config, "import", str(file)), "the slug 'static'")
    assert tiebreak(config, "import", str(file), "--slug", "static-open").returncode == 0


def test_scores_beyond_the_trf_points_column_still_export(config: Path) -> None:
    assert tiebreak(config, "import", str(DATA / "big-scores.toml"), "--slug", "league").returncode == 0
    exported = tiebreak(config, "export", "league", "--format", "trf")
    assert exported.returncode == 0, exported.stderr
    again = parse_trf(exported.stdout)
    assert [player.name for player in again.players] == ["Ann", "Ben", "Cy"]


# -- the import check is the export (issue 26): what it admits, /export and the site write ---------


def test_starting_numbers_beyond_the_trf_columns_import_and_export_by_pairing_number(config: Path) -> None:
    """Players 1, 2, 3 and 10000: the TRF export numbers them 1-4, so the import admits them."""
    assert tiebreak(config, "import", str(DATA / "big-start-number.toml"), "--slug", "numbers").returncode == 0
    exported = tiebreak(config, "export", "numbers", "--format", "trf")
    assert exported.returncode == 0, exported.stderr
    assert [(player.id, player.name) for player in parse_trf(exported.stdout).players] == [
        (1, "Ann"), (2, "Ben"), (3, "Cy"), (4, "Dee")]


def team_event_with_a_gap(folder: Path) -> Path:
    """The CXA team round robin with player 8 (team 4's second board) numbered 13."""
    text = (XIANGQI_DATA / "cxa-team-rr.toml").read_text(encoding="utf-8")
    text = re.sub(r"^id = 8$", "id = 13", text, flags=re.M).replace("roster = [7, 8]", "roster = [7, 13]")
    text = re.sub(r"^(red|black) = 8$", r"\1 = 13", text, flags=re.M)
    file = folder / "gap.toml"
    file.write_text(text, encoding="utf-8")
    assert load_tournament(file).teams[3].roster == (7, 13)
    return file


def standings_by_name(config: Path, file: Path) -> tuple[list[tuple], list[tuple]]:
    shown = tiebreak(config, "standings", str(file), "--teams", "--json")
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    return ([(row["rank"], row["name"], row["points"], row["tiebreaks"]) for row in data["standings"]],
            [(row["rank"], row["name"], row["match_points"], row["game_points"], row["tiebreaks"])
             for row in data["teams"]])


def test_a_team_event_with_a_gap_in_its_numbers_exports_and_imports_back_with_the_same_standings(
        config: Path, tmp_path: Path) -> None:
    """TRF-2026's team records name the members by the numbers of the player lines: the export
    renumbers the rosters with the players."""
    file = team_event_with_a_gap(tmp_path)
    assert tiebreak(config, "import", str(file), "--slug", "league").returncode == 0
    exported = tiebreak(config, "export", "league", "--format", "trf")
    assert exported.returncode == 0, exported.stderr
    again = parse_trf(exported.stdout)
    assert [player.id for player in again.players] == list(range(1, 9))
    assert [team.roster for team in again.teams] == [(1, 2), (3, 4), (5, 6), (7, 8)]
    trf = tmp_path / "league.trf"
    trf.write_text(exported.stdout, encoding="utf-8")
    assert standings_by_name(config, trf) == standings_by_name(config, file)
    assert tiebreak(config, "import", str(trf), "--slug", "league-again").returncode == 0


def test_the_import_check_refuses_what_the_export_refuses_in_the_same_words(config: Path) -> None:
    tournament = load_tournament(DATA / "long-federation.toml")
    with pytest.raises(InputError) as exported:
        export_text(tournament, "trf")
    line = refused(tiebreak(config, "import", str(DATA / "long-federation.toml")))
    assert exported.value.message + ": the TRF export (/export, the site's download) needs it" in line


def test_a_refusal_of_the_export_names_the_player_by_starting_number(config: Path, tmp_path: Path) -> None:
    """The TRF numbers players 5 and 9 as 1 and 2; the refusal still says player 9."""
    text = (DATA / "long-federation.toml").read_text(encoding="utf-8")
    file = tmp_path / "numbers.toml"
    file.write_text(text.replace("id = 1\n", "id = 9\n").replace("id = 2\n", "id = 5\n"), encoding="utf-8")
    with pytest.raises(InputError, match=r"^player 9: federation 'VIETNAM'"):
        export_text(load_tournament(file), "trf")
    refused(tiebreak(config, "import", str(file)), "player 9: federation 'VIETNAM'", "TRF export")


def test_the_terminal_never_shows_a_control_character_of_a_name(config: Path) -> None:
    """A file read for its standings, and a tournament stored before the checks existed."""
    shown = tiebreak(config, "standings", str(DATA / "escape-in-name.toml"))
    assert shown.returncode == 0, shown.stderr
    assert "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    assert "Ann\\x1b]0;owned\\x07" in shown.stdout
    tournament = load_tournament(DATA / "escape-in-name.toml")
    with SQLiteStore(config.parent / "store.sqlite3") as store:
        store.create("old", tournament, Source("cli:test"))
    assert tiebreak(config, "pair", "old").returncode == 0
    for args in (["standings", "old"], ["result", "old", "1", "1", "1-0"], ["log", "old"]):
        result = tiebreak(config, *args)
        assert result.returncode == 0, result.stderr
        assert "\x1b" not in result.stdout and "\x07" not in result.stdout, args


def test_the_bot_refuses_the_same_imports(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "bot.sqlite3") as store:
        service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
        chief = Who(CHIEF, CHIEF)
        for file, slug, expected in [("escape-in-name.toml", "", "control character \\x1b"),
                                     ("long-federation.toml", "", "TRF export"),
                                     ("long-name.toml", "", "at most 100"),
                                     ("escape-in-name.toml".replace("escape-in-name", "big-scores"), "zh",
                                      "taken by the site's own pages")]:
            [reply] = tournament_files.import_file(service, chief, file, (DATA / file).read_bytes(), slug)
            assert reply.text.startswith("Refused: ") and expected in reply.text, reply.text
            assert "\x1b" not in reply.text
        assert store.slugs() == []


# -- one check of a player: imported, entered late or corrected (issue 26) -----------------------

@pytest.mark.parametrize("field", PLAYER_FIELDS)
def test_a_player_is_admitted_alike_imported_entered_or_corrected(field: str) -> None:
    """``tiebreak.checks.check_player`` is the one check of a player.  The late entries and
    corrections (``tiebreak.running``) used to look for control characters in the name, club,
    federation and title only, the import in the sex, FIDE id and date of birth too."""
    player = replace(Player(1, "Ann Lee"), **{field: "x\x1b[31m"})
    with pytest.raises(Refusal) as entered:
        check_player(player)
    assert (entered.value.code, entered.value.params) == (Code.CONTROL_CHARACTER, {"what": field,
                                                                                    "character": "\\x1b"})
    with pytest.raises(InputError, match=rf"^player 1's {field} 'x\\\\x1b\[31m' contains the control character"):
        check_names(Tournament("Open", (player,), rounds=1))


@pytest.mark.parametrize(("length", "admitted"), [(MAX_NAME_LENGTH, True), (MAX_NAME_LENGTH + 1, False)])
def test_a_players_name_has_one_length_limit(length: int, admitted: bool) -> None:
    player = Player(1, "A" * length)
    for check in (lambda: check_player(player), lambda: check_names(Tournament("Open", (player,), rounds=1))):
        if admitted:
            check()
        else:
            with pytest.raises(InputError, match=rf"{length} characters.* at most {MAX_NAME_LENGTH}"):
                check()


def test_a_correction_keeps_no_player_an_import_refuses(tmp_path: Path) -> None:
    """A player stored with a control character in the FIDE id (before these checks) is
    corrected only once it is gone: the correction used to be stored, and its export then
    failed to import."""
    tournament = Tournament("Open", (Player(1, "Ann Lee", fide_id="123\x1b"), Player(2, "Bo Li")), rounds=3)
    with SQLiteStore(tmp_path / "store.sqlite3") as store:
        store.create("open", tournament, Source("cli:test"))
        with pytest.raises(Refusal) as refused:
            store.append("open", lambda state: player_edit(state, 1, rating=2100), Source("cli:test"))
        assert refused.value.params == {"what": "fide_id", "character": "\\x1b"}
        assert cli_text(refused.value) == "--fide-id holds the control character \\x1b: remove it"
        assert store.tournament("open").players[0].rating == 0
        store.append("open", lambda state: player_edit(state, 1, fide_id="123", rating=2100), Source("cli:test"))
        assert store.tournament("open").players[0] == Player(1, "Ann Lee", rating=2100, fide_id="123")


@pytest.mark.parametrize(("field", "words"), [("name", "--name"), ("fide_id", "--fide-id"),
                                               ("birth", "the player's birth (only an import sets it)")])
def test_the_command_line_names_the_option_that_sets_a_refused_field(field: str, words: str) -> None:
    """A control character is refused naming the option that sets the field; a field no option sets
    is named as such (it used to say ``--fide_id``, an option that did not exist)."""
    refusal = Refusal(Code.CONTROL_CHARACTER, what=field, character="\\x1b")
    assert cli_text(refusal) == f"{words} holds the control character \\x1b: remove it"
