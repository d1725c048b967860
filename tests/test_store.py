"""The store and the commands that use it: import, export, pair, result, withdraw, log."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from dataclasses import replace
from pathlib import Path

import cli
import pytest
from open_scenario import store_config

from ranking.errors import InputError
from ranking.event.log import Event, EventKind, result_event
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.tomlfile import parse_tournament_toml
from ranking.formats.trf_read import parse_trf
from ranking.formats.trf_write import write_trf
from tiebreak.files import load_tournament
from tiebreak.store import MIGRATIONS, Source, SQLiteStore

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "ranking" / "examples"
VALIDATION = Path(__file__).parent / "data" / "validation"
CLI = Source("cli:test")


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    with SQLiteStore(tmp_path / "data" / "t.sqlite3") as opened:
        yield opened


@pytest.mark.parametrize("path", [EXAMPLES / "chess-swiss.trf", VALIDATION / "fide_tec_exercises_2024_swiss16" /
                                  "tournament.trf", VALIDATION / "vega_2026_juniors_rapid_championship_swiss" /
                                  "tournament.trf"])
def test_trf_through_the_store_comes_back_the_same(store: SQLiteStore, path: Path) -> None:
    tournament = load_tournament(path)
    store.create("t", tournament, CLI)
    assert store.tournament("t") == tournament
    assert parse_trf(write_trf(store.tournament("t"))) == parse_trf(write_trf(tournament))


@pytest.mark.parametrize("path", [EXAMPLES / "xiangqi-rr.toml", Path(__file__).parent / "data" / "cli" / "cjk.toml"])
def test_toml_through_the_store_comes_back_the_same(store: SQLiteStore, path: Path) -> None:
    tournament = load_tournament(path)
    store.create("t", tournament, CLI)
    assert write_tournament_toml(store.tournament("t")) == write_tournament_toml(tournament)
    assert parse_tournament_toml(write_tournament_toml(store.tournament("t"))) == tournament


def test_a_correction_is_a_new_event_and_the_old_value_stays_in_the_log(store: SQLiteStore) -> None:
    store.create("t", load_tournament(EXAMPLES / "chess-swiss.trf"), CLI)
    before = store.state("t").game(7, 1).result
    store.append("t", lambda s: [result_event(s, 7, 1, "0-1", correct=True)], CLI)
    log = store.log("t")
    assert [entry.event.kind for entry in log] == [EventKind.IMPORTED, EventKind.CORRECTION]
    assert log[1].event.data == {"round": 7, "board": 1, "result": "0-1", "previous": before.value}
    assert store.state("t").game(7, 1).result.value == "0-1"
    # a second store (another process) derives the same state from the log
    with SQLiteStore(store.path) as other:
        assert other.tournament("t") == store.tournament("t")


def test_a_different_result_needs_correct_and_the_same_one_is_a_no_op(store: SQLiteStore) -> None:
    store.create("t", load_tournament(EXAMPLES / "chess-swiss.trf"), CLI)
    recorded = store.state("t").game(7, 1).result.value
    other = "1-0" if recorded != "1-0" else "0-1"
    with pytest.raises(InputError, match="correct it to replace it"):
        store.append("t", lambda s: [result_event(s, 7, 1, other)], CLI)
    assert store.append("t", lambda s: [e for e in [result_event(s, 7, 1, recorded)] if e], CLI) == []
    assert len(store.log("t")) == 1


def test_a_tournaments_version_is_its_last_event_and_every_change_moves_it(store: SQLiteStore) -> None:
    store.create("swiss", load_tournament(EXAMPLES / "chess-swiss.trf"), CLI)
    store.create("rr", load_tournament(EXAMPLES / "xiangqi-rr.toml"), CLI)
    first = store.versions()
    assert list(first) == ["swiss", "rr"] and first["rr"] > first["swiss"]  # in the order they were imported
    store.append("swiss", lambda s: [result_event(s, 7, 1, "0-1", correct=True)], CLI)
    moved = store.versions()
    assert moved["swiss"] == store.log("swiss")[-1].id > first["rr"] and moved["rr"] == first["rr"]
    store.append("rr", lambda s: [Event(EventKind.ARCHIVED)], CLI)
    assert store.versions() == {"swiss": moved["swiss"]}  # archived: not listed, as by slugs()


def test_the_log_is_append_only(store: SQLiteStore) -> None:
    store.create("t", load_tournament(EXAMPLES / "xiangqi-rr.toml"), CLI)
    connection = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        connection.execute("UPDATE events SET data = '{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        connection.execute("DELETE FROM events")


def test_schema_is_versioned_and_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite3"
    with SQLiteStore(path) as store:
        assert store.schema_version == len(MIGRATIONS)
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    connection.close()
    with pytest.raises(InputError, match="newer than this program knows"):
        SQLiteStore(path)


def test_a_request_delivered_twice_is_applied_once(store: SQLiteStore) -> None:
    store.create("t", replace(load_tournament(EXAMPLES / "chess-swiss.trf")), CLI)
    source = Source("tg:42", chat_id=7, message_id=99, dedupe_key="tg-update-1001")
    first = store.append("t", lambda s: [result_event(s, 7, 1, "0-1", correct=True)], source)
    again = store.append("t", lambda s: [result_event(s, 7, 1, "1-0", correct=True)], source)
    assert len(first) == 1 and again == []
    assert store.log("t")[-1].message_id == 99


# -- the command line ------------------------------------------------------------------------

def tiebreak(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return cli.tiebreak(*args, "--config", config)


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return store_config(tmp_path)


def events_in(config: Path) -> int:
    database = config.parent / "data" / "store.sqlite3"
    if not database.exists():
        return 0
    return sqlite3.connect(database).execute("SELECT count(*) FROM events").fetchone()[0]


def test_an_arbiter_runs_a_round_robin_from_the_command_line(config: Path, tmp_path: Path) -> None:
    tournament = load_tournament(EXAMPLES / "xiangqi-rr.toml")
    empty = replace(tournament, games=())
    file = tmp_path / "event.toml"
    file.write_text(write_tournament_toml(empty), encoding="utf-8")
    assert tiebreak(config, "import", str(file), "--slug", "rr").returncode == 0
    paired = tiebreak(config, "pair", "rr")
    assert paired.returncode == 0, paired.stderr
    assert "paired round 1 of rr: 5 boards" in paired.stdout
    entered = tiebreak(config, "result", "rr", "1", "1", "2-0")
    assert entered.returncode == 0 and "recorded" in entered.stdout
    again = tiebreak(config, "result", "rr", "1", "1", "1-0")
    assert "already recorded, nothing changed" in again.stdout
    refused = tiebreak(config, "result", "rr", "1", "1", "0-1")
    assert refused.returncode == 2 and "give --correct" in refused.stderr
    corrected = tiebreak(config, "result", "rr", "1", "1", "0-1", "--correct")
    assert "0-2: corrected (was 2-0)" in corrected.stdout  # in the 2/1/0 event's own terms
    standings = json.loads(tiebreak(config, "standings", "rr", "--json").stdout)
    assert standings["after_round"] == 1 and standings["points"]["win"] == 2
    log = tiebreak(config, "log", "rr", "--json").stdout.splitlines()
    kinds = [json.loads(line)["kind"] for line in log]
    assert kinds == ["imported", "round-paired", "result", "correction"]
    assert all(json.loads(line)["actor"].startswith("cli:") for line in log)
    exported = tiebreak(config, "export", "rr", "--format", "toml").stdout
    assert parse_tournament_toml(exported).games[0].result.value == "0-1"
    trf = tiebreak(config, "export", "rr", "--format", "trf").stdout
    assert [(p.id, p.name, p.rating) for p in parse_trf(trf).players] == [
        (p.id, p.name, p.rating) for p in tournament.players]  # TRF has no club column


def test_withdraw_then_standings_apply_the_rule(config: Path) -> None:
    assert tiebreak(config, "import", str(EXAMPLES / "chess-swiss.trf")).returncode == 0
    withdrawn = tiebreak(config, "withdraw", "chess-swiss", "5", "--after-round", "7")
    assert withdrawn.returncode == 0 and "player 5 withdrew" in withdrawn.stdout
    again = tiebreak(config, "withdraw", "chess-swiss", "5")
    assert again.returncode == 2 and "already withdrew" in again.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["result", "nope", "1", "1", "1-0"], "no tournament 'nope'"),
    (["result", "chess-swiss", "9", "1", "1-0"], "round 9 is not paired"),
    (["result", "chess-swiss", "1", "99", "1-0"], "round 1 has no board 99"),
    (["result", "chess-swiss", "1", "1", "3-0"], "unknown result '3-0'"),
    (["withdraw", "chess-swiss", "77"], "player 77 is not in the tournament"),
    (["import", "no-such-file.trf"], "no-such-file.trf"),
    (["import", str(Path(__file__).parent / "data" / "cli" / "broken.trf")], "broken.trf:5"),
    (["import", str(EXAMPLES / "chess-swiss.trf")], "already exists"),
    (["import", str(EXAMPLES / "chess-swiss.trf"), "--slug", "bad slug"], "--slug 'bad slug'"),
    (["pair", "chess-swiss"], "every round is paired: the event has 7 rounds"),
    (["export", "nope"], "no tournament 'nope'"),
])
def test_bad_requests_are_one_line_exit_2_and_write_nothing(config: Path, args: list[str], message: str) -> None:
    assert tiebreak(config, "import", str(EXAMPLES / "chess-swiss.trf")).returncode == 0
    before = events_in(config)
    result = tiebreak(config, *args)
    assert result.returncode == 2, result.stdout
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert events_in(config) == before


def test_a_named_config_file_must_exist(tmp_path: Path) -> None:
    result = tiebreak(tmp_path / "missing.toml", "log", "x")
    assert result.returncode == 2 and "missing.toml: no such configuration file" in result.stderr


def test_import_from_config_loads_the_bundled_tournaments_once(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\npath = "db.sqlite3"\n\n[[tournaments]]\nfile = "{EXAMPLES / "xiangqi-rr.toml"}"\n'
                      f'\n[[tournaments]]\nfile = "{EXAMPLES / "chess-swiss.trf"}"\n')
    first = tiebreak(config, "import", "--from-config")
    assert first.returncode == 0, first.stderr
    assert "imported 'Hanoi–Hangzhou Xiangqi Invitational 2026' as example-xiangqi-rr" in first.stdout
    second = tiebreak(config, "import", "--from-config")
    assert second.stdout.splitlines() == ["example-xiangqi-rr: already in the store",
                                          "chess-swiss: already in the store"]
    assert tiebreak(config, "standings", "example-xiangqi-rr").returncode == 0


def _swiss_before_last_round(tmp_path: Path) -> tuple[Path, object]:
    """The chess example without its last round, as a TOML file, and the full tournament."""
    full = load_tournament(EXAMPLES / "chess-swiss.trf")
    last = full.rounds
    before = replace(full, games=tuple(g for g in full.games if g.round < last),
                     byes=tuple(b for b in full.byes if b.round < last))
    file = tmp_path / "swiss.toml"
    file.write_text(write_tournament_toml(before), encoding="utf-8")
    return file, full


@pytest.mark.parametrize("how", ["--pairs", "--trf"])
def test_a_swiss_round_paired_by_the_pairing_program_is_imported(config: Path, tmp_path: Path, how: str) -> None:
    file, full = _swiss_before_last_round(tmp_path)
    last = full.rounds
    assert tiebreak(config, "import", str(file), "--slug", "swiss").returncode == 0
    games = [g for g in full.games if g.round == last]
    pab = [b for b in full.byes if b.round == last and b.kind.value == "U"]
    paired = tmp_path / "paired"
    if how == "--pairs":  # JaVaFo / bbpPairings: count, then WHITE BLACK, 0 = bye
        rows = [f"{g.white} {g.black}" for g in games] + [f"{b.player} 0" for b in pab]
        paired.write_text(f"{len(rows)}\n" + "\n".join(rows) + "\n")
    else:  # a TRF with the round paired and no results yet
        blank = replace(full, games=tuple(replace(g, result=None) if g.round == last else g for g in full.games),
                        byes=tuple(b for b in full.byes if b.round < last or b.kind.value == "U"))
        paired.write_text(write_trf(blank))
    result = tiebreak(config, "pair", "swiss", how, str(paired))
    assert result.returncode == 0, result.stderr
    assert f"paired round {last} of swiss: {len(games)} boards" in result.stdout
    stored = parse_tournament_toml(tiebreak(config, "export", "swiss", "--format", "toml").stdout)
    new = [g for g in stored.games if g.round == last]
    assert {(g.white, g.black) for g in new} == {(g.white, g.black) for g in games}
    assert sorted(g.board for g in new) == list(range(1, len(games) + 1))
    again = tiebreak(config, "pair", "swiss", how, str(paired))
    assert again.returncode == 2 and f"round {last + 1}: the tournament has {last} rounds" in again.stderr


def test_a_pairs_list_naming_an_unknown_player_is_refused(config: Path, tmp_path: Path) -> None:
    file, _ = _swiss_before_last_round(tmp_path)
    assert tiebreak(config, "import", str(file), "--slug", "swiss").returncode == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("2\n1 2\n3 99\n")
    result = tiebreak(config, "pair", "swiss", "--pairs", str(bad))
    assert result.returncode == 2 and "bad.txt:3: player 99 is not in the tournament" in result.stderr


def _stored_swiss(tmp_path: Path):
    from generators import generate_swiss

    full = generate_swiss(60, 5)
    store = SQLiteStore(tmp_path / "store.sqlite3")
    store.create("open", replace(full, games=tuple(replace(g, result=None) for g in full.games)), CLI)
    game = full.games[0]
    return store, game.round, game.board, game.result.value


def test_insert_or_replace_cannot_rewrite_or_drop_an_event(tmp_path: Path) -> None:
    store, r, b, result = _stored_swiss(tmp_path)
    store.append("open", lambda s: [result_event(s, r, b, result)], Source("tg:1", dedupe_key="u1"))
    raw = sqlite3.connect(tmp_path / "store.sqlite3", isolation_level=None)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        raw.execute("INSERT OR REPLACE INTO events (id, tournament_id, kind, data, actor, at) "
                    "VALUES (2, 1, 'result', '{\"round\": 1, \"board\": 1, \"result\": \"0-1\"}', 'x', 'now')")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        raw.execute("REPLACE INTO events (tournament_id, kind, data, actor, at, dedupe_key) "
                    "VALUES (1, 'foul', '{}', 'x', 'now', 'u1')")
    store.close()


def test_a_decision_that_changes_nothing_appends_nothing(tmp_path: Path) -> None:
    store, r, b, result = _stored_swiss(tmp_path)
    store.append("open", lambda s: [result_event(s, r, b, result)], CLI)
    assert store.append("open", lambda s: [result_event(s, r, b, result)], CLI) == []
    store.close()


def test_a_reader_in_another_thread_never_sees_an_event_that_is_rolled_back(tmp_path: Path) -> None:
    import threading

    from ranking.event.log import Event

    store, r, b, result = _stored_swiss(tmp_path)
    inserted, release = threading.Event(), threading.Event()

    class Stall(dict):  # json.dumps calls items(): after the first INSERT, before COMMIT
        def items(self):
            inserted.set()
            release.wait(5)
            raise RuntimeError("the writer fails before COMMIT")

    def decide(state):
        return [result_event(state, r, b, result), Event(EventKind.FOUL, Stall(round=r, board=b, side="white"))]

    def writer() -> None:
        with pytest.raises(RuntimeError):
            store.append("open", decide, CLI)

    thread = threading.Thread(target=writer)
    thread.start()
    assert inserted.wait(5)
    seen: list = []
    reader = threading.Thread(target=lambda: seen.extend(store.log("open")))
    reader.start()
    release.set()
    thread.join()
    reader.join()
    assert [entry.id for entry in seen] == [entry.id for entry in store.log("open")] == [1]
    store.close()


def test_standings_input_is_a_file_when_one_exists_even_with_a_config(config: Path) -> None:
    by_file = tiebreak(config, "standings", str(EXAMPLES / "chess-swiss.trf"), "--json")
    assert by_file.returncode == 0 and json.loads(by_file.stdout)["tournament"] == "Atlantic Open 2026"
    missing = tiebreak(config, "standings", "nowhere/event.trf")
    assert missing.returncode == 2 and "nowhere/event.trf" in missing.stderr
