"""Time the static site build and its publishing on a large generated Swiss (issue targets).

    python benchmarks/site.py [--players 1000] [--rounds 11] [--dir PATH] [--profile N]
                              [--targets dir,dir-copy,git,s3] [--check-only]

Prints, for a 1,000-player 11-round Swiss (tests/generators.py) in all four languages:
- a full build into an empty folder (target: under 10 s), with the number of pages;
- a rebuild after one result of the last round changed (target: under 1 s), with the number
  of files rendered again (the others are hard-linked from the previous build);
- a rebuild with nothing changed, the floor of any incremental build;
- per publisher (``--targets``): a full publish into an empty destination, the publish after
  one result (median, target: under 20 % of the full one) and the publish of an unchanged site
  (target: under 10 %).  ``dir`` links new files from the build (same file system), ``dir-copy``
  copies them as to another file system; ``git`` pushes to a bare repository, ``s3`` to moto's
  S3 server on 127.0.0.1 (when boto3 and moto are installed).
- the ``site-publish-incremental`` check: whole publishes over a store holding the Swiss with its
  last round in progress (``dir`` target), as the command line makes them (a fresh ``python -m
  site_builder publish`` process) and as the bot makes them (its warm site process), in turn:
  the first publish (no build yet, an empty destination; ``--first N``: N times, from nothing
  each time, their median), the publish after one result entered in the store (median of
  ``--repeat`` results, from the top board down; target: at most 20 % of the first) and the
  publish with nothing new (target: at most 10 %); ``--check-only`` runs it alone.
Each build prints where its time went (BuildReport.phases); wall time is printed beside CPU time
(the machine is shared and noisy).  The site is written under
``--dir`` (default: the system's temporary folder), so disks and file systems can be compared.
``--profile N`` runs each build under cProfile and prints its N most expensive functions
(cumulative time).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import dataclasses
import io
import json
import os
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

# Run as a script, this folder is first on sys.path, where benchmarks/bot.py would hide the
# ``bot`` package: the repository goes before it, and tests/ for the generators.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generators import generate_swiss

from ranking import result_event
from ranking.event.model import Result, Tournament
from site_builder import BuildReport, SiteSettings, build_site, publish, settings_from_config
from site_builder.publishers import dir as dir_target
from tiebreak.store import Source, SQLiteStore

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


@contextlib.contextmanager
def target(name: str, folder: Path) -> Iterator[object]:
    """The publish settings of ``name`` with a fresh destination under ``folder``."""
    if name in ("dir", "dir-copy"):
        settings = settings_from_config({"target": "dir", "path": str(folder / f"www-{name}")}, folder)
        if name == "dir-copy":  # as if the build were on another file system: new files are copied
            real = dir_target._digests
            dir_target._digests = lambda out, files: (real(out, files)[0], False)
            try:
                yield settings
            finally:
                dir_target._digests = real
        else:
            yield settings
    elif name == "git":
        bare = folder / "pages.git"
        subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
        yield settings_from_config({"target": "git", "remote": str(bare)}, folder)
    elif name == "s3":
        import logging

        import boto3  # optional: only when s3 is measured
        from moto.server import ThreadedMotoServer  # optional: only when s3 is measured
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        for key, value in {"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
                           "AWS_DEFAULT_REGION": "us-east-1", "NO_PROXY": "127.0.0.1"}.items():
            os.environ[key] = value
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
        host, port = server.get_host_and_port()
        endpoint = f"http://{host}:{port}"
        boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1").create_bucket(Bucket="results")
        try:
            yield settings_from_config({"target": "s3", "bucket": "results", "endpoint_url": endpoint,
                                        "region": "us-east-1"}, folder)
        finally:
            server.stop()
    else:
        raise SystemExit(f"--targets: unknown target {name!r}")


def timed(action: Callable[[], object]) -> tuple[object, float, float]:
    """(what ``action`` returned, wall seconds, CPU seconds of this process and its children)."""
    def cpu() -> float:
        own, children = os.times(), os.times()
        return own.user + own.system + children.children_user + children.children_system
    started, before = time.perf_counter(), cpu()
    value = action()
    return value, time.perf_counter() - started, cpu() - before


def measure_publishing(name: str, tournament: Tournament, settings: SiteSettings, folder: Path,
                       repeat: int) -> None:
    """A full publish, the publish after one result (median) and an unchanged publish to ``name``."""
    quiet = lambda message: None  # noqa: E731
    with target(name, folder) as publishing:
        build_site({SLUG: tournament}, settings)
        report, full, full_cpu = timed(lambda: publish(settings.out_dir, publishing, log=quiet))
        print(f"{name:8s} full publish:      {full:7.2f} s (CPU {full_cpu:.2f} s), {report}")
        after = []
        for which in range(repeat):
            changed, _ = change_one_result(tournament, which)
            build_site({SLUG: changed}, settings)
            report, seconds, cpu = timed(lambda: publish(settings.out_dir, publishing, log=quiet))
            after.append(seconds)
            print(f"{name:8s}   after one result: {seconds:7.2f} s (CPU {cpu:.2f} s), {report.uploaded} uploaded, "
                  f"{report.deleted} deleted, {report.unchanged} unchanged")
            build_site({SLUG: tournament}, settings)
            publish(settings.out_dir, publishing, log=quiet)
        one = statistics.median(after)
        report, same, same_cpu = timed(lambda: publish(settings.out_dir, publishing, log=quiet))
        print(f"{name:8s} one result: median {one:.2f} s = {one / full:.0%} of the full publish "
              f"(target 20 %: {'ok' if one < 0.2 * full else 'OVER TARGET'}); unchanged: {same:.2f} s "
              f"(CPU {same_cpu:.2f} s) = {same / full:.0%} "
              f"(target 10 %: {'ok' if same < 0.1 * full else 'OVER TARGET'}), {report.detail or report}")


def measure_publish_incremental(tournament: Tournament, folder: Path, repeat: int, first: int = 1) -> None:
    """The ``site-publish-incremental`` check: a publish as the command line makes it (a fresh
    ``python -m site_builder publish`` process) and as the bot makes it (its warm site process,
    ``SiteServer``: a forked child per publish), side by side, in turn, each over a store of its
    own holding ``tournament`` with its last round in progress (board 1 has its result, the
    others not yet), to a ``dir`` target: the first publish (``first`` times, each from nothing:
    the build, its caches and the destination removed; their median is the yardstick), one after
    each of ``repeat`` results entered in the store, one with nothing new."""
    from bot.site_trigger import SiteServer

    last = max(game.round for game in tournament.games)
    boards = sorted((game for game in tournament.games if game.round == last), key=lambda game: game.board)
    games = tuple(dataclasses.replace(game, result=None) if game.round == last and game.board != boards[0].board
                  else game for game in tournament.games)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules keep their bytecode
    ways = {}
    for way in ("command", "server"):
        config = folder / way / "config.toml"
        config.parent.mkdir()
        config.write_text("\n".join([
            "[storage]", 'path = "store.sqlite3"', "[site]", 'out_dir = "public"',
            f"languages = {json.dumps(LANGUAGES)}", 'base_url = "https://results.example.org/"',
            "[publish]", 'target = "dir"', 'path = "www"', ""]), encoding="utf-8")
        with SQLiteStore(config.parent / "store.sqlite3") as store:
            store.create(SLUG, dataclasses.replace(tournament, games=games), Source("cli:benchmark"))
        ways[way] = config
    server = SiteServer("publish", str(ways["server"]))
    server.start()  # as the bot starts it: warm before the first publish

    def publish_once(way: str) -> tuple[float, float, str]:
        """(wall seconds, CPU seconds, what it said) of one publish made ``way``."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        if way == "server":
            line = server(frozenset({SLUG}))
        else:
            line = subprocess.run([sys.executable, "-m", "site_builder", "publish", "--config", str(ways[way])],
                                  capture_output=True, text=True, check=True, cwd=ways[way].parent).stdout.strip()
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = server.cpu if way == "server" else (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return seconds, cpu, line

    def both(step: int) -> dict[str, tuple[float, float, str]]:
        order = ("command", "server") if step % 2 == 0 else ("server", "command")
        return {way: publish_once(way) for way in order}

    def from_nothing() -> None:
        """Remove what a publish left beside each store: the build, its caches, the destination;
        then write out what the system holds in memory (the thousands of files just made and
        removed), so that the next first publish does not wait for the last one's disk."""
        for config in ways.values():
            for made in config.parent.iterdir():
                if made.name not in ("config.toml", "store.sqlite3") and not made.name.startswith("store.sqlite3-"):
                    shutil.rmtree(made) if made.is_dir() and not made.is_symlink() else made.unlink()
        os.sync()

    try:
        firsts = []
        for turn in range(first):
            if turn:
                from_nothing()
            firsts.append(both(turn))
        middle = {way: (statistics.median(figures[way][0] for figures in firsts),
                        statistics.median(figures[way][1] for figures in firsts), firsts[-1][way][2]) for way in ways}
        steps = [("first publish" if first == 1 else f"first publish, median of {first}", middle)]
        if first > 1:
            for way in ways:
                print(f"first publish ({way}), {first} times: " + ", ".join(
                    f"{figures[way][0]:.2f} s ({figures[way][1]:.2f} s)" for figures in firsts))
        for step, board in enumerate((boards[1 + which * (len(boards) - 1) // repeat] for which in range(repeat)),
                                     start=1):
            for config in ways.values():
                with SQLiteStore(config.parent / "store.sqlite3") as store:
                    store.append(SLUG, lambda state, board=board: [result_event(state, last, board.board,
                                                                                  board.result)],
                                 Source("cli:benchmark"))
            steps.append((f"after R{last} B{board.board} {board.result.value}", both(step)))
        steps.append(("nothing new", both(repeat + 1)))
    finally:
        server.close()
    print(f"site-publish-incremental, dir target ({os.getloadavg()[0]:.2f} load), wall (CPU) of each publish:")
    for what, figures in steps:
        print(f"  {what}: " + "; ".join(f"{way} {wall:.2f} s ({cpu:.2f} s): {line.split('; ')[0]}"
                                        for way, (wall, cpu, line) in figures.items()))
    for way in ways:
        full, full_cpu = steps[0][1][way][:2]
        one = statistics.median(figures[way][0] for _, figures in steps[1:-1])
        one_cpu = statistics.median(figures[way][1] for _, figures in steps[1:-1])
        same, same_cpu = steps[-1][1][way][:2]
        print(f"site-publish-incremental ({way}): one result, median {one:.2f} s = {one / full:.0%} of the first "
              f"publish, CPU {one_cpu / full_cpu:.0%} (target 20 %: {'ok' if one <= 0.2 * full else 'MISSED'}); "
              f"nothing new {same:.2f} s = {same / full:.0%}, CPU {same_cpu / full_cpu:.0%} "
              f"(target 10 %: {'ok' if same <= 0.1 * full else 'MISSED'})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=5, help="results changed, one rebuild each (median)")
    parser.add_argument("--dir", help="folder to build in (default: the temporary folder)")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="profile each build and print its N most expensive functions")
    parser.add_argument("--targets", default="dir,dir-copy,git,s3",
                        help="publishers to measure, comma-separated ('' for none)")
    parser.add_argument("--check-only", action="store_true", help="only the site-publish-incremental check")
    parser.add_argument("--first", type=int, default=1, metavar="N",
                        help="the check's first publish made N times, from nothing each time (median)")
    args = parser.parse_args()
    tournament = generate_swiss(args.players, args.rounds)
    print(f"{args.players} players x {args.rounds} rounds ({len(tournament.games)} games), "
          f"languages {', '.join(LANGUAGES)}; machine load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.check_only:
        with tempfile.TemporaryDirectory(dir=args.dir) as folder:
            measure_publish_incremental(tournament, Path(folder), args.repeat, args.first)
        return 0
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        settings = SiteSettings(out_dir=Path(folder) / "public", languages=LANGUAGES)
        print(f"building in {folder}: creating a 9 KB file there takes {file_creation_ms(Path(folder)):.2f} ms")
        (report, seconds), _, cpu = timed(lambda: timed_build(tournament, settings, args.profile))
        print(f"full build:        {seconds:7.2f} s (CPU {cpu:.2f} s), {report.pages} pages, "
              f"{len(report.files)} files written  {verdict(seconds, FULL_TARGET)}")
        timings = []
        for which in range(args.repeat):  # each time another result, from the top board down
            changed, change = change_one_result(tournament, which)
            (report, seconds), _, cpu = timed(lambda changed=changed: timed_build(changed, settings, args.profile))
            timings.append(seconds)
            print(f"one result ({change}):")
            print(f"  rebuild:         {seconds:7.2f} s (CPU {cpu:.2f} s), {report.rendered} of {report.pages} pages"
                  f" rendered again, {len(report.files)} files written")
            print("  " + ", ".join(f"{name} {value:.2f} s" for name, value in report.phases.items()))
            timed_build(tournament, settings, 0)  # back to the original results
        median = statistics.median(timings)
        print(f"incremental rebuild after one result: median {median:.2f} s of {len(timings)}"
              f"  {verdict(median, INCREMENTAL_TARGET)}")
        (report, seconds), _, cpu = timed(lambda: timed_build(tournament, settings, 0))
        print(f"nothing changed:   {seconds:7.2f} s (CPU {cpu:.2f} s), {report.rendered} of {report.pages} pages "
              "rendered again")
        print("  " + ", ".join(f"{name} {value:.2f} s" for name, value in report.phases.items()))
        for name in filter(None, args.targets.split(",")):
            try:
                measure_publishing(name, tournament, settings, Path(folder), args.repeat)
            except ImportError as error:
                print(f"{name}: not measured ({error})")
        measure_publish_incremental(tournament, Path(folder), args.repeat, args.first)
    return 0


if __name__ == "__main__":
    sys.exit(main())
