"""The bot's commands for running an event, as ``tiebreak/running.py`` decides them for the
command line too: /pair (Berger tables for round robins, a proposed FIDE Dutch pairing to
confirm for Swiss events, a question first when boards have no result), /unpair (a question
first when the round has results), /undo (the arbiter's last change of any kind), /player add,
edit and remove (and /addplayer), /withdraw, /return, /bye, /archive and /restore, and the reply
to a command the bot does not know.  A player is named by starting number or by name (case and
diacritics ignored); every confirmation names the tournament; a refusal of the core is worded
in the user's language.

Each command is called as ``command(service, who, ...)`` and returns the replies
(``bot/handlers.py`` routes the updates to them); every change is one transaction of the
store's log, applied once per update (``bot/answers.py`` answers a repeat as the first).
"""

from __future__ import annotations

import re

from bot import messages as M
from bot.callbacks import Action, Press, button
from bot.formatting import escape, pre_table, shorten
from bot.pairings import store_pairing
from bot.parsing import whole_number
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
    withdrawal_event,
    written_result,
)
from ranking.event.log import round_to_unpair, unpair_event
from ranking.event.players import pairing_numbers
from ranking.event.refusals import Code, Refusal
from tiebreak.i18n import Translator
from tiebreak.running import (
    Proposal,
    Undone,
    late_entry,
    player_edit,
    propose_pairing,
    remove_player,
    return_player,
    undo_last,
    unpair,
)

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
    if isinstance(error, Refusal) and error.code is Code.EVERY_ROUND_PAIRED:
        return request.say(M.ALL_ROUNDS_PAIRED)
    number = request.state().clock().next_round
    return request.say(M.CANNOT_PAIR, round=number, reason=request.reason(error))


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
            why = tr.gettext(M.NOT_PAIRED_REASONS[reason]) if reason in M.NOT_PAIRED_REASONS else reason
            blocks.append(escape(tr.format(M.NOT_PAIRED_LINE, name=f"{player}. {names[player]}", reason=why)))
    key = request.store.tournament_key(request.slug)
    buttons = ((button(tr.format(M.PAIR_CONFIRM, round=proposal.round), Action.PAIR, key, proposal.round,
                       proposal.digest),
                button(tr.gettext(M.CANCEL), Action.NO_PAIR, key)),)
    return Reply("\n".join(blocks), buttons=buttons)


# -- /unpair ------------------------------------------------------------------------------------

@arbiters_only
def unpair_round(request: TournamentRequest) -> list[Reply]:
    """/unpair: take back the latest paired round; a round with results or fouls is asked about
    first (a button takes them back too; /undo brings them back)."""
    try:
        event = unpair(request.store, request.slug, request.source)
    except Refusal as error:
        if error.code is not Code.ROUND_HAS_RESULTS:
            return request.refuse(error)
        key = request.store.tournament_key(request.slug)
        number, count = error.params["round"], error.params["count"]
        buttons = ((button(request.tr.format(M.UNPAIR_CONFIRM, round=number), Action.UNPAIR, key, number, count),
                    button(request.tr.gettext(M.CANCEL), Action.NO_UNPAIR, key)),)
        text = request.heading() + "\n" + escape(request.tr.format(M.UNPAIR_QUESTION, round=number, count=count))
        return [Reply(text, buttons=buttons)]
    except InputError as error:
        return request.refuse(error)
    return _unpaired(request, event)


@arbiters_button
def confirm_unpair(request: TournamentRequest, press: Press) -> list[Reply]:
    """``Action.UNPAIR``: un-pair the round with its results, if it is still the round asked
    about with as many boards entered."""
    def decide(state: TournamentState) -> list[Event]:
        number, entered = round_to_unpair(state)
        if (number, entered) != (press.int(1), press.int(2)):
            raise Refusal(Code.ROUND_HAS_RESULTS, round=number, count=entered)
        return [unpair_event(state, force=True)]

    try:
        appended = request.store.append(request.slug, decide, request.source)
    except Refusal as error:
        if error.code is Code.ROUND_HAS_RESULTS:
            return request.confirm(M.UNPAIR_CHANGED, edit=True)
        return request.refuse(error)
    if not appended:
        return request.say(M.ALREADY_HANDLED)
    return _unpaired(request, appended[0].event, edit=True)


@arbiters_button
def cancel_unpair(request: TournamentRequest, press: Press) -> list[Reply]:
    """``Action.NO_UNPAIR``: nothing is un-paired."""
    return request.say(M.UNPAIR_CANCELLED, edit=True)


def _unpaired(request: TournamentRequest, event: Event, edit: bool = False) -> list[Reply]:
    request.service.changed(request.slug)
    rows = event.data["games"]
    results = sum(1 for row in rows if row[3])
    if results:
        text = request.tr.nformat(*M.UNPAIRED_WITH_RESULTS, results, round=event.data["round"], boards=len(rows),
                                  count=results)
        return [Reply(request.heading() + "\n" + escape(text), edit=edit)]
    return request.confirm(M.UNPAIRED, edit=edit, round=event.data["round"], boards=len(rows))


# -- /undo ----------------------------------------------------------------------------------------

def take_back_last_change(request: TournamentRequest) -> list[Reply]:
    """Take back the asker's last change still in force, of any kind, and say what there is now;
    refused (in the asker's language) when a later change depends on it.  /undo (``undo``) for
    an arbiter; the entry page calls it for its link, which is its own authority."""
    try:
        done = undo_last(request.store, request.slug, request.source.actor, request.source)
    except InputError as error:
        if isinstance(error, Refusal) and error.code is Code.NOTHING_TO_UNDO:
            return request.say(M.NOTHING_TO_UNDO)
        return request.refuse(error)
    if done is None:
        return request.say(M.ALREADY_HANDLED)
    request.service.changed(request.slug)
    return [Reply(request.heading() + "\n" + escape(undone_text(request, done)))]


#: /undo: the arbiters of the user's tournament take back their own last change
undo = arbiters_only(take_back_last_change)


def undone_text(request: TournamentRequest, done: Undone) -> str:
    """``Undone: round 3, board 5 1-0. The board now has no result.`` (and so for every kind of
    change) in the asker's language."""
    tr = request.tr
    tournament = done.tournament
    names = player_names(tournament)
    data = done.data
    kind = done.entry.event.kind
    player = data.get("player")
    pid = player["id"] if isinstance(player, dict) else player
    who = f"{pid}. {player['name'] if isinstance(player, dict) else names.get(pid, '')}"
    if kind is EventKind.BYE:
        return tr.format(M.UNDONE_BYE, bye=tr.gettext(M.BYE_NAMES[ByeKind(data["kind"])]),
                         player=f"{pid}. {names[pid]}", round=data["round"])
    if kind in (EventKind.RESULT, EventKind.FORFEIT, EventKind.CORRECTION, EventKind.FOUL):
        game = next(g for g in tournament.games if (g.round, g.board) == (data["round"], data["board"]))
        if kind is EventKind.FOUL:
            fouler = game.white if data["side"] == "white" else game.black
            return tr.format(M.UNDONE_FOUL, player=names[fouler], round=data["round"], board=data["board"],
                             fouls=f"{game.fouls_white}-{game.fouls_black}")
        scoring = default_rules(tournament).scoring
        now = written_result(game.result, scoring) if game.result else tr.gettext(M.NO_RESULT)
        return tr.format(M.UNDONE_RESULT, round=data["round"], board=data["board"],
                         result=written_result(Result(data["result"]), scoring), now=now)
    if kind is EventKind.ROUND_PAIRED:
        return tr.format(M.UNDONE_PAIRING, round=data["round"])
    if kind is EventKind.ROUND_UNPAIRED:
        return tr.format(M.UNDONE_UNPAIRING, round=data["round"])
    if kind is EventKind.WITHDRAWAL:
        return tr.format(M.UNDONE_WITHDRAWAL, player=who)
    if kind is EventKind.PLAYER_RETURNED:
        return tr.format(M.UNDONE_RETURN, player=who, round=data["after_round"])
    if kind is EventKind.PLAYER_ADDED:
        return tr.format(M.UNDONE_LATE_ENTRY, player=who)
    if kind is EventKind.PLAYER_REMOVED:
        return tr.format(M.UNDONE_REMOVAL, player=who)
    if kind is EventKind.PLAYER_EDITED:
        return tr.format(M.UNDONE_CORRECTION, player=who, changes=changes_text(tr, data["changes"], data["previous"]))
    if kind is EventKind.SETTING:
        return tr.gettext(M.UNDONE_SETTINGS)
    if kind is EventKind.PLAYOFF_RESULT:
        return tr.format(M.UNDONE_PLAYOFF, white=names.get(data["white"], ""), black=names.get(data["black"], ""))
    if kind in (EventKind.ARBITER_ADDED, EventKind.ARBITER_REMOVED):
        return tr.format(M.UNDONE_ARBITER, user=data["user_id"])
    return tr.format(M.UNDONE_ARCHIVING, name=tournament.name)


def changes_text(tr: Translator, before: dict, after: dict) -> str:
    """``rating 2100 → 2150, title – → FM`` in the reader's language."""
    return ", ".join(f"{tr.gettext(M.FIELD_NAMES[key])} {before.get(key) or '–'} → {after.get(key) or '–'}"
                     for key in after)


# -- players and byes ---------------------------------------------------------------------------

@arbiters_only
def add_player(request: TournamentRequest, argument: str) -> list[Reply]:
    """/addplayer (and /player add) NAME[; RATING[; FEDERATION[; CLUB[; TITLE]]]]: a late entry
    (Swiss events until the final round is paired; a round robin only before round 1 is
    paired)."""
    return _late_entry(request, argument)


def _late_entry(request: TournamentRequest, argument: str) -> list[Reply]:
    parts = [part.strip() for part in argument.split(";")]
    if not parts[0] or (len(parts) > 1 and parts[1] and not parts[1].isdigit()) or len(parts) > 5:
        return request.say(M.ADDPLAYER_USAGE)
    rating = int(parts[1]) if len(parts) > 1 and parts[1] else 0
    federation = parts[2] if len(parts) > 2 else ""
    club = parts[3] if len(parts) > 3 else ""
    title = parts[4] if len(parts) > 4 else ""
    try:
        appended = request.store.append(request.slug, lambda state: [late_entry(
            state, parts[0], rating, federation, club, title)], request.source)
    except InputError as error:
        return request.refuse(error)
    if not appended:
        return request.say(M.ALREADY_HANDLED)
    player = appended[0].event.data["player"]
    request.service.changed(request.slug)
    return request.confirm(M.PLAYER_ADDED_TPN, number=player["id"], name=player["name"],
                           tpn=pairing_numbers(request.tournament())[player["id"]])


_FIELDS = {"name": "name", "rating": "rating", "elo": "rating", "title": "title", "federation": "federation",
           "fed": "federation", "club": "club", "fide": "fide_id", "fide_id": "fide_id", "fideid": "fide_id"}


@arbiters_only
def change_player(request: TournamentRequest, argument: str) -> list[Reply]:
    """/player add ..., /player edit PLAYER FIELD VALUE[; FIELD VALUE], /player remove PLAYER."""
    action, _, rest = argument.strip().partition(" ")
    action = action.lower()
    if action == "add":
        return _late_entry(request, rest)
    if action == "remove":
        found = request.player(rest) if rest.strip() else request.say(M.PLAYER_CHANGE_USAGE)
        if isinstance(found, list):
            return found
        try:
            remove_player(request.store, request.slug, found.id, request.source)
        except InputError as error:
            return request.refuse(error)
        request.service.changed(request.slug)
        return request.confirm(M.PLAYER_REMOVED, number=found.id, name=found.name)
    return _edit_player(request, rest)


def _edit_player(request: TournamentRequest, text: str) -> list[Reply]:
    """/player edit PLAYER FIELD VALUE[; FIELD VALUE ...]: the player is the words before the
    first field name."""
    first, *others = [part.strip() for part in text.split(";")]
    words = first.split()
    at = next((k for k, word in enumerate(words) if word.lower() in _FIELDS and k > 0), None)
    if at is None or at + 1 >= len(words):
        return request.say(M.PLAYER_CHANGE_USAGE)
    found = request.player(" ".join(words[:at]))
    if isinstance(found, list):
        return found
    changes: dict[str, object] = {}
    for part in [" ".join(words[at:]), *others]:
        field, _, value = part.partition(" ")
        key = _FIELDS.get(field.lower())
        if key is None or (key == "rating" and not value.strip().isdigit()):
            return request.say(M.PLAYER_CHANGE_USAGE)
        changes[key] = int(value) if key == "rating" else value.strip()
    try:
        appended = request.store.append(request.slug, lambda state: player_edit(state, found.id, **changes),
                                        request.source)
    except InputError as error:
        return request.refuse(error)
    if not appended:
        return request.confirm(M.PLAYER_UNCHANGED, number=found.id, name=found.name)
    data = appended[0].event.data
    request.service.changed(request.slug)
    name = request.state().base.player(found.id).name
    return request.confirm(M.PLAYER_CORRECTED, number=found.id, name=name,
                           changes=changes_text(request.tr, data["previous"], data["changes"]))


@arbiters_only
def withdraw(request: TournamentRequest, argument: str) -> list[Reply]:
    """/withdraw PLAYER [ROUND]: the player (a starting number or a name) plays no more rounds
    after ROUND (default: the last round with results)."""
    words = argument.split()
    if not words:
        return request.say(M.WITHDRAW_USAGE)
    after = None
    if len(words) > 1 and whole_number(words[-1]) is not None:
        after = whole_number(words.pop())
    if len(words) > 1 and any(whole_number(word) is not None for word in words):
        return request.say(M.WITHDRAW_USAGE)
    found = request.player(" ".join(words))
    if isinstance(found, list):
        return found

    def decide(state: TournamentState) -> list[Event]:
        return [withdrawal_event(state, found.id, after)]

    try:
        request.store.append(request.slug, decide, request.source)
    except InputError as error:
        return request.refuse(error)
    state = request.state()  # also when this update was applied before (delivered twice)
    withdrawal = state.withdrawals.get(found.id)
    if withdrawal is None:
        return request.say(M.WITHDRAW_USAGE)
    request.service.changed(request.slug)
    return request.confirm(M.WITHDRAWN, number=found.id, name=found.name, round=withdrawal.after_round)


@arbiters_only
def return_withdrawn(request: TournamentRequest, argument: str) -> list[Reply]:
    """/return PLAYER: a withdrawn player is paired again from the next round not yet paired."""
    if not argument.strip():
        return request.say(M.RETURN_USAGE)
    found = request.player(argument)
    if isinstance(found, list):
        return found
    try:
        return_player(request.store, request.slug, found.id, request.source)
    except InputError as error:
        return request.refuse(error)
    request.service.changed(request.slug)
    return request.confirm(M.PLAYER_RETURNED, number=found.id, name=found.name,
                           round=request.state().clock().next_round)


@arbiters_only
def bye(request: TournamentRequest, argument: str) -> list[Reply]:
    """/bye PLAYER [ROUND] [half|zero|full]: a requested bye (default: the next round, half a
    point), entered before the round is paired; PLAYER is a starting number or a name."""
    words = argument.split()
    kinds = [word.lower() for word in words if word.lower() in _BYE_WORDS]
    rest = [word for word in words if word.lower() not in _BYE_WORDS]
    if len(kinds) > 1 or not rest:
        return request.say(M.BYE_USAGE)
    round_number = None
    if len(rest) > 1 and rest[-1].isascii() and rest[-1].isdigit():
        round_number = int(rest.pop())
    if any(word.isascii() and word.isdigit() for word in rest) and len(rest) > 1:
        return request.say(M.BYE_USAGE)
    found = request.player(" ".join(rest))
    if isinstance(found, list):
        return found
    player = found.id
    number = round_number if round_number is not None else request.state().clock().next_round
    kind = _BYE_WORDS[kinds[0]] if kinds else ByeKind.HALF
    try:
        request.store.append(request.slug, lambda state: [bye_event(state, number, player, kind)], request.source)
    except InputError as error:
        return request.refuse(error)
    request.service.changed(request.slug)
    return request.confirm(M.BYE_RECORDED, round=number, bye=request.tr.gettext(M.BYE_NAMES[kind]), number=player,
                           name=found.name)


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
            raise Refusal(Code.ALREADY_ARCHIVED if state.archived else Code.NOT_ARCHIVED, slug=request.slug)
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
