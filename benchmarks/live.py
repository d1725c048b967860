"""Time what a spectator waits for: a result message to the bot until the published page shows it.

    python benchmarks/live.py [--players 300] [--rounds 11] [--results 20] [--every SECONDS]
                              [--delay 0] [--dir DIR] [--process]

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
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]  # not benchmarks/bot.py
sys.path[0:0] = [str(ROOT), str(ROOT / "tests")]

import fake_telegram  # noqa: E402
from fake_telegram import FakeTelegram  # noqa: E402
from generators import generate_swiss  # noqa: E402

from bot import arbiters  # noqa: E402
from bot.service import BotService, BotSettings  # noqa: E402
from bot.site_trigger import DebouncedBuild, SiteCommand, SiteServer  # noqa: E402
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


def write_config(folder: Path, delay: float) -> Path:
    config = folder / "config.toml"
    config.write_text("\n".join([
        "[storage]", 'path = "store.sqlite3"',
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


class TimedCommand:
    """``bot.arbiters.text`` (the command behind a result message, run in a worker thread), timed:
    wall and CPU seconds of each call (``time.thread_time``: that thread's own)."""

    def __init__(self) -> None:
        self.method = arbiters.text
        self.calls: list[tuple[float, float]] = []

    def __call__(self, *args, **kwargs):
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return self.method(*args, **kwargs)
        finally:
            self.calls.append((time.perf_counter() - wall, time.thread_time() - cpu))


async def run(args: argparse.Namespace, folder: Path) -> tuple[list[dict], list[dict], list[tuple[float, float]]]:
    """The results' figures, the builds' figures, and the result command's (wall, CPU) seconds."""
    tournament, entries = bot_benchmark.open_boards(generate_swiss(args.players, args.rounds), args.results)
    if len({number for number, _, _ in entries}) > 1:
        raise SystemExit(f"--results {args.results}: the last round has fewer boards")
    config = write_config(folder, args.delay)
    with SQLiteStore(folder / "store.sqlite3") as store:
        store.create(SLUG, tournament, Source("cli:benchmark"))
    site = TimedSite(SiteCommand("publish", str(config)) if args.process else SiteServer("publish", str(config)))
    trigger = DebouncedBuild(site, args.delay)  # as bot.__main__.site_trigger makes it, timed
    trigger.start()
    started = time.perf_counter()
    site()  # the full build and publish
    print(f"full build and publish: {time.perf_counter() - started:.2f} s ({site.runs[0]['summary']})")
    site.runs.clear()
    watcher = PageWatcher(folder / "www" / SLUG / f"round-{entries[0][0]}.html")
    results = []
    command = arbiters.text = TimedCommand()  # the handlers look the command up at each update
    with SQLiteStore(folder / "store.sqlite3") as store, FakeTelegram(TOKEN) as server:
        service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})), on_change=trigger.request)
        app = bot_benchmark.application(server, service, rate_limiter=True)
        async with fake_telegram.running(app, poll_timeout=10) as errors:
            await asyncio.to_thread(bot_benchmark.drive, server, [("/round", "<b>")])  # warm up

            def send(number: int, board: int, written: str) -> dict:
                watcher.expect(board, written)
                pushed = time.perf_counter()
                reply = bot_benchmark.drive(server, [(f"R{number} B{board} {written}",
                                                      f"Round {number}, board {board}:")])[0]
                return {"number": number, "board": board, "written": written, "pushed": pushed, "reply": reply}

            if args.every:  # on a schedule: results arrive during builds
                threads, sent = [], []
                started_at = time.perf_counter()
                for index, entry in enumerate(entries):
                    await asyncio.sleep(max(0.0, started_at + index * args.every - time.perf_counter()))
                    thread = threading.Thread(target=lambda entry=entry: sent.append(send(*entry)))
                    thread.start()
                    threads.append(thread)
                for thread in threads:
                    await asyncio.to_thread(thread.join)
                results = sorted(sent, key=lambda figures: figures["pushed"])
                for figures in results:
                    figures["published"] = await asyncio.to_thread(watcher.wait, figures["board"]) - figures["pushed"]
            else:  # one at a time, each once the page shows the one before
                for entry in entries:
                    figures = await asyncio.to_thread(send, *entry)
                    figures["published"] = await asyncio.to_thread(watcher.wait, figures["board"]) - figures["pushed"]
                    results.append(figures)
                    await asyncio.sleep(0.2)
        await asyncio.to_thread(trigger.flush, 120)
        trigger.close()
    watcher.close()
    if errors:
        raise RuntimeError(f"the bot's handlers raised {len(errors)} errors, the first: {errors[0]!r}")
    arbiters.text = command.method
    return results, site.runs, command.calls[1:]  # not the warm-up's


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
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    fake_telegram._Handler.disable_nagle_algorithm = True
    # As installed, Python keeps each module's bytecode: the site process does not compile them
    # again every time (an environment that sets PYTHONDONTWRITEBYTECODE would make it).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    pace = f"a result every {args.every:g} s" if args.every else "one result at a time"
    print(f"{args.players} players x {args.rounds} rounds, languages {', '.join(LANGUAGES)}, {pace}, build_delay "
          f"{args.delay:g} s, dir publisher, {'a process per build' if args.process else 'warm site server'}; "
          f"machine load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        print(f"creating a 9 KB file in {folder} takes {site_benchmark.file_creation_ms(Path(folder)):.2f} ms "
              "(a shared machine's disk varies tenfold: the first result of a round writes every player's pages)")
        results, builds, calls = asyncio.run(run(args, Path(folder)))
    for figures in results:
        print(f"R{figures['number']} B{figures['board']} {figures['written']}: reply {figures['reply'] * 1000:.0f} ms, "
              f"published {figures['published']:.2f} s")
    for build in builds:
        print(f"build {'--only ' + ','.join(build['only']) if build['only'] else '(all)'}: "
              f"{build['ended'] - build['started']:.2f} s ({build['written']} of {build['files']} files written, "
              f"build {build['build']:.2f}, publish {build['publish']:.2f}), CPU {build['cpu']:.2f} s")
    replies = [figures["reply"] for figures in results]
    published = [figures["published"] for figures in results]
    walls = [build["ended"] - build["started"] for build in builds]
    cpus = [build["cpu"] for build in builds]
    print(f"{len(results)} results, {len(builds)} builds; machine load {os.getloadavg()[0]:.2f}")
    print(f"message -> reply: p50 {percentile(replies, 0.5) * 1000:.0f} ms, "
          f"p95 {percentile(replies, 0.95) * 1000:.0f} ms (the result command: median "
          f"{statistics.median(wall for wall, _ in calls) * 1000:.1f} ms wall, "
          f"{statistics.median(cpu for _, cpu in calls) * 1000:.1f} ms CPU)")
    print(f"message -> published file: p50 {percentile(published, 0.5):.2f} s, "
          f"p95 {percentile(published, 0.95):.2f} s, max {max(published):.2f} s")
    print(f"a build and publish: median {statistics.median(walls):.2f} s wall, {statistics.median(cpus):.2f} s CPU; "
          f"the first of the round {walls[0]:.2f} s wall, {cpus[0]:.2f} s CPU")
    ok = percentile(published, 0.5) < TARGET_P50 and percentile(published, 0.95) < TARGET_P95
    print(f"target p50 < {TARGET_P50:g} s and p95 < {TARGET_P95:g} s from message to published file: "
          f"{'ok' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    threading.current_thread().name = "benchmark"
    sys.exit(main())
