"""The tournament store: SQLite (WAL) holding an append-only event log per tournament.

State is derived from the log (``ranking.event.log``): a correction is a new event, never an
UPDATE that loses the old value.  Every write is one transaction that first re-reads the
latest state, checks the request against it and appends, so two processes entering results
at once lose nothing, and a process killed mid-write leaves each event wholly there or not at
all.  ``Store`` is the small interface callers use; ``SQLiteStore`` implements it with the
standard library, and a PostgreSQL adapter would implement the same methods.

Whatever goes wrong with the database itself (a mistyped path, a read-only folder, a full
disk, a damaged or foreign file, a lock held too long by another process) is a ``StoreError``:
one line naming the database and the problem, never a traceback.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from ranking.errors import InputError
from ranking.event.log import Event, EventKind, LoggedEvent, TournamentState
from ranking.event.model import Seeding, Tournament
from ranking.event.refusals import Code, Refusal
from ranking.formats.tomlfile import parse_tournament_toml, write_tournament_toml
from tiebreak import snapshots

log = logging.getLogger(__name__)

#: Versioned schema migrations, applied in order; ``PRAGMA user_version`` is the version.
MIGRATIONS: tuple[str, ...] = (
    # 1: tournaments, players and rounds (projections kept in step with the log) and the log.
    """
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE players (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        player_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        rating INTEGER NOT NULL DEFAULT 0,
        federation TEXT NOT NULL DEFAULT '',
        club TEXT NOT NULL DEFAULT '',
        withdrawn_after INTEGER,
        PRIMARY KEY (tournament_id, player_id)
    );
    CREATE TABLE rounds (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        number INTEGER NOT NULL,
        boards INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        paired_at TEXT,
        PRIMARY KEY (tournament_id, number)
    );
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        actor TEXT NOT NULL,
        at TEXT NOT NULL,
        chat_id INTEGER,
        message_id INTEGER,
        dedupe_key TEXT UNIQUE
    );
    CREATE INDEX events_by_tournament ON events (tournament_id, id);
    CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
    CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
    """,
    # 2: the bot's users (language, selected tournament, /iam, /subscribe) and every
    # submission it received, accepted or rejected (docs/architecture.md#storage).
    """
    CREATE TABLE bot_users (
        user_id INTEGER PRIMARY KEY,
        chat_id INTEGER,
        language TEXT,
        tournament TEXT,
        player_id INTEGER,
        subscribed INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE submissions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        user_id INTEGER,
        chat_id INTEGER,
        message_id INTEGER,
        update_id INTEGER,
        tournament TEXT,
        text TEXT NOT NULL,
        accepted INTEGER NOT NULL,
        rejected INTEGER NOT NULL,
        detail TEXT NOT NULL DEFAULT ''
    );
    """,
    # 3: INSERT OR REPLACE deletes without firing delete triggers: refuse it on the log too.
    """
    CREATE TRIGGER events_append_only_replace BEFORE INSERT ON events
        WHEN EXISTS (SELECT 1 FROM events WHERE id = NEW.id OR dedupe_key = NEW.dedupe_key)
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
    CREATE INDEX submissions_by_update ON submissions (update_id);
    """,
    # 4: the bot's answer to each update that changed something or was refused, so an update
    # Telegram delivers again is answered like the first time; ``sent`` is 0 while it could not
    # be sent (it goes out with the next answer to that chat).
    """
    CREATE TABLE answers (
        update_id INTEGER PRIMARY KEY,
        chat_id INTEGER,
        replies TEXT NOT NULL,
        sent INTEGER NOT NULL DEFAULT 1,
        at TEXT NOT NULL
    );
    CREATE INDEX answers_unsent ON answers (chat_id) WHERE sent = 0;
    """,
    # 5: archived tournaments (hidden from the lists and the site; their log stays), and who a
    # Telegram user is in each tournament (/iam, /subscribe per user and tournament: issue 11.7).
    # The identities kept so far were global: they go to the tournament then selected.
    """
    ALTER TABLE tournaments ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE bot_players (
        user_id INTEGER NOT NULL,
        tournament TEXT NOT NULL,
        player_id INTEGER,
        subscribed INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, tournament)
    );
    INSERT INTO bot_players (user_id, tournament, player_id, subscribed)
        SELECT user_id, tournament, player_id, subscribed FROM bot_users
        WHERE tournament IS NOT NULL AND player_id IS NOT NULL;
    """,
    # 6: snapshots of the derived state (tiebreak.snapshots): a new process replays from them.
    snapshots.TABLE,
    # 7: the entry page's personal links (tiebreak.links): only a hash of each secret is kept;
    # a label names one link in force per tournament; a revoked link stays, for the log's sake
    # (its changes are logged as web:<id>).  ``web_keys``: the key that signs the page's forms.
    """
    CREATE TABLE entry_links (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament TEXT NOT NULL,
        label TEXT NOT NULL,
        secret_sha256 TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        revoked_at TEXT
    );
    CREATE UNIQUE INDEX entry_links_in_force ON entry_links (tournament, label) WHERE revoked_at IS NULL;
    CREATE TABLE web_keys (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 8: chat channels other than Telegram (issue 23).  ``channel_ids`` gives each of their users
    # and chats a number of the bot's own (``CHANNEL_ID_BASE``: beyond every Telegram id), which
    # the tables above use; ``inbox`` keeps every message received before it is handled
    # (``done``), once per channel message, so a process killed in between handles it on restart
    # and a message delivered twice is received once; ``offered_choices`` the numbered choices a
    # text-only chat was last offered (the user answers with a number).
    """
    CREATE TABLE channel_ids (
        number INTEGER PRIMARY KEY AUTOINCREMENT,
        channel TEXT NOT NULL,
        external TEXT NOT NULL,
        UNIQUE (channel, external)
    );
    CREATE TABLE inbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        channel TEXT NOT NULL,
        message_key TEXT NOT NULL,
        body TEXT NOT NULL,
        at TEXT NOT NULL,
        done INTEGER NOT NULL DEFAULT 0,
        UNIQUE (channel, message_key)
    );
    CREATE INDEX inbox_waiting ON inbox (channel, id) WHERE done = 0;
    CREATE TABLE offered_choices (
        chat_id INTEGER PRIMARY KEY,
        choices TEXT NOT NULL
    );
    """,
)

#: the numbers ``Store.channel_id`` gives the users and chats of channels other than Telegram
#: are ``-(CHANNEL_ID_BASE + n)``: Telegram's user and chat ids stay within 52 bits of magnitude,
#: so the two never meet, and every table keyed by a Telegram id serves every channel
CHANNEL_ID_BASE = 2 ** 53

#: the tables of a Tiebreak database at schema version 1 (a database without them is foreign)
_OWN_TABLES = frozenset({"tournaments", "players", "rounds", "events", "sqlite_sequence"})


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


@dataclass(frozen=True)
class UserPrefs:
    """What the bot remembers of a Telegram user (who they are in a tournament: ``Identity``)."""

    user_id: int
    chat_id: int | None = None
    language: str | None = None  # chosen with /language; None: the user's Telegram language
    tournament: str | None = None  # the selected tournament's slug


@dataclass(frozen=True)
class Identity:
    """Who a Telegram user is in one tournament (/iam) and whether they get its pairings
    (/subscribe); ``chat_id`` and ``language`` are the user's, for notifications."""

    user_id: int
    tournament: str
    player_id: int | None = None
    subscribed: bool = False
    chat_id: int | None = None
    language: str | None = None


@dataclass(frozen=True)
class EntryLink:
    """A personal link to the entry page (``tiebreak.links``): ``id`` names it in the log
    (``web:<id>``); the secret itself is never stored, only its SHA-256."""

    id: int
    tournament: str
    label: str
    created_at: str
    created_by: str
    revoked_at: str | None = None


@dataclass(frozen=True)
class Source:
    """Who asked and from where: ``actor`` is ``tg:<user id>``, ``zalo:<user id>`` (a chat
    channel and its own id of the user) or ``cli:<user>``; a chat message also gives its chat and
    message (the channel's own ids), and a ``dedupe_key`` so a repeat applies once."""

    actor: str
    chat_id: int | str | None = None
    message_id: int | str | None = None
    dedupe_key: str | None = None


@dataclass
class Submission:
    """A submission (docs/architecture.md#storage) recorded in the transaction of the events it led to,
    so a process killed between the two leaves both or neither; ``decide`` fills in the counts."""

    text: str
    tournament: str | None
    update_id: int | None = None
    accepted: int = 0
    rejected: int = 0
    detail: str = ""


#: Turns the current state into the events to append (or raises InputError, writing nothing).
Decide = Callable[[TournamentState], Sequence[Event]]


class Store(Protocol):
    """What the bot, the site and the command line need from a store."""

    def slugs(self, archived: bool = False) -> list[str]: ...

    def is_archived(self, slug: str) -> bool: ...

    def create(self, slug: str, tournament: Tournament, source: Source) -> None: ...

    def tournament_key(self, slug: str) -> int: ...

    def slug_for_key(self, key: int) -> str: ...

    def state(self, slug: str) -> TournamentState: ...

    def tournament(self, slug: str) -> Tournament: ...

    def versions(self) -> dict[str, int]: ...

    def append(self, slug: str, decide: Decide, source: Source,
               submission: Submission | None = None) -> list[LoggedEvent]: ...

    def log(self, slug: str) -> list[LoggedEvent]: ...

    def user(self, user_id: int) -> UserPrefs: ...

    def save_user(self, prefs: UserPrefs) -> None: ...

    def identity(self, user_id: int, slug: str) -> Identity: ...

    def save_identity(self, identity: Identity) -> None: ...

    def subscribers(self, slug: str) -> list[Identity]: ...

    def last_update_id(self) -> int: ...

    def record_submission(self, source: Source, text: str, tournament: str | None, accepted: int,
                          rejected: int, detail: str = "", update_id: int | None = None) -> None: ...

    def has_submission(self, update_id: int) -> bool: ...

    def submissions(self) -> list[dict]: ...

    def applied(self, dedupe_key: str) -> bool: ...

    def answer(self, update_id: int) -> str | None: ...

    def save_answer(self, update_id: int, chat_id: int | None, replies: str) -> None: ...

    def mark_answer(self, update_id: int, sent: bool) -> None: ...

    def unsent_answers(self, chat_id: int) -> list[tuple[int, str]]: ...

    def channel_id(self, channel: str, external: str) -> int: ...

    def channel_address(self, number: int) -> tuple[str, str] | None: ...

    def receive(self, channel: str, message_key: str, body: str) -> int | None: ...

    def waiting(self, channel: str) -> list[tuple[int, str]]: ...

    def finish(self, inbox_id: int) -> None: ...

    def offer_choices(self, chat_id: int, choices: str) -> None: ...

    def offered_choices(self, chat_id: int) -> str | None: ...

    def add_link(self, slug: str, label: str, secret_sha256: str, actor: str) -> EntryLink: ...

    def revoke_link(self, slug: str, label: str) -> EntryLink | None: ...

    def link_by_secret(self, secret_sha256: str) -> EntryLink | None: ...

    def links(self, slug: str) -> list[EntryLink]: ...

    def web_key(self, name: str, make: Callable[[], str]) -> str: ...

    def close(self) -> None: ...

    def __enter__(self) -> Store: ...

    def __exit__(self, *exc: object) -> None: ...


class SQLiteStore:
    """The SQLite store; ``path`` is ``[storage].path`` of config.toml.

    ``create``: a missing database (and its folder) is created, as ``tiebreak import`` and the
    bot need; otherwise a missing one is a ``StoreError`` saying no store exists there, and
    nothing is created.  ``readonly``: opened for reading only, so the commands that only read
    work on a database in a read-only folder too.
    """

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
                for statement in _statements(script):
                    self._connection.execute(statement)
                self._connection.execute(f"PRAGMA user_version = {number}")

    def _check_own(self) -> None:
        """A database at version 0 is new and empty, or not Tiebreak's: refuse to write into another
        program's database, and say an empty one opened for reading holds nothing yet."""
        with self._reading() as connection:
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        foreign = sorted(tables - _OWN_TABLES)
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

    # -- reading --------------------------------------------------------------------------

    def slugs(self, archived: bool = False) -> list[str]:
        """The tournaments in the order they were imported; archived ones only if ``archived``."""
        query = "SELECT slug FROM tournaments " + ("" if archived else "WHERE archived = 0 ") + "ORDER BY id"
        with self._reading():
            return [row[0] for row in self._connection.execute(query)]

    def is_archived(self, slug: str) -> bool:
        with self._reading():
            return bool(self._connection.execute("SELECT archived FROM tournaments WHERE id = ?",
                                                 (self._tournament_id(slug),)).fetchone()[0])

    def _tournament_id(self, slug: str) -> int:
        row = self._connection.execute("SELECT id FROM tournaments WHERE slug = ?", (slug,)).fetchone()
        if row is None:
            known = ", ".join(self.slugs(archived=True)) or "none yet: `tiebreak import FILE`"
            raise InputError(f"no tournament {slug!r} in the store (tournaments: {known})")
        return row[0]

    def tournament_key(self, slug: str) -> int:
        """A short number for the tournament (inline buttons carry it: 64 bytes at most)."""
        with self._reading():
            return self._tournament_id(slug)

    def slug_for_key(self, key: int) -> str:
        with self._reading():
            row = self._connection.execute("SELECT slug FROM tournaments WHERE id = ?", (key,)).fetchone()
        if row is None:
            raise InputError(f"no tournament number {key} in the store")
        return row[0]

    def state(self, slug: str) -> TournamentState:
        """The current state, replaying only the events appended since the last call."""
        with self._reading():
            tournament_id = self._tournament_id(slug)
            last, state = self._cache.get(slug, (0, None))
            if state is None:  # a new process: from the snapshot, if there is one (tiebreak.snapshots)
                last, state = snapshots.load(self._connection, tournament_id) or (0, None)
            rows = self._connection.execute(
                "SELECT id, kind, data FROM events WHERE tournament_id = ? AND id > ? ORDER BY id",
                (tournament_id, last)).fetchall()
            if rows and (last == 0 or len(rows) >= snapshots.REFRESH_AFTER):
                self._snapshot_due.add(slug)
            for event_id, kind, data in rows:
                event = Event(EventKind(kind), json.loads(data))
                if event.kind is EventKind.IMPORTED:
                    state = TournamentState(imported(event, slug))
                else:
                    assert state is not None, "a log starts with its import"
                    state.apply(event)
                last = event_id
            assert state is not None
            self._cache[slug] = (last, state)
            if (slug in self._snapshot_due and not self.readonly
                    and snapshots.save(self._connection, tournament_id, last, state)):
                self._snapshot_due.discard(slug)
            return state

    def tournament(self, slug: str) -> Tournament:
        with self._reading():
            return self.state(slug).snapshot()

    def versions(self) -> dict[str, int]:
        """Each listed (not archived) tournament's version, in the order they were imported: the
        id of the last event of its log, which every change moves on (the site builds only the
        tournaments whose version moved since its last build)."""
        with self._reading() as connection:
            return dict(connection.execute(
                "SELECT t.slug, (SELECT max(e.id) FROM events e WHERE e.tournament_id = t.id) FROM tournaments t "
                "WHERE t.archived = 0 ORDER BY t.id"))

    def log(self, slug: str) -> list[LoggedEvent]:
        with self._reading():
            tournament_id = self._tournament_id(slug)
            rows = self._connection.execute(
                "SELECT id, kind, data, actor, at, chat_id, message_id FROM events "
                "WHERE tournament_id = ? ORDER BY id", (tournament_id,)).fetchall()
        return [LoggedEvent(row[0], Event(EventKind(row[1]), json.loads(row[2])), row[3], row[4], row[5], row[6])
                for row in rows]

    # -- writing --------------------------------------------------------------------------

    def create(self, slug: str, tournament: Tournament, source: Source) -> None:
        """Import a tournament under ``slug``; refused if the slug is taken, also in another case
        (``Open`` when ``open`` exists: the site's folders of both would be one on a host that
        ignores case).  A
        ``source.dedupe_key`` already in the log means this very request imported it before:
        nothing changes."""
        with self._transaction() as connection:
            if source.dedupe_key is not None and connection.execute(
                    "SELECT 1 FROM events WHERE dedupe_key = ?", (source.dedupe_key,)).fetchone():
                return
            taken = connection.execute("SELECT slug FROM tournaments WHERE slug = ? COLLATE NOCASE", (slug,)).fetchone()
            if taken is not None and taken[0] == slug:
                raise Refusal(Code.SLUG_TAKEN, slug=slug)
            if taken is not None:  # one folder of the site on a host that ignores case
                raise Refusal(Code.SLUG_CASE, taken=taken[0], slug=slug)
            now = _now()
            tournament_id = connection.execute(
                "INSERT INTO tournaments (slug, name, created_at) VALUES (?, ?, ?)",
                (slug, tournament.name, now)).lastrowid
            connection.executemany(
                "INSERT INTO players (tournament_id, player_id, name, rating, federation, club) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(tournament_id, p.id, p.name, p.rating, p.federation, p.club) for p in tournament.players])
            event = Event(EventKind.IMPORTED, {"toml": write_tournament_toml(tournament),
                                               "seeding": tournament.seeding.value})
            event_id = self._insert(connection, tournament_id, event, source, now, source.dedupe_key)
            state = TournamentState(tournament)
            self._project(connection, tournament_id, state)
            snapshots.save(connection, tournament_id, event_id, state)  # no process parses the import again
        self._cache[slug] = (event_id, state)

    def append(self, slug: str, decide: Decide, source: Source,
               submission: Submission | None = None) -> list[LoggedEvent]:
        """Append what ``decide`` makes of the latest state, atomically, with ``submission``
        (as ``decide`` left it) in the same transaction.

        A ``source.dedupe_key`` already in the log means this request was applied before
        (e.g. a Telegram update delivered twice): nothing is appended and [] is returned.
        """
        inserted = False
        try:
            with self._transaction() as connection:
                if source.dedupe_key is not None and connection.execute(
                        "SELECT 1 FROM events WHERE dedupe_key = ?", (source.dedupe_key,)).fetchone():
                    return []
                state = self.state(slug)
                events = [event for event in decide(state) if event is not None]
                tournament_id = self._tournament_id(slug)
                now = _now()
                logged = []
                for number, event in enumerate(events):
                    key = source.dedupe_key if number == 0 else None
                    inserted = True
                    event_id = self._insert(connection, tournament_id, event, source, now, key)
                    logged.append(LoggedEvent(event_id, event, source.actor, now, source.chat_id,
                                              source.message_id))
                if events:
                    self._project(connection, tournament_id, self.state(slug), events)
                if submission is not None:
                    self._submit(connection, source, submission)
                return logged
        except BaseException:
            if inserted:  # the cache may hold events of the transaction rolled back
                self._cache.pop(slug, None)
            raise

    def _insert(self, connection: sqlite3.Connection, tournament_id: int, event: Event, source: Source,
                now: str, dedupe_key: str | None = None) -> int:
        cursor = connection.execute(
            "INSERT INTO events (tournament_id, kind, data, actor, at, chat_id, message_id, dedupe_key) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (tournament_id, event.kind.value, json.dumps(event.data, ensure_ascii=False), source.actor, now,
             source.chat_id, source.message_id, dedupe_key))
        return int(cursor.lastrowid or 0)

    def _project(self, connection: sqlite3.Connection, tournament_id: int, state: TournamentState,
                 events: Sequence[Event] | None = None) -> None:
        """Keep the rounds and withdrawals tables in step with the log (same transaction):
        every round after an import, else only the rounds and players the events touched."""
        rounds = None if events is None else {event.data["round"] for event in events if "round" in event.data} | {
            forfeit[0] for event in events for forfeit in event.data.get("forfeits", ())}
        counts: dict[int, list[int]] = {}
        for (number, _), game in state.games.items():
            if rounds is None or number in rounds:
                done = counts.setdefault(number, [0, 0])
                done[0] += 1
                done[1] += game.result is not None
        connection.executemany(
            "INSERT INTO rounds (tournament_id, number, boards, finished) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(tournament_id, number) DO UPDATE SET boards = excluded.boards, finished = excluded.finished",
            [(tournament_id, number, boards, finished) for number, (boards, finished) in sorted(counts.items())])
        connection.executemany(  # a round un-paired has no boards left
            "DELETE FROM rounds WHERE tournament_id = ? AND number = ?",
            [(tournament_id, number) for number in sorted(rounds or ()) if number not in counts])
        players = None if events is None else {event.data["player"] for event in events
                                               if event.kind is EventKind.WITHDRAWAL}
        connection.executemany(
            "UPDATE players SET withdrawn_after = ? WHERE tournament_id = ? AND player_id = ?",
            [(w.after_round, tournament_id, w.player) for w in state.withdrawals.values()
             if players is None or w.player in players])
        for event in events or ():
            if event.kind is EventKind.PLAYER_ADDED:
                p = event.data["player"]
                connection.execute(
                    "INSERT INTO players (tournament_id, player_id, name, rating, federation, club) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (tournament_id, p["id"], p["name"], p.get("rating", 0),
                                                  p.get("federation", ""), p.get("club", "")))
            elif event.kind is EventKind.PLAYER_REMOVED:
                connection.execute("DELETE FROM players WHERE tournament_id = ? AND player_id = ?",
                                   (tournament_id, event.data["player"]["id"]))
            elif event.kind is EventKind.PLAYER_EDITED:
                p = state.base.player(event.data["player"])
                connection.execute("UPDATE players SET name = ?, rating = ?, federation = ?, club = ? "
                                   "WHERE tournament_id = ? AND player_id = ?",
                                   (p.name, p.rating, p.federation, p.club, tournament_id, p.id))
            elif event.kind is EventKind.PLAYER_RETURNED:
                connection.execute("UPDATE players SET withdrawn_after = NULL WHERE tournament_id = ? "
                                   "AND player_id = ?", (tournament_id, event.data["player"]))
            elif event.kind is EventKind.SETTINGS_RESTORED or (
                    event.kind is EventKind.SETTING and event.data["key"] == "name"):
                connection.execute("UPDATE tournaments SET name = ? WHERE id = ?", (state.base.name, tournament_id))
            elif event.kind in (EventKind.ARCHIVED, EventKind.RESTORED):
                connection.execute("UPDATE tournaments SET archived = ? WHERE id = ?",
                                   (int(event.kind is EventKind.ARCHIVED), tournament_id))

    # -- the bot's users and submissions ---------------------------------------------------

    def user(self, user_id: int) -> UserPrefs:
        with self._reading():
            row = self._connection.execute(
                "SELECT chat_id, language, tournament FROM bot_users WHERE user_id = ?", (user_id,)).fetchone()
        if row is None:
            return UserPrefs(user_id)
        return UserPrefs(user_id, row[0], row[1], row[2])

    def save_user(self, prefs: UserPrefs) -> None:
        with self._transaction() as connection:
            connection.execute(
                "INSERT INTO bot_users (user_id, chat_id, language, tournament) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(user_id) DO UPDATE SET chat_id = excluded.chat_id, "
                "language = excluded.language, tournament = excluded.tournament",
                (prefs.user_id, prefs.chat_id, prefs.language, prefs.tournament))

    _IDENTITY = ("SELECT p.user_id, p.tournament, p.player_id, p.subscribed, u.chat_id, u.language "
                 "FROM bot_players p LEFT JOIN bot_users u ON u.user_id = p.user_id ")

    def identity(self, user_id: int, slug: str) -> Identity:
        """Who ``user_id`` said they are in tournament ``slug`` (nobody yet: ``player_id`` None)."""
        with self._reading():
            row = self._connection.execute(self._IDENTITY + "WHERE p.user_id = ? AND p.tournament = ?",
                                           (user_id, slug)).fetchone()
        return Identity(user_id, slug) if row is None else _identity(row)

    def save_identity(self, identity: Identity) -> None:
        with self._transaction() as connection:
            connection.execute(
                "INSERT INTO bot_players (user_id, tournament, player_id, subscribed) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(user_id, tournament) DO UPDATE SET player_id = excluded.player_id, "
                "subscribed = excluded.subscribed",
                (identity.user_id, identity.tournament, identity.player_id, int(identity.subscribed)))

    def subscribers(self, slug: str) -> list[Identity]:
        """The users who get the pairings of ``slug``: subscribed, and a player of it."""
        with self._reading():
            rows = self._connection.execute(
                self._IDENTITY + "WHERE p.tournament = ? AND p.subscribed = 1 AND p.player_id IS NOT NULL "
                "ORDER BY p.user_id", (slug,)).fetchall()
        return [_identity(row) for row in rows]

    def last_update_id(self) -> int:
        """The highest Telegram update id the store has seen (0 for none): the console bot
        numbers its updates after it, so a restart never repeats one (issue 11.8)."""
        with self._reading():
            submitted = max(self._connection.execute("SELECT max(update_id) FROM submissions").fetchone()[0] or 0,
                            self._connection.execute("SELECT max(update_id) FROM answers").fetchone()[0] or 0)
            keys = self._connection.execute(
                "SELECT dedupe_key FROM events WHERE dedupe_key LIKE 'tg-update:%'").fetchall()
        logged = max((int(key.removeprefix("tg-update:")) for (key,) in keys
                      if key.removeprefix("tg-update:").isdigit()), default=0)
        return max(submitted, logged)

    def record_submission(self, source: Source, text: str, tournament: str | None, accepted: int,
                          rejected: int, detail: str = "", update_id: int | None = None) -> None:
        """Keep every submission, accepted or not, with who, where and when (docs/architecture.md#storage)."""
        with self._transaction() as connection:
            self._submit(connection, source, Submission(text, tournament, update_id, accepted, rejected, detail))

    def _submit(self, connection: sqlite3.Connection, source: Source, submission: Submission) -> None:
        user_id = int(source.actor.removeprefix("tg:")) if source.actor.startswith("tg:") else None
        connection.execute(
            "INSERT INTO submissions (at, user_id, chat_id, message_id, update_id, tournament, text, "
            "accepted, rejected, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (_now(), user_id, source.chat_id, source.message_id, submission.update_id, submission.tournament,
             submission.text, submission.accepted, submission.rejected, submission.detail[:2000]))

    def has_submission(self, update_id: int) -> bool:
        """Whether a Telegram update was already handled (delivered twice, answered once)."""
        with self._reading():
            return self._connection.execute("SELECT 1 FROM submissions WHERE update_id = ? LIMIT 1",
                                            (update_id,)).fetchone() is not None

    def applied(self, dedupe_key: str) -> bool:
        """Whether a request with this ``Source.dedupe_key`` changed the log already."""
        with self._reading() as connection:
            return connection.execute("SELECT 1 FROM events WHERE dedupe_key = ?", (dedupe_key,)).fetchone() is not None

    # -- the bot's answers ------------------------------------------------------------------

    def answer(self, update_id: int) -> str | None:
        """The answer saved for a Telegram update (``save_answer``), if any."""
        with self._reading() as connection:
            row = connection.execute("SELECT replies FROM answers WHERE update_id = ?", (update_id,)).fetchone()
        return row[0] if row else None

    def save_answer(self, update_id: int, chat_id: int | None, replies: str) -> None:
        """Keep the answer to an update, taken to reach its chat unless ``mark_answer`` says
        otherwise (the first one saved stays)."""
        with self._transaction() as connection:
            connection.execute("INSERT OR IGNORE INTO answers (update_id, chat_id, replies, sent, at) "
                               "VALUES (?, ?, ?, 1, ?)", (update_id, chat_id, replies, _now()))

    def mark_answer(self, update_id: int, sent: bool) -> None:
        """Whether the answer to ``update_id`` reached its chat."""
        with self._transaction() as connection:
            connection.execute("UPDATE answers SET sent = ? WHERE update_id = ?", (int(sent), update_id))

    def unsent_answers(self, chat_id: int) -> list[tuple[int, str]]:
        """The saved answers to updates from ``chat_id`` that never reached it, oldest first."""
        with self._reading() as connection:
            return [(row[0], row[1]) for row in connection.execute(
                "SELECT update_id, replies FROM answers WHERE chat_id = ? AND sent = 0 ORDER BY update_id",
                (chat_id,))]

    # -- other chat channels (issue 23) ------------------------------------------------------

    def channel_id(self, channel: str, external: str) -> int:
        """The bot's number for user or chat ``external`` of ``channel`` (e.g. ``zalo``), the
        same at every call: ``-(CHANNEL_ID_BASE + n)``, never a Telegram id."""
        with self._reading() as connection:
            row = connection.execute("SELECT number FROM channel_ids WHERE channel = ? AND external = ?",
                                     (channel, external)).fetchone()
        if row is None:
            with self._transaction() as connection:
                connection.execute("INSERT OR IGNORE INTO channel_ids (channel, external) VALUES (?, ?)",
                                   (channel, external))
                row = connection.execute("SELECT number FROM channel_ids WHERE channel = ? AND external = ?",
                                         (channel, external)).fetchone()
        return -(CHANNEL_ID_BASE + row[0])

    def channel_address(self, number: int) -> tuple[str, str] | None:
        """The channel and its own id behind a number of ``channel_id``; None for a Telegram id."""
        if number > -CHANNEL_ID_BASE:
            return None
        with self._reading() as connection:
            row = connection.execute("SELECT channel, external FROM channel_ids WHERE number = ?",
                                     (-number - CHANNEL_ID_BASE,)).fetchone()
        return (row[0], row[1]) if row else None

    def receive(self, channel: str, message_key: str, body: str) -> int | None:
        """Keep a message received on ``channel`` until it is handled (``finish``); its inbox
        number, or None when that message (``message_key``: the channel's own ids) came before."""
        with self._transaction() as connection:
            cursor = connection.execute("INSERT OR IGNORE INTO inbox (channel, message_key, body, at) "
                                        "VALUES (?, ?, ?, ?)", (channel, message_key, body, _now()))
            return cursor.lastrowid if cursor.rowcount else None

    def waiting(self, channel: str) -> list[tuple[int, str]]:
        """The messages of ``channel`` received and not yet handled, in order of arrival."""
        with self._reading() as connection:
            return [(row[0], row[1]) for row in connection.execute(
                "SELECT id, body FROM inbox WHERE channel = ? AND done = 0 ORDER BY id", (channel,))]

    def finish(self, inbox_id: int) -> None:
        """The message was handled and its answer sent (or kept to go out later)."""
        with self._transaction() as connection:
            connection.execute("UPDATE inbox SET done = 1 WHERE id = ?", (inbox_id,))

    def offer_choices(self, chat_id: int, choices: str) -> None:
        """The choices (JSON) chat ``chat_id`` was last offered, replacing those before."""
        with self._transaction() as connection:
            connection.execute("INSERT INTO offered_choices (chat_id, choices) VALUES (?, ?) "
                               "ON CONFLICT(chat_id) DO UPDATE SET choices = excluded.choices", (chat_id, choices))

    def offered_choices(self, chat_id: int) -> str | None:
        with self._reading() as connection:
            row = connection.execute("SELECT choices FROM offered_choices WHERE chat_id = ?", (chat_id,)).fetchone()
        return row[0] if row else None

    # -- the entry page's links (tiebreak.links) -----------------------------------------------

    _LINK = "SELECT id, tournament, label, created_at, created_by, revoked_at FROM entry_links "

    def add_link(self, slug: str, label: str, secret_sha256: str, actor: str) -> EntryLink:
        """Keep a new link to ``slug``'s entry page; a ``StoreError`` never, an ``InputError``
        when a link in force already has ``label`` (or ``slug`` is not stored)."""
        with self._transaction() as connection:
            self._tournament_id(slug)
            if connection.execute(self._LINK + "WHERE tournament = ? AND label = ? AND revoked_at IS NULL",
                                  (slug, label)).fetchone():
                raise InputError(f"{slug} already has a link labelled {label!r}: revoke it first "
                                 f"(`tiebreak arbiter revoke {slug} {label}`) or give another --label")
            cursor = connection.execute(
                "INSERT INTO entry_links (tournament, label, secret_sha256, created_at, created_by) "
                "VALUES (?, ?, ?, ?, ?)", (slug, label, secret_sha256, _now(), actor))
            return _link(connection.execute(self._LINK + "WHERE id = ?", (cursor.lastrowid,)).fetchone())

    def revoke_link(self, slug: str, label: str) -> EntryLink | None:
        """Revoke the link in force labelled ``label``; None when there is none."""
        with self._transaction() as connection:
            row = connection.execute(self._LINK + "WHERE tournament = ? AND label = ? AND revoked_at IS NULL",
                                     (slug, label)).fetchone()
            if row is None:
                return None
            connection.execute("UPDATE entry_links SET revoked_at = ? WHERE id = ?", (_now(), row[0]))
            return _link(connection.execute(self._LINK + "WHERE id = ?", (row[0],)).fetchone())

    def link_by_secret(self, secret_sha256: str) -> EntryLink | None:
        """The link whose secret has this SHA-256 (revoked or not), or None."""
        with self._reading() as connection:
            row = connection.execute(self._LINK + "WHERE secret_sha256 = ?", (secret_sha256,)).fetchone()
        return _link(row) if row else None

    def links(self, slug: str) -> list[EntryLink]:
        """Every link of ``slug``, revoked ones too, oldest first."""
        with self._reading() as connection:
            return [_link(row) for row in connection.execute(self._LINK + "WHERE tournament = ? ORDER BY id",
                                                             (slug,))]

    def web_key(self, name: str, make: Callable[[], str]) -> str:
        """The key kept under ``name``; the first call keeps ``make()`` (all processes agree)."""
        with self._reading() as connection:
            row = connection.execute("SELECT value FROM web_keys WHERE name = ?", (name,)).fetchone()
        if row is not None:
            return row[0]
        with self._transaction() as connection:
            connection.execute("INSERT OR IGNORE INTO web_keys (name, value) VALUES (?, ?)", (name, make()))
            return connection.execute("SELECT value FROM web_keys WHERE name = ?", (name,)).fetchone()[0]

    def submissions(self) -> list[dict]:
        with self._reading():
            cursor = self._connection.execute("SELECT * FROM submissions ORDER BY id")
            names = [column[0] for column in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def imported(event: Event, slug: str) -> Tournament:
    """The tournament an ``imported`` event holds.  An event logged before the initial ranking
    list existed (no ``seeding`` beside its TOML) keeps the starting numbers as the pairing
    numbers, as its rounds were paired."""
    tournament = parse_tournament_toml(event.data["toml"], source=f"{slug} (stored)")
    if "seeding" not in event.data:
        tournament = replace(tournament, seeding=Seeding.AS_NUMBERED)
    return tournament


def _link(row: tuple) -> EntryLink:
    return EntryLink(*row)


def _identity(row: tuple) -> Identity:
    return Identity(row[0], row[1], row[2], bool(row[3]), row[4], row[5])


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _statements(script: str) -> list[str]:
    """Split a migration into statements (triggers keep their inner ``;``)."""
    statements: list[str] = []
    buffer = ""
    for line in script.strip().splitlines():
        buffer += line + "\n"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return statements
