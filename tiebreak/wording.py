"""The command line's words for the core's refusals (``ranking.event.refusals``): the core's plain
English line, or where the command line has an option for the way out (``--correct``,
``--force``, ``--unfinished``) or took the value from one (``--rating``), its own line naming
it.  The bot words the same refusals in each user's language (``bot.messages.REFUSALS``).
"""

from __future__ import annotations

from ranking.errors import InputError
from ranking.event.refusals import TEXT, Code, Refusal, worded

#: The command line's own line for a refusal, where it differs from the core's.
CLI_TEXT: dict[Code, str] = {
    Code.RESULT_PRESENT: "round {round} board {board} already has {result}; give --correct to replace it with {new}",
    Code.ROUND_HAS_RESULTS: "round {round} has results or fouls on {count} boards: give --force to take them back "
                            "too (`tiebreak undo` brings them back)",
    Code.BOARDS_WITHOUT_RESULT: "boards without a result: {boards}: enter them first, or give --unfinished to pair "
                                "anyway (an unfinished game counts as a draw for the pairing)",
    Code.WITHDRAWAL_ROUND: "--after-round {after_round}: expected 0-{rounds}",
    Code.NAME_INVALID: "--name: expected the player's name on one line",
    Code.NAME_TOO_LONG: "--name: {length} characters, at most {limit}",
    Code.CONTROL_CHARACTER: "{what} holds the control character {character}: remove it",
    Code.RATING_RANGE: "--rating {rating}: expected 0-9999 (0 = unrated)",
    Code.FEDERATION_CODE: "--federation {federation!r}: expected a three-letter code such as VIE or CHN",
    Code.FIDE_ID_INVALID: "--fide-id {fide_id!r}: expected its digits (at most 11), or '' for none",
    Code.CLUB_INVALID: "--club: expected the club on one line",
    Code.TITLE_UNKNOWN: "--title {title!r}: expected one of GM, IM, WGM, FM, WIM, CM, WFM, WCM (or '' for none)",
    Code.NOTHING_TO_CHANGE: "nothing to change: give --name, --rating, --title, --federation, --club or --fide-id",
    Code.PLAYER_HAS_PLAYED: "player {player} is in round {round}, which is paired: `tiebreak withdraw` them instead "
                            "(a player who has been paired is not removed)",
    Code.BYE_IN_ROUND_ROBIN: "a round robin has no requested byes: a game the player misses is a forfeit "
                             "(enter +- or -+ as its result)",
    Code.UNDO_DEPENDS: "a later change depends on it: event {later} ({later_kind}, by {by}; `tiebreak log` shows "
                       "it): take that back first",
    Code.NOTHING_TO_UNDO: "nothing to undo: {actor} has no change in force here",
    Code.ALREADY_ARCHIVED: "{slug} is already archived (`tiebreak restore {slug}` brings it back)",
    Code.NOT_WITHDRAWN: "player {player} has not withdrawn (`tiebreak withdraw` records a withdrawal)",
    Code.SLUG_TAKEN: "a tournament {slug!r} already exists; choose another --slug",
    Code.SLUG_CASE: "a tournament {taken!r} already exists and {slug!r} differs from it only in case, which many "
                    "hosts ignore (one folder of the site for both); choose another --slug",
    Code.SLUG_INVALID: "--slug {slug!r}: use letters, digits, '.', '-' and '_' (e.g. hanoi-2026)",
    Code.SLUG_RESERVED: "the slug {slug!r} is taken by the site's own pages ({reserved}, names ending in .html or "
                        ".json): choose another --slug",
    Code.SLUG_TRAILING_DOT: "the slug {slug!r} ends with '.', which Windows and many file servers drop (it would be "
                            "the folder {folder!r}): choose another --slug",
    Code.SLUG_TOO_LONG: "the slug {slug!r} has {length} characters, at most {limit}: choose a shorter --slug",
}


def cli_text(error: InputError) -> str:
    """One line for ``error``: a refusal in the command line's words, anything else as it is."""
    if not isinstance(error, Refusal):
        return str(error)
    return error.where() + worded(CLI_TEXT.get(error.code, TEXT[error.code]), error.params, word=_option)


#: The player's fields ``tiebreak player add/edit`` sets, by option.
_PLAYER_OPTIONS = {"name": "--name", "club": "--club", "federation": "--federation", "title": "--title",
                   "fide_id": "--fide-id"}


def _option(name: str, value: object) -> str | None:
    """A player's field in a refusal as the option that sets it (``fide_id``: ``--fide-id``); a
    field no option sets (the sex, the date of birth: only an import gives them) by its name."""
    if name != "what" or not isinstance(value, str):
        return None
    return _PLAYER_OPTIONS.get(value, f"the player's {value.replace('_', ' ')} (only an import sets it)")
