"""Snapshots of a tournament's derived state, kept in the store so that a new process (a site
build, the bot after a restart) does not replay the log from the import event: reading a
1,000-player tournament's TOML takes about a second, loading its snapshot a tenth of that.

A snapshot is the ``TournamentState`` after one event of the log (``event_id``); a reader
replays the events after it on top, so a later event never makes it wrong, only older (the
store writes a new one when the replay gets long).  It is the state pickled, read back by an
unpickler that finds nothing but the core's own classes (``ranking.*`` types): a damaged or
tampered row cannot run code, it is only not used.  ``LAYOUT`` is a digest of the classes'
fields, so a snapshot written by another version of Tiebreak is ignored, never misread.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import logging
import pickle
import sqlite3
import sys

from ranking import Bye, Game, Options, Player, Rules, Scoring, Team, TeamBye, TeamMatch, Tournament, Withdrawal
from ranking.event.log import TournamentState

log = logging.getLogger(__name__)

#: Replayed events after which a reader writes a new snapshot.
REFRESH_AFTER = 200
#: The table (schema migration 6 of ``tiebreak.store``).
TABLE = """
    CREATE TABLE snapshots (
        tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
        event_id INTEGER NOT NULL,
        layout TEXT NOT NULL,
        data BLOB NOT NULL
    );
"""


def _layout() -> str:
    classes = (Tournament, Player, Game, Bye, Withdrawal, Team, TeamMatch, TeamBye, Rules, Scoring, Options)
    # the modules too: a pickle names each class by its module, so a class that moved makes older
    # snapshots unreadable, and they are set aside by their layout rather than failing to load
    parts = [(cls.__module__, cls.__qualname__, [field.name for field in dataclasses.fields(cls)])
             for cls in classes]
    parts.append((TournamentState.__module__, "TournamentState", sorted(vars(TournamentState(Tournament("", (), 0))))))
    return hashlib.sha256(repr((1, parts)).encode()).hexdigest()[:16]


LAYOUT = _layout()


class _CoreOnly(pickle.Unpickler):
    """An unpickler that makes nothing but the core's own classes."""

    def find_class(self, module: str, name: str) -> type:
        if module.startswith("ranking.") and module in sys.modules:
            found = getattr(sys.modules[module], name, None)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")


def encode(state: TournamentState) -> bytes:
    fields = dict(vars(state))
    fields["_snapshot"] = fields["_clock"] = None  # caches the state makes again
    return pickle.dumps(fields, protocol=5)


def decode(data: bytes) -> TournamentState:
    fields = _CoreOnly(io.BytesIO(data)).load()
    if not isinstance(fields, dict) or not isinstance(fields.get("base"), Tournament):
        raise pickle.UnpicklingError("not a tournament's state")
    state = TournamentState.__new__(TournamentState)
    state.__dict__.update(fields)
    return state


def load(connection: sqlite3.Connection, tournament_id: int) -> tuple[int, TournamentState] | None:
    """The tournament's snapshot (the event it was taken after, the state), or None when there
    is none this version can read."""
    try:
        row = connection.execute("SELECT event_id, layout, data FROM snapshots WHERE tournament_id = ?",
                                 (tournament_id,)).fetchone()
    except sqlite3.Error:  # a store without the table (opened read-only before its migration)
        return None
    if row is None or row[1] != LAYOUT:
        return None
    try:
        return row[0], decode(row[2])
    except Exception as error:  # damaged or foreign: replay the log instead
        log.warning("tournament %s: its snapshot cannot be read (%s); replaying the log", tournament_id, error)
        return None


def save(connection: sqlite3.Connection, tournament_id: int, event_id: int, state: TournamentState) -> bool:
    """Keep ``state`` (as after ``event_id``) as the tournament's snapshot: in the transaction
    under way, or in one of its own if the write lock is free at once (a reader never waits
    for it); False when it was not written (locked, read-only).  In the transaction under way
    an error is the transaction's (a full disk: SQLite has rolled it all back), and is raised."""
    row = (tournament_id, event_id, LAYOUT, encode(state))
    statement = ("INSERT INTO snapshots (tournament_id, event_id, layout, data) VALUES (?, ?, ?, ?) "
                 "ON CONFLICT(tournament_id) DO UPDATE SET event_id = excluded.event_id, layout = excluded.layout, "
                 "data = excluded.data WHERE excluded.event_id >= snapshots.event_id")
    if connection.in_transaction:
        connection.execute(statement, row)
        return True
    try:
        timeout = connection.execute("PRAGMA busy_timeout").fetchone()[0]
        connection.execute("PRAGMA busy_timeout = 0")
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                connection.execute(statement, row)
            except BaseException:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
        finally:
            connection.execute(f"PRAGMA busy_timeout = {int(timeout)}")
        return True
    except sqlite3.Error as error:
        log.debug("tournament %s: snapshot not written (%s)", tournament_id, error)
        return False
