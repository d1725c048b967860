"""Time the ranking core on large generated Swiss tournaments (issue 2 targets).

    python benchmarks/standings.py [--repeat N]

Prints, for the chain BH-C1, BH, SB, DE, WIN, PS, ARO:
- in-process time of ``compute_standings`` for 1,000 players x 11 rounds and 10,000 x 13
  (targets: under 50 ms and under 1 s on the 2-core reference machine);
- the whole ``tiebreak standings FILE.trf --json`` process for 1,000 x 11 (target: under 0.4 s);
- the cost per game for growing fields, to show it grows linearly with the number of games.
The tournaments include pairing-allocated and half-point byes, forfeits, double forfeits
and withdrawals (see benchmarks/generate.py).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The packages and the generators under tests/ (benchmarks may import tests, never the reverse).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generators import generate_swiss

from ranking.rules import Rules
from ranking.standings import compute_standings
from ranking.trf import write_trf

CHAIN = ("BH-C1", "BH", "SB", "DE", "WIN", "PS", "ARO")


def time_in_process(tournament, repeat: int) -> list[float]:
    rules = Rules(tiebreaks=CHAIN)
    compute_standings(tournament, rules)  # warm caches of the interpreter, not of the core
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        compute_standings(tournament, rules)
        timings.append(time.perf_counter() - start)
    return timings


def time_process(path: Path, repeat: int) -> list[float]:
    command = [sys.executable, "-m", "ranking", "standings", str(path), "--json", "--tiebreaks", ",".join(CHAIN)]
    subprocess.run(command, check=True, capture_output=True)
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        timings.append(time.perf_counter() - start)
    return timings


def describe(timings: list[float]) -> str:
    return f"median {statistics.median(timings) * 1000:7.1f} ms, best {min(timings) * 1000:7.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"chain: {', '.join(CHAIN)}")
    for players, rounds, target in ((1000, 11, 0.050), (10000, 13, 1.0)):
        tournament = generate_swiss(players, rounds)
        timings = time_in_process(tournament, args.repeat if players < 5000 else max(3, args.repeat // 2))
        verdict = "ok" if statistics.median(timings) < target else "OVER TARGET"
        print(f"in-process {players:>6} x {rounds:<2} ({len(tournament.games):>6} games): {describe(timings)}"
              f"  target {target * 1000:.0f} ms: {verdict}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "swiss-1000x11.trf"
        path.write_text(write_trf(generate_swiss(1000, 11)), encoding="utf-8")
        timings = time_process(path, args.repeat)
        verdict = "ok" if statistics.median(timings) < 0.4 else "OVER TARGET"
        print(f"process    `tiebreak standings --json` 1000 x 11: {describe(timings)}  target 400 ms: {verdict}")
    print("cost per game (in-process, 11 rounds):")
    for players in (1000, 2000, 4000, 8000):
        tournament = generate_swiss(players, 11)
        median = statistics.median(time_in_process(tournament, 3))
        print(f"  {players:>5} players, {len(tournament.games):>6} games: {median * 1000:7.1f} ms,"
              f" {median / len(tournament.games) * 1e6:5.2f} us per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
