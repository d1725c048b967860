"""Time the Dutch pairing engine on the last round of generated Swiss events (issue 12 targets).

    python benchmarks/pairing.py [--sizes 100,300,1000] [--rounds 9]

For each size, a Swiss event is generated (``tests/generators.py``: byes, forfeits,
withdrawals), its last round is removed and paired again by ``ranking.pairing.dutch.pair_round``.
Prints CPU seconds (``time.process_time``), wall seconds and the process's peak resident
memory after the round (``resource.getrusage``, generation included) per round; with
``--tracemalloc`` the round is paired a second time to print the peak memory Python
allocated while pairing (tracemalloc slows Python, so that pass is not timed).  Targets on the 2-core reference machine:
100 players under 0.5 s, 300 under 6 s, 1,000 completes in bounded memory.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path

# The packages and the generators under tests/ (benchmarks may import tests, never the reverse).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generators import generate_swiss

from ranking.event.model import ByeKind, Tournament
from ranking.pairing.dutch import pair_round

TARGETS = {100: 0.5, 300: 6.0}


def before_last_round(t: Tournament) -> Tournament:
    """The event as it stood before its last round was paired (requested byes kept)."""
    last = t.rounds
    return replace(
        t,
        games=tuple(g for g in t.games if g.round < last),
        byes=tuple(b for b in t.byes if b.round < last or (b.round == last and b.kind is not ByeKind.PAIRING)),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100,300,1000", help="players per event, comma-separated")
    ap.add_argument("--rounds", type=int, default=9, help="rounds of each event (the last one is paired)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tracemalloc", action="store_true", help="also measure Python's peak allocation (second pass)")
    args = ap.parse_args(argv)
    header = f"{'players':>7} {'round':>5} {'boards':>6} {'cpu s':>8} {'wall s':>8} {'peak RSS MiB':>12}"
    print(header + (f" {'traced MiB':>10}" if args.tracemalloc else "") + "  target")
    for size in (int(s) for s in args.sizes.split(",")):
        event = before_last_round(generate_swiss(size, args.rounds, seed=args.seed))
        c0, w0 = time.process_time(), time.perf_counter()
        pairing = pair_round(event, args.rounds)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
        line = f"{size:>7} {args.rounds:>5} {len(pairing.boards):>6} {cpu:>8.2f} {wall:>8.2f} {rss:>12.1f}"
        if args.tracemalloc:
            tracemalloc.start()
            again = pair_round(event, args.rounds)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            assert again == pairing
            line += f" {peak / 2**20:>10.1f}"
        target = TARGETS.get(size)
        print(line + ("" if target is None else f"  < {target} s: {'met' if cpu < target else 'MISSED'}"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
