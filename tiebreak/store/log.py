"""The event log: each tournament's append-only log, the state its replay gives (kept warm by
snapshots), and the tables projected from it."""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import replace

from ranking.errors import InputError
from ranking.event.log import Event, EventKind, LoggedEvent, TournamentState, lots_event
from ranking.event.model import Seeding, Tournament
from ranking.event.refusals import Code, Refusal
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.tomlfile import parse_tournament_toml
from ranking.tiebreaks.lots import SEED_DIGITS
from tiebreak.store import snapshots
from tiebreak.store.database import Database, timestamp
from tiebreak.store.protocol import Decide, Source, Submission


class EventLogTables(Database):
    """``EventLog`` on the database: the tournaments, their events and the tables projected from them."""

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
            if state is None:  # a new process: from the snapshot, if there is one (tiebreak.store.snapshots)
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
            now = timestamp()
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
                now = timestamp()
                logged = []
                for number, event in enumerate(events):
                    key = source.dedupe_key if number == 0 else None
                    inserted = True
                    event_id = self._insert(connection, tournament_id, event, source, now, key)
                    logged.append(LoggedEvent(event_id, event, source.actor, now, source.chat_id,
                                              source.message_id))
                if events:
                    after = self.state(slug)
                    drawn = lots_event(after, secrets.token_hex(SEED_DIGITS // 2))
                    if drawn is not None:  # the last result is in: the lots are drawn now, and logged
                        event_id = self._insert(connection, tournament_id, drawn, source, now)
                        events.append(drawn)
                        logged.append(LoggedEvent(event_id, drawn, source.actor, now, source.chat_id,
                                                  source.message_id))
                        after = self.state(slug)
                    self._project(connection, tournament_id, after, events)
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


def imported(event: Event, slug: str) -> Tournament:
    """The tournament an ``imported`` event holds.  An event logged before the initial ranking
    list existed (no ``seeding`` beside its TOML) keeps the starting numbers as the pairing
    numbers, as its rounds were paired."""
    tournament = parse_tournament_toml(event.data["toml"], source=f"{slug} (stored)")
    if "seeding" not in event.data:
        tournament = replace(tournament, seeding=Seeding.AS_NUMBERED)
    return tournament
