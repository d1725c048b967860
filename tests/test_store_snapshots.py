"""Snapshots of the derived state in the store (tiebreak/store/snapshots.py): a new process does not
parse the import event again, a later event is replayed on top, a snapshot of another layout
or a tampered one is never used, and what a process sees is the log's state every time."""

from __future__ import annotations

import dataclasses
import pickle
import sqlite3
from pathlib import Path

import pytest

from ranking import Result
from ranking.event.log import result_event
from ranking.event.model import Tournament
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore, snapshots

EXAMPLE = Path(__file__).resolve().parents[1] / "ranking" / "examples" / "chess-swiss.trf"


def open_games(tournament):
    """The tournament with every result of round 7 taken back (entered again by the tests)."""
    games = tuple(dataclasses.replace(game, result=None) if game.round == 7 else game for game in tournament.games)
    return dataclasses.replace(tournament, games=games)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    path = tmp_path / "store.sqlite3"
    with SQLiteStore(path) as store:
        store.create("open", open_games(load_tournament(EXAMPLE)), Source("test"))
    return path


def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("the import event was parsed again")
    monkeypatch.setattr("tiebreak.store.log.parse_tournament_toml", refuse)


def enter(store: SQLiteStore, round_number: int, board: int, result: Result) -> None:
    store.append("open", lambda state: [result_event(state, round_number, board, result)], Source("test"))


def replayed(path: Path) -> object:
    """The tournament as the whole log gives it, without any snapshot."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("DELETE FROM snapshots")
        connection.commit()
    finally:
        connection.close()
    with SQLiteStore(path) as store:
        return store.tournament("open")


def test_a_new_process_starts_from_the_snapshot_of_the_import(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = open_games(load_tournament(EXAMPLE))
    no_parsing(monkeypatch)
    with SQLiteStore(path) as store:
        assert store.tournament("open") == expected


def test_later_events_are_replayed_on_top_of_the_snapshot(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with SQLiteStore(path) as store:
        enter(store, 7, 1, Result.WHITE_WINS)
        enter(store, 7, 2, Result.DRAW)
    with SQLiteStore(path) as fresh:
        tournament = fresh.tournament("open")
    games = {(game.round, game.board): game.result for game in tournament.games}
    assert games[7, 1] is Result.WHITE_WINS and games[7, 2] is Result.DRAW and games[7, 3] is None
    with monkeypatch.context() as patched:
        no_parsing(patched)
        with SQLiteStore(path) as fresh:
            assert fresh.tournament("open") == tournament
    assert replayed(path) == tournament


def test_a_long_replay_writes_a_new_snapshot(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "REFRESH_AFTER", 3)
    with SQLiteStore(path) as store:
        first = store._connection.execute("SELECT event_id FROM snapshots").fetchone()[0]
        for board in range(1, 6):
            enter(store, 7, board, Result.DRAW)
    with SQLiteStore(path) as fresh:
        tournament = fresh.tournament("open")
        latest = fresh._connection.execute("SELECT max(id) FROM events").fetchone()[0]
        assert fresh._connection.execute("SELECT event_id FROM snapshots").fetchone()[0] == latest > first
    assert replayed(path) == tournament


def test_a_snapshot_of_another_layout_is_ignored(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("UPDATE snapshots SET layout = 'older', data = x'00'")
    connection.commit()
    connection.close()
    with SQLiteStore(path) as store:
        assert store.tournament("open") == open_games(load_tournament(EXAMPLE))



def test_a_class_that_moves_to_another_module_changes_the_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pickles name classes by module: snapshots taken before a class moved are set aside by
    their layout, not left to fail to load (and be warned about) at every start."""
    monkeypatch.setattr(Tournament, "__module__", "ranking.model")  # where it was before issue 26
    assert snapshots._layout() != snapshots.LAYOUT


class Evil:
    def __reduce__(self):
        return (print, ("this must never run",))


@pytest.mark.parametrize("data", [pickle.dumps({"base": Evil()}), pickle.dumps([1, 2]), b"not a pickle"])
def test_a_tampered_snapshot_cannot_run_code_and_is_not_used(path: Path, data: bytes,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    connection = sqlite3.connect(path)
    connection.execute("UPDATE snapshots SET data = ?", (data,))
    connection.commit()
    connection.close()
    with SQLiteStore(path) as store:
        assert store.tournament("open") == open_games(load_tournament(EXAMPLE))
    assert "must never run" not in capsys.readouterr().out
    with pytest.raises(pickle.UnpicklingError):
        snapshots.decode(pickle.dumps({"base": Evil()}))


def test_a_snapshot_is_not_written_while_another_process_holds_the_write_lock(path: Path) -> None:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("DELETE FROM snapshots")
    with SQLiteStore(path, timeout=0.1) as store:
        connection.execute("BEGIN IMMEDIATE")
        try:
            assert store.tournament("open") == open_games(load_tournament(EXAMPLE))  # no waiting, no error
        finally:
            connection.execute("ROLLBACK")
            connection.close()
    with SQLiteStore(path) as store:  # and the next reader writes it
        store.tournament("open")
        assert store._connection.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 1
