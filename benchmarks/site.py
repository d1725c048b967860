"""Time the static site build on a large generated Swiss (issue targets).

    python benchmarks/site.py [--players 1000] [--rounds 11] [--dir PATH] [--profile N]

Prints, for a 1,000-player 11-round Swiss (benchmarks/generate.py) in all four languages:
- a full build into an empty folder (target: under 10 s), with the number of pages;
- a rebuild after one result of the last round changed (target: under 1 s), with the number
  of files rendered again (the others are hard-linked from the previous build);
- a rebuild with nothing changed, the floor of any incremental build.
Each build prints where its time went (BuildReport.phases).  The site is written under
``--dir`` (default: the system's temporary folder), so disks and file systems can be compared.
``--profile N`` runs each build under cProfile and prints its N most expensive functions
(cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this folder is first on sys.path, where benchmarks/bot.py would hide the
# ``bot`` package: the repository goes before it, and tests/ for the generators.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generators import generate_swiss

from ranking.model import Result, Tournament
from site_builder import BuildReport, SiteSettings, build_site

LANGUAGES = ("en", "zh", "vi", "es")
SLUG = "open"
FULL_TARGET = 10.0
INCREMENTAL_TARGET = 1.0


def change_one_result(tournament: Tournament, which: int = 0) -> tuple[Tournament, str]:
    """The tournament with the ``which``-th decisive game of the last round turned into a draw."""
    last = max(game.round for game in tournament.games)
    decisive = [(index, game) for index, game in enumerate(tournament.games)
                if game.round == last and game.result in (Result.WHITE_WINS, Result.BLACK_WINS)]
    index, game = decisive[which * len(decisive) // 5]
    games = list(tournament.games)
    games[index] = dataclasses.replace(game, result=Result.DRAW)
    change = f"round {last} board {game.board}: {game.white}-{game.black} {game.result.value} -> 1/2-1/2"
    return dataclasses.replace(tournament, games=tuple(games)), change


def timed_build(tournament: Tournament, settings: SiteSettings, profile: int) -> tuple[BuildReport, float]:
    profiler = cProfile.Profile() if profile else None
    start = time.perf_counter()
    if profiler:
        profiler.enable()
    report = build_site({SLUG: tournament}, settings)
    if profiler:
        profiler.disable()
    seconds = time.perf_counter() - start
    if profiler:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(profile)
        print("\n".join("    " + line for line in text.getvalue().splitlines() if line.strip()))
    return report, seconds


def file_creation_ms(folder: Path, count: int = 500) -> float:
    """What creating one 9 KB file costs in ``folder`` (milliseconds): the file system's share
    of a build, which on a shared virtual machine's disk varies tenfold from hour to hour."""
    probe = folder / "probe"
    probe.mkdir()
    content = b"x" * 9000
    start = time.perf_counter()
    for number in range(count):
        (probe / f"{number}.html").write_bytes(content)
    seconds = time.perf_counter() - start
    for path in probe.iterdir():
        path.unlink()
    probe.rmdir()
    return seconds / count * 1000


def verdict(seconds: float, target: float) -> str:
    return f"target {target:g} s: {'ok' if seconds < target else 'OVER TARGET'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=5, help="results changed, one rebuild each (median)")
    parser.add_argument("--dir", help="folder to build in (default: the temporary folder)")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="profile each build and print its N most expensive functions")
    args = parser.parse_args()
    tournament = generate_swiss(args.players, args.rounds)
    print(f"{args.players} players x {args.rounds} rounds ({len(tournament.games)} games), "
          f"languages {', '.join(LANGUAGES)}")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        settings = SiteSettings(out_dir=Path(folder) / "public", languages=LANGUAGES)
        print(f"building in {folder}: creating a 9 KB file there takes {file_creation_ms(Path(folder)):.2f} ms")
        report, seconds = timed_build(tournament, settings, args.profile)
        print(f"full build:        {seconds:7.2f} s, {report.pages} pages, {len(report.files)} files written"
              f"  {verdict(seconds, FULL_TARGET)}")
        timings = []
        for which in range(args.repeat):  # each time another result, from the top board down
            changed, change = change_one_result(tournament, which)
            report, seconds = timed_build(changed, settings, args.profile)
            timings.append(seconds)
            print(f"one result ({change}):")
            print(f"  rebuild:         {seconds:7.2f} s, {report.rendered} of {report.pages} pages rendered again,"
                  f" {len(report.files)} files written")
            print("  " + ", ".join(f"{name} {value:.2f} s" for name, value in report.phases.items()))
            timed_build(tournament, settings, 0)  # back to the original results
        median = statistics.median(timings)
        print(f"incremental rebuild after one result: median {median:.2f} s of {len(timings)}"
              f"  {verdict(median, INCREMENTAL_TARGET)}")
        report, seconds = timed_build(tournament, settings, 0)
        print(f"nothing changed:   {seconds:7.2f} s, {report.rendered} of {report.pages} pages rendered again")
        print("  " + ", ".join(f"{name} {value:.2f} s" for name, value in report.phases.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
