"""Console mode: the same application and handlers, driven from the terminal.

Bot API calls are answered by ``ConsoleRequest`` instead of Telegram: messages are printed
(HTML turned into plain text, buttons numbered), documents are written under ``data/outbox``.
Typed lines become updates from a chosen user id: ``/standings``, result lines such as
``R1 B2 1-0``, ``:tap 2`` to press button 2 of the last keyboard, ``:send PATH [caption]`` to
send a file (``:send open.trf /import``, ``:send pairs.txt /pair``), ``:user 42`` to become
another user, ``:quit`` (or Ctrl-D) to leave.  Update numbers continue after the highest the
store has seen, so a restarted console never repeats one (the store applies an update once).
"""

from __future__ import annotations

import asyncio
import html
import itertools
import json
import re
import sys
import time
from pathlib import Path
from typing import TextIO

from telegram import Update
from telegram.request import BaseRequest, RequestData

from bot.app import build_application
from bot.service import BotService

CONSOLE_TOKEN = "0:console"
SENT_FILE = "console:"  # the file id of a file sent with :send, before its path
BOT_USER = {"id": 1, "is_bot": True, "first_name": "Tiebreak", "username": "tiebreak_console_bot",
            "can_join_groups": False, "can_read_all_group_messages": False, "supports_inline_queries": False}
_TAG = re.compile(r"<[^>]+>")


class ConsoleRequest(BaseRequest):
    """Answers the Bot API calls of the console application locally."""

    def __init__(self, out: TextIO, outbox: Path) -> None:
        self.out = out
        self.outbox = outbox
        self.buttons: list[dict] = []
        self.last_message: dict | None = None
        self._ids = itertools.count(1)

    @property
    def read_timeout(self) -> float | None:
        return None

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout=None, write_timeout=None, connect_timeout=None,
                         pool_timeout=None) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1]
        params = request_data.parameters if request_data is not None else {}
        result: object = True
        if name == "getMe":
            result = BOT_USER
        elif name in ("sendMessage", "editMessageText"):
            result = self._show(params)
        elif name == "sendDocument":
            result = self._save(params, request_data.multipart_data if request_data is not None else {})
        elif name == "getFile":
            result = self._file(str(params.get("file_id", "")))
        elif name == "getUpdates":
            result = []
        return 200, json.dumps({"ok": True, "result": result}).encode()

    def _show(self, params: dict) -> dict:
        text = html.unescape(_TAG.sub("", str(params.get("text", ""))))
        chat = params.get("chat_id", 0)
        prefix = "" if chat == self._chat() else f"[to {chat}] "
        self.out.write("\n" + prefix + text + "\n")
        markup = params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        rows = (markup or {}).get("inline_keyboard", [])
        if rows:
            self.buttons = [button for row in rows for button in row]
            for number, button in enumerate(self.buttons, start=1):
                self.out.write(f"  [{number}] {button['text']}\n")
        message = {"message_id": next(self._ids), "date": int(time.time()),
                   "chat": {"id": int(chat) if str(chat).lstrip("-").isdigit() else 0, "type": "private"},
                   "from": BOT_USER, "text": text}
        if rows:
            message["reply_markup"] = {"inline_keyboard": rows}
            self.last_message = message
        self.out.flush()
        return message

    def _save(self, params: dict, files: dict) -> dict:
        """A sent document goes to the outbox under its own name (``<slug>.trf``, ``<slug>.toml``)."""
        self.outbox.mkdir(parents=True, exist_ok=True)
        name, content = "document", b""
        for file_name, data, *_ in files.values():
            name = Path(file_name or "document").name
            content = data if isinstance(data, bytes) else data.read()
        path = self.outbox / name
        path.write_bytes(content)
        caption = params.get("caption")
        self.out.write(f"\n[document written to {path}{f': {caption}' if caption else ''}]\n")
        return {"message_id": next(self._ids), "date": int(time.time()), "chat": {"id": 0, "type": "private"},
                "document": {"file_id": name, "file_unique_id": name, "file_name": name}}

    def _file(self, file_id: str) -> dict:
        """``getFile`` for a file sent with ``:send``: its id is its path, read where it is."""
        path = Path(file_id.removeprefix(SENT_FILE))
        return {"file_id": file_id, "file_unique_id": str(abs(hash(file_id))), "file_path": str(path.resolve()),
                "file_size": path.stat().st_size if path.is_file() else 0}

    def _chat(self) -> int:
        return getattr(self, "chat_id", 0)


async def run_console(service: BotService, user_id: int, language: str | None = None,
                      lines: TextIO = sys.stdin, out: TextIO = sys.stdout, outbox: Path = Path("data/outbox")) -> None:
    """Read lines and feed them to the application as updates from ``user_id``."""
    request = ConsoleRequest(out, outbox)
    request.chat_id = user_id  # type: ignore[attr-defined]
    application = build_application(CONSOLE_TOKEN, service, request=request, retries=0)
    update_ids = itertools.count(service.store.last_update_id() + 1)  # never a number the store has seen
    out.write(f"Tiebreak console: you are user {user_id}. Type /start, /standings, results such as R1 B2 1-0, "
              ":tap N to press a button, :send PATH [caption] to send a file, :user ID to switch user, "
              ":quit to leave.\n")
    async with application:
        while True:
            line = await asyncio.to_thread(_read_line, lines, out)
            if line is None or line.strip() in (":quit", ":q", "/quit"):
                break
            line = line.strip()
            if not line:
                continue
            if line.startswith(":user"):
                digits = re.findall(r"\d+", line)
                if digits:
                    user_id = int(digits[0])
                    request.chat_id = user_id  # type: ignore[attr-defined]
                    out.write(f"you are now user {user_id}\n")
                continue
            data = _update(next(update_ids), user_id, language, line, request)
            if data is None:
                out.write("no such button\n" if line.startswith(":tap") else
                          "no such file: :send PATH [caption], e.g. :send open.trf /import open\n")
                continue
            await application.process_update(Update.de_json(data, application.bot))
    out.write("bye\n")


def _read_line(lines: TextIO, out: TextIO) -> str | None:
    if lines is sys.stdin and sys.stdin.isatty():
        try:
            return input("> ")
        except EOFError:
            return None
    line = lines.readline()
    return line if line else None


def _update(update_id: int, user_id: int, language: str | None, line: str, request: ConsoleRequest) -> dict | None:
    user = {"id": user_id, "is_bot": False, "first_name": f"User {user_id}", "language_code": language or "en"}
    chat = {"id": user_id, "type": "private"}
    if line.startswith(":tap"):
        digits = re.findall(r"\d+", line)
        if not digits or not 1 <= int(digits[0]) <= len(request.buttons) or request.last_message is None:
            return None
        button = request.buttons[int(digits[0]) - 1]
        return {"update_id": update_id, "callback_query": {"id": str(update_id), "from": user,
                                                           "chat_instance": "console", "data": button["callback_data"],
                                                           "message": request.last_message}}
    message = {"message_id": 1000 + update_id, "date": int(time.time()), "chat": chat, "from": user, "text": line}
    if line.startswith(":send"):
        _, _, rest = line.partition(" ")
        path_text, _, caption = rest.strip().partition(" ")
        path = Path(path_text).expanduser()
        if not path.is_file():
            return None
        del message["text"]
        message["document"] = {"file_id": SENT_FILE + str(path.resolve()), "file_unique_id": path.name,
                               "file_name": path.name, "file_size": path.stat().st_size}
        if caption.strip():
            message["caption"] = caption.strip()
        return {"update_id": update_id, "message": message}
    if line.startswith("/"):
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(line.split()[0])}]
    return {"update_id": update_id, "message": message}
