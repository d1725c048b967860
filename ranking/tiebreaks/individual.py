"""The individual tie-breaks: one small function per code, registered in ``REGISTRY``.

Scored tie-breaks return one value per player (index order of ``Scoresheet.players``);
ordering tie-breaks (DE, DEB, PREV, PS-D, LOT) split a group of tied players into tiers,
best first (``ranking.tiebreaks.registry`` has the entry kinds).  Each entry names the rule it
implements.  Adding a tie-break is one function and one decorator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ranking.event.rounds import NO_OPPONENT, Kind
from ranking.scoring.rules import ByeValue, Edition, Outcome, PreviousMode
from ranking.scoring.scoresheet import RoundRecord, Scoresheet
from ranking.standings.ordering import average_half_up, runs_of_equal
from ranking.standings.scoresheet_columns import engine_of
from ranking.tiebreaks.codes import TiebreakSpec, parse_code
from ranking.tiebreaks.lots import lots, results_seed
from ranking.tiebreaks.ratings import expected_score, rating_difference, round_half_up
from ranking.tiebreaks.registry import Registry, Value, cut_total

TYPE_CHECKING = False  # fractions loads only for the codes that use it (start-up time)
if TYPE_CHECKING:
    from fractions import Fraction

#: The individual tie-breaks by code (FIDE C.07, CXA, ZS, VN); ``REGISTRY.parse(code)`` reads a code.
REGISTRY: Registry[TiebreakSpec] = Registry(parse_code)
_register = REGISTRY.register


# -- helpers shared by several tie-breaks -------------------------------------------------

def _counts_as_game(sheet: Scoresheet, record: RoundRecord, spec: TiebreakSpec) -> bool:
    """A game over the board, or a forfeit treated as one (C.07 15.2 round robins, /P)."""
    return record.kind is Kind.PLAYED or sheet.forfeit_counts_as_played(record, spec.forfeits_played)


def _counts_for_ratings(sheet: Scoresheet, record: RoundRecord, spec: TiebreakSpec) -> bool:
    """Rated games over the board against a rated opponent (C.07 10; 2026 15.2: forfeits stay
    unplayed for rating tie-breaks even in round robins)."""
    forfeit_as_game = spec.forfeits_played and record.kind.is_forfeit and record.opponent != NO_OPPONENT
    if record.kind is not Kind.PLAYED and not forfeit_as_game:
        return False
    return record.rated and sheet.players[record.opponent].rating > 0


def _dummy_score(sheet: Scoresheet, record: RoundRecord, own: float, seen: list[float]) -> float:
    """The opponent's score counted for an unplayed round (C.07 16.4, docs/rules.md#options).

    2024 edition: the player's own score.  2026 edition: capped by the scheduled opponent's
    adjusted score for forfeits (16.4.1) and by draw points times rounds otherwise (16.4.2).
    """
    mode = sheet.options.bye_value_in_bh
    if mode is ByeValue.ZERO:
        return 0.0
    if mode is ByeValue.LOWEST_SCORE:
        return sheet.lowest_score
    if sheet.options.fide_edition is Edition.FIDE_2024:
        return own
    if record.kind.is_forfeit and record.opponent != NO_OPPONENT:
        return min(own, seen[record.opponent])
    return min(own, sheet.draw_value * sheet.rounds)


# An opponent's contribution: (value, fraction of the game won, voluntary unplayed round).
Contribution = tuple[float, float, bool]


def _contributions(sheet: Scoresheet, spec: TiebreakSpec, scores: list[float], seen: list[float],
                   records: list[list[RoundRecord]]) -> list[list[Contribution]]:
    """Per player, per round: the opponent's score as BH/SB/FB count it (C.07 8.1, 9.1, 16).

    The free round of a round robin contributes nothing: no 16.4 dummy (C.07 15.2-15.3,
    docs/rules.md#c07-readings)."""
    fide = sheet.options.bye_value_in_bh is ByeValue.FIDE
    round_robin = sheet.round_robin
    played = Kind.PLAYED
    result = []
    for me, rows in enumerate(records):
        own = scores[me]
        items = []
        for record in rows:
            kind = record.kind
            if kind is played:  # most rounds (a game played always has an opponent)
                items.append((seen[record.opponent], record.outcome / 2, False))
                continue
            if kind is Kind.PENDING or (round_robin and record.opponent == NO_OPPONENT):
                continue
            if kind.is_forfeit and sheet.forfeit_counts_as_played(record, spec.forfeits_played):
                items.append((seen[record.opponent], record.outcome / 2, False))
            else:
                items.append((_dummy_score(sheet, record, own, seen), record.outcome / 2, fide and record.vur))
        result.append(items)
    return result


def _cached_contributions(sheet: Scoresheet, spec: TiebreakSpec, fore: bool = False) -> list[list[Contribution]]:
    key = ("contributions", spec.forfeits_played, fore)
    cached = sheet.cache.get(key)
    if cached is None:
        if fore:
            records, scores, seen = _fore_view(sheet)
        else:
            records, scores, seen = sheet.records, sheet.scores, _seen_scores(sheet)
        cached = sheet.cache[key] = _contributions(sheet, spec, scores, seen, records)
    return cached  # type: ignore[return-value]


def _seen_scores(sheet: Scoresheet) -> list[float]:
    """Opponents' scores as BH and SB see them: C.07 16.3 adjusted, unless an option replaces
    articles 16.3-16.5 (C.07 16.6)."""
    return sheet.adjusted_scores if sheet.options.bye_value_in_bh is ByeValue.FIDE else sheet.scores


def _fore_view(sheet: Scoresheet) -> tuple[list[list[RoundRecord]], list[float], list[float]]:
    """Rounds, scores and scores seen by opponents as Fore Buchholz counts them (C.07 8.3,
    docs/rules.md#c07-readings): every game paired in the last round, whatever happened (forfeits, and a
    result not known yet, included), is a played draw against the scheduled opponent.  It is
    never a dummy nor a VUR, so a requested bye before it is category 16.2.3, not .5;
    last-round byes keep their points and their category."""
    key = "fore-view"
    cached = sheet.cache.get(key)
    if cached is not None:
        return cached  # type: ignore[return-value]
    draw = sheet.draw_value
    records = [list(rows) for rows in sheet.records]
    scores = list(sheet.scores)
    for me, rows in enumerate(records):
        if not rows or rows[-1].opponent == NO_OPPONENT:
            continue
        last = rows[-1]
        scores[me] += draw - last.points
        rows[-1] = last._replace(kind=Kind.PLAYED, outcome=Outcome.DRAW, points=draw, vur=False, category=0)
        if any(record.category == 5 for record in rows):
            rows[:] = Scoresheet._categorise([record[1:9] for record in rows], sheet.round_robin)
    if sheet.options.bye_value_in_bh is ByeValue.FIDE:
        seen = [score + sum(draw - record.points for record in rows if record.category == 5)
                for score, rows in zip(scores, records, strict=True)]
    else:
        seen = scores
    sheet.cache[key] = records, scores, seen
    return records, scores, seen




# -- Buchholz family (C.07 8) --------------------------------------------------------------

@_register("BH", "Buchholz", "FIDE C.07 8.1; CXA 14.3.1 对手分",
           "sum of the opponents' scores (unplayed rounds per art. 16)", modifiers="CMP")
def buchholz(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 8.1 with art. 16 for a Swiss's unplayed rounds (16.4 dummy, 16.5.1 cuts,
    Median-n low cuts first); in a round robin forfeits are games and the free round of an odd
    field adds nothing (15.2-15.3, docs/rules.md#c07-readings)."""
    return engine_of(sheet).buchholz(spec.cut, spec.median, spec.forfeits_played)


def _buchholz_totals(sheet: Scoresheet, spec: TiebreakSpec, contributions: list[list[Contribution]]) -> list[Value]:
    if not (spec.cut or spec.median):
        return [sum([item[0] for item in items]) for items in contributions]
    result: list[Value] = []
    simple_cut = spec.cut == 1 and not spec.median
    for items in contributions:
        values = [item[0] for item in items]
        if simple_cut and len(values) > max(sheet.options.keep_rounds, 0) and not any(item[2] for item in items):
            result.append(sum(values) - min(values))  # Cut-1 without VURs: drop the lowest (C.07 14.1)
        else:
            result.append(cut_total(sheet, spec, [(value, value, vur) for value, _, vur in items]))
    return result


@_register("FB", "Fore Buchholz", "FIDE C.07 8.3",
           "Buchholz with every paired game of the last round counted as a draw", modifiers="CMP")
def fore_buchholz(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 8.3: Buchholz with every game paired in the final round a played draw against
    the scheduled opponent, forfeits included (never a dummy nor a VUR); final-round byes keep
    their points and their 16.4 dummy, computed from the FB scores (docs/rules.md#c07-readings)."""
    return _buchholz_totals(sheet, spec, _cached_contributions(sheet, spec, fore=True))


@_register("AOB", "Average of opponents' Buchholz", "FIDE C.07 8.2",
           "average Buchholz of the opponents met over the board, to two decimals", modifiers="P")
def average_of_opponents_buchholz(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    plain = TiebreakSpec("BH", "BH", forfeits_played=spec.forfeits_played)
    from fractions import Fraction  # exact averages for this code only (start-up time)

    values = buchholz(sheet, plain)
    result: list[Value] = []
    for rows in sheet.records:
        met = [values[record.opponent] for record in rows if _counts_as_game(sheet, record, spec)]
        result.append(round_half_up(Fraction(sum(Fraction(v) for v in met)) / len(met), 2) if met else None)
    return result


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
    result: list[Value] = []
    round_robin = sheet.round_robin
    for rows in sheet.records:
        total = 0.0
        for record in rows:
            if record.kind is Kind.PENDING or (round_robin and record.opponent == NO_OPPONENT):
                continue  # a round robin's free round is no round of play (docs/rules.md#c07-readings)
            if record.opponent == NO_OPPONENT:
                difference = record.points - sheet.draw_value
            else:
                difference = record.outcome - Outcome.DRAW
            total += 1.0 if difference > 0 else 0.5 if difference == 0 else 0.0
        result.append(total)
    return result


@_register("FOUL", "Fouls", "CXA 14.1-14.3 犯规",
           "fouls recorded against the player (fewer is better)", lower_is_better=True)
def fouls(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return engine_of(sheet).fouls()


@_register("GP", "Game points", "CXA 13.2, 14.2 局分; VN 21.2 điểm ván",
           "total game points (differs from the score only under match scoring)")
def game_points(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return [sum(record.game_points for record in rows if record.kind is not Kind.PENDING)
            for rows in sheet.records]


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

def _rated_games(sheet: Scoresheet, spec: TiebreakSpec) -> list[list[RoundRecord]]:
    key = ("rated-games", spec.forfeits_played)
    cached = sheet.cache.get(key)
    if cached is None:
        played, players = Kind.PLAYED, sheet.players
        cached = sheet.cache[key] = [
            [record for record in rows
             if (record.kind is played and record.rated and players[record.opponent].rating > 0)
             or (record.kind is not played and _counts_for_ratings(sheet, record, spec))]
            for rows in sheet.records]
    return cached  # type: ignore[return-value]


@_register("ARO", "Average rating of opponents", "FIDE C.07 10.1",
           "average rating of the rated opponents met over the board, rounded half up "
           "(Cn drops the n lowest)", modifiers="CP", aliases=("AROC", "AROC-1"))
def average_rating_of_opponents(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    """FIDE C.07 10.1; ``AROC`` and ``AROC-1`` are read as ARO-C1 (``ranking.tiebreaks.codes``).
    Kept in the sheet's cache for TPR, which adds to it (a scorecard shows both)."""
    key = ("ARO", spec.cut, spec.forfeits_played)
    cached = sheet.cache.get(key)
    if cached is None:
        players = sheet.players
        cached = sheet.cache[key] = []
        for games in _rated_games(sheet, spec):
            ratings = sorted(players[record.opponent].rating for record in games)[spec.cut:]
            cached.append(average_half_up(ratings) if ratings else None)
    return list(cached)  # type: ignore[call-overload]


def _performance(sheet: Scoresheet, games: list[RoundRecord]) -> tuple[list[int], Fraction]:
    from fractions import Fraction  # the rating-based codes only (start-up time)

    ratings = [sheet.players[record.opponent].rating for record in games]
    return ratings, Fraction(sum(int(record.outcome) for record in games), 2)


@_register("TPR", "Tournament performance rating", "FIDE C.07 10.2",
           "ARO plus the FIDE B.02 8.1.1 rating difference for the fractional score", modifiers="P")
def tournament_performance(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    plain = TiebreakSpec("ARO", "ARO", forfeits_played=spec.forfeits_played)
    average = average_rating_of_opponents(sheet, plain)
    result: list[Value] = []
    for aro, games in zip(average, _rated_games(sheet, spec), strict=True):
        if aro is None:
            result.append(None)
            continue
        result.append(int(aro) + rating_difference(sum(int(record.outcome) for record in games), len(games)))
    return result


@_register("PTP", "Perfect tournament performance", "FIDE C.07 10.3",
           "lowest rating whose expected score (B.02 8.1.2) against the opponents reaches the score",
           modifiers="P")
def perfect_performance(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    result: list[Value] = []
    for games in _rated_games(sheet, spec):
        if not games:
            result.append(None)
            continue
        ratings, score = _performance(sheet, games)
        if score == 0:
            result.append(min(ratings) - 800)
        elif score == len(games):
            result.append(max(ratings) + 800)
        else:
            low, high = min(ratings) - 800, max(ratings) + 800
            while low < high:  # the expected score never falls as the rating rises
                middle = (low + high) // 2
                if sum(expected_score(middle - rating) for rating in ratings) >= score:
                    high = middle
                else:
                    low = middle + 1
            result.append(low)
    return result


def _average_of_opponents(sheet: Scoresheet, spec: TiebreakSpec, values: list[Value]) -> list[Value]:
    result: list[Value] = []
    for games in _rated_games(sheet, spec):
        known = [values[record.opponent] for record in games if values[record.opponent] is not None]
        result.append(average_half_up(known) if known else None)  # type: ignore[arg-type]
    return result


@_register("APRO", "Average performance rating of opponents", "FIDE C.07 10.4",
           "average TPR of the opponents, rounded half up", modifiers="P")
def average_performance_of_opponents(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return _average_of_opponents(sheet, spec, tournament_performance(sheet, spec))


@_register("APPO", "Average perfect performance of opponents", "FIDE C.07 10.5",
           "average PTP of the opponents, rounded half up", modifiers="P")
def average_perfect_performance_of_opponents(sheet: Scoresheet, spec: TiebreakSpec) -> list[Value]:
    return _average_of_opponents(sheet, spec, perfect_performance(sheet, spec))


# -- criteria that order a tied group ------------------------------------------------------

def _tiers_by_key(group: list[int], key: Callable[[int], Any]) -> list[list[int]]:
    """Split ``group`` into tiers of equal ``key``, highest key first."""
    return runs_of_equal(sorted(group, key=key, reverse=True), key)


@_register("DE", "Direct encounter", "FIDE C.07 6; CXA 14.1 直胜; VN 21.3",
           "results among the tied players only; if not all met, a player is placed only when "
           "the missing games could not change it (6.3)", orders=True, modifiers="P")
def direct_encounter(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    return engine_of(sheet).direct_encounter(group, spec.forfeits_played)


@_register("DEB", "Second mover in the direct game", "CXA 14.1 对局时后走 (inferred reading)",
           "of exactly two tied players who met once, the one who had black (moved second)",
           orders=True)
def direct_encounter_black(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    if len(group) != 2:
        return [group]
    first, second = group
    meetings = [record for record in sheet.records[first]
                if record.opponent == second and record.kind is Kind.PLAYED and record.first_mover is not None]
    if len(meetings) != 1:
        return [group]
    return [[first], [second]] if meetings[0].first_mover is False else [[second], [first]]


@_register("PREV", "Earlier rounds", "CXA 14.3.1 (tail)",
           "score after round n-1, then n-2, ... (prev_mode = round-result: points in round n, n-1, ...)",
           orders=True)
def earlier_rounds(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    if sheet.options.prev_mode is PreviousMode.ROUND_RESULT:
        def key(me: int) -> tuple[float, ...]:
            return tuple(record.points for record in reversed(sheet.records[me]))
    else:
        def key(me: int) -> tuple[float, ...]:
            return tuple(reversed(sheet.running_scores[me][:-1]))
    return _tiers_by_key(group, key)


@_register("PS-D", "Progressive score without the first rounds", "CXA 14.3.2 (tail)",
           "progressive score without round 1, then without rounds 1-2, and so on", orders=True)
def progressive_score_dropping(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    def key(me: int) -> tuple[float, ...]:
        running = sheet.running_scores[me]
        return tuple(sum(running[cut:]) for cut in range(1, len(running)))
    return _tiers_by_key(group, key)


@_register("LOT", "Drawing of lots", "FIDE C.07 4.2; 抽签; VN bốc thăm",
           "a reproducible draw: SHA-256 of the lots seed and the starting number; without a lots seed, "
           "the seed is a digest of the complete results", orders=True)
def drawing_of_lots(sheet: Scoresheet, spec: TiebreakSpec, group: list[int]) -> list[list[int]]:
    """C.07 4.2 (ZS 抽签, VN 21.3 bốc thăm): by ``Scoresheet.lots_seed``, the event's own seed or
    the digest of its results (``ranking.tiebreaks.lots``): never computable before the results are in."""
    return lots(group, sheet.lots_seed or results_seed(sheet.tournament), [player.id for player in sheet.players])
