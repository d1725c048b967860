"""``python -m bot [--config config.toml] [--console] [--user-id N]`` (docs/architecture.md#bot).

Telegram when ``TELEGRAM_BOT_TOKEN`` is set (long polling, or a webhook when
``[bot].webhook_url`` is configured: ``bot/delivery.py``, which confirms an update to Telegram
only once it is handled), Zalo when ``ZALO_BOT_TOKEN`` is set (``bot/zalo.py``), both in one
process when both are (``bot/serving.py``); console mode with ``--console`` or without a token.  The
tournaments config.toml lists are imported into the store first, once.  A problem at start-up
(the configuration, the store, a token the Bot API refuses, no network) is one line on
standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

from bot import delivery, serving, zalo
from bot.app import LOG_FORMAT, TOKEN_VARIABLE, build_application, protect_logs, quiet_http_logs, redact
from bot.console import run_console
from bot.service import BotService, BotSettings
from bot.site_trigger import DebouncedBuild, SiteServer
from bot.web_server import WebStartError  # [web]: the entry page beside the channel
from bot.web_server import serving as with_web
from ranking import InputError
from tiebreak.config import Config, load_config
from tiebreak.library import import_configured, open_store
from tiebreak.links import WebSettings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="The Tiebreak chat bot (Telegram, Zalo).")
    parser.add_argument("--config", metavar="PATH", help="configuration file (default ./config.toml)")
    parser.add_argument("--console", action="store_true", help="run in the terminal instead of Telegram")
    parser.add_argument("--user-id", type=int, help="console mode: the Telegram user id you act as "
                        "(default: the first [bot].arbiters entry)")
    parser.add_argument("--language", help="console mode: your Telegram language (en, zh, vi, es)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    quiet_http_logs()
    try:
        config = load_config(args.config)
        settings = BotSettings.from_config(config)
        WebSettings.from_config(config)  # a malformed [web] is refused before anything starts
        builder = site_trigger(args.config, config)
        store = open_store(config)
        import_configured(store, config)
    except InputError as error:
        print(f"python -m bot: error: {error}", file=sys.stderr)
        return 2
    service = BotService(store, settings)
    if builder is not None:
        service.on_change = builder.request
        builder.start()  # the site process warms up while the bot starts
    token = os.environ.get(TOKEN_VARIABLE, "").strip()
    zalo_token = os.environ.get(zalo.TOKEN_VARIABLE, "").strip()
    try:
        runners = [] if args.console else channels(service, config, settings, token, zalo_token)
        if not runners:
            user = args.user_id or min(settings.arbiters, default=1)
            asyncio.run(with_web(run_console(service, user, args.language, outbox=config.storage.parent / "outbox"),
                                 service, config, console=True))
        else:
            protect_logs(*(secret for secret in (token, zalo_token) if secret))
            asyncio.run(with_web(serving.serve(runners), service, config))
    except KeyboardInterrupt:
        pass
    except (delivery.StartError, WebStartError, InputError) as error:
        print(f"python -m bot: error: {redact(str(error), token, zalo_token)}", file=sys.stderr)
        return 2
    finally:
        if builder is not None:
            builder.flush()
            builder.close()
        store.close()
    return 0


def channels(service: BotService, config: Config, settings: BotSettings, token: str,
             zalo_token: str) -> list[serving.Runner]:
    """The chat channels whose tokens are set: Telegram (``TELEGRAM_BOT_TOKEN``), Zalo
    (``ZALO_BOT_TOKEN``, ``[zalo]``); none means console mode."""
    runners: list[serving.Runner] = []
    if token:
        application = build_application(token, service)
        runners.append(lambda stopping: delivery.run(application, settings, stopping))
    if zalo_token:
        zalo_settings = zalo.ZaloSettings.from_config(config)
        runners.append(lambda stopping: zalo.run(service, zalo_settings, zalo_token, stopping))
    return runners


def site_trigger(config_path: str | None, config: Config) -> DebouncedBuild | None:
    """Rebuild the site after results when config.toml has a [site] section, and publish it
    when it also has [publish]: at once, the results that arrive meanwhile in one next build,
    only the tournaments they changed (``DebouncedBuild``), through a warm site process the bot
    starts once (``SiteServer``, ``python -m site_builder serve``).  ``[site].build_delay``: the
    least seconds between the starts of two builds (default 0)."""
    if "site" not in config.raw:
        return None
    delay = config.raw["site"].get("build_delay", 0)
    if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= 3600:
        raise InputError("[site].build_delay must be a number of seconds, 0-3600 (the least time between the "
                         "starts of two site builds; 0: none)", source=str(config.path))
    return DebouncedBuild(SiteServer("publish" if "publish" in config.raw else "build", config_path), float(delay))



if __name__ == "__main__":
    sys.exit(main())
