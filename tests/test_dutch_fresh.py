"""The fresh set (``tests/data/pairings-dutch-fresh``, README): every round of 102 tournaments
that bbpPairings v6.0.0 paired, replayed with our engine the way ``tiebreak check`` does it
(``ranking.pairing.dutch.check_rounds``): 832 of 832 rounds identical, colours included."""

from __future__ import annotations

from pathlib import Path

import pytest

from ranking.formats.trf_read import parse_trf
from ranking.pairing.dutch import check_rounds

SET = Path(__file__).parent / "data" / "pairings-dutch-fresh"
FILES = [line.split()[0] for line in (SET / "MANIFEST").read_text().splitlines() if line.strip() and line[0] != "#"]


def test_the_set_has_102_files_and_832_rounds():
    assert len(FILES) == 102 == len(list(SET.glob("*.trf")))
    assert sum(parse_trf((SET / f"{name}.trf").read_text()).rounds for name in FILES) == 832


@pytest.mark.parametrize("name", FILES)
def test_every_round_is_paired_as_bbppairings_did(name: str):
    results = check_rounds(parse_trf((SET / f"{name}.trf").read_text(), source=f"{name}.trf"))
    differing = {rnd: check if isinstance(check, Exception) else [d.text for d in check.differences]
                 for rnd, check in results if isinstance(check, Exception) or not check.same}
    assert not differing
    assert len(results) == parse_trf((SET / f"{name}.trf").read_text()).rounds
