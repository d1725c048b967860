"""Recording results: the one place the chat (result lines, /enter's buttons) and the entry page
(``bot/web_entry.py``) enter a result, and how a result is written in the event's points.

``record_results`` appends the entries' results and fouls through the core's ``result_event`` in
one transaction of the store's log, with the submission they come from; a different result for
a board that has one is asked about ("Replace X with Y?").  The caller words the confirmations
and tells the rounds the entries finished (``bot/announcements.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import NamedTuple

from bot import messages as M
from bot.callbacks import Action, button
from bot.formatting import escape
from bot.parsing import ResultEntry
from bot.replies import Reply
from bot.service import TournamentRequest
from bot.views import player_names
from ranking import (
    Event,
    EventKind,
    GameKind,
    InputError,
    Result,
    Tournament,
    TournamentState,
    default_rules,
    foul_event,
    needs_correction,
    result_event,
    written_result,
)
from tiebreak.i18n import Translator
from tiebreak.store import Submission


class Entered(NamedTuple):
    """What ``record_results`` did: confirmation lines (HTML), replace-questions, refusals
    (text), and the rounds the entries finished."""

    recorded: list[str]
    asked: list[Reply]
    refused: list[str]
    finished: list[int]


def record_results(request: TournamentRequest, entries: Sequence[ResultEntry], correct: bool = False,
                   replacing: str | None = None, submission: Submission | None = None,
                   problems: Sequence[str] = ()) -> Entered | None:
    """Append the entries' results and fouls in one transaction, with the ``submission`` they
    come from (its counts: the lines recorded, and ``problems`` with the lines refused or
    asked about); None when the update was applied before.  A different result for a board
    that has one is asked about (Yes replaces it) unless ``correct``; with ``replacing`` (the
    result a Yes button offered to replace), a board that holds another one by now is asked
    about again instead."""
    tr, slug = request.tr, request.slug
    # The transaction holds the write lock: it decides, and keeps the submission with its
    # refusals; the confirmations and questions are worded after it (``later``).
    recorded: list[Callable[[], str]] = []
    asked: list[Callable[[], Reply]] = []
    refused: list[str] = []
    rounds = {entry.round for entry in entries}
    unfinished_before: set[int] = set()
    called = False

    def decide(state: TournamentState) -> list[Event]:
        nonlocal called
        called = True
        unfinished_before.update(_unfinished(state, rounds))
        names = player_names(state.base)
        written = result_writer(state.base)
        events: list[Event] = []
        for entry in entries:
            try:
                game = state.game(entry.round, entry.board)
            except InputError:
                refused.append(_where_problem(state, entry, tr))
                continue
            white, black = names[game.white], names[game.black]
            result = entry.result.value
            shown = written(entry.result)
            current = game.result.value if game.result is not None else None
            stale = correct and replacing is not None and current != replacing and current != result
            if stale and current is None:
                refused.append(tr.format(M.RESULT_GONE, round=entry.round, board=entry.board, white=white,
                                         black=black, old=written(Result(replacing))))
                continue
            if (needs_correction(game, entry.result) and not correct) or stale:
                asked.append(functools.partial(_replace_question, request, entry, white, black, current, result,
                                               written, stale))
                continue
            try:  # e.g. a played result for a player who has withdrawn: the core says why not
                event = result_event(state, entry.round, entry.board, entry.result, correct=correct)
            except InputError as error:
                reason = request.reason(error)
                refused.append(tr.format(M.PROBLEM_LINE, line=entry.line, text=entry.text, reason=reason)
                               if entry.line else tr.format(M.REQUEST_REFUSED, reason=reason))
                continue
            where = {"round": entry.round, "board": entry.board, "white": white, "black": black, "result": shown}
            if event is None:
                recorded.append(functools.partial(tr.format, M.RESULT_ALREADY_RECORDED, **where))
            elif event.kind is EventKind.CORRECTION:
                events.append(event)
                recorded.append(functools.partial(tr.format, M.RESULT_CORRECTED, **where,
                                        previous=written(Result(event.data["previous"]))))
            else:
                events.append(event)
                recorded.append(functools.partial(tr.format, M.RESULT_RECORDED, **where))
            if entry.foul_side:
                events.append(foul_event(state, entry.round, entry.board, entry.foul_side, entry.foul_count))
                fouler = white if entry.foul_side == "white" else black
                recorded.append(functools.partial(tr.nformat, *M.FOULS_RECORDED, entry.foul_count, round=entry.round,
                                        board=entry.board, count=entry.foul_count, player=fouler))
        if submission is not None:
            submission.accepted = len(recorded)
            submission.rejected = len(problems) + len(refused) + len(asked)
            submission.detail = "; ".join([*problems, *refused])
        return events

    appended = request.store.append(slug, decide, request.source, submission)
    if not called:
        return None
    if appended:
        request.service.changed(slug)
    finished = sorted(unfinished_before - _unfinished(request.state(), rounds))
    return Entered([escape(line()) for line in recorded], [question() for question in asked], refused, finished)


def _replace_question(request: TournamentRequest, entry: ResultEntry, white: str, black: str, old: str, new: str,
                      written: Callable[[Result], str], changed: bool = False) -> Reply:
    """"Round 3, board 5: A – B already has 2-0. Replace 2-0 with 0-2?" (in the event's
    points) with Yes and No; Yes carries ``old``, so a press after someone else changed the
    board asks again (``changed``: this is that second question)."""
    tr = request.tr
    question = tr.format(M.CHANGED_MEANWHILE if changed else M.ALREADY_HAS, round=entry.round, board=entry.board,
                         white=white, black=black, old=written(Result(old)))
    question += "\n" + tr.format(M.CONFIRM_REPLACE, old=written(Result(old)), new=written(Result(new)))
    key = request.store.tournament_key(request.slug)
    return Reply(escape(question), buttons=((
        button(tr.gettext(M.YES), Action.REPLACE, key, entry.round, entry.board, new, old),
        button(tr.gettext(M.NO), Action.KEEP, key, entry.round, entry.board),
    ),))


def _where_problem(state: TournamentState, entry: ResultEntry, tr: Translator) -> str:
    if entry.round not in state.paired_rounds():
        return tr.format(M.PROBLEM_LINE, line=entry.line, text=entry.text,
                         reason=tr.format(M.ROUND_NOT_PAIRED, round=entry.round))
    return tr.format(M.PROBLEM_LINE, line=entry.line, text=entry.text,
                     reason=tr.format(M.NO_SUCH_BOARD, round=entry.round, board=entry.board))


def _unfinished(state: TournamentState, rounds: set[int]) -> set[int]:
    """Which of ``rounds`` are paired and not complete (``ranking.event.clock``)."""
    clock = state.clock()
    return (set(clock.paired) - set(clock.complete)) & rounds


def result_buttons(tournament: Tournament, tr: Translator) -> list[list[tuple[str, str]]]:
    """The result buttons of /enter and of the entry page: the game's colour words in the user's
    language (红胜 / 和 / 黑胜 in Chinese xiangqi, "White wins" in English chess) and the event's
    points, then the forfeits."""
    written = result_writer(tournament, "½")
    first = M.BUTTON_RED_WINS if tournament.game is GameKind.XIANGQI else M.BUTTON_WHITE_WINS
    words = (first, M.BUTTON_DRAW, M.BUTTON_BLACK_WINS)
    results = (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)
    played = [(f"{tr.gettext(word)} {written(result)}", result.value)
              for word, result in zip(words, results, strict=True)]
    return [played, [("+-", "+-"), ("--", "--"), ("-+", "-+")]]


def result_writer(tournament: Tournament, half: str = "1/2") -> Callable[[Result], str]:
    """Results as the event scores them: ``1-0``, ``1/2-1/2`` (``½-½`` on a button); ``2-0``,
    ``1-1`` under 2/1/0 (issue 14.1)."""
    scoring = default_rules(tournament).scoring
    return lambda result: written_result(result, scoring, half)
