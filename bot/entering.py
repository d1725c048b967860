"""Results from the chat: result lines (``R3 B5 1-0``, ``红胜``), /enter and its buttons (board,
result, confirm, replace or keep), /playoff results, and the answer to a result message handled
before whose answer was lost.

Each command is called as ``command(service, who, ...)`` (``bot.service`` says which guard it
passes) and returns the replies; the results themselves are recorded by ``bot/results.py``, the
place the entry page records them too, and a round they finish is told by
``bot/announcements.py``.  An update Telegram delivers twice is applied once (the replies to the
repeat are empty).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot import messages as M
from bot.announcements import round_completions
from bot.callbacks import Action, Press, button
from bot.formatting import escape, shorten
from bot.messages import format_problem
from bot.parsing import ProblemReason, ResultEntry, match_entries, parse_message, parse_result, whole_number
from bot.replies import Reply, packed
from bot.results import record_results, result_buttons, result_writer
from bot.service import ButtonCommand, Request, TournamentRequest, anyone, arbiters_button, arbiters_only
from bot.views import player_names, playoff_blocks
from ranking import (
    Event,
    EventKind,
    Game,
    InputError,
    Result,
    TournamentState,
    final_standings,
    match_boards,
    playoff_result_event,
)
from tiebreak.store import Submission

ENTER_BUTTONS = 60  # unfinished boards shown by /enter (inline keyboards allow 100 buttons)

# -- results by text ----------------------------------------------------------------------------

@anyone
def text(request: Request, text: str) -> list[Reply]:
    """Result lines from an arbiter (anyone else is told only arbiters may); every message is
    recorded as a submission, accepted or not."""
    who, tr = request.who, request.tr
    slug = request.selected(entering=True)
    if slug is None:
        return request.refused(None, "no tournament", M.NO_TOURNAMENT_SELECTED, text)
    if not request.is_arbiter(slug):
        return request.refused(slug, "not an arbiter", M.ARBITERS_ONLY, text)
    asked = request.about(slug)
    parsed = parse_message(text, asked.state().clock().current)
    entries, unmatched = match_entries(parsed.entries, functools.partial(match_boards, asked.tournament()))  # VN 21.2
    unread = [format_problem(problem, tr) for problem in (*parsed.problems, *unmatched)]
    entered = record_results(asked, entries, submission=Submission(text, slug, who.update_id), problems=unread)
    if entered is None:  # this very update was applied before (Telegram delivered it twice)
        return []
    blocks = [asked.heading(), *entered.recorded] if entered.recorded else []
    problems = unread + entered.refused
    if problems:
        blocks.append(escape(tr.gettext(M.PROBLEMS_HEADER)))
        blocks += [escape(line) for line in problems]
    replies = packed(blocks) if blocks else []
    replies += entered.asked
    replies += round_completions(asked, entered.finished)
    return replies


@anyone
def handled_before(request: Request) -> list[Reply]:
    """The answer to an update the store applied whose answer was lost (the bot was killed in
    between): the results its message recorded, read back from the log, or else that it was
    handled before."""
    who, tr, slug = request.who, request.tr, request.selected()
    lines: list[str] = []
    if slug is not None and who.message_id is not None:
        state = request.store.state(slug)
        names = player_names(state.base)
        written = result_writer(state.base)
        for entry in request.store.log(slug):
            data = entry.event.data
            source = request.source
            if (entry.actor, entry.chat_id, entry.message_id) != (source.actor, source.chat_id, source.message_id) \
                    or entry.event.kind not in (EventKind.RESULT, EventKind.FORFEIT, EventKind.CORRECTION):
                continue
            game = state.game(data["round"], data["board"])
            values = {"round": data["round"], "board": data["board"], "white": names[game.white],
                      "black": names[game.black], "result": written(Result(data["result"]))}
            if entry.event.kind is EventKind.CORRECTION:
                lines.append(escape(tr.format(M.RESULT_CORRECTED, previous=written(Result(data["previous"])),
                                              **values)))
            else:
                lines.append(escape(tr.format(M.RESULT_RECORDED, **values)))
    return packed([request.about(slug).heading(), *lines]) if lines and slug else request.say(M.ALREADY_HANDLED)


# -- results by taps: /enter and its buttons -------------------------------------------------------

@arbiters_only
def enter(request: TournamentRequest) -> list[Reply]:
    """/enter: a button per board of the current round the clock has open (a board the withdrawal
    rule decides is not: ``ranking.event.clock``)."""
    return [_board_menu(request)]


@arbiters_button
def board_menu(request: TournamentRequest, press: Press) -> list[Reply]:
    """``Action.MENU``: back to the boards."""
    return [_board_menu(request, edit=True)]


def _board_menu(request: TournamentRequest, edit: bool = False) -> Reply:
    tr = request.tr
    state = request.state()
    number = state.clock().current
    if number is None:
        return Reply(escape(tr.gettext(M.NOTHING_PAIRED)), edit=edit)
    names = player_names(state.base)
    key = request.store.tournament_key(request.slug)
    open_boards = [(board, state.games[(number, board)]) for board in state.clock().open_in(number)]
    if not open_boards:
        return Reply(escape(tr.format(M.ROUND_FINISHED_ALREADY, round=number)), edit=edit)
    rows = tuple((button(tr.format(M.BOARD_BUTTON, board=board, white=shorten(names[game.white], 14),
                                   black=shorten(names[game.black], 14)), Action.BOARD, key, number, board),)
                 for board, game in open_boards[:ENTER_BUTTONS])
    text = escape(tr.format(M.ROUND_HEADING, round=number)) + "\n" + escape(tr.gettext(M.CHOOSE_BOARD))
    return Reply(text, buttons=rows, edit=edit)


@dataclass(frozen=True)
class Board:
    """The board a button is about (its fields after the tournament key: round, board)."""

    state: TournamentState
    key: int
    round: int
    number: int
    game: Game
    white: str
    black: str


def _on_board(body: Callable[[TournamentRequest, Press, Board], list[Reply]]) -> ButtonCommand:
    """A button about one board (for the arbiters only, as ``arbiters_button`` says); a board
    that does not exist is said so."""
    @arbiters_button
    @functools.wraps(body)
    def command(request: TournamentRequest, press: Press) -> list[Reply]:
        state = request.state()
        number, board = press.int(1), press.int(2)
        try:
            game = state.game(number, board)
        except InputError:
            return request.say(M.NO_SUCH_BOARD, round=number, board=board, edit=True)
        names = player_names(state.base)
        return body(request, press, Board(state, press.int(0), number, board, game, names[game.white],
                                          names[game.black]))
    return command


@_on_board
def choose_board(request: TournamentRequest, press: Press, board: Board) -> list[Reply]:
    """``Action.BOARD``: a board was chosen; offer the results."""
    tr = request.tr
    rows = tuple(tuple(button(label, Action.RESULT, board.key, board.round, board.number, value)
                       for label, value in row) for row in result_buttons(board.state.base, tr))
    rows += ((button(tr.gettext(M.BACK), Action.MENU, board.key),),)
    text = escape(tr.format(M.YOUR_PAIRING, round=board.round, board=board.number, white=board.white,
                            black=board.black))
    return [Reply(text + "\n" + escape(tr.gettext(M.CHOOSE_RESULT)), buttons=rows, edit=True)]


@_on_board
def choose_result(request: TournamentRequest, press: Press, board: Board) -> list[Reply]:
    """``Action.RESULT``: a result was chosen; ask to confirm it."""
    tr = request.tr
    result = press.fields[3]
    try:
        shown = result_writer(board.state.base)(Result(result))
    except ValueError:
        return request.say(M.NOT_UNDERSTOOD)
    text = escape(tr.format(M.RECORD_QUESTION, round=board.round, board=board.number, white=board.white,
                            black=board.black, result=shown))
    rows = ((button(tr.gettext(M.CONFIRM), Action.CONFIRM, board.key, board.round, board.number, result),
             button(tr.gettext(M.BACK), Action.BOARD, board.key, board.round, board.number)),)
    return [Reply(text, buttons=rows, edit=True)]


@_on_board
def confirm_result(request: TournamentRequest, press: Press, board: Board) -> list[Reply]:
    """``Action.CONFIRM``: record the result, then show the boards still open."""
    return _enter_pressed(request, press, board, correct=False)


@_on_board
def replace_result(request: TournamentRequest, press: Press, board: Board) -> list[Reply]:
    """``Action.REPLACE``: Yes to "Replace 1-0 with 0-1?": record the correction, unless the
    board no longer holds the result the question offered to replace (another arbiter, or the
    command line, changed it meanwhile): then ask again, with the result it holds now."""
    offered = press.fields[4] if len(press.fields) > 4 else ""  # a button made before it carried it
    return _enter_pressed(request, press, board, correct=True, replacing=offered)


@_on_board
def keep_result(request: TournamentRequest, press: Press, board: Board) -> list[Reply]:
    """``Action.KEEP``: No to "Replace 1-0 with 0-1?"."""
    kept = result_writer(board.state.base)(board.game.result) if board.game.result else "…"
    return request.say(M.KEPT, result=kept, edit=True)


def _enter_pressed(request: TournamentRequest, press: Press, board: Board, correct: bool,
                   replacing: str | None = None) -> list[Reply]:
    try:
        result = Result(press.fields[3])
    except ValueError:
        return request.say(M.NOT_UNDERSTOOD)
    submission = Submission(f"[button] {press.data}", request.slug, request.who.update_id)
    entered = record_results(request, [ResultEntry(0, "", board.round, board.number, result)], correct=correct,
                             replacing=replacing, submission=submission)
    if entered is None:
        return []
    recorded, asked, refused, finished = entered
    text = "\n".join([request.heading(), *recorded]) if recorded else escape("\n".join(refused))
    # asked again (the board changed meanwhile): the question takes the place of the old one
    replies = [Reply(text, edit=True), *asked] if text else [replace(asked[0], edit=True), *asked[1:]]
    if not correct and not asked:
        replies.append(_board_menu(request))
    return replies + round_completions(request, finished)


@arbiters_only
def playoff_result(request: TournamentRequest, argument: str) -> list[Reply]:
    """/playoff WHITE BLACK RESULT: a play-off result, for the first pending play-off game of
    those two players."""
    tr, store, slug = request.tr, request.store, request.slug
    words = argument.split()
    white, black = (whole_number(word) for word in [*words, "", ""][:2])
    if len(words) < 3 or white is None or black is None:
        return request.say(M.PLAYOFF_USAGE)
    result = parse_result(" ".join(words[2:]))
    if result is None:
        reason = tr.format(M.PROBLEM_MESSAGES[ProblemReason.UNKNOWN_RESULT], detail=" ".join(words[2:]))
        return [Reply(escape(reason + "\n" + tr.gettext(M.PLAYOFF_USAGE)))]
    found: list[Game] = []
    called = False

    def decide(state: TournamentState) -> list[Event]:
        nonlocal called
        called = True
        found.clear()
        event = playoff_result_event(state, 1, white, black, result)  # checks the players
        playoffs = final_standings(state.snapshot()).playoffs
        pending = playoffs.pending_game(white, black) if playoffs else None
        if pending is None:
            return []
        found.append(pending)
        return [replace(event, data={**event.data, "round": pending.round})]

    try:
        appended = store.append(slug, decide, request.source)
    except InputError as error:
        return request.refuse(error)
    if not called:
        return []  # Telegram delivered this update again: it was applied before
    names = player_names(request.state().base)
    if not appended:
        return request.say(M.PLAYOFF_NOT_SCHEDULED, white=f"{white}. {names[white]}", black=f"{black}. {names[black]}")
    request.service.changed(slug)
    recorded = escape(tr.format(M.PLAYOFF_RECORDED, round=found[0].round, white=names[white], black=names[black],
                                result=result_writer(request.tournament())(result)))
    return packed([request.heading(), recorded, *playoff_blocks(request.tournament(), tr)])
