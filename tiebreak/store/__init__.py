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

The parts: ``database`` (the connection, transactions, ``StoreError``), ``migrations`` (the
schema), ``log`` (the event log), ``snapshots`` (state by last event id), ``channels`` (the
channels' memory), ``protocol`` (``Store`` and its values), ``sqlite`` (``SQLiteStore``).
"""

from tiebreak.store.channels import CHANNEL_ID_BASE
from tiebreak.store.database import StoreError
from tiebreak.store.migrations import MIGRATIONS
from tiebreak.store.protocol import (
    ChannelMemory,
    Decide,
    EntryLink,
    EventLog,
    Identity,
    Source,
    Store,
    Submission,
    UserPrefs,
)
from tiebreak.store.sqlite import SQLiteStore

__all__ = [
    "CHANNEL_ID_BASE",
    "MIGRATIONS",
    "ChannelMemory",
    "Decide",
    "EntryLink",
    "EventLog",
    "Identity",
    "SQLiteStore",
    "Source",
    "Store",
    "StoreError",
    "Submission",
    "UserPrefs",
]
