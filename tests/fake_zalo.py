"""A fake Zalo Bot API server for end-to-end tests (standard library only), like
tests/fake_telegram.py: it listens on 127.0.0.1 on a free port, in a background thread, and speaks
the Bot API layout ``<url>/bot<token>/<method>`` (POST, JSON body, answers ``{"ok", "result",
"error_code", "description"}``), so the bot's real httpx stack talks to it::

    with FakeZalo(TOKEN) as server:
        os.environ["ZALO_API_BASE_URL"] = server.url
        message_id = server.push_text("user-1", "R1 B1 1-0")
        server.wait_for_texts("user-1", 1)

Behaviour copied from what Zalo documents, because the bot must cope with it:
- ``getUpdates`` answers ONE message (``{"event_name", "message"}``) and has no offset: a
  message is gone once its answer was written to the bot (an answer the bot hung up on puts it
  back first in line); without a message within ``timeout`` seconds it answers ``ok: false``,
  ``error_code`` 408.  It fails while a webhook is set.
- A wrong token gets 401 ``ok: false``; ``sendMessage`` refuses a text outside 1-2000 characters.

Faults: ``fail("sendMessage", 429, times=2, retry_after=1)`` answers the next calls so;
``hold_sends()`` keeps every ``sendMessage`` waiting (unanswered) until ``release_sends()``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeZalo", "post_webhook"]


class FakeZalo:
    def __init__(self, token: str) -> None:
        self.token = token
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.sent: list[dict[str, Any]] = []  # every sendMessage accepted: {"chat_id", "text"}
        self.webhook: dict[str, str] | None = None
        self._queue: deque[dict[str, Any]] = deque()
        self._lock = threading.Condition()
        self._faults: dict[str, list[tuple[int, float | None]]] = {}
        self._sends_open = threading.Event()
        self._sends_open.set()
        self._ids = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> FakeZalo:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._sends_open.set()
        with self._lock:
            self._lock.notify_all()
        self._server.shutdown()
        self._server.server_close()

    # -- what users send --------------------------------------------------------------------

    @staticmethod
    def update(user: str, text: str | None, *, chat: str | None = None, message_id: str | None = None,
               event: str = "message.text.received", group: bool = False) -> dict[str, Any]:
        """A webhook body / getUpdates answer holding one message."""
        message: dict[str, Any] = {"from": {"id": user, "display_name": f"User {user}", "is_bot": False},
                                   "chat": {"id": chat or user, "chat_type": "GROUP" if group else "PRIVATE"},
                                   "message_id": message_id or f"m{time.monotonic_ns()}",
                                   "date": int(time.time() * 1000)}
        if text is not None:
            message["text"] = text
        return {"ok": True, "result": {"event_name": event, "message": message}}

    def push(self, update: dict[str, Any]) -> None:
        with self._lock:
            self._queue.append(update)
            self._lock.notify_all()

    def push_text(self, user: str, text: str, **fields: Any) -> dict[str, Any]:
        update = self.update(user, text, **fields)
        self.push(update)
        return update

    def waiting(self) -> int:
        with self._lock:
            return len(self._queue)

    # -- faults -----------------------------------------------------------------------------

    def fail(self, method: str, status: int, *, times: int = 1, retry_after: float | None = None) -> None:
        with self._lock:
            self._faults.setdefault(method, []).extend([(status, retry_after)] * times)

    def hold_sends(self) -> None:
        self._sends_open.clear()

    def release_sends(self) -> None:
        self._sends_open.set()

    # -- what the bot sent ------------------------------------------------------------------

    def texts(self, chat: str) -> list[str]:
        with self._lock:
            return [message["text"] for message in self.sent if message["chat_id"] == chat]

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        with self._lock:
            return [body for name, body in self.calls if name == method]

    def wait_for(self, condition: Any, what: str, timeout: float = 20) -> Any:
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = condition()
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{what}: not within {timeout} s; sent: {self.sent[-5:]}")
                self._lock.wait(min(left, 0.1))

    def wait_for_texts(self, chat: str, count: int, timeout: float = 20) -> list[str]:
        self.wait_for(lambda: len([m for m in self.sent if m["chat_id"] == chat]) >= count,
                      f"{count} messages to {chat}", timeout)
        return self.texts(chat)

    async def wait_for_async(self, condition: Any, what: str, timeout: float = 20) -> Any:
        return await asyncio.to_thread(self.wait_for, condition, what, timeout)

    # -- the server -------------------------------------------------------------------------

    def _answer(self, method: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        with self._lock:
            self.calls.append((method, body))
            self._lock.notify_all()
            faults = self._faults.get(method)
            if faults:
                status, retry_after = faults.pop(0)
                headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
                return status, {"ok": False, "error_code": status, "description": f"fault {status}"}, headers
        if method == "getMe":
            return 200, {"ok": True, "result": {"id": "bot-1", "account_name": "Bot Tiebreak",
                                                "account_type": "BASIC", "can_join_groups": False}}, {}
        if method == "sendMessage":
            self._sends_open.wait()
            text = body.get("text")
            if not isinstance(text, str) or not 1 <= len(text) <= 2000 or not body.get("chat_id"):
                return 400, {"ok": False, "error_code": 400, "description": "Bad Request: text"}, {}
            with self._lock:
                self.sent.append({"chat_id": body["chat_id"], "text": text})
                self._lock.notify_all()
            return 200, {"ok": True, "result": {"message_id": f"b{next(self._ids)}", "date": 0}}, {}
        if method == "setWebhook":
            self.webhook = {"url": body.get("url", ""), "secret_token": body.get("secret_token", "")}
            return 200, {"ok": True, "result": {"url": self.webhook["url"], "updated_at": 0}}, {}
        if method == "deleteWebhook":
            self.webhook = None
            return 200, {"ok": True, "result": {"url": "", "updated_at": 0}}, {}
        if method == "getWebhookInfo":
            return 200, {"ok": True, "result": {"url": (self.webhook or {}).get("url", ""), "updated_at": 0}}, {}
        return 404, {"ok": False, "error_code": 404, "description": "Not Found"}, {}

    def _next_update(self, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        with self._lock:
            while not self._queue:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._lock.wait(min(left, 0.2))
            return self._queue.popleft()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                prefix, _, method = self.path.lstrip("/").partition("/")
                if prefix != f"bot{fake.token}":
                    self._send(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
                    return
                if method == "getUpdates":
                    with fake._lock:
                        fake.calls.append((method, body))
                        fault = fake._faults.get(method)
                        fault = fault.pop(0) if fault else None
                    if fault is not None:
                        headers = {"Retry-After": f"{fault[1]:g}"} if fault[1] is not None else {}
                        self._send(fault[0], {"ok": False, "error_code": fault[0], "description": "fault"}, headers)
                        return
                    if fake.webhook is not None:
                        self._send(200, {"ok": False, "error_code": 400, "description": "webhook is set"})
                        return
                    update = fake._next_update(min(float(body.get("timeout", 30)), 30.0))
                    if update is None:
                        self._send(200, {"ok": False, "error_code": 408, "description": "Request timeout"})
                    elif not self._send(200, update):
                        with fake._lock:  # the bot hung up: the message was not delivered
                            fake._queue.appendleft(update)
                            fake._lock.notify_all()
                    return
                status, answer, headers = fake._answer(method, body)
                self._send(status, answer, headers)

            def _send(self, status: int, answer: dict[str, Any], headers: dict[str, str] | None = None) -> bool:
                data = json.dumps(answer, ensure_ascii=False).encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in (headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                    self.wfile.flush()
                    return True
                except OSError:
                    return False

        return Handler


def post_webhook(url: str, payload: object, secret: str | None) -> int:
    """POST ``payload`` to the bot's webhook as Zalo does; the HTTP status."""
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["X-Bot-Api-Secret-Token"] = secret
    request = urllib.request.Request(url, json.dumps(payload).encode("utf-8"), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
