"""Assemble the Telegram application: token, API base URL, rate limiter, handlers."""

from __future__ import annotations

import logging
import os

from telegram import BotCommand
from telegram.ext import AIORateLimiter, Application
from telegram.request import BaseRequest

from bot.handlers import register
from bot.service import BotService

API_BASE_URL_VARIABLE = "TELEGRAM_API_BASE_URL"
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
    ("undo", "Arbiters: take back my last entry"),
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
    await application.bot.set_my_commands([BotCommand(name, text) for name, text in MENU])


def quiet_http_logs() -> None:
    """httpx logs every request URL, and a Bot API URL contains the token: keep it out of logs."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
