"""python-telegram-bot handlers, as its own examples write them: one small async handler per
command, one for result messages, one for documents, one for the inline buttons, and one error
handler; ``register`` adds them all to the Application (``bot/app.py`` builds it, and the
console mode runs the same one).

A handler only turns the update into a ``Who`` and some text, runs the command
(``bot/players.py``, ``bot/arbiters.py``) in a worker thread (the store is SQLite, which
blocks), and sends the replies back.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from typing import ParamSpec

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Update
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

from bot import answers, arbiters, callbacks, downloads, players, running
from bot import messages as M
from bot.callbacks import Action
from bot.limits import Admission
from bot.replies import Reply
from bot.service import BotService, ButtonCommand, Command, Who
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
    query = update.callback_query
    chat_id = update.effective_chat.id if update.effective_chat else None
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(button.text, callback_data=button.data)
                                    for button in row] for row in reply.buttons]) if reply.buttons else None
    target = reply.chat_id if reply.chat_id is not None else chat_id
    if reply.document is not None:
        await context.bot.send_document(
            target, document=InputFile(io.BytesIO(reply.document.content), filename=reply.document.file_name),
            caption=reply.document.caption or None)
    elif reply.edit and query is not None and query.message is not None:
        await query.edit_message_text(reply.text, parse_mode=ParseMode.HTML, reply_markup=markup)
    else:
        await context.bot.send_message(target, reply.text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                       disable_web_page_preview=True)


# -- players' commands ----------------------------------------------------------------------------

async def on_start(update: Update, context: Context) -> None:
    """/start [SLUG]: the help; a deep link selects tournament SLUG."""
    await answer(update, context, players.start, arguments(context))


async def on_help(update: Update, context: Context) -> None:
    await answer(update, context, players.start)


async def on_tournaments(update: Update, context: Context) -> None:
    await answer(update, context, players.tournaments)


async def on_standings(update: Update, context: Context) -> None:
    """/standings [N]"""
    await answer(update, context, players.standings, arguments(context))


async def on_round(update: Update, context: Context) -> None:
    """/round [N]"""
    await answer(update, context, players.round, arguments(context))


async def on_teams(update: Update, context: Context) -> None:
    await answer(update, context, players.teams)


async def on_playoff(update: Update, context: Context) -> None:
    """/playoff: the play-offs; /playoff WHITE BLACK RESULT: an arbiter enters a play-off result."""
    if arguments(context).strip():
        await answer(update, context, arbiters.playoff_result, arguments(context))
    else:
        await answer(update, context, players.playoff)


async def on_player(update: Update, context: Context) -> None:
    """/player NAME|NUMBER: a player's card; /player add|edit|remove ...: an arbiter's change."""
    words = arguments(context)
    if words.split(" ", 1)[0].lower() in ("add", "edit", "remove"):
        await answer(update, context, running.change_player, words)
    else:
        await answer(update, context, players.player, words)


async def on_iam(update: Update, context: Context) -> None:
    """/iam NUMBER"""
    await answer(update, context, players.iam, arguments(context))


async def on_me(update: Update, context: Context) -> None:
    await answer(update, context, players.me)


async def on_subscribe(update: Update, context: Context) -> None:
    await answer(update, context, players.subscribe)


async def on_unsubscribe(update: Update, context: Context) -> None:
    await answer(update, context, players.subscribe, False)


async def on_language(update: Update, context: Context) -> None:
    """/language [NAME]"""
    await answer(update, context, players.language, arguments(context))


# -- arbiters' commands ------------------------------------------------------------------------------

async def on_enter(update: Update, context: Context) -> None:
    await answer(update, context, arbiters.enter)


async def on_undo(update: Update, context: Context) -> None:
    await answer(update, context, running.undo)


async def on_pair(update: Update, context: Context) -> None:
    await answer(update, context, running.pair)


async def on_unpair(update: Update, context: Context) -> None:
    await answer(update, context, running.unpair_round)


async def on_return(update: Update, context: Context) -> None:
    """/return NUMBER|NAME"""
    await answer(update, context, running.return_withdrawn, arguments(context))


async def on_addplayer(update: Update, context: Context) -> None:
    """/addplayer NAME[; RATING[; FEDERATION[; CLUB]]]"""
    await answer(update, context, running.add_player, arguments(context))


async def on_bye(update: Update, context: Context) -> None:
    """/bye NUMBER [ROUND] [half|zero|full]"""
    await answer(update, context, running.bye, arguments(context))


async def on_archive(update: Update, context: Context) -> None:
    await answer(update, context, running.archive)


async def on_restore(update: Update, context: Context) -> None:
    """/restore SLUG"""
    await answer(update, context, running.restore, arguments(context))


async def on_unknown_command(update: Update, context: Context) -> None:
    """A command no handler above takes."""
    await answer(update, context, running.unknown_command, update.effective_message.text or "")


async def on_withdraw(update: Update, context: Context) -> None:
    """/withdraw NUMBER [ROUND]"""
    await answer(update, context, arbiters.withdraw, arguments(context))


async def on_import(update: Update, context: Context) -> None:
    """/import without a file (with one, the caption of a document: ``on_document``)."""
    await answer(update, context, arbiters.import_help)


async def on_export(update: Update, context: Context) -> None:
    await answer(update, context, arbiters.export)


async def on_arbiters(update: Update, context: Context) -> None:
    """/arbiters [add|remove USER]"""
    await answer(update, context, arbiters.arbiters, arguments(context))


#: every command and its handler (``bot/app.py``'s MENU lists those Telegram offers in its menu)
COMMANDS = {
    "start": on_start,
    "help": on_help,
    "tournaments": on_tournaments,
    "standings": on_standings,
    "round": on_round,
    "teams": on_teams,
    "playoff": on_playoff,
    "player": on_player,
    "iam": on_iam,
    "me": on_me,
    "subscribe": on_subscribe,
    "unsubscribe": on_unsubscribe,
    "language": on_language,
    "enter": on_enter,
    "undo": on_undo,
    "pair": on_pair,
    "unpair": on_unpair,
    "return": on_return,
    "withdraw": on_withdraw,
    "import": on_import,
    "export": on_export,
    "arbiters": on_arbiters,
    "addplayer": on_addplayer,
    "bye": on_bye,
    "archive": on_archive,
    "restore": on_restore,
}


# -- messages, documents, buttons --------------------------------------------------------------------

async def on_text(update: Update, context: Context) -> None:
    """A message that is not a command: result lines from an arbiter."""
    await answer(update, context, arbiters.text, update.effective_message.text)


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
        await answer(update, context, arbiters.pair_from_file, name, fetch, document.file_size)
    else:
        argument = caption.removeprefix("/import").strip() if caption.startswith("/import") else ""
        await answer(update, context, arbiters.import_file, name, fetch, argument, document.file_size)


#: every kind of inline button and the command that answers a press (``bot/callbacks.py``)
BUTTONS: dict[Action, ButtonCommand] = {
    Action.SELECT: players.select,
    Action.LANGUAGE: players.choose_language,
    Action.MENU: arbiters.board_menu,
    Action.BOARD: arbiters.choose_board,
    Action.RESULT: arbiters.choose_result,
    Action.CONFIRM: arbiters.confirm_result,
    Action.REPLACE: arbiters.replace_result,
    Action.KEEP: arbiters.keep_result,
    Action.PAIR: running.confirm_pairing,
    Action.NO_PAIR: running.cancel_pairing,
    Action.UNPAIR: running.confirm_unpair,
    Action.NO_UNPAIR: running.cancel_unpair,
}


def press(service: BotService, who: Who, data: str) -> list[Reply]:
    """The replies to a pressed inline button, by its ``callback_data`` (Telegram-free, like
    the commands); data no button of the bot carries (forged, damaged, of an older version) is
    "not understood"."""
    try:
        pressed = callbacks.decode(data)
    except ValueError:
        return players.not_understood(service, who)
    return BUTTONS[pressed.action](service, who, pressed)


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
    tr = service.tr(who)
    try:
        if who.update_id is not None and answers.handled(service.store, who.update_id):
            text = tr.gettext(M.ERROR_AFTER_RECORDING)
        elif isinstance(error, StoreError):
            text = tr.format(M.STORE_UNAVAILABLE, problem=error.problem)
        else:
            text = tr.gettext(M.INTERNAL_ERROR)
    except StoreError as unreadable:
        text = tr.format(M.STORE_UNAVAILABLE, problem=unreadable.problem)
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
    admission = service.limiter.admit(user.id, lambda: user.id in service.arbiter_ids())
    if admission is Admission.READ:
        return
    if admission is Admission.TELL and update.effective_chat is not None:
        who = who_of(update)
        text = service.tr(who).format(M.SLOW_DOWN, limit=service.settings.rate_limit,
                                      seconds=service.limiter.wait(user.id))
        try:
            await context.bot.send_message(update.effective_chat.id, text)
        except TelegramError as error:
            log.info("could not tell a user to slow down: %s", error)
    raise ApplicationHandlerStop


def register(application: Application, service: BotService) -> None:
    """Add the handlers to ``application``, serving ``service``."""
    application.bot_data["service"] = service
    application.add_handler(TypeHandler(Update, on_any_update), group=-1)
    for command, handler in COMMANDS.items():
        application.add_handler(CommandHandler(command, handler))
    application.add_handler(MessageHandler(filters.Document.ALL, on_document))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, on_text))
    application.add_handler(MessageHandler(filters.COMMAND, on_unknown_command))
    application.add_handler(CallbackQueryHandler(on_button, pattern=callbacks.PATTERN))
    application.add_handler(CallbackQueryHandler(on_unknown_button))
    application.add_error_handler(on_error)
