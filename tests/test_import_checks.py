"""What the store admits (issue 10: items 9, 10, 11, 17): an import that the TRF export, the
site or a terminal could not cope with later is refused with one line, from the command line
and from the bot; what the terminal shows never holds a control character.  The files are in
tests/data/import."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest
from test_store_faults import configure, tiebreak

from bot import tournament_files
from bot.service import BotService, BotSettings, Who
from ranking.formats.trf_read import parse_trf
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

DATA = Path(__file__).parent / "data" / "import"
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
    ("big-start-number.toml", ["player 10000", "1-9999", "TRF export"]),
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
