"""The bot's messages, marked for extraction, and its catalogue (``bot/locales``).

``bot/locales/messages.pot`` is the template, extracted from ``bot/*.py``::

    .venv/bin/pybabel extract -k N_ -k Nn_:1,2 -c Translators: --no-location \\
        --project Tiebreak -o bot/locales/messages.pot bot
    .venv/bin/pybabel update -i bot/locales/messages.pot -d bot/locales --no-fuzzy-matching \\
        --ignore-obsolete

``tests/test_bot_i18n.py`` fails when a message marked in ``bot/*.py`` is missing from the
template or from a catalog, is untranslated in zh/vi/es, or a translation's ``{placeholders}``
differ from the message's.  The languages and the gettext machinery are ``tiebreak.i18n``'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.parsing import Problem, ProblemReason
from ranking import ByeKind
from ranking.event.refusals import Code, Refusal, worded
from tiebreak.i18n import N_, Catalogue, Nn_, Translator

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"
CATALOGUE = Catalogue(LOCALES_DIR, DOMAIN)
translator = CATALOGUE.translator  # a Telegram language_code (or a chosen language) -> Translator
catalog_path = CATALOGUE.path
load_translations = CATALOGUE.translations


# -- the parser's problems -------------------------------------------------------------------

PROBLEM_MESSAGES: dict[ProblemReason, str] = {
    ProblemReason.EMPTY: N_("the message is empty"),
    ProblemReason.UNREADABLE: N_("not a result: write the board and the result, e.g. 5 1-0"),
    ProblemReason.MISSING_BOARD: N_("which board? Write it before the result, e.g. B5 1-0"),
    # Translators: {detail} is the board number the arbiter wrote.
    ProblemReason.NO_ROUND: N_("which round? Write it before the board, e.g. R3 B{detail}"),
    ProblemReason.BAD_ROUND: N_("“{detail}” is not a round number"),
    ProblemReason.BAD_BOARD: N_("“{detail}” is not a board number"),
    ProblemReason.MISSING_RESULT: N_("no result: add one, e.g. 1-0, 0-1 or ½-½"),
    ProblemReason.UNKNOWN_RESULT: N_("“{detail}” is not a result: write 1-0, 0-1, ½-½, +-, -+ or --"),
    ProblemReason.UNKNOWN_FOUL_SIDE: N_("a foul by whom? Write foul white (or red) or foul black"),
    ProblemReason.BAD_FOUL_COUNT: N_("“{detail}” is not a number of fouls (1-99)"),
    # Translators: {detail} is a line number of the same message.
    ProblemReason.DUPLICATE: N_("this board is already on line {detail}"),
    # Translators: {detail} is a line number of the same message.
    ProblemReason.CONTRADICTION: N_("line {detail} gives this board another result: nothing of this message was "
                                    "recorded; send the right result again"),
    # Translators: {detail} is a Unicode code point such as U+202E.
    ProblemReason.BIDI_CONTROL: N_("the line holds an invisible text-direction character ({detail}), which can "
                                   "make 0-1 look like 1-0: write it again without it"),
    # Translators: {detail} is a board number given two results, as a two-game match takes.
    ProblemReason.NOT_A_MATCH: N_("board {detail} is one game, not a two-game match: give one result"),
}
# Translators: one line of the list that follows "I could not read
# these lines:".
PROBLEM_LINE = N_("Line {line} “{text}”: {reason}")


def describe_problem(problem: Problem, tr: Translator) -> str:
    """Why ``problem``'s line could not be read, in ``tr``'s language."""
    return tr.format(PROBLEM_MESSAGES[problem.reason], detail=problem.detail)


def format_problem(problem: Problem, tr: Translator) -> str:
    """``Line 3 “R3 B5 2-1”: “2-1” is not a result: ...`` (the reason alone for an empty message)."""
    reason = describe_problem(problem, tr)
    if problem.line == 0:
        return reason
    return tr.format(PROBLEM_LINE, line=problem.line, text=problem.text, reason=reason)


# -- the bot's messages ----------------------------------------------------------------------

# Translators: {white} and {black} are the players' names (red and
# black in xiangqi); {result} is a result such as 1-0 or ½-½.
RESULT_RECORDED = N_("Round {round}, board {board}: {white} – {black} {result} recorded")
RESULT_CORRECTED = N_("Round {round}, board {board}: {white} – {black} {result} corrected (was {previous})")
RESULT_ALREADY_RECORDED = N_("Round {round}, board {board}: {white} – {black} {result} already recorded")
# Translators: {player} is the name of the player who committed
# the foul(s).
FOULS_RECORDED = Nn_("Round {round}, board {board}: {count} foul by {player} recorded",
                     "Round {round}, board {board}: {count} fouls by {player} recorded")
RESULTS_RECORDED = Nn_("{count} result recorded", "{count} results recorded")
PROBLEMS_HEADER = N_("I could not read these lines:")
ARBITERS_ONLY = N_("Only arbiters can enter results.")
ROUND_COMPLETE = N_("Round {round} is complete.")
STANDINGS_AFTER = N_("Standings after round {round}")
ROUND_NOT_PAIRED = N_("Round {round} is not paired yet")
# Translators: {paired} lists the rounds paired so far, e.g. "1-3", or "none".
ROUND_NOT_PAIRED_YET = N_("Round {round} is not paired yet (paired rounds: {paired}).")
ROUND_OUT_OF_RANGE = N_("Round {round}: the tournament has {rounds} rounds.")
ROUND_USAGE = N_("Write a round number, e.g. /round 3")
STANDINGS_USAGE = N_("Write how many rows to show, e.g. /standings 10, or /standings all for every column")
# Translators: {codes} are tie-break codes such as WIN, BPG.
MORE_TIEBREAKS = N_("More tie-breaks: {codes} (/standings all shows every column)")
# Translators: {command} is what the user typed, e.g. /foo.
UNKNOWN_COMMAND = N_("Unknown command {command}: /help lists the commands.")
UNKNOWN_SLUG = N_("No tournament “{slug}”: /tournaments lists them.")
# Translators: {warning} comes from the ranking core, in English.
WARNING_LINE = N_("Warning: {warning}")
NO_SUCH_BOARD = N_("Round {round} has no board {board}")
# Translators: asked before a correction; {old} and {new} are
# results such as 1-0 and 0-1.
CONFIRM_REPLACE = N_("Replace {old} with {new}?")
YES = N_("Yes")
NO = N_("No")
# Translators: {what} describes what was taken back, e.g.
# "Round 3, board 5: 1-0".
UNDONE = N_("Undone: {what}")
# Translators: {result} is the result taken back, {now} what the board
# has now: a result such as 1-0, or "no result".
UNDONE_RESULT = N_("Undone: round {round}, board {board} {result}. The board now has {now}.")
NO_RESULT = N_("no result")
# Translators: {fouls} are the fouls of red (white) and black, e.g. 0-1.
UNDONE_FOUL = N_("Undone: a foul by {player} in round {round}, board {board}. Fouls on the board now: {fouls}.")
# Translators: {bye} is a kind of bye, e.g. half-point bye.
UNDONE_BYE = N_("Undone: the {bye} of {player} in round {round}.")
NOTHING_TO_UNDO = N_("Nothing to undo.")
INTERNAL_ERROR = N_("Something went wrong: your message was not handled. Please send it again.")
# Translators: the message was stored, but the reply to it failed.
ERROR_AFTER_RECORDING = N_("Your message was recorded, but something went wrong while answering it: /round "
                           "shows what the round holds now.")
# Translators: {problem} says why the database cannot be used, in English.
STORE_UNAVAILABLE = N_("Nothing was recorded: the results database cannot be used right now ({problem}). "
                       "Please send your message again later.")
# Translators: Telegram delivered the same message twice; the first one was
# handled, but its answer is lost.
ALREADY_HANDLED = N_("This message reached me before and was handled then: /round shows what the round holds now.")
# Translators: put before an answer that could not be sent at the time.
EARLIER_ANSWER = N_("My answer to your earlier message, which I could not send then:")
CHOOSE_BOARD = N_("Choose a board")
CHOOSE_RESULT = N_("Choose the result")
CHOOSE_LANGUAGE = N_("Choose your language")
# Translators: {language} is the language's own name: English,
# 简体中文, Tiếng Việt or Español.
LANGUAGE_SET = N_("Language set to {language}")
UNKNOWN_LANGUAGE = N_("Unknown language “{language}”: choose English, 简体中文, Tiếng Việt or Español")
TOURNAMENTS = N_("Tournaments")
NO_TOURNAMENTS = N_("There are no tournaments yet.")
NO_TOURNAMENT_SELECTED = N_("No tournament selected: use /tournaments")
TOURNAMENT_SELECTED = N_("Tournament: {name}")
# Translators: {number} is the player's starting number.
YOU_ARE_PLAYER = N_("You are player {number} of {tournament}: {name}")
# Translators: {tournament} is the name of the tournament.
SUBSCRIBED = N_("Subscribed to the pairings of {tournament}")
UNSUBSCRIBED = N_("Unsubscribed from the pairings of {tournament}")
YOUR_PAIRING = N_("Round {round}, board {board}: {white} – {black}")
RECORD_QUESTION = N_("Record round {round}, board {board}: {white} – {black} {result}?")
ALREADY_HAS = N_("Round {round}, board {board}: {white} – {black} already has {old}.")
# Translators: a "Replace?" button was pressed after someone else had
# changed the board; {old} is the result it holds now.
CHANGED_MEANWHILE = N_("Round {round}, board {board}: {white} – {black} was changed meanwhile and now has {old}.")
# Translators: a "Replace?" button was pressed after the result it
# offered to replace had been taken back.
RESULT_GONE = N_("Round {round}, board {board}: {white} – {black} no longer has {old} (changed meanwhile); "
                 "send the result again if it still needs one.")
# Translators: {result} is the result that was kept, e.g. 1-0.
KEPT = N_("Kept {result}")
CONFIRM = N_("Confirm")
BACK = N_("Back")
# Translators: an inline button, keep it short.
BOARD_BUTTON = N_("{board}: {white} – {black}")
ROUND_HEADING = N_("Round {round}")
ROUND_FINISHED_ALREADY = N_("Every game of round {round} has a result.")
NOTHING_PAIRED = N_("No round is paired yet.")
ALL_ROUNDS_PAIRED = N_("Every round is already paired.")
# Translators: {boards} is the number of boards.
PAIRED = N_("Round {round} paired; boards: {boards}")
PAIRING_PROPOSED = N_("Proposed pairing of round {round} (FIDE Dutch system). Confirm it to store it and tell "
                      "the players.")
# Translators: {boards} lists boards such as R3 B5, R3 B7.
PAIR_UNFINISHED = N_("Boards without a result: {boards}. Pair round {round} anyway?")
# Translators: a button.
PAIR_CONFIRM = N_("Pair round {round}")
CANCEL = N_("Cancel")
PAIRING_CANCELLED = N_("Not paired.")
PAIRING_CHANGED = N_("The tournament changed since that proposal; this is the pairing now.")
# Translators: {reason} comes from the pairing engine, in English.
CANNOT_PAIR = N_("Round {round} cannot be paired: {reason}")
# Translators: {reason} is e.g. half-point bye, withdrawn, absent.
NOT_PAIRED_LINE = N_("Not paired: {name} ({reason})")
DUTCH_SAME = N_("This is the pairing the FIDE Dutch system gives.")
DUTCH_DIFFERS = N_("It differs from what the FIDE Dutch system gives:")
# Translators: {rule} is an article such as C1, {text} explains it in English.
RULE_BROKEN = N_("Rule broken ({rule}): {text}")
# Translators: the first {count} players of {total} are shown.
STANDINGS_TOP = N_("Top {count} of {total}")
# Translators: a player who has no game in the round.
BYE_LINE = N_("Bye: {name}")
# Translators: {number} is the starting number, {rank} the place, {points} the score.
PLAYER_LINE = N_("{number}. {name}: place {rank}, points {points}")
# Translators: VN 21.2 two-game matches: {points} are the match points.
PLAYER_LINE_MATCHES = N_("{number}. {name}: place {rank}, match points {points}")
# Translators: the round a player sits out in a round robin with an odd number
# of players (轮空, miễn đấu, ronda libre), not a bye of a Swiss.
FREE_ROUND = N_("free round")
FREE_ROUND_LINE = N_("Free round: {name}")
PLAYER_USAGE = N_("Write a name or a starting number, e.g. /player 12")
PLAYER_NOT_FOUND = N_("No player matches “{query}”")
PLAYERS_FOUND = N_("Players matching “{query}”:")
IAM_USAGE = N_("Write your starting number or your name, e.g. /iam 12")
WHO_ARE_YOU = N_("Who are you in {tournament}? Send /iam and your starting number, e.g. /iam 12")
SUBSCRIBE_NEEDS_PLAYER = N_("First tell me who you are in {tournament}: /iam and your starting number, "
                           "e.g. /iam 12")
WITHDRAW_USAGE = N_("Write the player's starting number (or name), and the last round they played if it is not "
                    "the last round with results: /withdraw 17 or /withdraw 17 4")
WITHDRAWN = N_("Player {number}, {name}, withdrawn after round {round}")
# Translators: {reason} is an error from the ranking core, in English.
REQUEST_REFUSED = N_("Refused: {reason}")
NOT_UNDERSTOOD = N_("Sorry, I did not understand that.")
# Translators: a button names a tournament that is not in the store.
NO_SUCH_TOURNAMENT = N_("That tournament does not exist (any more): use /tournaments")
# Translators: {size} and {limit} are sizes in megabytes.
FILE_TOO_LARGE = N_("The file is too large ({size} MB); files up to {limit} MB are accepted.")
FILE_OVER_LIMIT = N_("The file is too large (more than {limit} MB); files up to {limit} MB are accepted.")
# Translators: {limit} messages a minute; {seconds} seconds to wait.
SLOW_DOWN = N_("Please slow down: the bot reads up to {limit} messages a minute from each player. "
               "It will read your messages again in {seconds} s.")
CHIEF_ONLY = N_("Only the arbiters named in the bot's configuration can do this.")
# Translators: below a message whose choices are numbered 1, 2, ... {last} (a chat without buttons,
# such as Zalo): the user answers with one number.
ANSWER_BY_NUMBER = N_("Answer with a number from 1 to {last}.")
# Translators: a chat that cannot carry files (such as Zalo) asked for one, e.g. with /export.
NO_FILES_HERE = N_("Files cannot be sent in this chat: ask for them on Telegram, or ask the organiser.")
IMPORT_HELP = N_("To import a tournament, send its TRF or TOML file with the caption /import, optionally "
                 "followed by a short name for it, e.g. /import hanoi-open")
# Translators: {slug} is the tournament's short name, {players} a number.
IMPORTED = N_("Imported {name} as {slug}; players: {players}")
# Translators: {format} is TRF or TOML.
EXPORT_CAPTION = N_("{name}, {format} file")
# Translators: {users} is a list of Telegram user ids.
ARBITERS_LIST = N_("Arbiters of {slug}: {users}")
ARBITERS_USAGE = N_("Write /arbiters add or /arbiters remove and a Telegram user id, e.g. /arbiters add 123456789")
ARBITER_ADDED = N_("User {user} is now an arbiter of {slug}")
ARBITER_REMOVED = N_("User {user} is no longer an arbiter of {slug}")
# Translators: {slug} is the tournament's short name.
ARCHIVED = N_("{name} is archived: hidden from /tournaments and the site; nothing is deleted. "
              "/restore {slug} brings it back.")
RESTORED = N_("{name} is back in /tournaments.")
RESTORE_USAGE = N_("Write /restore and the tournament's short name, e.g. /restore hanoi-open")
ADDPLAYER_USAGE = N_("Write /addplayer and the name, then optionally ; rating ; federation ; club ; title, e.g. "
                     "/addplayer Lê Văn An; 1850; VIE; Hà Nội")
BYE_USAGE = N_("Write /bye, the starting number (or name), then optionally the round and half, zero or full, "
               "e.g. /bye 12 5 half")
BYE_RECORDED = N_("Round {round}: {bye} for {number}. {name}")
BYE_NAMES = {
    ByeKind.PAIRING: N_("pairing-allocated bye"),
    ByeKind.FULL: N_("full-point bye"),
    ByeKind.HALF: N_("half-point bye"),
    ByeKind.ZERO: N_("zero-point bye"),
}
# Translators: the colours of the pieces; red moves first in xiangqi.
COLOUR_WHITE = N_("White")
COLOUR_RED = N_("Red")
COLOUR_BLACK = N_("Black")
# Translators: column headers of a player's games: round, board, colour,
# opponent, the player's result. Keep them short.
COLUMN_ROUND = N_("Rd")
COLUMN_BOARD = N_("Bd")
COLUMN_COLOUR = N_("Colour")
COLUMN_OPPONENT = N_("Opponent")
COLUMN_RESULT = N_("Res")
# Translators: the points column of the standings.
COLUMN_POINTS = N_("Pts")
# Translators: /teams in a tournament of individuals.
NO_TEAMS = N_("This tournament has no teams.")
TEAM_STANDINGS_AFTER = N_("Team standings after round {round}")
# Translators: the footnote of /standings for the rows marked with *.
PLAYOFF_MARK_NOTE = N_("* play-off required")
NO_PLAYOFF_RULE = N_("This tournament decides no places by play-off.")
# Translators: {round} is the tournament's last round.
PLAYOFF_AFTER_LAST_ROUND = N_("A play-off, if one is needed, follows the last round (round {round}).")
NO_PLAYOFF_NEEDED = N_("No play-off is needed: the places are decided.")
# Translators: {places} is a place or a range such as 1-2, {format} the
# kind of play-off (e.g. two-game match), {players} their names.
PLAYOFF_REQUIRED = N_("Play-off required for places {places} ({format}): {players}")
# Translators: {result} is the play-off's result, e.g. 王天一 3–1 吕钦;
# {players} the places it decided, e.g. 1. 王天一, 2. 吕钦.
PLAYOFF_DECIDED = N_("Places {places} decided by the play-off ({format}: {result}): {players}")
PLAYOFF_FORMAT_MATCH = N_("two-game match")
PLAYOFF_FORMAT_ROUND_ROBIN = N_("round robin of three")
PLAYOFF_FORMAT_KNOCKOUT = N_("knock-out")
PLAYOFF_ELIMINATED = N_("Eliminated by the tie-breaks: {players}")
# Translators: the parts of a play-off, shown as headings in /playoff.
PLAYOFF_STAGE_MATCH = N_("Match")
PLAYOFF_STAGE_ROUND_ROBIN = N_("Round robin")
PLAYOFF_STAGE_SEMIFINAL = N_("Semi-final {number}")
PLAYOFF_STAGE_FINAL = N_("Final")
PLAYOFF_STAGE_THIRD_PLACE = N_("Match for third place")
# Translators: one decisive game after a drawn match; a draw counts as a
# win for black. {stage} is the match, e.g. Final.
PLAYOFF_STAGE_ARMAGEDDON = N_("{stage}: Armageddon game")
PLAYOFF_PENDING_HEADER = N_("Still to play:")
# Translators: {round} counts the play-off's own rounds (1, 2, ...).
PLAYOFF_GAME = N_("Play-off round {round}: {white} – {black}")
PLAYOFF_GAME_RESULT = N_("Play-off round {round}: {white} – {black} {result}")
PLAYOFF_RECORDED = N_("Play-off round {round}: {white} – {black} {result} recorded")
PLAYOFF_USAGE = N_("To enter a play-off result write the starting numbers of white (red) and black and "
                   "the result, e.g. /playoff 2 1 1-0")
# Translators: {white} and {black} are names with starting numbers.
PLAYOFF_NOT_SCHEDULED = N_("No play-off game between {white} and {black} is waiting for a result.")
HELP_START = N_(
    "Tiebreak keeps the standings of chess and xiangqi tournaments.\n"
    "\n"
    "/tournaments: choose a tournament\n"
    "/standings: the current standings\n"
    "/round: the pairings and results of a round\n"
    "/teams: the team standings; /playoff: the play-offs\n"
    "/player: a player's games, by name or starting number\n"
    "/iam 12: tell me you are player 12; /me: your games\n"
    "/subscribe: get your pairing when a round is paired\n"
    "/unsubscribe: stop getting it\n"
    "/language: English, 简体中文, Tiếng Việt, Español"
)
# Translators: every example must stay a line that bot/parsing.py
# reads. It also reads 第3轮第5台 红胜 黑胜 和 犯规 黑, ván 3 bàn 5
# đỏ thắng đen thắng hòa phạm quy đen, ronda 3 tablero 5 blancas
# ganan negras ganan tablas falta negras.
HELP_ARBITER = N_(
    "Send results as text, one per line (or separated by ;):\n"
    "R3 B5 1-0: round 3, board 5, white (red) wins\n"
    "R3B5, 3.5, 3/5 and 3 5 also mean round 3, board 5\n"
    "B5 0-1 or 5 0-1: board 5 of the current round\n"
    "\n"
    "Results: 1-0, 0-1, ½-½ (also 1/2, = and draw), 2-0, 0-2, 1-1\n"
    "Forfeits: +- (white wins), -+ (black wins), -- (both lose)\n"
    "Fouls: R3 B5 1-0 foul black, or foul red 2 for two fouls\n"
    "Lines starting with # are ignored.\n"
    "\n"
    "/enter: results with buttons\n"
    "/undo: take back your last change (a result, a pairing, a withdrawal, ...)\n"
    "/pair: pair the next round (round robins: Berger tables; Swiss: FIDE Dutch system)\n"
    "/unpair: take back the latest paired round\n"
    "/withdraw 17: withdraw player 17; /return 17: they come back\n"
    "/addplayer Lê Văn An: a late entry; /bye 12 5 half: a requested bye\n"
    "/player edit 12 rating 2150: correct a player; /player remove 12: a player who never played\n"
    "/archive, /restore: hide a finished tournament, bring it back\n"
    "/playoff 2 1 1-0: a play-off result (white, black, result)\n"
    "/import, /export: tournament files (TRF, TOML)"
)


# -- the core's refusals (ranking.event.refusals), in the user's words: never a command-line option ----

REFUSALS: dict[Code, str] = {
    Code.ROUND_OUT_OF_RANGE: N_("round {round}: the tournament has rounds 1-{rounds}"),
    # Translators: {paired} lists rounds, e.g. 1-3, 5.
    Code.ROUND_NOT_PAIRED: N_("round {round} is not paired (paired rounds: {paired})"),
    Code.NO_SUCH_BOARD: N_("round {round} has no board {board} (boards {boards})"),
    Code.ROUND_ALREADY_PAIRED: N_("round {round} is already paired"),
    Code.EVERY_ROUND_PAIRED: N_("every round is paired: the tournament has {rounds} rounds"),
    Code.BOARDS_WITHOUT_RESULT: N_("boards without a result: {boards}"),
    Code.NOTHING_PAIRED: N_("no round is paired yet"),
    Code.ROUND_HAS_RESULTS: N_("round {round} has results or fouls on {count} boards"),
    Code.RESULT_PRESENT: N_("round {round}, board {board} already has {result}"),
    Code.NOT_A_MATCH: N_("round {round}, board {board} is one game, not a two-game match: give one result"),
    # Translators: {expected} is a forfeit result such as -+ or +-.
    Code.RESULT_OF_WITHDRAWN: N_("player {player} withdrew after round {after_round}: round {round}, board {board} "
                                 "is a forfeit ({expected})"),
    Code.FOUL_SIDE: N_("a foul by whom? Red (white) or black"),
    Code.FOUL_COUNT: N_("{count} is not a number of fouls"),
    # Translators: {ids} lists starting numbers, e.g. 1-24.
    Code.PLAYER_UNKNOWN: N_("player {player} is not in the tournament (starting numbers {ids})"),
    Code.PLAYER_TWICE: N_("player {player} appears twice in round {round}"),
    # Translators: {kind} is a kind of bye, e.g. half-point bye.
    Code.PLAYER_HAS_BYE: N_("player {player} has a {kind} in round {round}"),
    Code.PLAYER_HAS_GAME: N_("player {player} has a game in round {round}"),
    Code.PLAYER_HAS_PAB: N_("player {player} has the pairing-allocated bye of round {round}"),
    Code.PLAYER_WITHDRAWN: N_("player {player} withdrew after round {after_round}"),
    Code.PLAYER_HAS_PLAYED: N_("player {player} is in round {round}, which is paired: use /withdraw instead"),
    Code.TEAM_ROSTER: N_("the players of a team event are in its teams' rosters: change the tournament file"),
    Code.BYE_IN_ROUND_ROBIN: N_("a round robin has no requested byes: a game a player misses is a forfeit"),
    Code.BYE_ALREADY: N_("player {player} already has this bye in round {round}"),
    Code.BYE_ROUND_PAIRED: N_("round {round} is already paired: a bye is entered before its round is paired"),
    Code.BYE_AFTER_WITHDRAWAL: N_("player {player} withdrew after round {after_round}: only zero-point byes after "
                                  "that"),
    Code.ALREADY_WITHDRAWN: N_("player {player} already withdrew after round {after_round}"),
    Code.WITHDRAWAL_ROUND: N_("round {after_round}: expected a round from 0 to {rounds}"),
    # Translators: {result} is a result such as 1-0.
    Code.WITHDRAWN_HAS_RESULT: N_("player {player} has a result in round {round} ({result}): they withdrew after "
                                  "round {round} or later"),
    Code.WITHDRAWN_HAS_BYE: N_("player {player} has a bye worth points in round {round}: they withdrew after round "
                               "{round} or later"),
    Code.NOT_WITHDRAWN: N_("player {player} has not withdrawn"),
    Code.RETURN_AFTER_PAIRING: N_("player {player} withdrew after round {after_round} and round {round} is paired "
                                  "since: a round robin takes a player back only before that"),
    Code.LATE_ENTRY_ROUND_ROBIN: N_("a round robin takes no late entries once round 1 is paired"),
    Code.LATE_ENTRY_FINAL_ROUND: N_("the final round (round {rounds}) is paired: a late entry would play no round"),
    Code.NAME_INVALID: N_("the name must be one line of text"),
    Code.NAME_TOO_LONG: N_("the name has {length} characters; at most {limit}"),
    # Translators: {what} is a word such as name or club; {character} is shown as an escape such as \\x1b.
    Code.CONTROL_CHARACTER: N_("the {what} holds a control character ({character})"),
    Code.RATING_RANGE: N_("rating {rating}: expected 0-9999 (0 = unrated)"),
    Code.FEDERATION_CODE: N_("federation {federation}: expected a three-letter code such as VIE or CHN"),
    Code.FIDE_ID_INVALID: N_("FIDE id {fide_id}: expected its digits (at most 11)"),
    Code.CLUB_INVALID: N_("the club must be one line of text"),
    Code.TITLE_UNKNOWN: N_("title {title}: expected GM, IM, WGM, FM, WIM, CM, WFM or WCM"),
    Code.NOTHING_TO_CHANGE: N_("nothing to change: give the name, rating, title, federation, club or FIDE id"),
    Code.ROUNDS_BELOW_USED: N_("{value} rounds: round {round} already has games, byes or withdrawals"),
    Code.SYSTEM_AFTER_PAIRING: N_("the pairing system cannot change once round 1 is paired"),
    Code.SEEDING_AFTER_PAIRING: N_("the seeding cannot change once round 1 is paired"),
    Code.NOTHING_TO_UNDO: N_("you have nothing to undo in this tournament"),
    # Translators: {later_kind} is a change such as "a result"; {later} is its number in the
    # tournament's log; {by} is who made it, e.g. tg:123456.
    Code.UNDO_DEPENDS: N_("a later change depends on it: {later_kind} (entry {later}, by {by}); take that back first"),
    # Translators: {slug} is a tournament's short name, e.g. hanoi-open.
    Code.SLUG_TAKEN: N_("a tournament {slug} already exists: send the file again with /import and another short "
                        "name, e.g. /import hanoi-2"),
    Code.SLUG_CASE: N_("a tournament {taken} already exists and {slug} differs from it only in case, which many "
                       "web hosts ignore: send the file again with /import and another short name"),
    Code.SLUG_INVALID: N_("the short name {slug}: use letters, digits, '.', '-' and '_', e.g. /import hanoi-2026"),
    # Translators: {reserved} lists names such as index.html, static, zh.
    Code.SLUG_RESERVED: N_("the short name {slug} is taken by the site's own pages ({reserved}, names ending in "
                           ".html or .json): send the file again with /import and another short name"),
    Code.SLUG_TRAILING_DOT: N_("the short name {slug} ends with '.', which many file servers drop: send the file "
                               "again with /import and another short name"),
    Code.SLUG_TOO_LONG: N_("the short name {slug} has {length} characters, at most {limit}: send the file again with "
                           "/import and a shorter short name"),
    Code.PLAYOFF_SELF: N_("player {player} cannot play against themselves"),
    Code.PLAYOFF_ROUND: N_("play-off round {round}: expected 1, 2, ..."),
    Code.ALREADY_ARCHIVED: N_("{slug} is already archived"),
    Code.NOT_ARCHIVED: N_("{slug} is not archived"),
}
# Translators: an empty list, e.g. "paired rounds: none".
NONE = N_("none")
#: The changes of the event log, as UNDO_DEPENDS names them.
CHANGE_NAMES: dict[str, str] = {
    "result": N_("a result"),
    "forfeit": N_("a forfeit"),
    "correction": N_("a correction"),
    "annulment": N_("a result taken back"),
    "foul": N_("a foul"),
    "bye": N_("a bye"),
    "withdrawal": N_("a withdrawal"),
    "round-paired": N_("a pairing"),
    "round-unpaired": N_("an un-pairing"),
    "player-added": N_("a late entry"),
    "player-removed": N_("a player's removal"),
    "player-edited": N_("a correction of a player"),
    "player-returned": N_("a player's return"),
    "setting-changed": N_("a change of settings"),
    "settings-restored": N_("a change of settings"),
    "lots-drawn": N_("the drawing of lots"),
    "playoff-result": N_("a play-off result"),
    "arbiter-added": N_("an arbiter added"),
    "arbiter-removed": N_("an arbiter removed"),
    "archived": N_("archiving"),
    "restored": N_("restoring"),
}
#: A player's values, as corrections and refusals name them.
FIELD_NAMES: dict[str, str] = {
    "name": N_("name"),
    "rating": N_("rating"),
    "title": N_("title"),
    "federation": N_("federation"),
    "club": N_("club"),
    "fide_id": N_("FIDE id"),
}
#: Why the Dutch system leaves a player out of a round (``ranking.pairing.dutch.Absence``).
NOT_PAIRED_REASONS: dict[str, str] = {
    "withdrawn": N_("withdrawn"),
    "absent": N_("absent"),
    "half-point bye": N_("half-point bye"),
    "full-point bye": N_("full-point bye"),
    "zero-point bye": N_("zero-point bye"),
}
_BYE_BY_LETTER = {kind.value: message for kind, message in BYE_NAMES.items()}


def describe_refusal(refusal: Refusal, tr: Translator) -> str:
    """A refusal of the core in ``tr``'s language, its values worded there too (bye kinds,
    changes, fields; an empty list as "none")."""
    def word(name: str, value: Any) -> str | None:
        if name == "kind" and value in _BYE_BY_LETTER:
            return tr.gettext(_BYE_BY_LETTER[value])
        if name == "later_kind" and value in CHANGE_NAMES:
            return tr.gettext(CHANGE_NAMES[value])
        if name == "what" and value in FIELD_NAMES:
            return tr.gettext(FIELD_NAMES[value])
        return None

    return worded(tr.gettext(REFUSALS[refusal.code]), refusal.params, tr.gettext(NONE), word)


# -- running an event: un-pairing, players, returns, undo ----------------------------------------

# Translators: a confirmation; {boards} is a number of boards.
UNPAIRED = N_("Round {round} un-paired: {boards} boards taken back.")
UNPAIRED_WITH_RESULTS = Nn_("Round {round} un-paired: {boards} boards taken back, with {count} result (/undo "
                            "brings it back).",
                            "Round {round} un-paired: {boards} boards taken back, with {count} results (/undo "
                            "brings them back).")
UNPAIR_QUESTION = N_("Round {round} has results or fouls on {count} boards. Un-pair it and take them back too? "
                     "(/undo brings them back)")
# Translators: a button.
UNPAIR_CONFIRM = N_("Un-pair round {round}")
UNPAIR_CANCELLED = N_("Not un-paired.")
UNPAIR_CHANGED = N_("The tournament changed since that question; nothing was un-paired.")
# Translators: {changes} lists the values corrected, e.g. "rating 2100 → 2150".
PLAYER_CORRECTED = N_("Player {number}, {name}, corrected: {changes}")
PLAYER_UNCHANGED = N_("Player {number}, {name}: nothing changed.")
PLAYER_REMOVED = N_("Player {number}, {name}, removed from the tournament.")
# Translators: {round} is the next round to be paired.
PLAYER_RETURNED = N_("Player {number}, {name}, is back: paired again from round {round}.")
PLAYER_CHANGE_USAGE = N_("Write /player add NAME; rating; federation; club; title, or /player edit NUMBER "
                         "rating 2150 (or name, title, federation, club, fide; several separated by ;), or "
                         "/player remove NUMBER")
RETURN_USAGE = N_("Write /return and the player's starting number or name, e.g. /return 17")
# Translators: several players' names contain what was written; {query} is it.
PLAYER_AMBIGUOUS = N_("Several players match “{query}”: write the starting number.")
UNDONE_PAIRING = N_("Undone: the pairing of round {round}. Round {round} is not paired now.")
UNDONE_UNPAIRING = N_("Undone: the un-pairing of round {round}. Round {round} is paired again as it was.")
UNDONE_WITHDRAWAL = N_("Undone: the withdrawal of {player}. They play on.")
UNDONE_RETURN = N_("Undone: the return of {player}. They are withdrawn after round {round} again.")
UNDONE_LATE_ENTRY = N_("Undone: the late entry of {player}. They are no longer in the tournament.")
UNDONE_REMOVAL = N_("Undone: the removal of {player}. They are in the tournament again.")
UNDONE_CORRECTION = N_("Undone: the correction of {player}: {changes}.")
UNDONE_SETTINGS = N_("Undone: the change of settings. The settings are as they were before it.")
UNDONE_PLAYOFF = N_("Undone: the play-off result {white} – {black}.")
UNDONE_ARBITER = N_("Undone: the change of arbiter {user}.")
UNDONE_ARCHIVING = N_("Undone: archiving or restoring {name}.")
# Translators: said after an import; {name} is the tournament the user's commands now act on.
NOW_SELECTED = N_("Your selected tournament is now {name}: your commands act on it (/tournaments changes it).")
# Translators: result buttons of /enter, followed by the points, e.g. "Red wins 2-0".
BUTTON_WHITE_WINS = N_("White wins")
BUTTON_RED_WINS = N_("Red wins")
BUTTON_DRAW = N_("Draw")
BUTTON_BLACK_WINS = N_("Black wins")
# Translators: {tpn} is the pairing number, the place in the initial ranking list.
PLAYER_ADDED_TPN = N_("Player {number} added: {name} (pairing number {tpn})")
