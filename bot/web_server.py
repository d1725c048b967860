"""Serve the entry page (``bot/web.py``) from the bot's own process and event loop: uvicorn on
the socket ``[web] listen`` names, beside the Telegram bot or the console.  Without ``[web]``
nothing listens.

``serving(channel, service, config)`` wraps the coroutine that runs the channel: the page is
served while it runs and stops with it.  In console mode with no terminal (a service, a
container) the console's input ends at once; the page then goes on until SIGTERM or SIGINT.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import sys
from collections.abc import Coroutine, Iterator
from typing import Any

import uvicorn

from bot.service import BotService
from bot.web import EntrySite
from tiebreak.config import Config
from tiebreak.links import PATH, WebSettings

log = logging.getLogger(__name__)


class WebStartError(Exception):
    """The entry page cannot listen where ``[web] listen`` says (one line)."""


class _Server(uvicorn.Server):
    """uvicorn without its own signal handlers: the bot's process decides when to stop."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    def install_signal_handlers(self) -> None:  # uvicorn before 0.29
        return None


def listening_socket(settings: WebSettings) -> socket.socket:
    """The bound socket, or WebStartError saying why not (a port in use, an unknown address)."""
    try:
        return socket.create_server((settings.host, settings.port), family=socket.AF_INET6 if ":" in settings.host
                                    else socket.AF_INET, reuse_port=False)
    except OSError as error:
        raise WebStartError(f"[web] listen = \"{settings.host}:{settings.port}\": cannot listen there "
                            f"({error.strerror or error})") from None


async def serving(channel: Coroutine[Any, Any, None], service: BotService, config: Config, *,
                  console: bool = False) -> None:
    """Run ``channel`` (the bot's Telegram or console loop) with the entry page beside it when
    config.toml has ``[web]``."""
    settings = WebSettings.from_config(config)
    if settings is None:
        await channel
        return
    try:
        sock = listening_socket(settings)
    except WebStartError:
        channel.close()  # never started
        raise
    theme = str(config.raw.get("site", {}).get("theme", "default"))
    site = EntrySite(service, theme)
    app = site.app()
    server = _Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                    server_header=False, proxy_headers=False))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    host, port = sock.getsockname()[:2]
    log.info("serving the entry page on http://%s:%s%s<secret> (`tiebreak arbiter link SLUG` makes a link)",
             f"[{host}]" if ":" in host else host, port, PATH)
    try:
        await channel
        if console and not sys.stdin.isatty():
            await _until_stopped()
    finally:
        server.should_exit = True
        await task
        sock.close()
        await site.posted()  # what the last forms led to: sent, or logged when its channel stopped first


async def _until_stopped() -> None:
    """Wait for SIGTERM or SIGINT."""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stopping.set)
    log.info("the console's input ended: serving the entry page until SIGTERM or Ctrl-C")
    try:
        await stopping.wait()
    finally:
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(number)
