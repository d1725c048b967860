"""What the event model refuses, as typed values: a ``Refusal`` is a ``Code`` (which rule) and
its parameters (plain values: numbers, lists of numbers, results already written in the event's
own terms such as ``2-0``, bye kinds by their TRF letter, text as the arbiter gave it).

The core words none of them for a user: ``str()`` is a plain English line for logs and for
callers that only need one (``TEXT``).  The command line words each code in its own terms, with
its options (``tiebreak.wording``); the bot in the user's language, never naming a command-line
option (``bot.messages.REFUSALS``).  A test keeps the three tables in step with ``Code``.

>>> str(Refusal(Code.PLAYER_UNKNOWN, player=99, ids=[1, 2, 3, 5]))
'player 99 is not in the tournament (starting numbers 1-3, 5)'
>>> Refusal(Code.PLAYER_UNKNOWN, player=99, ids=[1, 2, 3, 5]).code
<Code.PLAYER_UNKNOWN: 'player-unknown'>
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ranking.errors import InputError

__all__ = ["TEXT", "Code", "Refusal", "number_ranges", "worded"]


class Code(enum.StrEnum):
    """Why a request is refused; the parameters each code carries are named in ``TEXT``."""

    # rounds and boards
    ROUND_OUT_OF_RANGE = "round-out-of-range"
    ROUND_NOT_PAIRED = "round-not-paired"
    NO_SUCH_BOARD = "no-such-board"
    ROUND_ALREADY_PAIRED = "round-already-paired"
    EVERY_ROUND_PAIRED = "every-round-paired"
    BOARDS_WITHOUT_RESULT = "boards-without-result"
    NOTHING_PAIRED = "nothing-paired"
    ROUND_HAS_RESULTS = "round-has-results"
    # results and fouls
    RESULT_PRESENT = "result-present"
    RESULT_OF_WITHDRAWN = "result-of-withdrawn"
    NOT_A_MATCH = "not-a-match"
    FOUL_SIDE = "foul-side"
    FOUL_COUNT = "foul-count"
    # players
    PLAYER_UNKNOWN = "player-unknown"
    PLAYER_TWICE = "player-twice"
    PLAYER_HAS_BYE = "player-has-bye"
    PLAYER_HAS_GAME = "player-has-game"
    PLAYER_HAS_PAB = "player-has-pab"
    PLAYER_WITHDRAWN = "player-withdrawn"
    PLAYER_HAS_PLAYED = "player-has-played"
    TEAM_ROSTER = "team-roster"
    # byes
    BYE_IN_ROUND_ROBIN = "bye-in-round-robin"
    BYE_ALREADY = "bye-already"
    BYE_ROUND_PAIRED = "bye-round-paired"
    BYE_AFTER_WITHDRAWAL = "bye-after-withdrawal"
    # withdrawals and returns
    ALREADY_WITHDRAWN = "already-withdrawn"
    WITHDRAWAL_ROUND = "withdrawal-round"
    WITHDRAWN_HAS_RESULT = "withdrawn-has-result"
    WITHDRAWN_HAS_BYE = "withdrawn-has-bye"
    NOT_WITHDRAWN = "not-withdrawn"
    RETURN_AFTER_PAIRING = "return-after-pairing"
    # late entries and corrections
    LATE_ENTRY_ROUND_ROBIN = "late-entry-round-robin"
    LATE_ENTRY_FINAL_ROUND = "late-entry-final-round"
    NAME_INVALID = "name-invalid"
    NAME_TOO_LONG = "name-too-long"
    CONTROL_CHARACTER = "control-character"
    RATING_RANGE = "rating-range"
    FEDERATION_CODE = "federation-code"
    FIDE_ID_INVALID = "fide-id-invalid"
    CLUB_INVALID = "club-invalid"
    TITLE_UNKNOWN = "title-unknown"
    NOTHING_TO_CHANGE = "nothing-to-change"
    # settings
    ROUNDS_BELOW_USED = "rounds-below-used"
    SYSTEM_AFTER_PAIRING = "system-after-pairing"
    SEEDING_AFTER_PAIRING = "seeding-after-pairing"
    # undo
    NOTHING_TO_UNDO = "nothing-to-undo"
    UNDO_DEPENDS = "undo-depends"
    # importing: the tournament's short name
    SLUG_TAKEN = "slug-taken"
    SLUG_CASE = "slug-case"
    SLUG_INVALID = "slug-invalid"
    SLUG_RESERVED = "slug-reserved"
    SLUG_TRAILING_DOT = "slug-trailing-dot"
    SLUG_TOO_LONG = "slug-too-long"
    # play-offs, archiving
    PLAYOFF_SELF = "playoff-self"
    PLAYOFF_ROUND = "playoff-round"
    ALREADY_ARCHIVED = "already-archived"
    NOT_ARCHIVED = "not-archived"


#: Each code's plain English line, with its parameters in braces.  A list parameter is written
#: as ranges (``1-3, 5``), an empty one as "none"; ``kind`` is a bye's TRF letter (U F H Z).
TEXT: dict[Code, str] = {
    Code.ROUND_OUT_OF_RANGE: "round {round}: the tournament has rounds 1-{rounds}",
    Code.ROUND_NOT_PAIRED: "round {round} is not paired (paired rounds: {paired})",
    Code.NO_SUCH_BOARD: "round {round} has no board {board} (boards {boards})",
    Code.ROUND_ALREADY_PAIRED: "round {round} is already paired",
    Code.EVERY_ROUND_PAIRED: "every round is paired: the event has {rounds} rounds",
    Code.BOARDS_WITHOUT_RESULT: "boards without a result: {boards}: enter them first",
    Code.NOTHING_PAIRED: "no round is paired yet",
    Code.ROUND_HAS_RESULTS: "round {round} has results or fouls on {count} boards: un-pairing it would take them "
                            "back too",
    Code.RESULT_PRESENT: "round {round} board {board} already has {result}: correct it to replace it with {new}",
    Code.RESULT_OF_WITHDRAWN: "player {player} withdrew after round {after_round}: round {round} board {board} is "
                              "a forfeit under the event's withdrawal rule (enter {expected})",
    Code.NOT_A_MATCH: "round {round} board {board} is one game, not a two-game match (VN 21.2): give one result",
    Code.FOUL_SIDE: "foul side {side!r}: expected white (red) or black",
    Code.FOUL_COUNT: "foul count {count}: expected a positive number",
    Code.PLAYER_UNKNOWN: "player {player} is not in the tournament (starting numbers {ids})",
    Code.PLAYER_TWICE: "player {player} appears twice in round {round}",
    Code.PLAYER_HAS_BYE: "player {player} has a bye ({kind}) in round {round}",
    Code.PLAYER_HAS_GAME: "player {player} has a game in round {round}",
    Code.PLAYER_HAS_PAB: "player {player} has the pairing-allocated bye of round {round}",
    Code.PLAYER_WITHDRAWN: "player {player} withdrew after round {after_round}",
    Code.PLAYER_HAS_PLAYED: "player {player} is in round {round}, which is paired: a player who has been paired "
                            "is withdrawn, not removed",
    Code.TEAM_ROSTER: "a team event's players are in its teams' rosters: edit the tournament file",
    Code.BYE_IN_ROUND_ROBIN: "a round robin has no requested byes: a game the player misses is a forfeit",
    Code.BYE_ALREADY: "player {player} already has this bye in round {round}",
    Code.BYE_ROUND_PAIRED: "round {round} is already paired: a bye is entered before its round is paired",
    Code.BYE_AFTER_WITHDRAWAL: "player {player} withdrew after round {after_round}: only zero-point byes later",
    Code.ALREADY_WITHDRAWN: "player {player} already withdrew after round {after_round}",
    Code.WITHDRAWAL_ROUND: "after round {after_round}: expected a round 0-{rounds}",
    Code.WITHDRAWN_HAS_RESULT: "player {player} has a result in round {round} ({result}): they withdrew after "
                               "round {round} or later",
    Code.WITHDRAWN_HAS_BYE: "player {player} has a bye worth points in round {round}: they withdrew after round "
                            "{round} or later",
    Code.NOT_WITHDRAWN: "player {player} has not withdrawn",
    Code.RETURN_AFTER_PAIRING: "player {player} withdrew after round {after_round} and round {round} is paired "
                               "since: a round robin takes a player back only before a later round is paired",
    Code.LATE_ENTRY_ROUND_ROBIN: "a round robin takes no late entries once round 1 is paired: its Berger tables "
                                 "are drawn for the field",
    Code.LATE_ENTRY_FINAL_ROUND: "the final round (round {rounds}) is paired: a late entry would play no round",
    Code.NAME_INVALID: "the name: expected the player's name on one line",
    Code.NAME_TOO_LONG: "a name of {length} characters: names have at most {limit}",
    Code.CONTROL_CHARACTER: "{what} holds a control character ({character}): expected plain text",
    Code.RATING_RANGE: "rating {rating}: expected 0-9999 (0 = unrated)",
    Code.FEDERATION_CODE: "federation {federation!r}: expected a three-letter code such as VIE or CHN",
    Code.FIDE_ID_INVALID: "FIDE id {fide_id!r}: expected its digits (at most 11), or nothing for none",
    Code.CLUB_INVALID: "the club: expected the club on one line",
    Code.TITLE_UNKNOWN: "title {title!r}: expected one of GM, IM, WGM, FM, WIM, CM, WFM, WCM (or none)",
    Code.NOTHING_TO_CHANGE: "nothing to change: give the name, rating, title, federation, club or FIDE id",
    Code.ROUNDS_BELOW_USED: "rounds={value}: round {round} already has games, byes or withdrawals",
    Code.SYSTEM_AFTER_PAIRING: "system={value}: round 1 is already paired as a {system}",
    Code.SEEDING_AFTER_PAIRING: "seeding={value}: round 1 is already paired",
    Code.NOTHING_TO_UNDO: "nothing to undo: {actor} has no change in force",
    Code.UNDO_DEPENDS: "a later change depends on it: {later_kind} (event {later}, by {by}); take that back first",
    Code.SLUG_TAKEN: "a tournament {slug!r} already exists: choose another short name",
    Code.SLUG_CASE: "a tournament {taken!r} already exists and {slug!r} differs from it only in case, which many "
                    "hosts ignore (one folder of the site for both): choose another short name",
    Code.SLUG_INVALID: "the short name {slug!r}: use letters, digits, '.', '-' and '_' (e.g. hanoi-2026)",
    Code.SLUG_RESERVED: "the short name {slug!r} is taken by the site's own pages ({reserved}, names ending in "
                        ".html or .json): choose another",
    Code.SLUG_TRAILING_DOT: "the short name {slug!r} ends with '.', which Windows and many file servers drop (it "
                            "would be the folder {folder!r}): choose another",
    Code.SLUG_TOO_LONG: "the short name {slug!r} has {length} characters, at most {limit}: choose a shorter one",
    Code.PLAYOFF_SELF: "player {player} cannot play against themselves",
    Code.PLAYOFF_ROUND: "play-off round {round}: expected 1, 2, ...",
    Code.ALREADY_ARCHIVED: "{slug} is already archived",
    Code.NOT_ARCHIVED: "{slug} is not archived",
}


def number_ranges(numbers: Sequence[int], none: str = "none") -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``; ``none`` for an empty list."""
    parts: list[str] = []
    start = previous = None
    for number in sorted(numbers):
        if previous is not None and number == previous + 1:
            previous = number
            continue
        if start is not None:
            parts.append(f"{start}-{previous}" if previous != start else f"{start}")
        start = previous = number
    if start is not None:
        parts.append(f"{start}-{previous}" if previous != start else f"{start}")
    return ", ".join(parts) or none


def worded(template: str, params: Mapping[str, Any], none: str = "none",
           word: Callable[[str, Any], str | None] | None = None) -> str:
    """``template`` with ``params`` filled in: lists of numbers as ranges (``none`` when empty);
    ``word(name, value)``, when given, words a parameter itself (a bye kind, an event kind in
    the reader's language), or returns None to leave it to this function."""
    values: dict[str, Any] = {}
    for name, value in params.items():
        own = word(name, value) if word is not None else None
        if own is not None:
            values[name] = own
        elif isinstance(value, list | tuple) and all(isinstance(item, int) for item in value):
            values[name] = number_ranges(value, none)
        elif isinstance(value, list | tuple):
            values[name] = ", ".join(map(str, value)) or none
        else:
            values[name] = value
    return template.format(**values)


class Refusal(InputError):
    """A request refused by a rule of the event model: ``code`` and its ``params``; ``str()``
    is ``TEXT[code]`` filled in, one line."""

    def __init__(self, code: Code, **params: Any) -> None:
        super().__init__(worded(TEXT[code], params))
        self.code = code
        self.params = params

    def located(self, source: str | None, line: int | None = None) -> Refusal:
        """The refusal of a line of a file: ``source`` and ``line`` name where (``str()`` starts
        with them, as every ``InputError`` does)."""
        self.source, self.line = source, line
        return self

    def where(self) -> str:
        """``pairs.txt:3: `` when the refusal names a file (and its line), else ""."""
        if not self.source:
            return ""
        return self.source + (f":{self.line}" if self.line is not None else "") + ": "

    def __reduce__(self) -> tuple:  # pickled with its code and parameters (a store's snapshot never holds one)
        return _refusal, (self.code, self.params)


def _refusal(code: Code, params: Mapping[str, Any]) -> Refusal:
    return Refusal(code, **params)
