"""Time what a spectator waits for: a result message to the bot until the public page shows it.

    python benchmarks/live.py [--players 1000] [--rounds 11] [--results 5] [--delay 2] [--dir DIR] [--process]

The real bot (python-telegram-bot, long polling) runs against the fake Bot API server of
tests/fake_telegram.py on 127.0.0.1, over a SQLite store holding a generated Swiss (1,000
players x 11 rounds, the last round without results), with the site in all four languages
and ``[publish] target = "dir"``.  The bot rebuilds and publishes as it does in production:
``build_delay`` seconds after the last result (the debounce, default 2 s), it asks its warm
site process (``python -m site_builder serve``, started on the first build) to publish, which
forks a child for it; ``--process`` runs ``python -m site_builder publish`` in a process of its
own instead, as the bot did before 2026-12.  The site is built and published
once first (the full build), then ``--results`` result messages are sent one at a time; each
is timed from the update being available to the bot until the published round page shows the
new result, with its parts:

- reply: the update until the bot's confirmation reaches the server;
- debounce: the confirmation until the site process starts (``build_delay``);
- build and publish: as the site process reports them;
- process: the rest of the site process's time (reading the store from its snapshot, the
  clean-up after the swap, the fork and the answer; with ``--process``, starting Python and the
  imports and exiting too).

The first result of a round changes every page (the standings move from round 10 to round 11),
as it does in a real event; it is entered before the timed ones, which are the usual case.

Printed: each result's figures, the medians, CPU time beside wall time (the build's, its
workers' and publisher's included, from getrusage or the server's wait4), and the verdict
against the target: under 2 s after the debounce.  The site process may keep its modules'
bytecode, as an installed Tiebreak does.
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

from bot.service import BotService, BotSettings  # noqa: E402
from bot.site_trigger import DebouncedBuild, SiteCommand, SiteServer  # noqa: E402
from tiebreak.store import Source, SQLiteStore  # noqa: E402

_spec = importlib.util.spec_from_file_location("bot_benchmark", HERE / "bot.py")
bot_benchmark = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bot_benchmark)  # its open_boards and application: the same bot set-up

TOKEN = bot_benchmark.TOKEN
CHIEF = bot_benchmark.CHIEF
SLUG = bot_benchmark.SLUG
TARGET_AFTER_DEBOUNCE = 2.0
LANGUAGES = ["en", "zh", "vi", "es"]
_TIMES = re.compile(r"built (\d+) files \((\d+) written\) in ([\d.]+) s; .* in ([\d.]+) s")


class TimedSite:
    """The bot's site build (``SiteServer``, or ``SiteCommand`` with ``--process``), timed: when
    it started, how long it took, what it said (its build and publish seconds) and its CPU time
    (the server's figure for its forked build, or getrusage of the finished process)."""

    def __init__(self, site: SiteServer | SiteCommand) -> None:
        self.site = site
        self.runs: list[dict] = []

    def __call__(self) -> str:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        summary = self.site()
        ended = time.perf_counter()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (self.site.cpu if isinstance(self.site, SiteServer)
               else (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        found = _TIMES.search(summary)
        self.runs.append({"started": started, "ended": ended, "summary": summary, "cpu": cpu,
                          "files": int(found.group(1)) if found else 0, "written": int(found.group(2)) if found else 0,
                          "build": float(found.group(3)) if found else 0.0,
                          "publish": float(found.group(4)) if found else 0.0})
        return summary

    def close(self) -> None:
        if isinstance(self.site, SiteServer):
            self.site.close()


def write_config(folder: Path, delay: float) -> Path:
    config = folder / "config.toml"
    config.write_text("\n".join([
        "[storage]", 'path = "store.sqlite3"',
        "[site]", 'out_dir = "public"', f"languages = {json.dumps(LANGUAGES)}", f"build_delay = {delay}",
        'base_url = "https://results.example.org/"',
        "[publish]", 'target = "dir"', 'path = "www"', ""]), encoding="utf-8")
    return config


def shown(page: Path, board: int, result: str) -> bool:
    """Whether the published round page shows ``result`` on ``board``."""
    try:
        text = page.read_text(encoding="utf-8")
    except OSError:
        return False
    found = re.search(rf'<th scope="row" class="board">{board}</th>.*?<td class="result">([^<]*)</td>', text, re.S)
    return bool(found) and found.group(1).strip() == result


def wait_until(check, timeout: float = 120.0, step: float = 0.005) -> float:
    deadline = time.perf_counter() + timeout
    while not check():
        if time.perf_counter() > deadline:
            raise TimeoutError("the page never showed the result")
        time.sleep(step)
    return time.perf_counter()


def one_result(server: FakeTelegram, site: TimedSite, page: Path, number: int, board: int, written: str) -> dict:
    """Send ``R<number> B<board> <written>`` and wait until the published page shows it; its figures."""
    runs_before = len(site.runs)
    pushed = time.perf_counter()
    replied_at = pushed + bot_benchmark.drive(server, [(f"R{number} B{board} {written}",
                                                        f"Round {number}, board {board}:")])[0]
    seen = wait_until(lambda: shown(page, board, written))
    wait_until(lambda: len(site.runs) > runs_before)
    run = site.runs[runs_before]
    return {"total": seen - pushed, "reply": replied_at - pushed, "debounce": run["started"] - replied_at,
            "process": (run["ended"] - run["started"]) - run["build"] - run["publish"],
            "build": run["build"], "publish": run["publish"], "after_debounce": seen - run["started"],
            "cpu": run["cpu"], "written": run["written"], "files": run["files"]}


async def run(args: argparse.Namespace, folder: Path) -> list[dict]:
    tournament, entries = bot_benchmark.open_boards(generate_swiss(args.players, args.rounds), args.results + 1)
    config = write_config(folder, args.delay)
    with SQLiteStore(folder / "store.sqlite3") as store:
        store.create(SLUG, tournament, Source("cli:benchmark"))
    site = TimedSite(SiteCommand("publish", str(config)) if args.process else SiteServer("publish", str(config)))
    started = time.perf_counter()
    site()  # the full build and publish
    print(f"full build and publish: {time.perf_counter() - started:.2f} s ({site.runs[0]['summary']})")
    page = folder / "www" / SLUG / f"round-{entries[0][0]}.html"
    results = []
    with SQLiteStore(folder / "store.sqlite3") as store, FakeTelegram(TOKEN) as server:
        builder = DebouncedBuild(site, args.delay)
        service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})), on_change=builder.request)
        app = bot_benchmark.application(server, service, rate_limiter=True)
        async with fake_telegram.running(app, poll_timeout=10) as errors:
            await asyncio.to_thread(bot_benchmark.drive, server, [("/round", "<b>")])  # warm up
            for timed, (number, board, written) in zip([False] + [True] * args.results, entries, strict=True):
                figures = await asyncio.to_thread(one_result, server, site, page, number, board, written)
                if timed:
                    results.append(figures)
                print(f"{'' if timed else '(first of the round, not timed) '}R{number} B{board} {written}: "
                      f"{figures['total']:.2f} s in all; reply {figures['reply']:.3f}, "
                      f"debounce {figures['debounce']:.2f}, build {figures['build']:.2f} ({figures['written']} of "
                      f"{figures['files']} files written), publish {figures['publish']:.2f}, process "
                      f"{figures['process']:.2f}; after the debounce {figures['after_debounce']:.2f} s "
                      f"(site process CPU {figures['cpu']:.2f} s)")
                await asyncio.sleep(0.2)
        builder.close()
    if errors:
        raise RuntimeError(f"the bot's handlers raised {len(errors)} errors, the first: {errors[0]!r}")
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--results", type=int, default=5, help="result messages, one at a time (median)")
    parser.add_argument("--delay", type=float, default=2.0, help="build_delay, the debounce (default 2 s)")
    parser.add_argument("--dir", help="folder for the store, the site and the published copy")
    parser.add_argument("--process", action="store_true",
                        help="a fresh python -m site_builder publish per build (before 2026-12), not the warm server")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    fake_telegram._Handler.disable_nagle_algorithm = True
    # As installed, Python keeps each module's bytecode: the site process does not compile them
    # again every time (an environment that sets PYTHONDONTWRITEBYTECODE would make it).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"{args.players} players x {args.rounds} rounds, languages {', '.join(LANGUAGES)}, build_delay "
          f"{args.delay:g} s, dir publisher, {'a process per build' if args.process else 'warm site server'}; "
          f"machine load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        results = asyncio.run(run(args, Path(folder)))
    print("median of", len(results), ":", ", ".join(
        f"{name} {statistics.median(r[name] for r in results):.2f} s"
        for name in ("total", "reply", "debounce", "build", "publish", "process", "after_debounce", "cpu")))
    after = statistics.median(r["after_debounce"] for r in results)
    print(f"after the debounce: median {after:.2f} s, target < {TARGET_AFTER_DEBOUNCE:g} s: "
          f"{'ok' if after < TARGET_AFTER_DEBOUNCE else 'MISSED'}")
    return 0


if __name__ == "__main__":
    threading.current_thread().name = "benchmark"
    sys.exit(main())
