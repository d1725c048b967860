"""A flood from one player delays no arbiter (issue 21): arbiters' updates are handled first,
players are rate-limited per user (``[bot].rate_limit`` a minute) with one polite, localised
reply, and what comes after it is not read until they may send again.  The bot runs with
python-telegram-bot's real network stack and the bot's own polling loop (``bot/delivery.py``)
against the fake Bot API server."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from fake_telegram import FakeTelegram

from bot import delivery
from bot import messages as M
from bot.app import build_application
from bot.limits import Admission, RateLimiter
from bot.service import BotService, BotSettings
from ranking import InputError
from tiebreak.config import load_config

TOKEN = "123456789:AAH-fake-token_for_tests"
CHIEF, PLAYER, STRANGER = 1001, 2002, 3003


def test_a_player_gets_the_limit_then_one_reply_then_nothing_until_the_bucket_refills() -> None:
    now = [0.0]
    limiter = RateLimiter(6, clock=lambda: now[0])  # 6 a minute: one every 10 s
    player = [limiter.admit(PLAYER, lambda: False) for _ in range(9)]
    assert player == [Admission.READ] * 6 + [Admission.TELL, Admission.DROP, Admission.DROP]
    assert limiter.wait(PLAYER) == 10
    now[0] += 9.9
    assert limiter.admit(PLAYER, lambda: False) is Admission.DROP
    now[0] += 0.2  # one message's worth refilled
    assert limiter.admit(PLAYER, lambda: False) is Admission.READ
    assert limiter.admit(PLAYER, lambda: False) is Admission.TELL  # told again after a read one
    arbiter = [limiter.admit(CHIEF, lambda: True) for _ in range(50)]
    assert arbiter == [Admission.READ] * 50
    assert [RateLimiter(0).admit(PLAYER, lambda: False) for _ in range(100)] == [Admission.READ] * 100


@pytest.mark.parametrize("value", ["20", -1, 10_001, True, 1.5])
def test_the_rate_limit_is_a_whole_number_of_messages_a_minute(tmp_path: Path, value: object) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[bot]\nrate_limit = {value!r}\n".replace("True", "true").replace("'", '"'), encoding="utf-8")
    with pytest.raises(InputError, match=r"\[bot\].rate_limit must be"):
        BotSettings.from_config(load_config(str(config)))


@pytest.mark.asyncio
async def test_webhook_turns_go_to_arbiters_first() -> None:
    turns = delivery.Turns()
    order: list[str] = []

    async def take(name: str, first: bool, hold: asyncio.Event | None = None) -> None:
        async with turns.turn(first=first):
            order.append(name)
            if hold is not None:
                await hold.wait()

    hold = asyncio.Event()
    busy = asyncio.create_task(take("busy", False, hold))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(take(name, name.startswith("arbiter"))) for name in
               ("player 1", "player 2", "arbiter 1", "player 3", "arbiter 2")]
    await asyncio.sleep(0)
    cancelled = asyncio.create_task(take("player gone", False))
    await asyncio.sleep(0)
    cancelled.cancel()
    hold.set()
    await asyncio.gather(busy, *waiting, return_exceptions=True)
    assert order == ["busy", "arbiter 1", "arbiter 2", "player 1", "player 2", "player 3"]
    async with turns.turn():  # free again
        pass


@pytest.mark.asyncio
async def test_a_flood_of_standings_neither_delays_an_arbiters_result_nor_gets_answers(service: BotService) -> None:
    service.settings = replace(service.settings, rate_limit=10)
    service.limiter = RateLimiter(10)
    with FakeTelegram(TOKEN) as server:
        for _ in range(40):
            server.push_update(server.command(STRANGER, "standings", "all"))
        server.push_update(server.text_message(CHIEF, "R1 B1 1-0"))
        server.push_update(server.command(PLAYER, "help", language_code="vi"))
        application = build_application(TOKEN, service, base_url=server.url)
        stopping = asyncio.Event()
        async with application:
            polling = asyncio.create_task(delivery.poll(application, stopping, timeout=1))
            await server.wait_for_message_async(PLAYER, timeout=60)  # the last update of the batch
            stopping.set()
            await polling
        sent = server.sent_messages()
        assert sent[0]["chat_id"] == CHIEF and sent[0]["text"].endswith(" recorded")  # before any player's
        stranger = server.sent_messages(STRANGER)
        assert len(stranger) == 11  # ten standings, then one reply saying to slow down
        assert all("<pre>" in message["text"] or "Standings" in message["text"] for message in stranger[:10])
        assert stranger[10]["text"] in {M.translator("en").format(M.SLOW_DOWN, limit=10, seconds=seconds)
                                        for seconds in range(1, 7)}  # 6 s, less what refilled meanwhile
        assert service.store.state("xq").games[(1, 1)].result.value == "1-0"
        assert server.pending_updates == 0


@pytest.mark.asyncio
async def test_a_player_is_told_to_slow_down_in_their_language(service: BotService) -> None:
    service.limiter = RateLimiter(1)
    service.settings = replace(service.settings, rate_limit=1)
    with FakeTelegram(TOKEN) as server:
        for _ in range(3):
            server.push_update(server.command(PLAYER, "standings", language_code="zh"))
        application = build_application(TOKEN, service, base_url=server.url)
        stopping = asyncio.Event()
        async with application:
            polling = asyncio.create_task(delivery.poll(application, stopping, timeout=1))
            await server.wait_for_message_async(PLAYER, count=2, timeout=60)
            await asyncio.sleep(0.5)  # the third is not read: nothing more comes
            stopping.set()
            await polling
        told = server.sent_messages(PLAYER)
        assert len(told) == 2
        assert told[1]["text"] in {M.translator("zh").format(M.SLOW_DOWN, limit=1, seconds=seconds)
                                   for seconds in range(30, 61)}
