"""The commands everyone may use: choosing a tournament and a language, the standings, a
round, a player, the team standings and the play-offs, saying who you are, subscribing.

Each command is called as ``command(service, who, ...)`` (``bot.service`` says which guard
it passes) and returns the replies; ``bot/handlers.py`` routes the updates to them.
"""

from __future__ import annotations

from dataclasses import replace

from bot import messages as M
from bot.callbacks import Action, Press, button
from bot.formatting import escape
from bot.replies import Reply, packed
from bot.service import Request, TournamentRequest, anyone, needs_tournament
from bot.views import (
    STANDINGS_DEFAULT_TOP,
    player_blocks,
    playoff_blocks,
    round_blocks,
    standings_blocks,
    team_standings_blocks,
)
from ranking import InputError, team_event_of, team_standings
from ranking.event.players import find_players
from ranking.event.refusals import Code, Refusal, worded
from tiebreak.i18n import LANGUAGE_NAMES, SUPPORTED, language_from_argument
from tiebreak.running import round_to_show

# -- the tournament --------------------------------------------------------------------------------

@anyone
def start(request: Request, payload: str = "") -> list[Reply]:
    """/start and /help: what the bot does (and, for arbiters, how to enter results); the
    deep link ``t.me/<bot>?start=SLUG`` selects tournament SLUG."""
    tr = request.tr
    request.prefs()
    blocks = [escape(tr.gettext(M.HELP_START))]
    slug = payload.strip()
    if slug and slug in request.store.slugs():
        request.remember(tournament=slug)
        blocks.insert(0, _selected_line(request, slug))
    elif slug:
        blocks.insert(0, escape(tr.format(M.UNKNOWN_SLUG, slug=slug[:64])))
    if request.is_arbiter(request.selected()):
        blocks.append(escape(tr.gettext(M.HELP_ARBITER)))
    return packed(blocks)


@anyone
def tournaments(request: Request) -> list[Reply]:
    """/tournaments: a button per tournament, the selected one ticked."""
    store = request.store
    slugs = store.slugs()
    if not slugs:
        return request.say(M.NO_TOURNAMENTS)
    current = request.selected()
    rows = tuple((button(("✓ " if slug == current else "") + store.state(slug).base.name, Action.SELECT,
                         store.tournament_key(slug)),) for slug in slugs)
    return [Reply(escape(request.tr.gettext(M.TOURNAMENTS)), buttons=rows)]


@anyone
def select(request: Request, press: Press) -> list[Reply]:
    """The button of a tournament (``Action.SELECT``): it becomes the user's."""
    slug = request.service.tournament_of_key(press.int(0))
    if slug is None:
        return request.say(M.NO_SUCH_TOURNAMENT, edit=True)
    request.remember(tournament=slug)
    return [Reply(_selected_line(request, slug), edit=True)]


def _selected_line(request: Request, slug: str) -> str:
    name = request.store.state(slug).base.name
    return request.tr.format(M.TOURNAMENT_SELECTED, name=f"<b>{escape(name)}</b>")


# -- standings, rounds, players ---------------------------------------------------------------------

@needs_tournament
def standings(request: TournamentRequest, argument: str = "") -> list[Reply]:
    """/standings [N] [all]: the first N rows (default 20) of the standings; ``all`` shows every
    tie-break column (a phone shows the first four well)."""
    words = argument.lower().split()
    every = "all" in words
    numbers = [word for word in words if word != "all"]
    if len(numbers) > 1 or (numbers and not (numbers[0].isascii() and numbers[0].isdigit())):
        return request.say(M.STANDINGS_USAGE)
    top = int(numbers[0]) if numbers else STANDINGS_DEFAULT_TOP
    return packed(standings_blocks(request.tournament(), request.tr, top, all_columns=every, final=request.final()))


@needs_tournament
def teams(request: TournamentRequest) -> list[Reply]:
    """/teams: the team standings."""
    tournament = request.tournament()
    if not tournament.teams:
        return request.say(M.NO_TEAMS)
    try:
        table = team_standings(team_event_of(tournament))
    except InputError as error:
        return request.refuse(error)
    return packed(team_standings_blocks(tournament, table, request.tr))


@needs_tournament
def playoff(request: TournamentRequest) -> list[Reply]:
    """/playoff: the play-offs in detail (arbiters enter their results: ``entering.playoff_result``)."""
    return packed(playoff_blocks(request.tournament(), request.tr, request.final()))


@needs_tournament
def round(request: TournamentRequest, argument: str = "") -> list[Reply]:
    """/round [N]: the boards of round N (default: the current round, ``ranking.event.clock``)."""
    words = argument.split()
    if len(words) > 1 or (words and not (words[0].isascii() and words[0].isdigit())):
        return request.say(M.ROUND_USAGE)
    state = request.state()
    try:
        number = round_to_show(state, int(words[0]) if words else None)
    except Refusal as error:
        if error.code not in _ROUND_REFUSALS:
            return request.refuse(error)
        return [Reply(escape(worded(request.tr.gettext(_ROUND_REFUSALS[error.code]), error.params,
                                    request.tr.gettext(M.NONE))))]
    return packed(round_blocks(state, number, request.tr))


#: /round's words for ``round_to_show``'s refusals
_ROUND_REFUSALS = {Code.NOTHING_PAIRED: M.NOTHING_PAIRED, Code.ROUND_OUT_OF_RANGE: M.ROUND_OUT_OF_RANGE,
                   Code.ROUND_NOT_PAIRED: M.ROUND_NOT_PAIRED_YET}


@needs_tournament
def player(request: TournamentRequest, query: str) -> list[Reply]:
    """/player NAME or /player NUMBER: a player's card, or the players whose names match."""
    query = query.strip()
    if not query:
        return request.say(M.PLAYER_USAGE)
    state = request.state()
    matches = find_players(state.base, query)
    if not matches:
        return request.say(M.PLAYER_NOT_FOUND, query=query)
    if len(matches) > 1:
        lines = [escape(request.tr.format(M.PLAYERS_FOUND, query=query))]
        lines += [f"{found.id}. {escape(found.name)}" for found in matches[:20]]
        return packed(lines)
    return packed(player_blocks(state, matches[0].id, request.tr, request.final()))


# -- the player's own -----------------------------------------------------------------------------------

@needs_tournament
def iam(request: TournamentRequest, argument: str) -> list[Reply]:
    """/iam NUMBER (or NAME): the user is that player (for /me and /subscribe)."""
    if not argument.strip():
        return request.say(M.IAM_USAGE)
    chosen = request.player(argument)
    if isinstance(chosen, list):
        return chosen
    request.prefs()  # remembers the private chat, where the pairings go
    request.store.save_identity(replace(request.identity(), player_id=chosen.id))
    return request.say(M.YOU_ARE_PLAYER, number=chosen.id, name=chosen.name, tournament=request.name())


@needs_tournament
def me(request: TournamentRequest) -> list[Reply]:
    """/me: the card of the player the user said they are in their tournament."""
    identity = request.identity()
    state = request.state()
    if identity.player_id is None or identity.player_id not in state.ids:  # never said, or since removed
        return request.say(M.WHO_ARE_YOU, tournament=request.name())
    return packed(player_blocks(state, identity.player_id, request.tr, request.final()))


@needs_tournament
def subscribe(request: TournamentRequest, on: bool = True) -> list[Reply]:
    """/subscribe (``on``) and /unsubscribe: the user's pairing in their tournament when a
    round of it is paired."""
    identity = request.identity()
    if on and identity.player_id is None:
        return request.say(M.SUBSCRIBE_NEEDS_PLAYER, tournament=request.name())
    request.prefs()
    request.store.save_identity(replace(identity, subscribed=on))
    return request.say(M.SUBSCRIBED if on else M.UNSUBSCRIBED, tournament=request.name())


# -- the language ------------------------------------------------------------------------------------------

@anyone
def language(request: Request, argument: str = "") -> list[Reply]:
    """/language: a button per language; /language NAME (or code) sets it."""
    if not argument.strip():
        rows = tuple((button(name, Action.LANGUAGE, code),) for code, name in LANGUAGE_NAMES.items())
        return [Reply(escape(request.tr.gettext(M.CHOOSE_LANGUAGE)), buttons=rows)]
    code = language_from_argument(argument)
    if code is None:
        return request.say(M.UNKNOWN_LANGUAGE, language=argument.strip())
    return _set_language(request, code)


@anyone
def choose_language(request: Request, press: Press) -> list[Reply]:
    """The button of a language (``Action.LANGUAGE``)."""
    code = press.fields[0]
    if code not in SUPPORTED:
        return request.say(M.NOT_UNDERSTOOD)
    return _set_language(request, code, edit=True)


def _set_language(request: Request, code: str, edit: bool = False) -> list[Reply]:
    request.remember(language=code)
    return request.in_language(code).say(M.LANGUAGE_SET, language=LANGUAGE_NAMES[code], edit=edit)


@anyone
def not_understood(request: Request) -> list[Reply]:
    """The answer to a button the bot cannot read."""
    return request.say(M.NOT_UNDERSTOOD)
