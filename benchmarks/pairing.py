"""Time the Dutch engine against bbpPairings round by round, side by side (issue 24 targets).

    python benchmarks/pairing.py [FILE] [--players 1000] [--rounds 11] [--seed 1]
                                 [--pair 2-11] [--bbp PATH] [--keep DIR]

The tournament is FILE (a TRF), or else a Swiss of ``--players`` over ``--rounds`` written by
``tiebreak generate`` (``--seed``; draws 30%, forfeits 3%, half-point byes 3%, retirements 3%),
cached under ``benchmarks/.cache``.  Each round of ``--pair`` is written as it stood before it
was paired (``ranking.pairing.dutch.before_round``: the rounds before, the round's requested byes and
absences, the initial colour) and paired by both engines as whole processes, in turn, the order
alternating from round to round: ``tiebreak pairings IN --round R --format pairs`` and
``bbpPairings --dutch IN -p OUT`` (``--bbp``, else ``$BBPPAIRINGS``, else ``bbpPairings`` on the
PATH; without it only Tiebreak is timed).  For each run: CPU (user + system, from the
operating system's accounting of that child), wall time and peak resident memory; whether the
two pairings are identical (colours included).  The machine's load before and after.

Targets (1,000 players, 11 rounds): every round at most 2x bbpPairings' CPU, peak memory
under 1 GiB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ranking.event.clock import paired_rounds  # noqa: E402
from ranking.formats.trf_read import parse_trf  # noqa: E402
from ranking.pairing.dutch import before_round  # noqa: E402
from ranking.pairing.dutch.generate import GeneratorSettings, generate_tournament  # noqa: E402
from tiebreak.exports import export_text  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache"
CPU_RATIO, MEMORY_MIB = 2.0, 1024


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


TIME = "/usr/bin/time"  # GNU time: the child's own peak memory (a child forked from this process
# would count this process's memory as its own until it execs)


def run(command: list[str], scratch: Path) -> tuple[float, float, float, str]:
    """(CPU s, wall s, peak MiB, stdout) of a command: user + system CPU and peak resident memory
    from the operating system's accounting of that child (GNU time when present, else wait4)."""
    out_path, err_path, usage_path = scratch / "stdout", scratch / "stderr", scratch / "usage"
    timed = Path(TIME).exists()
    if timed:
        command = [TIME, "-f", "%U %S %M", "-o", str(usage_path), *command]
    with out_path.open("w") as out, err_path.open("w") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"{command[0]} failed: {err_path.read_text().strip()[-300:]}")
    if timed:
        user, system, kib = usage_path.read_text().split()[-3:]
        return float(user) + float(system), wall, int(kib) / 1024, out_path.read_text()
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, out_path.read_text()


def pairs_of(text: str) -> set[tuple[int, int]]:
    """A ``-p`` pairs list as a set (the count line dropped)."""
    rows = [line.split() for line in text.replace("\r", "\n").splitlines() if line.strip()]
    return {(int(a), int(b)) for a, b in (row for row in rows[1:] if len(row) == 2)}


def tournament_file(args: argparse.Namespace) -> Path:
    if args.file:
        return Path(args.file)
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"swiss-{args.players}x{args.rounds}-seed{args.seed}.trf"
    if not path.exists():
        print(f"generating {path.name} with tiebreak generate (once; cached)", flush=True)
        settings = GeneratorSettings(players=args.players, rounds=args.rounds, seed=args.seed, draw_rate=30,
                                     forfeit_rate=3, bye_rate=3, retire_rate=3)
        path.write_text(export_text(generate_tournament(settings), "trf"), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", help="a TRF file (default: a generated Swiss, cached)")
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pair", default="all", help="rounds to pair: all, or a list such as 2-11 or 2,3")
    ap.add_argument("--bbp", default=os.environ.get("BBPPAIRINGS") or shutil.which("bbpPairings"),
                    help="the bbpPairings binary (default: $BBPPAIRINGS, else bbpPairings on the PATH)")
    ap.add_argument("--keep", help="keep the per-round input files in this directory")
    args = ap.parse_args(argv)

    path = tournament_file(args)
    t = parse_trf(path.read_text(encoding="utf-8"), source=str(path))
    rounds = list(paired_rounds(t))
    if args.pair != "all":
        wanted: list[int] = []
        for part in args.pair.split(","):
            first, _, last = part.partition("-")
            wanted += range(int(first), int(last or first) + 1)
        rounds = [r for r in rounds if r in wanted]
    bbp = args.bbp if args.bbp and Path(args.bbp).exists() else None
    ours = [sys.executable, "-m", "tiebreak.cli", "pairings"]
    print(f"{time.strftime('%Y-%m-%d %H:%M')}  {path.name}: {len(t.players)} players, {t.rounds} rounds; "
          f"load before {load()}")
    print(f"bbpPairings: {bbp or 'not found (only Tiebreak is timed)'}")
    print(f"{'round':>5} {'boards':>6} | {'bbp CPU':>8} {'wall':>7} {'MiB':>6} | {'ours CPU':>8} {'wall':>7} {'MiB':>6}"
          f" | {'ratio':>5}  same")
    worst_ratio, worst_memory = 0.0, 0.0
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for k, rnd in enumerate(rounds):
            source = folder / f"round-{rnd:02d}.trf"
            source.write_text(export_text(before_round(t, rnd), "trf"), encoding="utf-8")
            runs = {"ours": [*ours, str(source), "--round", str(rnd), "--format", "pairs"]}
            if bbp:
                runs["bbp"] = [bbp, "--dutch", str(source), "-p", str(folder / f"round-{rnd:02d}.bbp")]
            order = sorted(runs, reverse=k % 2 == 1)  # bbp first, then ours first, ...
            measured = {}
            for name in order:
                measured[name] = run(runs[name], folder)
            cpu, wall, mib, out = measured["ours"]
            boards = len(pairs_of(out))
            line = f"{rnd:>5} {boards:>6} | "
            if bbp:
                bcpu, bwall, bmib, _ = measured["bbp"]
                theirs = pairs_of((folder / f"round-{rnd:02d}.bbp").read_text())
                ratio = cpu / bcpu if bcpu > 0 else float("inf")
                worst_ratio = max(worst_ratio, ratio)
                line += f"{bcpu:>8.2f} {bwall:>7.2f} {bmib:>6.0f} | {cpu:>8.2f} {wall:>7.2f} {mib:>6.0f} | "
                line += f"{ratio:>5.2f}  "
                line += "yes" if theirs == pairs_of(out) else "NO"
            else:
                line += f"{'-':>8} {'-':>7} {'-':>6} | {cpu:>8.2f} {wall:>7.2f} {mib:>6.0f} |"
            worst_memory = max(worst_memory, mib)
            print(line, flush=True)
    print(f"load after {load()}")
    if bbp:
        print(f"worst round: {worst_ratio:.2f}x bbpPairings' CPU (target <= {CPU_RATIO:g}x: "
              f"{'met' if worst_ratio <= CPU_RATIO else 'MISSED'})")
    print(f"peak memory: {worst_memory:.0f} MiB (target < {MEMORY_MIB} MiB: "
          f"{'met' if worst_memory < MEMORY_MIB else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
