"""The store's schema: its migrations, applied in order (``PRAGMA user_version`` counts them)."""

from __future__ import annotations

import sqlite3

from tiebreak.store import snapshots

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
    # 6: snapshots of the derived state (tiebreak.store.snapshots): a new process replays from them.
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

#: the tables of a Tiebreak database at schema version 1 (a database without them is foreign)
OWN_TABLES = frozenset({"tournaments", "players", "rounds", "events", "sqlite_sequence"})


def statements(script: str) -> list[str]:
    """Split a migration into statements (triggers keep their inner ``;``)."""
    statements: list[str] = []
    buffer = ""
    for line in script.strip().splitlines():
        buffer += line + "\n"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return statements
