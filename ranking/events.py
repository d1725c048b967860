"""The tournament's event log, as pure data: what an arbiter did, and the state it leads to.

Every change to a tournament is an ``Event`` appended to the store's log (``tiebreak.store``);
nothing is ever updated in place.  ``TournamentState`` replays events over the imported
tournament: a correction is a later event that wins over the earlier one, and the log keeps
both.  The ``*_event`` functions check a request against the current state and say, in one
clear line, what is wrong with it (``InputError``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ranking.errors import InputError
from ranking.model import Bye, ByeKind, Game, Player, Result, Tournament, Withdrawal, numbered_boards
from ranking.rules import CHESS
from ranking.settings import apply_setting, check_setting
from ranking.spelling import written_result


class EventKind(enum.StrEnum):
    IMPORTED = "imported"  # the tournament file as imported (players, rules, known results)
    ROUND_PAIRED = "round-paired"
    RESULT = "result"  # a result entered for a board that had none
    FORFEIT = "forfeit"  # the same, for a forfeit (+-, -+, --)
    CORRECTION = "correction"  # a different result replacing a recorded one
    ANNULMENT = "annulment"  # a recorded result taken back: the board is unfinished again
    BYE = "bye"
    FOUL = "foul"  # a foul recorded against one side of a game (犯规, CXA 14.1)
    WITHDRAWAL = "withdrawal"
    ARBITER_ADDED = "arbiter-added"  # a Telegram user allowed to enter results in this tournament
    ARBITER_REMOVED = "arbiter-removed"
    PLAYOFF_RESULT = "playoff-result"  # a play-off game's result (RULES.md 6), rounds of the play-off
    SETTING = "setting-changed"  # a setting of the tournament (ranking.settings): name, rounds, rules, ...
    PLAYER_ADDED = "player-added"  # a late entry
    BYE_CANCELLED = "bye-cancelled"  # a requested bye taken back (undo)
    ARCHIVED = "archived"  # hidden from the lists and the site; nothing is deleted
    RESTORED = "restored"


@dataclass(frozen=True)
class Event:
    """What happened; ``data`` holds only JSON values (it is stored as JSON)."""

    kind: EventKind
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LoggedEvent:
    """An event as the store keeps it: who (``tg:<id>`` or ``cli:<user>``), when, from where."""

    id: int
    event: Event
    actor: str
    at: str  # ISO 8601, UTC
    chat_id: int | None = None
    message_id: int | None = None


class TournamentState:
    """A tournament being replayed from its log: apply events, then take a ``snapshot``."""

    def __init__(self, base: Tournament) -> None:
        self.base = base
        self.ids = {player.id for player in base.players}
        self.games: dict[tuple[int, int], Game] = {}
        for game in numbered_boards(base.games):
            self.games[(game.round, game.board)] = game
        self.byes: dict[tuple[int, int], Bye] = {(bye.round, bye.player): bye for bye in base.byes}
        self.rounds_with_games: set[int] = {number for number, _ in self.games}
        self.withdrawals: dict[int, Withdrawal] = {w.player: w for w in base.withdrawals}
        self.arbiters: set[int] = set()  # Telegram user ids added with /arbiters add
        # play-off games by (play-off round, lower id, higher id): a later entry for the pair wins
        self.playoff_games: dict[tuple[int, int, int], Game] = {
            _playoff_key(game.round, game.white, game.black): game for game in base.playoff_games}
        self.archived = False
        self._snapshot: Tournament | None = base

    # -- replay -------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one (already checked) event."""
        data = event.data
        kind = event.kind
        self._snapshot = None
        if kind is EventKind.ROUND_PAIRED:
            number = data["round"]
            for board, white, black in data["games"]:
                self.games[(number, board)] = Game(number, white, black, None, board=board)
                self.rounds_with_games.add(number)
            for player, letter in data.get("byes", []):
                self.byes[(number, player)] = Bye(number, player, ByeKind(letter))
        elif kind in (EventKind.RESULT, EventKind.FORFEIT, EventKind.CORRECTION):
            key = (data["round"], data["board"])
            self.games[key] = replace(self.games[key], result=Result(data["result"]))
        elif kind is EventKind.ANNULMENT:
            key = (data["round"], data["board"])
            self.games[key] = replace(self.games[key], result=None)
        elif kind is EventKind.BYE:
            self.byes[(data["round"], data["player"])] = Bye(data["round"], data["player"], ByeKind(data["kind"]))
        elif kind is EventKind.FOUL:
            key = (data["round"], data["board"])
            game = self.games[key]
            if data["side"] == "white":
                self.games[key] = replace(game, fouls_white=game.fouls_white + data.get("count", 1))
            else:
                self.games[key] = replace(game, fouls_black=game.fouls_black + data.get("count", 1))
        elif kind is EventKind.WITHDRAWAL:
            self.withdrawals[data["player"]] = Withdrawal(data["player"], data["after_round"])
        elif kind is EventKind.ARBITER_ADDED:
            self.arbiters.add(data["user_id"])
        elif kind is EventKind.ARBITER_REMOVED:
            self.arbiters.discard(data["user_id"])
        elif kind is EventKind.PLAYOFF_RESULT:
            key = _playoff_key(data["round"], data["white"], data["black"])
            self.playoff_games[key] = Game(data["round"], data["white"], data["black"], Result(data["result"]))
        elif kind is EventKind.SETTING:
            self.base = apply_setting(self.base, data["key"], data["value"])
        elif kind is EventKind.PLAYER_ADDED:
            player = Player(**data["player"])
            rounds = self.base.rounds
            if self.base.system.is_round_robin and rounds == self.base.system.scheduled_rounds(len(self.ids)):
                rounds = self.base.system.scheduled_rounds(len(self.ids) + 1)  # the field's rounds, redrawn
            self.base = replace(self.base, players=(*self.base.players, player), rounds=rounds)
            self.ids.add(player.id)
        elif kind is EventKind.BYE_CANCELLED:
            key = (data["round"], data["player"])
            if data.get("previous"):
                self.byes[key] = Bye(data["round"], data["player"], ByeKind(data["previous"]))
            else:
                self.byes.pop(key, None)
        elif kind in (EventKind.ARCHIVED, EventKind.RESTORED):
            self.archived = kind is EventKind.ARCHIVED
        elif kind is not EventKind.IMPORTED:
            raise ValueError(f"unknown event kind {kind!r}")

    def apply_all(self, events: Iterable[Event]) -> TournamentState:
        for event in events:
            self.apply(event)
        return self

    def snapshot(self) -> Tournament:
        """The tournament as the log now describes it."""
        if self._snapshot is None:
            self._snapshot = replace(
                self.base,
                games=tuple(self.games[key] for key in sorted(self.games)),
                byes=tuple(self.byes[key] for key in sorted(self.byes)),
                withdrawals=tuple(self.withdrawals[key] for key in sorted(self.withdrawals)),
                playoff_games=tuple(self.playoff_games[key] for key in sorted(self.playoff_games)),
            )
        return self._snapshot

    # -- questions the checks ask ---------------------------------------------------------

    def game(self, round_number: int, board: int) -> Game:
        if round_number not in self.rounds_with_games:
            paired = sorted(self.rounds_with_games)
            raise InputError(f"round {round_number} is not paired (paired rounds: "
                             f"{_ranges(paired) or 'none'})")
        try:
            return self.games[(round_number, board)]
        except KeyError:
            boards = sorted(b for r, b in self.games if r == round_number)
            raise InputError(f"round {round_number} has no board {board} (boards {_ranges(boards)})") from None

    def paired_rounds(self) -> list[int]:
        return sorted(self.rounds_with_games | {r for r, _ in self.byes})

    def player_in_round(self, player: int, round_number: int) -> str | None:
        """How ``player`` is engaged in a round: ``"game"``, ``"bye"`` or None."""
        for (r, _), game in self.games.items():
            if r == round_number and player in (game.white, game.black):
                return "game"
        return "bye" if (round_number, player) in self.byes else None

    def withdrew_before(self, player: int, round_number: int) -> int | None:
        """The round after which ``player`` withdrew, if that is before ``round_number``."""
        withdrawal = self.withdrawals.get(player)
        return withdrawal.after_round if withdrawal is not None and round_number > withdrawal.after_round else None

    def require_player(self, player: int) -> None:
        if player not in self.ids:
            raise InputError(f"player {player} is not in the tournament (starting numbers "
                             f"{_ranges(sorted(self.ids))})")


def result_event(state: TournamentState, round_number: int, board: int, result: Result | str,
                 correct: bool = False) -> Event | None:
    """The event that records ``result``; None when that very result is already recorded.

    A board that has a different result is refused unless ``correct`` is given.
    """
    if isinstance(result, str):
        try:
            result = Result.parse(result)
        except ValueError as error:
            raise InputError(str(error)) from None
    game = state.game(round_number, board)
    data = {"round": round_number, "board": board, "result": result.value}
    if game.result == result:
        return None
    _check_withdrawn(state, game, result)
    if game.result is not None:
        if not correct:
            scoring = state.base.rules.scoring if state.base.rules is not None else CHESS
            raise InputError(f"round {round_number} board {board} already has {written_result(game.result, scoring)}; "
                             f"give --correct to replace it with {written_result(result, scoring)}")
        return Event(EventKind.CORRECTION, {**data, "previous": game.result.value})
    return Event(EventKind.FORFEIT if result.is_forfeit else EventKind.RESULT, data)


def forfeit_for_withdrawn(game: Game, withdrawn: set[int]) -> Result | None:
    """The result a game of ``withdrawn`` players must have (the game is a forfeit under the
    withdrawal rule, RULES.md 5): None when neither player withdrew."""
    white, black = game.white in withdrawn, game.black in withdrawn
    if white and black:
        return Result.DOUBLE_FORFEIT
    if white:
        return Result.BLACK_WINS_FORFEIT
    return Result.WHITE_WINS_FORFEIT if black else None


def _check_withdrawn(state: TournamentState, game: Game, result: Result) -> None:
    """A game after one of its players withdrew is a forfeit lost by that player: refuse any
    other result (it would be counted, and the exported file could not be read back)."""
    gone = {player for player in (game.white, game.black) if state.withdrew_before(player, game.round) is not None}
    expected = forfeit_for_withdrawn(game, gone)
    if expected is None or result in (expected, Result.DOUBLE_FORFEIT):
        return
    player = min(gone)
    raise InputError(f"player {player} withdrew after round {state.withdrawals[player].after_round}: round "
                     f"{game.round} board {game.board} is a forfeit under the event's withdrawal rule "
                     f"(enter {expected.value})")


def annulment_event(state: TournamentState, round_number: int, board: int) -> Event | None:
    game = state.game(round_number, board)
    if game.result is None:
        return None
    return Event(EventKind.ANNULMENT, {"round": round_number, "board": board, "previous": game.result.value})


def foul_event(state: TournamentState, round_number: int, board: int, side: str, count: int = 1) -> Event:
    if side not in ("white", "black"):
        raise InputError(f"foul side {side!r}: expected white (red) or black")
    if count < 1:
        raise InputError(f"foul count {count}: expected a positive number")
    state.game(round_number, board)
    return Event(EventKind.FOUL, {"round": round_number, "board": board, "side": side, "count": count})


def bye_event(state: TournamentState, round_number: int, player: int, kind: ByeKind) -> Event:
    """A bye entered for ``player`` (a requested half- or zero-point bye, a full-point bye),
    usually before the round is paired.  Round robins have none: a player who misses a round
    robin game loses it by forfeit."""
    state.require_player(player)
    if not 1 <= round_number <= state.base.rounds:
        raise InputError(f"round {round_number}: the tournament has rounds 1-{state.base.rounds}")
    if state.base.system.is_round_robin:
        raise InputError("a round robin has no requested byes: a game the player misses is a forfeit "
                         "(enter +- or -+ as its result)")
    if state.player_in_round(player, round_number) == "game":
        raise InputError(f"player {player} has a game in round {round_number}")
    held = state.byes.get((round_number, player))
    if held is not None and held.kind is ByeKind.PAIRING:
        raise InputError(f"player {player} has the pairing-allocated bye of round {round_number}")
    if held is not None and held.kind is kind:
        raise InputError(f"player {player} already has this bye in round {round_number}")
    gone = state.withdrew_before(player, round_number)
    if gone is not None and kind is not ByeKind.ZERO:
        raise InputError(f"player {player} withdrew after round {gone}: expected only zero-point byes later")
    data = {"round": round_number, "player": player, "kind": kind.value}
    return Event(EventKind.BYE, {**data, "previous": held.kind.value} if held is not None else data)


def withdrawal_event(state: TournamentState, player: int, after_round: int) -> Event:
    """``player`` plays no more after ``after_round``: refused if they already have a result
    (other than a forfeit loss) or a bye other than a zero-point one in a later round."""
    state.require_player(player)
    if player in state.withdrawals:
        raise InputError(f"player {player} already withdrew after round {state.withdrawals[player].after_round}")
    if not 0 <= after_round <= state.base.rounds:
        raise InputError(f"--after-round {after_round}: expected 0-{state.base.rounds}")
    for (number, _), game in sorted(state.games.items()):
        if number > after_round and player in (game.white, game.black) and game.result is not None:
            allowed = (forfeit_for_withdrawn(game, {player}), Result.DOUBLE_FORFEIT)
            if game.result not in allowed:
                raise InputError(f"player {player} has a result in round {number} ({game.result.value}): "
                                 f"they withdrew after round {number} or later")
    for (number, who), bye in sorted(state.byes.items()):
        if who == player and number > after_round and bye.kind is not ByeKind.ZERO:
            raise InputError(f"player {player} has a bye worth points in round {number}: "
                             f"they withdrew after round {number} or later")
    return Event(EventKind.WITHDRAWAL, {"player": player, "after_round": after_round})


def player_added_event(state: TournamentState, name: str, rating: int = 0, federation: str = "",
                       club: str = "") -> Event:
    """A late entry, with the next starting number.  Refused in a round robin once round 1 is
    paired (its Berger tables are drawn for the field), in team events, and for values a TRF
    could not hold (so every export reads back)."""
    base = state.base
    if base.system.is_round_robin and state.rounds_with_games:
        raise InputError("a round robin takes no late entries once round 1 is paired: its Berger tables "
                         "are drawn for the field")
    if base.teams:
        raise InputError("a team event takes players into a team's roster: edit the tournament file")
    name = name.strip()
    if not name or "\n" in name or "\r" in name:
        raise InputError("--name: expected the player's name on one line")
    if not 0 <= rating <= 9999:
        raise InputError(f"--rating {rating}: expected 0-9999 (0 = unrated)")
    federation = federation.strip().upper()
    if federation and not (federation.isascii() and federation.isalpha() and len(federation) <= 3):
        raise InputError(f"--federation {federation!r}: expected a three-letter code such as VIE or CHN")
    if "\n" in club or "\r" in club:
        raise InputError("--club: expected the club on one line")
    number = max(state.ids, default=0) + 1
    player = {"id": number, "name": name, "rating": rating, "federation": federation, "club": club.strip()}
    return Event(EventKind.PLAYER_ADDED, {"player": player})


def setting_event(state: TournamentState, key: str, value: Any) -> Event:
    """A changed setting (``ranking.settings``), checked against the tournament's state."""
    check_setting(state.snapshot(), key, value)
    return Event(EventKind.SETTING, {"key": key, "value": value})


def pairing_event(state: TournamentState, round_number: int, games: Iterable[Game], byes: Iterable[Bye]) -> Event:
    """The event pairing ``round_number``: refused if the round is paired already, a player
    is unknown, withdrawn, or appears twice."""
    if not 1 <= round_number <= state.base.rounds:
        raise InputError(f"round {round_number}: the tournament has rounds 1-{state.base.rounds}")
    if round_number in state.rounds_with_games:
        raise InputError(f"round {round_number} is already paired")
    seen: set[int] = set()
    rows = []
    swiss = not state.base.system.is_round_robin
    for board, game in enumerate(games, start=1):
        for player in (game.white, game.black):
            state.require_player(player)
            if player in seen:
                raise InputError(f"player {player} appears twice in round {round_number}")
            seen.add(player)
            held = state.byes.get((round_number, player))
            if held is not None:
                raise InputError(f"player {player} has a bye ({held.kind.value}) in round {round_number}")
            gone = state.withdrew_before(player, round_number)
            if swiss and gone is not None:  # a round robin's schedule keeps them: their games are forfeits
                raise InputError(f"player {player} withdrew after round {gone}")
        rows.append([game.board or board, game.white, game.black])
    bye_rows = []
    for bye in byes:
        state.require_player(bye.player)
        if bye.player in seen:
            raise InputError(f"player {bye.player} appears twice in round {round_number}")
        seen.add(bye.player)
        held = state.byes.get((round_number, bye.player))
        if held is not None and held.kind is not bye.kind:
            raise InputError(f"player {bye.player} has a bye ({held.kind.value}) in round {round_number}")
        if bye.kind is not ByeKind.ZERO and state.withdrew_before(bye.player, round_number) is not None:
            raise InputError(f"player {bye.player} withdrew after round {state.withdrawals[bye.player].after_round}")
        bye_rows.append([bye.player, bye.kind.value])
    return Event(EventKind.ROUND_PAIRED, {"round": round_number, "games": rows, "byes": bye_rows})


def playoff_result_event(state: TournamentState, round_number: int, white: int, black: int,
                         result: Result | str) -> Event:
    """The event recording a play-off game (``ranking.playoffs``): its play-off round (1, 2, ...),
    the players as they played (white/red first) and the result.  Whether the play-off scheduled
    that game is the caller's question (it depends on the standings and the play-off rule)."""
    if isinstance(result, str):
        try:
            result = Result.parse(result)
        except ValueError as error:
            raise InputError(str(error)) from None
    state.require_player(white)
    state.require_player(black)
    if white == black:
        raise InputError(f"player {white} cannot play against themselves")
    if round_number < 1:
        raise InputError(f"play-off round {round_number}: expected 1, 2, ...")
    return Event(EventKind.PLAYOFF_RESULT, {"round": round_number, "white": white, "black": black,
                                            "result": result.value})


def _playoff_key(round_number: int, white: int, black: int) -> tuple[int, int, int]:
    return round_number, min(white, black), max(white, black)


def _ranges(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``."""
    parts: list[str] = []
    start = previous = None
    for number in numbers:
        if previous is not None and number == previous + 1:
            previous = number
            continue
        if start is not None:
            parts.append(f"{start}-{previous}" if previous != start else f"{start}")
        start = previous = number
    if start is not None:
        parts.append(f"{start}-{previous}" if previous != start else f"{start}")
    return ", ".join(parts)
