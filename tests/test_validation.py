"""Every published value in tests/data/validation (``tests/data/validation/INDEX.md`` lists them).

- FIDE TEC "Exercises in Tie-Breaking" (IA Mario Held): every individual value, including
  the places that direct encounter gives, under the C.07 text they were computed for
  (2024-08: article 16 unchanged from 2023), plus TieBreakServer's values for the 2026 edition.
- Vega tournaments: every printed tie-break value to Vega's display precision, under the
  edition INDEX.md names; Vega breaks complete ties by its own order, we share the place.
- chess-results round robin (SB) and the 2021 World Blitz (points only: pre-2023 rules).
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from ranking.event.model import System
from ranking.scoring.rules import Edition, Options, Rules
from ranking.standings.individual import compute_standings
from tiebreak.files import load_tournament

DATA = Path(__file__).parent / "data" / "validation"
TEC = ["fide_tec_exercises_2024_swiss16", "fide_tec_exercises_2024_rr6", "fide_tec_exercises_2024_swiss9_de"]


def _code(label: str) -> str:
    code = label.split()[0]
    return {"GE": "REP"}.get(code, code)


def _tec_cases() -> list[tuple[str, str, Edition, str, dict[str, float]]]:
    cases = []
    for directory in TEC:
        expected = json.loads((DATA / directory / "expected.json").read_text())
        for exercise in expected["expected_by_exercise"]:
            label = f"{directory}-ex{exercise['exercise']}"
            cases.append((label, directory, Edition.FIDE_2024, exercise["tiebreak"], exercise["values"]))
        for code, values in expected.get("values_under_2026_rules_NOT_FIDE_PUBLISHED", {}).items():
            if isinstance(values, dict):
                cases.append((f"{directory}-2026-{code}", directory, Edition.FIDE_2026, code, values))
    return cases


TEC_CASES = _tec_cases()


@pytest.mark.parametrize(("directory", "edition", "label", "values"),
                         [case[1:] for case in TEC_CASES], ids=[case[0] for case in TEC_CASES])
def test_fide_tec_exercise(directory: str, edition: Edition, label: str, values: dict[str, float]) -> None:
    tournament = load_tournament(DATA / directory / "tournament.trf")
    code = _code(label)
    standings = compute_standings(tournament, Rules(tiebreaks=(code,), options=Options(fide_edition=edition)))
    if code == "DE":  # published as the place in a PTS, DE ranking
        got = {str(row.player.id): row.rank for row in standings.rows}
    else:
        got = {str(row.player.id): row.values[code] for row in standings.rows}
    assert {player: got[player] for player in values} == values


def test_all_fide_tec_individual_values_are_checked() -> None:
    assert sum(len(case[4]) for case in TEC_CASES) == 328


def test_tec_final_scores() -> None:
    expected = json.loads((DATA / TEC[0] / "expected.json").read_text())["expected_final_scores"]
    standings = compute_standings(load_tournament(DATA / TEC[0] / "tournament.trf"))
    assert {str(row.player.id): row.points for row in standings.rows} == expected


VEGA = sorted(path.name for path in DATA.glob("vega_*"))


def _vega_edition(expected: dict) -> Edition:
    return Edition.FIDE_2026 if "2026-03 C.07 rules (capped" in expected["rules_regime_evidence"] else Edition.FIDE_2024


def _shown_as(value: float | int | None, printed: float) -> bool:
    """Vega prints Swiss tie-breaks to one decimal, rounding half to even."""
    if value is None:
        return False
    if value == printed:
        return True
    decimals = -Decimal(str(printed)).as_tuple().exponent
    return decimals <= 1 and round(value, 1) == printed


@pytest.mark.parametrize("directory", VEGA)
def test_vega_tournament(directory: str) -> None:
    expected = json.loads((DATA / directory / "expected.json").read_text())
    columns = expected["tiebreak_columns"]
    codes = tuple("DE" if column == "DirE" else column for column in columns)
    rules = Rules(tiebreaks=codes, options=Options(fide_edition=_vega_edition(expected)))
    standings = compute_standings(load_tournament(DATA / directory / "tournament.trf"), rules)
    rows = {row.player.id: row for row in standings.rows}
    compared = 0
    for printed in expected["expected_standings"]:
        row = rows[printed["pairing_no"]]
        assert row.points == printed["points"], printed
        for column, code in zip(columns, codes, strict=True):
            if code == "DE":
                continue  # Vega's DE column semantics vary between versions: checked through the order
            assert _shown_as(row.values[code], printed["tiebreaks"][column]), (printed, code, row.values[code])
            compared += 1
    # Same order; players equal on everything share the place Vega gives the first of them.
    printed_order = sorted(expected["expected_standings"], key=lambda entry: entry["rank"])
    first_rank_of_class: dict[tuple, int] = {}
    for entry in printed_order:
        row = rows[entry["pairing_no"]]
        tie_class = (row.points, *(row.values[code] for code in codes))
        first_rank_of_class.setdefault(tie_class, entry["rank"])
        assert row.rank == first_rank_of_class[tie_class], entry
    assert compared == sum(code != "DE" for code in codes) * len(printed_order)


def test_chess_results_round_robin_sonneborn_berger() -> None:
    expected = json.loads((DATA / "chessresults_tnr437642_rr6" / "expected.json").read_text())
    matrix = expected["crosstable_matrix_row_vs_col"]
    names = list(matrix)
    points = {row: sum({"1": 1.0, "½": 0.5, "0": 0.0, "*": 0.0}[cell] for cell in cells)
              for row, cells in matrix.items()}
    from build import make  # the export has no rounds: play the same games on a circle schedule

    rounds = []
    for shift in range(5):  # six players: 6 stays, 1-5 rotate
        pairs = [(shift, 5)] + [((shift + k) % 5, (shift - k) % 5) for k in (1, 2)]
        entries = []
        for a, b in pairs:
            result = {"1": "1-0", "½": "=", "0": "0-1"}[matrix[names[a]][b]]
            entries.append(f"{a + 1}-{b + 1} {result}")
        rounds.append("; ".join(entries))
    tournament = make(rounds, system=System.ROUND_ROBIN)
    standings = compute_standings(tournament, Rules(tiebreaks=("SB",)))
    by_id = {row.player.id: row for row in standings.rows}
    for i, row in enumerate(names):
        published = expected["expected_standings"][i]
        assert by_id[i + 1].points == points[row] == published["points"]
        assert by_id[i + 1].values["SB"] == published["TB1"]


def test_world_blitz_2021_points() -> None:
    """Pre-2023 tie-break values are not comparable (virtual opponent); the scores are."""
    directory = DATA / "chessresults_world_blitz_2021_open"
    expected = json.loads((directory / "expected.json").read_text())["expected_standings"]
    standings = compute_standings(load_tournament(directory / "tournament.trf"))
    by_id = {row.player.id: row.points for row in standings.rows}
    assert [by_id[place] for place in range(1, len(expected) + 1)] == [entry["points"] for entry in expected]
