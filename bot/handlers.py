"""python-telegram-bot handlers, as its own examples write them: one small async handler per
command, one for result messages, one for documents, one for the inline buttons, and one error
handler; ``register`` adds them all to the Application (``bot/app.py`` builds it, and the
console mode runs the same one).

A handler only turns the update into a ``Who`` and some text, runs the command
(``bot/players.py``, ``bot/entering.py``, ``bot/running.py``, ...) in a worker thread (the
store is SQLite, which blocks), and sends the replies back.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import ParamSpec

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import answers, callbacks, conversation, downloads, entering, pairings, players, running, tournament_files
from bot.replies import Reply
from bot.service import TELEGRAM, BotService, Command, Who
from tiebreak.store import StoreError

log = logging.getLogger(__name__)
P = ParamSpec("P")
Context = ContextTypes.DEFAULT_TYPE


def who_of(update: Update) -> Who:
    """The sender of ``update``, their chat, language, the update's ids and what they sent."""
    user = update.effective_user
    chat = update.effective_chat
    message = update.effective_message
    query = update.callback_query
    text = f"[button] {query.data}" if query is not None else (message.text or message.caption) if message else None
    return Who(user_id=user.id if user else 0, chat_id=chat.id if chat else (user.id if user else 0),
               language_code=user.language_code if user else None,
               message_id=message.message_id if message else None, update_id=update.update_id, text=text)


def service_of(context: Context) -> BotService:
    return context.application.bot_data["service"]


def arguments(context: Context) -> str:
    """The words after the command."""
    return " ".join(context.args or [])


async def answer(update: Update, context: Context, command: Command[P], *args: P.args, **kwargs: P.kwargs) -> None:
    """Run ``command`` for the update's sender in a worker thread and send its replies: once,
    however often Telegram delivers the update (``bot/answers.py``)."""
    service, who = service_of(context), who_of(update)
    done = await asyncio.to_thread(answers.answer_once, service, who, command, *args, **kwargs)
    await answers.deliver(service, who, done, functools.partial(send_reply, context, update))


async def send_reply(context: Context, update: Update, reply: Reply) -> None:
    """Send (or edit) one reply; a reply to another chat (the channel, a subscriber) goes there."""
    service = service_of(context)
    if conversation.channel_of(service, reply.chat_id) != TELEGRAM:  # e.g. a subscriber on Zalo
        await conversation.forward(service, reply)
        return
    query = update.callback_query
    if reply.edit and reply.document is None and query is not None and query.message is not None:
        await query.edit_message_text(reply.text, parse_mode=ParseMode.HTML, reply_markup=_markup(reply))
        return
    chat_id = update.effective_chat.id if update.effective_chat else None
    await send_to_chat(context.bot, reply if reply.chat_id is not None else replace(reply, chat_id=chat_id))


async def send_to_chat(bot: Bot, reply: Reply) -> None:
    """A new message (or a document) to the Telegram chat ``reply.chat_id``: every reply that
    edits none, and (``BotService.channels``) what another channel's message or the entry page
    leads to for a Telegram chat, such as a round's standings for ``[bot].channel``."""
    if reply.document is not None:
        await bot.send_document(
            reply.chat_id, document=InputFile(io.BytesIO(reply.document.content),
                                              filename=reply.document.file_name),
            caption=reply.document.caption or None)
    else:
        await bot.send_message(reply.chat_id, reply.text, parse_mode=ParseMode.HTML, reply_markup=_markup(reply),
                               disable_web_page_preview=True)


def _markup(reply: Reply) -> InlineKeyboardMarkup | None:
    return InlineKeyboardMarkup([[InlineKeyboardButton(button.text, callback_data=button.data)
                                  for button in row] for row in reply.buttons]) if reply.buttons else None


# -- commands: each runs the conversation's (``bot.conversation.COMMANDS``) ------------------------

def on_command(name: str) -> Callable[[Update, Context], Awaitable[None]]:
    """The handler of command ``/name``: the conversation's command with the words after it."""
    async def handler(update: Update, context: Context) -> None:
        await answer(update, context, conversation.COMMANDS[name], arguments(context))
    handler.__name__ = handler.__qualname__ = f"on_{name}"
    return handler


#: every command and its handler (``bot/app.py``'s MENU lists those Telegram offers in its menu)
COMMANDS = {name: on_command(name) for name in conversation.COMMANDS}
on_teams, on_playoff = COMMANDS["teams"], COMMANDS["playoff"]


async def on_unknown_command(update: Update, context: Context) -> None:
    """A command no handler above takes."""
    await answer(update, context, running.unknown_command, update.effective_message.text or "")


# -- messages, documents, buttons --------------------------------------------------------------------

async def on_text(update: Update, context: Context) -> None:
    """A message that is not a command: result lines from an arbiter."""
    await answer(update, context, entering.text, update.effective_message.text)


async def on_document(update: Update, context: Context) -> None:
    """A TRF or TOML sent with the caption /import [SLUG] (or none), or a paired round with /pair.
    The file is downloaded only after the sender's rights and its size were checked: the
    command calls ``fetch`` (from its worker thread) when it needs the bytes, which are read
    as they arrive and stopped past the limit (``bot/downloads.py``)."""
    message = update.effective_message
    document = message.document
    caption = (message.caption or "").strip()
    name = document.file_name or "document"
    loop = asyncio.get_running_loop()

    def fetch(limit: int) -> bytes:
        return asyncio.run_coroutine_threadsafe(downloads.download(document, limit), loop).result()

    if caption.startswith("/pair"):
        await answer(update, context, pairings.pair_from_file, name, fetch, document.file_size)
    else:
        argument = caption.removeprefix("/import").strip() if caption.startswith("/import") else ""
        await answer(update, context, tournament_files.import_file, name, fetch, argument, document.file_size)


#: the replies to a pressed inline button, by its ``callback_data`` (``bot.conversation.press``)
press = conversation.press


async def on_button(update: Update, context: Context) -> None:
    """A pressed button of the bot's (``callbacks.PATTERN``)."""
    await _acknowledge(update)
    await answer(update, context, press, update.callback_query.data or "")


async def on_unknown_button(update: Update, context: Context) -> None:
    """Callback data that no button of the bot carries."""
    await _acknowledge(update)
    await answer(update, context, players.not_understood)


async def _acknowledge(update: Update) -> None:
    """Answer the callback query: the client shows a spinner on the button until then."""
    try:
        await update.callback_query.answer()
    except BadRequest as error:  # e.g. "query is too old" when Telegram delivers a press again
        log.info("could not answer a button press: %s", error)


async def on_error(update: object, context: Context) -> None:
    """Log the error; tell the user what became of their message, without internals: not
    handled (send it again), not recorded because the database cannot be used, or recorded
    but not answered."""
    error = context.error
    if isinstance(error, StoreError):
        log.error("error while handling an update: %s", error)
    else:
        log.error("error while handling an update", exc_info=error)
    if not isinstance(update, Update) or update.effective_chat is None:
        return
    service, who = service_of(context), who_of(update)
    text = conversation.error_text(service, who, error)
    try:
        await context.bot.send_message(update.effective_chat.id, text)
    except Exception:  # the error may be the network itself
        log.warning("could not tell the user about the error", exc_info=True)


async def on_any_update(update: Update, context: Context) -> None:
    """Before any other handler (group -1): a player over ``[bot].rate_limit`` gets one polite
    reply, and their updates are not read until they may send again (``bot/limits.py``)."""
    user = update.effective_user
    if user is None:
        return
    service = service_of(context)
    refusal = conversation.admission(service, who_of(update))
    if refusal is None:
        return
    if refusal and update.effective_chat is not None:
        try:
            await context.bot.send_message(update.effective_chat.id, conversation.plain_text(refusal[0].text))
        except TelegramError as error:
            log.info("could not tell a user to slow down: %s", error)
    raise ApplicationHandlerStop


def register(application: Application, service: BotService) -> None:
    """Add the handlers to ``application``, serving ``service``, and register it as the
    channel that sends to Telegram chats (``BotService.channels``): a reply another channel's
    message or the entry page leads to for one (``[bot].channel``, a subscriber) goes through it."""
    application.bot_data["service"] = service
    service.channels[TELEGRAM] = functools.partial(send_to_chat, application.bot)
    application.add_handler(TypeHandler(Update, on_any_update), group=-1)
    for command, handler in COMMANDS.items():
        application.add_handler(CommandHandler(command, handler))
    application.add_handler(MessageHandler(filters.Document.ALL, on_document))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, on_text))
    application.add_handler(MessageHandler(filters.COMMAND, on_unknown_command))
    application.add_handler(CallbackQueryHandler(on_button, pattern=callbacks.PATTERN))
    application.add_handler(CallbackQueryHandler(on_unknown_button))
    application.add_error_handler(on_error)
