"""The arbiters' commands: results by text and by taps (/enter and its buttons), /undo, /pair
(and a paired round sent as a file), /withdraw, play-off results, /import, /export, /arbiters.

Each command is called as ``command(service, who, ...)`` (``bot.service`` says which guard
it passes) and returns the replies; ``bot/handlers.py`` routes the updates to them.  Every
change goes through the store's event log in one transaction, and an update Telegram
delivers twice is applied once (the replies to the repeat are empty).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, TypeAlias

from bot import messages as M
from bot.callbacks import Action, Press, button
from bot.formatting import escape, shorten
from bot.messages import format_problem, translator
from bot.parsing import ProblemReason, ResultEntry, match_entries, parse_message, parse_result, whole_number
from bot.replies import Document, Reply, packed
from bot.service import (
    ButtonCommand,
    Request,
    TournamentRequest,
    anyone,
    arbiters_button,
    arbiters_only,
    chief_only,
)
from bot.views import player_names, playoff_blocks, round_blocks, standings_blocks
from ranking import (
    Bye,
    Event,
    EventKind,
    Game,
    GameKind,
    InputError,
    Result,
    Tournament,
    TournamentState,
    default_rules,
    final_standings,
    foul_event,
    match_boards,
    needs_correction,
    pairing_event,
    playoff_result_event,
    result_event,
    withdrawal_event,
    written_result,
)
from tiebreak.files import parse_tournament_text
from tiebreak.i18n import Translator
from tiebreak.library import export_text, import_tournament, pairing_from_file
from tiebreak.notices import totals_warnings
from tiebreak.running import check_imported
from tiebreak.store import Submission

ENTER_BUTTONS = 60  # unfinished boards shown by /enter (inline keyboards allow 100 buttons)


# -- results by text ----------------------------------------------------------------------------

@anyone
def text(request: Request, text: str) -> list[Reply]:
    """Result lines from an arbiter (anyone else is told only arbiters may); every message is
    recorded as a submission, accepted or not."""
    store, who, tr = request.store, request.who, request.tr
    if who.update_id is not None and store.has_submission(who.update_id):
        return []  # Telegram delivered this update again: it was handled and answered
    slug = request.selected(entering=True)
    if slug is None:
        return request.refused(None, "no tournament", M.NO_TOURNAMENT_SELECTED, text)
    if not request.is_arbiter(slug):
        return request.refused(slug, "not an arbiter", M.ARBITERS_ONLY, text)
    asked = request.about(slug)
    parsed = parse_message(text, asked.state().clock().current)
    entries, unmatched = match_entries(parsed.entries, functools.partial(match_boards, asked.tournament()))  # VN 21.2
    unread = [format_problem(problem, tr) for problem in (*parsed.problems, *unmatched)]
    entered = _enter(asked, entries, submission=Submission(text, slug, who.update_id), problems=unread)
    if entered is None:  # this very update was applied before (Telegram delivered it twice)
        return []
    blocks = [asked.heading(), *entered.recorded] if entered.recorded else []
    problems = unread + entered.refused
    if problems:
        blocks.append(escape(tr.gettext(M.PROBLEMS_HEADER)))
        blocks += [escape(line) for line in problems]
    replies = packed(blocks) if blocks else []
    replies += entered.asked
    replies += _round_completions(asked, entered.finished)
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
        written = _writer(state.base)
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


class Entered(NamedTuple):
    """What ``_enter`` did: confirmation lines (HTML), replace-questions, refusals (text), and
    the rounds the entries finished."""

    recorded: list[str]
    asked: list[Reply]
    refused: list[str]
    finished: list[int]


def _enter(request: TournamentRequest, entries: Sequence[ResultEntry], correct: bool = False,
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
        written = _writer(state.base)
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


def _round_completions(request: TournamentRequest, rounds: Sequence[int]) -> list[Reply]:
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


# -- results by taps: /enter and its buttons -------------------------------------------------------

@arbiters_only
def enter(request: TournamentRequest) -> list[Reply]:
    """/enter: a button per unfinished board of the current round."""
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
    open_boards = [(board, game) for (r, board), game in sorted(state.games.items())
                   if r == number and game.result is None]
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
                       for label, value in row) for row in _result_choices(board.state.base, tr))
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
        shown = _writer(board.state.base)(Result(result))
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
    kept = _writer(board.state.base)(board.game.result) if board.game.result else "…"
    return request.say(M.KEPT, result=kept, edit=True)


def _enter_pressed(request: TournamentRequest, press: Press, board: Board, correct: bool,
                   replacing: str | None = None) -> list[Reply]:
    try:
        result = Result(press.fields[3])
    except ValueError:
        return request.say(M.NOT_UNDERSTOOD)
    submission = Submission(f"[button] {press.data}", request.slug, request.who.update_id)
    entered = _enter(request, [ResultEntry(0, "", board.round, board.number, result)], correct=correct,
                     replacing=replacing, submission=submission)
    if entered is None:
        return []
    recorded, asked, refused, finished = entered
    text = "\n".join([request.heading(), *recorded]) if recorded else escape("\n".join(refused))
    # asked again (the board changed meanwhile): the question takes the place of the old one
    replies = [Reply(text, edit=True), *asked] if text else [replace(asked[0], edit=True), *asked[1:]]
    if not correct and not asked:
        replies.append(_board_menu(request))
    return replies + _round_completions(request, finished)


def _result_choices(tournament: Tournament, tr: Translator) -> list[list[tuple[str, str]]]:
    """The result choices of the /enter keyboard: the game's colour words in the user's language
    (红胜 / 和 / 黑胜 in Chinese xiangqi, "White wins" in English chess) and the event's points."""
    written = _writer(tournament, "½")
    first = M.BUTTON_RED_WINS if tournament.game is GameKind.XIANGQI else M.BUTTON_WHITE_WINS
    words = (first, M.BUTTON_DRAW, M.BUTTON_BLACK_WINS)
    results = (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)
    played = [(f"{tr.gettext(word)} {written(result)}", result.value)
              for word, result in zip(words, results, strict=True)]
    return [played, [("+-", "+-"), ("--", "--"), ("-+", "-+")]]


def _writer(tournament: Tournament, half: str = "1/2") -> Callable[[Result], str]:
    """Results as the event scores them: ``1-0``, ``1/2-1/2`` (``½-½`` on a button); ``2-0``,
    ``1-1`` under 2/1/0 (issue 14.1)."""
    scoring = default_rules(tournament).scoring
    return lambda result: written_result(result, scoring, half)


# -- other commands -----------------------------------------------------------------------------------

@arbiters_only
def pair_from_file(request: TournamentRequest, file_name: str, content: Upload,
                   size: int | None = None) -> list[Reply]:
    """A round paired elsewhere, sent as a file (TRF, or a list of pairs) with the caption
    /pair: stored, then compared with the FIDE Dutch system's pairing (Swiss events)."""
    received = _receive(request, content, size)
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
                                result=_writer(request.tournament())(result)))
    return packed([request.heading(), recorded, *playoff_blocks(request.tournament(), tr)])


# -- tournament files ---------------------------------------------------------------------------------

@anyone
def import_help(request: Request) -> list[Reply]:
    """/import without a file: how to send one."""
    return request.say(M.IMPORT_HELP)


#: a file sent to the bot: its bytes, or how to download them at most so many bytes
#: (``bot/downloads.py``: only after the sender's rights and the file's declared size were
#: checked, read as it arrives, and stopped past the limit with ``UploadTooLarge``)
Upload: TypeAlias = bytes | Callable[[int], bytes]


class UploadTooLarge(Exception):
    """A file being downloaded turned out larger than the limit: ``size`` when known."""

    def __init__(self, size: int | None = None) -> None:
        super().__init__(f"larger than the limit ({size} bytes)" if size is not None else "larger than the limit")
        self.size = size


def _receive(request: Request, content: Upload, size: int | None) -> bytes | list[Reply]:
    """The file's bytes, or the refusal of a file above ``[bot].max_upload_mb`` (recorded):
    by the size Telegram declared, else as soon as the download passes the limit."""
    limit = request.service.settings.max_upload_bytes
    if size is None and isinstance(content, bytes):
        size = len(content)
    try:
        if size is not None and size > limit:
            raise UploadTooLarge(size)
        data = content if isinstance(content, bytes) else content(limit)
        if len(data) > limit:
            raise UploadTooLarge(len(data))
    except UploadTooLarge as error:
        if error.size is None:
            return request.refused(request.selected(), "file too large", M.FILE_OVER_LIMIT, limit=_megabytes(limit))
        return request.refused(request.selected(), "file too large", M.FILE_TOO_LARGE,
                               size=_megabytes(error.size), limit=_megabytes(limit))
    return data


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f}".removesuffix(".0")


@chief_only
def import_file(request: Request, file_name: str, content: Upload, argument: str = "",
                size: int | None = None) -> list[Reply]:
    """A TRF or tournament TOML file sent with the caption /import [SLUG] (or none); ``size``
    is the size Telegram gave (the file is downloaded only if it is within the limit)."""
    received = _receive(request, content, size)
    if isinstance(received, list):
        return received
    try:
        tournament = parse_tournament_text(received, file_name)
        slug = import_tournament(request.store, tournament, file_name, argument.strip() or None, request.source)
    except InputError as error:
        return request.refuse(error)
    request.remember(tournament=slug)
    text = received.decode("utf-8", errors="replace")
    warnings = totals_warnings(text, final_standings(tournament).points(), file_name)
    return packed([escape(request.tr.format(M.IMPORTED, name=tournament.name, slug=slug,
                                            players=len(tournament.players))),
                   escape(request.tr.format(M.NOW_SELECTED, name=tournament.name)),
                   *(escape(request.tr.format(M.WARNING_LINE, warning=line)) for line in warnings[:10])])


@arbiters_only
def export(request: TournamentRequest) -> list[Reply]:
    """/export: the tournament as a TRF and a TOML file (its arbiters: the files hold every
    player's details; the site publishes what players see)."""
    tournament = request.tournament()
    return [Reply(document=Document(f"{request.slug}.{suffix}", export_text(tournament, suffix).encode("utf-8"),
                                    request.tr.format(M.EXPORT_CAPTION, name=tournament.name, format=suffix.upper())))
            for suffix in ("trf", "toml")]


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
