"""The store under crashes and concurrent writers (tiebreak/store/).

- SIGKILL at random moments of a process entering results (single results and
  multi-event batches, and imports) never leaves a torn batch, a corrupt database, a
  projection out of step with the log, or a lost commit that was acknowledged;
- several processes entering results at once lose nothing and duplicate nothing; two
  entering the same board record it once (same result: the second is a no-op; different
  results: the second is refused, exit status 2 through ``tiebreak result``);
- a repeated ``Source.dedupe_key`` appends once;
- the event log refuses UPDATE and DELETE.

The writer processes run tests/data/store/writer.py.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from generators import generate_swiss

from ranking.errors import InputError
from ranking.event.log import EventKind, result_event
from ranking.event.model import Result, Tournament
from tiebreak.store import Source, SQLiteStore

WRITER = Path(__file__).parent / "data" / "store" / "writer.py"
PLAYERS, ROUNDS = 60, 5
KILLS = 25
PAUSE = 0.003  # seconds, at most, between two results of one writer (tests/data/store/writer.py)
RESULT_KINDS = (EventKind.RESULT, EventKind.FORFEIT)


@cache
def schedule() -> tuple[Tournament, dict[tuple[int, int], str]]:
    """A generated Swiss with every round paired and no result yet, and the result of each board."""
    full = generate_swiss(PLAYERS, ROUNDS)
    stripped = replace(full, games=tuple(replace(game, result=None) for game in full.games))
    return stripped, {(game.round, game.board): game.result.value for game in full.games}


def import_schedule(db: Path, slug: str) -> dict[tuple[int, int], str]:
    tournament, truth = schedule()
    with SQLiteStore(db) as store:
        store.create(slug, tournament, Source("cli:test"))
    return truth


def other_result(result: str) -> str:
    return Result.BLACK_WINS.value if result == Result.WHITE_WINS.value else Result.WHITE_WINS.value


def results_by_board(store: SQLiteStore, slug: str) -> dict[tuple[int, int], list]:
    """The result-kind events (result, forfeit, correction) of the log, per board, in log order."""
    boards: dict[tuple[int, int], list] = {}
    for logged in store.log(slug):
        if logged.event.kind in (*RESULT_KINDS, EventKind.CORRECTION):
            boards.setdefault((logged.event.data["round"], logged.event.data["board"]), []).append(logged)
    return boards


def check_projection(connection: sqlite3.Connection, store: SQLiteStore, slug: str) -> None:
    """The rounds table agrees with the state replayed from the log."""
    state = store.state(slug)
    expected: dict[int, list[int]] = {}
    for (number, _), game in state.games.items():
        counts = expected.setdefault(number, [0, 0])
        counts[0] += 1
        counts[1] += game.result is not None
    rows = connection.execute(
        "SELECT number, boards, finished FROM rounds JOIN tournaments ON tournaments.id = rounds.tournament_id "
        "WHERE slug = ? ORDER BY number", (slug,)).fetchall()
    assert rows == [(number, *counts) for number, counts in sorted(expected.items())], slug


# -- crash safety -----------------------------------------------------------------------------


class Lines:
    """The complete lines a child process prints, read with a deadline (no blocking for ever)."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process = process
        self.buffer = b""
        self.lines: list[str] = []

    def _read(self, timeout: float) -> bool:
        fd = self.process.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], max(0.0, timeout))
        if not ready:
            return True
        chunk = os.read(fd, 65536)
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        self.lines += [line.decode() for line in complete]
        return bool(chunk)

    def wait_for(self, prefix: str, count: int, deadline: float) -> None:
        while sum(line.startswith(prefix) for line in self.lines) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"the writer printed {self.lines[-5:]} in time, expected {count} {prefix!r}")
            if not self._read(deadline - time.monotonic()):
                raise AssertionError(f"the writer ended: {self.process.stderr.read().decode()}")

    def drain(self) -> list[str]:
        """Everything up to end of file (the process is dead); a torn last line is dropped."""
        while self._read(5.0):
            pass
        return self.lines


def check_crashed_database(db: Path, truth: dict, acknowledged: list[tuple[str, int, int]]) -> None:
    """What must hold of the database after any SIGKILL of the writer."""
    with SQLiteStore(db) as store, closing(sqlite3.connect(db)) as raw:  # the first to open it recovers the WAL
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        rows = raw.execute("SELECT id, tournament_id, kind, data, actor, dedupe_key FROM events ORDER BY id").fetchall()
        # AUTOINCREMENT: the counter is never behind the largest id, so no id is ever handed out twice.
        (sequence,) = raw.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'").fetchone()
        assert sequence >= rows[-1][0]

        # Every tournament is wholly imported: its row, its 60 players, its import event first in its log.
        tournaments = dict(raw.execute("SELECT id, slug FROM tournaments").fetchall())
        imports = [row for row in rows if row[2] == EventKind.IMPORTED]
        assert sorted(row[1] for row in imports) == sorted(tournaments)
        for tournament_id in tournaments:
            first = next(row for row in rows if row[1] == tournament_id)
            assert first[2] == EventKind.IMPORTED
            (players,) = raw.execute("SELECT count(*) FROM players WHERE tournament_id = ?",
                                     (tournament_id,)).fetchone()
            assert players == PLAYERS

        # Every batch is whole: all its parts, in order, next to each other in the log (one
        # transaction), consecutive boards of one round, the dedupe key on its first event only.
        batches: dict[str, list[tuple[int, tuple, dict]]] = {}
        for position, row in enumerate(rows):
            if row[2] != EventKind.IMPORTED:
                batches.setdefault(json.loads(row[3])["batch"], []).append((position, row, json.loads(row[3])))
        for tag, members in batches.items():
            size = members[0][2]["size"]
            assert [data["part"] for _, _, data in members] == list(range(size)), f"torn batch {tag}: {members}"
            assert all(data["size"] == size for _, _, data in members)
            assert [position for position, _, _ in members] == list(range(members[0][0], members[0][0] + size))
            assert len({row[1] for _, row, _ in members}) == 1
            assert len({data["round"] for _, _, data in members}) == 1
            boards = [data["board"] for _, _, data in members]
            assert boards == list(range(boards[0], boards[0] + size))
            assert [row[5] for _, row, _ in members] == [tag] + [None] * (size - 1)
            for _, row, data in members:
                assert EventKind(row[2]) in RESULT_KINDS
                assert data["result"] == truth[(data["round"], data["board"])]

        # Every commit the writer reported is there, whole, and in the order it was reported.
        for tag, first_id, count in acknowledged:
            assert tag in batches, f"acknowledged batch {tag} lost"
            assert (batches[tag][0][1][0], len(batches[tag])) == (first_id, count)
        first_ids = [first_id for _, first_id, _ in acknowledged]
        assert first_ids == sorted(set(first_ids))

        # The state replayed by a fresh store agrees with the log and with the projections.
        for slug in store.slugs():
            state = store.state(slug)
            events = results_by_board(store, slug)
            assert all(len(found) == 1 for found in events.values()), "a board got two results"
            assert sum(game.result is not None for game in state.games.values()) == len(events)
            for key, game in state.games.items():
                assert (game.result.value if game.result else None) == (truth[key] if key in events else None)
            check_projection(raw, store, slug)


def test_sigkill_while_entering_results_keeps_every_batch_whole(tmp_path):
    seed = int(os.environ.get("TIEBREAK_CRASH_SEED") or random.randrange(1 << 30))  # to replay a failure
    rng = random.Random(seed)
    db = tmp_path / "crash.sqlite3"
    truth = import_schedule(db, "crash-0")
    truth_file = tmp_path / "truth.json"
    truth_file.write_text(json.dumps([[r, b, result] for (r, b), result in truth.items()]), encoding="utf-8")
    acknowledged: list[tuple[str, int, int]] = []
    for kill in range(KILLS):
        process = subprocess.Popen([sys.executable, str(WRITER), "crash", str(db), str(truth_file), f"{seed}-{kill}"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        lines = Lines(process)
        try:
            lines.wait_for("committed ", rng.randint(2, 6), time.monotonic() + 20)
            time.sleep(rng.uniform(0, 0.02))
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
            process.stderr.close()
        assert process.returncode == -signal.SIGKILL
        for line in lines.drain():
            word, *rest = line.split()
            if word == "committed":
                acknowledged.append((rest[0], int(rest[1]), int(rest[2])))
        try:
            check_crashed_database(db, truth, acknowledged)
        except AssertionError as error:
            raise AssertionError(f"TIEBREAK_CRASH_SEED={seed}, after kill {kill + 1}: {error}") from error
        process.stdout.close()
    assert len(acknowledged) >= 2 * KILLS, f"seed {seed}"


# -- concurrent writers -----------------------------------------------------------------------


def run_writers(tmp_path: Path, db: Path, slug: str, plans: dict[str, list]) -> dict[str, list[list[str]]]:
    """Start one writer per plan, let them all go at once, return what each printed (split)."""
    processes = {}
    for actor, plan in plans.items():
        plan_file = tmp_path / f"plan-{actor.replace(':', '-')}.json"
        plan_file.write_text(json.dumps(plan), encoding="utf-8")
        processes[actor] = subprocess.Popen(
            [sys.executable, str(WRITER), "enter", str(db), slug, str(plan_file), actor, str(PAUSE)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for process in processes.values():
        assert process.stdout.readline() == "ready\n", process.stderr.read()
    for process in processes.values():
        process.stdin.write("go\n")
        process.stdin.flush()
    printed = {}
    for actor, process in processes.items():
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        printed[actor] = [line.split(maxsplit=3) for line in out.splitlines()]
    return printed


def outcomes(printed: dict[str, list[list[str]]]) -> dict[tuple[int, int], dict[str, str]]:
    """Per board, what each writer got: ok, noop or refused."""
    found: dict[tuple[int, int], dict[str, str]] = {}
    for actor, lines in printed.items():
        for word, round_number, board, *_ in lines:
            found.setdefault((int(round_number), int(board)), {})[actor] = word
    return found


def test_concurrent_writers_on_disjoint_boards_lose_nothing(tmp_path):
    db = tmp_path / "store.sqlite3"
    truth = import_schedule(db, "open")
    actors = ["cli:writer-0", "cli:writer-1", "cli:writer-2"]
    owner = {key: actors[number % len(actors)] for number, key in enumerate(sorted(truth))}
    plans = {actor: [[r, b, truth[(r, b)], None, False] for (r, b), who in sorted(owner.items()) if who == actor]
             for actor in actors}
    printed = run_writers(tmp_path, db, "open", plans)

    assert all(word == "ok" for lines in printed.values() for word, *_ in lines)
    with SQLiteStore(db) as store:
        log = store.log("open")
        assert len(log) == 1 + len(truth)
        assert log[0].event.kind is EventKind.IMPORTED
        boards = results_by_board(store, "open")
        assert set(boards) == set(truth)
        for key, found in boards.items():
            assert len(found) == 1
            assert found[0].event.kind is (EventKind.FORFEIT if Result(truth[key]).is_forfeit else EventKind.RESULT)
            assert found[0].event.data["result"] == truth[key]
            assert found[0].actor == owner[key]
        ok_ids = {int(line[3]) for lines in printed.values() for line in lines}
        assert ok_ids == {logged.id for logged in log[1:]}
        switches = sum(a.actor != b.actor for a, b in itertools.pairwise(log[1:]))
        assert switches > len(actors) - 1, "the writers did not run at the same time: the test proves nothing"
        state = store.state("open")
        assert {key: game.result.value for key, game in state.games.items()} == truth
        with closing(sqlite3.connect(db)) as raw:
            check_projection(raw, store, "open")


@pytest.mark.parametrize("second", ["same", "different", "different --correct"])
def test_two_writers_on_the_same_boards(tmp_path, second):
    db = tmp_path / "store.sqlite3"
    truth = import_schedule(db, "open")
    correct = second.endswith("--correct")
    first_plan = [[r, b, result, None, correct] for (r, b), result in sorted(truth.items())]
    second_plan = [[r, b, result if second == "same" else other_result(result), None, correct]
                   for r, b, result, _, _ in first_plan]
    plans = {"cli:a": first_plan, "cli:b": second_plan}
    printed = run_writers(tmp_path, db, "open", plans)
    wanted = {(r, b): {"cli:a": result, "cli:b": other} for (r, b, result, *_), (*_, other, _, _)
              in zip(first_plan, second_plan, strict=True)}

    with SQLiteStore(db) as store:
        boards = results_by_board(store, "open")
        state = store.state("open")
        assert set(boards) == set(truth)
        assert len(store.log("open")) == 1 + sum(len(found) for found in boards.values())
        for key, got in outcomes(printed).items():
            found = boards[key]
            if second == "different --correct":
                assert got == {"cli:a": "ok", "cli:b": "ok"}
                assert [logged.event.kind for logged in found][1] is EventKind.CORRECTION
                assert found[1].event.data["previous"] == found[0].event.data["result"]
                assert {found[0].actor, found[1].actor} == {"cli:a", "cli:b"}
            else:
                assert sorted(got.values()) == sorted(["noop" if second == "same" else "refused", "ok"]), key
                (winner,) = [actor for actor, word in got.items() if word == "ok"]
                assert len(found) == 1
                assert found[0].actor == winner
                assert found[0].event.data["result"] == wanted[key][winner]
            assert state.games[key].result.value == found[-1].event.data["result"]
        refused = [line for lines in printed.values() for line in lines if line[0] == "refused"]
        assert all("already has" in line[3] for line in refused)


def test_concurrent_repeats_of_one_update_apply_once(tmp_path):
    """Two processes deliver the same updates (same dedupe keys), one with other results:
    each key appends once, and the repeat is skipped before it is even checked."""
    db = tmp_path / "store.sqlite3"
    truth = import_schedule(db, "open")
    plans = {
        "tg:1": [[r, b, result, f"update-{r}-{b}", False] for (r, b), result in sorted(truth.items())],
        "tg:2": [[r, b, other_result(result), f"update-{r}-{b}", False] for (r, b), result in sorted(truth.items())],
    }
    printed = run_writers(tmp_path, db, "open", plans)
    with SQLiteStore(db) as store:
        boards = results_by_board(store, "open")
        assert len(store.log("open")) == 1 + len(truth)
        for key, got in outcomes(printed).items():
            assert sorted(got.values()) == ["noop", "ok"], key
            assert [logged.actor for logged in boards[key]] == [a for a, word in got.items() if word == "ok"]
    with closing(sqlite3.connect(db)) as raw:
        keys = [key for (key,) in raw.execute("SELECT dedupe_key FROM events WHERE kind != 'imported'")]
    assert sorted(keys) == sorted(f"update-{r}-{b}" for r, b in truth)


def test_tiebreak_result_on_the_same_board_at_once(tmp_path):
    """Through the command line: same result twice -> one event, both exit 0; different
    results without --correct -> one event, the other process exits with status 2."""
    db = tmp_path / "store.sqlite3"
    truth = import_schedule(db, "open")
    config = tmp_path / "config.toml"
    config.write_text(f"[storage]\npath = {json.dumps(str(db))}\n", encoding="utf-8")
    script = Path(sys.executable).with_name("tiebreak")  # the installed command, else the same via -m
    tiebreak = [str(script)] if script.is_file() else [sys.executable, "-m", "ranking"]
    boards = sorted(truth)[:8]
    runs = []
    for number, (r, b) in enumerate(boards):
        results = [truth[(r, b)]] * 2 if number % 2 == 0 else [truth[(r, b)], other_result(truth[(r, b)])]
        for result in results:
            runs.append(((r, b), result, subprocess.Popen(
                [*tiebreak, "result", "--config", str(config), "open", str(r), str(b), result],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)))
    finished = {}
    for key, result, process in runs:
        out, err = process.communicate(timeout=60)
        finished.setdefault(key, []).append((process.returncode, out.strip(), err.strip(), result))

    with SQLiteStore(db) as store:
        events = results_by_board(store, "open")
        assert len(store.log("open")) == 1 + len(boards)
        state = store.state("open")
    for number, key in enumerate(boards):
        (logged,) = events[key]
        statuses = sorted(code for code, *_ in finished[key])
        if number % 2 == 0:
            assert statuses == [0, 0], finished[key]
            assert sorted(out.rsplit(": ", 1)[1] for _, out, _, _ in finished[key]) == [
                "already recorded, nothing changed", "recorded"]
            assert logged.event.data["result"] == truth[key]
        else:
            assert statuses == [0, 2], finished[key]
            (winner,) = [result for code, _, _, result in finished[key] if code == 0]
            (loser,) = [err for code, _, err, _ in finished[key] if code == 2]
            assert "already has" in loser and "--correct" in loser
            assert logged.event.data["result"] == winner == state.games[key].result.value


# -- dedupe and append-only -------------------------------------------------------------------


def test_a_repeated_dedupe_key_appends_once(tmp_path):
    db = tmp_path / "store.sqlite3"
    truth = import_schedule(db, "open")
    (r, b), (r2, b2), (r3, b3) = sorted(truth)[:3]
    with SQLiteStore(db) as store:
        update = Source("tg:42", chat_id=-100, message_id=7, dedupe_key="tg-update-1001")
        first = store.append("open", lambda s: [result_event(s, r, b, truth[(r, b)])], update)
        assert len(first) == 1
        # The same update again, even asking for something else: nothing appended, nothing checked.
        assert store.append("open", lambda s: [result_event(s, r, b, other_result(truth[(r, b)]))], update) == []
        assert store.append("open", lambda s: [result_event(s, r2, b2, truth[(r2, b2)])], update) == []
        assert len(store.log("open")) == 2
        # A batch under one key: appended whole once, skipped whole after.
        batch = Source("tg:42", dedupe_key="tg-update-1002")

        def both(s):
            return [result_event(s, r2, b2, truth[(r2, b2)]), result_event(s, r3, b3, truth[(r3, b3)])]

        assert len(store.append("open", both, batch)) == 2
        assert store.append("open", both, batch) == []
        assert len(store.log("open")) == 4
        logged = store.log("open")[1]
        assert (logged.actor, logged.chat_id, logged.message_id) == ("tg:42", -100, 7)
    with SQLiteStore(db) as store:  # the key is kept in the database, not in the process
        assert store.append("open", lambda s: [result_event(s, r, b, "1/2-1/2", correct=True)], update) == []
        assert len(store.log("open")) == 4
        assert store.state("open").games[(r, b)].result.value == truth[(r, b)]


def test_the_event_log_refuses_update_and_delete(tmp_path):
    db = tmp_path / "store.sqlite3"
    truth = import_schedule(db, "open")
    (r, b) = min(truth)
    with SQLiteStore(db) as store:
        store.append("open", lambda s: [result_event(s, r, b, truth[(r, b)])], Source("cli:test"))
        before = store.log("open")
        connections = [store._connection, sqlite3.connect(db, isolation_level=None)]
        for connection in connections:
            for statement in ("UPDATE events SET data = '{}' WHERE id = 2", "UPDATE events SET actor = 'x'",
                              "DELETE FROM events WHERE id = 2", "DELETE FROM events"):
                with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                    connection.execute(statement)
        connections[1].close()
        assert store.log("open") == before
    with SQLiteStore(db) as store:
        assert store.log("open") == before


def test_a_refused_decide_writes_nothing(tmp_path):
    """InputError in decide rolls the whole append back: no event, the state as it was."""
    db = tmp_path / "store.sqlite3"
    truth = import_schedule(db, "open")
    (r, b) = min(truth)
    with SQLiteStore(db) as store:
        def refused(state):
            return [result_event(state, r, b, truth[(r, b)]), result_event(state, 99, 1, "1-0")]

        with pytest.raises(InputError, match="round 99 is not paired"):
            store.append("open", refused, Source("cli:test"))
        assert len(store.log("open")) == 1
        assert store.state("open").games[(r, b)].result is None
