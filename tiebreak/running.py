"""Running an event (docs/architecture.md#command-line): the use cases the command
line and the bot share, decided here once.

What a stored tournament is (``summary``, ``details``), a round's boards (``round_json``), the
pairing of the next round (``propose_pairing``: Berger tables for round robins, the FIDE Dutch
system for Swiss events), how a round paired elsewhere differs from the Dutch one
(``check_imported``), and taking back an arbiter's last entry (``undo_last``).  Everything works
on a ``Store`` and the core's values; nothing prints or talks to Telegram.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ranking.dutch import Pairing, RoundCheck, check_round, pair_round
from ranking.errors import InputError
from ranking.events import Event, EventKind, LoggedEvent, TournamentState, pairing_event, player_added_event
from ranking.model import Bye, ByeKind, Game, Player, Tournament
from ranking.presets import preset_of
from ranking.settings import check_setting
from ranking.standings import default_rules
from tiebreak.checks import check_names
from tiebreak.library import scheduled_pairing
from tiebreak.store import Source, Store

#: What ``undo_last`` can take back: an arbiter's results, corrections, fouls and byes.
UNDOABLE = (EventKind.RESULT, EventKind.FORFEIT, EventKind.CORRECTION, EventKind.FOUL, EventKind.BYE)


# -- what a tournament is -----------------------------------------------------------------------

def paired_rounds(state: TournamentState) -> list[int]:
    """The rounds with games or a pairing-allocated bye (requested byes entered ahead do not
    make a round paired)."""
    return sorted(state.rounds_with_games | {r for (r, _), bye in state.byes.items() if bye.kind is ByeKind.PAIRING})


def current_round(state: TournamentState) -> int | None:
    """The last paired round (None before round 1 is paired)."""
    rounds = paired_rounds(state)
    return rounds[-1] if rounds else None


def summary(store: Store, slug: str) -> dict[str, Any]:
    """``tiebreak list --json``'s entry: ``{"slug", "name", "game", "system", "players", "rounds",
    "paired_rounds", "archived"}``."""
    state = store.state(slug)
    base = state.base
    return {"slug": slug, "name": base.name, "game": base.game.value, "system": base.system.value,
            "players": len(base.players), "rounds": base.rounds, "paired_rounds": len(paired_rounds(state)),
            "archived": store.is_archived(slug)}


def details(store: Store, slug: str) -> dict[str, Any]:
    """``tiebreak show --json``: the summary, then ``rules`` (the preset, or null), ``tiebreaks``,
    ``scoring``, the options, the play-off rule, the current round, results still missing in it,
    withdrawals and the late entries' numbers are the players'."""
    state = store.state(slug)
    tournament = state.snapshot()
    rules = default_rules(tournament)
    current = current_round(state)
    open_boards = sorted(board for (number, board), game in state.games.items()
                         if number == current and game.result is None)
    scoring = rules.scoring
    return {
        **summary(store, slug),
        "rules": preset_of(rules) if tournament.rules is not None else None,
        "tiebreaks": list(rules.tiebreaks),
        "scoring": {"win": scoring.win, "draw": scoring.draw, "loss": scoring.loss,
                    **({"draw_first": scoring.draw_first} if scoring.draw_first is not None else {}),
                    **({"draw_second": scoring.draw_second} if scoring.draw_second is not None else {})},
        "options": {name: getattr(value, "value", value) for name, value in vars(rules.options).items()},
        "playoff": rules.playoff.as_json() if rules.playoff is not None else None,
        "current_round": current,
        "boards_without_result": open_boards,
        "withdrawals": [{"player": w.player, "after_round": w.after_round} for w in tournament.withdrawals],
    }


def round_json(state: TournamentState, number: int) -> dict[str, Any]:
    """``tiebreak round SLUG N --json`` (docs/architecture.md#json): ``{"round": N, "boards": [{"board", "white",
    "black", "result"}], "byes": [{"player", "kind"}]}``, starting numbers, results as in the
    TOML file (null while unfinished), bye kinds as the TOML file names them."""
    boards = [{"board": board, "white": game.white, "black": game.black,
               "result": game.result.value if game.result else None}
              for (r, board), game in sorted(state.games.items()) if r == number]
    byes = [{"player": player, "kind": bye.kind.word} for (r, player), bye in sorted(state.byes.items()) if r == number]
    return {"round": number, "boards": boards, "byes": byes}


def round_to_show(state: TournamentState, asked: int | None) -> int:
    """The round ``tiebreak round`` and the bot's /round show: ``asked``, else the current one;
    InputError saying which rounds exist otherwise."""
    rounds = state.base.rounds
    if asked is None:
        current = current_round(state)
        if current is None:
            raise InputError(f"no round is paired yet (the event has {rounds} rounds)")
        return current
    if not 1 <= asked <= max(rounds, 1):
        raise InputError(f"round {asked}: the event has {rounds} rounds")
    if asked not in state.rounds_with_games and not any(r == asked for r, _ in state.byes):
        raise InputError(f"round {asked} is not paired yet (the event has {rounds} rounds; "
                         f"paired: {_list(paired_rounds(state)) or 'none'})")
    return asked


# -- late entries and settings: what the store admits ---------------------------------------------

def late_entry(state: TournamentState, name: str, rating: int = 0, federation: str = "", club: str = "") -> Event:
    """The event adding a late entry (``ranking.events.player_added_event``), refused as an
    import with that player would be (``tiebreak.checks``: no control character, a name of at
    most 100 characters), so every export still imports."""
    event = player_added_event(state, name, rating, federation, club)
    check_names(replace(state.base, name="", players=(Player(**event.data["player"]),), teams=()))
    return event


def changed_settings(state: TournamentState, changes: Sequence[tuple[str, Any]]) -> list[Event]:
    """The events of ``tiebreak set`` (``ranking.settings``), each checked against what the ones
    before it made, and the result against what an import admits."""
    tournament = state.snapshot()
    for key, value in changes:
        tournament = check_setting(tournament, key, value)
    check_names(replace(tournament, players=(), teams=()))
    return [Event(EventKind.SETTING, {"key": key, "value": value}) for key, value in changes]


# -- pairing the next round ---------------------------------------------------------------------

@dataclass(frozen=True)
class Proposal:
    """The pairing of the next round as Tiebreak makes it, before it is stored: the games in
    board order and the byes (a pairing-allocated bye, a round robin's free round); who is not
    paired and why (Swiss); the boards of earlier rounds still without a result."""

    round: int
    games: tuple[Game, ...]
    byes: tuple[Bye, ...]
    system: str  # "berger" or "dutch"
    not_paired: tuple[tuple[int, str], ...] = ()
    unfinished: tuple[tuple[int, int], ...] = field(default=())  # (round, board)

    @property
    def digest(self) -> str:
        """Eight hex digits naming this very pairing (a confirmation button carries them)."""
        text = ";".join(f"{g.board}:{g.white}-{g.black}" for g in self.games)
        text += "|" + ";".join(f"{b.player}:{b.kind.value}" for b in self.byes)
        return hashlib.sha256(f"{self.round}|{text}".encode()).hexdigest()[:8]

    def event(self, state: TournamentState) -> Event:
        """The ``round-paired`` event storing it (checked against ``state``)."""
        return pairing_event(state, self.round, self.games, self.byes)


def propose_pairing(tournament: Tournament) -> Proposal:
    """The next round's pairing: the Berger tables for a round robin, the FIDE Dutch system
    (``ranking.dutch``, 2026 rules) for a Swiss.  InputError (one line) when every round is
    paired or the round cannot be paired: it says who cannot be paired and why."""
    unfinished = tuple(sorted((game.round, game.board) for game in tournament.games if game.result is None))
    if tournament.system.is_round_robin:
        number, games, byes = scheduled_pairing(tournament)
        return Proposal(number, tuple(games), tuple(byes), "berger", unfinished=unfinished)
    number = next_swiss_round(tournament)
    if tournament.rounds and number > tournament.rounds:
        raise InputError(f"every round is paired: the event has {tournament.rounds} rounds")
    pairing = pair_round(tournament, number)
    return Proposal(number, *dutch_games(pairing), "dutch",
                    not_paired=tuple((u.player, u.reason.value) for u in pairing.unpaired), unfinished=unfinished)


def next_swiss_round(tournament: Tournament) -> int:
    """The round after the last one with a game or a pairing-allocated bye."""
    used = [g.round for g in tournament.games] + [b.round for b in tournament.byes if b.kind is ByeKind.PAIRING]
    return max(used, default=0) + 1


def dutch_games(pairing: Pairing) -> tuple[tuple[Game, ...], tuple[Bye, ...]]:
    """A Dutch pairing as the games and the pairing-allocated bye the store records."""
    games = tuple(Game(pairing.round, board.white, board.black, None, board.number) for board in pairing.boards)
    byes = (Bye(pairing.round, pairing.bye, ByeKind.PAIRING),) if pairing.bye is not None else ()
    return games, byes


def check_imported(tournament: Tournament, number: int) -> RoundCheck | None:
    """How round ``number`` as ``tournament`` holds it (imported from another program) differs
    from the Dutch system's pairing; None for round robins and team events."""
    if tournament.system.is_round_robin or tournament.teams:
        return None
    return check_round(tournament, number)


# -- undo -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Undone:
    """What ``undo_last`` took back (the entry's event) and what the board or player has now:
    ``result`` (None: no result), ``fouls`` (white's, black's) or ``bye`` (None: no bye)."""

    entry: LoggedEvent
    round: int
    board: int | None = None
    player: int | None = None
    result: str | None = None
    fouls: tuple[int, int] = (0, 0)
    bye: ByeKind | None = None


def undo_last(store: Store, slug: str, actor: str, source: Source) -> Undone | None:
    """Take back ``actor``'s last entry still in force: a result (with the fouls entered on the
    same line), a correction (the previous result comes back), a foul, or a bye.  None when
    there is nothing to take back (or someone changed that board since)."""
    log = store.log(slug)
    undone = {entry.event.data.get("undo") for entry in log}
    mine = [entry for entry in log if entry.actor == actor and entry.id not in undone
            and "undo" not in entry.event.data and entry.event.kind in UNDOABLE]
    if not mine:
        return None
    last = mine[-1]
    if last.event.kind is EventKind.FOUL:  # a foul written on a result's line: the entry is the result
        last = next((entry for entry in reversed(mine) if entry.event.kind is not EventKind.FOUL
                     and entry.at == last.at and entry.message_id == last.message_id
                     and entry.event.data.get("board") == last.event.data["board"]
                     and entry.event.data.get("round") == last.event.data["round"]), last)
    data = last.event.data
    together = [entry for entry in mine if entry.event.kind is EventKind.FOUL and entry is not last
                and entry.at == last.at and entry.message_id == last.message_id
                and (entry.event.data["round"], entry.event.data["board"]) == (data.get("round"), data.get("board"))]

    def decide(state: TournamentState) -> list[Event]:
        kind = last.event.kind
        if kind is EventKind.BYE:
            held = state.byes.get((data["round"], data["player"]))
            if held is None or held.kind.value != data["kind"]:
                return []
            if data["round"] in state.rounds_with_games:
                raise InputError(f"the bye of player {data['player']} in round {data['round']} is part of that "
                                 "round's pairing: it cannot be taken back")
            return [Event(EventKind.BYE_CANCELLED, {"round": data["round"], "player": data["player"],
                                                    "previous": data.get("previous"), "undo": last.id})]
        game = state.game(data["round"], data["board"])
        if kind is EventKind.FOUL:
            return [_foul_back(last)]
        if game.result is None or game.result.value != data["result"]:
            return []  # changed since by someone else: nothing of this entry is left to undo
        where = {"round": data["round"], "board": data["board"], "undo": last.id}
        if kind is EventKind.CORRECTION:
            events = [Event(EventKind.CORRECTION, {**where, "result": data["previous"], "previous": data["result"]})]
        else:
            events = [Event(EventKind.ANNULMENT, {**where, "previous": data["result"]})]
        return events + [_foul_back(foul) for foul in together]

    if not store.append(slug, decide, source):
        return None
    state = store.state(slug)
    if last.event.kind is EventKind.BYE:
        held = state.byes.get((data["round"], data["player"]))
        return Undone(last, data["round"], player=data["player"], bye=held.kind if held else None)
    game = state.game(data["round"], data["board"])
    return Undone(last, data["round"], data["board"], result=game.result.value if game.result else None,
                  fouls=(game.fouls_white, game.fouls_black))


def _foul_back(entry: LoggedEvent) -> Event:
    data = entry.event.data
    return Event(EventKind.FOUL, {**data, "count": -data.get("count", 1), "undo": entry.id})


def _list(numbers: Sequence[int]) -> str:
    return ", ".join(str(number) for number in numbers)
