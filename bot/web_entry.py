"""What the entry page shows and does (``bot/web.py`` serves it): the current round of the link's
tournament (``ranking.event.clock``, the one definition), each board with its result or its result
buttons, and the changes a tap makes.

A change goes through the bot's own commands, so the page decides and words nothing itself: a
result through ``bot.results.record_results`` (what /enter's buttons and result lines call: the
core's ``result_event`` in one transaction of the log, the same refusals and confirmations, the
submission recorded; a round it completes is announced on every channel as a chat message's is,
``bot.announcements.announced``), an undo through the body of the bot's /undo
(``tiebreak.running.undo_last``).
Only the request differs: ``WebRequest`` carries the link (logged as ``web:<link id>``) and the
form's key, the ``dedupe_key`` that applies a form once however often it is sent.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from bot import messages as M
from bot import web_messages as W
from bot.announcements import announced
from bot.parsing import ResultEntry
from bot.replies import Reply
from bot.results import record_results, result_buttons, result_writer
from bot.running import take_back_last_change
from bot.service import BotService, TournamentRequest, Who
from bot.views import bye_name, colour_word, player_names
from ranking import GameKind, Result, TournamentState
from ranking.event.clock import decided_games
from tiebreak.i18n import Translator
from tiebreak.links import actor
from tiebreak.store import EntryLink, Source, Submission

_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class WebRequest(TournamentRequest):
    """A request through an entry link.  The bot's commands read who asks from ``source``: here
    the link (``web:<id>``) with the form's key; ``who`` is no Telegram user (user 0) and only
    carries the page's language."""

    origin: Source = field(default_factory=lambda: Source("web:0"))

    @property
    def source(self) -> Source:
        return self.origin


def web_request(service: BotService, link: EntryLink, tr: Translator, key: str | None = None) -> WebRequest:
    """The request of a form sent through ``link``; ``key`` is the form's idempotency key."""
    dedupe = f"web:{link.id}:{key}" if key else None
    return WebRequest(service, Who(0, 0, tr.language), tr, link.tournament, Source(actor(link), dedupe_key=dedupe))


# -- what the page shows ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Choice:
    """One result button: its words and the result it sends (``1-0``, ``1/2-1/2``, ``+-``, ...)."""

    label: str
    value: str


@dataclass(frozen=True)
class BoardView:
    """A board of the round: its players with their colours, its result (as the event scores
    it) or None, and the result buttons."""

    number: int
    white: str
    black: str
    result: str | None
    value: str | None  # the stored result (``Result`` value) a correction replaces
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class RoundView:
    """The page's round: its number (None while nothing is paired), boards and byes."""

    number: int | None
    heading: str
    boards: tuple[BoardView, ...] = ()
    byes: tuple[str, ...] = ()


def current_round(state: TournamentState, tr: Translator) -> RoundView:
    """The current round (``ranking.event.clock``): the lowest paired round with a board without a
    result, else the latest paired round.  Its boards hold what the clock decides
    (``decided_games``): result buttons for the boards it has open, a correction for a result
    entered, none for a forfeit the withdrawal rule makes (any other result would be refused)."""
    number = state.clock().current
    if number is None:
        return RoundView(None, tr.gettext(M.NOTHING_PAIRED))
    tournament = state.base
    names = player_names(tournament)
    written = result_writer(tournament)
    choices = result_choices(state, tr)
    first, second = colour_word(tournament, True, tr), colour_word(tournament, False, tr)
    open_boards = state.clock().open_in(number)
    boards = []
    for item in decided_games(state.snapshot(), number):
        game, entered = item.game, state.games[(number, item.game.board)].result
        if item.annulled:  # VN 21.5.1: counts nothing, marked X as on every page
            shown, value, offered = "X", None, ()
        elif game.result is not None:  # a correction replaces what was entered; what the rule decides stays
            shown, value, offered = written(game.result), entered and entered.value, choices if entered else ()
        else:
            shown, value, offered = None, None, choices if game.board in open_boards else ()
        boards.append(BoardView(game.board, f"{game.white}. {names[game.white]} ({first})",
                                f"{game.black}. {names[game.black]} ({second})", shown, value, offered))
    byes = tuple(tr.format(M.BYE_LINE, name=f"{player}. {names[player]}") + f" ({bye_name(tournament, bye.kind, tr)})"
                 for (r, player), bye in sorted(state.byes.items()) if r == number)
    return RoundView(number, tr.format(M.ROUND_HEADING, round=number), tuple(boards), byes)


def result_choices(state: TournamentState, tr: Translator) -> tuple[Choice, ...]:
    """The buttons of a board: the bot's /enter results in the game's colour words and the event's
    points (红胜 2-0 / 和 1-1 / 黑胜 0-2 in Chinese xiangqi), then the forfeits in words."""
    played, forfeits = result_buttons(state.base, tr)
    xiangqi = state.base.game is GameKind.XIANGQI
    return (*(Choice(label, value) for label, value in played),
            *(Choice(f"{tr.gettext(W.FORFEITS[Result(value)][xiangqi])} ({value})", value) for _, value in forfeits))


# -- what a tap does ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Done:
    """What a form did: the lines the page says, in the bot's words, and the replies it led to
    for other chats (a round it completed: the standings for every channel's announcement chat,
    ``bot/announcements.py``), which the page sends through their channels."""

    lines: list[str]
    posts: list[Reply] = field(default_factory=list)


def enter_result(request: WebRequest, round_number: int, board: int, result: Result,
                 replacing: str | None = None) -> Done | None:
    """Record ``result`` (``replacing``: the correction of the result the page showed): what
    happened; None when this form was applied before."""
    state = request.state()
    if (round_number, board) not in state.games:  # a form of a round un-paired since, or forged
        if round_number not in state.paired_rounds():
            return Done([request.tr.format(M.ROUND_NOT_PAIRED, round=round_number)])
        return Done([request.tr.format(M.NO_SUCH_BOARD, round=round_number, board=board)])
    wording = f"[web] R{round_number} B{board} {result.value}" + (f" (was {replacing})" if replacing else "")
    entered = record_results(request, [ResultEntry(0, "", round_number, board, result)],
                             correct=replacing is not None, replacing=replacing,
                             submission=Submission(wording, request.slug))
    if entered is None:
        return None
    lines = [plain(line) for line in entered.recorded]
    lines += [plain(question.text).splitlines()[0] for question in entered.asked]  # the page offers the correction
    lines += entered.refused
    lines += [request.tr.format(M.ROUND_COMPLETE, round=number) for number in entered.finished]
    return Done(lines, [post for number in entered.finished for post in announced(request, number)])


def undo_last_change(request: WebRequest) -> list[str]:
    """Take back the link's last change in force, as the bot's /undo does, in its words."""
    replies = take_back_last_change(request)  # the link is its own authority: no arbiter's guard
    name = request.name()
    return [line for reply in replies for line in plain(reply.text).splitlines() if line.strip() and line != name]


def plain(text: str) -> str:
    """A bot reply (Telegram HTML) as plain text, which the page's template escapes again."""
    return html.unescape(_TAG.sub("", text))
