"""How updates reach the bot, and when Telegram is told that they arrived.

python-telegram-bot's ``Updater`` confirms updates to Telegram (the next ``getUpdates``
offset) as soon as it has fetched them, and its webhook server answers 200 as soon as an
update is queued: a bot killed before its handler stored the update (SIGKILL, the OOM killer,
a stop past the service manager's timeout) loses it for good.  Here the ``Application`` runs
without them (``run``):

- **Polling** (``poll``): ``getUpdates`` is called with the offset of the last update
  *handled*; an update is handled once ``Application.process_update`` returned for it, i.e.
  it is stored and answered, or deliberately refused (``bot/answers.py`` saves the answer
  with the store's change, so an update delivered again is answered like the first).  A bot
  killed meanwhile gets the same updates again when it starts.
- **Webhook** (``Webhook``): Telegram's request is answered 200 only after the update was
  handled; a request without the secret token that was given to ``setWebhook``
  (``X-Telegram-Bot-Api-Secret-Token``) is refused with 403 as soon as its headers are read,
  before its body, and changes nothing.  A body larger than ``MAX_UPDATE_BYTES`` (Telegram's
  updates are a few kilobytes) is refused with 413 as soon as it is known to be (its
  ``Content-Length``, or what arrived), and a body that is not an update (not JSON, nested
  too deep to read, not an update's shape) with 400.  The path is ``[bot].webhook_url``'s own.

Either way updates are handled one at a time, the arbiters' first (``first_arbiters``: of a
batch fetched together, or of the webhook requests waiting, an arbiter's result does not wait
behind players' requests), otherwise in order; and SIGTERM (or SIGINT) drains: no new update
is taken, the ones fetched are handled and confirmed, then the bot stops.

Start-up problems (a token the API rejects, a Bot API that cannot be reached) are a
``StartError``: one line, without the token, that ``python -m bot`` prints before it exits
with status 2.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import hmac
import itertools
import json
import logging
import os
import re
import secrets
import signal
from collections.abc import AsyncIterator, Awaitable, Sequence
from typing import TypeVar
from urllib.parse import urlsplit

import tornado.httpserver
import tornado.web
from telegram import Update
from telegram.error import BadRequest, Conflict, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application

from bot.app import API_BASE_URL_VARIABLE
from bot.service import BotSettings

T = TypeVar("T")

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SECRET_VARIABLE = "TELEGRAM_WEBHOOK_SECRET"
POLL_TIMEOUT = 10.0  # seconds a getUpdates call waits for updates (long polling)
MAX_UPDATE_BYTES = 1024 * 1024  # the largest webhook body read: Telegram's updates are a few kB
BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0)  # pauses after failed getUpdates calls in a row


class StartError(Exception):
    """The bot cannot start (or go on): one line saying why, never the token."""


def api_root() -> str:
    """The Bot API the bot talks to, as people write it (no token)."""
    return os.environ.get(API_BASE_URL_VARIABLE, "").rstrip("/") or "https://api.telegram.org"


def refused_token() -> StartError:
    return StartError(f"the Telegram Bot API at {api_root()} refused the token (401 Unauthorized): check "
                      "TELEGRAM_BOT_TOKEN (BotFather's /mybots shows it), or unset it for console mode")


def start_error(error: TelegramError) -> StartError:
    """A failure of the Bot API at start-up as one line."""
    if isinstance(error, InvalidToken):
        return refused_token()
    if isinstance(error, NetworkError) and not isinstance(error, BadRequest):
        return StartError(f"cannot reach the Telegram Bot API at {api_root()} ({_describe(error)}); check the "
                          "network, or unset TELEGRAM_BOT_TOKEN for console mode")
    return StartError(f"the Telegram Bot API at {api_root()} answered: {_describe(error)}")


def webhook_secret() -> str:
    """``$TELEGRAM_WEBHOOK_SECRET`` (the same for every worker behind a load balancer), else a
    new random one for this process (given to ``setWebhook`` at each start)."""
    return secret_from_environment(SECRET_VARIABLE, 1, "Telegram")


def secret_from_environment(variable: str, shortest: int, channel: str) -> str:
    """A webhook's secret from ``$variable``: ``shortest`` to 256 letters, digits, ``_`` and
    ``-`` (the rule of both Telegram's and Zalo's APIs, with their own shortest length), else a
    new random one; anything else stops the bot at start."""
    given = os.environ.get(variable, "").strip()
    if not given:
        return secrets.token_urlsafe(32)
    if not re.fullmatch(rf"[A-Za-z0-9_-]{{{shortest},256}}", given):
        raise StartError(f"{variable}: use {shortest}-256 letters, digits, '_' and '-' ({channel}'s rule)")
    return given


async def run(application: Application, settings: BotSettings, stopping: asyncio.Event | None = None) -> None:
    """Run the bot until SIGTERM or SIGINT (or until ``stopping`` is set, when given: the
    caller then handles the signals): initialise it (``getMe``), then poll or serve the webhook
    (``[bot].webhook_url``); raises ``StartError`` for what stops it."""
    signals = () if stopping is not None else (signal.SIGTERM, signal.SIGINT)
    stopping = stopping or asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in signals:
        loop.add_signal_handler(number, stopping.set)
    try:
        try:
            await application.initialize()
        except TelegramError as error:
            raise start_error(error) from None
        try:
            if application.post_init is not None:
                await application.post_init(application)
            if settings.webhook_url:
                await Webhook(application, settings, webhook_secret()).serve(stopping)
            else:
                await poll(application, stopping)
        except TelegramError as error:  # e.g. deleteWebhook or setWebhook failing at start-up
            raise start_error(error) from None
        finally:
            await application.shutdown()
    finally:
        for number in signals:
            loop.remove_signal_handler(number)


async def poll(application: Application, stopping: asyncio.Event, timeout: float = POLL_TIMEOUT) -> None:
    """Long polling that confirms an update only once it was handled (see the module's words)."""
    bot = application.bot
    await bot.delete_webhook()  # getUpdates fails while a webhook is set
    offset: int | None = None
    failures = 0
    while not stopping.is_set():
        fetched = await unless_stopping(bot.get_updates(offset=offset, timeout=timeout,
                                                        allowed_updates=Update.ALL_TYPES), stopping, TelegramError)
        if fetched is None:
            break
        try:
            updates = fetched.result()
        except TelegramError as error:
            if isinstance(error, InvalidToken):
                raise refused_token() from None
            pause = _pause(error, failures)
            failures += 1
            log.warning("getUpdates failed (%s); trying again in %g s", _describe(error), pause)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), pause)
            continue
        failures = 0
        for update in first_arbiters(application, updates):  # all of them, even when stopping: a stop drains
            await application.process_update(update)
            offset = max(offset or 0, update.update_id + 1)
    if offset is not None:  # confirm what was handled since the last call
        try:
            await bot.get_updates(offset=offset, timeout=0, limit=1, allowed_updates=Update.ALL_TYPES)
        except TelegramError as error:
            log.warning("could not confirm the last updates (%s): Telegram sends them again, and they are "
                        "answered as before", _describe(error))


def arbiters_of(application: Application) -> frozenset[int]:
    """The Telegram ids of everyone who may enter results (``BotService.arbiter_ids``)."""
    service = application.bot_data.get("service")
    return service.arbiter_ids() if service is not None else frozenset()


def first_arbiters(application: Application, updates: Sequence[Update]) -> list[Update]:
    """``updates`` with the arbiters' first, each part in its order: a flood of players'
    requests fetched with an arbiter's result does not hold the result back."""
    senders = {update.effective_user.id for update in updates if update.effective_user is not None}
    if len(senders) < 2:
        return list(updates)
    arbiters = arbiters_of(application)
    return sorted(updates, key=lambda update: update.effective_user is None
                  or update.effective_user.id not in arbiters)


async def unless_stopping(call: Awaitable[T], stopping: asyncio.Event,
                          *quiet: type[BaseException]) -> asyncio.Future[T] | None:
    """The finished task of ``call`` (its result or its error), or None when ``stopping`` was set
    first: the call is then cancelled, and the errors ``quiet`` names, which a call may raise on
    its way out, are passed over.  A long poll (Telegram's, Zalo's) waits on it, so a stop never
    waits for the poll's timeout and loses nothing it would fetch (nothing of it is confirmed)."""
    task = asyncio.ensure_future(call)
    stop = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, *quiet):
            await task
        return None
    return task


def _pause(error: TelegramError, failures: int) -> float:
    if isinstance(error, RetryAfter):
        wait = error.retry_after
        return float(wait.total_seconds() if hasattr(wait, "total_seconds") else wait)
    if isinstance(error, Conflict):  # another instance polls with the same token
        return BACKOFF[-1]
    return BACKOFF[min(failures, len(BACKOFF) - 1)]


def _describe(error: BaseException) -> str:
    return getattr(error, "message", None) or type(error).__name__


class Webhook:
    """The webhook server: ``setWebhook`` with the URL and the secret, then a small Tornado
    server on ``[bot].webhook_listen``:``webhook_port`` whose path is the URL's; each update
    is answered 200 once it was handled."""

    def __init__(self, application: Application, settings: BotSettings, secret: str) -> None:
        self.application = application
        self.settings = settings
        self.secret = secret
        self.path = urlsplit(settings.webhook_url or "").path or "/"
        self._turns = Turns()  # one update at a time: the arbiters' first, then in order of arrival
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def serve(self, stopping: asyncio.Event) -> None:
        await self.application.bot.set_webhook(url=self.settings.webhook_url, secret_token=self.secret,
                                               allowed_updates=Update.ALL_TYPES)
        app = tornado.web.Application([(re.escape(self.path), _UpdateHandler, {"webhook": self})])
        server = tornado.httpserver.HTTPServer(app, xheaders=True)
        try:
            server.listen(self.settings.webhook_port, self.settings.webhook_listen)
        except OSError as error:
            raise StartError(f"cannot listen on {self.settings.webhook_listen}:{self.settings.webhook_port} for the "
                             f"webhook: {error.strerror or error}") from None
        log.info("webhook: listening on %s:%d%s", self.settings.webhook_listen, self.settings.webhook_port, self.path)
        try:
            await stopping.wait()
        finally:
            server.stop()  # no new requests; those in progress are handled and answered first
            await self._idle.wait()
            await server.close_all_connections()

    def authentic(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode("utf-8"), self.secret.encode("utf-8"))

    def update(self, body: bytes) -> Update | None:
        """The update a request's body holds, or None when it holds none (400)."""
        try:
            data = json.loads(body)
            if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
                return None
            return Update.de_json(data, self.application.bot)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):  # RecursionError: nested too deep
            return None

    async def handle(self, update: Update) -> None:
        self._busy += 1
        self._idle.clear()
        try:
            arbiter = update.effective_user is not None and update.effective_user.id in arbiters_of(self.application)
            async with self._turns.turn(first=arbiter):
                await self.application.process_update(update)
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()


class Turns:
    """One at a time: whoever waits with ``first`` goes before the others, each kind in its
    order of arrival (the webhook's requests: the arbiters' first)."""

    def __init__(self) -> None:
        self._busy = False
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @contextlib.asynccontextmanager
    async def turn(self, first: bool = False) -> AsyncIterator[None]:
        if not self._busy and not self._waiting:
            self._busy = True
        else:
            waiting: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (0 if first else 1, next(self._order), waiting))
            try:
                await waiting
            except asyncio.CancelledError:
                if waiting.done() and not waiting.cancelled():
                    self._next()  # handed the turn just as it was cancelled: pass it on
                raise
        try:
            yield
        finally:
            self._next()

    def _next(self) -> None:
        while self._waiting:
            _, _, waiting = heapq.heappop(self._waiting)
            if not waiting.done():
                waiting.set_result(None)  # the turn passes on: still busy
                return
        self._busy = False


@tornado.web.stream_request_body
class _UpdateHandler(tornado.web.RequestHandler):
    """One request to the webhook: its headers are checked before its body is read (the
    secret, the announced length), and the body is read up to ``MAX_UPDATE_BYTES``; a refused
    request is answered at once, and Tornado then closes the connection instead of reading on."""

    def initialize(self, webhook: Webhook) -> None:
        self.webhook = webhook
        self.body = bytearray()

    def prepare(self) -> None:
        if self.request.method != "POST":
            return
        if not self.webhook.authentic(self.request.headers.get(SECRET_HEADER)):
            log.warning("webhook: refused a request without the secret token from %s", self.request.remote_ip)
            self.send_error(403)
            return
        length = self.request.headers.get("Content-Length", "0")
        if not length.isdigit() or int(length) > MAX_UPDATE_BYTES:
            self._too_large()

    def data_received(self, chunk: bytes) -> None:
        if self._finished:
            return
        self.body += chunk
        if len(self.body) > MAX_UPDATE_BYTES:
            self._too_large()

    def _too_large(self) -> None:
        log.warning("webhook: refused a body of more than %d bytes from %s", MAX_UPDATE_BYTES, self.request.remote_ip)
        self.send_error(413)

    async def post(self) -> None:
        update = self.webhook.update(bytes(self.body))
        if update is None:
            self.send_error(400)
            return
        await self.webhook.handle(update)
        self.set_status(200)
        self.finish()

    def log_exception(self, *args: object) -> None:  # tracebacks of bad requests are not the bot's errors
        log.info("webhook: %s", args[1] if len(args) > 1 else "request failed")

