"""A round's end: the arbiter is shown the standings, every channel's announcement chat is sent
them (``BotService.announcements``: ``[bot].channel`` on Telegram, ``[zalo].channel`` on Zalo),
and whoever waits for it (``BotService.on_round_complete``) is told, whichever way the round's
last result came in (a chat message, a button, the entry page).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import messages as M
from bot.formatting import escape
from bot.messages import translator
from bot.replies import Reply, packed
from bot.service import TournamentRequest
from bot.views import standings_blocks


def round_completions(request: TournamentRequest, rounds: Sequence[int]) -> list[Reply]:
    """When a round is complete: say so and show the standings to the arbiter, then what
    ``announced`` posts."""
    tr = request.tr
    replies: list[Reply] = []
    for number in rounds:
        blocks = [escape(tr.format(M.ROUND_COMPLETE, round=number)),
                  *standings_blocks(request.tournament(), tr, final=request.final())]
        replies += packed(blocks) + announced(request, number)
    return replies


def announced(request: TournamentRequest, number: int) -> list[Reply]:
    """Round ``number`` is complete: its standings for every channel's announcement chat, each
    in its language (``BotService.announcements``), and whoever waits for it told (the site
    build).  The replies go to those chats through their channels (``conversation.forward``)."""
    service = request.service
    tournament, final = request.tournament(), request.final()  # computed once, told to every chat
    replies: list[Reply] = []
    for chat in service.announcements.values():
        tr = translator(chat.language)
        blocks = [escape(tr.format(M.ROUND_COMPLETE, round=number)), *standings_blocks(tournament, tr, final=final)]
        replies += packed(blocks, chat_id=chat.chat_id)
    if service.on_round_complete is not None:
        service.on_round_complete(request.slug, number)
    return replies
