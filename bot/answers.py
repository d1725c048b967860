"""Every update answered once, and every answer delivered.

Telegram delivers an update again when the bot did not confirm it: the bot was stopped or
killed first (``bot/delivery.py`` confirms an update only once this module is done with it),
or a webhook request failed.  The store applies an update once (its dedupe key,
``Who.dedupe_key``); this module makes the *answer* once too:

- The answer to an update that changed the store or was refused (a submission) is saved with
  it (``Store.save_answer``) before it is sent; the update delivered again is answered with the
  same replies ("answered like the first"), and its command does not run again.
- An update the store applied but whose answer was never saved (the bot was killed between the
  two) is answered with the results its message recorded, read back from the log (or that it
  was handled before).
- Sending retries network errors; an answer that still could not be sent is marked so, and
  goes out, under a line saying so, before the next reply to that chat: an arbiter whose
  result was stored learns that it was.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import ParamSpec

from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError

from bot import entering
from bot import messages as M
from bot.formatting import escape
from bot.replies import Reply, replies_from_json, replies_to_json
from bot.service import BotService, Command, Who
from tiebreak.store import Store

log = logging.getLogger(__name__)
P = ParamSpec("P")

#: the pauses between the attempts to send a reply after a network error (so 3 attempts)
RETRY_PAUSES: tuple[float, ...] = (0.5, 1.0)


@dataclass(frozen=True)
class Answer:
    """The replies to an update; ``update_id`` when they are saved with it (so whether they
    reached the chat is recorded too)."""

    replies: list[Reply]
    update_id: int | None = None


def applied(store: Store, who: Who) -> bool:
    """Whether ``who``'s update changed the store already (a refused one changed nothing: asked
    again, it is refused again, in the same words)."""
    return who.update_id is not None and store.applied(who.dedupe_key or "")


def handled(store: Store, who: Who) -> bool:
    """Whether ``who``'s update changed the store or was recorded as a submission already."""
    return applied(store, who) or (who.update_id is not None and store.has_submission(who.update_id))


def answer_once(service: BotService, who: Who, command: Command[P], *args: P.args, **kwargs: P.kwargs) -> Answer:
    """The answer to ``who``'s update: the saved one if it was answered before; else the
    command's, saved when the command changed the store or recorded a submission."""
    store = service.store
    update_id = who.update_id
    if update_id is None:
        return Answer(command(service, who, *args, **kwargs))
    saved = store.answer(update_id)
    if saved is not None:
        return Answer(replies_from_json(saved), update_id)
    if applied(store, who):  # applied, but the bot was killed before it saved the answer
        return Answer(entering.handled_before(service, who))
    replies = command(service, who, *args, **kwargs)
    if not handled(store, who):
        return Answer(replies)
    store.save_answer(update_id, who.chat_id, replies_to_json(replies))
    return Answer(replies, update_id)


#: sends one reply through a channel (``bot/handlers.py`` knows how for Telegram, ``bot/zalo.py``
#: for Zalo); it raises ``NotSent`` (or Telegram's errors) when the reply did not go out
Send = Callable[[Reply], Awaitable[None]]


class NotSent(Exception):
    """A channel could not send a reply after its own retries: it goes out, under a line saying
    so, before the next answer to that chat."""


async def deliver(service: BotService, who: Who, answer: Answer, send: Send) -> bool:
    """Send the answers to ``who``'s chat that never reached it, then ``answer``; True when
    everything was sent.  What could not be sent after the retries stays marked unsent."""
    store = service.store
    earlier = [(update_id, text) for update_id, text in await asyncio.to_thread(store.unsent_answers, who.chat_id)
               if update_id != answer.update_id]
    for update_id, text in earlier:
        note = escape(service.tr(who).gettext(M.EARLIER_ANSWER))
        replies = [replace(reply, edit=False) for reply in replies_from_json(text)]  # the message it edited is old
        if replies and replies[0].document is None and replies[0].chat_id is None:
            replies[0] = replace(replies[0], text=f"{note}\n{replies[0].text}")
        if not await send_all(replies, send):
            return await _unsent(store, answer)
        await asyncio.to_thread(store.mark_answer, update_id, True)
    if not await send_all(answer.replies, send):
        return await _unsent(store, answer)
    return True


async def _unsent(store: Store, answer: Answer) -> bool:
    if answer.update_id is not None:
        await asyncio.to_thread(store.mark_answer, answer.update_id, False)
    return False


async def send_all(replies: Sequence[Reply], send: Send) -> bool:
    """Send each reply, retrying network errors; False when one still failed (the rest wait).
    An error a retry cannot mend (a blocked bot, a refused edit) is logged and passed over."""
    for reply in replies:
        for attempt, pause in enumerate((*RETRY_PAUSES, None)):
            try:
                await send(reply)
                break
            except NotSent as error:  # the channel retried already
                log.warning("could not send a reply (%s); it goes out with the next answer to that chat", error)
                return False
            except BadRequest as error:  # e.g. "message is not modified" when the same edit comes again
                log.info("Telegram refused a reply: %s", error)
                break
            except RetryAfter as error:  # past the rate limiter's own retries: wait as long as asked
                if pause is None:
                    log.warning("could not send a reply: %s; it goes out with the next answer to that chat", error)
                    return False
                wait = error.retry_after
                await asyncio.sleep(wait.total_seconds() if isinstance(wait, timedelta) else float(wait))
            except NetworkError as error:
                if pause is None:
                    log.warning("could not send a reply after %d attempts (%s); it goes out with the next "
                                "answer to that chat", attempt + 1, error)
                    return False
                await asyncio.sleep(pause)
            except TelegramError as error:  # e.g. Forbidden: the user blocked the bot
                log.warning("Telegram refused a reply: %s", error)
                break
    return True
