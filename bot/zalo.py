"""The Zalo channel: Zalo's Bot API (``https://bot-api.zaloplatforms.com/bot<token>/<method>``,
POST with a JSON body, every answer ``{"ok", "result", "error_code", "description"}``) over httpx,
in front of the same conversation as Telegram (``bot/conversation.py``).

- ``ZALO_BOT_TOKEN`` (environment only) turns it on; ``ZALO_API_BASE_URL`` points it at another
  server (the tests' fake on 127.0.0.1); ``[zalo]`` of config.toml: ``arbiters`` (Zalo user ids,
  chief arbiters like ``[bot].arbiters``), ``language`` (Zalo gives none: default ``[bot]``'s),
  ``channel`` (a group's id: it gets the standings each time a round is complete, like
  ``[bot].channel`` on Telegram, whichever channel or page the round's last result came from),
  ``webhook_url`` / ``webhook_listen`` / ``webhook_port`` for webhook mode, whose secret is
  ``ZALO_WEBHOOK_SECRET`` (8-256 characters; without it a random one each start).
- Long polling: ``getUpdates {"timeout": 30}`` answers one message (no offset: a message is
  the API's to forget once delivered).  Webhook mode: ``setWebhook {url, secret_token}``, then
  each POST must carry ``X-Bot-Api-Secret-Token``: without the right one it is answered 403
  before anything is read into the store.
- Nothing lost, nothing twice: every message is written to the store's inbox
  (``Store.receive``, once per chat and message id: a message delivered twice is received once)
  before it is handled, and marked done only once its answer was sent or kept to be sent
  (``bot/answers.py``); a process killed in between handles what waits at its next start.
- Text only: a reply's choices (Telegram's buttons) are numbered lines the user answers by
  number (``conversation.numbered``); a reply longer than ``TEXT_LIMIT`` is sent in parts; a
  file (``/export``) is refused in words.
- 429, 5xx and network errors are retried with a bounded backoff (``Retry-After`` honoured up to
  ``MAX_WAIT``); a refused token stops the bot at start (``delivery.StartError``).  The token is
  never printed: it is only in request URLs, which are never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import re
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

import httpx
import tornado.httpserver
import tornado.web

from bot import answers, conversation
from bot.app import redact
from bot.conversation import Incoming
from bot.delivery import StartError, secret_from_environment, unless_stopping
from bot.replies import Reply
from bot.service import AnnouncementChat, BotService, Who
from ranking import InputError
from tiebreak.config import Config

log = logging.getLogger(__name__)

CHANNEL = "zalo"
TOKEN_VARIABLE = "ZALO_BOT_TOKEN"
API_BASE_URL_VARIABLE = "ZALO_API_BASE_URL"
SECRET_VARIABLE = "ZALO_WEBHOOK_SECRET"
SECRET_HEADER = "X-Bot-Api-Secret-Token"
DEFAULT_API = "https://bot-api.zaloplatforms.com"
TEXT_LIMIT = 2000  # sendMessage: text of 1-2000 characters
POLL_TIMEOUT = 30  # seconds getUpdates waits for a message (the API's default)
CALL_TIMEOUT = 15.0  # seconds any other call may take
BACKOFF = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)  # pauses after failed getUpdates calls in a row
SEND_PAUSES = (1.0, 2.0, 4.0)  # pauses between the attempts to send one message (so 4 attempts)
MAX_WAIT = 60.0  # the longest Retry-After honoured as given
MAX_UPDATE_BYTES = 256 * 1024  # the largest webhook body read (a message is a few kB)


@dataclass(frozen=True)
class ZaloSettings:
    """``[zalo]`` of config.toml."""

    arbiters: tuple[str, ...] = ()
    language: str | None = None
    webhook_url: str | None = None
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8445
    channel: str | None = None  # the Zalo chat (a group the bot is in) that gets a complete round's standings

    @classmethod
    def from_config(cls, config: Config) -> ZaloSettings:
        section = config.raw.get("zalo", {})
        arbiters = section.get("arbiters", [])
        if not isinstance(section, dict) or not isinstance(arbiters, list) \
                or not all(isinstance(user, str | int) and not isinstance(user, bool) for user in arbiters):
            raise InputError('[zalo].arbiters must be a list of Zalo user ids (text, e.g. ["6ef1a2b3c4d5e6f7"])',
                             source=str(config.path))
        port = section.get("webhook_port", 8445)
        if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
            raise InputError("[zalo].webhook_port must be a port number, 1-65535", source=str(config.path))
        url = section.get("webhook_url")
        if url is not None and (not isinstance(url, str) or urlsplit(url).scheme not in ("http", "https")):
            raise InputError("[zalo].webhook_url must be the https URL Zalo posts to", source=str(config.path))
        language = section.get("language")
        channel = section.get("channel")
        if channel is not None and (isinstance(channel, bool) or not isinstance(channel, str | int)
                                    or not str(channel).strip()):
            raise InputError('[zalo].channel must be the id of the Zalo group that gets the standings (text, e.g. '
                             '"5a1b2c3d4e5f6a7b")', source=str(config.path))
        return cls(tuple(str(user) for user in arbiters), str(language) if language else None, url or None,
                   str(section.get("webhook_listen", "127.0.0.1")), port,
                   str(channel).strip() if channel is not None else None)


class ZaloError(Exception):
    """The API refused a call (``ok: false``, or an HTTP error that trying again cannot mend)."""

    def __init__(self, description: str, code: int | None = None) -> None:
        super().__init__(description)
        self.code = code


class Transient(Exception):
    """A call that may succeed later: a network error, HTTP 429 or 5xx; ``retry_after`` in seconds
    when the server said how long to wait."""

    def __init__(self, description: str, retry_after: float | None = None) -> None:
        super().__init__(description)
        self.retry_after = retry_after


def api_root() -> str:
    """The Bot API the channel talks to, as people write it (no token)."""
    return os.environ.get(API_BASE_URL_VARIABLE, "").rstrip("/") or DEFAULT_API


class ZaloApi:
    """The Bot API calls, over one httpx client; ``call`` raises ``ZaloError`` or ``Transient``."""

    def __init__(self, token: str, base_url: str | None = None, client: httpx.AsyncClient | None = None) -> None:
        self._token = token
        self.root = (base_url or api_root()).rstrip("/")
        self._client = client or httpx.AsyncClient(timeout=CALL_TIMEOUT)

    async def close(self) -> None:
        await self._client.aclose()

    async def call(self, method: str, body: dict[str, Any] | None = None, *, timeout: float = CALL_TIMEOUT) -> Any:
        try:
            response = await self._client.post(f"{self.root}/bot{self._token}/{method}", json=body or {},
                                               timeout=timeout)
        except httpx.HTTPError as error:  # connection refused, reset, timed out: the URL is not quoted
            raise Transient(redact(f"{type(error).__name__}: {error}", self._token)) from None
        if response.status_code == 429 or response.status_code >= 500:
            raise Transient(f"HTTP {response.status_code}", _retry_after(response.headers.get("Retry-After")))
        try:
            data = response.json()
        except ValueError:
            raise ZaloError(f"HTTP {response.status_code}, not JSON", response.status_code) from None
        if not isinstance(data, dict):
            raise ZaloError(f"HTTP {response.status_code}, not an answer of the Bot API", response.status_code)
        if data.get("ok") is not True:
            code = data.get("error_code") if isinstance(data.get("error_code"), int) else response.status_code
            description = redact(str(data.get("description") or f"error {code}"), self._token)
            if code == 429:
                raise Transient(description, _retry_after(response.headers.get("Retry-After")))
            raise ZaloError(description, code)
        return data.get("result")

    async def send_message(self, chat_id: str, text: str) -> None:
        """``sendMessage``, tried again after transient errors (``SEND_PAUSES``, or as long as a
        429 asks, at most ``MAX_WAIT``); ``answers.NotSent`` when it still did not go out."""
        for pause in (*SEND_PAUSES, None):
            try:
                await self.call("sendMessage", {"chat_id": chat_id, "text": text})
                return
            except Transient as error:
                if pause is None:
                    raise answers.NotSent(f"Zalo sendMessage: {error}") from None
                await asyncio.sleep(min(error.retry_after if error.retry_after is not None else pause, MAX_WAIT))


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def read_updates(payload: object) -> list[Incoming] | None:
    """The messages a getUpdates answer's ``result`` or a webhook body holds (one object
    ``{"event_name", "message"}``, inside ``{"ok", "result"}`` or not; a list of them is read
    too); None when it is not of that shape.  An image, a sticker or a voice message is a
    message without text (answered "not understood"); ``message.unsupported.received`` (Zalo
    withholds the content) and events without a message are passed over."""
    if isinstance(payload, dict) and "result" in payload and "event_name" not in payload:
        payload = payload["result"]
    if payload is None:
        return []
    items = payload if isinstance(payload, list) else [payload]
    messages: list[Incoming] = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("event_name"), str):
            return None
        event, message = item["event_name"], item.get("message")
        if message is None or event == "message.unsupported.received":
            continue
        sender = message.get("from") if isinstance(message, dict) else None
        chat = message.get("chat") if isinstance(message, dict) else None
        if not isinstance(sender, dict) or not isinstance(chat, dict) or sender.get("id") in (None, "") \
                or chat.get("id") in (None, ""):
            return None
        if sender.get("is_bot") is True:
            continue
        text = message.get("text") if event == "message.text.received" else None
        message_id = message.get("message_id")
        messages.append(Incoming(
            CHANNEL, str(sender["id"]), str(chat["id"]), text if isinstance(text, str) else "",
            str(message_id) if message_id not in (None, "") else None,
            private=str(chat.get("chat_type", "PRIVATE")).upper() != "GROUP"))
    return messages


def message_key(incoming: Incoming, payload: object) -> str:
    """What makes a message the same when it is delivered again: its chat and message id (or,
    without one, a digest of what was delivered)."""
    if incoming.message_id is not None:
        return f"{incoming.chat}:{incoming.message_id}"
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return f"{incoming.chat}:sha256:{digest}"


class ZaloChannel:
    """The Zalo adapter: receives messages (polling or webhook) into the inbox, handles them one
    at a time through the conversation, and sends the replies."""

    def __init__(self, service: BotService, api: ZaloApi, settings: ZaloSettings) -> None:
        self.service = service
        self.api = api
        self.settings = settings
        self._turn = asyncio.Lock()

    # -- receiving ------------------------------------------------------------------------------

    async def receive(self, payload: object) -> bool:
        """Keep the messages ``payload`` holds in the inbox; False when it holds none readable."""
        messages = read_updates(payload)
        if messages is None:
            return False
        for incoming in messages:
            if self.settings.language and incoming.language is None:
                incoming = replace(incoming, language=self.settings.language)
            kept = await asyncio.to_thread(self.service.store.receive, CHANNEL, message_key(incoming, payload),
                                           incoming.to_json())
            if kept is None:
                log.info("zalo: message %s came again; it was received before", incoming.message_id)
        return True

    async def handle_waiting(self) -> None:
        """Handle every message of the inbox not handled yet, in order, one at a time."""
        async with self._turn:
            for inbox_id, body in await asyncio.to_thread(self.service.store.waiting, CHANNEL):
                await self.handle(inbox_id, Incoming.from_json(body))

    async def handle(self, inbox_id: int, incoming: Incoming) -> None:
        service = self.service

        def run() -> tuple[Who, answers.Answer]:
            who = conversation.who_of(service, incoming, -inbox_id)
            data = conversation.chosen(service, who, incoming.text) if incoming.choice is None else None
            asked = replace(incoming, choice=data) if data is not None else incoming
            who = conversation.who_of(service, asked, -inbox_id) if data is not None else who
            refusal = conversation.admission(service, who)
            if refusal is not None:
                return who, answers.Answer(refusal)
            return who, answers.answer_once(service, who, conversation.respond, asked)

        who: Who | None = None
        try:
            who, done = await asyncio.to_thread(run)
        except Exception as error:  # a bug or an unusable database: say so, never a traceback to the user
            log.error("zalo: error while handling a message", exc_info=not isinstance(error, InputError))
            with contextlib.suppress(Exception):
                who = who or await asyncio.to_thread(conversation.who_of, service, incoming, -inbox_id)
                await self.api.send_message(incoming.chat, conversation.error_text(service, who, error))
            with contextlib.suppress(Exception):
                await asyncio.to_thread(service.store.finish, inbox_id)
            return
        await answers.deliver(service, who, done, lambda reply: self.send(who, reply))
        await asyncio.to_thread(service.store.finish, inbox_id)

    # -- sending --------------------------------------------------------------------------------

    async def send(self, who: Who, reply: Reply) -> None:
        """One reply to ``who``'s chat, or to the chat it names (through its own channel)."""
        service = self.service
        if conversation.channel_of(service, reply.chat_id) != CHANNEL:
            if reply.chat_id is not None:
                await conversation.forward(service, reply)
                return
        elif reply.chat_id is not None:
            who = await asyncio.to_thread(self._recipient, int(reply.chat_id))
            reply = replace(reply, chat_id=None)
        [reply] = conversation.documents_refused(service, who, [reply])
        text = await asyncio.to_thread(conversation.numbered, service, who, reply)
        for piece in conversation.split_text(text, TEXT_LIMIT):
            try:
                await self.api.send_message(who.chat or str(who.chat_id), piece)
            except ZaloError as error:  # e.g. the user blocked the bot: trying again cannot mend it
                log.warning("zalo: the API refused a reply: %s", error)
                return

    def _recipient(self, number: int) -> Who:
        """Whoever reads chat ``number`` (a subscriber's private chat: that user)."""
        address = self.service.store.channel_address(number)
        external = address[1] if address else str(number)
        return Who(number, number, self.settings.language, channel=CHANNEL, sender=external, chat=external)

    async def forwarded(self, reply: Reply) -> None:
        """A reply another channel's message led to, for a Zalo chat (``BotService.channels``)."""
        try:
            await self.send(Who(0, 0, channel=CHANNEL), reply)
        except answers.NotSent as error:
            log.warning("zalo: a message for another chat was not sent: %s", error)

    # -- running ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Check the token (``getMe``), make the ``[zalo].arbiters`` chief arbiters, and register
        the channel (``BotService.channels``) with its announcement chat (``[zalo].channel``)."""
        try:
            me = await self.api.call("getMe")
        except ZaloError as error:
            if error.code in (401, 403, 404):
                raise StartError(f"the Zalo Bot API at {api_root()} refused the token ({error}): check "
                                 f"{TOKEN_VARIABLE} (Zalo Bot Manager sent it to you), or unset it") from None
            raise StartError(f"the Zalo Bot API at {api_root()} answered: {error}") from None
        except Transient as error:
            raise StartError(f"cannot reach the Zalo Bot API at {api_root()} ({error}); check the network, "
                             f"or unset {TOKEN_VARIABLE}") from None
        store = self.service.store
        chiefs = {await asyncio.to_thread(store.channel_id, CHANNEL, user) for user in self.settings.arbiters}
        settings = self.service.settings
        self.service.settings = replace(settings, arbiters=settings.arbiters | frozenset(chiefs))
        self.service.channels[CHANNEL] = self.forwarded
        if self.settings.channel is not None:
            chat = await asyncio.to_thread(store.channel_id, CHANNEL, self.settings.channel)
            self.service.announcements[CHANNEL] = AnnouncementChat(chat, self.settings.language or settings.language)
        name = me.get("account_name") if isinstance(me, dict) else None
        log.info("zalo: connected as %s", name or "the bot")

    async def poll(self, stopping: asyncio.Event) -> None:
        """Long polling until ``stopping``: what waits in the inbox first, then each message."""
        with contextlib.suppress(ZaloError, Transient):  # getUpdates fails while a webhook is set
            await self.api.call("deleteWebhook")
        await self.handle_waiting()
        failures = 0
        while not stopping.is_set():
            call = self.api.call("getUpdates", {"timeout": POLL_TIMEOUT}, timeout=POLL_TIMEOUT + 15)
            fetched = await unless_stopping(call, stopping, ZaloError, Transient)
            if fetched is None:
                break
            try:
                result = fetched.result()
            except (Transient, ZaloError) as error:
                if isinstance(error, ZaloError) and error.code in (401, 403):
                    raise StartError(f"the Zalo Bot API at {api_root()} refused the token: check "
                                     f"{TOKEN_VARIABLE}") from None
                if isinstance(error, ZaloError) and error.code == 408:  # the long poll ended without a message
                    failures = 0
                    continue
                asked = error.retry_after if isinstance(error, Transient) else None
                pause = min(asked, MAX_WAIT) if asked is not None else BACKOFF[min(failures, len(BACKOFF) - 1)]
                failures += 1
                log.warning("zalo: getUpdates failed (%s); trying again in %g s", error, pause)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), pause)
                continue
            failures = 0
            if not await self.receive(result):
                log.warning("zalo: getUpdates answered something that is not a message; passed over")
            await self.handle_waiting()

    async def serve_webhook(self, stopping: asyncio.Event) -> None:
        """Listen on ``[zalo].webhook_listen``:``webhook_port`` at the URL's path, ``setWebhook``
        with the URL and the secret, then serve until ``stopping``."""
        secret = webhook_secret()
        url = self.settings.webhook_url or ""
        path = urlsplit(url).path or "/"
        app = tornado.web.Application([(re.escape(path), _ZaloHook, {"channel": self, "secret": secret})])
        server = tornado.httpserver.HTTPServer(app, xheaders=True, max_body_size=MAX_UPDATE_BYTES)
        try:
            server.listen(self.settings.webhook_port, self.settings.webhook_listen)
        except OSError as error:
            raise StartError(f"cannot listen on {self.settings.webhook_listen}:{self.settings.webhook_port} for the "
                             f"Zalo webhook: {error.strerror or error}") from None
        log.info("zalo webhook: listening on %s:%d%s", self.settings.webhook_listen, self.settings.webhook_port, path)
        try:
            try:  # listening first: Zalo may post as soon as the webhook is set
                await self.api.call("setWebhook", {"url": url, "secret_token": secret})
            except (ZaloError, Transient) as error:
                raise StartError(f"the Zalo Bot API at {api_root()} did not set the webhook: {error}") from None
            await self.handle_waiting()
            await stopping.wait()
        finally:
            server.stop()
            async with self._turn:  # the message being handled is finished first
                pass
            await server.close_all_connections()




def webhook_secret() -> str:
    """``$ZALO_WEBHOOK_SECRET`` (8-256 letters, digits, ``_``, ``-``), else a new random one."""
    return secret_from_environment(SECRET_VARIABLE, 8, "Zalo")


class _ZaloHook(tornado.web.RequestHandler):
    """One webhook request: the secret header first (403, nothing read), then the body."""

    def initialize(self, channel: ZaloChannel, secret: str) -> None:
        self.channel = channel
        self.secret = secret

    def prepare(self) -> None:
        given = self.request.headers.get(SECRET_HEADER)
        if given is None or not hmac.compare_digest(given.encode("utf-8"), self.secret.encode("utf-8")):
            log.warning("zalo webhook: refused a request without the secret token from %s", self.request.remote_ip)
            self.send_error(403)

    async def post(self) -> None:
        try:
            payload = json.loads(self.request.body)
        except (ValueError, RecursionError):
            self.send_error(400)
            return
        if not await self.channel.receive(payload):
            self.send_error(400)
            return
        await self.channel.handle_waiting()
        self.set_header("Content-Type", "application/json")
        self.finish(b'{"ok":true}')

    def log_exception(self, *args: object) -> None:  # a bad request is not the bot's error
        log.info("zalo webhook: %s", args[1] if len(args) > 1 else "request failed")


async def run(service: BotService, settings: ZaloSettings, token: str, stopping: asyncio.Event) -> None:
    """The Zalo channel until ``stopping``: polling, or the webhook when ``[zalo].webhook_url`` is set."""
    api = ZaloApi(token)
    channel = ZaloChannel(service, api, settings)
    try:
        await channel.start()
        if settings.webhook_url:
            await channel.serve_webhook(stopping)
        else:
            await channel.poll(stopping)
    finally:
        service.channels.pop(CHANNEL, None)
        service.announcements.pop(CHANNEL, None)
        await api.close()
