"""Running an event (docs/architecture.md#command-line): the use cases the command
line and the bot share, decided here once.

What a stored tournament is (``summary``, ``details``), a
round's boards (``round_json``), the pairing of the next round (``propose_pairing``: Berger
tables for round robins, the FIDE Dutch system by pairing numbers for Swiss events), how a
round paired elsewhere differs from the Dutch one (``check_imported``), the changes an arbiter
makes (late entries, corrections and removals of players, returns, un-pairing) and taking back
their last change of any kind (``undo_last``).  Everything works on a ``Store`` and the core's
values; nothing prints or talks to Telegram.  Refusals are the core's typed ``Refusal``s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ranking.event.clock import clock_of, decided_games
from ranking.event.log import (
    Event,
    LoggedEvent,
    TournamentState,
    pairing_event,
    player_added_event,
    player_edited_event,
    player_removed_event,
    return_event,
    settings_events,
    unpair_event,
)
from ranking.event.matches import as_matches, one_game_a_match, plays_matches
from ranking.event.model import Bye, ByeKind, Game, Player, Tournament
from ranking.event.refusals import Code, Refusal
from ranking.event.settings import apply_setting
from ranking.event.undo import Undo, undo_change
from ranking.pairing.dutch import Pairing, RoundCheck
from ranking.pairing.swiss import check_swiss, pair_swiss
from ranking.standings.individual import default_rules
from ranking.tiebreaks.presets import preset_of
from tiebreak.checks import check_names, check_player
from tiebreak.library import scheduled_pairing
from tiebreak.store import Source, Store

# -- what a tournament is -----------------------------------------------------------------------

def summary(store: Store, slug: str) -> dict[str, Any]:
    """``tiebreak list --json``'s entry: ``{"slug", "name", "game", "system", "players", "rounds",
    "paired_rounds", "archived"}``."""
    state = store.state(slug)
    base = state.base
    return {"slug": slug, "name": base.name, "game": base.game.value, "system": base.system.value,
            "players": len(base.players), "rounds": base.rounds, "paired_rounds": len(state.clock().paired),
            "archived": store.is_archived(slug)}


def details(store: Store, slug: str) -> dict[str, Any]:
    """``tiebreak show --json``: the summary, then ``rules`` (the preset, or null), ``tiebreaks``,
    ``scoring``, the options, the play-off rule, the event's clock (``ranking.event.clock``: the
    current round, the boards of it still without a result, the complete rounds, whether the
    event is finished), withdrawals and the seeding."""
    state = store.state(slug)
    tournament = state.snapshot()
    rules = default_rules(tournament)
    now = state.clock()
    current = now.current
    open_boards = list(now.open_in(current)) if current is not None else []
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
        "complete_rounds": list(now.complete),
        "finished": now.finished,
        "seeding": tournament.seeding.value,
        "withdrawals": [{"player": w.player, "after_round": w.after_round} for w in tournament.withdrawals],
    }


def round_json(state: TournamentState, number: int) -> dict[str, Any]:
    """``tiebreak round SLUG N --json`` (docs/architecture.md#json): ``{"round": N, "boards": [{"board", "white",
    "black", "result"}], "byes": [{"player", "kind"}]}``, starting numbers, results as in the
    TOML file (null while unfinished), bye kinds as the TOML file names them.  A board the
    withdrawal rule decides shows the forfeit it makes of it; a board a round robin's
    ``rr_withdrawal`` annuls also has ``"annulled": true``."""
    boards = []
    for decided in decided_games(state.snapshot(), number):
        game = decided.game
        if not decided.listed:
            continue
        entry: dict[str, Any] = {"board": game.board, "white": game.white, "black": game.black,
                                 "result": game.result.value if game.result else None}
        if decided.annulled:
            entry["annulled"] = True
        boards.append(entry)
    byes = [{"player": player, "kind": bye.kind.word} for (r, player), bye in sorted(state.byes.items()) if r == number]
    return {"round": number, "boards": boards, "byes": byes}


def round_to_show(state: TournamentState, asked: int | None) -> int:
    """The round ``tiebreak round`` and the bot's /round show: ``asked``, else the current one
    (``ranking.event.clock``); a ``Refusal`` saying which rounds exist otherwise."""
    paired = state.paired_rounds()
    if asked is None:
        current = state.clock().current
        if current is None:
            raise Refusal(Code.NOTHING_PAIRED)
        return current
    state.check_round(asked)  # one of the event's rounds (Clock.may_pair)
    if asked not in paired:
        raise Refusal(Code.ROUND_NOT_PAIRED, round=asked, paired=paired)
    return asked


# -- late entries and settings: what the store admits ---------------------------------------------

def late_entry(state: TournamentState, name: str, rating: int = 0, federation: str = "", club: str = "",
               title: str = "", fide_id: str = "") -> Event:
    """The event adding a late entry (``ranking.event.log.player_added_event``), refused as an
    import with that player would be (no control character, a name of at most 100
    characters), so every export still imports."""
    event = player_added_event(state, name, rating, federation, club, title, fide_id)
    check_player(Player(**event.data["player"]))
    return event


def player_edit(state: TournamentState, player: int, **changes: Any) -> list[Event]:
    """The correction of a player (``ranking.event.log.player_edited_event``), checked as a late
    entry is; no event when nothing changes."""
    event = player_edited_event(state, player, **changes)
    if event is None:
        return []
    check_player(replace(state.base.player(player), **event.data["changes"]))
    return [event]


def changed_settings(state: TournamentState, changes: Sequence[tuple[str, Any]]) -> list[Event]:
    """The events of ``tiebreak set`` (``ranking.event.log.settings_events``), each checked against
    what the ones before it made, and the result against what an import admits."""
    events = settings_events(state, changes)
    tournament = state.snapshot()
    for key, value in changes:
        tournament = apply_setting(tournament, key, value)
    check_names(replace(tournament, players=(), teams=()))
    return events


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
    (``ranking.pairing.dutch``, 2026 rules) by the pairing numbers (``ranking.pairing.swiss``) for a Swiss.
    A ``Refusal`` when every round is paired, an InputError (one line) when the round cannot be
    paired: it says who cannot be paired and why."""
    now = clock_of(tournament)
    unfinished = now.open_boards
    if not now.may_pair(now.next_round):
        raise Refusal(Code.EVERY_ROUND_PAIRED, rounds=now.limit)
    paired_as = one_game_a_match(tournament)  # a two-game match is paired as one pairing (VN 21.2)
    if tournament.system.is_round_robin:
        number, games, byes = scheduled_pairing(paired_as, now.next_round)
        return Proposal(number, _games_of(tournament, games), tuple(byes), "berger", unfinished=unfinished)
    number = now.next_round
    pairing = pair_swiss(paired_as, number)
    games, byes = dutch_games(pairing)
    return Proposal(number, _games_of(tournament, games), byes, "dutch",
                    not_paired=tuple((u.player, u.reason.value) for u in pairing.unpaired), unfinished=unfinished)


def _games_of(tournament: Tournament, pairing: Sequence[Game]) -> tuple[Game, ...]:
    """The games the pairing makes: one a pairing, or two a pairing, colours reversed, in an
    event of two-game matches (VN 21.2, ``ranking.event.matches``)."""
    return tuple(as_matches(pairing) if plays_matches(tournament) else pairing)


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
    return check_swiss(one_game_a_match(tournament), number)  # a two-game match: one pairing (VN 21.2)


# -- un-pairing, players, returns ------------------------------------------------------------------

def unpair(store: Store, slug: str, source: Source, force: bool = False) -> Event:
    """Take back the latest paired round (``ranking.event.log.unpair_event``): refused while it has
    results unless ``force``, which takes them back too (``undo`` brings them back)."""
    return store.append(slug, lambda state: [unpair_event(state, force)], source)[0].event


def remove_player(store: Store, slug: str, player: int, source: Source) -> Event:
    """Take ``player`` out before their first paired round (``ranking.event.log.player_removed_event``)."""
    return store.append(slug, lambda state: [player_removed_event(state, player)], source)[0].event


def return_player(store: Store, slug: str, player: int, source: Source) -> Event:
    """A withdrawn player comes back (``ranking.event.log.return_event``)."""
    return store.append(slug, lambda state: [return_event(state, player)], source)[0].event


# -- undo -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Undone:
    """What ``undo_last`` took back: the change's main event (``entry``), and the tournament
    after it (to say what the board, the player or the round holds now)."""

    entry: LoggedEvent
    tournament: Tournament

    @property
    def data(self) -> dict[str, Any]:
        return dict(self.entry.event.data)


def undo_last(store: Store, slug: str, actor: str, source: Source) -> Undone | None:
    """Take back ``actor``'s last change still in force, of any kind (``ranking.event.undo``).  None
    when this very request was applied before (a Telegram update delivered twice); a
    ``Refusal`` when there is nothing to take back, or a later change depends on it."""
    taken: list[Undo] = []

    def decide(state: TournamentState) -> list[Event]:
        taken.append(undo_change(store.log(slug), state, actor))
        return list(taken[-1].events)

    if not store.append(slug, decide, source):
        return None
    return Undone(taken[-1].entry, store.tournament(slug))
