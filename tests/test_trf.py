"""FIDE TRF reader and writer (``ranking.formats.trf_read``, ``trf_write``): real files, hand-made fixtures, fuzzing.

Fixtures: ``tests/data/validation`` (copies of the shared validation set), ``tests/data/trf``
(hand-written), ``tests/data/trf/errors`` (each starts ``### expect line N: fragment``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from build import BYE_POINTS, CHESS_POINTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranking.errors import InputError
from ranking.event.model import Bye, ByeKind, Game, GameKind, Player, Result, System, Tournament, Withdrawal
from ranking.formats.trf_read import infer_system, parse_trf, system_from_type
from ranking.formats.trf_write import write_trf
from ranking.pairing.dutch.state import PairingOptions, initial_colour, recorded_colour
from ranking.scoring.rules import PlayoffRule, Rules, Scoring
from ranking.tiebreaks.presets import get_preset
from tests.strategies import renumbered, tournaments

DATA = Path(__file__).parent / "data"
VALIDATION = DATA / "validation"
VALIDATION_TRFS = sorted(VALIDATION.glob("*/tournament.trf")) + sorted((VALIDATION / "pairings").glob("*.trf"))
EXAMPLE = Path(__file__).parents[1] / "ranking" / "examples" / "chess-swiss.trf"
ERRORS = sorted((DATA / "trf" / "errors").glob("*.trf"))



def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def chess_points(t: Tournament) -> dict[int, float]:
    """Each player's score with 1/½/0 for games and byes, computed here, not by the core."""
    points = {p.id: 0.0 for p in t.players}
    for g in t.games:
        if g.result is not None:
            white, black = CHESS_POINTS[g.result]
            points[g.white] += white
            points[g.black] += black
    for b in t.byes:
        points[b.player] += BYE_POINTS[b.kind]
    return points


def points_column(text: str) -> dict[int, float]:
    """The points column (81-84) of every 001 line, read straight from the text."""
    return {int(line[4:8]): float(line[80:84]) for line in text.splitlines() if line.startswith("001 ")}


# --- the validation set and the bundled example -----------------------------------------


def test_every_validation_directory_has_its_expected_values() -> None:
    dirs = [d for d in VALIDATION.iterdir() if d.is_dir() and d.name != "pairings"]
    assert len(dirs) == 18
    assert all((d / "expected.json").is_file() for d in dirs)
    assert len(VALIDATION_TRFS) >= 27


@pytest.mark.parametrize("path", [*VALIDATION_TRFS, EXAMPLE], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rounds_rederive_the_points_column(path: Path) -> None:
    text = read(path)
    t = parse_trf(text, source=str(path))
    assert chess_points(t) == points_column(text)
    assert [p.id for p in t.players] == sorted(points_column(text))


@pytest.mark.parametrize("path", [*VALIDATION_TRFS, EXAMPLE], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_trf_round_trips(path: Path) -> None:
    t = parse_trf(read(path))
    written = write_trf(t)
    assert parse_trf(written) == t
    assert write_trf(parse_trf(written)) == written


@pytest.mark.parametrize("path", [*VALIDATION_TRFS, EXAMPLE], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_writer_reproduces_the_player_lines(path: Path) -> None:
    """Given the file's points and ranks, every 001 line comes back character for character
    (a bye's opponent written ``   0`` comes back as the usual ``0000``)."""
    text = read(path)
    original = sorted(
        (line.rstrip().replace("     0 - ", "  0000 - ") for line in text.splitlines() if line.startswith("001")),
        key=lambda line: int(line[4:8]),
    )
    ranks = {int(line[4:8]): int(line[85:89]) for line in original}
    written = write_trf(parse_trf(text), points=points_column(text), ranks=ranks)
    assert [line for line in written.splitlines() if line.startswith("001")] == original


def test_validation_systems_follow_092_or_the_schedule() -> None:
    systems = {p.parent.name: parse_trf(read(p)).system for p in VALIDATION_TRFS if p.name == "tournament.trf"}
    assert systems["fide_tec_exercises_2024_rr6"] is System.ROUND_ROBIN  # no 092: inferred
    assert systems["vega_2025_western_masters_rr"] is System.ROUND_ROBIN  # "Single Round Robin"
    assert systems["vega_2026_blitz1_swiss"] is System.SWISS
    assert systems["fide_tec_exercises_2024_swiss16"] is System.SWISS  # no 092: inferred


def test_validation_records_are_kept_in_file_order() -> None:
    t = parse_trf(read(VALIDATION / "chessresults_world_blitz_2021_open" / "tournament.trf"))
    assert t.name == "World Blitz Chess Championship 2021 - Open"
    assert t.records == (
        ("022", "Warsaw"),
        ("032", "FIDE"),
        ("042", "2021/12/29"),
        ("052", "2021/12/30"),
        ("062", "179"),
    )  # "092 Swiss" is the canonical name: the system field carries it
    assert t.system is System.SWISS
    assert t.rounds == 21 and len(t.players) == 179 and t.rules is None


def test_explicit_zero_byes_are_kept_after_the_last_round_played() -> None:
    t = parse_trf(read(VALIDATION / "pairings" / "bbp_dutch_C5.trf"))
    assert t.rounds == 3
    assert max(g.round for g in t.games) == 2
    assert t.byes == (Bye(3, 4, ByeKind.ZERO),)


def test_the_bundled_swiss_example() -> None:
    t = parse_trf(read(EXAMPLE))
    assert (len(t.players), t.rounds, t.system) == (24, 7, System.SWISS)
    kinds = Counter(b.kind for b in t.byes)
    assert kinds[ByeKind.PAIRING] >= 2 and kinds[ByeKind.HALF] >= 2
    results = Counter(g.result for g in t.games)
    assert results[Result.WHITE_WINS_FORFEIT] + results[Result.BLACK_WINS_FORFEIT] == 2
    assert results[Result.DOUBLE_FORFEIT] == 1
    withdrawn = [
        p
        for p in t.players
        if {(b.round, b.kind) for b in t.byes if b.player == p.id}
        >= {(5, ByeKind.ZERO), (6, ByeKind.ZERO), (7, ByeKind.ZERO)}
    ]
    assert len(withdrawn) == 1
    assert not [g for g in t.games if withdrawn[0].id in (g.white, g.black) and g.round > 4]
    assert all(p.rating and p.federation for p in t.players)


# --- hand-made fixtures -----------------------------------------------------------------


def test_trf2026_records_give_rounds_scoring_and_chain() -> None:
    t = parse_trf(read(DATA / "trf" / "trf2026.trf"))
    assert t.name == "Spring Rapid 2026" and t.rounds == 3
    assert t.rules == Rules(
        scoring=Scoring(win=3.0, draw=1.0, loss=0.0, pairing_bye=3.0, zero_bye=0.0, forfeit_loss=0.0),
        tiebreaks=("BH/C1", "BH", "SB", "DE"),  # 212 wins over 202; PTS dropped
    )
    tags = [tag for tag, _ in t.records]
    assert tags == ["022", "102", "152", "182", "192", "AUS", "260", "XYZ"]  # 240 is read into the byes
    assert Bye(3, 2, ByeKind.HALF) in t.byes  # 240 H 003 2: a half-point bye requested for round 3
    assert ("XYZ", "an unknown record is kept verbatim") in t.records
    assert t.system is System.SWISS  # 192 FIDE_DUTCH_2025: the Dutch system, a Swiss
    assert parse_trf(write_trf(t)) == t


def test_202_alone_gives_the_chain_and_blank_separated_codes_are_split() -> None:
    base = read(DATA / "trf" / "trf2026.trf")
    only_202 = "\n".join(line for line in base.splitlines() if not line.startswith("212"))
    assert parse_trf(only_202).rules.tiebreaks == ("BH/C1", "BH", "SB")
    blanks = only_202.replace("202 BH/C1, BH, SB", "202 BH/C1 BH SB")
    assert parse_trf(blanks).rules.tiebreaks == ("BH/C1", "BH", "SB")


def test_xxs_colour_dependent_draws() -> None:
    t = parse_trf(read(DATA / "trf" / "xxs.trf"))
    assert t.rules.scoring == Scoring(
        win=3.0, draw=1.0, loss=0.0, draw_first=1.0, draw_second=2.0, pairing_bye=3.0, half_bye=1.0
    )
    assert t.rules.tiebreaks == ()
    assert t.system is System.DOUBLE_ROUND_ROBIN  # from the canonical 092, which is not kept
    assert t.records == ()
    assert parse_trf(write_trf(t)) == t


def test_every_result_letter() -> None:
    t = parse_trf(read(DATA / "trf" / "letters.trf"))
    games = {(g.round, g.white, g.black): (g.result, g.rated, g.colours_known) for g in t.games}
    assert games == {
        (1, 1, 2): (Result.WHITE_WINS, True, True),
        (1, 3, 4): (Result.DRAW, True, True),
        (1, 5, 6): (Result.DRAW, False, True),  # D/D: under one move
        (2, 1, 3): (Result.WHITE_WINS_FORFEIT, True, False),  # no colours: lower number first
        (2, 4, 2): (Result.BLACK_WINS, False, True),  # W/L
        (2, 6, 7): (Result.WHITE_HALF, True, True),  # =/0
        (3, 6, 2): (Result.DOUBLE_FORFEIT, True, True),
        (3, 3, 5): (Result.BOTH_LOSE, True, True),  # 0/0
        (4, 1, 5): (None, True, True),  # paired, not played yet
        (4, 2, 7): (None, True, False),
    }
    assert t.byes == (
        Bye(1, 7, ByeKind.HALF),  # "=" without opponent
        Bye(1, 8, ByeKind.ZERO),  # "-" without opponent
        Bye(2, 5, ByeKind.FULL),  # "+" without opponent
        Bye(2, 8, ByeKind.ZERO),  # blank inside the rounds played
        Bye(3, 1, ByeKind.PAIRING),
        Bye(3, 4, ByeKind.HALF),
        Bye(3, 7, ByeKind.FULL),  # "1" without opponent
        Bye(3, 8, ByeKind.FULL),
        Bye(4, 6, ByeKind.ZERO),  # "0" without opponent: explicit, kept
        Bye(5, 1, ByeKind.HALF),  # announced bye in a later round: kept
        Bye(5, 3, ByeKind.ZERO),
    )
    assert t.rounds == 5
    assert parse_trf(write_trf(t)) == t


def test_boards_follow_the_lowest_starting_number_in_each_round() -> None:
    t = parse_trf(read(VALIDATION / "fide_tec_exercises_2024_rr6" / "tournament.trf"))
    for rnd in range(1, t.rounds + 1):
        games = [g for g in t.games if g.round == rnd]
        assert [g.board for g in games] == list(range(1, len(games) + 1))
        lows = [min(g.white, g.black) for g in games]
        assert lows == sorted(lows)


def test_player_columns() -> None:
    t = parse_trf(read(VALIDATION / "fide_tec_exercises_2024_rr6" / "tournament.trf"))
    assert t.players[0] == Player(
        id=1, name="Player 001", rating=2200, federation="NOR", sex="m", fide_id="0", birth="1990/01/01"
    )
    titled = parse_trf(read(VALIDATION / "vega_2026_juniors_rapid_championship_swiss" / "tournament.trf"))
    assert titled.player(6).title == "WCM" and titled.player(1).title == "FM"


def test_case_insensitive_letters_crlf_bom_and_trailing_blanks() -> None:
    text = read(DATA / "trf" / "letters.trf")
    odd = "\ufeff" + text.replace(" w 1", " W 1").replace(" - U", " - u").replace("\n", "   \r\n")
    assert parse_trf(odd) == parse_trf(text)


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.stem)
def test_errors_name_the_line_and_what_was_expected(path: Path) -> None:
    text = read(path)
    expect = re.match(r"### expect line (\w+): (.*)", text)
    assert expect, "an error fixture starts with '### expect line N: fragment'"
    with pytest.raises(InputError) as caught:
        parse_trf(text, source=path.name)
    error = caught.value
    assert str(error.line) == expect.group(1)
    assert expect.group(2) in error.message
    assert str(error).startswith(f"{path.name}:{error.line}: " if error.line else f"{path.name}: ")


# --- the system ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "system"),
    [
        ("Swiss", System.SWISS),
        ("swiss FIDE Dutch (JaVaFo)", System.SWISS),
        ("Single Round Robin", System.ROUND_ROBIN),
        ("round-robin", System.ROUND_ROBIN),
        ("RR", System.ROUND_ROBIN),
        ("Double Round Robin", System.DOUBLE_ROUND_ROBIN),
        ("double", System.DOUBLE_ROUND_ROBIN),
        ("FIDE_DUTCH_2025", System.SWISS),
        ("Open", None),
    ],
)
def test_system_from_the_type_record(text: str, system: System | None) -> None:
    assert system_from_type(text) is system


def test_infer_system_counts_scheduled_meetings() -> None:
    players = [Player(i, f"P{i}") for i in (1, 2, 3, 4)]
    single = [
        Game(1, 1, 2, None),
        Game(1, 3, 4, None),
        Game(2, 1, 3, Result.DRAW),
        Game(2, 2, 4, Result.WHITE_WINS_FORFEIT),
        Game(3, 4, 1, Result.DOUBLE_FORFEIT),
        Game(3, 2, 3, None),
    ]
    assert infer_system(players, single) is System.ROUND_ROBIN
    double = single + [replace(g, round=g.round + 3, white=g.black, black=g.white) for g in single]
    assert infer_system(players, double) is System.DOUBLE_ROUND_ROBIN
    assert infer_system(players, single[:-1]) is System.SWISS
    assert infer_system(players, double + single) is System.SWISS
    assert infer_system(players[:1], []) is System.SWISS


# --- writing ------------------------------------------------------------------------------


def test_points_and_rank_columns() -> None:
    t = parse_trf(read(VALIDATION / "fide_tec_exercises_2024_rr6" / "tournament.trf"))
    points = {p.id: 10.5 - p.id for p in t.players}
    ranks = {p.id: 7 - p.id for p in t.players}
    text = write_trf(t, points=points, ranks=ranks)
    lines = [line for line in text.splitlines() if line.startswith("001")]
    assert [line[80:84] for line in lines] == [" 9.5", " 8.5", " 7.5", " 6.5", " 5.5", " 4.5"]
    assert [line[85:89] for line in lines] == ["   6", "   5", "   4", "   3", "   2", "   1"]
    assert parse_trf(text) == t


def test_written_layout() -> None:
    t = parse_trf(read(DATA / "trf" / "xxs.trf"))
    lines = write_trf(t).splitlines()
    assert lines[:6] == [
        "012 Colour draws (JaVaFo XXS)",
        "142 2",
        "XXR 2",
        "162  W 3.0    D 1.0    L 0.0",  # TRF-2026 says what it can, XXS the rest
        "XXS W=3 D=1 WL=0 BL=0 WD=1 BD=2 HPB=1 PAB=3",
        "092 Double Round Robin",
    ]
    player = lines[6]
    assert player[:52] == "001    1      Alpha, Ann                        2200"  # columns 1-52
    assert player[52:91].strip() == ""  # no federation, id, birth, points or rank
    assert player[91:] == "   2 w 1     3 b ="  # rounds from column 92, 10 columns each


def test_chain_is_written_as_212() -> None:
    t = Tournament(
        "T",
        (Player(1, "A"), Player(2, "B")),
        1,
        (Game(1, 1, 2, Result.DRAW, 1),),
        rules=Rules(tiebreaks=("BH/C1", "SB")),
    )
    text = write_trf(t)
    assert "212 PTS,BH/C1,SB" in text.splitlines()
    assert parse_trf(text).rules == t.rules


def test_withdrawals_are_written_as_zero_point_byes() -> None:
    players = tuple(Player(i, f"P{i}") for i in (1, 2, 3, 4))
    games = (
        Game(1, 1, 2, Result.DRAW, 1),
        Game(1, 3, 4, Result.DRAW, 2),
        Game(2, 1, 3, Result.WHITE_WINS, 1),
        Game(3, 1, 4, None, 1),
    )
    t = Tournament("W", players, 5, games, (Bye(2, 4, ByeKind.PAIRING),), (Withdrawal(2, 1),))
    text = write_trf(t)
    line = next(line for line in text.splitlines() if line.startswith("001    2"))
    # every later round up to the round to pair (4), as pairing programs read them: a Z in round 5
    # would make bbpPairings take round 5 for played (issue 20)
    assert line[91:].split() == ["1", "b", "=", "0000", "-", "Z", "0000", "-", "Z", "0000", "-", "Z"]
    assert "### tiebreak withdrawn 2 1" in text
    back = parse_trf(text)
    assert back.withdrawals == (Withdrawal(2, 1),)
    assert not [b for b in back.byes if b.player == 2]  # the Z entries are the withdrawal again
    other = parse_trf("\n".join(line for line in text.splitlines() if not line.startswith("###")))
    assert Bye(2, 2, ByeKind.ZERO) in other.byes and other.withdrawals == ()  # what another program sees


def test_system_is_written_when_the_schedule_would_not_tell() -> None:
    players = (Player(1, "A"), Player(2, "B"))
    rr_in_progress = Tournament(
        "R", (*players, Player(3, "C")), 3, (Game(1, 1, 2, Result.DRAW, 1),), system=System.ROUND_ROBIN
    )
    assert "092 Round Robin" in write_trf(rr_in_progress)
    assert parse_trf(write_trf(rr_in_progress)).system is System.ROUND_ROBIN
    swiss_that_looks_complete = Tournament("S", players, 1, (Game(1, 1, 2, Result.DRAW, 1),))
    assert "092 Swiss" in write_trf(swiss_that_looks_complete)
    assert parse_trf(write_trf(swiss_that_looks_complete)).system is System.SWISS


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda t: replace(t, players=(*t.players, Player(10000, "Big"))), "1-9999"),
        (lambda t: replace(t, players=(replace(t.players[0], rating=12345), *t.players[1:])), "rating"),
        (lambda t: replace(t, players=(replace(t.players[0], federation="VIET"), *t.players[1:])), "federation"),
        (lambda t: replace(t, games=(*t.games, Game(1, 1, 3, Result.DRAW))), "two games or byes in round 1"),
        (lambda t: replace(t, byes=(Bye(9, 1, ByeKind.HALF),)), "outside rounds"),
        (lambda t: replace(t, records=(("022", "two\nlines"),)), "line break"),
    ],
)
def test_what_trf_cannot_hold_is_an_input_error(change: Callable[[Tournament], Tournament], fragment: str) -> None:
    t = parse_trf(read(DATA / "trf" / "trf2026.trf"))
    with pytest.raises(InputError, match=fragment):
        write_trf(change(t))


def test_what_trf_has_no_record_for_is_kept_in_tiebreak_comment_records() -> None:
    """Game, slug, clubs, fouls and the rules' options go to ``### tiebreak`` records (issue
    11.3); only the board numbers are TRF's own (by the lower start number)."""
    t = parse_trf(read(DATA / "trf" / "letters.trf"))
    rules = replace(get_preset("cxa-swiss-bh"), playoff=PlayoffRule((1,)))
    richer = replace(
        t,
        game=GameKind.XIANGQI,
        games=tuple(replace(g, fouls_black=1) for g in t.games),
        players=tuple(replace(p, club="Câu lạc bộ Hà Nội") for p in t.players),
        records=(("slug", "letters"),),
        rules=rules,
    )
    text = write_trf(richer)
    assert "### tiebreak game xiangqi" in text and "### tiebreak slug letters" in text
    assert "### tiebreak club 1 Câu lạc bộ Hà Nội" in text
    assert parse_trf(text) == richer
    assert parse_trf(write_trf(replace(richer, games=tuple(replace(g, board=g.board + 10) for g in richer.games)))) == (
        richer)


@pytest.mark.parametrize(("record", "message"), [
    ("### tiebreak game checkers", "expected chess or xiangqi"),
    ("### tiebreak fouls 1 99 98 1 0", "FOULS-WHITE FOULS-BLACK of a game in the file"),
    ("### tiebreak withdrawn 77 1", "a starting number and the round"),
    ("### tiebreak colour red", "unknown record ### tiebreak colour"),
    ("### tiebreak rules {nope", "the rules as JSON"),
])
def test_a_bad_tiebreak_record_names_its_line(record: str, message: str) -> None:
    text = read(DATA / "trf" / "letters.trf").rstrip("\n") + "\n" + record + "\n"
    with pytest.raises(InputError, match=re.escape(message)) as caught:
        parse_trf(text, source="x.trf")
    assert caught.value.line == len(text.splitlines())


# --- properties ---------------------------------------------------------------------------

_FLIP = {
    Result.WHITE_WINS: Result.BLACK_WINS,
    Result.BLACK_WINS: Result.WHITE_WINS,
    Result.WHITE_WINS_FORFEIT: Result.BLACK_WINS_FORFEIT,
    Result.BLACK_WINS_FORFEIT: Result.WHITE_WINS_FORFEIT,
    Result.WHITE_HALF: Result.BLACK_HALF,
    Result.BLACK_HALF: Result.WHITE_HALF,
}


def trf_form(t: Tournament) -> Tournament:
    """What ``t`` looks like after a trip through TRF: boards renumbered; colourless games with
    the lower number first; blank rounds up to the last round with a game result as zero-point
    byes, except after a withdrawal (the ``### tiebreak`` records keep it, with fouls, clubs
    and the game kind)."""
    games = []
    for g in t.games:
        white, black, result = g.white, g.black, g.result
        fouls = (g.fouls_white, g.fouls_black)
        if not g.colours_known and white > black:
            white, black = black, white
            result = _FLIP.get(result, result) if result is not None else None
            fouls = fouls[::-1]
        rated = g.rated or result is None or result.is_forfeit
        games.append(Game(g.round, white, black, result, 0, rated, g.colours_known, *fouls))
    games.sort(key=lambda g: (g.round, min(g.white, g.black)))
    board: Counter[int] = Counter()
    numbered = []
    for g in games:
        board[g.round] += 1
        numbered.append(replace(g, board=board[g.round]))
    gone = {w.player: w.after_round for w in t.withdrawals}
    byes = [b for b in t.byes if not (b.kind is ByeKind.ZERO and b.round > gone.get(b.player, b.round))]
    taken = {(g.white, g.round) for g in games} | {(g.black, g.round) for g in games}
    taken |= {(b.player, b.round) for b in t.byes}
    for w in t.withdrawals:
        taken |= {(w.player, rnd) for rnd in range(w.after_round + 1, t.rounds + 1)}
    played = max((g.round for g in games if g.result is not None), default=0)
    byes += [
        Bye(rnd, p.id, ByeKind.ZERO) for p in t.players for rnd in range(1, played + 1) if (p.id, rnd) not in taken
    ]
    return Tournament(
        name=t.name,
        players=tuple(sorted((replace(p, club=" ".join(p.club.split())) for p in t.players), key=lambda p: p.id)),
        rounds=t.rounds,
        games=tuple(numbered),
        byes=tuple(sorted(byes, key=lambda b: (b.round, b.player))),
        withdrawals=tuple(sorted(t.withdrawals, key=lambda w: w.player)),
        system=t.system,
        game=t.game,
        records=with_drawn_colour(t).records[len(t.records):],
    )


@st.composite
def trf_tournaments(draw: st.DrawFn) -> Tournament:
    """Strategy tournaments renumbered 1..n, the start numbers TRF can hold."""
    t = draw(tournaments(systems=tuple(System)))
    ids = sorted(p.id for p in t.players)
    return renumbered(t, {pid: k for k, pid in enumerate(ids, start=1)})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trf_tournaments())
def test_any_tournament_survives_trf_as_its_trf_form(t: Tournament) -> None:
    back = parse_trf(write_trf(t))
    assert back == trf_form(t)
    assert parse_trf(write_trf(back)) == back


def only_input_errors(text: str) -> Tournament | None:
    """Parse, allowing InputError only; a text that parses must also round-trip."""
    try:
        t = parse_trf(text, source="fuzz.trf")
    except InputError as error:
        assert error.source == "fuzz.trf"
        assert error.message and "\n" not in str(error)
        return None
    assert parse_trf(write_trf(t)) == with_drawn_colour(t)
    return t


def with_drawn_colour(t: Tournament) -> Tournament:
    """``t`` with the initial colour a Swiss gets written with before round 1 is paired (TRF-2026
    152, mandatory then for in-tournament exchange, and JaVaFo's XXC): the colour drawn by lot."""
    paired = t.games or any(b.kind is ByeKind.PAIRING for b in t.byes)
    if t.system.is_round_robin or t.teams or paired or not t.players or recorded_colour(t):
        return t
    colour = initial_colour(t, PairingOptions())
    return replace(t, records=(*t.records, ("152", colour), ("XXC", "white1" if colour == "W" else "black1")))


SMALL = read(VALIDATION / "fide_tec_exercises_2024_swiss16" / "tournament.trf")
LETTERS = read(DATA / "trf" / "letters.trf")
TRF26 = read(DATA / "trf" / "trf2026.trf")
_ALPHABET = st.sampled_from(list(" 0123456789wb-+=WDLHFUZXRS.,\n\r\t#0ab\u00e9\u4e00\x00\ufeff"))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_fuzz_random_text(text: str) -> None:
    only_input_errors(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["001 ", "012 ", "XXR ", "XXS ", "142 ", "162 ", "202 ", "212 ", "092 ", "### ", ""]),
            st.text(_ALPHABET, max_size=140),
        ),
        max_size=8,
    )
)
def test_fuzz_record_shaped_lines(lines: list[tuple[str, str]]) -> None:
    only_input_errors("\n".join(tag + rest for tag, rest in lines))


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from([SMALL, LETTERS, TRF26]),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 12), st.text(_ALPHABET, max_size=3)), max_size=6),
)
def test_fuzz_mutations_of_real_files(base: str, edits: list[tuple[int, int, str]]) -> None:
    text = base
    for position, width, insert in edits:
        at = position % (len(text) + 1)
        text = text[:at] + insert + text[at + width :]
    only_input_errors(text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([SMALL, LETTERS, TRF26]), st.integers(0, 10**6))
def test_fuzz_truncations(base: str, cut: int) -> None:
    only_input_errors(base[: cut % (len(base) + 1)])


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600), st.sampled_from(["latin-1", "utf-8", "utf-16-le"]))
def test_fuzz_bytes_as_text(data: bytes, encoding: str) -> None:
    only_input_errors(data.decode(encoding, errors="replace"))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.integers(0, 10**6))
def test_fuzz_bytes_spliced_into_a_real_file(data: bytes, position: int) -> None:
    at = position % (len(SMALL) + 1)
    only_input_errors(SMALL[:at] + data.decode("latin-1") + SMALL[at:])


def test_plain_round_blocks_read_as_the_checked_ones() -> None:
    """The round blocks Tiebreak writes are read without ``_parse_round``'s detours; the same
    lines with an upper-case colour (accepted, but not plain) take the checked way, to the same
    tournament."""
    from generators import generate_swiss

    text = write_trf(generate_swiss(40, 7, seed=5))
    checked = "\n".join(line[:91] + line[91:].replace(" w ", " W ") if line.startswith("001") else line
                        for line in text.split("\n"))
    assert checked != text
    assert parse_trf(checked) == parse_trf(text)
