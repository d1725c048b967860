"""Who may enter results: /arbiters lists a tournament's arbiters (for its arbiters only), and
/arbiters add|remove USER (chief arbiters only) names a Telegram user, or another channel's
(``zalo:<id>``), an arbiter of the tournament or no longer.
"""

from __future__ import annotations

from bot import messages as M
from bot.parsing import whole_number
from bot.replies import Reply
from bot.service import TournamentRequest, arbiters_only
from ranking import Event, EventKind


@arbiters_only
def arbiters(request: TournamentRequest, argument: str) -> list[Reply]:
    """/arbiters: who may enter results (the arbiters' Telegram ids: for the arbiters only);
    /arbiters add|remove USER (chief arbiters only)."""
    words = argument.split()
    if not words:
        users = sorted(request.service.settings.arbiters | request.state().arbiters)
        return request.say(M.ARBITERS_LIST, slug=request.slug,
                           users=", ".join(_user_name(request, user) for user in users) or "-")
    if not request.is_chief:
        return request.refused(request.slug, "not a chief arbiter", M.CHIEF_ONLY)
    user = _user_number(request, words[1]) if len(words) == 2 and words[0] in ("add", "remove") else None
    if user is None:
        return request.say(M.ARBITERS_USAGE)
    kind = EventKind.ARBITER_ADDED if words[0] == "add" else EventKind.ARBITER_REMOVED
    request.store.append(request.slug, lambda state: [Event(kind, {"user_id": user})], request.source)
    return request.confirm(M.ARBITER_ADDED if words[0] == "add" else M.ARBITER_REMOVED,
                           user=_user_name(request, user), slug=request.slug)


def _user_number(request: TournamentRequest, text: str) -> int | None:
    """The bot's number of a user named by their Telegram id (``123456789``) or by another
    channel and its id (``zalo:6ef1a2b3``: ``Store.channel_id``)."""
    channel, _, external = text.partition(":")
    if external and channel.lower() in OTHER_CHANNELS:
        return request.store.channel_id(channel.lower(), external)
    return whole_number(text)


def _user_name(request: TournamentRequest, user: int) -> str:
    """A user as ``/arbiters`` shows them: a Telegram id, or ``zalo:<id>``."""
    address = request.store.channel_address(user)
    return f"{address[0]}:{address[1]}" if address else str(user)


#: the chat channels whose users ``/arbiters add`` names as ``channel:id``
OTHER_CHANNELS = ("zalo",)
