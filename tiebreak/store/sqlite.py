"""``SQLiteStore``: the ``Store`` protocol on one SQLite database."""

from __future__ import annotations

from tiebreak.store.channels import ChannelTables
from tiebreak.store.log import EventLogTables


class SQLiteStore(EventLogTables, ChannelTables):
    """The SQLite store; ``path`` is ``[storage].path`` of config.toml.

    ``create``: a missing database (and its folder) is created, as ``tiebreak import`` and the
    bot need; otherwise a missing one is a ``StoreError`` saying no store exists there, and
    nothing is created.  ``readonly``: opened for reading only, so the commands that only read
    work on a database in a read-only folder too.
    """
