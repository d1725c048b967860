"""A file read straight into the engine's columns (``ranking.formats.crosstable``, ranked by
``ranking.standings.engine``) gives the standings the model's readers give, to the byte, or is
left to them (issue 13; one engine since issue 26).

Each case reads the same TRF or TOML text both ways: the model's way (``parse_trf`` or
``parse_tournament_toml``, the command line's ``choose_rules``, ``final_standings``, whose
tie-breaks the same engine computes on the scoresheet's columns) and straight into columns; the
JSON texts must be equal wherever the columns' reader answers, and it must answer for every
tournament the generators make (byes, forfeits, double forfeits, unfinished games, withdrawals,
unrated games and players, gaps in the starting numbers, round robins and double round robins)
with every code but LOT and every modifier.  Where the model refuses a text, the columns'
readers must refuse it too (return None), so that every error message stays the model's.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from generators import generate_round_robin, generate_swiss
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import tournaments

from ranking.errors import InputError
from ranking.event.model import System, Team, Tournament
from ranking.formats.crosstable import read_toml, read_trf
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.tomlfile import parse_tournament_toml
from ranking.formats.trf_read import parse_trf
from ranking.formats.trf_write import write_trf
from ranking.scoring.rules import Rules, Scoring
from ranking.standings import ordering
from ranking.standings.engine import CHESS_SCORING, CODES, crosstable_standings, parse_chain
from ranking.standings.final import final_standings
from ranking.standings.individual import default_rules
from ranking.tiebreaks.codes import split_codes
from ranking.tiebreaks.individual import REGISTRY
from ranking.tiebreaks.presets import PRESETS
from tiebreak.cli import choose_rules
from tiebreak.notices import chain_warnings

DATA = Path(__file__).parent / "data"

#: Chains the columnar path computes: the defaults, issue 13's, the benchmark's, every code and
#: modifier it takes.
CHAINS = (
    None,
    "DE,BH-C1,BH,SB,PS,WIN",
    "BH-C1,BH,SB,DE,WIN,PS,ARO",
    "BH-M1,SB-C1,PS-C1,KS/L+1,WON,BPG,BWG,REP,FOUL,TPN,RTNG,ARO-C1",
    "KS,SB/M2,BH/C2,DE,AROC,KS/L-1,BH-M2",
    "DE/P,BH/P,SB-C1/P,KS/P,WON/P,BPG/P,BWG/P,BH-M1/P,WIN",
    "FB,AOB,STD,GP,TPR,PTP,APRO,APPO,ARO/P,DEB,PREV,PS-D",
    "PS-D,FB-C1/P,AOB/P,TPR/P,PTP/P,APRO/P,APPO/P,FB/M1,ARO-C1/P,DEB,GE",
    "",
)
WARNED = "(and a warning on standard error)"
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def model_json(text: str, kind: str, tiebreaks: str | None, points: str | None, edition: str | None,
               after_round: int | None) -> str:
    """What ``tiebreak standings FILE --json`` prints on the full path (InputError if it refuses;
    ``WARNED`` when it also prints a warning about the chain)."""
    tournament = parse_trf(text, "case") if kind == "trf" else parse_tournament_toml(text, "case")
    rules = choose_rules(default_rules(tournament), None, points, tiebreaks, edition)
    final = final_standings(tournament, rules, after_round)
    if chain_warnings(final.standings):
        return WARNED
    return json.dumps(final.as_json(), ensure_ascii=False)


def columnar_json(text: str, kind: str, tiebreaks: str | None, points: str | None, edition: str | None,
                  after_round: int | None) -> str | None:
    table = read_trf(text, "case") if kind == "trf" else read_toml(text, "case")
    if table is None:
        return None
    parsed = tuple(float(part) for part in points.split(",")) if points else None
    data = crosstable_standings(table, None if tiebreaks is None else split_codes(tiebreaks), parsed, edition,
                                after_round)
    return None if data is None else json.dumps(data, ensure_ascii=False)


def same_standings(text: str, kind: str, *, tiebreaks: str | None = None, points: str | None = None,
                   edition: str | None = None, after_round: int | None = None, answered: bool = True) -> None:
    """The two ways agree; with ``answered`` the columnar way must also give an answer."""
    options = (tiebreaks, points, edition, after_round)
    try:
        expected = model_json(text, kind, *options)
    except InputError:
        assert columnar_json(text, kind, *options) is None
        return
    found = columnar_json(text, kind, *options)
    if expected is WARNED:  # a cut that leaves no value: the full path says so on standard error
        assert found is None, "the columnar path does not warn: it must step aside"
        return
    if answered:
        assert found is not None, "the columnar path stepped aside"
    if found is not None:
        assert found == expected


def texts(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament as TOML, and as TRF when TRF can hold it."""
    written = [(write_tournament_toml(tournament), "toml")]
    with contextlib.suppress(InputError):  # starting numbers above 9999
        written.append((write_trf(tournament), "trf"))
    return written


# -- generated tournaments ------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "rounds", "seed"), [(30, 5, 1), (61, 7, 2), (200, 9, 3)])
def test_generated_swiss_events(players: int, rounds: int, seed: int) -> None:
    tournament = generate_swiss(players, rounds, seed)
    for text, kind in texts(tournament):
        for chain in CHAINS:
            same_standings(text, kind, tiebreaks=chain)
        same_standings(text, kind, tiebreaks=CHAINS[1], edition="2024", after_round=rounds // 2)
        same_standings(text, kind, tiebreaks=CHAINS[3], points="3,1,0", after_round=1)


def test_the_benchmark_s_swiss() -> None:
    """1,000 players, 11 rounds, issue 13's chain (``benchmarks/standings.py``)."""
    for text, kind in texts(generate_swiss(1000, 11)):
        same_standings(text, kind, tiebreaks=CHAINS[1])


@pytest.mark.parametrize("players", [5, 8, 11])
def test_generated_round_robins(players: int) -> None:
    tournament = generate_round_robin(players, seed=players)
    for text, kind in texts(tournament):
        for chain in CHAINS:
            same_standings(text, kind, tiebreaks=chain)
            same_standings(text, kind, tiebreaks=chain, edition="2024", after_round=players // 2)


@SETTINGS
@given(tournaments(systems=tuple(System)), st.sampled_from(CHAINS), st.sampled_from((None, "2024", "2026")),
       st.sampled_from((None, "2,1,0", "3,1,0", "1,0.5,0")), st.data())
def test_every_kind_of_tournament(tournament: Tournament, chain: str | None, edition: str | None,
                                  points: str | None, data) -> None:
    after_round = data.draw(st.none() | st.integers(0, tournament.rounds))
    for text, kind in texts(tournament):
        same_standings(text, kind, tiebreaks=chain, points=points, edition=edition, after_round=after_round)


@SETTINGS
@given(tournaments(), st.sampled_from([Scoring(win=2.0, draw=1.0, loss=0.0),
                                       Scoring(win=3.0, draw=1.0, loss=0.0, pairing_bye=1.5, half_bye=1.0),
                                       Scoring(forfeit_win=0.5, zero_bye=0.25, full_bye=0.75)]))
def test_the_file_s_own_scoring_and_chain(tournament: Tournament, scoring: Scoring) -> None:
    """TRF XXS scoring and a 212 chain, TOML tiebreaks: the file's own rules."""
    with_rules = replace(tournament, rules=Rules(scoring=scoring, tiebreaks=("SB", "DE", "BH-C1", "KS", "WIN")))
    for text, kind in texts(with_rules):
        if kind == "trf":
            same_standings(text, kind)


# -- where the columnar path steps aside ----------------------------------------------------------------

def test_codes_it_does_not_compute_go_to_the_model() -> None:
    text = write_trf(generate_swiss(40, 5))
    for chain in ("LOT", "BH,LOT"):
        assert columnar_json(text, "trf", chain, None, None, None) is None
        same_standings(text, "trf", tiebreaks=chain, answered=False)


def test_team_files_go_to_the_model() -> None:
    for path in sorted((DATA / "teams").glob("*.trf")):
        assert read_trf(path.read_text(encoding="utf-8"), path.name) is None
    league = generate_round_robin(4)
    teams = replace(league, teams=(Team(1, "A", (1, 2)), Team(2, "B", (3, 4))))
    assert read_toml(write_tournament_toml(teams), "teams.toml") is None


def test_files_with_rules_beyond_a_chain_go_to_the_model() -> None:
    base = generate_swiss(20, 4)
    for rules in (PRESETS["cxa-swiss-bh"], replace(Rules(), scoring=Scoring(win=2.0, draw=1.0, loss=0.0))):
        assert read_toml(write_tournament_toml(replace(base, rules=rules)), "rules.toml") is None
    coloured = Scoring(win=3.0, draw=1.0, loss=0.0, draw_first=1.0, draw_second=2.0)
    text = write_trf(replace(base, rules=Rules(scoring=coloured)))
    table = read_trf(text, "coloured.trf")
    assert table is not None and crosstable_standings(table) is None


MALFORMED = sorted((DATA / "trf" / "errors").glob("*.trf")) + sorted((DATA / "toml" / "errors").glob("*.toml"))


@pytest.mark.parametrize("path", MALFORMED, ids=lambda path: path.name)
def test_malformed_files_are_left_to_the_model(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    model, columnar = (parse_trf, read_trf) if path.suffix == ".trf" else (parse_tournament_toml, read_toml)
    with pytest.raises(InputError):
        model(text, path.name)
    assert columnar(text, path.name) is None


def _mutations(text: str, seed: int, alphabet: str) -> list[str]:
    rng = random.Random(seed)
    found = []
    for _ in range(40):
        edited = list(text)
        for _ in range(rng.randint(1, 3)):
            place = rng.randrange(len(edited))
            choice = rng.random()
            if choice < 0.6:
                edited[place] = rng.choice(alphabet)
            elif choice < 0.8:
                del edited[place]
            else:
                edited.insert(place, rng.choice(alphabet))
        found.append("".join(edited))
    return found


@pytest.mark.parametrize("seed", range(12))
def test_mutated_files_are_read_alike_or_left_to_the_model(seed: int) -> None:
    tournament = generate_swiss(12, 4, seed)
    for text, kind in texts(tournament):
        alphabet = " 0123456789wbWB-+=UZHF\nxL" if kind == "trf" else ' 0123456789"=[]\n-abkz'
        for edited in _mutations(text, seed, alphabet):
            same_standings(edited, kind, tiebreaks=CHAINS[1], answered=False)


def test_players_without_any_round() -> None:
    """A TRF before the first round: no line has a round block (found by hypothesis)."""
    head = "001 {:>4}      Player {:<26} 2000"
    text = "012 Before round 1\nXXR 5\n" + "".join(head.format(pid, pid) + "\n" for pid in (1, 2, 3))
    for chain in CHAINS:
        same_standings(text, "trf", tiebreaks=chain)


def _zero_padded(text: str, opponents_too: bool) -> str:
    """The TRF with its starting numbers (columns 5-8) written 0012, and its opponents too."""
    lines = []
    for line in text.splitlines():
        if line.startswith("001 "):
            line = f"{line[:4]}{int(line[4:8]):04d}{line[8:]}"
            if opponents_too:
                blocks = [line[at:at + 10] for at in range(91, len(line), 10)]
                padded = [f"{int(b[:4]):04d}{b[4:]}" if b[:4].strip().isdigit() else b for b in blocks]
                line = line[:91] + "".join(padded)
        lines.append(line)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("opponents_too", [False, True])
def test_starting_numbers_written_with_leading_zeros(opponents_too: bool) -> None:
    text = write_trf(generate_swiss(30, 5, seed=4))
    padded = _zero_padded(text, opponents_too)
    assert padded != text
    for chain in (None, CHAINS[1]):
        same_standings(padded, "trf", tiebreaks=chain)


@pytest.mark.parametrize("path", sorted(DATA.glob("**/*.trf")), ids=lambda path: str(path.relative_to(DATA)))
def test_every_trf_of_the_tests(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    for chain in (None, CHAINS[1], CHAINS[3]):
        same_standings(text, "trf", tiebreaks=chain, answered=False)
        same_standings(text, "trf", tiebreaks=chain, edition="2024", after_round=2, answered=False)


# -- the code grammar, the defaults ---------------------------------------------------------------------

@pytest.mark.parametrize("code", ["BH", "bh-c1", "BH/C2", "BH-M1", "BH/M2", "SB-C1", "SB/M1", "PS", "PS/C1", "PS-C2",
                                  "KS", "KS/L+1", "KS/L-2", "KS/L3", "ARO", "AROC", "AROC-1", "ARO-C1", "ARO/C2",
                                  "WIN", "WON", "BPG", "BWG", "REP", "FOUL", "TPN", "RTNG", "DE", "BH/P", "SB-C1/P",
                                  "KS/L+1/P", "WON/P", "BPG/P", "BWG/P", "DE/P"])
def test_codes_are_read_as_the_registry_reads_them(code: str) -> None:
    spec = REGISTRY.parse(code)
    assert parse_chain([code]) == [spec]


@pytest.mark.parametrize("code", ["BH/C1/C2", "BH/X1", "WIN/C1", "KS/C1", "BH/C10", "XX", " BH", "LOT", "BH/P/P",
                                  "WIN/P"])
def test_codes_it_does_not_read_are_left_to_the_registry(code: str) -> None:
    assert parse_chain([code]) is None


def test_the_engine_computes_every_code_of_the_registry() -> None:
    """Every registry code but LOT (whose seed is the model's) on a file's columns, with the
    registry's modifiers, its lower-is-better codes and its ordering codes."""
    from ranking.standings import engine

    entries = {entry.code: entry for entry in REGISTRY.values()}
    assert set(CODES) == set(entries) - {"LOT"}
    for name, letters in CODES.items():
        assert letters == entries[name].modifiers, name
    assert {name for name, entry in entries.items() if entry.lower_is_better} == engine._LOWER_IS_BETTER
    sheet = engine.ColumnSheet(read_trf(write_trf(generate_swiss(10, 3)), "t"), dict(engine.CHESS_SCORING), "2026", 3)
    ordering_codes = {name for name in CODES if sheet.criterion(parse_chain([name])[0])[1] == ordering.ORDER}
    assert ordering_codes == {name for name, entry in entries.items() if entry.orders} - {"LOT"}
    assert (PRESETS["fide-swiss"].tiebreaks, PRESETS["fide-rr"].tiebreaks) == (ordering.FIDE_SWISS_CHAIN,
                                                                               ordering.FIDE_RR_CHAIN)


def test_the_rules_record_defaults_are_the_model_s() -> None:
    """A ``### tiebreak rules`` record is read on the columnar path only with default options."""
    from dataclasses import fields

    from ranking.formats import crosstable
    from ranking.scoring.rules import Options

    scoring = {f.name: getattr(Scoring(), f.name) for f in fields(Scoring) if f.name != "match"}
    options = {f.name: getattr(getattr(Options(), f.name), "value", getattr(Options(), f.name))
               for f in fields(Options)}
    assert scoring == CHESS_SCORING
    assert options == crosstable._DEFAULT_OPTIONS


def test_files_tiebreak_wrote_keep_the_columnar_path() -> None:
    """Withdrawals and the rules in ``### tiebreak`` records (``ranking.formats.trf_extras``)."""
    t = generate_swiss(100, 7)
    assert t.withdrawals
    with_rules = replace(t, rules=Rules(scoring=Scoring(win=3.0, draw=1.0, loss=0.0), tiebreaks=("BH-C1", "SB")))
    for tournament in (t, with_rules):
        text = write_trf(tournament)
        assert "### tiebreak withdrawn" in text
        same_standings(text, "trf")
        same_standings(text, "trf", tiebreaks=CHAINS[1])
    for record in ("### tiebreak game go", "### tiebreak fouls 1 1 1 0 1", "### tiebreak playoff 1 1 2 1-0"):
        assert columnar_json(write_trf(t) + record + "\n", "trf", None, None, None, None) is None
