"""The standings engine: every individual tie-break, computed on a crosstable's columns.

A ``ColumnSheet`` holds one tournament's rounds 1..n as columns (``ranking.formats.crosstable``: per
player a string of result letters, the opponents, the colours, the points of each round) and
what the tie-breaks share: scores, the C.07 16.2 categories and VURs, the 16.3 adjusted scores,
the 16.4 dummies of both editions, the contributions BH, FB and SB add up, the rated games of
the rating codes.  Each tie-break is one method citing its article; the chain is applied with
``ranking.standings.ordering``.  This is the only computation of the individual tie-breaks:

- the registry (``ranking.tiebreaks.individual``) computes each code on the engine of a
  scoresheet (``ranking.standings.scoresheet_columns.engine_of``): the standings of the bot, the
  site, the store and every file the model reads;
- ``tiebreak standings FILE --json`` reads the file straight into a crosstable and calls
  ``crosstable_standings``, which loads no model types (``dataclasses``, which imports
  ``inspect``, and the model's frozen dataclasses cost more to import than the ranking itself:
  docs/architecture.md#the-standings-engine).

``crosstable_standings`` gives exactly what ``ranking.standings.final.final_standings(...).as_json()``
gives for the same file and options, or None where the file must be read into the model first:
LOT (its seed is a digest of the model's results), match scoring or colour-dependent draws,
scoring values that are not quarters, an ``--after-round`` out of range (the model says why),
a cut that leaves no value (the model warns).
"""

from __future__ import annotations

import gc
from itertools import accumulate
from operator import add, mul, sub
from types import SimpleNamespace

from ranking.errors import InputError
from ranking.standings.ordering import (
    FIDE_RR_CHAIN,
    FIDE_SWISS_CHAIN,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    FULL_BYE,
    ORDER,
    PLAYED,
    REQUESTED_BYE,
    SCORE,
    apply_chain,
    average_half_up,
    categories,
    cut_leaves_nothing,
    cut_values,
    direct_encounter_tiers,
    runs_of_equal,
)
from ranking.tiebreaks.codes import TiebreakSpec, parse_code

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from ranking.formats.crosstable import Crosstable


#: The codes computed here and the modifier letters each takes: every code of the registry
#: (``ranking.tiebreaks.individual``) with its modifiers, but LOT, whose seed the model gives
#: (``tests/test_crosstable.py`` checks it).
CODES = {"BH": "CMP", "FB": "CMP", "AOB": "P", "SB": "CMP", "KS": "LP", "WIN": "", "WON": "P", "BPG": "P",
         "BWG": "P", "PS": "C", "REP": "", "STD": "", "FOUL": "", "GP": "", "TPN": "", "RTNG": "", "ARO": "CP",
         "TPR": "P", "PTP": "P", "APRO": "P", "APPO": "P", "DE": "P", "DEB": "", "PREV": "", "PS-D": ""}
_LOWER_IS_BETTER = frozenset({"FOUL", "TPN"})
#: The grammar's view of the codes computed here (``ranking.tiebreaks.codes.parse_code``): the
#: modifiers each takes, and ``GE``, the older name of ``REP``.
_KNOWN = {name: SimpleNamespace(modifiers=letters) for name, letters in {**CODES, "GE": CODES["REP"]}.items()}
_ALIASES = {"GE": "REP"}

#: Letters of a cell (``ranking.formats.crosstable``) by what they are.
_GAMES = frozenset("10=WDL")  # played over the board
_UNRATED = frozenset("WDL")  # ... and not rated
_FORFEITS = frozenset("+-")
_BYES = frozenset("UFHZ")
_CLASSES = {"1": PLAYED, "=": PLAYED, "0": PLAYED, "W": PLAYED, "D": PLAYED, "L": PLAYED, " ": PLAYED,
            "+": FORFEIT_WIN, "-": FORFEIT_LOSS, "U": FULL_BYE, "F": FULL_BYE, "H": REQUESTED_BYE,
            "Z": REQUESTED_BYE}
#: ``ranking.scoring.rules.Scoring()``'s fields but ``match``: the scoring of a file that sets none
#: (``tests/test_crosstable.py`` checks it against the model's).
CHESS_SCORING: dict[str, float | None] = {
    "win": 1.0, "draw": 0.5, "loss": 0.0, "draw_first": None, "draw_second": None, "pairing_bye": None,
    "full_bye": None, "half_bye": None, "zero_bye": 0.0, "forfeit_win": None, "forfeit_loss": None}


def parse_chain(codes: Sequence[str]) -> list[TiebreakSpec] | None:
    """Each code read as the registry reads it (``ranking.tiebreaks.codes.parse_code``); None when a
    code is not one computed here or would be refused (a code given twice, in any spelling: the
    model words the refusal).

    >>> parse_chain(["BH-C1", "KS/L+1/P"])
    [TiebreakSpec(code='BH-C1', name='BH', cut=1, median=0, limit=0, forfeits_played=False), \
TiebreakSpec(code='KS/L+1/P', name='KS', cut=0, median=0, limit=1, forfeits_played=True)]
    >>> parse_chain(["LOT"]) is None, parse_chain(["BH-C1", "BH/C1"]) is None, parse_chain([" BH"]) is None
    (True, True, True)
    """
    specs = []
    seen = set()
    for code in codes:
        if not code or code != code.strip():
            return None
        try:
            spec = parse_code(code, _KNOWN)
        except InputError:
            return None
        if spec.canonical in seen:
            return None
        seen.add(spec.canonical)
        specs.append(spec)
    return specs


def crosstable_standings(table: Crosstable, tiebreaks: Sequence[str] | None = None,
                         points: tuple[float, float, float] | None = None, edition: str | None = None,
                         after_round: int | None = None) -> dict[str, Any] | None:
    """The standings of ``table`` in the JSON shape of docs/architecture.md#json, as ``final_standings`` gives
    them for the file's own rules with ``tiebreaks`` (``--tiebreaks``), ``points`` (win, draw,
    loss; ``--points``), ``edition`` (``"2024"`` or ``"2026"``; ``--fide-edition``) and
    ``after_round`` (``--after-round``) applied; None where the model must compute them.

    >>> from ranking.formats.crosstable import read_trf
    >>> table = read_trf('''012 Mini
    ... 001    1      Alpha, A                          2100                             1.0    1     2 w 1
    ... 001    2      Beta, B                           2000                             0.0    2     1 b 0
    ... ''', "mini.trf")
    >>> rows = crosstable_standings(table, ["BH", "WIN"])["standings"]
    >>> [(row["rank"], row["name"], row["tiebreaks"]) for row in rows]
    [(1, 'Alpha, A', {'BH': 0.0, 'WIN': 1}), (2, 'Beta, B', {'BH': 1.0, 'WIN': 0})]
    """
    scoring = dict(CHESS_SCORING if table.scoring is None else table.scoring)
    if points is not None:
        scoring.update(win=points[0], draw=points[1], loss=points[2], draw_first=None, draw_second=None)
    if scoring["draw_first"] is not None or scoring["draw_second"] is not None:
        return None  # colour-dependent draws (CXA 13.3)
    if not all(value is None or _quarters(value) for value in scoring.values()):
        return None  # sums of other values depend on their order: the model adds in its own
    if tiebreaks is None:
        tiebreaks = table.chain or (FIDE_SWISS_CHAIN if table.system == "swiss" else FIDE_RR_CHAIN)
    specs = parse_chain(tiebreaks)
    if specs is None or edition not in (None, "2024", "2026"):
        return None
    if table.tpn is None and any(spec.name == "TPN" for spec in specs):
        return None  # pairing numbers from an initial ranking list: the model's
    last = table.rounds_with_results if after_round is None else after_round
    if last < 0 or last > max(table.rounds, table.rounds_with_results):
        return None
    if any(cut_leaves_nothing(cut, median, last) for _, _, cut, median, _, _ in specs):
        return None  # a cut that leaves no value: the model's path says so (tiebreak.notices.chain_warnings)
    enabled = gc.isenabled()
    gc.disable()  # nothing here makes a reference cycle: the collector would only rescan the rows
    try:
        return _standings(table, tiebreaks, specs, scoring, edition or "2026", last)
    finally:
        if enabled:
            gc.enable()


def _standings(table: Crosstable, tiebreaks: Sequence[str], specs: list[TiebreakSpec],
               scoring: dict[str, Any], edition: str, last: int) -> dict[str, Any]:
    sheet = ColumnSheet(table, scoring, edition, last)
    scores = sheet.scores
    ids = table.ids
    order = sorted(range(len(ids)), key=lambda me: (-scores[me], ids[me]))
    criteria = [sheet.criterion(spec) for spec in specs]
    groups, columns = apply_chain(runs_of_equal(order, scores.__getitem__), criteria, ids)
    codes = list(columns)
    values = list(zip(*columns.values(), strict=True)) if codes else [()] * len(ids)  # each player's, in chain order
    names = table.names
    rows = []
    position = 0
    for group in groups:
        for member in group:
            rows.append({"rank": position + 1, "id": ids[member], "name": names[member], "points": scores[member],
                         "tiebreaks": dict(zip(codes, values[member], strict=True))})
        position += len(group)
    return {"tournament": table.name, "after_round": last,
            "points": {"win": scoring["win"], "draw": scoring["draw"], "loss": scoring["loss"]},
            "tiebreaks": list(tiebreaks), "standings": rows}


def _added(totals: list[Any], columns: list[list[Any]]) -> list[Any]:
    """``totals`` plus each column in turn, element by element: each total is the ``sum`` of its
    row, added in the same order."""
    for column in columns:
        totals = list(map(add, totals, column))
    return totals


def _quarters(value: float) -> bool:
    """A finite multiple of 1/4 of moderate size (and no negative zero): sums of such values are
    exact in any order."""
    return abs(value) < 2**20 and (value * 4).is_integer() and not (value == 0 and str(value)[0] == "-")


class ColumnSheet:
    """A crosstable's rounds 1..``last`` as the tie-break rules see them (points, outcomes, C.07
    16.2 categories and VURs, scores and the 16.3 adjusted scores), and every individual
    tie-break computed on them, one method a code; ``criterion`` gives a parsed code's criterion
    for ``ranking.standings.ordering.apply_chain``."""

    def __init__(self, table: Crosstable, scoring: dict[str, Any], edition: str, last: int, *,
                 bye_value: str = "fide", lowest_score: float = 0.0, keep_rounds: int = 0, de_mode: str = "fide",
                 scores: list[float] | None = None, adjusted: list[float] | None = None) -> None:
        """``scoring`` holds ``ranking.scoring.rules.Scoring``'s fields (``match`` included: then a
        round's worth is in match points, ``Crosstable.points``); ``bye_value``, ``keep_rounds`` and
        ``de_mode`` are the options of docs/rules.md#options, ``lowest_score`` the field's lowest
        score (CXA 14.4, for ``bye_value = "lowest-score"``); ``scores`` and ``adjusted`` the
        scoresheet's totals where the table is one (``ranking.standings.scoresheet_columns.crosstable_of``)."""
        self.table, self.scoring, self.edition, self.last = table, scoring, edition, last
        self.bye_value, self.lowest_score = bye_value, lowest_score
        self.keep_rounds, self.de_mode = keep_rounds, de_mode
        win, draw, loss = scoring["win"], scoring["draw"], scoring["loss"]
        match = scoring.get("match")
        self.win, self.draw = (match[0], match[1]) if match else (win, draw)
        given = {"U": scoring["pairing_bye"], "F": scoring["full_bye"], "H": scoring["half_bye"],
                 "+": scoring["forfeit_win"], "-": scoring["forfeit_loss"]}
        defaults = {"U": win, "F": win, "H": draw, "+": win, "-": loss}
        points = {letter: defaults[letter] if value is None else value for letter, value in given.items()}
        points.update({"1": win, "W": win, "=": draw, "D": draw, "0": loss, "L": loss, " ": 0.0,
                       "Z": scoring["zero_bye"]})
        self.points_of = points
        outcome = {"1": 2, "W": 2, "+": 2, "=": 1, "D": 1, "0": 0, "L": 0, "-": 0, " ": 0}
        for letter in _BYES:  # a bye's outcome follows its points (Scoring.outcome_of)
            value = points[letter]
            outcome[letter] = 2 if value >= win else 1 if value > loss else 0
        self.outcome_of = outcome
        self.share = {letter: value / 2 for letter, value in outcome.items()}.__getitem__  # of the game won
        self.round_robin = table.system != "swiss"
        whole = last == table.rounds
        self.letters = table.results if whole else [row[:last] for row in table.results]
        self.opponents = table.opponents if whole else [row[:last] for row in table.opponents]
        count = len(self.letters)
        # A round at a time, every player at once: a few calls a round rather than a few a player.
        self.by_round = list(zip(*self.letters, strict=True)) if last and count else []
        #: ``points_by_round`` a player at a time (made when first asked, unless the table has them)
        self._point_rows: list[Sequence[float]] | None = None
        if table.points is None:
            self.points_by_round = [list(map(points.__getitem__, letters)) for letters in self.by_round]
        else:  # the scoresheet's, a player at a time
            self._point_rows = table.points if whole else [row[:last] for row in table.points]
            self.points_by_round = [list(column) for column in zip(*self._point_rows, strict=True)]
        self.scores = _added([0] * count, self.points_by_round) if scores is None else scores
        self.vurs = self._vurs()
        if adjusted is None:
            adjusted = list(self.scores)  # C.07 16.3: category-5 rounds count as draws for opponents
            for me, cats in enumerate(self._categories):
                if cats:
                    adjusted[me] = self.scores[me] + sum([self.draw - value for value, category
                                                          in zip(self.row_points(me), cats, strict=True)
                                                          if category == 5])
        #: Opponents' scores as BH, SB and KS see them: adjusted (C.07 16.3), unless an option
        #: replaces articles 16.3-16.5 (16.6).
        self.seen = adjusted if bye_value == "fide" else self.scores
        #: The players whose every round is a game over the board (their BH and SB are added up a
        #: round at a time); the others' are added up player by player (``contribution``).
        self.plain = [me for me, letters in enumerate(self.letters) if last and _GAMES.issuperset(letters)]
        self._contributions: dict[tuple[int, bool], tuple[list[float], list[float], list[bool] | None]] = {}
        self._games: dict[tuple[int, bool], list[tuple[int, float]]] = {}  # (opponent, points) of the games DE counts
        self._rated: dict[bool, list[list[tuple[int, int]]]] = {}  # (opponent, outcome) of the rated games
        self._running: list[list[float]] | None = None
        #: each player's outcomes a round (the scoresheet's, else the letters')
        self._outcome_rows: list[Sequence[int]] | None = None
        if table.outcomes is not None:
            self._outcome_rows = table.outcomes if whole else [row[:last] for row in table.outcomes]

    def row_points(self, me: int) -> Sequence[float]:
        """Player ``me``'s points in rounds 1..``last``."""
        if self._point_rows is None:
            self._point_rows = list(zip(*self.points_by_round, strict=True)) if self.last else [()] * len(self.letters)
        return self._point_rows[me]

    def row_outcomes(self, me: int) -> Sequence[int]:
        """Player ``me``'s outcomes (2 win, 1 draw, 0 loss) in rounds 1..``last``."""
        if self._outcome_rows is None:
            outcome_of = self.outcome_of.__getitem__
            self._outcome_rows = [list(map(outcome_of, letters)) for letters in self.letters]
        return self._outcome_rows[me]

    def _vurs(self) -> list[list[bool] | None]:
        """Each player's VURs (C.07 16.1: requested byes and forfeit losses; in a round robin only
        forfeit losses, its free round being no unplayed round), None for a player without; and,
        for players with requested byes, every round's 16.2 category (``self._categories``)."""
        vurs: list[list[bool] | None] = []
        cats: list[list[int] | None] = []
        for letters in self.letters:
            if not self.round_robin and ("H" in letters or "Z" in letters):
                found = categories([_CLASSES[letter] for letter in letters])
                cats.append([category for category, _ in found])
                vurs.append([vur for _, vur in found])
            else:
                cats.append(None)
                vurs.append([letter == "-" for letter in letters] if "-" in letters else None)
        self._categories = cats
        return vurs

    # -- the criteria ------------------------------------------------------------------------

    def criterion(self, spec: TiebreakSpec) -> tuple[str, str, Callable[..., Any], bool]:
        """The ``ranking.standings.ordering.apply_chain`` criterion of one parsed code."""
        code, name, cut, median, limit, played = spec
        name = _ALIASES.get(name, name)
        ordering = {"DE": lambda group: self.direct_encounter(group, played), "DEB": self.second_mover,
                    "PREV": self.earlier_rounds, "PS-D": self.progressive_dropping}.get(name)
        if ordering is not None:
            return code, ORDER, ordering, False
        compute = {
            "BH": lambda: self.buchholz(cut, median, played), "FB": lambda: self.fore_buchholz(cut, median, played),
            "AOB": lambda: self.average_of_opponents_buchholz(played),
            "SB": lambda: self.sonneborn_berger(cut, median, played), "KS": lambda: self.koya(limit, played),
            "WIN": self.wins, "WON": lambda: self.own_results(True, False, played),
            "BPG": lambda: self.own_results(False, True, played), "BWG": lambda: self.own_results(True, True, played),
            "PS": lambda: self.progressive(cut), "REP": self.rounds_elected, "STD": self.standard_points,
            "FOUL": self.fouls, "GP": self.game_points, "TPN": self.pairing_numbers,
            "RTNG": lambda: list(self.table.ratings), "ARO": lambda: self.aro(cut, played),
            "TPR": lambda: self.performance(played), "PTP": lambda: self.perfect_performance(played),
            "APRO": lambda: self.performance_of_opponents(played),
            "APPO": lambda: self.perfect_performance_of_opponents(played),
        }[name]
        return code, SCORE, compute, name in _LOWER_IS_BETTER

    def _counts_as_game(self, letter: str, opponent: int, played: bool = False) -> bool:
        """A game over the board, or a forfeit treated as one: a round robin's (C.07 15.2), or any
        with ``played`` (the ``/P`` modifier)."""
        return letter in _GAMES or ((self.round_robin or played) and opponent >= 0 and letter in _FORFEITS)

    def contribution(self, me: int, played: bool = False) -> tuple[list[float], list[float], list[bool] | None]:
        """Player ``me``'s opponents' scores as BH and SB count them, the share of each game won
        and the VURs (C.07 8.1, 9.1, 16.3-16.5).  Pending games and a round robin's free round
        add nothing; forfeits count as games in a round robin and with ``played`` (``/P``); any
        other unplayed round counts a dummy: the player's own score (2024), capped in 2026 by the
        scheduled opponent's adjusted score for forfeits (16.4.1) and by draw points times rounds
        otherwise (16.4.2); nothing or the field's lowest score under the ``bye_value`` option
        (docs/rules.md#options), and then no VUR is cut first (16.6)."""
        found = self._contributions.get((me, played))
        if found is not None:
            return found
        seen, round_robin, counts = self.seen, self.round_robin, self._counts_as_game
        letters, opponents, vurs = self.letters[me], self.opponents[me], self.vurs[me]
        own, cap = self.scores[me], self.draw * self.last
        fide = self.bye_value == "fide"
        values, fractions, flags = [], [], []
        for number, (letter, opponent, outcome) in enumerate(zip(letters, opponents, self.row_outcomes(me),
                                                                  strict=True)):
            if letter == " " or (round_robin and opponent < 0):
                continue
            if counts(letter, opponent, played):
                values.append(seen[opponent])
                flags.append(False)
            else:
                if not fide:
                    values.append(0.0 if self.bye_value == "zero" else self.lowest_score)
                elif self.edition == "2024":
                    values.append(own)
                elif opponent >= 0 and letter in _FORFEITS:
                    values.append(min(own, seen[opponent]))
                else:
                    values.append(min(own, cap))
                flags.append(fide and vurs is not None and vurs[number])
            fractions.append(outcome / 2)
        found = self._contributions[me, played] = (values, fractions, flags if any(flags) else None)
        return found

    def _plain_by_round(self) -> tuple[list[tuple[int, ...]], list[tuple[str, ...]]]:
        """The opponents and the letters of the players in ``plain``, a round at a time."""
        rows = self.plain
        if not rows:
            return [], []
        return (list(zip(*[self.opponents[me] for me in rows], strict=True)),
                list(zip(*[self.letters[me] for me in rows], strict=True)))

    def buchholz(self, cut: int, median: int, played: bool = False) -> list[Any]:
        """BH (C.07 8.1) with Cn/Mn (14, 16.5.1) and ``/P``.  The players in ``plain`` without a
        cut, or with Cut-1 (no VUR to cut: drop the lowest, C.07 14.1), are added up a round at a
        time, in the order ``sum`` adds; a cut stops at ``keep_rounds`` values
        (docs/rules.md#options)."""
        result: list[Any] = [None] * len(self.letters)
        rest = range(len(result))
        keep = max(self.keep_rounds, 0)
        if cut + median == 0 or (cut == 1 and not median and self.last > keep):
            opponents, _ = self._plain_by_round()
            seen = self.seen.__getitem__
            values = [list(map(seen, column)) for column in opponents]
            totals = _added([0] * len(self.plain), values)
            if cut and values:
                lowest = values[0]
                for column in values[1:]:
                    lowest = list(map(min, lowest, column))
                totals = list(map(sub, totals, lowest))
            for me, total in zip(self.plain, totals, strict=True):
                result[me] = total
            rest = [me for me in rest if result[me] is None]
        for me in rest:
            values, _, flags = self.contribution(me, played)
            if not (cut or median):
                result[me] = sum(values)
            elif cut == 1 and not median and len(values) > keep and flags is None:
                result[me] = sum(values) - min(values)  # Cut-1 without VURs: drop the lowest (C.07 14.1)
            else:
                vurs = flags or [False] * len(values)
                result[me] = cut_values([(value, value, vur) for value, vur in zip(values, vurs, strict=True)],
                                        cut + median, median, self.keep_rounds)
        return result

    def fore_buchholz(self, cut: int, median: int, played: bool = False) -> list[Any]:
        """FB (C.07 8.3, docs/rules.md#c07-readings): Buchholz with every game paired in the last
        round, whatever happened (forfeits and a result not known yet included), a played draw
        against the scheduled opponent: never a dummy nor a VUR, so a requested bye before it is
        category 16.2.3, not .5; last-round byes keep their points and their category."""
        last = self.last
        if not last:
            return self.buchholz(cut, median, played)
        letters, points, outcomes, scores = list(self.letters), [], [], list(self.scores)
        for me, row in enumerate(self.letters):
            values, results = list(self.row_points(me)), list(self.row_outcomes(me))
            if self.opponents[me][-1] >= 0:
                scores[me] += self.draw - values[-1]
                letters[me] = row[:-1] + "="
                values[-1], results[-1] = self.draw, 1
            points.append(values)
            outcomes.append(results)
        fore = self.table.with_rounds(last, letters, [row[:last] for row in self.table.colours], self.opponents, points,
                                      outcomes)
        return ColumnSheet(fore, self.scoring, self.edition, last, bye_value=self.bye_value,
                           lowest_score=self.lowest_score, keep_rounds=self.keep_rounds, de_mode=self.de_mode,
                           scores=scores).buchholz(cut, median, played)

    def average_of_opponents_buchholz(self, played: bool = False) -> list[Any]:
        """AOB (C.07 8.2): the average Buchholz of the opponents met over the board (forfeits too
        with ``/P``), exactly, rounded half up to two decimals."""
        from fractions import Fraction  # exact averages for this code only (start-up time)

        from ranking.tiebreaks.ratings import round_half_up  # this code only (start-up time)

        values = self.buchholz(0, 0, played)
        counts = self._counts_as_game
        result: list[Any] = []
        for letters, opponents in zip(self.letters, self.opponents, strict=True):
            met = [values[opponent] for letter, opponent in zip(letters, opponents, strict=True)
                   if counts(letter, opponent, played)]
            result.append(round_half_up(Fraction(sum(Fraction(value) for value in met)) / len(met), 2)
                          if met else None)
        return result

    def sonneborn_berger(self, cut: int, median: int, played: bool = False) -> list[Any]:
        """SB (C.07 9.1) with ``/P``: each opponent's score times the share of the game won; a cut
        drops the 14.1.1 least significant product, or the VUR product with the lowest
        contribution when it is not lower (16.5.1).  Without a cut the players in ``plain`` are
        added up a round at a time, in the order ``sum`` adds."""
        result: list[Any] = [None] * len(self.letters)
        rest = range(len(result))
        if not (cut or median):
            opponents, letters = self._plain_by_round()
            seen, share = self.seen.__getitem__, self.share
            products = [list(map(mul, map(seen, column), map(share, shares)))
                        for column, shares in zip(opponents, letters, strict=True)]
            for me, total in zip(self.plain, _added([0] * len(self.plain), products), strict=True):
                result[me] = total
            rest = [me for me in rest if result[me] is None]
        for me in rest:
            values, shares, flags = self.contribution(me, played)
            if not (cut or median):
                result[me] = sum(map(mul, values, shares))
                continue
            vurs = flags or [False] * len(values)
            items = [(value * share, (value, value * share), vur)
                     for value, share, vur in zip(values, shares, vurs, strict=True)]
            result[me] = cut_values(items, cut + median, median, self.keep_rounds)
        return result

    def progressive(self, cut: int) -> list[Any]:
        """PS (C.07 7.5): the sum of the running scores after each round, the first ``cut`` left
        out, added in round order."""
        return [sum(running[cut:]) for running in self.running_scores()]

    def wins(self) -> list[Any]:
        """WIN (C.07 7.1): rounds in which a win's points were obtained, played or not."""
        won = {letter: int(outcome == 2 and letter != " ") for letter, outcome in self.outcome_of.items()}.__getitem__
        return _added([0] * len(self.letters), [list(map(won, letters)) for letters in self.by_round])

    def own_results(self, won: bool, black: bool, played: bool = False) -> list[Any]:
        """WON (7.2), BPG (7.3) and BWG (7.4): games over the board (won, as second mover).  A
        round robin's forfeit win counts as a game in the 2026 edition only (15.2); with ``/P``
        every forfeit against a scheduled opponent counts, in both editions."""
        forfeit_wins = self.round_robin and self.edition == "2026"
        result = []
        for letters, shades, opponents in zip(self.letters, self.table.colours, self.opponents, strict=True):
            total = 0
            for letter, shade, opponent in zip(letters, shades, opponents, strict=False):
                if (letter in _GAMES or (opponent >= 0 and letter in _FORFEITS
                                         and (played or (forfeit_wins and letter == "+")))) and (
                        (not won or self.outcome_of[letter] == 2) and (not black or shade == "b")):
                    total += 1
            result.append(total)
        return result

    def rounds_elected(self) -> list[Any]:
        """REP (C.07 7.6): rounds minus the VURs."""
        return [self.last - (sum(vurs) if vurs is not None else 0) for vurs in self.vurs]

    def koya(self, limit: int, played: bool = False) -> list[Any]:
        """KS (C.07 9.2, 14.5): points against opponents with at least half the maximum score; in
        a round robin the games each player is scheduled to play make the maximum."""
        games = self.last
        if self.round_robin:
            games = max((sum(1 for opponent in row if opponent >= 0) for row in self.opponents), default=0)
        threshold = self.win * games / 2 + limit * self.win / 2
        seen, counts = self.seen, self._counts_as_game
        return [sum(value for value, letter, opponent in zip(points, letters, opponents, strict=True)
                    if counts(letter, opponent, played) and seen[opponent] >= threshold)
                for points, letters, opponents in zip(map(self.row_points, range(len(self.letters))), self.letters,
                                                      self.opponents, strict=True)]

    # -- ratings (C.07 10) ---------------------------------------------------------------------

    def rated_games(self, played: bool = False) -> list[list[tuple[int, int]]]:
        """Per player, the (opponent, outcome) of the games the rating tie-breaks count (C.07 10):
        rated games over the board against a rated opponent; with ``played`` (``/P``) rated
        forfeits against a scheduled rated opponent too (2026 15.2: without it forfeits stay
        unplayed for them even in a round robin)."""
        found = self._rated.get(played)
        if found is not None:
            return found
        ratings, flags = self.table.ratings, self.table.rated
        found = []
        for me, (letters, opponents) in enumerate(zip(self.letters, self.opponents, strict=True)):
            rated = flags[me] if flags is not None else None
            found.append([(opponent, outcome) for number, (letter, opponent, outcome)
                          in enumerate(zip(letters, opponents, self.row_outcomes(me), strict=True))
                          if (letter in _GAMES or (played and opponent >= 0 and letter in _FORFEITS))
                          and (rated[number] if rated is not None else letter not in _UNRATED)
                          and ratings[opponent] > 0])
        self._rated[played] = found
        return found

    def aro(self, cut: int, played: bool = False) -> list[Any]:
        """ARO (C.07 10.1): the average rating of the opponents of ``rated_games``, rounded half
        up; Cn drops the n lowest."""
        ratings = self.table.ratings
        result: list[Any] = []
        for games in self.rated_games(played):
            met = sorted(ratings[opponent] for opponent, _ in games)[cut:]
            result.append(average_half_up(met) if met else None)
        return result

    def performance(self, played: bool = False) -> list[Any]:
        """TPR (C.07 10.2): ARO plus the FIDE B.02 8.1.1 rating difference of the fractional score
        of ``rated_games``."""
        from ranking.tiebreaks.ratings import rating_difference  # the rating codes only (start-up time)

        return [None if aro is None else int(aro) + rating_difference(sum(outcome for _, outcome in games), len(games))
                for aro, games in zip(self.aro(0, played), self.rated_games(played), strict=True)]

    def perfect_performance(self, played: bool = False) -> list[Any]:
        """PTP (C.07 10.3): the lowest rating whose expected score (B.02 8.1.2) against the
        opponents of ``rated_games`` reaches the score; 800 below the lowest opponent for no
        point, 800 above the highest for every point.  In hundredths and half points: whole
        numbers (``expected_hundredths``)."""
        from ranking.tiebreaks.ratings import expected_hundredths  # the rating codes only (start-up time)

        ratings = self.table.ratings
        result: list[Any] = []
        for games in self.rated_games(played):
            if not games:
                result.append(None)
                continue
            met = [ratings[opponent] for opponent, _ in games]
            half_points = sum(outcome for _, outcome in games)
            if half_points == 0:
                result.append(min(met) - 800)
            elif half_points == 2 * len(games):
                result.append(max(met) + 800)
            else:
                low, high = min(met) - 800, max(met) + 800
                while low < high:  # the expected score never falls as the rating rises
                    middle = (low + high) // 2
                    if sum([expected_hundredths(middle - rating) for rating in met]) >= 50 * half_points:
                        high = middle
                    else:
                        low = middle + 1
                result.append(low)
        return result

    def performance_of_opponents(self, played: bool = False) -> list[Any]:
        """APRO (C.07 10.4): the average TPR of the opponents of ``rated_games``."""
        return self.average_of_opponents(self.performance(played), played)

    def perfect_performance_of_opponents(self, played: bool = False) -> list[Any]:
        """APPO (C.07 10.5): the average PTP of the opponents of ``rated_games``."""
        return self.average_of_opponents(self.perfect_performance(played), played)

    def average_of_opponents(self, values: list[Any], played: bool = False) -> list[Any]:
        """APRO (C.07 10.4) and APPO (10.5): the average of the opponents' ``values`` (their TPR
        or PTP) over ``rated_games``, rounded half up; None where no opponent has one."""
        result: list[Any] = []
        for games in self.rated_games(played):
            known = [values[opponent] for opponent, _ in games if values[opponent] is not None]
            result.append(average_half_up(known) if known else None)
        return result

    # -- the player's own values --------------------------------------------------------------

    def pairing_numbers(self) -> list[Any]:
        """TPN (C.07 7.8): each player's pairing number (``Crosstable.tpn``)."""
        return list(self.table.tpn or ())

    def fouls(self) -> list[Any]:
        """FOUL (CXA 14.1-14.3): fouls recorded against the player."""
        if self.table.fouls is None:
            return [0] * len(self.letters)
        return [sum(row[:self.last]) for row in self.table.fouls]

    def standard_points(self) -> list[Any]:
        """STD (C.07 7.7, 2026): 1 for each round scoring more than the opponent (unpaired: more
        than a draw), 1/2 for each round scoring the same; pending games and a round robin's
        free round are no rounds (15.2-15.3)."""
        result: list[Any] = []
        draw, round_robin = self.draw, self.round_robin
        for me, (letters, opponents) in enumerate(zip(self.letters, self.opponents, strict=True)):
            total = 0.0
            for letter, opponent, value, outcome in zip(letters, opponents, self.row_points(me), self.row_outcomes(me),
                                                        strict=True):
                if letter == " " or (round_robin and opponent < 0):
                    continue
                difference = value - draw if opponent < 0 else outcome - 1
                total += 1.0 if difference > 0 else 0.5 if difference == 0 else 0.0
            result.append(total)
        return result

    def game_points(self) -> list[Any]:
        """GP (CXA 13.2, 14.2; VN 21.2): the game points of the rounds with a result (under match
        scoring the games' points, not the match's: ``Crosstable.game_points``)."""
        rows = self.table.game_points
        result: list[Any] = []
        for me, letters in enumerate(self.letters):
            values = rows[me][:self.last] if rows is not None else self.row_points(me)
            result.append(sum(value for value, letter in zip(values, letters, strict=True) if letter != " "))
        return result

    # -- criteria that order a tied group -----------------------------------------------------

    def running_scores(self) -> list[list[float]]:
        """Each player's score after round 1, 2, ... (PREV, PS-D)."""
        if self._running is None:
            self._running = [list(accumulate(self.row_points(me), initial=0.0))[1:] for me in range(len(self.letters))]
        return self._running

    def second_mover(self, group: list[int]) -> list[list[int]]:
        """DEB (CXA 14.1, an inferred reading): of exactly two tied players who met once over the
        board with known colours, the one who moved second (black) first."""
        if len(group) != 2:
            return [group]
        first, second = group
        meetings = [shade for letter, opponent, shade in zip(self.letters[first], self.opponents[first],
                                                             self.table.colours[first], strict=False)
                    if opponent == second and letter in _GAMES and shade != "-"]
        if len(meetings) != 1:
            return [group]
        return [[first], [second]] if meetings[0] == "b" else [[second], [first]]

    def earlier_rounds(self, group: list[int], mode: str = "cumulative") -> list[list[int]]:
        """PREV (CXA 14.3.1, tail): the score after round n-1, then n-2, ...; ``mode``
        ``"round-result"``: the points scored in round n, n-1, ... (docs/rules.md#options)."""
        if mode == "round-result":
            def key(me: int) -> tuple[float, ...]:
                return tuple(reversed(self.row_points(me)))
        else:
            running = self.running_scores()

            def key(me: int) -> tuple[float, ...]:
                return tuple(reversed(running[me][:-1]))
        return runs_of_equal(sorted(group, key=key, reverse=True), key)

    def progressive_dropping(self, group: list[int]) -> list[list[int]]:
        """PS-D (CXA 14.3.2, tail): the progressive score without round 1, then without rounds
        1-2, and so on."""
        running = self.running_scores()

        def key(me: int) -> tuple[float, ...]:
            return tuple(sum(running[me][cut:]) for cut in range(1, len(running[me])))
        return runs_of_equal(sorted(group, key=key, reverse=True), key)

    def drawing_of_lots(self, group: list[int], seed: str) -> list[list[int]]:
        """LOT (C.07 4.2): the reproducible draw of ``ranking.tiebreaks.lots`` with ``seed``."""
        from ranking.tiebreaks.lots import lots  # only when lots are drawn (start-up time)

        return lots(group, seed, self.table.ids)

    @property
    def _bounded(self) -> bool:
        """Whether every game DE counts scores between 0 and a win.  Then a group of more than
        twice as many players as rounds is never split (C.07 6.3): each player met at most
        ``last`` of the others, so anyone's score plus a win for each game still missing is at
        least a win times (group - 1 - last) >= a win times ``last`` >= the leader's score."""
        counted = _GAMES | _FORFEITS if self.round_robin else _GAMES
        return all(0 <= self.points_of[letter] <= self.win for letter in counted)

    def direct_encounter(self, group: list[int], played: bool = False) -> list[list[int]]:
        """DE (C.07 6) on the games among ``group`` (forfeits too with ``/P``); ``de_mode``
        ``"all-met"`` separates no one unless every tied player met every other (ZS,
        docs/rules.md#options)."""
        all_met = self.de_mode == "all-met"
        if len(group) > 2 * self.last and self._bounded:
            return [group]  # too many games missing for anyone to be placed (see _bounded)
        games = self._games
        counts = self._counts_as_game
        for me in group:
            if (me, played) not in games:
                games[me, played] = [(opponent, value) for value, letter, opponent
                                     in zip(self.row_points(me), self.letters[me], self.opponents[me], strict=True)
                                     if counts(letter, opponent, played)]
        members = set(group)
        totals: dict[tuple[int, int], list[float]] = {}
        for me in group:
            for opponent, value in games[me, played]:
                if opponent in members:
                    pair = totals.setdefault((me, opponent), [0.0, 0])
                    pair[0] += value
                    pair[1] += 1
        return direct_encounter_tiers(group, totals, self.win, all_met)

