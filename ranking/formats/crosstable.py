"""A tournament's crosstable, the standings engine's columns (``ranking.standings.engine``): one
row per player (starting-number order), one cell per round, no model objects; read straight
from TRF or tournament TOML text here, or made from a scoresheet
(``ranking.standings.scoresheet_columns.crosstable_of``).

``tiebreak standings FILE --json`` reads the file here, so that a command that reads a file,
ranks it and prints the standings loads neither ``ranking.event.model`` nor the registries.
Reading is strict in the other direction:
``read_trf`` and ``read_toml`` return None for anything they do not read exactly as
``ranking.formats.trf_read.parse_trf`` and ``ranking.formats.tomlfile.parse_tournament_toml`` would (a malformed
line, a record that changes the standings and is not read here, teams, a TOML layout other than
the one Tiebreak writes), and the caller reads the file with those instead, so every error
message is theirs and the standings never differ.

A cell is a letter and an opponent.  Games: ``1 = 0`` (rated), ``W D L`` (not rated), ``+ -``
(forfeit won, lost), blank (no result yet); byes (no opponent): ``U`` pairing-allocated,
``F`` full-point, ``H`` half-point, ``Z`` zero-point (also a round with nothing recorded, and
the rounds after a withdrawal).

>>> table = read_trf('''012 Mini
... 001    1      Alpha, A                          2100                             1.0    1     2 w 1
... 001    2      Beta, B                           2000                             0.0    2     1 b 0
... ''', "mini.trf")
>>> table.ids, table.results, table.opponents, table.colours
([1, 2], ['1', '0'], [[1], [0]], ['w', 'b'])
"""

from __future__ import annotations

import gc
import re

from ranking.errors import InputError
from ranking.formats.trf_fields import (
    LINE_BREAK,
    MAX_ID,
    chain_record,
    check_size,
    parse_162,
    parse_rounds,
    parse_xxs,
    scoring_fields,
    system_named,
    system_scheduled,
)

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    from collections.abc import Iterator

#: The most cells (players x rounds) a crosstable is made of: a file declaring more (9999 rounds,
#: or one line of 9999 rounds among thousands of players) is read by the model, whose size is that
#: of the file's entries, rather than made into a table of gigabytes.
MAX_CELLS = 2_000_000
#: TRF team records: the team reader checks them against the players, so a file with any of
#: them is read by ``ranking.formats.trf_read``.
_TEAM_TAGS = frozenset({"013", "310", "320", "330", "300", "362"})


class Crosstable:
    """Every player's rounds 1..``rounds``.

    ``ids``, ``names``, ``ratings`` and ``federations`` are per player in starting-number order;
    ``results[p]`` is a string with player ``p``'s letter for each round and ``colours[p]`` one
    with ``w``, ``b`` or ``-``; ``opponents[p][r]`` is the opponent's index in round ``r + 1``, or
    -1; ``fouls[p][r]`` the fouls recorded against the player (None when the file records none).
    ``finished_round`` is the last round with a game result, ``last_bye`` the last round with a
    bye the file records (not counting rounds with nothing recorded); ``system`` is ``"swiss"``,
    ``"round-robin"`` or ``"double-round-robin"``; ``scoring`` holds the ``ranking.scoring.rules.Scoring``
    fields the file sets (None: it sets none) and ``chain`` its tie-break codes.  Built once by a
    reader and not changed afterwards.
    """

    __slots__ = ("chain", "colours", "federations", "finished_round", "fouls", "game_points", "has_games", "ids",
                 "last_bye", "name", "names", "opponents", "outcomes", "points", "rated", "ratings", "results",
                 "rounds", "scoring", "system", "tpn")

    def __init__(self, name: str, ids: list[int], names: list[str], ratings: list[int], federations: list[str],
                 rounds: int, results: list[str], colours: list[str], opponents: list[list[int]],
                 fouls: list[list[int]] | None, system: str, scoring: dict[str, float | None] | None,
                 chain: tuple[str, ...], last_bye: int) -> None:
        self.name, self.ids, self.names, self.ratings, self.federations = name, ids, names, ratings, federations
        self.rounds, self.results, self.colours, self.opponents, self.fouls = rounds, results, colours, opponents, fouls
        self.system, self.scoring, self.chain = system, scoring, chain
        #: Per player and round, as a scoresheet decided them (``crosstable_of``); None for a table
        #: read from a file, whose letters and scoring say them.
        self.points: list[list[float]] | None = None
        self.game_points: list[list[float]] | None = None
        self.rated: list[list[bool]] | None = None
        #: ... and the outcomes (2 win, 1 draw, 0 loss): a letter says a game's, but a forfeit loss may
        #: be a drawn match of forfeits (one won by each side) under match scoring
        self.outcomes: list[list[int]] | None = None
        #: Each player's pairing number (C.04.2 GHR 2): the place in starting-number order where the
        #: starting numbers are the pairing numbers (every TRF); None where the model must work
        #: them out (a TOML file seeded by rating).
        self.tpn: list[int] | None = list(range(1, len(ids) + 1))
        finished = 0
        for row, letters in zip(opponents, results, strict=True):
            for number in range(len(row) - 1, finished - 1, -1):  # only rounds after the latest so far
                if row[number] >= 0 and letters[number] != " ":
                    finished = number + 1
                    break
        self.finished_round, self.last_bye = finished, last_bye
        self.has_games = any(max(row, default=-1) >= 0 for row in opponents)

    def with_rounds(self, rounds: int, results: list[str], colours: list[str], opponents: list[list[int]],
                    points: list[list[float]], outcomes: list[list[int]]) -> Crosstable:
        """The same players with these ``rounds`` rounds: their letters, colours, opponents, points
        and outcomes (FB's view of the last round, ``ranking.standings.engine``)."""
        table = Crosstable(self.name, self.ids, self.names, self.ratings, self.federations, rounds, results, colours,
                           opponents, self.fouls, self.system, self.scoring, self.chain, self.last_bye)
        table.points, table.game_points, table.rated, table.tpn = points, self.game_points, self.rated, self.tpn
        table.outcomes = outcomes
        return table

    @property
    def rounds_with_results(self) -> int:
        """The last round in which a game has a result (``Tournament.rounds_with_results``): 0
        before the first; a tournament of byes alone counts its last bye."""
        if self.finished_round:
            return self.finished_round
        return 0 if self.has_games else self.last_bye


# -- TRF --------------------------------------------------------------------------------------------

def read_trf(text: str, source: str) -> Crosstable | None:
    """The crosstable of a TRF-16 / TRF-2026 file, or None where ``ranking.formats.trf_read.parse_trf``
    must read it (it would raise an error, the file has team records, or a line is laid out
    in a way this reader does not check)."""
    enabled = gc.isenabled()
    gc.disable()  # the rows make no reference cycles: the collector would only rescan them
    try:
        return _read_trf(text, source)
    finally:
        if enabled:
            gc.enable()


def _read_trf(text: str, source: str) -> Crosstable | None:
    if "\r" in text:
        text = LINE_BREAK.sub("\n", text)
    name: str | None = None
    declared = 0
    scoring_values: dict[str, float] = {}
    scoring_line = None
    chains: dict[str, tuple[str, ...]] = {}
    system_texts: dict[str, str] = {}
    lines: list[str] = []
    withdrawn: list[tuple[int, int]] = []  # ``### tiebreak withdrawn`` records: (player, after round)
    fouls: list[tuple[int, ...]] = []  # ``### tiebreak fouls`` records: round, white, black, their fouls
    rules: tuple[dict[str, float | None], tuple[str, ...]] | None = None  # a ``### tiebreak rules`` record
    try:
        rows = text.removeprefix("\ufeff").split("\n")
        check_size(rows, source)
        for number, raw in enumerate(rows, start=1):
            line = raw.rstrip(" \t")
            if line.startswith("001 "):
                lines.append(line)
                continue
            if line.startswith(_EXTRA):  # Tiebreak's own records (ranking.formats.trf_extras)
                kind, _, rest = line[len(_EXTRA):].partition(" ")
                if kind == "withdrawn":
                    words = rest.split()
                    if len(words) != 2 or not all(word.isdigit() for word in words):
                        return None  # ranking.formats.trf_extras refuses it
                    withdrawn.append((int(words[0]), int(words[1])))
                elif kind == "rules":
                    rules = _plain_rules(rest)
                    if rules is None:
                        return None
                elif kind == "game":
                    if rest.strip() not in ("chess", "xiangqi"):
                        return None  # ranking.formats.trf_extras refuses it
                elif kind == "fouls":
                    words = rest.split()
                    if len(words) != 5 or not all(word.isdigit() for word in words):
                        return None  # ranking.formats.trf_extras refuses it
                    fouls.append(tuple(int(word) for word in words))
                elif kind not in ("slug", "club"):  # a play-off game changes what the model ranks
                    return None
                continue
            if not line.strip() or line.startswith("###"):
                continue
            tag = line[:3]
            if len(tag) < 3 or any(ch.isspace() for ch in tag) or (len(line) > 3 and line[3] != " "):
                return None
            if tag == "012":
                if name is None:
                    name = line[4:].strip()
            elif tag in ("XXR", "142"):
                rounds = parse_rounds(tag, line[4:], number, source)
                if declared and declared != rounds:
                    return None
                declared = rounds
            elif tag in ("XXS", "162"):
                scoring_values.update((parse_xxs if tag == "XXS" else parse_162)(line[4:], number, source))
                scoring_line = number
            elif tag in ("202", "212"):
                codes, _ = chain_record(tag, line[4:])  # a primary score matters to team files only
                if codes:
                    chains[tag] = codes
            elif tag in ("092", "192"):
                system_texts.setdefault(tag, line[4:].strip())
            elif tag in _TEAM_TAGS or tag == "001":
                return None
        scoring = scoring_fields(scoring_values, source, scoring_line) if scoring_values else None
    except InputError:
        return None
    if not lines:
        return None
    players = _read_players(lines, declared, dict(withdrawn))
    if players is None:
        return None
    ids, names, ratings, federations, results, colours, opponents, rounds, last_bye = players
    index = {pid: number for number, pid in enumerate(ids)} if withdrawn or fouls else {}
    if withdrawn and not _withdrawals_fit(withdrawn, index, opponents, rounds):
        return None
    fouls_of = _fouls_of(fouls, index, opponents, rounds) if fouls else None
    if fouls and fouls_of is None:
        return None
    system = None
    for tag in ("092", "192"):
        if tag in system_texts:
            system = system_named(system_texts[tag])
            if system is not None:
                break
    if system is None:
        games = (sum(map(len, opponents)) - sum(row.count(-1) for row in opponents)) // 2
        system = system_scheduled(len(ids), games, _pairs(opponents))
    chain = chains.get("212", chains.get("202", ()))
    if rules is not None:  # it replaces the rules the other records give (ranking.formats.trf_extras)
        scoring, chain = rules
    return Crosstable(name or "", ids, names, ratings, federations, rounds, results, colours, opponents, fouls_of,
                      system, scoring, chain, last_bye)


#: Colours as ``ranking.formats.trf_read`` reads them (blank is ``-``), and the letters a game or a bye may
#: record once upper-cased (a bye's ``+ 1`` are a full-point bye, ``=`` a half-point one and
#: ``- 0`` a zero-point one; blank is nothing recorded).
_COLOUR_CASE = str.maketrans("WB ", "wb-")
_COLOURS = frozenset("wb-")
_GAME_LETTERS = frozenset("10=WDL+- ")
_BYE_LETTERS = {"U": "U", "F": "F", "H": "H", "Z": "Z", "+": "F", "1": "F", "=": "H", "-": "Z", "0": "Z", " ": " "}
#: The results and the colours the two players of one game may record (``ranking.formats.trf_read._game``).
_PAIRED = frozenset({("1", "0"), ("0", "1"), ("=", "="), ("0", "0"), ("=", "0"), ("0", "="), ("W", "L"),
                     ("L", "W"), ("D", "D"), ("L", "L"), ("D", "L"), ("L", "D"), ("+", "-"), ("-", "+"),
                     ("-", "-"), (" ", " ")})
_COLOURED = frozenset({("w", "b"), ("b", "w"), ("-", "-")})
_SEXES = frozenset(" abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_EXTRA = "### tiebreak "  # ranking.formats.trf_extras.MARK (that module loads the model)
_NO_OPPONENT = ("    ", "   0", "  00", " 000", "0000")


def _right_aligned(width: int, blank: bool, item: str = "[0-9]", least: int = 1) -> str:
    """A regular expression for a field of ``width`` columns holding ``item`` characters
    right-aligned (at least ``least`` of them), or blank."""
    forms = [" " * (width - length) + f"{item}{{{length}}}" for length in range(least, width + 1)]
    return "(?:" + "|".join(forms + ([" " * width] if blank else [])) + ")"


#: The fields of columns 1-91 of a ``001`` line that ``ranking.formats.trf_read._parse_player`` checks, as
#: Tiebreak, Swiss-Manager and Vega write them (right-aligned numbers, letters or blank): one
#: pattern for the whole column of every line at once.  Other layouts ``ranking.formats.trf_read`` may accept
#: are read by it.
_HEAD_FIELDS = {"start": (5, 8), "rating": (49, 52), "federation": (54, 56), "fide_id": (58, 68),
                "points": (81, 84), "rank": (86, 89)}
_POINTS = "|".join(
    " " * (4 - len(form)) + "".join("[0-9]" if char == "9" else re.escape(char) for char in form)
    for form in ("9", "99", "999", "9999", "-9", "-99", "-999", "9.9", "99.9", "9.99", "-9.9"))
_HEAD_PATTERNS = {
    "start": re.compile(f"{_right_aligned(4, False)}*"),
    "rating": re.compile(f"{_right_aligned(4, True)}*"),
    "federation": re.compile("(?:[A-Za-z]{3}|   )*"),
    "fide_id": re.compile(f"{_right_aligned(11, True)}*"),
    "points": re.compile(f"(?:{_POINTS}|    )*"),
    "rank": re.compile(f"{_right_aligned(4, True)}*"),
}


def _column(heads: str, first: int, last: int) -> list[str]:
    """Columns ``first``..``last`` (1-based) of every line of ``heads`` (91 columns a line)."""
    return list(map("".join, zip(*(heads[column - 1::91] for column in range(first, last + 1)), strict=True)))


#: ``ranking.scoring.rules.Options()`` as ``ranking.formats.trf_extras`` writes them (a test keeps them
#: equal): a ``### tiebreak rules`` record with other options is left to the model.
_DEFAULT_OPTIONS = {"fide_edition": "2026", "bye_value_in_bh": "fide", "keep_rounds": 0, "de_mode": "fide",
                    "prev_mode": "cumulative", "lots_seed": "", "rr_withdrawal": "keep"}


def _plain_rules(text: str) -> tuple[dict[str, float | None], tuple[str, ...]] | None:
    """The scoring and chain of a ``### tiebreak rules`` record, when its options are the
    defaults and it has no play-off rule; None otherwise (the model reads it)."""
    import json  # only for a file Tiebreak wrote

    from ranking.standings.engine import CHESS_SCORING  # the engine's: loaded to rank the file anyway

    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("options") != _DEFAULT_OPTIONS or data.get("playoff") is not None:
        return None
    values, chain = data.get("scoring"), data.get("tiebreaks")
    if not isinstance(values, dict) or not set(values) <= set(CHESS_SCORING) or not all(
            type(value) in (int, float) for value in values.values()):
        return None
    if not isinstance(chain, list) or not all(isinstance(code, str) for code in chain):
        return None
    return {**CHESS_SCORING, **{key: float(value) for key, value in values.items()}}, tuple(chain)


def _fouls_of(records: list[tuple[int, ...]], index: dict[int, int], opponents: list[list[int]],
              rounds: int) -> list[list[int]] | None:
    """Each row's fouls by round from ``### tiebreak fouls`` records (``index``: start number
    to row), or None when one does not name a game of the crosstable (``ranking.formats.trf_extras`` refuses it)."""
    fouls_of = [[0] * rounds for _ in opponents]
    for rnd, white, black, on_white, on_black in records:
        first, second = index.get(white), index.get(black)
        if first is None or second is None or not 1 <= rnd <= rounds or opponents[first][rnd - 1] != second:
            return None
        fouls_of[first][rnd - 1], fouls_of[second][rnd - 1] = on_white, on_black
    return fouls_of


def _withdrawals_fit(withdrawn: list[tuple[int, int]], index: dict[int, int], opponents: list[list[int]],
                     rounds: int) -> bool:
    """Whether the ``### tiebreak withdrawn`` records (``index``: start number to row) change
    nothing the crosstable holds: each names a player once, within the rounds, with no game
    after it (``ranking.formats.trf_extras`` reads the ``0000 - Z`` entries after it as the withdrawal,
    which ranks as those zero-point byes, docs/rules.md#withdrawals; ``_read_players`` does not count them as
    byes)."""
    players = [pid for pid, _ in withdrawn]
    if len(set(players)) != len(players):
        return False
    for pid, after in withdrawn:
        if pid not in index or after > rounds or max(opponents[index[pid]][after:], default=-1) >= 0:
            return False
    return True


def _read_players(lines: list[str], declared: int, withdrawn: dict[int, int]):
    """The ``001`` lines as rows in starting-number order: start numbers, names, ratings,
    federations, letters, colours, opponent indexes, the number of rounds and the last round
    with a recorded bye (a zero-point bye after the round a player of ``withdrawn``, start
    number: round, withdrew after is the withdrawal, no bye: ``ranking.formats.trf_extras``).  None
    when a line is not what ``ranking.formats.trf_read._parse_player`` accepts, a start number is used
    twice, a game is not mirrored by the opponent's line as
    ``ranking.formats.trf_read._game`` wants, or an opponent's number is not written right-aligned.

    The round blocks are read by columns (a slice per column of the blocks), so a line costs a
    few string operations, whatever its number of rounds."""
    count = len(lines)
    heads = "".join([line[:91].ljust(91) for line in lines])  # columns 1-91 of every line, line after line
    fields = {name: _column(heads, first, last) for name, (first, last) in _HEAD_FIELDS.items()}
    if not all(pattern.fullmatch("".join(fields[name])) for name, pattern in _HEAD_PATTERNS.items()):
        return None  # a field laid out otherwise: ranking.formats.trf_read checks it (and may refuse it)
    if heads[8::91] != " " * count or heads[89::91] != " " * count or heads[90::91] != " " * count:
        return None  # columns 9, 90 and 91 are blank
    if not _SEXES.issuperset(heads[9::91]):
        return None
    numbers = list(map(int, fields["start"]))
    if 0 in numbers:
        return None
    ratings = [int(field) if field != "    " else 0 for field in fields["rating"]]
    order = sorted(range(count), key=numbers.__getitem__)
    ids = [numbers[line] for line in order]
    if len(set(ids)) != count:
        return None  # a start number used twice
    names = [heads[91 * line + 14:91 * line + 47].strip() for line in order]
    ratings = [ratings[line] for line in order]
    federations = [fields["federation"][line].strip() for line in order]
    parts = [lines[line][91:] for line in order]
    starts = [fields["start"][line] for line in order]  # as written: right-aligned (_HEAD_PATTERNS)
    opponent_of = dict(zip(starts, range(count), strict=True))
    if "0" in "".join(starts)[::4]:  # a number written with leading zeros: opponents may be written without
        opponent_of.update((f"{pid:>4}", number) for number, pid in enumerate(ids))
    opponent_of.update(dict.fromkeys(_NO_OPPONENT, -1))
    width = max((len(part) + 9) // 10 for part in parts)  # round blocks in the longest line
    if count * max(width, declared) > MAX_CELLS:
        return None  # the model reads it in the space its entries take
    text = "".join([part.ljust(10 * width) for part in parts])  # every line's blocks, row after row
    cells = count * width
    if text[4::10].strip(" ") or text[6::10].strip(" ") or text[8::10].strip(" ") or text[9::10].strip(" "):
        return None
    try:
        flat = list(map(opponent_of.__getitem__,
                        map("".join, zip(text[0::10], text[1::10], text[2::10], text[3::10], strict=True))))
    except KeyError:
        return None  # not a player, or a number laid out otherwise: ranking.formats.trf_read says which
    shades = text[5::10].translate(_COLOUR_CASE)
    letters = text[7::10].upper()
    if not _COLOURS.issuperset(shades):
        return None
    fixed = list(letters)
    holes = set()
    last_bye = 0
    cell = -1
    try:
        while True:  # the cells without an opponent: byes, or nothing recorded
            cell = flat.index(-1, cell + 1)
            letter = _BYE_LETTERS.get(letters[cell])
            if letter is None or shades[cell] != "-":
                return None  # W D L without an opponent, or a bye with a colour
            if letter == " ":
                letter = "Z"  # nothing recorded: a zero-point bye (C.07 16.1)
                holes.add(cell)
            elif not (withdrawn and letter == "Z" and cell % width >= withdrawn.get(ids[cell // width], width)):
                last_bye = max(last_bye, cell % width + 1)
            fixed[cell] = letter
    except ValueError:
        pass
    for letter in set(letters) - _GAME_LETTERS:  # H F U Z only without an opponent
        place = letters.find(letter)
        while place >= 0:
            if flat[place] >= 0:
                return None
            place = letters.find(letter, place + 1)
    used = 0
    for end in range(width, cells + 1, width or 1):  # (no line has a round block: width 0, no cells)
        if end - 1 not in holes:
            used = width  # a line with its last block filled: no line uses more
            break
        recorded = width
        while recorded and end - width + recorded - 1 in holes:
            recorded -= 1
        used = max(used, recorded)
    if declared and used > declared:
        return None
    rounds = declared or used
    if width and not _mirrored(flat, fixed, shades, width):
        return None
    fixed_text = "".join(fixed)
    starts = range(0, cells, width) if width else [0] * count
    results = [fixed_text[start:start + width] for start in starts]
    colours = [shades[start:start + width] for start in starts]
    opponents = [flat[start:start + width] for start in starts]
    if rounds != width:  # pad with rounds with nothing recorded, or drop those after the last
        missing = rounds - width
        results = [(row + "Z" * missing)[:rounds] for row in results]
        colours = [(row + "-" * missing)[:rounds] for row in colours]
        opponents = [(row + [-1] * missing)[:rounds] for row in opponents]
    return ids, names, ratings, federations, results, colours, opponents, rounds, last_bye


#: What a bye's cell pairs with in ``_mirrored`` (the opponent "-1" reads the sentinel).
_SENTINEL = "?"
_PAIRED_OR_BYE = _PAIRED | {(letter, _SENTINEL) for letter in "UFHZ"}
_COLOURED_OR_BYE = _COLOURED | {("-", _SENTINEL)}


def _mirrored(flat: list[int], letters: list[str], shades: str, width: int) -> bool:
    """Every game listed by both players in the same round, with results and colours that fit
    (``ranking.formats.trf_read._game``), checked a round at a time on whole columns of the cells (row after
    row, ``width`` a row)."""
    players = range(len(flat) // width)
    everyone = list(players)
    for number in range(width):
        column = flat[number::width]
        if any(map(int.__eq__, column, players)):
            return False  # a player paired with themselves
        expected = everyone.copy()  # each player's opponent's opponent: the player, -1 for a bye
        place = -1
        try:
            while True:
                place = column.index(-1, place + 1)
                expected[place] = -1
        except ValueError:
            pass
        if list(map([*column, -1].__getitem__, column)) != expected:  # -1 reads the sentinel at the end
            return False
        results = letters[number::width]
        opposite = [*results, _SENTINEL].__getitem__
        if not _PAIRED_OR_BYE.issuperset(zip(results, map(opposite, column), strict=True)):
            return False
        colours = shades[number::width]
        opposite = [*colours, _SENTINEL].__getitem__
        if not _COLOURED_OR_BYE.issuperset(zip(colours, map(opposite, column), strict=True)):
            return False
    return True


def _pairs(opponents: list[list[int]]) -> Iterator[tuple[int, int]]:
    """Each game once, as (index, index)."""
    return ((me, other) for me, row in enumerate(opponents) for other in row if other > me)


# -- tournament TOML ------------------------------------------------------------------------------

#: The layout ``ranking.formats.tomlfile.write_tournament_toml`` writes, one pattern a table: a basic
#: string without escapes, a decimal integer, keys in the writer's order.  Anything else (a
#: hand-written file, a rule preset, options, teams, an escaped character) is left to the model.
_STR = r'"([^"\\\x00-\x1f\x7f]*)"'
_INT = r"(0|-?[1-9][0-9]*)"
_QUOTED = r'("[^"\\\x00-\x1f\x7f]*")'  # a string with its quotes, told from an absent one
_ITEM_TEXT = r'"[^"\\\x00-\x1f\x7f]*",\n'  # an array item, one a line
_TOURNAMENT = re.compile(
    rf"\[tournament\]\n(?:slug = {_STR}\n)?name = {_STR}\ngame = {_STR}\nsystem = {_STR}\nrounds = {_INT}\n"
    r'(?:seeding = "(as-numbered|rating)"\n)?'  # how the pairing numbers are made (TPN)
    rf"(?:tiebreaks = (\[\]|\[\n(?:    {_ITEM_TEXT})*\])\n)?"
    rf"(?:records = (\[\]|\[\n(?:    \[\n        {_ITEM_TEXT}        {_ITEM_TEXT}    \],\n)*\])\n)?")
_PLAYER = re.compile(
    rf"\n\[\[players\]\]\nid = {_INT}\nname = {_STR}\n(?:rating = {_INT}\n)?(?:federation = {_STR}\n)?"
    rf"(?:club = {_STR}\n)?(?:title = {_STR}\n)?(?:sex = {_STR}\n)?(?:fide_id = {_STR}\n)?(?:birth = {_STR}\n)?")
_GAME = re.compile(
    rf"\n\[\[games\]\]\nround = {_INT}\n(?:board = {_INT}\n)?white = {_INT}\nblack = {_INT}\n"
    rf"(?:result = {_QUOTED}\n)?(rated = false\n)?(colours_known = false\n)?"
    rf"(?:fouls = \{{ (?:white = {_INT}(?:, black = {_INT})?|black = {_INT}) \}}\n)?")
_BYE = re.compile(rf"\n\[\[byes\]\]\nround = {_INT}\nplayer = {_INT}\nkind = {_STR}\n")
_WITHDRAWAL = re.compile(rf"\n\[\[withdrawals\]\]\nplayer = {_INT}\nafter_round = {_INT}\n")
#: Every table of the layout, so that nothing else stands between them.
_ANY_TABLE = re.compile("|".join(f"(?:{pattern.pattern})" for pattern in (_PLAYER, _GAME, _BYE, _WITHDRAWAL)))
_ITEM = re.compile(_STR)
_SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
#: A game's result as the writer writes it -> the letters of white and black (``Result.value``).
_RESULTS = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="), "+-": ("+", "-"), "-+": ("-", "+"),
            "--": ("-", "-"), "0-0": ("0", "0"), "1/2-0": ("=", "0"), "0-1/2": ("0", "="), None: (" ", " ")}
_UNRATED = str.maketrans("10=", "WLD")
_TOML_BYES = {"pab": "U", "full": "F", "half": "H", "zero": "Z"}
_SYSTEMS = frozenset({"swiss", "round-robin", "double-round-robin"})
_MAX_ROUNDS = 9999


def read_toml(text: str, source: str) -> Crosstable | None:
    """The crosstable of a tournament TOML file as ``ranking.formats.tomlfile.write_tournament_toml``
    lays it out, or None where ``ranking.formats.tomlfile.parse_tournament_toml`` must read it (another
    layout, anything it would refuse, rules beyond a chain, teams, two games on one board, or two
    games between the same players in one round, which form a match)."""
    enabled = gc.isenabled()
    gc.disable()  # the rows make no reference cycles: the collector would only rescan them
    try:
        return _read_toml(text)
    finally:
        if enabled:
            gc.enable()


def _read_toml(text: str) -> Crosstable | None:
    head = _TOURNAMENT.match(text)
    if head is None:
        return None
    slug, name, game, system, rounds_text, seeding, chain_text, records_text = head.groups()
    if (slug is not None and not _SLUG.fullmatch(slug)) or game not in ("chess", "xiangqi") or system not in _SYSTEMS:
        return None
    rounds = int(rounds_text)
    if not 0 <= rounds <= _MAX_ROUNDS:
        return None
    chain: tuple[str, ...] = ()
    if chain_text is not None:
        chain = tuple(_ITEM.findall(chain_text))
        from ranking.standings.engine import parse_chain  # the code grammar, light like this module

        if any(not code.strip() or parse_chain([code]) is None for code in chain):
            return None  # a code the model checks (and may refuse)
    if records_text is not None:
        tags = _ITEM.findall(records_text)[0::2]
        if "slug" in tags or "362" in tags:
            return None
    start = head.end()
    if _ANY_TABLE.sub("", text[start:]):
        return None  # something else than the tables of the layout
    table = _toml_crosstable(name, system, rounds, chain, _PLAYER.findall(text, start), _GAME.findall(text, start),
                             _BYE.findall(text, start), _WITHDRAWAL.findall(text, start))
    if table is not None and seeding != "as-numbered":
        table.tpn = None  # seeded by rating (the default): the initial ranking list is the model's
    return table


def _board_clash(game_rows: list[tuple[str, ...]]) -> bool:
    """Whether two games share a board of a round once those without one are numbered as the
    store numbers them (``ranking.event.model.numbered_boards``)."""
    highest: dict[str, int] = {}
    taken: set[tuple[str, int]] = set()
    for number, board, *_ in game_rows:
        on = int(board) if board and int(board) else highest.get(number, 0) + 1
        if (number, on) in taken:
            return True
        taken.add((number, on))
        highest[number] = max(highest.get(number, 0), on)
    return False


def _toml_crosstable(name: str, system: str, rounds: int, chain: tuple[str, ...], player_rows: list[tuple[str, ...]],
                     game_rows: list[tuple[str, ...]], bye_rows: list[tuple[str, ...]],
                     withdrawal_rows: list[tuple[str, ...]]) -> Crosstable | None:
    """The rows of the tables read, checked as ``ranking.formats.tomlfile`` checks them."""
    players = sorted((int(pid), player_name, int(rating or 0), federation)
                     for pid, player_name, rating, federation, *_ in player_rows)
    ids = [player[0] for player in players]
    if not ids or ids[0] < 1 or len(set(ids)) != len(ids) or any(not 0 <= player[2] <= MAX_ID for player in players):
        return None  # no player, a start number below 1 or used twice, a rating out of 0-9999
    index = {str(pid): number for number, pid in enumerate(ids)}
    withdrawn: dict[int, int] = {}
    for player, after in withdrawal_rows:
        me, after_round = index.get(player), int(after)
        if me is None or me in withdrawn or not 0 <= after_round <= _MAX_ROUNDS:
            return None
        withdrawn[me] = after_round
    if any(after > rounds for after in withdrawn.values()):
        return None
    count = len(ids)
    if count * rounds > MAX_CELLS:
        return None  # the model reads it in the space its entries take
    letters = [["Z"] * rounds for _ in range(count)]
    colours = [["-"] * rounds for _ in range(count)]
    opponents = [[-1] * rounds for _ in range(count)]
    fouls_of: list[list[int]] | None = None
    for number, board, white, black, result, unrated, unknown, white_fouls, black_fouls, only_black in game_rows:
        rnd, first, second = int(number), index.get(white), index.get(black)
        result = result[1:-1] if result else None  # findall gives "" for a group that did not take part
        if first is None or second is None or first == second or not 1 <= rnd <= rounds or result not in _RESULTS:
            return None  # not a player, a player against themselves, a round or a result out of range
        if (board and int(board) < 0) or rnd > withdrawn.get(first, rnd) or rnd > withdrawn.get(second, rnd):
            return None  # a negative board, or a game after withdrawing
        cell = rnd - 1
        if opponents[first][cell] >= 0 or opponents[second][cell] >= 0:
            return None  # two games in a round: another opponent (refused), or a match (the model's)
        white_letter, black_letter = _RESULTS[result]
        if unrated and result in ("+-", "-+", "--"):
            return None  # an unrated forfeit: a letter cannot say it (ARO/P and its kin count only rated ones)
        if unrated and result is not None:
            white_letter, black_letter = white_letter.translate(_UNRATED), black_letter.translate(_UNRATED)
        opponents[first][cell], opponents[second][cell] = second, first
        letters[first][cell], letters[second][cell] = white_letter, black_letter
        if not unknown:
            colours[first][cell], colours[second][cell] = "w", "b"
        if white_fouls or black_fouls or only_black:
            fouls = int(white_fouls or 0), int(black_fouls or only_black or 0)
            if fouls[0] < 0 or fouls[1] < 0:
                return None
            if fouls_of is None:
                fouls_of = [[0] * rounds for _ in range(count)]
            fouls_of[first][cell], fouls_of[second][cell] = fouls
    boards = [(row[0], row[1]) for row in game_rows if row[1] and row[1] != "0"]  # TOML writes an integer one way
    if len(set(boards)) != len(boards) or (len(boards) != len(game_rows) and _board_clash(game_rows)):
        return None  # two games on one board (refused), also once those without one are numbered
    last_bye = 0
    for number, player, kind in bye_rows:
        rnd, me, letter = int(number), index.get(player), _TOML_BYES.get(kind)
        if me is None or letter is None or not 1 <= rnd <= rounds:
            return None
        cell = rnd - 1
        if (rnd > withdrawn.get(me, rnd) and letter != "Z") or opponents[me][cell] >= 0 or (
                letters[me][cell] != "Z" or colours[me][cell] == "B"):
            return None  # a bye after withdrawing, a bye and a game, or two byes in one round
        letters[me][cell] = letter
        colours[me][cell] = "B"  # marks the round taken by a bye (put back below)
        last_bye = max(last_bye, rnd)
    return Crosstable(name, ids, [player[1] for player in players], [player[2] for player in players],
                      [player[3] for player in players], rounds, ["".join(row) for row in letters],
                      ["".join(row).replace("B", "-") for row in colours], opponents, fouls_of, system, None,
                      chain, last_bye)

