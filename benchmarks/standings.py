"""Time ``tiebreak standings`` (issue 13): the whole command against tiebreak-core, and the
ranking in-process.

    python benchmarks/standings.py [--repeat N] [--skip-in-process]

1. The whole process ``tiebreak standings FILE --json --tiebreaks DE,BH-C1,BH,SB,PS,WIN`` on a
   generated 1,000-player 11-round Swiss (byes, forfeits, double forfeits, withdrawals), as a
   TRF and as a tournament TOML file, from a plain install (the packages copied into a new
   virtual environment, bytecode compiled: no editable-install finder at start-up).  When the
   PyPI package tiebreak-core is installed (``pip install tiebreak-core``), the same file is
   ranked by it in turn (``benchmarks/tiebreak_core_standings.py``), A B A B ..., and the ratio
   is taken pair by pair.  CPU time (user + system, from the operating system's accounting of
   the finished child) and wall time, median and spread; the machine's load before and after.
   Target: at least 5 times faster than tiebreak-core, whole process.  The same command with the
   file read into the model (``load_tournament`` + ``final_standings``: the way of a file the
   columns' readers leave to the model; the same engine ranks it) is timed in the same turns,
   from a second copy of the install in which ``quick_standings`` hands over every time.
2. In-process, parsing included: the file read into columns (``ranking.formats.crosstable``) and
   ranked by the engine (``ranking.standings.engine``) on 10,000 x 13 (9,999 players: TRF start
   numbers end at 9999) and 1,000 x 11 (CPU time; target under 0.4 s at 10,000 x 13), its peak
   memory against the memory of the tournament model of the same file (target: under 2x), and
   the cost per game for growing fields (linear).  The model's reader (``parse_trf`` +
   ``final_standings``) is timed too, for comparison.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import tracemalloc
from pathlib import Path

# The packages and the generators under tests/ (benchmarks may import tests, never the reverse).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generators import generate_swiss

from ranking.formats.crosstable import read_trf
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.trf_read import parse_trf
from ranking.formats.trf_write import write_trf
from ranking.scoring.rules import Rules
from ranking.standings.engine import crosstable_standings
from ranking.standings.final import final_standings

ROOT = Path(__file__).resolve().parents[1]
CHAIN = ("DE", "BH-C1", "BH", "SB", "PS", "WIN")
PEER = Path(__file__).with_name("tiebreak_core_standings.py")
CONSOLE_SCRIPT = """#!{python}
import sys
from tiebreak.cli import main
if __name__ == "__main__":
    sys.exit(main())
"""


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def plain_install(folder: Path, model_only: bool = False) -> Path:
    """A new virtual environment holding the packages a standings command imports, as an
    installer lays them out (bytecode compiled); returns its ``tiebreak`` script.  ``model_only``:
    its ``tiebreak.cli`` never reads the file into columns (the model's reader is timed)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    for package in ("ranking", "tiebreak"):
        shutil.copytree(ROOT / package, Path(purelib) / package, ignore=shutil.ignore_patterns("__pycache__"))
    for module in ("tomli_w", "tiebreak_core"):  # what the model's reader and the yardstick import
        spec = importlib.util.find_spec(module)
        if spec is not None and spec.origin:
            source = Path(spec.origin).parent
            shutil.copytree(source, Path(purelib) / source.name, ignore=shutil.ignore_patterns("__pycache__"))
    if model_only:
        cli = Path(purelib) / "tiebreak" / "cli.py"
        text = cli.read_text(encoding="utf-8")
        if "status = quick_standings(args)" not in text:
            raise SystemExit("benchmarks/standings.py: tiebreak/cli.py no longer calls quick_standings as expected")
        cli.write_text(text.replace("status = quick_standings(args)", "status = None"), encoding="utf-8")
    subprocess.run([str(python), "-m", "compileall", "-q", purelib], check=True, capture_output=True)
    script = folder / "bin" / "tiebreak"
    script.write_text(CONSOLE_SCRIPT.format(python=python), encoding="utf-8")
    script.chmod(0o755)
    return script


def run(command: list[str]) -> tuple[float, float, bytes]:
    """(CPU seconds of the finished child, wall seconds, its standard output)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    output = child.stdout.read() if child.stdout else b""
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status:
        raise SystemExit(f"{' '.join(command)} failed (status {status})")
    return usage.ru_utime + usage.ru_stime, wall, output


def spread(values: list[float], unit: float = 1000.0, suffix: str = " ms") -> str:
    return (f"median {statistics.median(values) * unit:7.1f}{suffix} "
            f"(min {min(values) * unit:.1f}, max {max(values) * unit:.1f})")


def side_by_side(scripts: dict[str, Path], path: Path, repeat: int, peer: bool) -> None:
    """Each of ``scripts`` (name: its ``tiebreak``) and tiebreak-core in turn on ``path``, A B C A B C ..."""
    chain = ",".join(CHAIN)
    commands = {name: [str(script), "standings", str(path), "--json", "--tiebreaks", chain]
                for name, script in scripts.items()}
    if peer:
        commands["tiebreak-core"] = [str(next(iter(scripts.values())).with_name("python")), str(PEER), str(path), chain]
    for command in commands.values():
        run(command)
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    orders: dict[str, list[int]] = {}
    for _ in range(repeat):  # in turn: a drifting machine moves all alike
        for name, command in commands.items():
            cpu, wall, output = run(command)
            results[name].append((cpu, wall))
            orders[name] = [row["id"] for row in json.loads(output)["standings"]]
    print(f"  {path.name}:")
    for name, timings in results.items():
        cpus, walls = [cpu for cpu, _ in timings], [wall for _, wall in timings]
        print(f"    {name:22} CPU {spread(cpus)}   wall {spread(walls)}")
    if not peer:
        return
    for name in scripts:
        pairs = list(zip(results[name], results["tiebreak-core"], strict=True))
        cpu_ratio = statistics.median(theirs_[0] / ours_[0] for ours_, theirs_ in pairs)
        wall_ratio = statistics.median(theirs_[1] / ours_[1] for ours_, theirs_ in pairs)
        if name == "tiebreak":  # the command as shipped: the target
            verdict = " (target 5x: " + ("ok" if cpu_ratio >= 5 and wall_ratio >= 5 else "UNDER TARGET") + ")"
        else:
            verdict = " (for comparison: a file the columns' readers leave to the model)"
        same = orders[name] == orders["tiebreak-core"]
        print(f"    tiebreak-core / {name}, pair by pair: CPU {cpu_ratio:.1f}x, wall {wall_ratio:.1f}x"
              f"{verdict}; same order of players: {'yes' if same else 'NO'}")


def in_process(text: str, repeat: int) -> tuple[float, int]:
    """(best CPU seconds, standings rows) of the file read into columns and ranked, on ``text``, parsing included."""
    best = float("inf")
    rows = 0
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        data = crosstable_standings(read_trf(text, "benchmark.trf"), CHAIN)
        best = min(best, time.process_time() - start)
        rows = len(data["standings"]) if data else 0
    return best, rows


def model_path(text: str) -> float:
    gc.collect()
    start = time.process_time()
    final_standings(parse_trf(text, "benchmark.trf"), Rules(tiebreaks=CHAIN))
    return time.process_time() - start


def memory(text: str) -> tuple[float, float]:
    """(MiB of the tournament model of ``text``, peak MiB of reading it into columns and ranking them)."""
    gc.collect()
    tracemalloc.start()
    model = parse_trf(text, "benchmark.trf")
    size = tracemalloc.get_traced_memory()[0]
    del model
    gc.collect()
    tracemalloc.stop()
    tracemalloc.start()
    crosstable_standings(read_trf(text, "benchmark.trf"), CHAIN)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return size / 2**20, peak / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11, help="runs of each command (default 11)")
    parser.add_argument("--skip-in-process", action="store_true", help="only the whole-process comparison")
    args = parser.parse_args()
    peer = importlib.util.find_spec("tiebreak_core") is not None
    print(f"chain: {', '.join(CHAIN)}; {load()}")
    print(f"python {sys.version.split()[0]} ({sysconfig.get_platform()})")
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        tournament = generate_swiss(1000, 11)
        trf, toml = base / "swiss-1000x11.trf", base / "swiss-1000x11.toml"
        trf.write_text(write_trf(tournament), encoding="utf-8")
        toml.write_text(write_tournament_toml(tournament), encoding="utf-8")
        scripts = {"tiebreak": plain_install(base / "venv"),
                   "read into the model": plain_install(base / "model", model_only=True)}
        print(f"whole process, {args.repeat} runs each, plain install in a new virtual environment"
              + ("" if peer else " (tiebreak-core is not installed: `pip install tiebreak-core` to compare)"))
        for path in (trf, toml):
            side_by_side(scripts, path, args.repeat, peer)
    print(load())
    if args.skip_in_process:
        return 0
    print("in-process, parsing included (read into columns; read into the model for comparison):")
    for players, rounds in ((1000, 11), (9999, 13)):
        tournament = generate_swiss(players, rounds)
        text = write_trf(tournament)
        cpu, rows = in_process(text, 5)
        model_cpu = model_path(text)
        model_mib, peak_mib = memory(text)
        target = "  target 0.4 s: " + ("ok" if cpu < 0.4 else "OVER TARGET") if players > 5000 else ""
        print(f"  {players:>5} x {rounds:<2} ({len(tournament.games):>6} games, {rows} rows): CPU {cpu * 1000:6.1f} ms"
              f" (read into the model {model_cpu * 1000:6.1f} ms){target}")
        print(f"  {'':13}memory: model {model_mib:5.1f} MiB, columns peak {peak_mib:5.1f} MiB "
              f"({peak_mib / model_mib:.2f}x the model; target under 2x)")
    print("cost per game (in-process, read into columns, 11 rounds):")
    for players in (1000, 2000, 4000, 8000):
        tournament = generate_swiss(players, 11)
        cpu, _ = in_process(write_trf(tournament), 3)
        print(f"  {players:>5} players, {len(tournament.games):>6} games: {cpu * 1000:7.1f} ms,"
              f" {cpu / len(tournament.games) * 1e6:5.2f} us per game")
    print(load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
