"""Replay fresh random Swiss tournaments paired by bbpPairings with the Dutch engine (issue 24).

    python benchmarks/dutch_replay.py [--bbp PATH] [--count 150] [--heavy 70] [--max-players 300]
                                      [--seed 1] [--keep DIR] [FILE ...]

With bbpPairings (``--bbp``, else ``$BBPPAIRINGS``, else ``bbpPairings`` on the PATH), its own
random tournament generator writes ``--count`` new tournaments (8 to ``--max-players`` players,
5 to 13 rounds, draws, forfeits, half-point byes and retirements switched on or off at random,
some with equal ratings) and ``--heavy`` more heavy with forfeits, half-point byes and
retirements, from configurations drawn from ``--seed``; a file whose generation stopped early
(no pairing left) is replaced.  Every round of every file (and of the FILEs given) is then
replayed in-process the way ``tiebreak check`` does it (``ranking.pairing.dutch.check_rounds``): the
rounds identical to the file, colours included, out of all, per family, with the CPU time per
round.  Exit status 0 when every round is identical.  Without bbpPairings only the FILEs given
are replayed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ranking.event.clock import paired_rounds
from ranking.formats.trf_read import parse_trf
from ranking.pairing.dutch import check_rounds

OFF = 1_000_000_000  # a generator rate that never fires


def configuration(rng: random.Random, heavy: bool, most: int) -> str:
    """A bbpPairings generator configuration (its keys; a rate r fires with probability 1/r)."""
    players = int(min(most, max(8, round(8 * (most / 8) ** rng.random()))))
    rounds = rng.randint(5, 13)
    if players < 16:
        rounds = min(rounds, players - 3)
    if heavy:
        forfeits, byes, retired = rng.randint(3, 8), rng.randint(2, 5), rng.randint(2, 6)
    else:
        forfeits = rng.choice([OFF, OFF, 10, 20, 40])
        byes = rng.choice([OFF, OFF, 5, 10, 20])
        retired = rng.choice([OFF, OFF, 5, 10, 20])
    high, low = 2700, 1400
    if rng.random() < 0.15:
        high = low = 1800  # everyone rated alike: the initial order is the start numbers
    elif rng.random() < 0.15:
        high, low = 2000, 1950
    draws = rng.choice([0, 10, 20, 30, 40, 60])
    return (f"PlayersNumber={players}\nRoundsNumber={max(5, rounds)}\nDrawPercentage={draws}\n"
            f"ForfeitRate={forfeits}\nHalfPointByeRate={byes}\nRetiredRate={retired}\n"
            f"HighestRating={high}\nLowestRating={low}\n")


def generate(bbp: str, folder: Path, family: str, count: int, heavy: bool, most: int, rng: random.Random) -> list[Path]:
    made: list[Path] = []
    while len(made) < count:
        seed = rng.randint(1, 10**9)
        config = folder / f"{family}{seed}.cfg"
        config.write_text(configuration(rng, heavy, most))
        target = folder / f"{family}{seed}.trf"
        done = subprocess.run([bbp, "--dutch", "-g", str(config), "-o", str(target), "-s", str(seed)],
                              capture_output=True, timeout=3600)
        if done.returncode or not target.exists():
            continue
        t = parse_trf(target.read_text(encoding="utf-8"))
        if len(paired_rounds(t)) != t.rounds:  # the generator found no pairing for a round
            target.unlink()
            continue
        made.append(target)
    return made


def replay(paths: list[Path]) -> tuple[int, int, float, list[str]]:
    """(identical rounds, rounds, CPU s, the rounds that differ)."""
    same = total = 0
    differing = []
    start = time.process_time()
    for path in paths:
        for rnd, check in check_rounds(parse_trf(path.read_text(encoding="utf-8"), source=str(path))):
            total += 1
            if isinstance(check, Exception) or not check.same:
                differing.append(f"{path.name} round {rnd}")
            else:
                same += 1
    return same, total, time.process_time() - start, differing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="TRF files to replay as well")
    ap.add_argument("--bbp", default=os.environ.get("BBPPAIRINGS") or shutil.which("bbpPairings"))
    ap.add_argument("--count", type=int, default=150, help="mixed tournaments to generate")
    ap.add_argument("--heavy", type=int, default=70, help="tournaments heavy with forfeits, byes, retirements")
    ap.add_argument("--max-players", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="keep the generated files in this directory")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    families: dict[str, list[Path]] = {}
    if args.files:
        families["given"] = [Path(f) for f in args.files]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        if args.bbp and Path(args.bbp).exists():
            started = time.perf_counter()
            families["mixed"] = generate(args.bbp, folder, "r", args.count, False, args.max_players, rng)
            families["heavy"] = generate(args.bbp, folder, "h", args.heavy, True, min(args.max_players, 200), rng)
            print(f"generated {args.count} + {args.heavy} tournaments with {args.bbp} "
                  f"in {time.perf_counter() - started:.0f} s (seed {args.seed})")
        elif not args.files:
            ap.error("no bbpPairings binary (--bbp) and no FILE to replay")
        print(f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"{'set':<8} {'files':>5} {'identical rounds':>17} {'CPU s':>8} {'per round':>9}")
        everything = 0
        for name, paths in families.items():
            same, total, cpu, differing = replay(paths)
            everything += total - same
            print(f"{name:<8} {len(paths):>5} {f'{same}/{total}':>17} {cpu:>8.1f} {cpu / max(total, 1):>9.3f}")
            for where in differing[:20]:
                print(f"  differs: {where}")
    return 1 if everything else 0


if __name__ == "__main__":
    sys.exit(main())
