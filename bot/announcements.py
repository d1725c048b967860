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
    """When a round is complete: say so, show the standings, post them to the channel,
    and tell whoever waits for it (the site build)."""
    service, tr = request.service, request.tr
    replies: list[Reply] = []
    for number in rounds:
        tournament, final = request.tournament(), request.final()  # computed once, told twice
        blocks = [escape(tr.format(M.ROUND_COMPLETE, round=number)), *standings_blocks(tournament, tr, final=final)]
        replies += packed(blocks)
        if service.settings.channel is not None:
            channel_tr = translator(service.settings.language)
            channel_blocks = [escape(channel_tr.format(M.ROUND_COMPLETE, round=number)),
                              *standings_blocks(tournament, channel_tr, final=final)]
            replies += packed(channel_blocks, chat_id=service.settings.channel)
        if service.on_round_complete is not None:
            service.on_round_complete(request.slug, number)
    return replies
