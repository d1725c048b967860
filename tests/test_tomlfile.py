"""Tournament TOML files (``ranking.formats.tomlfile``) and loading any tournament file (``tiebreak.files``).

Fixtures: ``tests/data/toml`` (valid files) and ``tests/data/toml/errors`` (each starts
``# expect line N: fragment``); the bundled examples in ``ranking/examples``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranking.errors import InputError
from ranking.event.model import Bye, ByeKind, Game, GameKind, Player, Result, Seeding, System, Tournament, Withdrawal
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.tomlfile import parse_tournament_toml
from ranking.formats.trf_read import parse_trf
from ranking.formats.trf_write import write_trf
from ranking.scoring.rules import ByeValue, DirectEncounterMode, Edition, Options, PreviousMode, Rules, Scoring
from ranking.tiebreaks.presets import PRESETS, get_preset
from tests.strategies import scoring_systems, tournaments
from tiebreak.files import detect_format, load_tournament

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).parents[1] / "ranking" / "examples"
XIANGQI_RR = EXAMPLES / "xiangqi-rr.toml"
CHESS_SWISS = EXAMPLES / "chess-swiss.trf"
ERRORS = sorted((DATA / "toml" / "errors").glob("*.toml"))
VALID = sorted((DATA / "toml").glob("*.toml"))


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# --- the bundled example ----------------------------------------------------------------


def test_the_bundled_xiangqi_round_robin() -> None:
    t = parse_tournament_toml(read(XIANGQI_RR), source=str(XIANGQI_RR))
    assert (len(t.players), t.rounds, t.system, t.game) == (10, 9, System.ROUND_ROBIN, GameKind.XIANGQI)
    assert t.rules == get_preset("cxa-rr")
    assert t.records[0] == ("slug", "example-xiangqi-rr")
    assert {p.name for p in t.players} >= {"许银川", "王天一", "赵鑫鑫", "Lại Lý Huynh", "Nguyễn Thành Bảo"}
    assert len(t.games) == 45 and all(g.result is not None for g in t.games)
    pairs = {frozenset((g.white, g.black)) for g in t.games}
    assert pairs == {frozenset(pair) for pair in combinations(range(1, 11), 2)}
    for rnd in range(1, 10):  # Berger tables (C.05 Annex 1): player 10 on board 1, the others sum to rnd + 1
        games = sorted((g for g in t.games if g.round == rnd), key=lambda g: g.board)
        assert 10 in (games[0].white, games[0].black)
        assert all((g.white + g.black - (rnd + 1)) % 9 == 0 for g in games[1:])
    assert sum(g.fouls_white + g.fouls_black for g in t.games) >= 3


# --- valid fixtures -----------------------------------------------------------------------


def test_preset_with_overrides() -> None:
    t = parse_tournament_toml(read(DATA / "toml" / "overrides.toml"))
    preset = get_preset("cxa-swiss-bh")
    assert t.rules == replace(
        preset,
        scoring=Scoring(win=3.0, draw=1.0, loss=0.0, draw_first=1.0, draw_second=2.0, match=(2.0, 1.0, 0.0)),
        tiebreaks=("BH", "WIN", "FOUL", "BPG", "PREV"),
        options=replace(preset.options, keep_rounds=7),  # bye_value_in_bh stays the preset's
    )
    assert t.records == (("slug", "hanoi-xiangqi-2026"), ("022", "Hà Nội"))
    assert [p.id for p in t.players] == [1, 12, 7]  # file order kept
    assert t.games[0] == Game(1, 1, 12, Result.DRAW, board=1, fouls_white=1, fouls_black=2)  # red = white
    assert t.games[1] == Game(2, 12, 7, Result.WHITE_WINS_FORFEIT, rated=False)
    assert len([g for g in t.games if g.round == 2]) == 2  # two games of one match (match scoring) are allowed
    assert t.byes == (Bye(1, 7, ByeKind.PAIRING), Bye(2, 1, ByeKind.HALF))
    assert t.withdrawals == (Withdrawal(1, 2),)
    assert (t.system, t.game, t.rounds) == (System.SWISS, GameKind.XIANGQI, 2)


def test_no_preset_no_system_no_rounds() -> None:
    t = parse_tournament_toml(read(DATA / "toml" / "no_preset.toml"))
    assert t.rules == Rules(tiebreaks=("DE", "SB"))
    assert t.system is System.ROUND_ROBIN  # inferred: every pair scheduled once
    assert t.rounds == 3  # the last round named
    assert t.games[0].result is None  # no result: unfinished
    assert t.records == ()


def test_without_rules_keys_rules_are_none() -> None:
    t = parse_tournament_toml('[tournament]\nname = "Bare"\n')
    assert t == Tournament(name="Bare", players=(), rounds=0, seeding=Seeding.RATING)  # a TOML file ranks by rating


def test_result_spellings() -> None:
    header = '[tournament]\nname = "R"\n[[players]]\nid = 1\nname = "A"\n[[players]]\nid = 2\nname = "B"\n'
    for text, result in [
        ("1-0", Result.WHITE_WINS),
        ("0-1", Result.BLACK_WINS),
        ("½-½", Result.DRAW),
        ("1/2-1/2", Result.DRAW),
        ("=", Result.DRAW),
        ("+-", Result.WHITE_WINS_FORFEIT),
        ("-+", Result.BLACK_WINS_FORFEIT),
        ("--", Result.DOUBLE_FORFEIT),
        ("2-0", Result.WHITE_WINS),
    ]:
        game = f'[[games]]\nround = 1\nwhite = 1\nblack = 2\nresult = "{text}"\n'
        assert parse_tournament_toml(header + game).games[0].result is result


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.stem)
def test_errors_name_the_line_and_what_was_expected(path: Path) -> None:
    text = read(path)
    expect = re.match(r"# expect line (\w+): (.*)", text)
    assert expect, "an error fixture starts with '# expect line N: fragment'"
    with pytest.raises(InputError) as caught:
        parse_tournament_toml(text, source=path.name)
    error = caught.value
    assert str(error.line) == expect.group(1)
    assert expect.group(2) in error.message
    assert str(error).startswith(path.name)


def test_errors_in_inline_arrays_find_their_line() -> None:
    text = '[tournament]\nname = "I"\n'
    t = Tournament("I", (Player(1, "A"), Player(2, "B")), 1, (Game(1, 1, 2, Result.DRAW),))
    written = write_tournament_toml(t)
    inline = 'players = [\n    { id = 1, name = "A" },\n    { id = 1, name = "B" },\n]\n' + text
    with pytest.raises(InputError) as caught:
        parse_tournament_toml(inline)
    assert caught.value.line == 3 and "duplicate id 1" in caught.value.message
    assert parse_tournament_toml(written) == t


# --- round trips --------------------------------------------------------------------------


@pytest.mark.parametrize("path", [*VALID, XIANGQI_RR], ids=lambda p: p.name)
def test_toml_round_trips(path: Path) -> None:
    t = parse_tournament_toml(read(path))
    written = write_tournament_toml(t)
    assert parse_tournament_toml(written) == t
    assert write_tournament_toml(parse_tournament_toml(written)) == written


def test_the_written_file_reads_like_the_design() -> None:
    written = write_tournament_toml(parse_tournament_toml(read(DATA / "toml" / "overrides.toml")))
    assert written.startswith('[tournament]\nslug = "hanoi-xiangqi-2026"\nname = "Hanoi Xiangqi Open 2026"\n')
    assert 'rules = "cxa-swiss-bh"' in written
    assert "[[players]]\nid = 1\n" in written
    assert "fouls = { white = 1, black = 2 }" in written


@pytest.mark.parametrize(
    "path", [*sorted((DATA / "validation").glob("*/tournament.trf")), CHESS_SWISS], ids=lambda p: p.parent.name
)
def test_trf_to_toml_and_back(path: Path) -> None:
    t = parse_trf(read(path))
    assert parse_tournament_toml(write_tournament_toml(t)) == t
    assert parse_trf(write_trf(parse_tournament_toml(write_tournament_toml(t)))) == t


CODES = ["BH", "BH/C1", "BH-M1", "SB", "SB/C1", "WIN", "DE", "FOUL", "BPG", "BWG", "PREV", "PS", "KS/L+1", "ARO"]
_HALVES = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0])


@st.composite
def scorings(draw: st.DrawFn) -> Scoring:
    loss, draw_points, win = sorted(draw(st.lists(_HALVES, min_size=3, max_size=3, unique=True)))
    optional = {
        key: draw(st.none() | _HALVES) for key in ("pairing_bye", "full_bye", "half_bye", "forfeit_win", "forfeit_loss")
    }
    coloured = draw(st.booleans())
    return Scoring(
        win=win,
        draw=draw_points,
        loss=loss,
        draw_first=draw_points if coloured else None,
        draw_second=win if coloured else None,
        zero_bye=draw(_HALVES),
        match=draw(st.none() | st.just((2.0, 1.0, 0.0))),
        **optional,
    )


@st.composite
def rules(draw: st.DrawFn) -> Rules:
    name = draw(st.sampled_from([None, *PRESETS]))
    result = Rules() if name is None else get_preset(name)
    if draw(st.booleans()):
        result = replace(result, scoring=draw(scoring_systems() | scorings()))
    if draw(st.booleans()):
        result = replace(result, tiebreaks=tuple(draw(st.lists(st.sampled_from(CODES), max_size=6))))
    if draw(st.booleans()):
        result = replace(
            result,
            options=Options(
                fide_edition=draw(st.sampled_from(Edition)),
                bye_value_in_bh=draw(st.sampled_from(ByeValue)),
                keep_rounds=draw(st.integers(0, 11)),
                de_mode=draw(st.sampled_from(DirectEncounterMode)),
                prev_mode=draw(st.sampled_from(PreviousMode)),
                lots_seed=draw(st.text(max_size=10)),
            ),
        )
    return result


@st.composite
def toml_tournaments(draw: st.DrawFn) -> Tournament:
    """Strategy tournaments with any names, rules, a slug and kept records."""
    t = draw(tournaments(systems=tuple(System)))
    players = tuple(
        replace(
            p,
            name=draw(st.text(max_size=20)),
            federation=draw(st.sampled_from(["", "VIE", "CHN"])),
            club=draw(st.text(max_size=8)),
            fide_id=draw(st.sampled_from(["", "8601000"])),
        )
        for p in t.players
    )
    slug = draw(st.none() | st.from_regex(r"[a-z0-9][a-z0-9._-]{0,12}", fullmatch=True))
    records = draw(st.lists(st.tuples(st.sampled_from(["022", "092", "XXC", "AUS"]), st.text(max_size=12)), max_size=3))
    return replace(
        t,
        name=draw(st.text(max_size=30)),
        players=players,
        rules=draw(st.none() | rules()),
        records=((("slug", slug),) if slug else ()) + tuple(records),
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(toml_tournaments())
def test_any_tournament_round_trips_through_toml(t: Tournament) -> None:
    assert parse_tournament_toml(write_tournament_toml(t)) == t


# --- fuzzing ------------------------------------------------------------------------------


def only_input_errors(text: str) -> None:
    try:
        t = parse_tournament_toml(text, source="fuzz.toml")
    except InputError as error:
        assert error.source == "fuzz.toml" and error.message
        return
    assert parse_tournament_toml(write_tournament_toml(t)) == t


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_fuzz_random_text(text: str) -> None:
    only_input_errors(text)


_PIECES = st.sampled_from(
    [
        "[tournament]\n",
        'name = "T"\n',
        "rounds = 3\n",
        'system = "swiss"\n',
        'rules = "cxa-rr"\n',
        "[[players]]\n",
        "id = 1\n",
        "id = 2\n",
        'name = "A"\n',
        "rating = -1\n",
        "[[games]]\n",
        "round = 1\n",
        "white = 1\n",
        "black = 2\n",
        "red = 2\n",
        'result = "1-0"\n',
        "result = 1\n",
        "fouls = { black = 1 }\n",
        "[[byes]]\n",
        "player = 1\n",
        'kind = "half"\n',
        "[[withdrawals]]\n",
        "after_round = 0\n",
        "options = { keep_rounds = 7 }\n",
        'tiebreaks = ["BH"]\n',
        "scoring = { win = 2, draw = 1, loss = 0 }\n",
        'records = [["022", "x"]]\n',
        "board = 1\n",
        "rated = false\n",
        "[tournament.scoring]\n",
        "= \n",
        '"\n',
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=25))
def test_fuzz_shuffled_pieces(pieces: list[str]) -> None:
    only_input_errors("".join(pieces))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 8), st.text(max_size=3)), max_size=5))
def test_fuzz_mutations_of_the_example(edits: list[tuple[int, int, str]]) -> None:
    text = read(DATA / "toml" / "overrides.toml")
    for position, width, insert in edits:
        at = position % (len(text) + 1)
        text = text[:at] + insert + text[at + width :]
    only_input_errors(text)


# --- loading files ------------------------------------------------------------------------


def test_load_both_examples() -> None:
    assert load_tournament(XIANGQI_RR) == parse_tournament_toml(read(XIANGQI_RR))
    assert load_tournament(str(CHESS_SWISS)) == parse_trf(read(CHESS_SWISS))


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.trf"
    with pytest.raises(InputError, match=r"cannot read .*nope\.trf: No such file") as caught:
        load_tournament(missing)
    assert caught.value.source == str(missing)
    with pytest.raises(InputError, match="cannot read"):
        load_tournament(tmp_path)  # a directory


def test_neither_format(tmp_path: Path) -> None:
    other = tmp_path / "notes.md"
    other.write_text("# Notes\nnothing here\n", encoding="utf-8")
    with pytest.raises(InputError, match="neither a FIDE TRF file") as caught:
        load_tournament(other)
    assert caught.value.source == str(other)


def test_format_is_told_by_content_then_extension(tmp_path: Path) -> None:
    toml_named_trf = tmp_path / "event.trf"
    toml_named_trf.write_text(read(XIANGQI_RR), encoding="utf-8")
    assert load_tournament(toml_named_trf).game is GameKind.XIANGQI
    empty_toml = tmp_path / "empty.toml"
    empty_toml.write_text("# nothing yet\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"missing the \[tournament\] table"):
        load_tournament(empty_toml)
    assert detect_format("XXR 5\n") == "trf" and detect_format("hello", "x.csv") is None


def test_latin1_and_bom_trf(tmp_path: Path) -> None:
    text = read(DATA / "trf" / "letters.trf").replace("Seven", "Sévén")  # same width
    t = parse_trf(text)
    assert t.player(7).name == "Sévén"
    latin = tmp_path / "latin.trf"
    latin.write_bytes(text.encode("latin-1"))
    assert load_tournament(latin) == t
    t = parse_trf(read(CHESS_SWISS))
    bom = tmp_path / "bom.trf"
    bom.write_bytes(b"\xef\xbb\xbf" + read(CHESS_SWISS).encode("utf-8"))
    assert load_tournament(bom) == t
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_bytes(b'[tournament]\nname = "\xe9"\n')
    with pytest.raises(InputError, match="UTF-8"):
        load_tournament(bad_toml)


def test_errors_carry_the_path(tmp_path: Path) -> None:
    broken = tmp_path / "broken.trf"
    broken.write_text("012 X\n" + "001    1      A".ljust(91) + "   9 w 1\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_tournament(broken)
    assert str(caught.value).startswith(f"{broken}:2: ")


# -- settings: the [tournament] table read without writing TOML text ----------------------------------

SETTING_TEXTS = ["name=Hà Nội Open 2026", "rounds=13", "game=xiangqi", "system=round-robin", "rules=cxa-swiss-bh",
                 "rules=fide-swiss", "scoring=2,1,0", "scoring=three-point-colour", "scoring={ win = 3, draw = 1 }",
                 "tiebreaks=BH-C1,BH,SB,DE", "tiebreaks=XYZ", "playoff=1,2:after-tiebreaks", "playoff=none",
                 "keep_rounds=7", "bye_value_in_bh=lowest-score", "fide_edition=2023", "pairing.acceleration=baku"]


@pytest.mark.parametrize("path", [EXAMPLES / "xiangqi-rr.toml", EXAMPLES / "chess-swiss.trf",
                                  Path(__file__).parent / "data" / "teams" / "xiangqi-league.toml"])
def test_a_setting_reads_the_table_as_its_toml_text_would_be_read(path: Path) -> None:
    """``with_tournament_keys`` (every ``tiebreak set`` and every replay of a settings event)
    reads the changed ``[tournament]`` table from its values: the same tournament, or the same
    refusal, as writing the table as TOML text and reading that back."""
    import tomli_w

    from ranking.event.settings import apply_setting, parse_setting
    from ranking.formats import toml_export, tomlfile

    base = load_tournament(path)
    for text in SETTING_TEXTS:
        key, value = parse_setting(text)
        try:
            changed = apply_setting(base, key, value)
        except InputError as error:
            changed = error.message
        table = toml_export._tournament_table(base)
        if key in ("name", "game", "system", "rules", "scoring", "tiebreaks", "playoff"):  # what apply_setting changes
            changes = {key: value} | ({"scoring": None, "tiebreaks": None, "options": None} if key == "rules" else {})
            for name, new in changes.items():
                if new is None:
                    table.pop(name, None)
                else:
                    table[name] = new
        try:
            as_text = parse_tournament_toml(tomli_w.dumps({"tournament": table}), source="the setting")
            as_values = tomlfile._tournament_of({"tournament": table},
                                                tomlfile._Reader("the setting", tomlfile._Lines("")))
            assert as_values == as_text, text
        except InputError as error:
            assert isinstance(changed, str) and error.message.removeprefix("[tournament]: ") in changed, text


@pytest.mark.parametrize("result", ["[1]", "{ a = 1 }", "1", "true", '"1 - 0"', '"x"'])
def test_a_game_result_of_any_type_is_refused_or_read_as_the_general_checks_read_it(result: str) -> None:
    """Plain game entries are read without the general checks' detours; any other value, of any
    type, still gets the general reading and its refusal (no crash on an unhashable value)."""
    text = (f'[tournament]\nname = "T"\n\n[[players]]\nid = 1\nname = "A"\n\n[[players]]\nid = 2\nname = "B"\n\n'
            f"[[games]]\nround = 1\nwhite = 1\nblack = 2\nresult = {result}\n")
    if result == '"1 - 0"':
        assert parse_tournament_toml(text).games[0].result is Result.WHITE_WINS
        return
    with pytest.raises(InputError, match=r"\[\[games\]\] entry 1: .*line 16|:16: \[\[games\]\] entry 1"):
        parse_tournament_toml(text)
