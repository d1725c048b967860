"""Taking back a change: ``undo`` finds the caller's last change still in force and the events
that take it back, or refuses, naming the later change that depends on it.

A **change** is what one request made: a result (with the fouls written on its line), a
correction, a foul, a bye, a pairing, an un-pairing, a withdrawal, a return, a late entry, a
removal, a correction of a player, the settings of one ``tiebreak set``, a play-off result, an
arbiter added or removed, archiving.  It is **in force** while no later event takes it back
(their ``undo`` field names it).  Taking it back appends new events (the log keeps everything):

=====================  ==========================================================
the change             taken back by
=====================  ==========================================================
a result, a forfeit    an annulment (and its line's fouls taken back)
a correction           the correction back to the result before
a foul, a bye          the foul counted back; the bye cancelled (or the one before)
a pairing              un-pairing the round
an un-pairing          the round paired again as it was, results and fouls too
a withdrawal           the player's return, as if they had never left
a return               the withdrawal again (the byes and forfeits it recorded go)
a late entry           removing the player; a removal: entering them again
a player's correction  the values before
settings               the settings before (``ranking.formats.toml_settings.settings_table``)
=====================  ==========================================================

A later change in force by anyone that rests on it (a result on a board of the pairing, the
next round paired after a withdrawal, ...) makes the undo a ``Refusal`` (``UNDO_DEPENDS``)
that names it: that one must go first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ranking.event.log import (
    Event,
    EventKind,
    LoggedEvent,
    TournamentState,
    player_added_event,
    player_removed_event,
    unpair_event,
)
from ranking.event.refusals import Code, Refusal

__all__ = ["UNDOABLE", "Undo", "in_force", "last_change", "undo_change"]

#: The kinds of event a change is made of (the others only take changes back, or import).
UNDOABLE = frozenset({
    EventKind.RESULT, EventKind.FORFEIT, EventKind.CORRECTION, EventKind.FOUL, EventKind.BYE,
    EventKind.ROUND_PAIRED, EventKind.ROUND_UNPAIRED, EventKind.WITHDRAWAL, EventKind.PLAYER_RETURNED,
    EventKind.PLAYER_ADDED, EventKind.PLAYER_REMOVED, EventKind.PLAYER_EDITED, EventKind.SETTING,
    EventKind.PLAYOFF_RESULT, EventKind.ARBITER_ADDED, EventKind.ARBITER_REMOVED, EventKind.ARCHIVED,
    EventKind.RESTORED,
})
_RESULTS = (EventKind.RESULT, EventKind.FORFEIT, EventKind.CORRECTION)
_BOARD_CHANGES = (*_RESULTS, EventKind.ANNULMENT)


@dataclass(frozen=True)
class Undo:
    """The change taken back (its events, the main one first) and the events that do it."""

    change: tuple[LoggedEvent, ...]
    events: tuple[Event, ...]

    @property
    def entry(self) -> LoggedEvent:
        return self.change[0]


def undone_ids(event: Event) -> set[int]:
    """The events ``event`` takes back."""
    ids = {event.data["undo"]} if "undo" in event.data else set()
    return ids | set(event.data.get("also", ()))


def in_force(log: Sequence[LoggedEvent]) -> list[LoggedEvent]:
    """The changes of the log not taken back (and not themselves a taking back)."""
    undone: set[int] = set()
    for entry in log:
        undone |= undone_ids(entry.event)
    return [entry for entry in log if entry.id not in undone and "undo" not in entry.event.data
            and entry.event.kind in UNDOABLE]


def last_change(log: Sequence[LoggedEvent], actor: str) -> tuple[LoggedEvent, ...] | None:
    """``actor``'s last change in force, its events with the main one first: a result with the
    fouls written on its line; the settings of one request."""
    mine = [entry for entry in in_force(log) if entry.actor == actor]
    if not mine:
        return None
    last = mine[-1]
    if last.event.kind is EventKind.FOUL:  # a foul written on a result's line: the change is the result
        last = next((entry for entry in reversed(mine) if entry.event.kind in _RESULTS
                     and _same_request(entry, last) and _where(entry) == _where(last)), last)
    if last.event.kind in _RESULTS:
        fouls = tuple(entry for entry in mine if entry.event.kind is EventKind.FOUL and _same_request(entry, last)
                      and _where(entry) == _where(last))
        return (last, *fouls)
    if last.event.kind is EventKind.SETTING:
        together = [entry for entry in mine if entry.event.kind is EventKind.SETTING and _same_request(entry, last)]
        return tuple(together)
    return (last,)


def _same_request(a: LoggedEvent, b: LoggedEvent) -> bool:
    return (a.at, a.message_id, a.chat_id) == (b.at, b.message_id, b.chat_id)


def _where(entry: LoggedEvent) -> tuple[Any, Any]:
    return entry.event.data.get("round"), entry.event.data.get("board")


def undo_change(log: Sequence[LoggedEvent], state: TournamentState, actor: str) -> Undo:
    """The events taking back ``actor``'s last change (``state`` is the tournament now).
    Refused (``NOTHING_TO_UNDO``) when ``actor`` has none in force, and (``UNDO_DEPENDS``) when
    a later change in force depends on it."""
    change = last_change(log, actor)
    if change is None:
        raise Refusal(Code.NOTHING_TO_UNDO, actor=actor)
    main = change[0]
    later = [entry for entry in in_force(log) if entry.id > main.id and entry not in change]
    for entry in later:
        if _depends(main, entry, state):
            raise Refusal(Code.UNDO_DEPENDS, later=entry.id, later_kind=entry.event.kind.value, by=entry.actor,
                          round=entry.event.data.get("round"))
    return Undo(change, tuple(_taken_back(change, state)))


def _players_of(event: Event) -> set[int]:
    """Every player an event names."""
    data = event.data
    found: set[int] = set()
    player = data.get("player")
    if isinstance(player, int):
        found.add(player)
    elif isinstance(player, dict):
        found.add(player["id"])
    for key in ("white", "black"):
        if isinstance(data.get(key), int):
            found.add(data[key])
    for row in data.get("games", ()):
        found.update(row[1:3])
    if event.kind in (EventKind.ROUND_PAIRED, EventKind.ROUND_UNPAIRED):
        found.update(row[0] for row in data.get("byes", ()))
    return found


def _depends(main: LoggedEvent, later: LoggedEvent, state: TournamentState) -> bool:
    """Whether ``later`` (a change in force after ``main``) rests on ``main``."""
    kind, data = main.event.kind, main.event.data
    other, after = later.event.kind, later.event.data
    same_round = after.get("round") == data.get("round")
    if kind in _RESULTS or kind is EventKind.FOUL:
        if other is EventKind.ROUND_UNPAIRED:
            return same_round
        if other is EventKind.PLAYER_RETURNED:
            return any((number, board) == _where(main) for number, board, _ in after.get("forfeits", ()))
        return kind is not EventKind.FOUL and other in _BOARD_CHANGES and _where(later) == _where(main)
    if kind is EventKind.BYE:
        return (other is EventKind.ROUND_PAIRED and same_round) or (
            other is EventKind.BYE and same_round and after["player"] == data["player"])
    if kind is EventKind.ROUND_PAIRED:
        return other in (EventKind.ROUND_PAIRED, EventKind.ROUND_UNPAIRED) or (
            same_round and other not in (EventKind.SETTING, EventKind.PLAYER_EDITED)) or (
            other is EventKind.PLAYER_RETURNED and any(row[0] == data["round"] for row in after.get("byes", ())))
    if kind is EventKind.ROUND_UNPAIRED:
        players = _players_of(main.event)
        return other is EventKind.ROUND_PAIRED or (same_round and other is not EventKind.SETTING) or (
            other in (EventKind.PLAYER_REMOVED, EventKind.WITHDRAWAL) and bool(_players_of(later.event) & players))
    if kind is EventKind.WITHDRAWAL:
        player, gone = data["player"], data["after_round"]
        if other is EventKind.ROUND_PAIRED:
            return after["round"] > gone
        if other in (EventKind.PLAYER_RETURNED, EventKind.WITHDRAWAL, EventKind.BYE):
            return after.get("player") == player
        return other in _RESULTS and after["round"] > gone and player in _board_players(state, later)
    if kind is EventKind.PLAYER_RETURNED:
        player = data["player"]
        forfeited = {(number, board) for number, board, _ in data.get("forfeits", ())}
        return other is EventKind.ROUND_PAIRED or (
            other in (EventKind.WITHDRAWAL, EventKind.BYE, EventKind.PLAYER_REMOVED) and after.get("player") == player
        ) or (other in _BOARD_CHANGES and _where(later) in forfeited)
    if kind is EventKind.PLAYER_ADDED:
        return data["player"]["id"] in _players_of(later.event)
    if kind is EventKind.PLAYER_REMOVED:
        if other is not EventKind.ROUND_PAIRED:
            return False
        rounds = state.base.rounds
        return state.base.system.is_round_robin or (bool(rounds) and after["round"] >= rounds)
    if kind is EventKind.PLAYER_EDITED:
        return other is EventKind.PLAYER_EDITED and after["player"] == data["player"] and bool(
            set(after["changes"]) & set(data["changes"]))
    if kind is EventKind.SETTING:
        if other in (EventKind.SETTING, EventKind.SETTINGS_RESTORED):
            return True
        before_rounds = data.get("before_rounds", state.base.rounds)
        return other is EventKind.ROUND_PAIRED and after["round"] > before_rounds
    if kind is EventKind.PLAYOFF_RESULT:
        return other is EventKind.PLAYOFF_RESULT and after["round"] == data["round"] and {
            after["white"], after["black"]} == {data["white"], data["black"]}
    if kind in (EventKind.ARBITER_ADDED, EventKind.ARBITER_REMOVED):
        return other in (EventKind.ARBITER_ADDED, EventKind.ARBITER_REMOVED) and after["user_id"] == data["user_id"]
    return other in (EventKind.ARCHIVED, EventKind.RESTORED)


def _board_players(state: TournamentState, entry: LoggedEvent) -> tuple[int, ...]:
    game = state.games.get(_where(entry))  # type: ignore[arg-type]
    return (game.white, game.black) if game is not None else ()


def _taken_back(change: Sequence[LoggedEvent], state: TournamentState) -> list[Event]:
    """The events that take ``change`` back (its dependants were ruled out)."""
    main = change[0]
    kind, data = main.event.kind, main.event.data
    mark = {"undo": main.id}
    if kind in _RESULTS:
        where = {"round": data["round"], "board": data["board"], **mark}
        if kind is EventKind.CORRECTION:
            events = [Event(EventKind.CORRECTION, {**where, "result": data["previous"], "previous": data["result"]})]
        else:
            events = [Event(EventKind.ANNULMENT, {**where, "previous": data["result"]})]
        return events + [_foul_back(foul) for foul in change[1:]]
    if kind is EventKind.FOUL:
        return [_foul_back(main)]
    if kind is EventKind.BYE:
        return [Event(EventKind.BYE_CANCELLED, {"round": data["round"], "player": data["player"],
                                                "previous": data.get("previous"), **mark})]
    if kind is EventKind.ROUND_PAIRED:
        event = unpair_event(state, force=True)
        return [Event(EventKind.ROUND_UNPAIRED, {**event.data, **mark})]
    if kind is EventKind.ROUND_UNPAIRED:
        return [Event(EventKind.ROUND_PAIRED, {"round": data["round"], "games": data["games"],
                                               "byes": data.get("byes", []), **mark})]
    if kind is EventKind.WITHDRAWAL:
        return [Event(EventKind.PLAYER_RETURNED, {"player": data["player"], "after_round": data["after_round"],
                                                  "byes": [], "forfeits": [], **mark})]
    if kind is EventKind.PLAYER_RETURNED:
        player = data["player"]
        events = [Event(EventKind.WITHDRAWAL, {"player": player, "after_round": data["after_round"], **mark})]
        events += [Event(EventKind.BYE_CANCELLED, {"round": number, "player": player, "previous": None, **mark})
                   for number, _ in data.get("byes", ())]
        events += [Event(EventKind.ANNULMENT, {"round": number, "board": board, "previous": result, **mark})
                   for number, board, result in data.get("forfeits", ())]
        return events
    if kind is EventKind.PLAYER_ADDED:
        player = data["player"]["id"]
        removal = player_removed_event(state, player)  # its byes and withdrawal go too
        return [Event(EventKind.PLAYER_REMOVED, {**removal.data, **mark})]
    if kind is EventKind.PLAYER_REMOVED:
        if not state.base.system.is_round_robin:
            player_added_event(state, data["player"]["name"])  # refused where a late entry would be
        back = {key: data[key] for key in ("byes", "withdrawal") if key in data}
        return [Event(EventKind.PLAYER_ADDED, {"player": data["player"], **back, **mark})]
    if kind is EventKind.PLAYER_EDITED:
        return [Event(EventKind.PLAYER_EDITED, {"player": data["player"], "changes": data["previous"],
                                                "previous": data["changes"], **mark})]
    if kind is EventKind.SETTING:
        if "before" not in data:  # logged by a version that did not keep the settings before
            raise Refusal(Code.NOTHING_TO_UNDO, actor=main.actor)
        return [Event(EventKind.SETTINGS_RESTORED, {"table": data["before"], "rounds": data["before_rounds"],
                                                    "also": [entry.id for entry in change[1:]], **mark})]
    if kind is EventKind.PLAYOFF_RESULT:
        previous = data.get("previous")
        white, black, result = previous if previous else (data["white"], data["black"], None)
        return [Event(EventKind.PLAYOFF_RESULT, {"round": data["round"], "white": white, "black": black,
                                                 "result": result, **mark})]
    if kind in (EventKind.ARBITER_ADDED, EventKind.ARBITER_REMOVED):
        back = EventKind.ARBITER_REMOVED if kind is EventKind.ARBITER_ADDED else EventKind.ARBITER_ADDED
        return [Event(back, {"user_id": data["user_id"], **mark})]
    back = EventKind.RESTORED if kind is EventKind.ARCHIVED else EventKind.ARCHIVED
    return [Event(back, mark)]


def _foul_back(entry: LoggedEvent) -> Event:
    data = entry.event.data
    return Event(EventKind.FOUL, {**data, "count": -data.get("count", 1), "undo": entry.id})
