"""Chaos, bounded (issue 10): a few hundred messages to ``python -m bot`` as a real process
against the fake Bot API, while it is SIGKILLed a few times (once while a result waits for
another process's write lock), the fake server fails some calls (502 on sendMessage and
getUpdates, 429 on getUpdates) and Telegram delivers some updates twice.  At the end:

- every result message from an arbiter is stored exactly once and confirmed in its chat;
- every message that could not be taken (a stranger's, a board that does not exist) is
  answered with a clear refusal and stores nothing;
- none is lost: every update is confirmed to the server, none waits;
- the token is in no line the bot wrote and in no request parameter.

Each message comes from a chat of its own, so its answer is its chat's.  The random choices
are seeded: a failure can be replayed.
"""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from bot_process import TOKEN, BotProcess, write_config
from fake_telegram import FakeTelegram
from generators import generate_swiss

from bot import messages as M
from bot.formatting import escape
from ranking.event.log import EventKind
from ranking.formats.toml_export import write_tournament_toml
from tiebreak.store import SQLiteStore

CHIEF, STRANGER = 1001, 3003
SEED = 20260
PLAYERS = 420  # about 210 boards: a result message for each
STRANGERS = 20
NO_SUCH_BOARD = 20
REDELIVERED = 25
KILLS = 4
BATCH = 15  # updates pushed before the bot is looked at again
LOCKED = "is locked by another process"
EN = M.translator("en")


@dataclass
class Message:
    chat: int
    user: int
    text: str
    kind: str  # "result", "stranger", "no-board"
    board: int = 0
    result: str = ""
    update_id: int = 0


def tournament_file(folder: Path) -> tuple[Path, int]:
    """A Swiss with round 1 paired and no result; and its number of boards."""
    swiss = generate_swiss(PLAYERS, 1, seed=SEED)
    games = tuple(replace(game, result=None) for game in swiss.games)
    path = folder / "chaos.toml"
    unpaired = replace(swiss, games=games, byes=(), withdrawals=(), name="Chaos Open")
    text = write_tournament_toml(unpaired).replace('[tournament]\n', '[tournament]\nslug = "chaos"\n', 1)
    path.write_text(text, encoding="utf-8")
    return path, len(games)


def messages(rng: random.Random, boards: int) -> list[Message]:
    results = ["1-0", "0-1", "1/2-1/2", "+-", "-+", "2-0", "½-½"]
    stored = {"2-0": "1-0", "½-½": "1/2-1/2"}
    chats = iter(range(-1_000_001, -2_000_000, -1))
    made = []
    for board in range(1, boards + 1):
        said = rng.choice(results)
        made.append(Message(next(chats), CHIEF, f"R1 B{board} {said}", "result", board, stored.get(said, said)))
    made += [Message(next(chats), STRANGER, f"R1 B{rng.randint(1, boards)} 1-0", "stranger")
             for _ in range(STRANGERS)]
    made += [Message(next(chats), CHIEF, f"R1 B{boards + 100 + n} 1-0", "no-board") for n in range(NO_SUCH_BOARD)]
    rng.shuffle(made)
    return made


def answers_in(server: FakeTelegram, chat: int) -> list[str]:
    return [entry["text"] for entry in server.sent_messages(chat) if "text" in entry]


def test_chaos_loses_nothing_and_forges_nothing(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    tournament, boards = tournament_file(tmp_path)
    config = write_config(tmp_path, [tournament], arbiters=[CHIEF])
    todo = messages(rng, boards)
    kill_at = sorted(rng.sample(range(BATCH, len(todo) - BATCH), KILLS))
    locked_kill = kill_at[0]
    bots: list[BotProcess] = []
    figures = Counter()
    with FakeTelegram(TOKEN) as server:
        try:
            bot = BotProcess(config, server).start()
            bots.append(bot)
            bot.wait_until(lambda: server.calls_to("getUpdates"), "the bot polls")
            pushed: list[Message] = []
            for index, message in enumerate(todo):
                update = server.text_message(message.user, message.text, chat_id=message.chat)
                message.update_id = server.push_update(update)
                pushed.append(message)
                roll = rng.random()
                if roll < 0.12 and not server.failures_pending("sendMessage"):
                    server.fail_next("sendMessage", 502, times=rng.choice((1, 2)))  # fewer than the attempts
                    figures["sendMessage failures"] += 1
                elif 0.12 <= roll < 0.18 and not server.failures_pending("getUpdates"):
                    server.fail_next("getUpdates", rng.choice((502, 429)), retry_after=1)
                    figures["getUpdates failures"] += 1
                if index in kill_at:
                    lock = None
                    if index == locked_kill:
                        lock = sqlite3.connect(tmp_path / "data" / "bot.sqlite3", isolation_level=None)
                        lock.execute("BEGIN IMMEDIATE")
                        bot.wait_for_output(LOCKED, count=1 + sum(LOCKED in line for line in bot.lines))
                    else:  # somewhere in the middle of the batch
                        done = len(pushed) - rng.randint(1, BATCH)
                        bot.wait_until(lambda done=done: sum(bool(answers_in(server, m.chat)) for m in pushed)
                                       >= done, "the bot works through its backlog")
                    bot.kill()
                    figures["kills"] += 1
                    if lock is not None:
                        lock.execute("ROLLBACK")
                        lock.close()
                    bot = BotProcess(config, server).start()
                    bots.append(bot)
                if index % BATCH == BATCH - 1 and rng.random() < 0.5:
                    again = rng.choice(pushed)
                    server.redeliver(again.update_id)  # Telegram delivers it twice
                    figures["redelivered"] += 1
            extra = [server.redeliver(rng.choice(todo).update_id)
                     for _ in range(max(0, REDELIVERED - figures["redelivered"]))]
            figures["redelivered"] += len(extra)
            bot.wait_until(lambda: all(answers_in(server, m.chat) for m in todo) and server.pending_updates == 0,
                           "every message answered", timeout=300)
            assert bot.stop() == 0
        finally:
            for started in bots:
                started.close()
        calls = server.calls

    with SQLiteStore(tmp_path / "data" / "bot.sqlite3", readonly=True) as store:
        log = store.log("chaos")
        state = store.state("chaos")
        submissions = store.submissions()
    stored = Counter((entry.event.data["round"], entry.event.data["board"]) for entry in log
                     if entry.event.kind in (EventKind.RESULT, EventKind.FORFEIT, EventKind.CORRECTION))
    names = {player.id: player.name for player in state.base.players}
    handled_before = escape(EN.gettext(M.ALREADY_HANDLED))
    for message in todo:
        shown = answers_in(server, message.chat)
        if message.kind == "result":
            game = state.games[(1, message.board)]
            assert stored[(1, message.board)] == 1, message
            assert game.result is not None and game.result.value == message.result, message
            confirmation = f"<b>{escape(state.base.name)}</b>\n" + escape(EN.format(  # under the tournament's name
                M.RESULT_RECORDED, round=1, board=message.board, white=names[game.white], black=names[game.black],
                result=message.result))
            assert confirmation in shown or handled_before in shown, (message, shown)
            figures["confirmed"] += confirmation in shown
            figures["handled before"] += confirmation not in shown
        elif message.kind == "stranger":
            assert shown and set(shown) == {escape(EN.gettext(M.ARBITERS_ONLY))}, (message, shown)
            figures["refused"] += 1
        else:
            assert shown and all(f"Round 1 has no board {message.text.split()[1][1:]}" in text for text in shown), shown
            figures["refused"] += 1
    assert sum(stored.values()) == boards  # nothing forged, nothing twice
    assert {row["update_id"] for row in submissions} >= {m.update_id for m in todo}
    # None lost: the server holds no update, and the bot confirmed the last one.
    assert server.pending_updates == 0
    last = max(m.update_id for m in todo)
    assert any(int(params.get("offset") or 0) > last for name, params in calls if name == "getUpdates")
    # The token in no log and no request parameter.
    secret = TOKEN.partition(":")[2]
    written = "\n".join(line for started in bots for line in started.lines)
    assert secret not in written
    assert not any(secret in repr(params) for _, params in calls)
    assert "Traceback" not in written
    print(f"\nchaos: {len(todo)} messages ({boards} results, {STRANGERS + NO_SUCH_BOARD} refused), "
          + ", ".join(f"{name}: {count}" for name, count in sorted(figures.items())))
