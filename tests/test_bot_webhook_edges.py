"""The webhook against hostile requests (issue 21), the bot as a real process (``python -m bot``)
against the fake Bot API server: a request without the secret is answered 403 from its headers,
before its body is read (a 100 MB body is never waited for); a body larger than an update can
be is refused with 413 as soon as that is known; a body nested too deep to read gets 400, not
500; and the bot goes on answering Telegram's own requests."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from bot_process import BotProcess, free_port, write_config
from fake_telegram import FakeTelegram
from test_bot_process import CHIEF, bots, confirmations, post, results, round_one, server, start_webhook  # noqa: F401

from bot import delivery, zalo
from bot.delivery import MAX_UPDATE_BYTES, StartError

PATH = "/tiebreak/hook"


def raw_status(port: int, headers: dict[str, str], body: bytes = b"", chunks: int = 0,
               timeout: float = 20) -> int | None:
    """Send a request's headers (and ``body``, or ``chunks`` chunks of 256 kB) and return the
    status of the answer, or None when the connection closed without one.  The answer is read
    as soon as it comes: a server that waits for the whole body before answering times out."""
    lines = [f"POST {PATH} HTTP/1.1", "Host: 127.0.0.1", *(f"{name}: {value}" for name, value in headers.items())]
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        try:
            for _ in range(chunks):
                connection.sendall(b"40000\r\n" + b" " * 0x40000 + b"\r\n")
        except OSError:  # the server closed the connection: its answer was sent before
            pass
        answer = b""
        try:
            while b"\r\n" not in answer:
                received = connection.recv(4096)
                if not received:
                    break
                answer += received
        except ConnectionResetError:
            pass
    if not answer.startswith(b"HTTP/1.1 "):
        return None
    return int(answer.split(b" ", 2)[1])


def test_hostile_webhook_requests_are_answered_from_their_headers_and_change_nothing(
        tmp_path: Path, server: FakeTelegram, bots: list[BotProcess]) -> None:  # noqa: F811
    port = free_port()
    config = write_config(tmp_path, [round_one(tmp_path)], arbiters=[CHIEF], webhook_port=port)
    bot, secret = start_webhook(config, server, bots)
    json_headers = {"Content-Type": "application/json"}
    # No secret, 100 MB announced and none of it sent: 403 at once.
    assert raw_status(port, {**json_headers, "Content-Length": str(100 * 1024 * 1024)}) == 403
    guessed = {**json_headers, "Content-Length": "100", "X-Telegram-Bot-Api-Secret-Token": "guess"}
    assert raw_status(port, guessed) == 403
    with_secret = {**json_headers, "X-Telegram-Bot-Api-Secret-Token": secret}
    # The secret, but more than an update can be: 413 before the body.
    assert raw_status(port, {**with_secret, "Content-Length": str(MAX_UPDATE_BYTES + 1)}) == 413
    assert raw_status(port, {**with_secret, "Content-Length": "twelve"}) == 413
    # Sent in chunks without a length: refused once more than the limit arrived.
    refusals = sum("webhook: refused a body of more than" in line for line in bot.lines)
    assert raw_status(port, {**with_secret, "Transfer-Encoding": "chunked"}, chunks=64) in (413, None)
    bot.wait_until(lambda: sum("webhook: refused a body of more than" in line for line in bot.lines) > refusals,
                   "the bot refuses the chunked body")
    # Nested too deep to read: 400, not 500.
    nested = b'{"update_id": 901, "message": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert len(nested) < MAX_UPDATE_BYTES
    assert raw_status(port, {**with_secret, "Content-Length": str(len(nested))}, nested) == 400
    odd = json.dumps({"update_id": 902, "message": "not a message"}).encode()
    assert raw_status(port, {**with_secret, "Content-Length": str(len(odd))}, odd) == 400
    assert results(config, 5) == [] and server.sent_messages() == []
    # Telegram's own request is answered as ever.
    update = server.text_message(CHIEF, "R1 B5 1-0")
    update["update_id"] = 903
    assert post(port, update, secret) == 200
    assert results(config, 5) == ["1-0"] and len(confirmations(server, 5)) == 1
    assert bot.stop() == 0
    assert "Traceback" not in bot.output()


@pytest.mark.parametrize(("channel", "shortest", "words"), [(delivery, 1, "Telegram's rule"), (zalo, 8, "Zalo's rule")])
def test_a_webhook_secret_is_the_channels_rule(monkeypatch, channel, shortest, words) -> None:
    """Each channel's ``webhook_secret``: the variable's value when it keeps the API's rule, a new
    random one when it is unset, and a stop at start naming the rule otherwise."""
    monkeypatch.setenv(channel.SECRET_VARIABLE, "a" * shortest)
    assert channel.webhook_secret() == "a" * shortest
    monkeypatch.setenv(channel.SECRET_VARIABLE, "  ")
    assert len(channel.webhook_secret()) >= 32
    for wrong in ("a" * (shortest - 1) + "!", "a" * 257, "é" * shortest):
        monkeypatch.setenv(channel.SECRET_VARIABLE, wrong)
        with pytest.raises(StartError, match=f"{channel.SECRET_VARIABLE}: use {shortest}-256 .*{words}"):
            channel.webhook_secret()
    if shortest > 1:
        monkeypatch.setenv(channel.SECRET_VARIABLE, "a" * (shortest - 1))
        with pytest.raises(StartError):
            channel.webhook_secret()
