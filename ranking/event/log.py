"""The tournament's event log, as pure data: what an arbiter did, and the state it leads to.

Every change to a tournament is an ``Event`` appended to the store's log (``tiebreak.store``);
nothing is ever updated in place.  ``TournamentState`` replays events over the imported
tournament: a correction is a later event that wins over the earlier one, and the log keeps
both.  The ``*_event`` functions check a request against the current state and refuse it with
a typed ``Refusal`` (``ranking.event.refusals``: a code and its values, worded by each caller).
Taking a change back is ``ranking.event.undo``'s.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ranking.errors import InputError
from ranking.event.clock import Clock, clock_of, paired_rounds
from ranking.event.matches import GAMES_PER_MATCH, match_boards, plays_matches
from ranking.event.model import Bye, ByeKind, Game, Player, Result, Tournament, Withdrawal, numbered_boards
from ranking.event.players import RE_RANK_UNTIL, kept_ranking, title_of
from ranking.event.refusals import Code, Refusal
from ranking.event.settings import apply_setting, check_setting
from ranking.formats.toml_settings import restore_settings, settings_table
from ranking.formats.trf_fields import FIDE_ID
from ranking.scoring.rules import CHESS
from ranking.scoring.spelling import written_result
from ranking.tiebreaks.lots import lots_to_draw


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
    PLAYOFF_RESULT = "playoff-result"  # a play-off game's result (docs/rules.md#play-offs), rounds of the play-off
    SETTING = "setting-changed"  # a setting of the tournament (ranking.event.settings): name, rounds, rules, ...
    PLAYER_ADDED = "player-added"  # a late entry
    BYE_CANCELLED = "bye-cancelled"  # a requested bye taken back (undo)
    ARCHIVED = "archived"  # hidden from the lists and the site; nothing is deleted
    RESTORED = "restored"
    ROUND_UNPAIRED = "round-unpaired"  # the latest paired round taken back, with what it held
    PLAYER_EDITED = "player-edited"  # a correction of a player's name, rating, title, federation, club or FIDE id
    PLAYER_REMOVED = "player-removed"  # a player taken out before their first paired round (CXA 14.4)
    PLAYER_RETURNED = "player-returned"  # a withdrawn player paired again from the next round
    SETTINGS_RESTORED = "settings-restored"  # the settings as they were before a change (undo)
    LOTS_DRAWN = "lots-drawn"  # the lots seed, drawn when the results are complete (``lots_event``)


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
        self.retired: set[int] = set()  # ids of players removed: a late entry never takes one again
        self.joined: dict[int, int] = {}  # a late entry -> the last round paired when they entered (GHR 2.4)
        self.games: dict[tuple[int, int], Game] = {}
        for game in numbered_boards(base.games):
            self.games[(game.round, game.board)] = game
        self.byes: dict[tuple[int, int], Bye] = {(bye.round, bye.player): bye for bye in base.byes}
        self.withdrawals: dict[int, Withdrawal] = {w.player: w for w in base.withdrawals}
        self.arbiters: set[int] = set()  # Telegram user ids added with /arbiters add
        # play-off games by (play-off round, lower id, higher id): a later entry for the pair wins
        self.playoff_games: dict[tuple[int, int, int], Game] = {
            _playoff_key(game.round, game.white, game.black): game for game in base.playoff_games}
        self.archived = False
        self.kept_by: int | None = None  # the round whose pairing kept the initial ranking list (GHR 2.3)
        self._snapshot: Tournament | None = base
        self._clock: Clock | None = None
        if max(paired_rounds(base), default=0) >= RE_RANK_UNTIL:
            self._keep_ranking()

    def _keep_ranking(self) -> bool:
        """Round 4 (or later) is paired: the initial ranking list is kept from now on (GHR 2.3)."""
        if self.base.ranking_list:
            return False
        kept = kept_ranking(self.base)
        if kept:
            self.base = replace(self.base, ranking_list=kept)
        return bool(kept)

    # -- replay -------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one (already checked) event."""
        data = event.data
        kind = event.kind
        self._snapshot = None
        self._clock = None
        if kind is EventKind.ROUND_PAIRED:
            number = data["round"]
            for row in data["games"]:
                board, white, black = row[:3]
                game = Game(number, white, black, None, board=board)
                if len(row) > 3:  # a round paired again as it was (undo of an un-pairing)
                    game = replace(game, result=Result(row[3]) if row[3] else None, fouls_white=row[4],
                                   fouls_black=row[5])
                self.games[(number, board)] = game
            for player, letter in data.get("byes", []):
                self.byes[(number, player)] = Bye(number, player, ByeKind(letter))
            if number >= RE_RANK_UNTIL and self.kept_by is None and self._keep_ranking():
                self.kept_by = number
        elif kind is EventKind.ROUND_UNPAIRED:
            number = data["round"]
            for key in [key for key in self.games if key[0] == number]:
                del self.games[key]
            for player, _letter in data.get("byes", []):
                self.byes.pop((number, player), None)
            if self.kept_by == number:
                self.base = replace(self.base, ranking_list=())
                self.kept_by = None
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
        elif kind is EventKind.PLAYER_RETURNED:
            self.withdrawals.pop(data["player"], None)
            for number, letter in data.get("byes", []):
                self.byes[(number, data["player"])] = Bye(number, data["player"], ByeKind(letter))
            for number, board, result in data.get("forfeits", []):
                self.games[(number, board)] = replace(self.games[(number, board)], result=Result(result))
        elif kind is EventKind.ARBITER_ADDED:
            self.arbiters.add(data["user_id"])
        elif kind is EventKind.ARBITER_REMOVED:
            self.arbiters.discard(data["user_id"])
        elif kind is EventKind.PLAYOFF_RESULT:
            key = _playoff_key(data["round"], data["white"], data["black"])
            if data["result"] is None:  # a play-off result taken back
                self.playoff_games.pop(key, None)
            else:
                self.playoff_games[key] = Game(data["round"], data["white"], data["black"], Result(data["result"]))
        elif kind is EventKind.SETTING:
            self.base = apply_setting(self.base, data["key"], data["value"])
        elif kind is EventKind.LOTS_DRAWN:
            self.base = apply_setting(self.base, "lots_seed", data["seed"])
        elif kind is EventKind.SETTINGS_RESTORED:
            self.base = replace(restore_settings(self.base, data["table"]), rounds=data["rounds"])
        elif kind is EventKind.PLAYER_ADDED:
            player = Player(**data["player"])
            rounds = self.base.rounds
            if self.base.system.is_round_robin and rounds == self.base.system.scheduled_rounds(len(self.ids)):
                rounds = self.base.system.scheduled_rounds(len(self.ids) + 1)  # the field's rounds, redrawn
            self.base = replace(self.base, players=(*self.base.players, player), rounds=rounds)
            self.ids.add(player.id)
            self.retired.discard(player.id)
            self.joined[player.id] = max(self.paired_rounds(), default=0)
            self._snapshot = None  # taken half-way through this change
            for number, letter in data.get("byes", []):  # a removal taken back: its byes come back
                self.byes[(number, player.id)] = Bye(number, player.id, ByeKind(letter))
            if "withdrawal" in data:  # and its withdrawal
                self.withdrawals[player.id] = Withdrawal(player.id, data["withdrawal"])
        elif kind is EventKind.PLAYER_EDITED:
            pid = data["player"]
            self.base = replace(self.base, players=tuple(
                replace(player, **data["changes"]) if player.id == pid else player for player in self.base.players))
        elif kind is EventKind.PLAYER_REMOVED:
            pid = data["player"]["id"]
            rounds = self.base.rounds
            if self.base.system.is_round_robin and rounds == self.base.system.scheduled_rounds(len(self.ids)):
                rounds = self.base.system.scheduled_rounds(len(self.ids) - 1)  # drawn again for the players left
            self.base = replace(self.base, players=tuple(p for p in self.base.players if p.id != pid), rounds=rounds)
            self.ids.discard(pid)
            self.retired.add(pid)
            for number, _letter in data.get("byes", []):
                self.byes.pop((number, pid), None)
            self.withdrawals.pop(pid, None)
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

    def clock(self) -> Clock:
        """The event's clock (``ranking.event.clock``): paired and complete rounds, the current round."""
        if self._clock is None:
            self._clock = clock_of(self.snapshot())
        return self._clock

    # -- questions the checks ask ---------------------------------------------------------

    def game(self, round_number: int, board: int) -> Game:
        if round_number not in self.paired_rounds():
            raise Refusal(Code.ROUND_NOT_PAIRED, round=round_number, paired=list(self.paired_rounds()))
        try:
            return self.games[(round_number, board)]
        except KeyError:
            boards = sorted(b for r, b in self.games if r == round_number)
            raise Refusal(Code.NO_SUCH_BOARD, round=round_number, board=board, boards=boards) from None

    def paired_rounds(self) -> list[int]:
        """The paired rounds (``ranking.event.clock.paired_rounds``): with a board, a team match or
        a pairing-allocated bye."""
        return list(paired_rounds(self.snapshot()))

    def check_round(self, round_number: int) -> None:
        """Refused unless ``round_number`` is one of the event's rounds (``Clock.may_pair``:
        any from 1 in a Swiss whose rounds are not known)."""
        clock = self.clock()
        if not clock.may_pair(round_number):
            raise Refusal(Code.ROUND_OUT_OF_RANGE, round=round_number,
                          rounds=clock.limit if clock.limit is not None else clock.next_round)

    def every_round_paired(self) -> bool:
        """A Swiss event's last round is paired (``Clock.may_pair``: never while its rounds are not
        known)."""
        clock = self.clock()
        return not self.base.system.is_round_robin and not clock.may_pair(clock.next_round)

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
            raise Refusal(Code.PLAYER_UNKNOWN, player=player, ids=sorted(self.ids))

    def written(self, result: Result) -> str:
        """A result in the event's own terms (``2-0`` under 2/1/0 scoring), as refusals carry it."""
        scoring = self.base.rules.scoring if self.base.rules is not None else CHESS
        return written_result(result, scoring)


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
    if needs_correction(game, result):
        if not correct:
            raise Refusal(Code.RESULT_PRESENT, round=round_number, board=board,
                          result=state.written(game.result), new=state.written(result))
        return Event(EventKind.CORRECTION, {**data, "previous": game.result.value})
    return Event(EventKind.FORFEIT if result.is_forfeit else EventKind.RESULT, data)


def match_result_events(state: TournamentState, round_number: int, board: int, results: Sequence[Result | str],
                        correct: bool = False) -> list[Event]:
    """The events recording the results of both games of a two-game match (VN 21.2) named by
    either of its boards, the results in the order its games are played (the first game first,
    ``ranking.event.matches.match_boards``); one result is one board's (``result_event``).  Two
    results for a board that is one game are refused (``NOT_A_MATCH``)."""
    if len(results) == 1:
        event = result_event(state, round_number, board, results[0], correct=correct)
        return [event] if event is not None else []
    state.game(round_number, board)  # an unknown round or board is refused as such
    boards = match_boards(state.snapshot(), round_number, board)
    if len(boards) != len(results):
        raise Refusal(Code.NOT_A_MATCH, round=round_number, board=board, results=len(results))
    recorded = (result_event(state, round_number, number, result, correct=correct)
                for number, result in zip(boards, results, strict=True))
    return [event for event in recorded if event is not None]


def lots_event(state: TournamentState, seed: str) -> Event | None:
    """The ``lots-drawn`` event recording ``seed`` (drawn at random by the store) as the event's
    ``lots_seed``, when its results have just become complete and a tie-break chain draws lots
    (``ranking.tiebreaks.lots.lots_to_draw``); None otherwise.  It is nobody's change: undo never takes it
    back, and a later correction keeps the seed drawn."""
    from ranking.standings.individual import default_rules  # the chains only when asked
    from ranking.tiebreaks.presets import get_team_preset, team_preset_name  # the chains only when asked

    base = state.base  # the settings as they stand (players, rules): no snapshot needed
    chains = [default_rules(base).tiebreaks]
    if base.teams:
        chains.append(base.team_tiebreaks or get_team_preset(team_preset_name(base)).rules.tiebreaks)
    if not lots_to_draw(base, chains):  # the chain draws no lots, or the seed is drawn already
        return None
    if not state.clock().finished:  # every round paired and decided (``ranking.event.clock``)
        return None
    return Event(EventKind.LOTS_DRAWN, {"seed": seed})


def needs_correction(game: Game, result: Result) -> bool:
    """Whether recording ``result`` on ``game`` replaces another result already recorded: a
    correction, which the arbiter must ask for (``tiebreak result --correct``, the bot's Yes
    button) and which the log keeps beside the result it replaces (docs/architecture.md#the-flow).
    The same result again is no correction: it records nothing."""
    return game.result is not None and game.result is not result


def forfeit_for_withdrawn(game: Game, withdrawn: set[int]) -> Result | None:
    """The result a game of ``withdrawn`` players must have (the game is a forfeit under the
    withdrawal rule, FIDE C.07 16.1, VN 21.5.2, docs/rules.md#withdrawals): None when neither
    player withdrew."""
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
    raise Refusal(Code.RESULT_OF_WITHDRAWN, player=player, after_round=state.withdrawals[player].after_round,
                  round=game.round, board=game.board, expected=expected.value)


def annulment_event(state: TournamentState, round_number: int, board: int) -> Event | None:
    game = state.game(round_number, board)
    if game.result is None:
        return None
    return Event(EventKind.ANNULMENT, {"round": round_number, "board": board, "previous": game.result.value})


def foul_event(state: TournamentState, round_number: int, board: int, side: str, count: int = 1) -> Event:
    if side not in ("white", "black"):
        raise Refusal(Code.FOUL_SIDE, side=side)
    if count < 1:
        raise Refusal(Code.FOUL_COUNT, count=count)
    state.game(round_number, board)
    return Event(EventKind.FOUL, {"round": round_number, "board": board, "side": side, "count": count})


def bye_event(state: TournamentState, round_number: int, player: int, kind: ByeKind) -> Event:
    """A bye entered for ``player`` (a requested half- or zero-point bye, a full-point bye)
    before its round is paired, or for a round a late entry missed (GHR 2.4: no points for
    those rounds unless the arbiter gives byes for them).  Round robins have none: a player
    who misses a round robin game loses it by forfeit."""
    state.require_player(player)
    state.check_round(round_number)
    if state.base.system.is_round_robin:
        raise Refusal(Code.BYE_IN_ROUND_ROBIN)
    if state.player_in_round(player, round_number) == "game":
        raise Refusal(Code.PLAYER_HAS_GAME, player=player, round=round_number)
    held = state.byes.get((round_number, player))
    if held is not None and held.kind is ByeKind.PAIRING:
        raise Refusal(Code.PLAYER_HAS_PAB, player=player, round=round_number)
    if round_number in state.paired_rounds() and round_number > state.joined.get(player, 0):
        raise Refusal(Code.BYE_ROUND_PAIRED, round=round_number)
    if held is not None and held.kind is kind:
        raise Refusal(Code.BYE_ALREADY, player=player, round=round_number)
    gone = state.withdrew_before(player, round_number)
    if gone is not None and kind is not ByeKind.ZERO:
        raise Refusal(Code.BYE_AFTER_WITHDRAWAL, player=player, after_round=gone)
    data = {"round": round_number, "player": player, "kind": kind.value}
    return Event(EventKind.BYE, {**data, "previous": held.kind.value} if held is not None else data)


def withdrawal_event(state: TournamentState, player: int, after_round: int | None = None) -> Event:
    """``player`` plays no more after ``after_round`` (by default the last round with a result,
    for the command line and the bot alike): refused if they already have a result (other than
    a forfeit loss) or a bye other than a zero-point one in a later round."""
    state.require_player(player)
    if after_round is None:
        after_round = state.snapshot().rounds_with_results
    if player in state.withdrawals:
        raise Refusal(Code.ALREADY_WITHDRAWN, player=player, after_round=state.withdrawals[player].after_round)
    clock = state.clock()
    if after_round < 0 or (after_round and not clock.may_pair(after_round)):
        raise Refusal(Code.WITHDRAWAL_ROUND, after_round=after_round,
                      rounds=clock.limit if clock.limit is not None else clock.next_round)
    for (number, _), game in sorted(state.games.items()):
        if number > after_round and player in (game.white, game.black) and game.result is not None:
            allowed = (forfeit_for_withdrawn(game, {player}), Result.DOUBLE_FORFEIT)
            if game.result not in allowed:
                raise Refusal(Code.WITHDRAWN_HAS_RESULT, player=player, round=number,
                              result=state.written(game.result))
    for (number, who), bye in sorted(state.byes.items()):
        if who == player and number > after_round and bye.kind is not ByeKind.ZERO:
            raise Refusal(Code.WITHDRAWN_HAS_BYE, player=player, round=number)
    return Event(EventKind.WITHDRAWAL, {"player": player, "after_round": after_round})


def return_event(state: TournamentState, player: int) -> Event:
    """A withdrawn player comes back: in a Swiss event they are paired again from the next round
    not yet paired; the rounds paired meanwhile stay as the withdrawal made them (a zero-point
    bye where they were not paired, C.07 16.1; the forfeit of a board already paired), now
    recorded.  A round robin takes a player back only before a round after the withdrawal is
    paired (its schedule keeps their games, which would otherwise be forfeits)."""
    state.require_player(player)
    withdrawal = state.withdrawals.get(player)
    if withdrawal is None:
        raise Refusal(Code.NOT_WITHDRAWN, player=player)
    paired = state.paired_rounds()
    later = [number for number in paired if number > withdrawal.after_round]
    if state.base.system.is_round_robin and later:
        raise Refusal(Code.RETURN_AFTER_PAIRING, player=player, after_round=withdrawal.after_round, round=later[0])
    if state.every_round_paired():
        raise Refusal(Code.EVERY_ROUND_PAIRED, rounds=state.base.rounds)
    byes, forfeits = [], []
    for number in later:
        if state.player_in_round(player, number) is None:
            byes.append([number, ByeKind.ZERO.value])
    for (number, board), game in sorted(state.games.items()):
        if number in later and player in (game.white, game.black) and game.result is None:
            gone = {pid for pid in (game.white, game.black) if state.withdrew_before(pid, number) is not None}
            forfeit = forfeit_for_withdrawn(game, gone)
            if forfeit is not None:
                forfeits.append([number, board, forfeit.value])
    return Event(EventKind.PLAYER_RETURNED, {"player": player, "after_round": withdrawal.after_round,
                                             "byes": byes, "forfeits": forfeits})


def player_values(state: TournamentState, name: str | None = None, rating: int | None = None,
                  title: str | None = None, federation: str | None = None,
                  club: str | None = None, fide_id: str | None = None) -> dict[str, Any]:
    """A player's values as a late entry or a correction gives them, checked so that a TRF
    export can still hold them: the name and club on one line, a rating 0-9999 (0 = unrated),
    a FIDE title (``ranking.event.players.TITLES``), a federation of up to three letters, a FIDE
    id of up to 11 digits (TRF record 001, columns 58-68; '' for none).  Only the values given
    (not None) are returned."""
    values: dict[str, Any] = {}
    if name is not None:
        name = name.strip()
        if not name or "\n" in name or "\r" in name:
            raise Refusal(Code.NAME_INVALID)
        values["name"] = name
    if rating is not None:
        if not 0 <= rating <= 9999:
            raise Refusal(Code.RATING_RANGE, rating=rating)
        values["rating"] = rating
    if title is not None:
        known = title_of(title)
        if known is None:
            raise Refusal(Code.TITLE_UNKNOWN, title=title.strip())
        values["title"] = known
    if federation is not None:
        federation = federation.strip().upper()
        if federation and not (federation.isascii() and federation.isalpha() and len(federation) <= 3):
            raise Refusal(Code.FEDERATION_CODE, federation=federation)
        values["federation"] = federation
    if club is not None:
        if "\n" in club or "\r" in club:
            raise Refusal(Code.CLUB_INVALID)
        values["club"] = club.strip()
    if fide_id is not None:
        fide_id = fide_id.strip()
        if fide_id and not FIDE_ID.fullmatch(fide_id):  # as the TRF reader reads columns 58-68
            raise Refusal(Code.FIDE_ID_INVALID, fide_id=fide_id)
        values["fide_id"] = fide_id
    return values


def player_added_event(state: TournamentState, name: str, rating: int = 0, federation: str = "",
                       club: str = "", title: str = "", fide_id: str = "") -> Event:
    """A late entry (GHR 2.4), with the next starting number (never one a removed player had).
    Refused in a round robin once round 1 is paired (its Berger tables are drawn for the
    field), in a Swiss event once its final round is paired, in team events, and for values a
    TRF could not hold (so every export reads back)."""
    base = state.base
    if base.system.is_round_robin and state.paired_rounds():
        raise Refusal(Code.LATE_ENTRY_ROUND_ROBIN)
    if base.teams:
        raise Refusal(Code.TEAM_ROSTER)
    if state.every_round_paired():
        raise Refusal(Code.LATE_ENTRY_FINAL_ROUND, rounds=base.rounds)
    values = player_values(state, name, rating, title, federation, club, fide_id)
    number = max(state.ids | state.retired, default=0) + 1
    player = {"id": number, "name": values["name"], "rating": values["rating"],
              "federation": values["federation"], "club": values["club"]}
    for optional in ("title", "fide_id"):  # written only when given: the log of older versions reads alike
        if values[optional]:
            player[optional] = values[optional]
    return Event(EventKind.PLAYER_ADDED, {"player": player})


def player_edited_event(state: TournamentState, player: int, **changes: Any) -> Event | None:
    """A correction of ``player``'s name, rating, title, federation, club or FIDE id (the values given
    that differ from theirs); None when nothing differs.  Until round 4 is paired it re-ranks the
    initial ranking list (GHR 2.3)."""
    state.require_player(player)
    if state.base.teams:
        raise Refusal(Code.TEAM_ROSTER)
    given = {key: value for key, value in changes.items() if value is not None}
    if not given:
        raise Refusal(Code.NOTHING_TO_CHANGE)
    values = player_values(state, **given)
    current = state.base.player(player)
    changed = {key: value for key, value in values.items() if getattr(current, key) != value}
    if not changed:
        return None
    return Event(EventKind.PLAYER_EDITED, {"player": player, "changes": changed,
                                           "previous": {key: getattr(current, key) for key in changed}})


def player_removed_event(state: TournamentState, player: int) -> Event:
    """``player`` taken out of the event before their first paired round (a no-show at the
    start, CXA 14.4), with their byes of rounds not paired yet; a round robin not started is
    then drawn for the players left.  Refused for a player in a paired round: they withdraw."""
    state.require_player(player)
    if state.base.teams:
        raise Refusal(Code.TEAM_ROSTER)
    paired = set(state.paired_rounds())
    for number in sorted(paired):
        if state.player_in_round(player, number) is not None:
            raise Refusal(Code.PLAYER_HAS_PLAYED, player=player, round=number)
    byes = [[number, bye.kind.value] for (number, who), bye in sorted(state.byes.items()) if who == player]
    record = {key: value for key, value in vars_of(state.base.player(player)).items() if value or key in
              ("id", "name", "rating", "federation", "club")}
    data: dict[str, Any] = {"player": record, "byes": byes}
    if player in state.withdrawals:  # withdrawn before playing: the withdrawal goes with them
        data["withdrawal"] = state.withdrawals[player].after_round
    return Event(EventKind.PLAYER_REMOVED, data)


def vars_of(player: Player) -> dict[str, Any]:
    """A player as the event log keeps one (``player-added``, ``player-removed``)."""
    return {key: getattr(player, key) for key in Player.__slots__}


def setting_event(state: TournamentState, key: str, value: Any) -> Event:
    """A changed setting (``ranking.event.settings``), checked against the tournament's state."""
    return settings_events(state, [(key, value)])[0]


def settings_events(state: TournamentState, changes: Sequence[tuple[str, Any]]) -> list[Event]:
    """The events of changed settings (one request), each checked against what the ones before
    it made; each keeps the settings before it, so undo can put them back."""
    tournament = state.snapshot()
    events = []
    for key, value in changes:
        before = settings_table(tournament)
        rounds = tournament.rounds
        tournament = check_setting(tournament, key, value)
        events.append(Event(EventKind.SETTING, {"key": key, "value": value, "before": before,
                                                "before_rounds": rounds}))
    return events


def pairing_event(state: TournamentState, round_number: int, games: Iterable[Game], byes: Iterable[Bye]) -> Event:
    """The event pairing ``round_number``: refused if the round is paired already, a player
    is unknown, withdrawn, or appears twice (in an event of two-game matches, VN 21.2: in
    more than the ``GAMES_PER_MATCH`` games of one match)."""
    state.check_round(round_number)
    if round_number in state.paired_rounds():
        raise Refusal(Code.ROUND_ALREADY_PAIRED, round=round_number)
    seen: set[int] = set()
    rows = []
    swiss = not state.base.system.is_round_robin
    matches: dict[frozenset[int], int] = {}  # games of each pair so far (two-game matches)
    in_matches = plays_matches(state.base)
    for board, game in enumerate(games, start=1):
        pair = frozenset((game.white, game.black))
        matches[pair] = matches.get(pair, 0) + 1
        again = in_matches and len(pair) == 2 and 1 < matches[pair] <= GAMES_PER_MATCH
        for player in (game.white, game.black):
            state.require_player(player)
            if player in seen and not again:
                raise Refusal(Code.PLAYER_TWICE, player=player, round=round_number)
            seen.add(player)
            held = state.byes.get((round_number, player))
            if held is not None:
                raise Refusal(Code.PLAYER_HAS_BYE, player=player, round=round_number, kind=held.kind.value)
            gone = state.withdrew_before(player, round_number)
            if swiss and gone is not None:  # a round robin's schedule keeps them: their games are forfeits
                raise Refusal(Code.PLAYER_WITHDRAWN, player=player, after_round=gone)
        rows.append([game.board or board, game.white, game.black])
    bye_rows = []
    for bye in byes:
        state.require_player(bye.player)
        if bye.player in seen:
            raise Refusal(Code.PLAYER_TWICE, player=bye.player, round=round_number)
        seen.add(bye.player)
        held = state.byes.get((round_number, bye.player))
        if held is not None and held.kind is not bye.kind:
            raise Refusal(Code.PLAYER_HAS_BYE, player=bye.player, round=round_number, kind=held.kind.value)
        if bye.kind is not ByeKind.ZERO and state.withdrew_before(bye.player, round_number) is not None:
            raise Refusal(Code.PLAYER_WITHDRAWN, player=bye.player,
                          after_round=state.withdrawals[bye.player].after_round)
        bye_rows.append([bye.player, bye.kind.value])
    return Event(EventKind.ROUND_PAIRED, {"round": round_number, "games": rows, "byes": bye_rows})


def round_to_unpair(state: TournamentState) -> tuple[int, int]:
    """The round un-pairing takes back (the latest paired) and how many of its boards have a
    result or a foul (``unpair_event`` refuses those unless forced; the bot asks about them
    first and confirms against this); a ``Refusal`` when no round is paired."""
    paired = state.paired_rounds()
    if not paired:
        raise Refusal(Code.NOTHING_PAIRED)
    number = paired[-1]
    entered = sum(1 for (r, _), game in state.games.items()
                  if r == number and (game.result is not None or game.fouls_white or game.fouls_black))
    return number, entered


def unpair_event(state: TournamentState, force: bool = False) -> Event:
    """The latest paired round taken back: its boards and the byes its pairing made (the
    pairing-allocated bye; a round robin's free round); requested byes stay.  A round with
    results or fouls is refused unless ``force``: the event keeps them, so undo brings them
    back."""
    number, entered = round_to_unpair(state)
    games = sorted((board, game) for (r, board), game in state.games.items() if r == number)
    if entered and not force:
        raise Refusal(Code.ROUND_HAS_RESULTS, round=number, count=entered)
    made = [[player, bye.kind.value] for (r, player), bye in sorted(state.byes.items())
            if r == number and (bye.kind is ByeKind.PAIRING or state.base.system.is_round_robin)]
    rows = [[board, game.white, game.black, game.result.value if game.result else None, game.fouls_white,
             game.fouls_black] for board, game in games]
    return Event(EventKind.ROUND_UNPAIRED, {"round": number, "games": rows, "byes": made})


def playoff_result_event(state: TournamentState, round_number: int, white: int, black: int,
                         result: Result | str) -> Event:
    """The event recording a play-off game (``ranking.standings.playoffs``): its play-off round (1, 2, ...),
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
        raise Refusal(Code.PLAYOFF_SELF, player=white)
    if round_number < 1:
        raise Refusal(Code.PLAYOFF_ROUND, round=round_number)
    previous = state.playoff_games.get(_playoff_key(round_number, white, black))
    data: dict[str, Any] = {"round": round_number, "white": white, "black": black, "result": result.value}
    if previous is not None and previous.result is not None:
        data["previous"] = [previous.white, previous.black, previous.result.value]
    return Event(EventKind.PLAYOFF_RESULT, data)


def _playoff_key(round_number: int, white: int, black: int) -> tuple[int, int, int]:
    return round_number, min(white, black), max(white, black)
