"""The individual tie-breaks: one small function per code, registered in ``REGISTRY``.

Scored tie-breaks return one value per player (index order of ``Scoresheet.players``);
ordering tie-breaks (DE, DEB, PREV, PS-D, LOT) split a group of tied players into tiers,
best first (``ranking.tiebreaks.registry`` has the entry kinds).  Each entry names the rule it
implements and reads the scoresheet's options and the code's modifiers; the value itself is
computed by the standings engine on the scoresheet's columns (``ranking.standings.engine``,
``engine_of``), the one computation of every tie-break, which ``tiebreak standings FILE`` runs
on a file's columns too.  Adding a tie-break is a method of the engine, one function and one
decorator here.
"""

from __future__ import annotations

from ranking.scoring.scoresheet import Scoresheet
from ranking.standings.scoresheet_columns import engine_of
from ranking.tiebreaks.codes import TiebreakSpec, parse_code
from ranking.tiebreaks.lots import results_seed
from ranking.tiebreaks.registry import Registry, Value

#: The individual tie-breaks by code (FIDE C.07, CXA, ZS, VN); ``REGISTRY.parse(code)`` reads a code.
REGISTRY: Registry[TiebreakSpec] = Registry(parse_code)
_register = REGISTRY.register


# -- Buchholz family (C.07 8) --------------------------------------------------------------

@_register("BH", "Buchholz", "FIDE C.07 8.1; CXA 14.3.1 对手分",
           "sum of the opponents' scores (unplayed rounds per art. 16)", modifiers="CMP")
def buchholz(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 8.1 with art. 16 for a Swiss's unplayed rounds (16.4 dummy, 16.5.1 cuts,
    Median-n low cuts first); in a round robin forfeits are games and the free round of an odd
    field adds nothing (15.2-15.3, docs/rules.md#c07-readings)."""
    return engine_of(sheet).buchholz(spec.cut, spec.median, spec.forfeits_played)


@_register("FB", "Fore Buchholz", "FIDE C.07 8.3",
           "Buchholz with every paired game of the last round counted as a draw", modifiers="CMP")
def fore_buchholz(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 8.3: Buchholz with every game paired in the final round a played draw against
    the scheduled opponent, forfeits included (never a dummy nor a VUR); final-round byes keep
    their points and their 16.4 dummy, computed from the FB scores (docs/rules.md#c07-readings)."""
    return engine_of(sheet).fore_buchholz(spec.cut, spec.median, spec.forfeits_played)


@_register("AOB", "Average of opponents' Buchholz", "FIDE C.07 8.2",
           "average Buchholz of the opponents met over the board, to two decimals", modifiers="P")
def average_of_opponents_buchholz(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).average_of_opponents_buchholz(spec.forfeits_played)


# -- Sonneborn-Berger and Koya (C.07 9) ----------------------------------------------------

@_register("SB", "Sonneborn-Berger", "FIDE C.07 9.1; CXA 14.1 小分; VN 21.3 hệ số",
           "sum of each opponent's score times the share of the game won (1, 1/2, 0)", modifiers="CMP")
def sonneborn_berger(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 9.1; a cut drops the 14.1.1 least significant product, or the VUR product
    with the lowest contribution when it is not lower (16.5.1, docs/rules.md#c07-readings); a round robin's
    free round adds nothing (15.2-15.3)."""
    return engine_of(sheet).sonneborn_berger(spec.cut, spec.median, spec.forfeits_played)


@_register("KS", "Koya", "FIDE C.07 9.2",
           "points scored against opponents with at least half the maximum score "
           "(L±n moves that limit by n half-points)", modifiers="LP")
def koya(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 9.2, 14.5: the limit is half the points of the games each player is
    scheduled to play; in a round robin that is (N-1) games per cycle, not every round (the
    free round of an odd field is no game, docs/rules.md#c07-readings)."""
    return engine_of(sheet).koya(spec.limit, spec.forfeits_played)


# -- the player's own results (C.07 7) -----------------------------------------------------

@_register("WIN", "Wins", "FIDE C.07 7.1; CXA 14.1 胜局",
           "rounds in which a win's points were obtained, played or not")
def wins(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).wins()


@_register("WON", "Games won", "FIDE C.07 7.2", "games won over the board", modifiers="P")
def games_won(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 7.2; round-robin forfeit wins count in the 2026 edition only (15.2)."""
    return engine_of(sheet).own_results(True, False, spec.forfeits_played)


@_register("BPG", "Games with black", "FIDE C.07 7.3; CXA 14.1 后走局数",
           "games played over the board as second mover (black)", modifiers="P")
def games_with_black(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 7.3; a round-robin forfeit win with Black scheduled counts in the 2026 edition
    only, a forfeit loss in neither (15.2)."""
    return engine_of(sheet).own_results(False, True, spec.forfeits_played)


@_register("BWG", "Wins with black", "FIDE C.07 7.4; CXA 14.2 后走胜局; VN 21.3",
           "games won over the board as second mover (black)", modifiers="P")
def wins_with_black(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 7.4; round-robin forfeit wins with Black count in the 2026 edition only (15.2)."""
    return engine_of(sheet).own_results(True, True, spec.forfeits_played)


@_register("PS", "Progressive score", "FIDE C.07 7.5; CXA 14.3.2 累进分",
           "sum of the running scores after each round (Cn drops the first n)", modifiers="C")
def progressive_score(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).progressive(spec.cut)


@_register("REP", "Rounds one elected to play", "FIDE C.07 7.6 (GE before 2024-08)",
           "rounds minus half- and zero-point byes and forfeit losses", aliases=("GE",))
def rounds_elected_to_play(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).rounds_elected()


@_register("STD", "Standard points", "FIDE C.07 7.7 (2026)",
           "1 for each round scoring more than the opponent (or more than a draw unpaired), "
           "1/2 for each round scoring the same")
def standard_points(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 7.7 (2026); the free round of an odd round robin is no round (15.2-15.3)."""
    return engine_of(sheet).standard_points()


@_register("FOUL", "Fouls", "CXA 14.1-14.3 犯规",
           "fouls recorded against the player (fewer is better)", lower_is_better=True)
def fouls(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).fouls()


@_register("GP", "Game points", "CXA 13.2, 14.2 局分; VN 21.2 điểm ván",
           "total game points (differs from the score only under match scoring)")
def game_points(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).game_points()


@_register("TPN", "Pairing number", "FIDE C.07 7.8 (2026)",
           "the pairing number, the place in the initial ranking list (lower is better)", lower_is_better=True)
def pairing_number(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """The TPN (C.04.2 GHR 2): the place in starting-number order where the numbers are the
    pairing numbers, else the place in the initial ranking list (``ranking.event.players``)."""
    return engine_of(sheet).pairing_numbers()


@_register("RTNG", "Rating", "FIDE C.07 10.6 (2026)", "the player's own rating")
def own_rating(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return list(engine_of(sheet).table.ratings)


# -- ratings (C.07 10) ---------------------------------------------------------------------

@_register("ARO", "Average rating of opponents", "FIDE C.07 10.1",
           "average rating of the rated opponents met over the board, rounded half up "
           "(Cn drops the n lowest)", modifiers="CP", aliases=("AROC", "AROC-1"))
def average_rating_of_opponents(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 10.1; ``AROC`` and ``AROC-1`` are read as ARO-C1 (``ranking.tiebreaks.codes``)."""
    return engine_of(sheet).aro(spec.cut, spec.forfeits_played)


@_register("TPR", "Tournament performance rating", "FIDE C.07 10.2",
           "ARO plus the FIDE B.02 8.1.1 rating difference for the fractional score", modifiers="P")
def tournament_performance(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).performance(spec.forfeits_played)


@_register("PTP", "Perfect tournament performance", "FIDE C.07 10.3",
           "lowest rating whose expected score (B.02 8.1.2) against the opponents reaches the score",
           modifiers="P")
def perfect_performance(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).perfect_performance(spec.forfeits_played)


@_register("APRO", "Average performance rating of opponents", "FIDE C.07 10.4",
           "average TPR of the opponents, rounded half up", modifiers="P")
def average_performance_of_opponents(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).performance_of_opponents(spec.forfeits_played)


@_register("APPO", "Average perfect performance of opponents", "FIDE C.07 10.5",
           "average PTP of the opponents, rounded half up", modifiers="P")
def average_perfect_performance_of_opponents(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).perfect_performance_of_opponents(spec.forfeits_played)


# -- criteria that order a tied group ------------------------------------------------------

@_register("DE", "Direct encounter", "FIDE C.07 6; CXA 14.1 直胜; VN 21.3",
           "results among the tied players only; if not all met, a player is placed only when "
           "the missing games could not change it (6.3)", orders=True, modifiers="P")
def direct_encounter(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    return engine_of(sheet).direct_encounter(group, spec.forfeits_played)


@_register("DEB", "Second mover in the direct game", "CXA 14.1 对局时后走 (inferred reading)",
           "of exactly two tied players who met once, the one who had black (moved second)",
           orders=True)
def direct_encounter_black(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    return engine_of(sheet).second_mover(group)


@_register("PREV", "Earlier rounds", "CXA 14.3.1 (tail)",
           "score after round n-1, then n-2, ... (prev_mode = round-result: points in round n, n-1, ...)",
           orders=True)
def earlier_rounds(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    return engine_of(sheet).earlier_rounds(group, str(sheet.options.prev_mode))


@_register("PS-D", "Progressive score without the first rounds", "CXA 14.3.2 (tail)",
           "progressive score without round 1, then without rounds 1-2, and so on", orders=True)
def progressive_score_dropping(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    return engine_of(sheet).progressive_dropping(group)


@_register("LOT", "Drawing of lots", "FIDE C.07 4.2; 抽签; VN bốc thăm",
           "a reproducible draw: SHA-256 of the lots seed and the starting number; without a lots seed, "
           "the seed is a digest of the complete results", orders=True)
def drawing_of_lots(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    """C.07 4.2 (ZS 抽签, VN 21.3 bốc thăm): by ``Scoresheet.lots_seed``, the event's own seed or
    the digest of its results (``ranking.tiebreaks.lots``): never computable before the results are in."""
    return engine_of(sheet).drawing_of_lots(group, sheet.lots_seed or results_seed(sheet.tournament))
