"""The store's part in running an event: archived tournaments, who a Telegram user is in each
tournament (migration 4), the console's update numbers, and the events of issue 11."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from ranking.errors import InputError
from ranking.event.log import Event, EventKind, bye_event, player_added_event, setting_event
from ranking.event.model import ByeKind
from ranking.event.settings import parse_setting
from tiebreak.files import load_tournament
from tiebreak.store import MIGRATIONS, Identity, Source, SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "ranking" / "examples"
CLI = Source("cli:test")


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    with SQLiteStore(tmp_path / "t.sqlite3") as opened:
        yield opened


def test_archived_tournaments_leave_the_default_listing_and_come_back(store: SQLiteStore) -> None:
    store.create("a", load_tournament(EXAMPLES / "xiangqi-rr.toml"), CLI)
    store.create("b", load_tournament(EXAMPLES / "chess-swiss.trf"), CLI)
    store.append("a", lambda state: [Event(EventKind.ARCHIVED)], CLI)
    assert store.slugs() == ["b"] and store.slugs(archived=True) == ["a", "b"]
    assert store.is_archived("a") and store.state("a").archived
    assert store.tournament("a").name  # still there, log and all
    store.append("a", lambda state: [Event(EventKind.RESTORED)], CLI)
    assert store.slugs() == ["a", "b"] and not store.is_archived("a")


def test_identities_are_per_user_and_tournament(store: SQLiteStore) -> None:
    store.save_identity(Identity(7, "a", 4, subscribed=True))
    store.save_identity(Identity(7, "b", 9))
    assert store.identity(7, "a").player_id == 4 and store.identity(7, "b").player_id == 9
    assert store.identity(7, "c") == Identity(7, "c")
    assert [(i.user_id, i.player_id) for i in store.subscribers("a")] == [(7, 4)]
    assert store.subscribers("b") == []


def test_migration_4_keeps_an_identity_for_the_tournament_then_selected(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    connection = sqlite3.connect(path)
    for script in MIGRATIONS[:3]:
        connection.executescript(script)
    connection.execute("PRAGMA user_version = 3")
    connection.execute("INSERT INTO bot_users (user_id, chat_id, language, tournament, player_id, subscribed) "
                       "VALUES (7, 7, 'vi', 'a', 4, 1)")
    connection.commit()
    connection.close()
    with SQLiteStore(path) as store:
        assert store.schema_version == len(MIGRATIONS)
        assert store.identity(7, "a") == Identity(7, "a", 4, True, 7, "vi")
        assert store.user(7).language == "vi"


def test_the_last_update_id_counts_submissions_and_the_log(store: SQLiteStore) -> None:
    assert store.last_update_id() == 0
    store.create("a", load_tournament(EXAMPLES / "xiangqi-rr.toml"), CLI)
    store.record_submission(Source("tg:1"), "R1 B1 1-0", "a", 1, 0, update_id=41)
    store.append("a", lambda state: [Event(EventKind.ARBITER_ADDED, {"user_id": 5})],
                 Source("tg:1", dedupe_key="tg-update:57"))
    assert store.last_update_id() == 57


def test_late_entries_settings_and_byes_are_events_a_second_store_replays(store: SQLiteStore) -> None:
    swiss = load_tournament(EXAMPLES / "chess-swiss.trf")
    store.create("s", replace(swiss, rounds=9), CLI)
    store.append("s", lambda state: [player_added_event(state, "Late, Lee", 1800, "vie", "Hà Nội")], CLI)
    store.append("s", lambda state: [setting_event(state, *parse_setting("tiebreaks=BH,SB"))], CLI)
    store.append("s", lambda state: [bye_event(state, 8, 3, ByeKind.HALF)], CLI)
    late = store.tournament("s").players[-1]
    assert (late.id, late.name, late.rating, late.federation, late.club) == (
        len(swiss.players) + 1, "Late, Lee", 1800, "VIE", "Hà Nội")
    with SQLiteStore(store.path) as other:
        assert other.tournament("s") == store.tournament("s")
        assert other.tournament("s").rules.tiebreaks == ("BH", "SB")
    with pytest.raises(InputError, match="already has this bye"):
        store.append("s", lambda state: [bye_event(state, 8, 3, ByeKind.HALF)], CLI)
    with pytest.raises(InputError, match="round 8 already has games"):
        store.append("s", lambda state: [setting_event(state, *parse_setting("rounds=6"))], CLI)


def test_a_round_robin_refuses_late_entries_once_paired_and_requested_byes(store: SQLiteStore) -> None:
    store.create("rr", load_tournament(EXAMPLES / "xiangqi-rr.toml"), CLI)
    with pytest.raises(InputError, match="takes no late entries once round 1 is paired"):
        store.append("rr", lambda state: [player_added_event(state, "Late")], CLI)
    with pytest.raises(InputError, match="a round robin has no requested byes"):
        store.append("rr", lambda state: [bye_event(state, 2, 3, ByeKind.HALF)], CLI)


def test_the_site_leaves_archived_tournaments_out(tmp_path: Path) -> None:
    from site_builder.site import build_from_config

    config = tmp_path / "config.toml"
    config.write_text('[storage]\npath = "s.sqlite3"\n[site]\nlanguages = ["en"]\n', encoding="utf-8")
    with SQLiteStore(tmp_path / "s.sqlite3") as store:
        store.create("shown", load_tournament(EXAMPLES / "xiangqi-rr.toml"), CLI)
        store.create("hidden", load_tournament(EXAMPLES / "chess-swiss.trf"), CLI)
        store.append("hidden", lambda state: [Event(EventKind.ARCHIVED)], CLI)
    report = build_from_config(str(config), tmp_path / "public")
    out = report.output
    assert (out / "shown" / "index.html").exists() and not (out / "hidden").exists()
    assert "hidden" not in (out / "index.html").read_text(encoding="utf-8")


def test_a_submission_keeps_its_chat_user_on_every_channel(store: SQLiteStore) -> None:
    """``user_id`` is the chat user in the channel's own ids: a Telegram id, a Zalo id; none for
    the command line and the entry page (their actor is in the log)."""
    for actor in ("tg:17", "zalo:abc", "web:3", "cli:ana"):
        store.record_submission(Source(actor), "R1 B1 1-0", None, 0, 1)
    assert [row["user_id"] for row in store.submissions()] == [17, "abc", None, None]
