"""Time what a spectator waits for: a result message to the bot until the published page shows it.

    python benchmarks/live.py [--players 300] [--rounds 11] [--results 20] [--every SECONDS]
                              [--delay 0] [--dir DIR] [--process]
                              [--previous REVISION|none] [--previous-delay 2]

The real bot (python-telegram-bot, long polling) runs against the fake Bot API server of
tests/fake_telegram.py on 127.0.0.1, over a SQLite store holding a generated Swiss (300
players x 11 rounds, the last round paired and without results), with the site in all four
languages and ``[publish] target = "dir"``.  The bot builds and publishes as it does in
production (``bot.site_trigger.DebouncedBuild``): at once on a result, the results that arrive during
a build in one next build (``[site].build_delay``, ``--delay``: the least time between two
builds' starts, default 0), only the tournament that changed (``--only``), through its warm
site process (``python -m site_builder serve``, a forked child per build); ``--process`` runs
a ``python -m site_builder publish`` process per build instead.

The site is built and published once first (the full build), then ``--results`` result
messages are sent, every one timed, the first of the round included (it changes every page:
the standings move from round 10 to round 11): one at a time, each once the page shows the one
before (default), or one every ``--every`` seconds whatever the site is doing, so that results
arrive during builds.  For each message:

- reply: the update until the bot's confirmation reaches the server;
- published: the update until the published round page (``www/<slug>/round-11.html``) shows
  the result.

Side by side, in one run: unless ``--previous none``, the results alternate between this way
and the previous one, the site as Tiebreak built it before issue 25 (``--previous``, default
the commit before it, taken from this repository with ``git archive``): its own warm site
process and its trailing debounce (``--previous-delay``, its default 2 s after the last result)
rebuilding every tournament, publishing into a folder of its own from the same store.  Each way
builds its own site, first in full, then after each of its results (which also holds the
other way's result before it), so both see the round's first result (which changed every
player's page before the players' pages showed the last complete round's place).  The
bot (and so its reply) is this one for both.  ``--every`` needs ``--previous none``.

Printed: each result's figures and each build's (files written, build, publish and site
process seconds, CPU seconds of the build, its workers and publisher), then p50 and p95 of
both, CPU time beside wall time (the site builds' and the bot's own), and the verdict against
the targets: message to published file p50 under 1 s and p95 under 1.5 s.  The site process
keeps its modules' bytecode, as an installed Tiebreak does.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import logging
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]  # not benchmarks/bot.py
sys.path[0:0] = [str(ROOT), str(ROOT / "tests")]

import fake_telegram  # noqa: E402
from fake_telegram import FakeTelegram  # noqa: E402
from generators import generate_swiss  # noqa: E402

from bot import entering  # noqa: E402
from bot.service import BotService, BotSettings  # noqa: E402
from bot.site_trigger import DebouncedBuild, SiteCommand, SiteServer  # noqa: E402
from ranking.event.model import Seeding  # noqa: E402
from tiebreak.store import Source, SQLiteStore  # noqa: E402

_spec = importlib.util.spec_from_file_location("bot_benchmark", HERE / "bot.py")
bot_benchmark = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bot_benchmark)  # its open_boards and application: the same bot set-up
_spec = importlib.util.spec_from_file_location("site_benchmark", HERE / "site.py")
site_benchmark = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_benchmark)  # its file_creation_ms: what the disk costs now

TOKEN = bot_benchmark.TOKEN
CHIEF = bot_benchmark.CHIEF
SLUG = bot_benchmark.SLUG
TARGET_P50, TARGET_P95 = 1.0, 1.5
#: the code before issue 25 (a trailing 2 s debounce, every tournament rebuilt at each build)
PREVIOUS = "fcc02258f9030e1c66acb48d02357bb07f8254ae"
LANGUAGES = ["en", "zh", "vi", "es"]
_TIMES = re.compile(r"built (\d+) files \((\d+) written\) in ([\d.]+) s; .* in ([\d.]+) s")
_BOARD = re.compile(r'<th scope="row" class="board">(\d+)</th>.*?<td class="result">([^<]*)</td>', re.S)


class TimedSite:
    """The bot's site build (``SiteServer``, or ``SiteCommand`` with ``--process``), timed: when
    it started and ended, what it said (its files, build and publish seconds) and its CPU time
    (the server's figure for its forked build, or getrusage of the finished process)."""

    def __init__(self, site: SiteServer | SiteCommand) -> None:
        self.site = site
        self.runs: list[dict] = []

    def __call__(self, only: frozenset[str] = frozenset()) -> str:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        summary = self.site(only)
        ended = time.perf_counter()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (self.site.cpu if isinstance(self.site, SiteServer)
               else (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        found = _TIMES.search(summary)
        self.runs.append({"started": started, "ended": ended, "summary": summary, "cpu": cpu, "only": sorted(only),
                          "files": int(found.group(1)) if found else 0, "written": int(found.group(2)) if found else 0,
                          "build": float(found.group(3)) if found else 0.0,
                          "publish": float(found.group(4)) if found else 0.0})
        return summary

    def start(self) -> None:
        if isinstance(self.site, SiteServer):
            self.site.start()

    def close(self) -> None:
        if isinstance(self.site, SiteServer):
            self.site.close()


class PageWatcher:
    """Watches the published round page (a new file at each publish: its inode changes) and
    notes when each awaited board first shows its result."""

    def __init__(self, page: Path) -> None:
        self.page = page
        self.awaited: dict[int, str] = {}
        self.seen: dict[int, float] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="page-watcher", daemon=True)
        self._thread.start()

    def expect(self, board: int, result: str) -> None:
        with self._lock:
            self.awaited[board] = result

    def wait(self, board: int, timeout: float = 120.0) -> float:
        deadline = time.perf_counter() + timeout
        while board not in self.seen:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"the page never showed board {board}'s result")
            time.sleep(0.002)
        return self.seen[board]

    def _watch(self) -> None:
        known = None
        while not self._stop.is_set():
            try:
                status = os.stat(self.page)
                stamp = (status.st_ino, status.st_mtime_ns)
                if stamp != known:
                    now = time.perf_counter()
                    shown = dict(_BOARD.findall(self.page.read_text(encoding="utf-8")))
                    known = stamp
                    with self._lock:
                        for board, result in self.awaited.items():
                            if board not in self.seen and shown.get(str(board), "").strip() == result:
                                self.seen[board] = now
            except OSError:
                pass
            time.sleep(0.002)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


def write_config(folder: Path, delay: float, store: Path) -> Path:
    folder.mkdir(exist_ok=True)
    config = folder / "config.toml"
    config.write_text("\n".join([
        "[storage]", f"path = {json.dumps(str(store))}",
        "[site]", 'out_dir = "public"', f"languages = {json.dumps(LANGUAGES)}", f"build_delay = {delay}",
        'base_url = "https://results.example.org/"',
        "[publish]", 'target = "dir"', 'path = "www"', ""]), encoding="utf-8")
    return config


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (0-1), by linear interpolation between the closest ranks."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * share
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass
class Way:
    """One way of building the site after a result: its timed site process, its trigger (what
    ``BotService.on_change`` calls), the published round page's watcher and its results."""

    name: str
    site: TimedSite
    trigger: object  # a DebouncedBuild, this one's or the previous code's
    folder: Path
    watcher: PageWatcher | None = None
    results: list[dict] = field(default_factory=list)
    full: float = 0.0  # the full build and publish, seconds
    full_cpu: float = 0.0
    full_files: int = 0  # the files of the full build


def previous_code(revision: str, folder: Path) -> Path:
    """This repository's files at ``revision`` (``git archive``), unpacked in ``folder``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision], capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"--previous {revision}: {archive.stderr.decode(errors='replace').strip()} "
                         "(it needs a git clone; --previous none measures this way alone)")
    folder.mkdir()
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def previous_way(args: argparse.Namespace, folder: Path) -> Way:
    """The site as the code at ``--previous`` built it after a result: its own warm site
    process (``python -m site_builder serve`` run from that code) behind its own debounce."""
    code = previous_code(args.previous, folder / "previous-code")
    spec = importlib.util.spec_from_file_location("previous_site_trigger", code / "bot" / "site_trigger.py")
    trigger_module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # its dataclasses look it up
    spec.loader.exec_module(trigger_module)
    config = write_config(folder / "previous", args.previous_delay, folder / "store.sqlite3")
    program = (sys.executable, "-c", f"import runpy, sys; sys.path.insert(0, {str(code)!r}); "
               "runpy.run_module('site_builder', run_name='__main__', alter_sys=True)")
    site = TimedSite(SiteServer("publish", str(config), program=program))
    return Way(f"before ({args.previous[:7]})", site, trigger_module.DebouncedBuild(site, args.previous_delay),
               folder / "previous")


class TimedCommand:
    """``bot.entering.text`` (the command behind a result message, run in a worker thread), timed:
    wall and CPU seconds of each call (``time.thread_time``: that thread's own)."""

    def __init__(self) -> None:
        self.method = entering.text
        self.calls: list[tuple[float, float]] = []

    def __call__(self, *args, **kwargs):
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return self.method(*args, **kwargs)
        finally:
            self.calls.append((time.perf_counter() - wall, time.thread_time() - cpu))


async def run(args: argparse.Namespace, folder: Path, ways: list[Way]) -> list[tuple[float, float]]:
    """Time each result on its way (``ways[i % len(ways)]`` takes the i-th), filling each way's
    results and its site's runs; returns the result command's (wall, CPU) seconds."""
    tournament, entries = bot_benchmark.open_boards(generate_swiss(args.players, args.rounds), args.results)
    # Seeded by rating, as a rated open is: the stored file then has no ``seeding`` key, which
    # the code before issue 20 (the default --previous) would refuse.
    tournament = replace(tournament, seeding=Seeding.RATING)
    if len({number for number, _, _ in entries}) > 1:
        raise SystemExit(f"--results {args.results}: the last round has fewer boards")
    with SQLiteStore(folder / "store.sqlite3") as store:
        store.create(SLUG, tournament, Source("cli:benchmark"))
    for way in ways:
        way.site.start()
        started = time.perf_counter()
        try:
            way.site()  # the full build and publish
        except RuntimeError as error:  # e.g. a store of a newer schema than that code knows
            raise SystemExit(f"{way.name}: {error}; --previous none measures this way alone") from None
        way.full, way.full_cpu = time.perf_counter() - started, way.site.runs[0]["cpu"]
        way.full_files = way.site.runs[0]["files"]
        if way.full_files < ways[0].full_files // 2:  # (a page more or less in a later version is fine)
            raise SystemExit(f"{way.name}: {way.site.runs[0]['summary']}: that code does not read the whole "
                             "store (a newer format); --previous none measures this way alone")
        print(f"{way.name}: full build and publish {way.full:.2f} s, CPU {way.full_cpu:.2f} s "
              f"({way.site.runs[0]['summary']})")
        way.site.runs.clear()
        way.watcher = PageWatcher(way.folder / "www" / SLUG / f"round-{entries[0][0]}.html")
    current = [ways[0]]

    def changed(slug: str) -> None:  # BotService.on_change: the way whose turn it is
        current[0].trigger.request(slug)

    command = entering.text = TimedCommand()  # the handlers look the command up at each update
    with SQLiteStore(folder / "store.sqlite3") as store, FakeTelegram(TOKEN) as server:
        service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})), on_change=changed)
        app = bot_benchmark.application(server, service, rate_limiter=True)
        async with fake_telegram.running(app, poll_timeout=10) as errors:
            await asyncio.to_thread(bot_benchmark.drive, server, [("/round", "<b>")])  # warm up

            def send(way: Way, number: int, board: int, written: str) -> dict:
                way.watcher.expect(board, written)
                pushed = time.perf_counter()
                reply = bot_benchmark.drive(server, [(f"R{number} B{board} {written}",
                                                      f"Round {number}, board {board}:")])[0]
                return {"number": number, "board": board, "written": written, "pushed": pushed, "reply": reply}

            way = ways[0]
            if args.every:  # on a schedule: results arrive during builds (one way)
                threads, sent = [], []
                started_at = time.perf_counter()
                for index, entry in enumerate(entries):
                    await asyncio.sleep(max(0.0, started_at + index * args.every - time.perf_counter()))
                    thread = threading.Thread(target=lambda entry=entry: sent.append(send(way, *entry)))
                    thread.start()
                    threads.append(thread)
                for thread in threads:
                    await asyncio.to_thread(thread.join)
                for figures in sorted(sent, key=lambda figures: figures["pushed"]):
                    figures["published"] = (await asyncio.to_thread(way.watcher.wait, figures["board"])
                                            - figures["pushed"])
                    way.results.append(figures)
            else:  # one at a time, each once its way's page shows the one before, the ways in turn
                for index, entry in enumerate(entries):
                    way = current[0] = ways[index % len(ways)]
                    figures = await asyncio.to_thread(send, way, *entry)
                    figures["published"] = (await asyncio.to_thread(way.watcher.wait, figures["board"])
                                            - figures["pushed"])
                    way.results.append(figures)
                    await asyncio.sleep(0.2)
        for way in ways:
            await asyncio.to_thread(way.trigger.flush, 120)
            way.trigger.close()
    for way in ways:
        way.watcher.close()
    entering.text = command.method
    if errors:
        raise RuntimeError(f"the bot's handlers raised {len(errors)} errors, the first: {errors[0]!r}")
    return command.calls[1:]  # not the warm-up's


def report(way: Way) -> dict[str, str]:
    """The way's figures, worded for the side-by-side table."""
    replies = [figures["reply"] for figures in way.results]
    published = [figures["published"] for figures in way.results]
    walls = [build["ended"] - build["started"] for build in way.site.runs]
    cpus = [build["cpu"] for build in way.site.runs]
    return {
        "results (builds)": f"{len(way.results)} ({len(walls)})",
        "message -> reply, p50 / p95": f"{percentile(replies, 0.5) * 1000:.0f} / "
                                       f"{percentile(replies, 0.95) * 1000:.0f} ms",
        "message -> published file, p50 / p95 / max": f"{percentile(published, 0.5):.2f} / "
                                                      f"{percentile(published, 0.95):.2f} / {max(published):.2f} s",
        "the round's first result, message -> published": f"{way.results[0]['published']:.2f} s",
        "a build and publish, median wall (CPU)": f"{statistics.median(walls):.2f} s ({statistics.median(cpus):.2f} s)",
        "the round's first build, wall (CPU)": f"{walls[0]:.2f} s ({cpus[0]:.2f} s)",
        "full build and publish, wall (CPU)": f"{way.full:.2f} s ({way.full_cpu:.2f} s)",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--results", type=int, default=20, help="result messages of the last round, all timed")
    parser.add_argument("--every", type=float, default=0.0, metavar="SECONDS",
                        help="send a result every SECONDS whatever the site does (default: one at a time)")
    parser.add_argument("--delay", type=float, default=0.0, help="[site].build_delay (default 0)")
    parser.add_argument("--dir", help="folder for the store, the site and the published copy")
    parser.add_argument("--process", action="store_true",
                        help="a fresh python -m site_builder publish per build, not the warm server")
    parser.add_argument("--previous", default=PREVIOUS, metavar="REVISION",
                        help="the code the results alternate with (default: the commit before issue 25); "
                             "none: this way alone")
    parser.add_argument("--previous-delay", type=float, default=2.0, metavar="SECONDS",
                        help="the previous way's debounce after the last result (its default, 2)")
    args = parser.parse_args(argv)
    if args.previous == "none":
        args.previous = None
    if args.every and args.previous:
        parser.error("--every measures one way: add --previous none")
    logging.basicConfig(level=logging.WARNING)
    fake_telegram._Handler.disable_nagle_algorithm = True
    # As installed, Python keeps each module's bytecode: the site process does not compile them
    # again every time (an environment that sets PYTHONDONTWRITEBYTECODE would make it).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    pace = f"a result every {args.every:g} s" if args.every else "one result at a time"
    print(f"{args.players} players x {args.rounds} rounds, languages {', '.join(LANGUAGES)}, {pace}, build_delay "
          f"{args.delay:g} s, dir publisher, {'a process per build' if args.process else 'warm site server'}"
          f"{f', in turn with {args.previous[:7]} (build_delay {args.previous_delay:g} s)' if args.previous else ''}")
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}; "
          f"{os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        folder = Path(name)
        print(f"creating a 9 KB file in {folder} takes {site_benchmark.file_creation_ms(folder):.2f} ms "
              "(a shared machine's disk varies tenfold: every file a result changes is created anew)")
        config = write_config(folder, args.delay, folder / "store.sqlite3")
        site = TimedSite(SiteCommand("publish", str(config)) if args.process else SiteServer("publish", str(config)))
        ways = [Way("now", site, DebouncedBuild(site, args.delay), folder)]  # as bot.__main__.site_trigger makes it
        if args.previous:
            ways.append(previous_way(args, folder))
        calls = asyncio.run(run(args, folder, ways))
    for way in ways:
        for figures in way.results:
            print(f"{way.name}: R{figures['number']} B{figures['board']} {figures['written']}: reply "
                  f"{figures['reply'] * 1000:.0f} ms, published {figures['published']:.2f} s")
        for build in way.site.runs:
            print(f"{way.name}: build {'--only ' + ','.join(build['only']) if build['only'] else '(all)'}: "
                  f"{build['ended'] - build['started']:.2f} s ({build['written']} of {build['files']} files written, "
                  f"build {build['build']:.2f}, publish {build['publish']:.2f}), CPU {build['cpu']:.2f} s"
                  if build["files"] else f"{way.name}: build: {build['ended'] - build['started']:.2f} s "
                  f"({build['summary']}), CPU {build['cpu']:.2f} s")
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print(f"the result command: median {statistics.median(wall for wall, _ in calls) * 1000:.1f} ms wall, "
          f"{statistics.median(cpu for _, cpu in calls) * 1000:.1f} ms CPU")
    figures = [report(way) for way in ways]
    width = max(map(len, figures[0]))
    print(f"{'':{width}}  " + "  ".join(f"{way.name:>24}" for way in ways))
    for line in figures[0]:
        print(f"{line:{width}}  " + "  ".join(f"{column[line]:>24}" for column in figures))
    published = [figures["published"] for figures in ways[0].results]
    ok = percentile(published, 0.5) < TARGET_P50 and percentile(published, 0.95) < TARGET_P95
    print(f"target p50 < {TARGET_P50:g} s and p95 < {TARGET_P95:g} s from message to published file (now): "
          f"{'ok' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    threading.current_thread().name = "benchmark"
    sys.exit(main())
