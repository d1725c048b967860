"""Standings: points, then the tie-break chain applied inside groups still tied (C.07 4.2).

>>> from ranking.event.model import Player, Game, Result, Tournament
>>> t = Tournament("Mini", (Player(1, "A"), Player(2, "B")), 1, (Game(1, 1, 2, Result.WHITE_WINS),))
>>> [(row.rank, row.player.name, row.points) for row in compute_standings(t).rows]
[(1, 'A', 1.0), (2, 'B', 0.0)]
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from ranking.errors import InputError
from ranking.event.model import Player, Tournament
from ranking.event.withdrawals import apply_withdrawals
from ranking.scoring.rules import Rules
from ranking.scoring.scoresheet import Scoresheet
from ranking.standings.ordering import runs_of_equal
from ranking.tiebreaks.codes import TiebreakSpec
from ranking.tiebreaks.individual import REGISTRY
from ranking.tiebreaks.lots import results_seed
from ranking.tiebreaks.presets import get_preset
from ranking.tiebreaks.registry import Value, rank_by_chain


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings; ``values`` maps each code as given to its value."""

    rank: int
    player: Player
    points: float
    values: dict[str, Value]


@dataclass(frozen=True)
class Standings:
    """The ranked rows; ``lots_seed`` is the seed the drawing of lots used (the ``lots_seed``
    option, or the digest of the results: ``ranking.tiebreaks.lots``), "" when the chain draws no lots."""

    tournament: Tournament
    rules: Rules
    after_round: int
    rows: tuple[StandingRow, ...]
    lots_seed: str = ""

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        return self.rules.tiebreaks

    def as_json(self) -> dict[str, Any]:
        """The JSON shape of docs/architecture.md#json (``tiebreak standings --json``)."""
        return {
            "tournament": self.tournament.name,
            "after_round": self.after_round,
            "points": self.rules.scoring.as_json(),
            "tiebreaks": list(self.tiebreaks),
            "standings": [
                {"rank": row.rank, "id": row.player.id, "name": row.player.name, "points": row.points,
                 "tiebreaks": dict(row.values)}
                for row in self.rows
            ],
        }


def default_rules(tournament: Tournament) -> Rules:
    """The tournament's own rules; a missing chain comes from the FIDE preset for its system
    (C.07 2.1: when regulations are silent the chief arbiter completes the list)."""
    preset = get_preset("fide-rr" if tournament.system.is_round_robin else "fide-swiss")
    rules = tournament.rules
    if rules is None:
        return preset
    if not rules.tiebreaks:
        return replace(rules, tiebreaks=preset.tiebreaks)
    return rules


def parse_chain(codes: tuple[str, ...] | list[str]) -> list[TiebreakSpec]:
    """Parse every code of a chain; a code given twice (``BH-C1`` and ``BH/C1``) is refused."""
    specs = [REGISTRY.parse(code) for code in codes]
    seen: dict[str, str] = {}
    for spec in specs:
        if spec.canonical in seen:
            raise InputError(f"tie-break {spec.code!r} appears twice in the chain (as {seen[spec.canonical]!r})")
        seen[spec.canonical] = spec.code
    return specs


def compute_standings(tournament: Tournament, rules: Rules | None = None,
                      after_round: int | None = None, *, sheet: Scoresheet | None = None) -> Standings:
    """Rank the players after ``after_round`` (default: the last round with a result).

    Withdrawals are applied first (``ranking.event.withdrawals``, docs/rules.md#withdrawals).
    ``sheet``: that scoresheet when the caller has it (``played_sheet(tournament, rules,
    after_round)``), so that the scorecards read the same one (``player_scorecards``).

    Players equal on points and on every tie-break share the better place (1, 2, 2, 4).
    """
    rules = rules or default_rules(tournament)
    specs = parse_chain(rules.tiebreaks)
    with collection_paused():
        return _rank(tournament, rules, specs, sheet or played_sheet(tournament, rules, after_round))


def played_sheet(tournament: Tournament, rules: Rules, after_round: int | None = None) -> Scoresheet:
    """The scoresheet of rounds 1 to ``after_round`` (default: the last round with a result once
    the withdrawals are applied) of the games as the standings count them, withdrawals applied
    (docs/rules.md#withdrawals): what the standings and the scorecards read."""
    return Scoresheet(apply_withdrawals(tournament, rules).tournament, rules, after_round)


def _rank(tournament: Tournament, rules: Rules, specs: list[TiebreakSpec], sheet: Scoresheet) -> Standings:
    """Points first, then each criterion inside the groups still tied."""
    draws_lots = any(spec.name == "LOT" for spec in specs)
    if draws_lots:
        sheet.lots_seed = rules.options.lots_seed or results_seed(tournament)
    scores = sheet.scores
    order = sorted(range(len(sheet.players)), key=lambda me: (-scores[me], sheet.players[me].id))
    groups = runs_of_equal(order, scores.__getitem__)
    groups, columns = rank_by_chain(groups, specs, REGISTRY, sheet, [player.id for player in sheet.players])
    rows = []
    position = 0
    for group in groups:
        for member in group:
            rows.append(StandingRow(
                rank=position + 1,
                player=sheet.players[member],
                points=scores[member],
                values={code: column[member] for code, column in columns.items()},
            ))
        position += len(group)
    return Standings(tournament, rules, sheet.rounds, tuple(rows), sheet.lots_seed if draws_lots else "")


@contextmanager
def collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while standings (or pages) are computed.

    Building a scoresheet allocates a tuple per player and round and no reference cycles, so the
    collector only rescans the (large) tournament again and again: a third of the time
    for 10,000 players.  Its previous state is restored.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
