"""The SQLite database under the store: opening it (WAL), its errors as one-line ``StoreError``s,
transactions, migrating its schema."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

from ranking.errors import InputError
from ranking.event.log import TournamentState
from tiebreak.store.migrations import MIGRATIONS, OWN_TABLES, statements

log = logging.getLogger(__name__)


class StoreError(InputError):
    """The database cannot be opened, read or written: ``str()`` is one line naming it and the
    problem (so every caller that reports an ``InputError`` in one line reports this too).
    ``busy``: another process held the write lock longer than the store waits, so trying again
    later may succeed."""

    def __init__(self, path: Path | str, problem: str, *, busy: bool = False) -> None:
        super().__init__(f"the database {path}: {problem}")
        self.path = Path(path)
        self.problem = problem
        self.busy = busy


def _problem(error: sqlite3.Error, timeout: float) -> tuple[str, bool]:
    """What a sqlite3 error means for the person running the program, and whether it is the
    lock of another process (``busy``)."""
    text = str(error)
    lower = text.lower()
    if "locked" in lower or "busy" in lower:
        return (f"another program has held it for writing for more than {timeout:g} s "
                "(nothing was written); try again", True)
    if "disk is full" in lower or "database or disk is full" in lower:
        return "the disk is full (nothing was written): free some space", False
    if "readonly" in lower or "read-only" in lower:
        return "it cannot be written (read-only): check the permissions of the file and its folder", False
    if "not a database" in lower:
        return "it is not an SQLite database (a damaged file, or another kind of file)", False
    if "malformed" in lower or "corrupt" in lower:
        return f"it is damaged ({text}): restore it from a backup", False
    if "unable to open" in lower:
        return "it cannot be opened: check that it and its folder can be read and written", False
    if "i/o error" in lower:
        return "it cannot be read or written (disk I/O error: a full disk or a failing device)", False
    return text, False


class Database:
    """The connection to ``path`` and the machinery every part of the store writes through."""

    def __init__(self, path: str | Path, timeout: float = 30.0, *, create: bool = True,
                 readonly: bool = False) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self.readonly = readonly
        self._lock = threading.RLock()
        self._cache: dict[str, tuple[int, TournamentState]] = {}
        self._snapshot_due: set[str] = set()  # replayed from far back: their snapshot is written when it can be
        memory = str(path) == ":memory:"
        if not memory:
            self._check_path(create and not readonly)
        with self._errors():
            self._connection = self._connect(memory)
            try:
                if not readonly:
                    self._connection.execute("PRAGMA journal_mode=WAL")
                    self._connection.execute("PRAGMA synchronous=FULL")
                self._connection.execute("PRAGMA foreign_keys=ON")
                self.migrate()
            except BaseException:
                self._connection.close()
                raise

    def _check_path(self, create: bool) -> None:
        """A folder where the file should be, a file where its folder should be, or (``not
        create``) no database at all: say so, and create nothing."""
        if self.path.is_dir():
            raise StoreError(self.path, "this is a folder, not a database file: make [storage].path "
                                        "name a file, e.g. data/tiebreak.sqlite3")
        if self.path.exists():
            return
        if not create:
            raise StoreError(self.path, "no store exists there (nothing imported yet, or [storage].path is "
                                        "mistyped); `tiebreak import FILE` creates one")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StoreError(self.path, f"cannot create its folder {self.path.parent}: a file is in the way") from None
        except OSError as error:
            raise StoreError(self.path, f"cannot create its folder {self.path.parent}: "
                                        f"{error.strerror or error}") from None

    def _connect(self, memory: bool) -> sqlite3.Connection:
        def connect(target: str, uri: bool = False) -> sqlite3.Connection:
            return sqlite3.connect(target, timeout=self.timeout, isolation_level=None, check_same_thread=False,
                                   uri=uri)

        if memory or not self.readonly:
            return connect(str(self.path))
        location = self.path.resolve().as_uri()
        connection = connect(f"{location}?mode=ro", uri=True)
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return connection
        except sqlite3.OperationalError:
            connection.close()
            wal = self.path.with_name(self.path.name + "-wal")
            if wal.exists() and wal.stat().st_size > 0:
                raise
        # A WAL database in a folder this process cannot write (no -shm can be made) and with
        # no write-ahead log left: every committed change is in the file itself.
        return connect(f"{location}?mode=ro&immutable=1", uri=True)

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """sqlite3's errors as a ``StoreError`` naming the database (InputError and the rest pass)."""
        try:
            yield
        except sqlite3.Error as error:
            problem, busy = _problem(error, self.timeout)
            raise StoreError(self.path, problem, busy=busy) from None

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._errors():
            yield self._connection

    # -- schema -------------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        with self._reading() as connection:
            return connection.execute("PRAGMA user_version").fetchone()[0]

    def migrate(self) -> None:
        """Apply the migrations this database has not had yet, each in its own transaction;
        a database at the current version is not written at all (so a start-up never waits
        for another process's write lock)."""
        version = self.schema_version
        if version > len(MIGRATIONS):
            raise StoreError(self.path, f"it has schema version {version}, newer than this program knows "
                                        f"({len(MIGRATIONS)}): upgrade Tiebreak")
        if version == 0:
            self._check_own()
        if version == len(MIGRATIONS) or self.readonly:
            return
        with self._transaction():
            version = self.schema_version  # another process may have migrated it meanwhile
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in statements(script):
                    self._connection.execute(statement)
                self._connection.execute(f"PRAGMA user_version = {number}")

    def _check_own(self) -> None:
        """A database at version 0 is new and empty, or not Tiebreak's: refuse to write into another
        program's database, and say an empty one opened for reading holds nothing yet."""
        with self._reading() as connection:
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        foreign = sorted(tables - OWN_TABLES)
        if foreign:
            shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
            raise StoreError(self.path, f"this is not a Tiebreak database (it has the tables {shown}): "
                                        "point [storage].path at another file")
        if self.readonly and not tables:
            raise StoreError(self.path, "no store exists there (the file is empty); `tiebreak import FILE` "
                                        "creates one")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT: writers queue on SQLite's lock, readers never block.  A
        lock held by another process is logged once, then waited for (``timeout`` seconds)."""
        if self.readonly:
            raise StoreError(self.path, "it was opened for reading only")
        with self._lock, self._errors():
            self._begin()
            try:
                yield self._connection
            except BaseException:
                if self._connection.in_transaction:  # SQLite rolls back itself on some errors (a full disk)
                    self._connection.execute("ROLLBACK")
                raise
            self._connection.execute("COMMIT")

    def _begin(self) -> None:
        connection = self._connection
        connection.execute("PRAGMA busy_timeout = 0")
        try:
            connection.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if not _problem(error, self.timeout)[1]:
                raise
        finally:
            connection.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        log.info("the database %s is locked by another process: waiting for it (up to %g s)", self.path,
                 self.timeout)
        connection.execute("BEGIN IMMEDIATE")

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
