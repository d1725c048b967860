"""Time the bot end to end: result messages through the fake Bot API server (target: p99 under 150 ms).

    python benchmarks/bot.py [--count 500] [--players 1000] [--rounds 11] [--dir DIR]
                             [--no-rate-limiter] [--nagle] [--profile [N]]

The real application (``bot.app.build_application``: python-telegram-bot's HTTPXRequest, long
polling, AIORateLimiter) runs against the fake Bot API server of tests/fake_telegram.py on
127.0.0.1, over a SQLite store (in a temporary folder of ``--dir``, default the system's: the
fsync cost depends on that file system) holding a generated Swiss (tests/generators.py,
1,000 players x 11 rounds by default) whose last round has no results; when ``--count`` is more
than that round's boards, the results of the rounds before are removed too.

Then ``--count`` result messages (``R11 B1 1-0``, ``R11 B2 ½-½``, ...) are sent one at a time
by the chief arbiter: push the update, wait until the reply confirming that board reaches the
server.  The latency of a message is that wait, from the update being available to getUpdates
to the bot's sendMessage arriving; the service time is the part spent in ``bot.entering.text``
(the store, the parser, the standings when a round completes).  Printed: messages per second,
p50/p90/p99/max latency and service time in ms, and the verdict against p99 < 150 ms.

``--no-rate-limiter`` builds the same application without AIORateLimiter (Telegram's 30
messages per second), to show its share.  The fake server's sockets get TCP_NODELAY: as the
server stands it writes a response's headers and body in two writes, and Nagle's algorithm
against the client's delayed ACK holds the second for ~40 ms on Linux on every call of a
kept-alive connection, which Telegram's servers do not do; ``--nagle`` leaves that as it is.
``--profile N`` runs the handlers' service calls and the event loop under cProfile and prints
the N most expensive functions of each.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import logging
import platform
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# This file is benchmarks/bot.py: its own folder must come after the repository's, or
# ``import bot`` would find this script instead of the bot package.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path[0:0] = [str(ROOT), str(ROOT / "tests")]  # bot and ranking; fake_telegram and generators

import fake_telegram  # noqa: E402
from fake_telegram import FakeTelegram  # noqa: E402
from generators import generate_swiss  # noqa: E402
from telegram.ext import Application  # noqa: E402

from bot import entering  # noqa: E402
from bot.app import build_application  # noqa: E402
from bot.handlers import register  # noqa: E402
from bot.service import BotService, BotSettings  # noqa: E402
from ranking import Tournament  # noqa: E402
from tiebreak.store import Source, SQLiteStore  # noqa: E402

TOKEN = "123456789:AAH-benchmark-token"
CHIEF = 1001
SLUG = "bench"
TARGET_P99 = 0.150
_WRITTEN = {"1/2-1/2": "½-½"}  # results as arbiters type them


def open_boards(tournament: Tournament, count: int) -> tuple[Tournament, list[tuple[int, int, str]]]:
    """The tournament with the results of its last rounds removed, so that at least ``count``
    boards are open, and the (round, board, result) to enter, last round first."""
    rounds = sorted({game.round for game in tournament.games}, reverse=True)
    cleared: set[int] = set()
    entries: list[tuple[int, int, str]] = []
    for number in rounds:
        if len(entries) >= count:
            break
        cleared.add(number)
        games = sorted((g for g in tournament.games if g.round == number and g.result is not None),
                       key=lambda g: g.board)
        entries += [(number, g.board, _WRITTEN.get(g.result.value, g.result.value)) for g in games]
    if len(entries) < count:
        raise SystemExit(f"--count {count}: the tournament has only {len(entries)} games with results")
    games = tuple(replace(g, result=None) if g.round in cleared else g for g in tournament.games)
    return replace(tournament, games=games), entries[:count]


class Timed:
    """Wraps ``bot.entering.text`` (the command behind a result message): how long each call
    takes, optionally under cProfile."""

    def __init__(self, method: Callable[..., object], profiler: cProfile.Profile | None) -> None:
        self.method = method
        self.profiler = profiler
        self.durations: list[float] = []

    def __call__(self, *args, **kwargs):
        started = time.perf_counter()
        if self.profiler is not None:  # handlers run one at a time: one profiler is enough
            result = self.profiler.runcall(self.method, *args, **kwargs)
        else:
            result = self.method(*args, **kwargs)
        self.durations.append(time.perf_counter() - started)
        return result


def application(server: FakeTelegram, service: BotService, rate_limiter: bool) -> Application:
    if rate_limiter:
        return build_application(TOKEN, service, base_url=server.url)
    built = (Application.builder().token(TOKEN).base_url(f"{server.url}/bot")
             .base_file_url(f"{server.url}/file/bot").build())
    register(built, service)
    return built


def drive(server: FakeTelegram, messages: list[tuple[str, str]]) -> list[float]:
    """Send each message once the reply to the one before has arrived; the latencies in s.

    A reply has arrived when the server has received a sendMessage request holding ``expected``
    (a confirmation starts with the tournament's name; the calls are watched rather than
    ``sent_messages``: the server wakes waiters when a call comes in)."""
    latencies = []
    for text, expected in messages:
        before = len(server.calls)

        def replied(calls: list, before: int = before, expected: str = expected) -> bool:
            return any(method == "sendMessage" and expected in str(params.get("text", ""))
                       for method, params in calls[before:])

        update = server.command(CHIEF, text) if text.startswith("/") else server.text_message(CHIEF, text)
        started = time.perf_counter()
        server.push_update(update)
        server.wait_for(replied, timeout=60)
        latencies.append(time.perf_counter() - started)
    return latencies


async def run(server: FakeTelegram, app: Application, messages: list[tuple[str, str]],
              loop_profiler: cProfile.Profile | None) -> tuple[list[float], float]:
    async with fake_telegram.running(app, poll_timeout=10) as errors:
        # Warm up: the first update builds the store's cached state and PTB's connections.
        await asyncio.to_thread(drive, server, [("/round", "<b>"), ("/standings", "<b>")])
        if loop_profiler is not None:
            loop_profiler.enable()
        started = time.perf_counter()
        latencies = await asyncio.to_thread(drive, server, messages)
        elapsed = time.perf_counter() - started
        if loop_profiler is not None:
            loop_profiler.disable()
    if errors:  # figures from a run whose handlers failed would mean nothing
        raise RuntimeError(f"the bot's handlers raised {len(errors)} errors, the first: {errors[0]!r}")
    return latencies, elapsed


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


def describe(values: list[float]) -> str:
    return "  ".join(f"{name} {percentile(values, fraction) * 1000:7.1f}" for name, fraction in
                     (("p50", 0.50), ("p90", 0.90), ("p99", 0.99))) + f"  max {max(values) * 1000:7.1f} ms"


def top(profiler: cProfile.Profile, limit: int, title: str) -> str:
    out = io.StringIO()
    out.write(f"\n== cProfile: {title} (by cumulative time) ==\n")
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("cumulative").print_stats(limit)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500, help="result messages to send (default 500)")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--dir", help="folder for the temporary database (default: the system's)")
    parser.add_argument("--no-rate-limiter", action="store_true", help="leave AIORateLimiter out")
    parser.add_argument("--nagle", action="store_true",
                        help="keep Nagle's algorithm on the fake server's sockets (~40 ms a call)")
    parser.add_argument("--profile", type=int, nargs="?", const=25, metavar="N",
                        help="print the N most expensive functions (default 25)")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    fake_telegram._Handler.disable_nagle_algorithm = not args.nagle  # socketserver: TCP_NODELAY

    tournament, entries = open_boards(generate_swiss(args.players, args.rounds), args.count)
    messages = [(f"R{number} B{board} {result}", f"Round {number}, board {board}:")
                for number, board, result in entries]
    service_profiler = cProfile.Profile() if args.profile else None
    loop_profiler = cProfile.Profile() if args.profile else None
    with tempfile.TemporaryDirectory(dir=args.dir) as folder, SQLiteStore(Path(folder) / "bot.sqlite3") as store:
        store.create(SLUG, tournament, Source("cli:benchmark"))
        service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
        timed = Timed(entering.text, service_profiler)
        entering.text = timed  # the handler looks the command up at each message
        with FakeTelegram(TOKEN) as server:
            app = application(server, service, rate_limiter=not args.no_rate_limiter)
            latencies, elapsed = asyncio.run(run(server, app, messages, loop_profiler))
        recorded = sum(1 for entry in store.log(SLUG) if entry.event.kind.value in ("result", "forfeit"))
        open_left = sum(1 for game in store.tournament(SLUG).games if game.result is None)

    service_times = timed.durations  # the warm-up was a command, not a text message
    p99 = percentile(latencies, 0.99)
    print(f"bot end to end: {len(tournament.players)} players x {tournament.rounds} rounds, {len(latencies)} result "
          f"messages one at a time, rate limiter {'off' if args.no_rate_limiter else 'on'}, "
          f"fake server TCP_NODELAY {'off' if args.nagle else 'on'}")
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"stored {recorded} results ({open_left} boards still open)")
    print(f"throughput      {len(latencies) / elapsed:7.1f} messages/s ({elapsed:.2f} s)")
    print(f"latency         {describe(latencies)}")
    print(f"  entering.text   {describe(service_times)}")
    print(f"target p99 < {TARGET_P99 * 1000:.0f} ms: {'ok' if p99 < TARGET_P99 else 'MISSED'} "
          f"(p99 {p99 * 1000:.1f} ms)")
    if service_profiler is not None and loop_profiler is not None:
        print(top(service_profiler, args.profile, "bot.entering.text, in the worker thread"))
        print(top(loop_profiler, args.profile, "the event loop (python-telegram-bot, httpx)"))
    return 0 if recorded == len(latencies) else 1


if __name__ == "__main__":
    sys.exit(main())
