"""Time the store on the bot's path: one result in, the standings out (target: p99 under 100 ms).

    python benchmarks/store.py [--limit N] [--players 1000] [--rounds 11]
                               [--schedule rounds|whole] [--refused EVERY] [--dir DIR] [--profile [N]]

A generated Swiss (tests/generators.py, 1,000 players x 11 rounds by default) goes into
a fresh SQLite database, then every result is entered one by one through ``store.append``
(one transaction each, with a Telegram-style dedupe key), each followed by
``compute_standings(store.tournament(slug))``.  The latency of a result is the wall time of
both together, as a bot would spend it between a message and its reply.

``--schedule rounds`` (the default) imports the players only and pairs each round with a
``round-paired`` event once the round before is complete, as a tournament runs: the
standings see only the rounds paired so far, and withdrawals are entered as events after
their round.  ``--schedule whole`` imports every round's pairings (and the withdrawals)
at once, results removed.  Pairing and withdrawals are timed apart, not as results.

``--refused EVERY`` sends, before every EVERY-th result, a request the store refuses (a
board that does not exist, as a typo would): the refusals are timed apart, the result after
each is timed as usual (and listed apart too).  ``--limit N`` enters only the first N
results.  ``--profile`` runs the result loop under cProfile and prints where the time goes.
The database is in a temporary folder (of ``--dir``, default the system's): fsync cost
depends on that file system.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

# The packages and the generators under tests/ (benchmarks may import tests, never the reverse).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generators import generate_swiss

from ranking.errors import InputError
from ranking.event.log import pairing_event, result_event, withdrawal_event
from ranking.event.model import Tournament
from ranking.standings.individual import compute_standings
from tiebreak.store import Source, SQLiteStore

TARGET_P99 = 0.100  # seconds, result in -> standings out
SLUG = "bench-open"


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    index = max(0, min(len(sorted_values) - 1, round(fraction * len(sorted_values) + 0.5) - 1))
    return sorted_values[index]


def describe(label: str, values: list[float]) -> str:
    ordered = sorted(values)
    parts = [f"{name} {percentile(ordered, q) * 1000:7.2f}" for name, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))]
    return f"{label:<28} {', '.join(parts)}, max {ordered[-1] * 1000:7.2f} ms"


class Bench:
    """A tournament being run through the store: pair, enter results, withdraw."""

    def __init__(self, store: SQLiteStore, full: Tournament, schedule: str, seed: int,
                 refused_every: int | None = None) -> None:
        self.store = store
        self.refused_every = refused_every
        self.refused_times: list[float] = []
        self.after_refused: list[float] = []
        self.full = full
        self.schedule = schedule
        self.rng = random.Random(seed)
        self.update = 0
        self.latencies: list[float] = []
        self.append_times: list[float] = []
        self.snapshot_times: list[float] = []
        self.standings_times: list[float] = []
        self.pairing_times: list[float] = []
        stripped = tuple(replace(game, result=None) for game in full.games)
        if schedule == "whole":
            base = replace(full, games=stripped)
        else:
            base = replace(full, games=(), byes=(), withdrawals=())
        self.store.create(SLUG, base, Source("cli:bench"))

    def source(self) -> Source:
        self.update += 1
        return Source("tg:1000", chat_id=-1001, message_id=self.update, dedupe_key=f"tg-update-{self.update}")

    def pair(self, number: int) -> None:
        games = [replace(game, result=None) for game in self.full.games if game.round == number]
        byes = [bye for bye in self.full.byes if bye.round == number]
        start = time.perf_counter()
        self.store.append(SLUG, lambda state: [pairing_event(state, number, games, byes)], self.source())
        self.pairing_times.append(time.perf_counter() - start)

    def withdraw(self, after_round: int) -> None:
        for withdrawal in self.full.withdrawals:
            if withdrawal.after_round == after_round:
                self.store.append(SLUG, lambda state, w=withdrawal: [withdrawal_event(state, w.player, after_round)],
                                  self.source())

    def refuse(self, round_number: int) -> None:
        """A request the store refuses: nothing is appended."""
        start = time.perf_counter()
        try:
            self.store.append(SLUG, lambda state: [result_event(state, round_number, 10**6, "1-0")], self.source())
        except InputError:
            self.refused_times.append(time.perf_counter() - start)
        else:
            raise AssertionError("board 1000000 was accepted")

    def enter(self, round_number: int, board: int, result: str) -> None:
        """One result in, the standings out: the measured path."""
        def decide(state):
            event = result_event(state, round_number, board, result)
            return [event] if event else []

        start = time.perf_counter()
        appended = self.store.append(SLUG, decide, self.source())
        appended_at = time.perf_counter()
        tournament = self.store.tournament(SLUG)
        snapshot_at = time.perf_counter()
        standings = compute_standings(tournament)
        end = time.perf_counter()
        assert appended and standings.rows
        self.latencies.append(end - start)
        self.append_times.append(appended_at - start)
        self.snapshot_times.append(snapshot_at - appended_at)
        self.standings_times.append(end - snapshot_at)

    def run(self, limit: int | None) -> None:
        entered = 0
        for number in range(1, self.full.rounds + 1):
            if self.schedule == "rounds":
                self.pair(number)
            games = [game for game in self.full.games if game.round == number]
            self.rng.shuffle(games)  # results come in in no particular order
            for game in games:
                if limit is not None and entered >= limit:
                    return
                refused = self.refused_every is not None and entered % self.refused_every == self.refused_every - 1
                if refused:
                    self.refuse(number)
                self.enter(number, game.board, game.result.value)
                if refused:
                    self.after_refused.append(self.latencies[-1])
                entered += 1
            if self.schedule == "rounds":
                self.withdraw(number)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, metavar="N", help="enter only the first N results")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--schedule", choices=("rounds", "whole"), default="rounds",
                        help="pair round by round (default) or import every round's pairings at once")
    parser.add_argument("--refused", type=int, metavar="EVERY",
                        help="before every EVERY-th result, send a request the store refuses")
    parser.add_argument("--dir", metavar="DIR", help="folder for the temporary database (default: the system's)")
    parser.add_argument("--profile", type=int, nargs="?", const=25, metavar="N",
                        help="profile the result loop and print the N costliest functions (default 25)")
    args = parser.parse_args()

    full = generate_swiss(args.players, args.rounds)
    print(f"{full.name}: {len(full.games)} games; schedule: "
          + ("paired round by round" if args.schedule == "rounds" else "every round imported at once"))
    print(f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {platform.machine()}")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "bench.sqlite3"
        print(f"database: {path} (WAL, synchronous=FULL)")
        with SQLiteStore(path) as store:
            start = time.perf_counter()
            bench = Bench(store, full, args.schedule, seed=1, refused_every=args.refused)
            print(f"import: {(time.perf_counter() - start) * 1000:.1f} ms")
            profiler = cProfile.Profile() if args.profile else None
            start = time.perf_counter()
            if profiler:
                profiler.enable()
            bench.run(args.limit)
            if profiler:
                profiler.disable()
            wall = time.perf_counter() - start
            size = path.stat().st_size + sum(p.stat().st_size for p in Path(folder).glob("bench.sqlite3-*"))

    count = len(bench.latencies)
    if not count:
        print("no results entered")
        return 1
    print(f"results entered: {count} in {wall:.2f} s wall ({count / wall:.1f} results/s including pairing; "
          f"{count / sum(bench.latencies):.1f} results/s on the result path alone)")
    print(describe("result in -> standings out", bench.latencies))
    print(describe("  of which store.append", bench.append_times))
    print(describe("  of which store.tournament", bench.snapshot_times))
    print(describe("  of which compute_standings", bench.standings_times))
    if bench.pairing_times:
        print(describe(f"pairing a round ({len(bench.pairing_times)}x)", bench.pairing_times))
    if bench.refused_times:
        print(describe(f"refused request ({len(bench.refused_times)}x)", bench.refused_times))
        print(describe("  the result after it", bench.after_refused))
    print(f"mean {statistics.fmean(bench.latencies) * 1000:.2f} ms; database and WAL {size / 1e6:.1f} MB")
    p99 = percentile(sorted(bench.latencies), 0.99)
    verdict = "ok" if p99 < TARGET_P99 else "OVER TARGET"
    print(f"p99 {p99 * 1000:.1f} ms, target under {TARGET_P99 * 1000:.0f} ms: {verdict}")
    if profiler:
        print()
        stats = pstats.Stats(profiler, stream=sys.stdout).strip_dirs()
        stats.sort_stats("tottime").print_stats(args.profile)
        stats.sort_stats("cumulative").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
