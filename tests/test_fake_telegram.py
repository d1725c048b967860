"""The fake Bot API server works with python-telegram-bot's real network stack (no Tiebreak code)."""

from __future__ import annotations

import asyncio
import io
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from fake_telegram import FakeTelegram, running
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

TOKEN = "123456789:AAH-fake-token_for_tests"
USER = 4242
# PTB 22 warns about RetryAfter.retry_after becoming a timedelta (opt in with PTB_TIMEDELTA=1).
ignore_retry_after_deprecation = pytest.mark.filterwarnings("ignore:.*retry_after.*:DeprecationWarning")


def _server_threads(wait: float = 10.0) -> list[threading.Thread]:
    """The fake server's threads still alive, after giving them ``wait`` seconds to end."""
    deadline = time.monotonic() + wait
    while True:
        alive = [t for t in threading.enumerate() if t.name == "FakeTelegram" or "process_request" in t.name]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


@pytest.fixture
def server() -> Iterator[FakeTelegram]:
    with FakeTelegram(TOKEN) as fake:
        yield fake
    assert _server_threads() == [], "the fake server left threads behind"


def _builder(server: FakeTelegram) -> ApplicationBuilder:
    return Application.builder().token(TOKEN).base_url(f"{server.url}/bot").base_file_url(f"{server.url}/file/bot")


def _api(server: FakeTelegram, method: str, body: bytes | None = None, content_type: str = "", token: str = TOKEN):
    """A raw HTTP call; returns (status, decoded JSON)."""
    request = urllib.request.Request(f"{server.url}/bot{token}/{method}", data=body, method="POST")
    if content_type:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, json.loads(exc.read())


def _json_call(server: FakeTelegram, method: str, params: dict[str, Any] | None = None, **kwargs: Any):
    return _api(server, method, json.dumps(params or {}).encode(), "application/json", **kwargs)


# --------------------------------------------------------------------------- with PTB


@pytest.mark.asyncio
async def test_echo_command_and_callback_query(server: FakeTelegram) -> None:
    seen_users: list[tuple[int, str | None]] = []

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen_users.append((update.effective_user.id, update.effective_user.language_code))
        await update.message.reply_text(f"echo: {update.message.text}")

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Yes", callback_data="yes:1")]])
        await update.message.reply_text(f"args={context.args}", reply_markup=keyboard)

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        await query.answer("noted")
        await query.edit_message_text(f"you chose {query.data}")

    application = _builder(server).build()
    application.add_handler(CommandHandler("start", start))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
    application.add_handler(CallbackQueryHandler(pressed))

    async with running(application) as errors:
        assert application.bot.username == "tiebreak_test_bot"
        server.push_update(server.text_message(USER, "hello 123", language_code="vi"))
        reply = await server.wait_for_message_async(chat_id=USER)
        assert reply["text"] == "echo: hello 123"
        assert seen_users == [(USER, "vi")]

        server.push_update(server.command(USER, "start", "open 2"))
        menu = await server.wait_for_message_async(chat_id=USER, count=2)
        assert menu["method"] == "sendMessage"
        assert menu["text"] == "args=['open', '2']"
        assert menu["reply_markup"] == {"inline_keyboard": [[{"text": "Yes", "callback_data": "yes:1"}]]}

        server.push_update(server.callback_query(USER, "yes:1", menu))
        edited = await server.wait_for_message_async(chat_id=USER, predicate=lambda m: m["method"] == "editMessageText")
        assert edited["message_id"] == menu["message_id"]
        assert edited["text"] == "you chose yes:1"
        answer = server.calls_to("answerCallbackQuery")
        assert [a["text"] for a in answer] == ["noted"]
        # A group chat works too, and the reply goes to the group.
        server.push_update(server.text_message(USER, "in group", chat_id=-1001234))
        group_reply = await server.wait_for_message_async(chat_id=-1001234)
        assert group_reply["text"] == "echo: in group"
    assert errors == []

    methods = [method for method, _ in server.calls]
    assert methods[0] == "getMe"
    assert "deleteWebhook" in methods
    # On stop PTB confirms what it fetched with a getUpdates of timeout 0: nothing would be
    # delivered again. (The long poll it cancelled may be recorded after that call: the two
    # arrive on different connections, so the order of the records is not checked.)
    confirmations = [p for p in server.calls_to("getUpdates") if p.get("timeout") == 0]
    assert confirmations and confirmations[-1]["offset"] > 10_003
    assert server.pending_updates == 0


@ignore_retry_after_deprecation
@pytest.mark.asyncio
async def test_429_is_retried_by_aio_rate_limiter(server: FakeTelegram) -> None:
    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.message.reply_text("pong")

    application = _builder(server).rate_limiter(AIORateLimiter(max_retries=2)).build()
    application.add_handler(MessageHandler(filters.TEXT, echo))
    server.fail_next("sendMessage", status=429, retry_after=1)

    async with running(application) as errors:
        started = time.monotonic()
        server.push_update(server.text_message(USER, "ping"))
        reply = await server.wait_for_message_async(chat_id=USER)
        elapsed = time.monotonic() - started
    assert errors == []
    assert reply["text"] == "pong"
    assert len(server.calls_to("sendMessage")) == 2  # the refused attempt and the retry
    assert len(server.sent_messages()) == 1
    assert elapsed >= 1.0  # it honoured retry_after


@ignore_retry_after_deprecation
@pytest.mark.asyncio
async def test_429_without_rate_limiter_reaches_the_handler(server: FakeTelegram) -> None:
    from telegram.error import RetryAfter

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.message.reply_text("pong")

    application = _builder(server).build()
    application.add_handler(MessageHandler(filters.TEXT, echo))
    server.fail_next("sendMessage", retry_after=3)
    async with running(application) as errors:
        server.push_update(server.text_message(USER, "ping"))
        await asyncio.to_thread(server.wait_for, lambda calls: len(errors) == 1, 5)
    assert isinstance(errors[0], RetryAfter)
    assert "3" in str(errors[0])  # "Flood control exceeded. Retry in 3 seconds"
    assert server.sent_messages() == []


@pytest.mark.asyncio
async def test_bot_downloads_a_document_and_uploads_one(server: FakeTelegram) -> None:
    content = bytes(range(256)) * 40 + b"\r\n--not-a-boundary\r\n\r\n"

    async def on_document(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        document = update.message.document
        telegram_file = await document.get_file()
        buffer = io.BytesIO()
        await telegram_file.download_to_memory(buffer)
        data = buffer.getvalue()
        await update.message.reply_text(f"{document.file_name}: {len(data)} bytes, caption={update.message.caption}")
        await update.message.reply_document(data[::-1], filename="reversed é.bin", caption="back")

    application = _builder(server).build()
    application.add_handler(MessageHandler(filters.Document.ALL, on_document))
    file_id = server.add_file(content, "round 3.trf")

    async with running(application) as errors:
        server.push_update(server.document_message(USER, file_id, "round 3.trf", caption="results"))
        sent = await server.wait_for_message_async(chat_id=USER, predicate=lambda m: m["method"] == "sendDocument")
    assert errors == []

    text, document = server.sent_messages(USER)
    assert text["text"] == f"round 3.trf: {len(content)} bytes, caption=results"
    assert sent is document
    assert document["content"] == content[::-1]
    assert document["file_name"] == "reversed é.bin"
    assert document["caption"] == "back"
    assert server.file_content(document["file_id"]) == content[::-1]
    assert server.calls_to("getFile") == [{"file_id": file_id}]
    assert [p["file_path"] for p in server.calls_to("download")] == ["documents/file_1.trf"]


@pytest.mark.asyncio
async def test_redelivered_update_reaches_the_handler_twice(server: FakeTelegram) -> None:
    seen: list[int] = []

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.append(update.update_id)
        await update.message.reply_text("ok")

    application = _builder(server).build()
    application.add_handler(MessageHandler(filters.TEXT, record))
    async with running(application) as errors:
        update = server.text_message(USER, "1-0 board 3")
        first = server.push_update(update)
        await server.wait_for_message_async(chat_id=USER)
        assert server.push_update(update) == first  # same dict: same update_id
        await server.wait_for_message_async(chat_id=USER, count=2)
        server.redeliver(first)
        await server.wait_for_message_async(chat_id=USER, count=3)
    assert errors == []
    assert seen == [first, first, first]


# --------------------------------------------------------------------------- raw HTTP


def test_wrong_token_and_unknown_method(server: FakeTelegram) -> None:
    status, body = _json_call(server, "getMe", token="999:wrong")
    assert (status, body) == (401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
    status, body = _json_call(server, "sendTelepathy")
    assert status == 404
    assert body == {"ok": False, "error_code": 404, "description": "Not Found: method not found"}
    status, body = _json_call(server, "getMe")
    assert status == 200
    assert body["result"]["is_bot"] is True
    assert body["result"]["id"] == 123456789


def test_json_and_form_bodies_are_decoded(server: FakeTelegram) -> None:
    status, body = _json_call(server, "sendMessage", {"chat_id": 7, "text": "42"})
    assert status == 200
    message = body["result"]
    assert message["chat"] == {"id": 7, "type": "private", "first_name": "User7"}
    assert message["text"] == "42"
    assert message["from"]["is_bot"] is True

    form = urllib.parse.urlencode(
        {"chat_id": "7", "text": "123", "reply_markup": json.dumps({"inline_keyboard": [[{"text": "a", "url": "u"}]]})}
    ).encode()
    status, body = _api(server, "sendMessage", form, "application/x-www-form-urlencoded")
    assert status == 200
    assert body["result"]["text"] == "123"
    assert body["result"]["message_id"] == message["message_id"] + 1
    assert body["result"]["reply_markup"]["inline_keyboard"][0][0]["text"] == "a"
    assert server.sent_messages(7)[1]["chat_id"] == 7

    status, body = _json_call(server, "sendMessage", {"chat_id": 7, "text": ""})
    assert (status, body["description"]) == (400, "Bad Request: message text is empty")


def test_edit_rules_match_telegram(server: FakeTelegram) -> None:
    keyboard = {"inline_keyboard": [[{"text": "x", "callback_data": "x"}]]}
    _, body = _json_call(server, "sendMessage", {"chat_id": 5, "text": "a", "reply_markup": keyboard})
    message_id = body["result"]["message_id"]
    status, body = _json_call(
        server, "editMessageText", {"chat_id": 5, "message_id": message_id, "text": "a", "reply_markup": keyboard}
    )
    assert status == 400
    assert body["description"].startswith("Bad Request: message is not modified")
    status, body = _json_call(server, "editMessageText", {"chat_id": 5, "message_id": message_id, "text": "a"})
    assert status == 200
    assert "reply_markup" not in body["result"]  # no reply_markup: the keyboard is gone
    status, body = _json_call(server, "editMessageText", {"chat_id": 5, "message_id": 999, "text": "b"})
    assert (status, body["description"]) == (400, "Bad Request: message to edit not found")
    status, body = _json_call(server, "answerCallbackQuery", {"callback_query_id": "nope"})
    assert status == 400


def test_get_updates_long_poll_offset_limit_and_allowed_updates(server: FakeTelegram) -> None:
    started = time.monotonic()
    status, body = _json_call(server, "getUpdates", {"timeout": 0})
    assert (status, body) == (200, {"ok": True, "result": []})

    # A waiting long poll wakes up as soon as an update is pushed.
    timer = threading.Timer(0.2, lambda: server.push_update(server.text_message(1, "a")))
    timer.start()
    status, body = _json_call(server, "getUpdates", {"timeout": 5})
    timer.join()
    assert status == 200
    assert [u["message"]["text"] for u in body["result"]] == ["a"]
    assert time.monotonic() - started < 4.5  # woken by the update, not by the 5 s timeout
    first_id = body["result"][0]["update_id"]

    # Without offset the delivered update comes again; offset confirms it.
    _, body = _json_call(server, "getUpdates", {})
    assert [u["update_id"] for u in body["result"]] == [first_id]
    for text in "bcd":
        server.push_update(server.text_message(1, text))
    _, body = _json_call(server, "getUpdates", {"offset": first_id + 1, "limit": 2})
    assert [u["message"]["text"] for u in body["result"]] == ["b", "c"]
    _, body = _json_call(server, "getUpdates", {"offset": body["result"][-1]["update_id"] + 1})
    assert [u["message"]["text"] for u in body["result"]] == ["d"]

    # allowed_updates filters (and drops) other kinds; an empty timeout returns at once.
    server.push_update(server.text_message(1, "dropped"))
    server.push_update(server.callback_query(1, "cb", {"chat_id": 1, "message_id": 1}))
    _, body = _json_call(server, "getUpdates", {"offset": -1, "allowed_updates": ["callback_query"]})
    assert [u["callback_query"]["data"] for u in body["result"]] == ["cb"]

    started = time.monotonic()
    _, body = _json_call(server, "getUpdates", {"offset": body["result"][-1]["update_id"] + 1, "timeout": 0.3})
    assert body["result"] == []
    assert 0.25 < time.monotonic() - started < 4


def test_fail_next_then_success(server: FakeTelegram) -> None:
    server.fail_next("getMe", status=502)
    server.fail_next("sendMessage", retry_after=7)
    assert _json_call(server, "getMe")[0] == 502
    assert _json_call(server, "getMe")[0] == 200
    status, body = _json_call(server, "sendMessage", {"chat_id": 1, "text": "x"})
    assert status == 429
    assert body == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 7",
        "parameters": {"retry_after": 7},
    }
    assert _json_call(server, "sendMessage", {"chat_id": 1, "text": "x"})[0] == 200


def test_stop_releases_a_waiting_long_poll() -> None:
    result: list[int] = []
    with FakeTelegram(TOKEN) as fake:
        poller = threading.Thread(target=lambda: result.append(_json_call(fake, "getUpdates", {"timeout": 30})[0]))
        poller.start()
        fake.wait_for_call("getUpdates", timeout=5)
        started = time.monotonic()
    poller.join(10)
    assert result == [200]
    assert time.monotonic() - started < 10  # far less than the poll's 30 s, even on a loaded machine
    assert _server_threads() == []
