"""A round's pairing stored from the chat: a round paired elsewhere sent as a file (/pair), and
what storing any pairing does (``store_pairing``, which /pair's own pairings call too): shown,
compared with the FIDE Dutch system's pairing when asked, and sent to each subscriber in their
own chat and language.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import messages as M
from bot.formatting import escape
from bot.messages import translator
from bot.replies import Reply, packed
from bot.service import TournamentRequest, arbiters_only
from bot.tournament_files import Upload, receive_file
from bot.views import player_names, round_blocks
from ranking import Bye, Game, InputError, pairing_event
from tiebreak.library import pairing_from_file
from tiebreak.running import check_imported


@arbiters_only
def pair_from_file(request: TournamentRequest, file_name: str, content: Upload,
                   size: int | None = None) -> list[Reply]:
    """A round paired elsewhere, sent as a file (TRF, or a list of pairs) with the caption
    /pair: stored, then compared with the FIDE Dutch system's pairing (Swiss events)."""
    received = receive_file(request, content, size)
    if isinstance(received, list):
        return received
    text = received.decode("utf-8", errors="replace")
    try:
        _, games, byes = pairing_from_file(request.tournament(), text, file_name)
    except InputError as error:
        return request.refuse(error)
    return store_pairing(request, games, byes, compare=True)


def store_pairing(request: TournamentRequest, games: Sequence[Game], byes: Sequence[Bye],
                  compare: bool = False) -> list[Reply]:
    """Store a round's pairing, show it, tell the subscribers (naming the tournament) and
    whoever waits for changes (the site build); ``compare``: say how it differs from the
    Dutch pairing."""
    number = games[0].round if games else byes[0].round
    try:
        appended = request.store.append(request.slug, lambda state: [pairing_event(state, number, games, byes)],
                                        request.source)
    except InputError as error:
        return request.refuse(error)
    if not appended:  # this very update paired the round before (bot.answers answers it so)
        return request.say(M.ALREADY_HANDLED)
    request.service.changed(request.slug)
    tr = request.tr
    blocks = [escape(tr.format(M.PAIRED, round=number, boards=len(games))), *round_blocks(request.state(), number, tr)]
    if compare:
        blocks += dutch_comparison(request, number)
    return packed(blocks) + _notify_pairings(request, number)


def dutch_comparison(request: TournamentRequest, number: int) -> list[str]:
    """How round ``number`` as stored differs from the Dutch pairing (nothing for round robins)."""
    tr = request.tr
    try:
        check = check_imported(request.tournament(), number)
    except InputError as error:
        return [escape(tr.format(M.CANNOT_PAIR, round=number, reason=error.message))]
    if check is None:
        return []
    lines = [tr.format(M.RULE_BROKEN, rule=violation.rule, text=violation.text) for violation in check.violations]
    if check.same:
        lines.append(tr.gettext(M.DUTCH_SAME))
    else:
        lines.append(tr.gettext(M.DUTCH_DIFFERS))
        lines += [f"• {difference.text}" for difference in check.differences]
    return [escape("\n".join(lines))]


def _notify_pairings(request: TournamentRequest, number: int) -> list[Reply]:
    """Each subscriber's pairing of round ``number``, in their own chat and language."""
    state = request.state()
    names = player_names(state.base)
    replies = []
    for subscriber in request.store.subscribers(request.slug):
        if subscriber.chat_id is None:
            continue
        tr = translator(subscriber.language, request.service.settings.language)
        heading = f"<b>{escape(state.base.name)}</b>\n"
        for (round_number, board), game in state.games.items():
            if round_number == number and subscriber.player_id in (game.white, game.black):
                replies.append(Reply(heading + escape(tr.format(M.YOUR_PAIRING, round=number, board=board,
                                                                white=names[game.white], black=names[game.black])),
                                     chat_id=subscriber.chat_id))
        for round_number, player in state.byes:
            if round_number == number and player == subscriber.player_id:
                replies.append(Reply(heading + escape(tr.format(M.ROUND_HEADING, round=number) + ": "
                                                      + tr.format(M.BYE_LINE, name=names[player])),
                                     chat_id=subscriber.chat_id))
    return replies
