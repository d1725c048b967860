"""The channels' memory: users and their selected tournaments, submissions and update offsets,
answers still to deliver, other channels' ids and inbox, the choices offered, the entry page's
links and keys."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from ranking.errors import InputError
from tiebreak.store.database import Database, timestamp
from tiebreak.store.protocol import EntryLink, Identity, Source, Submission, UserPrefs

#: the numbers ``Store.channel_id`` gives the users and chats of channels other than Telegram
#: are ``-(CHANNEL_ID_BASE + n)``: Telegram's user and chat ids stay within 52 bits of magnitude,
#: so the two never meet, and every table keyed by a Telegram id serves every channel
CHANNEL_ID_BASE = 2 ** 53


class ChannelTables(Database):
    """``ChannelMemory`` on the database."""

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
        """Record ``submission``, once per chat update: an update delivered again after a kill (its
        refusal recorded, its answer not yet saved) is refused again but not recorded twice."""
        if submission.update_id is not None and _submitted(connection, submission.update_id):
            return
        user_id = _chat_user(source.actor)
        connection.execute(
            "INSERT INTO submissions (at, user_id, chat_id, message_id, update_id, tournament, text, "
            "accepted, rejected, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (timestamp(), user_id, source.chat_id, source.message_id, submission.update_id, submission.tournament,
             submission.text, submission.accepted, submission.rejected, submission.detail[:2000]))

    def has_submission(self, update_id: int) -> bool:
        """Whether a Telegram update was already handled (delivered twice, answered once)."""
        with self._reading():
            return _submitted(self._connection, update_id)

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
                               "VALUES (?, ?, ?, 1, ?)", (update_id, chat_id, replies, timestamp()))

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
                                        "VALUES (?, ?, ?, ?)", (channel, message_key, body, timestamp()))
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
                "VALUES (?, ?, ?, ?, ?)", (slug, label, secret_sha256, timestamp(), actor))
            return _link(connection.execute(self._LINK + "WHERE id = ?", (cursor.lastrowid,)).fetchone())

    def revoke_link(self, slug: str, label: str) -> EntryLink | None:
        """Revoke the link in force labelled ``label``; None when there is none."""
        with self._transaction() as connection:
            row = connection.execute(self._LINK + "WHERE tournament = ? AND label = ? AND revoked_at IS NULL",
                                     (slug, label)).fetchone()
            if row is None:
                return None
            connection.execute("UPDATE entry_links SET revoked_at = ? WHERE id = ?", (timestamp(), row[0]))
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


def _link(row: tuple) -> EntryLink:
    return EntryLink(*row)


def _identity(row: tuple) -> Identity:
    return Identity(row[0], row[1], row[2], bool(row[3]), row[4], row[5])


def _chat_user(actor: str) -> int | str | None:
    """The chat user of ``actor`` in the channel's own ids, as a submission's chat and message
    are kept: a Telegram id (``tg:<id>``), a Zalo user id (``zalo:<id>``); None for the command
    line and the entry page, whose actors (in the log) name no chat user."""
    channel, _, external = actor.partition(":")
    if channel == "tg":
        return int(external) if external.lstrip("-").isdigit() else None
    return None if channel in ("cli", "web") else external


def _submitted(connection: sqlite3.Connection, update_id: int) -> bool:
    """Whether a submission of this chat update is recorded."""
    return connection.execute("SELECT 1 FROM submissions WHERE update_id = ? LIMIT 1",
                              (update_id,)).fetchone() is not None
