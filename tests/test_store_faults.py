"""Whatever goes wrong with the database is one line naming it and the problem, exit status 2,
never a traceback (issue 10, item 13): a read-only folder (the commands that only read still
work there), a full disk, a damaged file, another program's database, a folder or a file where
the database or its folder should be; and a mistyped path is "no store exists there", with
nothing created.  Each case runs ``tiebreak`` as a real process."""

from __future__ import annotations

import os
import resource
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import cli
import pytest

from ranking.errors import InputError
from tiebreak.store import SQLiteStore, StoreError

EXAMPLES = Path(__file__).resolve().parent.parent / "ranking" / "examples"
SWISS = EXAMPLES / "chess-swiss.trf"


def tiebreak(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``tiebreak ARGS --config CONFIG``, in-process (``tests/cli.py``)."""
    return cli.tiebreak(*args, "--config", config, cwd=config.parent)


def tiebreak_process(config: Path, *args: str, bound_by_permissions: bool = False,
                     limit: Callable[[], None] | None = None) -> subprocess.CompletedProcess[str]:
    """``tiebreak ARGS --config CONFIG`` as a real process (a limit, a capability);
    ``bound_by_permissions``: when the tests run as root (who may write into any folder),
    without the capabilities that override file permissions."""
    command = [sys.executable, "-m", "ranking", *args, "--config", str(config)]
    if bound_by_permissions and os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: no folder is read-only")
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, preexec_fn=limit, cwd=config.parent)


def one_line_error(result: subprocess.CompletedProcess[str], *expected: str) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("tiebreak: error: the database ")
    for part in expected:
        assert part in line
    return line


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    for inner in [tmp_path, *tmp_path.rglob("*")]:
        if inner.is_dir():
            inner.chmod(0o755)  # pytest can remove what a test made read-only


def configure(folder: Path, storage: str) -> Path:
    config = folder / "config.toml"
    config.write_text(f'[storage]\npath = "{storage}"\n', encoding="utf-8")
    return config


def test_a_read_only_data_folder_still_serves_the_commands_that_read(folder: Path) -> None:
    config = configure(folder, "data/store.sqlite3")
    assert tiebreak(config, "import", str(SWISS), "--slug", "open").returncode == 0
    data = folder / "data"
    for path in data.iterdir():
        path.chmod(0o444)
    data.chmod(0o555)
    for args in (["log", "open"], ["export", "open", "--format", "trf"], ["standings", "open", "--json"],
                 ["playoff", "open"]):
        result = tiebreak_process(config, *args, bound_by_permissions=True)
        assert "Traceback" not in result.stderr, args
        assert result.returncode in (0, 2) and "database" not in result.stderr, (args, result.stderr)
    written = tiebreak_process(config, "withdraw", "open", "5", bound_by_permissions=True)
    one_line_error(written, str(data / "store.sqlite3"), "cannot be written", "read-only")


def test_a_full_disk_is_one_line_and_writes_nothing(folder: Path) -> None:
    config = configure(folder, "store.sqlite3")
    assert tiebreak(config, "import", str(SWISS), "--slug", "open").returncode == 0
    database = folder / "store.sqlite3"
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        before = connection.execute("SELECT count(*) FROM events").fetchone()[0]

    def small_disk() -> None:  # no write beyond the first kilobyte of a file: as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    result = tiebreak_process(config, "import", str(EXAMPLES / "xiangqi-rr.toml"), "--slug", "rr",
                              limit=small_disk)
    one_line_error(result, str(database))
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT count(*) FROM events").fetchone()[0] == before


def test_a_damaged_file_is_named_as_such(folder: Path) -> None:
    config = configure(folder, "store.sqlite3")
    (folder / "store.sqlite3").write_bytes(b"this is not a database\n" * 100)
    for args in (["log", "open"], ["import", str(SWISS)]):
        one_line_error(tiebreak(config, *args), "not an SQLite database")


def test_another_programs_database_is_refused_and_left_alone(folder: Path) -> None:
    config = configure(folder, "store.sqlite3")
    with sqlite3.connect(folder / "store.sqlite3") as connection:
        connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
    one_line_error(tiebreak(config, "import", str(SWISS)), "not a Tiebreak database", "invoices")
    with sqlite3.connect(folder / "store.sqlite3") as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"invoices"}


def test_a_folder_where_the_database_should_be(folder: Path) -> None:
    config = configure(folder, "store.sqlite3")
    (folder / "store.sqlite3").mkdir()
    one_line_error(tiebreak(config, "import", str(SWISS)), "is a folder, not a database file")


def test_a_file_where_its_folder_should_be(folder: Path) -> None:
    config = configure(folder, "data/store.sqlite3")
    (folder / "data").write_text("a file, not a folder\n")
    one_line_error(tiebreak(config, "import", str(SWISS)), "a file is in the way")


def test_a_mistyped_path_creates_nothing_for_a_command_that_reads(folder: Path) -> None:
    config = configure(folder, "dta/store.sqlite3")
    for args in (["log", "open"], ["standings", "open"], ["result", "open", "1", "1", "1-0"],
                 ["export", "open"]):
        one_line_error(tiebreak(config, *args), "no store exists there")
    assert sorted(path.name for path in folder.iterdir()) == ["config.toml"]


def test_the_store_error_is_an_input_error_naming_the_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no store exists there") as raised:
        SQLiteStore(tmp_path / "missing.sqlite3", create=False)
    assert isinstance(raised.value, InputError)
    assert not (tmp_path / "missing.sqlite3").exists()


def test_an_empty_file_opened_for_reading_holds_no_store(tmp_path: Path) -> None:
    (tmp_path / "empty.sqlite3").write_bytes(b"")
    with pytest.raises(StoreError, match="no store exists there"):
        SQLiteStore(tmp_path / "empty.sqlite3", readonly=True)


def test_a_current_store_opens_without_taking_the_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    SQLiteStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with SQLiteStore(path, timeout=0.01) as store:  # the lock is held: migrating would fail
            assert store.slugs() == []
    finally:
        holder.execute("ROLLBACK")
        holder.close()
