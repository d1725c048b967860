"""A fake Telegram Bot API server for end-to-end tests (standard library only).

It listens on 127.0.0.1 on a free port, in a background thread, and speaks the Bot API layout
``<url>/bot<token>/<method>`` and ``<url>/file/bot<token>/<file_path>``, so python-telegram-bot's
real network stack (HTTPXRequest) can talk to it::

    with FakeTelegram(TOKEN) as server:
        app = (
            Application.builder()
            .token(TOKEN)
            .base_url(f"{server.url}/bot")
            .base_file_url(f"{server.url}/file/bot")
            .build()
        )
        ...
        server.push_update(server.command(42, "start"))
        reply = await server.wait_for_message_async(chat_id=42)

Requests are accepted as JSON bodies, url-encoded forms (what PTB sends, every value JSON-encoded
except plain strings), multipart/form-data (file uploads) and query strings. Every call is
recorded in ``server.calls``; the bot's visible output (sendMessage, sendDocument, edits) in
``server.sent_messages()``.

Behaviour copied from the real Bot API on purpose, because bots must cope with it:
- ``getUpdates`` forgets updates below ``offset`` only once they have been delivered, waits up
  to ``timeout`` seconds and wakes up as soon as an update is pushed; a newer ``getUpdates``
  terminates a still-waiting older one with 409 Conflict (as Telegram does).
- ``editMessageText`` without ``reply_markup`` removes the message's inline keyboard, and an
  edit that changes nothing fails with 400 "message is not modified".
- ``answerCallbackQuery`` with an id the server never issued fails with 400.

A file registered with ``add_file(..., hide_size=True)`` behaves as a hostile or broken server
may: no ``file_size`` in the document or in ``getFile``, and the download is sent in chunks
without a ``Content-Length``; the ``download`` call records how many bytes reached the socket
before the client hung up (``sent``).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import mimetypes
import re
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlsplit

if TYPE_CHECKING:
    from telegram.ext import Application

__all__ = ["ApiError", "FakeTelegram"]

Call = tuple[str, dict[str, Any]]

# Parameters whose form value is a plain string even when it looks like JSON (PTB sends strings
# unencoded and everything else json.dumps'ed, so "123" as text must stay "123").
_STRING_PARAMS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "file_id",
        "url",
        "inline_message_id",
        "business_connection_id",
        "message_effect_id",
        "language_code",
        "secret_token",
        "ip_address",
        "document",
        "photo",
        "audio",
        "video",
        "animation",
        "voice",
        "video_note",
        "sticker",
        "thumbnail",
        "description",
        "short_description",
        "name",
        "title",
        "emoji",
        "action",
    }
)
_JSON_START = re.compile(r"^\s*(?:[\[{\"]|-?\d|true$|false$|null$)")

# Update types Telegram leaves out unless they are asked for explicitly.
_OPT_IN_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


class ApiError(Exception):
    """An error answer of the Bot API: ``{"ok": false, "error_code": ..., "description": ...}``."""

    def __init__(self, status: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": False, "error_code": self.status, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def _bad_request(what: str) -> ApiError:
    return ApiError(400, f"Bad Request: {what}")


def _error_for(status: int, retry_after: int, description: str | None) -> ApiError:
    if status == 429:
        return ApiError(
            429, description or f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
        )
    if description is None:
        defaults = {
            400: "Bad Request: injected failure",
            401: "Unauthorized",
            403: "Forbidden: bot was blocked by the user",
            404: "Not Found",
            409: "Conflict: terminated by other getUpdates request",
            500: "Internal Server Error",
            502: "Bad Gateway",
        }
        try:
            description = defaults.get(status) or HTTPStatus(status).phrase
        except ValueError:
            description = f"Error {status}"
    return ApiError(status, description)


def _decode_form_value(key: str, value: str) -> Any:
    if key in _STRING_PARAMS or not _JSON_START.match(value):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _parse_header_params(value: str) -> tuple[str, dict[str, str]]:
    """``form-data; name="a"; filename="b.txt"`` -> ("form-data", {"name": "a", "filename": "b.txt"})."""
    main, _, rest = value.partition(";")
    params: dict[str, str] = {}
    for match in re.finditer(r'([\w*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))', rest):
        key = match.group(1).lower()
        if match.group(2) is not None:
            # httpx escapes '"' as %22 (HTML5 form encoding) and backslashes as '\\'.
            raw = re.sub(r"\\(.)", r"\1", match.group(2)).replace("%22", '"')
        else:
            raw = match.group(3).strip()
        params[key] = raw
    return main.strip().lower(), params


def _parse_multipart(body: bytes, boundary: str) -> tuple[dict[str, str], dict[str, tuple[str, bytes, str]]]:
    """Split a multipart/form-data body into text fields and files (name -> (filename, data, type))."""
    fields: dict[str, str] = {}
    files: dict[str, tuple[str, bytes, str]] = {}
    delimiter = b"--" + boundary.encode("latin-1")
    chunks = body.split(delimiter)
    for chunk in chunks[1:]:
        if chunk.startswith(b"--"):  # closing delimiter
            break
        chunk = chunk.removeprefix(b"\r\n").removesuffix(b"\r\n")
        head, sep, data = chunk.partition(b"\r\n\r\n")
        if not sep:
            continue
        headers: dict[str, str] = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            name, _, val = line.partition(":")
            headers[name.strip().lower()] = val.strip()
        _, disposition = _parse_header_params(headers.get("content-disposition", ""))
        name = disposition.get("name")
        if name is None:
            continue
        if "filename" in disposition:
            content_type = headers.get("content-type", "application/octet-stream")
            files[name] = (disposition["filename"], data, content_type)
        else:
            fields[name] = data.decode("utf-8", "replace")
    return fields, files


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # joined by server_close(): no thread outlives the fake
    block_on_close = True

    def __init__(self, fake: FakeTelegram):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake = fake
        self.connections: set[Any] = set()
        self.busy: set[Any] = set()  # connections answering a request (not idle in keep-alive)
        self.connections_lock = threading.Lock()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients hang up mid-request all the time (PTB cancels its long poll on shutdown).
        pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go in two writes: no Nagle delay between them
    server: _Server

    def setup(self) -> None:
        super().setup()
        with self.server.connections_lock:
            self.server.connections.add(self.connection)

    def finish(self) -> None:
        with self.server.connections_lock:
            self.server.connections.discard(self.connection)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _handle(self) -> None:
        with self.server.connections_lock:
            self.server.busy.add(self.connection)
        try:
            self._answer()
        finally:
            with self.server.connections_lock:
                self.server.busy.discard(self.connection)
            if self.server.fake._closing:
                self.close_connection = True  # stopping: no further request on this connection

    def _answer(self) -> None:
        try:
            body = self._read_body()
        except (OSError, ValueError):
            self.close_connection = True
            return
        try:
            status, content_type, payload = self.server.fake._dispatch(
                self.command, self.path, self.headers.get("Content-Type", ""), body
            )
        except ConnectionError:
            return
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if isinstance(payload, _Stream):
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if isinstance(payload, _Stream):
            payload.send(self)
            return
        with contextlib.suppress(OSError):
            self.wfile.write(payload)


class _Stream:
    """A download sent in 64 kB chunks without a length; ``record["sent"]`` counts what was written."""

    def __init__(self, content: bytes, record: dict[str, Any]) -> None:
        self.content = content
        self.record = record

    def send(self, handler: BaseHTTPRequestHandler) -> None:
        self.record["sent"] = 0
        try:
            for start in range(0, len(self.content), 65536):
                piece = self.content[start:start + 65536]
                handler.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                self.record["sent"] += len(piece)
            handler.wfile.write(b"0\r\n\r\n")
        except OSError:  # the client hung up
            handler.close_connection = True


class FakeTelegram:
    """A fake Bot API server. Use as a context manager; see the module docstring."""

    def __init__(
        self,
        token: str,
        *,
        bot_username: str = "tiebreak_test_bot",
        bot_first_name: str = "Tiebreak Test Bot",
    ):
        self.token = token
        bot_id_part = token.split(":", 1)[0]
        self.bot_user: dict[str, Any] = {
            "id": int(bot_id_part) if bot_id_part.isdigit() else 123456789,
            "is_bot": True,
            "first_name": bot_first_name,
            "username": bot_username,
        }
        self._cond = threading.Condition(threading.RLock())
        self._calls: list[Call] = []
        self._sent: list[dict[str, Any]] = []
        self._queue: list[dict[str, Any]] = []  # {"update": dict, "delivered": bool}
        self._history: dict[int, dict[str, Any]] = {}
        self._update_ids = itertools.count(10_001)
        self._message_ids: dict[int | str, itertools.count[int]] = {}
        self._messages: dict[tuple[int | str, int], dict[str, Any]] = {}
        self._chats: dict[int | str, dict[str, Any]] = {}
        self._files: dict[str, dict[str, Any]] = {}
        self._file_paths: dict[str, str] = {}
        self._file_counter = itertools.count(1)
        self._callback_ids: set[str] = set()
        self._failures: dict[str, list[ApiError]] = {}
        self._allowed_updates: set[str] | None = None
        self._poll_generation = 0
        self._webhook_url = ""
        self.commands: list[dict[str, Any]] = []
        self._closing = False
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> FakeTelegram:
        if self._httpd is not None:
            raise RuntimeError("FakeTelegram already started")
        self._closing = False
        self._httpd = _Server(self)
        host, port = self._httpd.server_address[:2]
        self.url = f"http://{host}:{port}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="FakeTelegram", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, thread = self._httpd, self._thread
        if httpd is None:
            return
        with self._cond:
            self._closing = True  # wakes waiting getUpdates calls
            self._cond.notify_all()
        httpd.shutdown()
        # Idle keep-alive connections would keep their handler threads blocked in a read; a
        # connection answering a request (a woken long poll) finishes its answer first.
        with httpd.connections_lock:
            connections = list(httpd.connections - httpd.busy)
        for conn in connections:
            with contextlib.suppress(OSError):
                conn.shutdown(2)  # socket.SHUT_RDWR
        httpd.server_close()  # joins the handler threads
        if thread is not None:
            thread.join(5)
        self._httpd = self._thread = None

    def __enter__(self) -> FakeTelegram:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ recorded state

    @property
    def calls(self) -> list[Call]:
        """Every API call received so far, failed ones included, as (method, params) in order."""
        with self._cond:
            return list(self._calls)

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        """The params of every call of ``method`` (case-insensitive)."""
        wanted = method.lower()
        return [params for name, params in self.calls if name.lower() == wanted]

    def sent_messages(self, chat_id: int | str | None = None) -> list[dict[str, Any]]:
        """What the bot successfully sent or edited, in order.

        Each entry is the call's params plus ``method`` and ``message_id`` (the message created or
        edited); a sendDocument entry also has ``file_id``, ``file_name``, ``mime_type`` and
        ``content`` (bytes) instead of the raw ``document`` param.
        """
        with self._cond:
            entries = list(self._sent)
        if chat_id is None:
            return entries
        return [entry for entry in entries if _same_chat(entry.get("chat_id"), chat_id)]

    def file_content(self, file_id: str) -> bytes:
        """The bytes of a file known to the server (added with add_file or uploaded by the bot)."""
        with self._cond:
            return self._files[file_id]["content"]

    @property
    def pending_updates(self) -> int:
        """How many pushed updates have not been handed out by getUpdates yet."""
        with self._cond:
            return sum(1 for entry in self._queue if not entry["delivered"])

    # ------------------------------------------------------------------ waiting

    def wait_for(self, predicate: Callable[[list[Call]], Any], timeout: float = 10) -> Any:
        """Block until ``predicate(calls)`` is truthy and return its value.

        Re-evaluated whenever a call is recorded and every 50 ms.
        ``calls`` is a snapshot of :attr:`calls`. Thread-safe; from async code use
        ``await asyncio.to_thread(server.wait_for, predicate)`` or :meth:`wait_for_async`.
        Raises TimeoutError listing the recorded calls.
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                result = predicate(list(self._calls))
                if result:
                    return result
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    seen = [(m, p) for m, p in self._calls if m != "getUpdates"]
                    raise TimeoutError(f"condition not met within {timeout}s; calls (getUpdates omitted): {seen!r}")
                # Woken by every recorded call; re-checked every 50 ms too, for predicates that look
                # at state outside the server (e.g. a list the bot's handlers append to).
                self._cond.wait(min(remaining, 0.05))

    def wait_for_call(
        self, method: str, predicate: Callable[[dict[str, Any]], Any] | None = None, timeout: float = 10
    ) -> dict[str, Any]:
        """Wait for a call of ``method`` (whose params satisfy ``predicate``) and return its params."""
        wanted = method.lower()

        def find(calls: list[Call]) -> dict[str, Any] | None:
            for name, params in calls:
                if name.lower() == wanted and (predicate is None or predicate(params)):
                    return params
            return None

        return self.wait_for(find, timeout)

    def wait_for_message(
        self,
        chat_id: int | str | None = None,
        *,
        count: int = 1,
        predicate: Callable[[dict[str, Any]], Any] | None = None,
        timeout: float = 10,
    ) -> dict[str, Any]:
        """Wait until ``count`` sent_messages(chat_id) entries (satisfying ``predicate``) exist;
        return the ``count``-th one."""

        def find(_calls: list[Call]) -> dict[str, Any] | None:
            matching = [m for m in self.sent_messages(chat_id) if predicate is None or predicate(m)]
            return matching[count - 1] if len(matching) >= count else None

        return self.wait_for(find, timeout)

    async def wait_for_async(self, predicate: Callable[[list[Call]], Any], timeout: float = 10) -> Any:
        return await asyncio.to_thread(self.wait_for, predicate, timeout)

    async def wait_for_call_async(
        self, method: str, predicate: Callable[[dict[str, Any]], Any] | None = None, timeout: float = 10
    ) -> dict[str, Any]:
        return await asyncio.to_thread(self.wait_for_call, method, predicate, timeout)

    async def wait_for_message_async(
        self,
        chat_id: int | str | None = None,
        *,
        count: int = 1,
        predicate: Callable[[dict[str, Any]], Any] | None = None,
        timeout: float = 10,
    ) -> dict[str, Any]:
        return await asyncio.to_thread(
            lambda: self.wait_for_message(chat_id, count=count, predicate=predicate, timeout=timeout)
        )

    # ------------------------------------------------------------------ test controls

    def push_update(self, update: dict[str, Any]) -> int:
        """Queue an update for getUpdates and return its update_id.

        An update without ``update_id`` gets the next one, written into the given dict too, so
        pushing the same dict again re-delivers the same update_id (as Telegram does when it did
        not get a confirmation).
        """
        with self._cond:
            if "update_id" not in update:
                update["update_id"] = next(self._update_ids)
            update_id = int(update["update_id"])
            stored = copy.deepcopy(update)
            self._history[update_id] = stored
            self._remember_chats(stored)
            self._queue.append({"update": stored, "delivered": False})
            self._cond.notify_all()
            return update_id

    def redeliver(self, update_id: int) -> int:
        """Queue an already pushed update once more, with the same update_id."""
        with self._cond:
            return self.push_update(copy.deepcopy(self._history[update_id]))

    def fail_next(
        self,
        method: str,
        status: int = 429,
        retry_after: int = 1,
        *,
        description: str | None = None,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail with ``status`` (429: with retry_after)."""
        with self._cond:
            errors = self._failures.setdefault(method.lower(), [])
            errors.extend(_error_for(status, retry_after, description) for _ in range(times))

    def failures_pending(self, method: str) -> int:
        """How many failures ``fail_next`` queued for ``method`` have not happened yet."""
        with self._cond:
            return len(self._failures.get(method.lower(), []))

    def add_file(self, content: bytes, file_name: str, mime_type: str | None = None, *, hide_size: bool = False) -> str:
        """Register a file users can send to the bot; returns its file_id (for document_message).
        ``hide_size``: its size is declared nowhere (see the module docstring)."""
        with self._cond:
            file_id = self._store_file(content, file_name, mime_type)
            self._files[file_id]["hide_size"] = hide_size
            return file_id

    # ------------------------------------------------------------------ update builders

    def user(
        self,
        user_id: int,
        *,
        language_code: str | None = "en",
        username: str | None = None,
        first_name: str | None = None,
    ) -> dict[str, Any]:
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name or f"User{user_id}"}
        if username is None:
            username = f"user{user_id}"
        if username:
            user["username"] = username
        if language_code:
            user["language_code"] = language_code
        return user

    def _chat_for(self, user: dict[str, Any], chat_id: int | str | None) -> dict[str, Any]:
        if chat_id is None or chat_id == user["id"]:
            chat = {"id": user["id"], "type": "private", "first_name": user["first_name"]}
            if "username" in user:
                chat["username"] = user["username"]
            return chat
        with self._cond:
            known = self._chats.get(chat_id)
        return copy.deepcopy(known) if known else _default_chat(chat_id)

    def text_message(
        self,
        user_id: int,
        text: str,
        chat_id: int | str | None = None,
        language_code: str | None = "en",
        username: str | None = None,
        *,
        first_name: str | None = None,
        entities: list[dict[str, Any]] | None = None,
        reply_to: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """An update with a text message from a user (private chat unless chat_id says otherwise)."""
        user = self.user(user_id, language_code=language_code, username=username, first_name=first_name)
        message = self._incoming_message(user, chat_id)
        message["text"] = text
        if entities:
            message["entities"] = entities
        if reply_to is not None:
            message["reply_to_message"] = self._resolve_message(reply_to)
        return {"message": message}

    def command(
        self,
        user_id: int,
        command: str,
        args: str | Iterable[str] = "",
        chat_id: int | str | None = None,
        language_code: str | None = "en",
        username: str | None = None,
        *,
        first_name: str | None = None,
    ) -> dict[str, Any]:
        """An update with ``/command args`` and the bot_command entity CommandHandler needs."""
        word = command if command.startswith("/") else f"/{command}"
        rest = args if isinstance(args, str) else " ".join(args)
        text = f"{word} {rest}" if rest else word
        entity = {"type": "bot_command", "offset": 0, "length": len(word.encode("utf-16-le")) // 2}
        return self.text_message(
            user_id, text, chat_id, language_code, username, first_name=first_name, entities=[entity]
        )

    def callback_query(
        self,
        user_id: int,
        data: str,
        message: dict[str, Any],
        *,
        language_code: str | None = "en",
        username: str | None = None,
        first_name: str | None = None,
    ) -> dict[str, Any]:
        """An update for a press on an inline button of ``message``.

        ``message`` is a message the bot sent: a Message dict (with ``chat``) or an entry of
        sent_messages() (with ``chat_id``); its current (possibly edited) state is used.
        """
        user = self.user(user_id, language_code=language_code, username=username, first_name=first_name)
        query_id = str(uuid.uuid4().int >> 64)
        with self._cond:
            self._callback_ids.add(query_id)
        return {
            "callback_query": {
                "id": query_id,
                "from": user,
                "chat_instance": str(abs(hash(("chat_instance", _chat_key(message)[0]))) % 10**18),
                "data": data,
                "message": self._resolve_message(message),
            }
        }

    def document_message(
        self,
        user_id: int,
        file_id: str,
        file_name: str | None = None,
        caption: str | None = None,
        chat_id: int | str | None = None,
        language_code: str | None = "en",
        username: str | None = None,
        *,
        first_name: str | None = None,
    ) -> dict[str, Any]:
        """An update with a document (registered with add_file) sent by a user."""
        with self._cond:
            info = self._files[file_id]
        user = self.user(user_id, language_code=language_code, username=username, first_name=first_name)
        message = self._incoming_message(user, chat_id)
        document = _document_object(info)
        if file_name is not None:
            document["file_name"] = file_name
        message["document"] = document
        if caption is not None:
            message["caption"] = caption
        return {"message": message}

    # ------------------------------------------------------------------ internals: helpers

    def _next_message_id(self, chat_id: int | str) -> int:
        with self._cond:
            counter = self._message_ids.setdefault(chat_id, itertools.count(1))
            return next(counter)

    def _incoming_message(self, user: dict[str, Any], chat_id: int | str | None) -> dict[str, Any]:
        chat = self._chat_for(user, chat_id)
        return {"message_id": self._next_message_id(chat["id"]), "from": user, "chat": chat, "date": int(time.time())}

    def _remember_chats(self, update: dict[str, Any]) -> None:
        for value in update.values():
            if isinstance(value, dict):
                message = value.get("message", value)
                chat = message.get("chat") if isinstance(message, dict) else None
                if isinstance(chat, dict) and "id" in chat:
                    self._chats[chat["id"]] = copy.deepcopy(chat)

    def _resolve_message(self, message: dict[str, Any]) -> dict[str, Any]:
        key = _chat_key(message)
        with self._cond:
            if key in self._messages:
                return copy.deepcopy(self._messages[key])
            if "chat" in message:
                return copy.deepcopy(message)
            # An unknown sent_messages()-style entry: make it a minimal valid Message.
            return {
                "message_id": key[1],
                "from": dict(self.bot_user),
                "chat": self._chat_object(key[0]),
                "date": int(time.time()),
                "text": str(message.get("text", "")),
            }

    def _store_file(self, content: bytes, file_name: str, mime_type: str | None) -> str:
        number = next(self._file_counter)
        file_id = f"BQACAgIAAxkBAAI{uuid.uuid4().hex}"
        ext = file_name.rsplit(".", 1)[-1] if "." in file_name else "bin"
        file_path = f"documents/file_{number}.{ext}"
        self._files[file_id] = {
            "file_id": file_id,
            "file_unique_id": f"AgAD{uuid.uuid4().hex[:12]}",
            "file_name": file_name,
            "mime_type": mime_type or mimetypes.guess_type(file_name)[0] or "application/octet-stream",
            "content": bytes(content),
            "file_path": file_path,
        }
        self._file_paths[file_path] = file_id
        return file_id

    def _chat_object(self, chat_id: int | str) -> dict[str, Any]:
        known = self._chats.get(chat_id)
        if known is None and isinstance(chat_id, str) and chat_id.lstrip("-").isdigit():
            known = self._chats.get(int(chat_id))
        return copy.deepcopy(known) if known else _default_chat(chat_id)

    def _new_bot_message(self, chat_id: Any) -> dict[str, Any]:
        if chat_id is None or chat_id == "":
            raise _bad_request("chat_id is empty")
        chat = self._chat_object(chat_id)
        return {
            "message_id": self._next_message_id(chat["id"]),
            "from": dict(self.bot_user),
            "chat": chat,
            "date": int(time.time()),
        }

    def _record_sent(self, method: str, params: dict[str, Any], message: dict[str, Any] | None) -> None:
        entry = {"method": method, **params}
        if message is not None:
            entry["chat_id"] = message["chat"]["id"]
            entry["message_id"] = message["message_id"]
        self._sent.append(entry)

    def _find_message(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id, message_id = params.get("chat_id"), params.get("message_id")
        if chat_id is None or message_id is None:
            raise _bad_request("message identifier is not specified")
        chat = self._chat_object(chat_id)
        message = self._messages.get((chat["id"], int(message_id)))
        if message is None:
            raise _bad_request("message to edit not found")
        return message

    # ------------------------------------------------------------------ internals: HTTP

    def _dispatch(self, http_method: str, raw_path: str, content_type: str,
                  body: bytes) -> tuple[int, str, bytes | _Stream]:
        parts = urlsplit(raw_path)
        path = unquote(parts.path)
        if path.startswith("/file/bot"):
            return self._serve_file(path.removeprefix("/file/bot"))
        if not path.startswith("/bot") or "/" not in path[4:]:
            return _json_response(ApiError(404, "Not Found").body(), 404)
        token, _, method = path[4:].partition("/")
        if token != self.token:
            return _json_response(ApiError(401, "Unauthorized").body(), 401)
        try:
            params, files = _parse_params(parts.query, content_type, body)
        except ValueError as exc:
            return _json_response(_bad_request(f"can't parse request: {exc}").body(), 400)
        handler = _METHODS.get(method.lower())
        name = handler[0] if handler else method
        with self._cond:
            self._calls.append((name, copy.deepcopy(params)))
            self._cond.notify_all()
            failures = self._failures.get(name.lower())
            failure = failures.pop(0) if failures else None
        if failure is not None:
            return _json_response(failure.body(), failure.status)
        if handler is None:
            return _json_response(ApiError(404, "Not Found: method not found").body(), 404)
        try:
            result = handler[1](self, params, files)
        except ApiError as exc:
            return _json_response(exc.body(), exc.status)
        return _json_response({"ok": True, "result": result}, 200)

    def _serve_file(self, rest: str) -> tuple[int, str, bytes | _Stream]:
        token, _, file_path = rest.partition("/")
        if token != self.token:
            return _json_response(ApiError(401, "Unauthorized").body(), 401)
        record: dict[str, Any] = {"file_path": file_path}
        with self._cond:
            file_id = self._file_paths.get(file_path)
            info = self._files.get(file_id) if file_id else None
            self._calls.append(("download", record))
            self._cond.notify_all()
        if info is None:
            return _json_response(ApiError(404, "Not Found").body(), 404)
        if info.get("hide_size"):
            return 200, info["mime_type"], _Stream(info["content"], record)
        return 200, info["mime_type"], info["content"]

    # ------------------------------------------------------------------ API methods

    def _get_me(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def _get_updates(self, params: dict[str, Any], files: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        limit = max(1, min(100, int(params.get("limit") or 100)))
        timeout = max(0.0, float(params.get("timeout") or 0))
        deadline = time.monotonic() + timeout
        with self._cond:
            if self._webhook_url:
                raise ApiError(
                    409,
                    "Conflict: can't use getUpdates method while webhook is active; "
                    "use deleteWebhook to delete the webhook first",
                )
            if "allowed_updates" in params and params["allowed_updates"] is not None:
                allowed = params["allowed_updates"]
                if isinstance(allowed, str):
                    allowed = json.loads(allowed)
                self._allowed_updates = set(allowed) or None
            self._poll_generation += 1
            generation = self._poll_generation
            self._cond.notify_all()  # an older, still waiting getUpdates ends with 409 Conflict
            self._confirm(offset)
            while True:
                if generation != self._poll_generation:
                    raise ApiError(
                        409,
                        "Conflict: terminated by other getUpdates request; "
                        "make sure that only one bot instance is running",
                    )
                batch = self._deliverable(limit)
                remaining = deadline - time.monotonic()
                if batch or self._closing or remaining <= 0:
                    break
                self._cond.wait(remaining)
            for entry in batch:
                entry["delivered"] = True
            return [copy.deepcopy(entry["update"]) for entry in batch]

    def _confirm(self, offset: int) -> None:
        if offset < 0:  # the last -offset updates are kept, all earlier ones forgotten
            keep = self._queue[offset:]
            self._queue = keep
            return
        self._queue = [
            entry for entry in self._queue if not (entry["delivered"] and entry["update"]["update_id"] < offset)
        ]

    def _deliverable(self, limit: int) -> list[dict[str, Any]]:
        allowed = self._allowed_updates
        kept = []
        for entry in self._queue:
            kind = next((key for key in entry["update"] if key != "update_id"), "")
            wanted = kind not in _OPT_IN_UPDATES if allowed is None else kind in allowed
            if wanted:
                kept.append(entry)
        # Unwanted update types are dropped, as Telegram does.
        self._queue = kept
        ordered = sorted(kept, key=lambda entry: entry["update"]["update_id"])
        return ordered[:limit]

    def _delete_webhook(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        with self._cond:
            self._webhook_url = ""
            if params.get("drop_pending_updates"):
                self._queue.clear()
        return True

    def _set_webhook(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        url = params.get("url")
        if not url:
            raise _bad_request("bad webhook: an HTTPS URL must be provided for webhook")
        with self._cond:
            self._webhook_url = url
            if params.get("drop_pending_updates"):
                self._queue.clear()
        return True

    def _get_webhook_info(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            return {
                "url": self._webhook_url,
                "has_custom_certificate": False,
                "pending_update_count": len(self._queue),
            }

    def _set_my_commands(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _bad_request('parameter "commands" is required')
        with self._cond:
            self.commands = commands
        return True

    def _get_my_commands(self, params: dict[str, Any], files: dict[str, Any]) -> list[dict[str, Any]]:
        with self._cond:
            return list(self.commands)

    def _delete_my_commands(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        with self._cond:
            self.commands = []
        return True

    def _send_message(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        text = params.get("text")
        if not text:
            raise _bad_request("message text is empty")
        with self._cond:
            message = self._new_bot_message(params.get("chat_id"))
            message["text"] = str(text)
            markup = params.get("reply_markup")
            if isinstance(markup, dict) and "inline_keyboard" in markup:
                message["reply_markup"] = markup
            self._messages[(message["chat"]["id"], message["message_id"])] = message
            self._record_sent("sendMessage", params, message)
            return copy.deepcopy(message)

    def _send_document(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        document = params.get("document")
        with self._cond:
            if isinstance(document, str) and document.startswith("attach://"):
                upload = files.get(document.removeprefix("attach://"))
            else:
                upload = files.get("document")
            if upload is not None:
                file_name, content, mime_type = upload
                file_id = self._store_file(content, file_name, mime_type)
            elif isinstance(document, str) and document in self._files:
                file_id = document
            else:
                raise _bad_request("wrong file identifier/HTTP URL specified")
            info = self._files[file_id]
            message = self._new_bot_message(params.get("chat_id"))
            message["document"] = _document_object(info)
            if params.get("caption"):
                message["caption"] = str(params["caption"])
            markup = params.get("reply_markup")
            if isinstance(markup, dict) and "inline_keyboard" in markup:
                message["reply_markup"] = markup
            self._messages[(message["chat"]["id"], message["message_id"])] = message
            recorded = {key: value for key, value in params.items() if key != "document"}
            recorded.update(
                file_id=file_id, file_name=info["file_name"], mime_type=info["mime_type"], content=info["content"]
            )
            self._record_sent("sendDocument", recorded, message)
            return copy.deepcopy(message)

    def _edit(self, method: str, params: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> Any:
        with self._cond:
            if params.get("inline_message_id"):
                self._record_sent(method, params, None)
                return True
            message = self._find_message(params)
            before = copy.deepcopy(message)
            change(message)
            markup = params.get("reply_markup")
            if isinstance(markup, dict) and markup.get("inline_keyboard"):
                message["reply_markup"] = markup
            else:  # an edit without reply_markup removes the inline keyboard
                message.pop("reply_markup", None)
            if message == before:
                raise _bad_request(
                    "message is not modified: specified new message content and reply markup are exactly "
                    "the same as a current content and reply markup of the message"
                )
            message["edit_date"] = int(time.time())
            self._record_sent(method, params, message)
            return copy.deepcopy(message)

    def _edit_message_text(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        text = params.get("text")
        if not text:
            raise _bad_request("message text is empty")

        def change(message: dict[str, Any]) -> None:
            if "text" not in message:
                raise _bad_request("there is no text in the message to edit")
            message["text"] = str(text)

        return self._edit("editMessageText", params, change)

    def _edit_message_reply_markup(self, params: dict[str, Any], files: dict[str, Any]) -> Any:
        return self._edit("editMessageReplyMarkup", params, lambda message: None)

    def _delete_message(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        with self._cond:
            message = self._find_message(params)
            del self._messages[(message["chat"]["id"], message["message_id"])]
            self._record_sent("deleteMessage", params, message)
        return True

    def _answer_callback_query(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        with self._cond:
            if query_id not in self._callback_ids:
                raise _bad_request("query is too old and response timeout expired or query ID is invalid")
            self._callback_ids.discard(query_id)
        return True

    def _get_file(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        file_id = str(params.get("file_id") or "")
        with self._cond:
            info = self._files.get(file_id)
        if info is None:
            raise _bad_request("invalid file_id")
        found = {
            "file_id": info["file_id"],
            "file_unique_id": info["file_unique_id"],
            "file_size": len(info["content"]),
            "file_path": info["file_path"],
        }
        if info.get("hide_size"):
            del found["file_size"]
        return found

    def _send_chat_action(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        return True

    def _ok(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        return True


_Method = Callable[[FakeTelegram, dict[str, Any], dict[str, Any]], Any]
_METHODS: dict[str, tuple[str, _Method]] = {
    name.lower(): (name, func)
    for name, func in {
        "getMe": FakeTelegram._get_me,
        "getUpdates": FakeTelegram._get_updates,
        "deleteWebhook": FakeTelegram._delete_webhook,
        "setWebhook": FakeTelegram._set_webhook,
        "getWebhookInfo": FakeTelegram._get_webhook_info,
        "setMyCommands": FakeTelegram._set_my_commands,
        "getMyCommands": FakeTelegram._get_my_commands,
        "deleteMyCommands": FakeTelegram._delete_my_commands,
        "sendMessage": FakeTelegram._send_message,
        "sendDocument": FakeTelegram._send_document,
        "editMessageText": FakeTelegram._edit_message_text,
        "editMessageReplyMarkup": FakeTelegram._edit_message_reply_markup,
        "deleteMessage": FakeTelegram._delete_message,
        "answerCallbackQuery": FakeTelegram._answer_callback_query,
        "getFile": FakeTelegram._get_file,
        "sendChatAction": FakeTelegram._send_chat_action,
        "close": FakeTelegram._ok,
        "logOut": FakeTelegram._ok,
    }.items()
}


def _parse_params(query: str, content_type: str, body: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    params: dict[str, Any] = {key: _decode_form_value(key, value) for key, value in parse_qsl(query)}
    files: dict[str, tuple[str, bytes, str]] = {}
    kind, ctype_params = _parse_header_params(content_type)
    if not body:
        return params, files
    if kind == "application/json":
        data = json.loads(body.decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError("JSON body is not an object")
        params.update(data)
    elif kind == "multipart/form-data":
        boundary = ctype_params.get("boundary")
        if not boundary:
            raise ValueError("multipart body without boundary")
        fields, files = _parse_multipart(body, boundary)
        params.update({key: _decode_form_value(key, value) for key, value in fields.items()})
    else:  # application/x-www-form-urlencoded (and anything unlabelled)
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True)
        params.update({key: _decode_form_value(key, value) for key, value in pairs})
    return params, files


def _json_response(body: dict[str, Any], status: int) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps(body).encode("utf-8")


def _default_chat(chat_id: int | str) -> dict[str, Any]:
    if isinstance(chat_id, str) and not chat_id.lstrip("-").isdigit():
        return {
            "id": -1001000000000 - abs(hash(chat_id)) % 10**9,
            "type": "channel",
            "title": chat_id,
            "username": chat_id.lstrip("@"),
        }
    numeric = int(chat_id)
    if numeric > 0:
        return {"id": numeric, "type": "private", "first_name": f"User{numeric}"}
    kind = "supergroup" if str(numeric).startswith("-100") else "group"
    return {"id": numeric, "type": kind, "title": f"Group {numeric}"}


def _chat_key(message: dict[str, Any]) -> tuple[int | str, int]:
    chat_id = message["chat"]["id"] if "chat" in message else message["chat_id"]
    if isinstance(chat_id, str) and chat_id.lstrip("-").isdigit():
        chat_id = int(chat_id)
    return chat_id, int(message["message_id"])


def _same_chat(a: Any, b: Any) -> bool:
    return str(a) == str(b)


def _document_object(info: dict[str, Any]) -> dict[str, Any]:
    document = {
        "file_id": info["file_id"],
        "file_unique_id": info["file_unique_id"],
        "file_name": info["file_name"],
        "mime_type": info["mime_type"],
        "file_size": len(info["content"]),
    }
    if info.get("hide_size"):
        del document["file_size"]
    return document


@contextlib.asynccontextmanager
async def running(application: Application, poll_timeout: float = 1) -> AsyncIterator[list[BaseException]]:
    """Run a python-telegram-bot ``application`` with long polling (``poll_timeout`` seconds)
    against the fake server and yield the list of errors its handlers raised; ``post_init``
    runs first, as in run_polling."""
    errors: list[BaseException] = []

    async def collect(update: object, context: Any) -> None:
        errors.append(context.error)

    application.add_error_handler(collect)
    async with application:
        if application.post_init is not None:
            await application.post_init(application)
        await application.start()
        await application.updater.start_polling(poll_interval=0, timeout=poll_timeout)
        try:
            yield errors
        finally:
            await application.updater.stop()
            await application.stop()
