"""The bot as a real process (``python -m bot``) against the fake Bot API server (issue 10: items
1, 2, 3): killed with SIGKILL while a result waits for the store's write lock, it loses
nothing once restarted, in polling and in webhook mode; a forged webhook request changes
nothing; a token the API refuses, or a Bot API that cannot be reached, is one line without the
token and exit status 2; SIGTERM drains and exits 0."""

from __future__ import annotations

import json
import sqlite3
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from bot_process import TOKEN, BotProcess, free_port, write_config
from fake_telegram import FakeTelegram

from ranking.event.log import EventKind
from ranking.formats.toml_export import write_tournament_toml
from tiebreak.files import load_tournament
from tiebreak.store import SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
XIANGQI = ROOT / "ranking" / "examples" / "xiangqi-rr.toml"
CHIEF, STRANGER = 1001, 3003
SLUG = "example-xiangqi-rr"
LOCKED = "is locked by another process"


def round_one(folder: Path) -> Path:
    """The xiangqi round robin with round 1 paired and no result yet."""
    tournament = load_tournament(XIANGQI)
    games = tuple(replace(game, result=None) for game in tournament.games if game.round == 1)
    path = folder / "xiangqi.toml"
    path.write_text(write_tournament_toml(replace(tournament, games=games)), encoding="utf-8")
    return path


@pytest.fixture
def server() -> Iterator[FakeTelegram]:
    with FakeTelegram(TOKEN) as fake:
        yield fake


@pytest.fixture
def bots() -> Iterator[list[BotProcess]]:
    started: list[BotProcess] = []
    yield started
    for bot in started:
        bot.close()


def database(config: Path) -> Path:
    return config.parent / "data" / "bot.sqlite3"


def results(config: Path, board: int) -> list[str]:
    with SQLiteStore(database(config), readonly=True) as store:
        return [entry.event.data["result"] for entry in store.log(SLUG)
                if entry.event.kind is EventKind.RESULT and entry.event.data["board"] == board]


class WriteLock:
    """Another process's write transaction on the store (here: the test's own connection)."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path, isolation_level=None)
        self.connection.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.connection.execute("ROLLBACK")
        self.connection.close()


def confirmations(server: FakeTelegram, board: int) -> list[str]:
    return [message["text"] for message in server.sent_messages(CHIEF)  # under the tournament's name (issue 20)
            if f"\nRound 1, board {board}:" in message["text"] and message["text"].endswith(" recorded")]


def confirmed_past(server: FakeTelegram, update_id: int) -> bool:
    """Whether the bot told Telegram it has ``update_id`` (a getUpdates offset beyond it)."""
    return any(int(params.get("offset") or 0) > update_id for params in server.calls_to("getUpdates"))


# -- item 1: polling ---------------------------------------------------------------------------


def polling_bot(folder: Path, server: FakeTelegram, bots: list[BotProcess]) -> tuple[Path, BotProcess]:
    """The bot over round 1 of the xiangqi round robin, polling ``server``."""
    config = write_config(folder, [round_one(folder)], arbiters=[CHIEF])
    bot = BotProcess(config, server).start()
    bots.append(bot)
    bot.wait_until(lambda: server.calls_to("getUpdates"), "the bot polls")
    return config, bot


def test_a_result_waiting_for_the_write_lock_survives_sigkill(tmp_path: Path, server: FakeTelegram,
                                                                 bots: list[BotProcess]) -> None:
    config, bot = polling_bot(tmp_path, server, bots)
    lock = WriteLock(database(config))
    update_id = server.push_update(server.text_message(CHIEF, "R1 B2 1-0"))
    # The result waits for the lock; python-telegram-bot's Updater confirmed it already by now.
    bot.wait_until(lambda: any(LOCKED in line for line in bot.lines) or confirmed_past(server, update_id),
                   "the result waits for the store")
    bot.kill()
    assert not confirmed_past(server, update_id)

    again = BotProcess(config, server).start()
    bots.append(again)
    again.wait_for_output(LOCKED)  # Telegram delivered it again: it waits for the lock once more
    lock.release()
    again.wait_until(lambda: confirmations(server, 2), "the result is answered")
    assert again.stop() == 0
    assert results(config, 2) == ["1-0"]
    assert len(confirmations(server, 2)) == 1
    assert confirmed_past(server, update_id)


def test_sigterm_drains_what_was_fetched_and_confirms_it(tmp_path: Path, server: FakeTelegram,
                                                         bots: list[BotProcess]) -> None:
    config, bot = polling_bot(tmp_path, server, bots)
    lock = WriteLock(database(config))
    ids = [server.push_update(server.text_message(CHIEF, f"R1 B{board} 0-1")) for board in (3, 4)]
    bot.wait_for_output(LOCKED)
    bot.process.terminate()  # SIGTERM while the first result waits for the lock
    lock.release()
    assert bot.wait() == 0
    assert results(config, 3) == ["0-1"] and results(config, 4) == ["0-1"]
    assert confirmations(server, 3) and confirmations(server, 4)
    assert confirmed_past(server, ids[-1])
    assert server.pending_updates == 0


# -- items 1 and 2: the webhook ------------------------------------------------------------------


def post(port: int, update: dict[str, Any], secret: str | None, timeout: float = 60) -> int:
    """POST an update to the bot's webhook as Telegram does; the HTTP status."""
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    request = urllib.request.Request(f"http://127.0.0.1:{port}/tiebreak/hook", json.dumps(update).encode(),
                                     headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def start_webhook(config: Path, server: FakeTelegram, bots: list[BotProcess], calls: int = 1) -> tuple[BotProcess, str]:
    bot = BotProcess(config, server).start()
    bots.append(bot)
    bot.wait_until(lambda: len(server.calls_to("setWebhook")) >= calls, "the bot sets its webhook")
    bot.wait_for_output("webhook: listening on")
    params = server.calls_to("setWebhook")[-1]
    assert params["url"].endswith("/tiebreak/hook")
    return bot, params["secret_token"]


def test_a_forged_webhook_request_changes_nothing(tmp_path: Path, server: FakeTelegram,
                                                  bots: list[BotProcess]) -> None:
    port = free_port()
    config = write_config(tmp_path, [round_one(tmp_path)], arbiters=[CHIEF], webhook_port=port)
    bot, secret = start_webhook(config, server, bots)
    assert len(secret) >= 32
    forged = server.text_message(CHIEF, "R1 B5 1-0")  # "from" the chief arbiter, whose id is no secret
    forged["update_id"] = 777
    assert post(port, forged, None) == 403
    assert post(port, forged, "guessed-secret") == 403
    assert results(config, 5) == [] and server.sent_messages() == []
    forged["update_id"] = 778
    assert post(port, forged, secret) == 200  # Telegram's own request
    assert results(config, 5) == ["1-0"] and len(confirmations(server, 5)) == 1
    assert bot.stop() == 0


def test_a_webhook_update_killed_before_it_was_stored_is_stored_when_telegram_retries(
        tmp_path: Path, server: FakeTelegram, bots: list[BotProcess]) -> None:
    port = free_port()
    config = write_config(tmp_path, [round_one(tmp_path)], arbiters=[CHIEF], webhook_port=port)
    bot, secret = start_webhook(config, server, bots)
    update = server.text_message(CHIEF, "R1 B1 1/2-1/2")
    update["update_id"] = 501
    lock = WriteLock(database(config))
    answered: list[int | str] = []

    def telegram_posts() -> None:
        try:
            answered.append(post(port, update, secret))
        except OSError as error:  # the bot died before answering: Telegram will retry
            answered.append(type(error).__name__)

    sender = threading.Thread(target=telegram_posts)
    sender.start()
    bot.wait_for_output(LOCKED)
    bot.kill()
    sender.join(60)
    assert answered and answered[0] != 200  # no 200: Telegram keeps the update
    lock.release()
    assert results(config, 1) == []
    again, secret = start_webhook(config, server, bots, calls=2)
    assert post(port, update, secret) == 200  # Telegram's retry
    assert post(port, update, secret) == 200  # and a duplicate: answered like the first, stored once
    assert again.stop() == 0
    assert results(config, 1) == ["1/2-1/2"]
    assert len(confirmations(server, 1)) == 2 and len(set(confirmations(server, 1))) == 1


# -- item 3: start-up errors ----------------------------------------------------------------------


def test_a_token_the_api_refuses_is_one_line_without_the_token(tmp_path: Path, server: FakeTelegram,
                                                               bots: list[BotProcess]) -> None:
    config = write_config(tmp_path, [round_one(tmp_path)], arbiters=[CHIEF])
    wrong = "987654321:AAF-revoked-token-value_123"
    bot = BotProcess(config, server, token=wrong).start()
    bots.append(bot)
    assert bot.wait() == 2
    output = bot.output()
    assert output.splitlines() == [output]
    assert output.startswith("python -m bot: error: the Telegram Bot API at ") and "refused the token" in output
    assert "revoked-token" not in output and "Traceback" not in output


def test_an_unreachable_api_is_one_line(tmp_path: Path, bots: list[BotProcess]) -> None:
    config = write_config(tmp_path, [round_one(tmp_path)], arbiters=[CHIEF])
    closed = f"http://127.0.0.1:{free_port()}"
    bot = BotProcess(config, None, base_url=closed).start()
    bots.append(bot)
    assert bot.wait() == 2
    output = bot.output()
    assert output.splitlines() == [output]
    assert output.startswith(f"python -m bot: error: cannot reach the Telegram Bot API at {closed} (")
    assert "unset TELEGRAM_BOT_TOKEN for console mode" in output
    assert TOKEN.partition(":")[2] not in output and "Traceback" not in output


def test_any_bot_api_error_at_start_up_is_one_line(tmp_path: Path, server: FakeTelegram,
                                                   bots: list[BotProcess]) -> None:
    config = write_config(tmp_path, [round_one(tmp_path)], arbiters=[CHIEF])
    server.fail_next("deleteWebhook", 400, description="Bad Request: something unexpected")
    bot = BotProcess(config, server).start()
    bots.append(bot)
    assert bot.wait() == 2
    output = bot.output()
    assert output == f"python -m bot: error: the Telegram Bot API at {server.url} answered: Something unexpected"
