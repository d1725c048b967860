"""A full disk during an import says so (issue 21).  SQLite answers a write it has no room for
with SQLITE_FULL ("database or disk is full", what ENOSPC becomes) and rolls the whole
transaction back; the import then said "cannot commit - no transaction is active".  Here the
room runs out the way SQLite sees it: ``PRAGMA max_page_count`` caps the database a couple of
pages above its size, in the real ``tiebreak`` process, which needs no root and no small disk."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "ranking" / "examples"

FULL_DISK = """
import sys
from tiebreak import store
_connect = store.SQLiteStore._connect
def connect(self, memory):  # room for two more pages, then SQLITE_FULL
    connection = _connect(self, memory)
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages + 2}")
    return connection
store.SQLiteStore._connect = connect
from tiebreak.cli import main
sys.exit(main(sys.argv[1:]))
"""


def tiebreak(folder: Path, *args: str, full: bool = False) -> subprocess.CompletedProcess[str]:
    if not full:  # the other commands in-process (tests/cli.py)
        return cli.tiebreak(*args, "--config", folder / "config.toml", cwd=folder)
    program = [sys.executable, "-c", FULL_DISK]
    return subprocess.run([*program, *args, "--config", str(folder / "config.toml")], capture_output=True,
                          text=True, timeout=120, cwd=folder)


def events(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT count(*) FROM events").fetchone()[0]


def test_a_full_disk_during_an_import_says_the_disk_is_full(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[storage]\npath = "store.sqlite3"\n', encoding="utf-8")
    assert tiebreak(tmp_path, "import", str(EXAMPLES / "chess-swiss.trf"), "--slug", "open").returncode == 0
    database = tmp_path / "store.sqlite3"
    before = events(database)
    result = tiebreak(tmp_path, "import", str(EXAMPLES / "xiangqi-rr.toml"), "--slug", "rr", full=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr == (f"tiebreak: error: the database {database}: the disk is full (nothing was "
                             "written): free some space\n")
    assert events(database) == before
    again = tiebreak(tmp_path, "import", str(EXAMPLES / "xiangqi-rr.toml"), "--slug", "rr")  # room again
    assert again.returncode == 0, again.stderr
    assert tiebreak(tmp_path, "standings", "rr", "--json").returncode == 0
