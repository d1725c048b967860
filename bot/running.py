"""The bot's commands for running an event (issue 11), as ``tiebreak/running.py`` decides them
for the command line too: /pair (Berger tables for round robins, a proposed FIDE Dutch pairing
to confirm for Swiss events, a question first when boards have no result), /undo, /addplayer,
/bye, /archive and /restore, and the reply to a command the bot does not know.

Each command is called as ``command(service, who, ...)`` and returns the replies
(``bot/handlers.py`` routes the updates to them); every change is one transaction of the
store's log, applied once per update (``bot/answers.py`` answers a repeat as the first).
"""

from __future__ import annotations

import re

from bot import messages as M
from bot.arbiters import store_pairing
from bot.callbacks import Action, Press, button
from bot.formatting import escape, pre_table, shorten
from bot.replies import Reply
from bot.service import Request, TournamentRequest, anyone, arbiters_button, arbiters_only, chief_only
from bot.views import colour_word, player_names
from ranking import (
    ByeKind,
    Event,
    EventKind,
    InputError,
    Result,
    TournamentState,
    bye_event,
    default_rules,
    written_result,
)
from tiebreak.running import Proposal, Undone, current_round, late_entry, propose_pairing, undo_last

_BYE_WORDS = {"half": ByeKind.HALF, "zero": ByeKind.ZERO, "full": ByeKind.FULL}


# -- /pair --------------------------------------------------------------------------------------

@arbiters_only
def pair(request: TournamentRequest) -> list[Reply]:
    """/pair: the next round.  A round robin's comes from the Berger tables and is stored at
    once; a Swiss round (FIDE Dutch system) is shown first, and so is any round while boards
    have no result: the arbiter confirms with a button."""
    try:
        proposal = propose_pairing(request.tournament())
    except InputError as error:
        return _cannot_pair(request, error)
    if proposal.system == "berger" and not proposal.unfinished:
        return store_pairing(request, proposal.games, proposal.byes)
    return [_proposal_reply(request, proposal)]


@arbiters_button
def confirm_pairing(request: TournamentRequest, press: Press) -> list[Reply]:
    """``Action.PAIR``: the proposal was confirmed; stored if it is still the pairing the
    tournament gets, else the new proposal is shown."""
    try:
        proposal = propose_pairing(request.tournament())
    except InputError as error:
        return _cannot_pair(request, error)
    if (proposal.round, proposal.digest) != (press.int(1), press.fields[2]):
        reply = _proposal_reply(request, proposal)
        return [Reply(escape(request.tr.gettext(M.PAIRING_CHANGED)) + "\n" + reply.text, reply.buttons)]
    return store_pairing(request, proposal.games, proposal.byes)


@arbiters_button
def cancel_pairing(request: TournamentRequest, press: Press) -> list[Reply]:
    """``Action.NO_PAIR``: the proposal was turned down."""
    return request.say(M.PAIRING_CANCELLED, edit=True)


def _cannot_pair(request: TournamentRequest, error: InputError) -> list[Reply]:
    if error.message.startswith("every round"):
        return request.say(M.ALL_ROUNDS_PAIRED)
    number = (current_round(request.state()) or 0) + 1
    return request.say(M.CANNOT_PAIR, round=number, reason=error.message)


def _proposal_reply(request: TournamentRequest, proposal: Proposal) -> Reply:
    """The proposed boards (Swiss), who is not paired and why, the boards still without a
    result, and the buttons that store it or not."""
    tr = request.tr
    tournament = request.tournament()
    names = player_names(tournament)
    blocks = []
    if proposal.unfinished:
        boards = ", ".join(f"R{number} B{board}" for number, board in proposal.unfinished[:12])
        blocks.append(escape(tr.format(M.PAIR_UNFINISHED, boards=boards, round=proposal.round)))
    if proposal.system == "dutch":
        blocks.append(escape(tr.format(M.PAIRING_PROPOSED, round=proposal.round)))
        rows = [[str(game.board), shorten(f"{game.white}. {names[game.white]}", 18),
                 shorten(f"{game.black}. {names[game.black]}", 18)] for game in proposal.games]
        header = ["", colour_word(tournament, True, tr), colour_word(tournament, False, tr)]
        blocks += pre_table(header, rows, [True, False, False]) if rows else []
        for bye in proposal.byes:
            blocks.append(escape(tr.format(M.BYE_LINE, name=f"{bye.player}. {names[bye.player]}")
                                 + f" ({tr.gettext(M.BYE_NAMES[bye.kind])})"))
        for player, reason in proposal.not_paired:
            blocks.append(escape(tr.format(M.NOT_PAIRED_LINE, name=f"{player}. {names[player]}", reason=reason)))
    key = request.store.tournament_key(request.slug)
    buttons = ((button(tr.format(M.PAIR_CONFIRM, round=proposal.round), Action.PAIR, key, proposal.round,
                       proposal.digest),
                button(tr.gettext(M.CANCEL), Action.NO_PAIR, key)),)
    return Reply("\n".join(blocks), buttons=buttons)


# -- /undo ----------------------------------------------------------------------------------------

@arbiters_only
def undo(request: TournamentRequest) -> list[Reply]:
    """/undo: take back the arbiter's last entry still in force (a result with the fouls of
    its line, a correction, a foul, a bye) and say what the board now has."""
    try:
        done = undo_last(request.store, request.slug, f"tg:{request.who.user_id}", request.source)
    except InputError as error:
        return request.refuse(error)
    if done is None:
        return request.say(M.NOTHING_TO_UNDO)
    request.service.changed(request.slug)
    return [Reply(escape(undone_text(request, done)))]


def undone_text(request: TournamentRequest, done: Undone) -> str:
    """``Undone: round 3, board 5 1-0. The board now has no result.`` in the asker's language."""
    tr = request.tr
    tournament = request.tournament()
    names = player_names(tournament)
    data = done.entry.event.data
    kind = done.entry.event.kind
    if kind is EventKind.BYE:
        return tr.format(M.UNDONE_BYE, bye=tr.gettext(M.BYE_NAMES[ByeKind(data["kind"])]),
                         player=f"{done.player}. {names[done.player]}", round=done.round)
    game = request.state().game(done.round, done.board)
    if kind is EventKind.FOUL:
        fouler = game.white if data["side"] == "white" else game.black
        return tr.format(M.UNDONE_FOUL, player=names[fouler], round=done.round, board=done.board,
                         fouls=f"{done.fouls[0]}-{done.fouls[1]}")
    scoring = default_rules(tournament).scoring
    now = written_result(Result(done.result), scoring) if done.result else tr.gettext(M.NO_RESULT)
    return tr.format(M.UNDONE_RESULT, round=done.round, board=done.board,
                     result=written_result(Result(data["result"]), scoring), now=now)


# -- players and byes ---------------------------------------------------------------------------

@arbiters_only
def add_player(request: TournamentRequest, argument: str) -> list[Reply]:
    """/addplayer NAME[; RATING[; FEDERATION[; CLUB]]]: a late entry (Swiss events; a round
    robin only before round 1 is paired)."""
    parts = [part.strip() for part in argument.split(";")]
    if not parts[0] or (len(parts) > 1 and parts[1] and not parts[1].isdigit()) or len(parts) > 4:
        return request.say(M.ADDPLAYER_USAGE)
    rating = int(parts[1]) if len(parts) > 1 and parts[1] else 0
    federation = parts[2] if len(parts) > 2 else ""
    club = parts[3] if len(parts) > 3 else ""
    try:
        appended = request.store.append(request.slug, lambda state: [late_entry(
            state, parts[0], rating, federation, club)], request.source)
    except InputError as error:
        return request.refuse(error)
    player = appended[0].event.data["player"]
    request.service.changed(request.slug)
    return request.say(M.PLAYER_ADDED, number=player["id"], name=player["name"])


@arbiters_only
def bye(request: TournamentRequest, argument: str) -> list[Reply]:
    """/bye NUMBER [ROUND] [half|zero|full]: a requested bye (default: the next round, half a
    point), entered before the round is paired."""
    words = argument.lower().split()
    numbers = [int(word) for word in words if word.isdigit()]
    kinds = [word for word in words if not word.isdigit()]
    if not numbers or len(numbers) > 2 or len(kinds) > 1 or (kinds and kinds[0] not in _BYE_WORDS):
        return request.say(M.BYE_USAGE)
    player = numbers[0]
    number = numbers[1] if len(numbers) > 1 else (current_round(request.state()) or 0) + 1
    kind = _BYE_WORDS[kinds[0]] if kinds else ByeKind.HALF
    try:
        request.store.append(request.slug, lambda state: [bye_event(state, number, player, kind)], request.source)
    except InputError as error:
        return request.refuse(error)
    request.service.changed(request.slug)
    name = player_names(request.tournament())[player]
    return request.say(M.BYE_RECORDED, round=number, bye=request.tr.gettext(M.BYE_NAMES[kind]), number=player,
                       name=name)


# -- archiving ----------------------------------------------------------------------------------

@chief_only
def archive(request: Request) -> list[Reply]:
    """/archive: hide the selected tournament from /tournaments and the site (chief arbiters);
    nothing is deleted."""
    slug = request.selected(entering=True)
    if slug is None:
        return request.say(M.NO_TOURNAMENT_SELECTED)
    return _archive(request.about(slug), EventKind.ARCHIVED)


@chief_only
def restore(request: Request, argument: str) -> list[Reply]:
    """/restore SLUG: bring an archived tournament back (chief arbiters)."""
    slug = argument.strip()
    if not slug:
        return request.say(M.RESTORE_USAGE)
    if slug not in request.store.slugs(archived=True):
        return request.say(M.UNKNOWN_SLUG, slug=slug)
    return _archive(request.about(slug), EventKind.RESTORED)


def _archive(request: TournamentRequest, kind: EventKind) -> list[Reply]:
    def decide(state: TournamentState) -> list[Event]:
        if state.archived == (kind is EventKind.ARCHIVED):
            raise InputError(f"{request.slug} is {'already' if state.archived else 'not'} archived")
        return [Event(kind)]

    try:
        request.store.append(request.slug, decide, request.source)
    except InputError as error:
        return request.refuse(error)
    request.service.changed(request.slug)
    name = request.state().base.name
    if kind is EventKind.ARCHIVED:
        return request.say(M.ARCHIVED, name=name, slug=request.slug)
    return request.say(M.RESTORED, name=name)


# -- what the bot does not know -------------------------------------------------------------------

@anyone
def unknown_command(request: Request, text: str) -> list[Reply]:
    """A command the bot does not have (``/foo``)."""
    command = re.split(r"[\s@]", text.strip(), maxsplit=1)[0] or text
    return request.say(M.UNKNOWN_COMMAND, command=command[:40])
