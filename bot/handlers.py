"""python-telegram-bot handlers: each turns an update into a ``Who`` and some text, asks
``BotService`` (in a worker thread: the store is SQLite) and sends the replies back."""

from __future__ import annotations

import asyncio
import io
import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot import messages as M
from bot.service import BotService, Reply, Who

log = logging.getLogger(__name__)

#: command -> (service method, whether it takes the command's arguments)
COMMANDS = {
    "start": ("start", True),
    "help": ("start", False),
    "tournaments": ("tournaments", False),
    "standings": ("standings", True),
    "round": ("round", True),
    "teams": ("teams", False),
    "playoff": ("playoff", True),
    "player": ("player", True),
    "iam": ("iam", True),
    "me": ("me", False),
    "subscribe": ("subscribe", False),
    "unsubscribe": ("unsubscribe", False),
    "language": ("language", True),
    "enter": ("enter", False),
    "undo": ("undo", False),
    "pair": ("pair", False),
    "withdraw": ("withdraw", True),
    "import": ("import_help", False),
    "export": ("export", False),
    "arbiters": ("arbiters", True),
}


def who(update: Update) -> Who:
    user = update.effective_user
    chat = update.effective_chat
    message = update.effective_message
    return Who(user_id=user.id if user else 0, chat_id=chat.id if chat else (user.id if user else 0),
               language_code=user.language_code if user else None,
               message_id=message.message_id if message else None, update_id=update.update_id)


def service_of(context: ContextTypes.DEFAULT_TYPE) -> BotService:
    return context.application.bot_data["service"]


async def send(context: ContextTypes.DEFAULT_TYPE, update: Update, replies: list[Reply]) -> None:
    """Send (or edit) every reply; a reply to another chat (the channel, a subscriber) goes there."""
    query = update.callback_query
    chat_id = update.effective_chat.id if update.effective_chat else None
    for reply in replies:
        markup = InlineKeyboardMarkup([[InlineKeyboardButton(button.text, callback_data=button.data)
                                        for button in row] for row in reply.buttons]) if reply.buttons else None
        target = reply.chat_id if reply.chat_id is not None else chat_id
        if reply.document is not None:
            await context.bot.send_document(
                target, document=InputFile(io.BytesIO(reply.document.content), filename=reply.document.file_name),
                caption=reply.document.caption or None)
        elif reply.edit and query is not None and query.message is not None:
            try:
                await query.edit_message_text(reply.text, parse_mode=ParseMode.HTML, reply_markup=markup)
            except BadRequest as error:  # e.g. "message is not modified" when a button is pressed twice
                log.info("edit refused: %s", error)
        else:
            await context.bot.send_message(target, reply.text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                           disable_web_page_preview=True)


async def on_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    command = message.text.split()[0].lstrip("/").split("@")[0].lower()
    method_name, takes_arguments = COMMANDS[command]
    service = service_of(context)
    person = who(update)
    arguments = " ".join(context.args or [])
    if method_name == "unsubscribe":
        replies = await asyncio.to_thread(service.subscribe, person, False)
    elif method_name == "import_help":
        replies = [Reply(service.tr(person).gettext(M.IMPORT_HELP))]
    elif takes_arguments:
        replies = await asyncio.to_thread(getattr(service, method_name), person, arguments)
    else:
        replies = await asyncio.to_thread(getattr(service, method_name), person)
    await send(context, update, replies)


async def on_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    replies = await asyncio.to_thread(service_of(context).text, who(update), update.effective_message.text)
    await send(context, update, replies)


async def on_document(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A TRF or TOML sent with the caption /import [SLUG] (or none), or a paired round with /pair."""
    message = update.effective_message
    document = message.document
    caption = (message.caption or "").strip()
    file = await document.get_file()
    content = bytes(await file.download_as_bytearray())
    service = service_of(context)
    name = document.file_name or "document"
    if caption.startswith("/pair"):
        replies = await asyncio.to_thread(service.pair_from_file, who(update), name, content)
    else:
        argument = caption.removeprefix("/import").strip() if caption.startswith("/import") else ""
        replies = await asyncio.to_thread(service.import_file, who(update), name, content, argument)
    await send(context, update, replies)


async def on_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    try:
        await query.answer()
    except BadRequest as error:  # e.g. "query is too old" when Telegram delivers a press again
        log.info("could not answer a button press: %s", error)
    replies = await asyncio.to_thread(service_of(context).callback, who(update), query.data or "")
    await send(context, update, replies)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log the error; tell the user something went wrong, without internals."""
    log.error("error while handling an update", exc_info=context.error)
    if isinstance(update, Update) and update.effective_chat is not None:
        service = service_of(context)
        text = service.tr(who(update)).gettext(M.INTERNAL_ERROR)
        try:
            await context.bot.send_message(update.effective_chat.id, text)
        except Exception:  # the error may be the network itself
            log.warning("could not tell the user about the error", exc_info=True)


def register(application: Application, service: BotService) -> None:
    application.bot_data["service"] = service
    application.add_handler(CommandHandler(list(COMMANDS), on_command))
    application.add_handler(MessageHandler(filters.Document.ALL, on_document))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, on_text))
    application.add_handler(CallbackQueryHandler(on_callback))
    application.add_error_handler(on_error)
