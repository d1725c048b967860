"""Assemble the Telegram application: token, API base URL, rate limiter, handlers."""

from __future__ import annotations

import logging
import os
import re

from telegram import BotCommand
from telegram.error import TelegramError
from telegram.ext import AIORateLimiter, Application
from telegram.request import BaseRequest

from bot.handlers import register
from bot.service import BotService

API_BASE_URL_VARIABLE = "TELEGRAM_API_BASE_URL"
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
TOKEN_VARIABLE = "TELEGRAM_BOT_TOKEN"

MENU = [
    ("standings", "Standings"),
    ("round", "Pairings and results of a round"),
    ("player", "A player's results"),
    ("me", "My results (after /iam)"),
    ("tournaments", "Choose a tournament"),
    ("teams", "Team standings"),
    ("playoff", "Play-off status"),
    ("subscribe", "Messages about my games"),
    ("language", "English, 简体中文, Tiếng Việt, Español"),
    ("enter", "Arbiters: enter results by taps"),
    ("undo", "Arbiters: take back my last change"),
]


def build_application(token: str, service: BotService, *, base_url: str | None = None,
                      request: BaseRequest | None = None, retries: int = 3) -> Application:
    """The bot's Application.  ``base_url`` (default: ``$TELEGRAM_API_BASE_URL``) is the Bot
    API root: requests go to ``{base_url}/bot<token>/<method>``.  A 429 is retried up to
    ``retries`` times after the time Telegram asks for (AIORateLimiter)."""
    base_url = base_url if base_url is not None else os.environ.get(API_BASE_URL_VARIABLE)
    builder = Application.builder().token(token).rate_limiter(AIORateLimiter(max_retries=retries))
    if base_url:
        root = base_url.rstrip("/")
        builder = builder.base_url(f"{root}/bot").base_file_url(f"{root}/file/bot")
    if request is not None:
        builder = builder.request(request).get_updates_request(request)
    application = builder.post_init(_set_menu).build()
    register(application, service)
    return application


async def _set_menu(application: Application) -> None:
    """The command menu Telegram shows; a failure only leaves the menu as it was."""
    try:
        await application.bot.set_my_commands([BotCommand(name, text) for name, text in MENU])
    except TelegramError as error:
        logging.getLogger(__name__).warning("could not set the command menu: %s", error)


def quiet_http_logs() -> None:
    """httpx logs every request URL, and a Bot API URL contains the token: keep it out of logs."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    logging.getLogger("tornado.access").setLevel(logging.WARNING)


_URL = re.compile(r"(https?://[^/\s\"'<>]+)/[^\s\"'<>]*", re.IGNORECASE)


def redact(text: str, *secrets: str) -> str:
    """``text`` with the path of every URL replaced whole (a Bot API URL holds the token in its
    path, in whatever case or encoding a library wrote it), and every secret (the token, its part
    after the ``:`` on its own, and its URL-encoded form) replaced in any case: python-telegram-bot
    lowercases parts of the API's error texts.

    >>> redact("GET /bot123:AAH-xyz/getMe", "123:AAH-xyz")
    'GET /bot<token>/getMe'
    >>> redact("POST https://api.telegram.org/bot123%3Aaah-XYZ/getMe failed: 123:aah-xyz", "123:AAH-xyz")
    'POST https://api.telegram.org/<path> failed: <token>'
    """
    text = _URL.sub(r"\1/<path>", text)
    for secret in secrets:
        for part in (secret, secret.replace(":", "%3A"), secret.partition(":")[2]):
            if len(part) >= 8:
                text = re.sub(re.escape(part), "<token>", text, flags=re.IGNORECASE)
    return text


class RedactingFormatter(logging.Formatter):
    """A log formatter that never writes the secrets, tracebacks included."""

    def __init__(self, secrets: tuple[str, ...], fmt: str | None = None) -> None:
        super().__init__(fmt)
        self.secrets = secrets

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), *self.secrets)


def protect_logs(*secrets: str) -> None:
    """Every handler of the root logger writes ``LOG_FORMAT`` with ``secrets`` redacted (a second
    line of defence: the token is in every request URL, and an exception may quote one)."""
    for handler in logging.getLogger().handlers:
        handler.setFormatter(RedactingFormatter(secrets, LOG_FORMAT))
