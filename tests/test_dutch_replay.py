"""Replaying every round of the 2026 reference set (bbpPairings v6.0.0): 129 of 129 identical.

Each round r of each file is truncated as the set's README says ("Replaying a round"):
rounds 1..r-1 are kept, of round r only the entries known
before pairing (H, Z, F byes and ``0000 - -`` absences), every other line as it is.  The
engine's pairs, as (white, black) plus (bye, 0), must equal the file's, colours included.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ranking.formats.trf_read import parse_trf
from ranking.pairing.dutch import pair_round

SET = Path(__file__).parent / "data" / "pairings-dutch-2026"
FILES = [line.split()[0] for line in (SET / "MANIFEST").read_text().splitlines() if line.strip() and line[0] != "#"]
FIRST = 91  # 0-based column of round 1's block
WIDTH = 10


def _blocks(line: str) -> list[str]:
    return [line[k : k + 8] for k in range(FIRST, len(line), WIDTH)]


def truncated(lines: list[str], rnd: int) -> str:
    out = []
    for line in lines:
        if not line.startswith("001"):
            out.append(line)
            continue
        blocks = _blocks(line)
        keep = [b.ljust(8) for b in blocks[: rnd - 1]]
        if len(blocks) >= rnd:
            block = blocks[rnd - 1].ljust(8)
            if block[:4] in ("0000", "    ") and block[7] in "HZF-":
                keep.append(block)
        out.append((line[:FIRST].ljust(FIRST) + "  ".join(keep)).rstrip())
    return "\n".join(out) + "\n"


def expected_pairs(lines: list[str], rnd: int) -> set[tuple[int, int]]:
    found = set()
    for line in lines:
        if not line.startswith("001"):
            continue
        blocks = _blocks(line)
        if len(blocks) < rnd:
            continue
        block = blocks[rnd - 1].ljust(8)
        pid, opponent, colour, result = int(line[4:8]), block[:4].strip(), block[5], block[7]
        if opponent in ("", "0000"):
            if result == "U":
                found.add((pid, 0))
        elif colour == "w":
            found.add((pid, int(opponent)))
    return found


def _cases() -> list[tuple[str, int]]:
    cases = []
    for name in FILES:
        lines = (SET / f"{name}.trf").read_text().splitlines()
        rounds = max(len(_blocks(line)) for line in lines if line.startswith("001"))
        cases += [(name, r) for r in range(1, rounds + 1)]
    return cases


CASES = _cases()


def test_the_set_has_129_rounds():
    assert len(FILES) == 16
    assert len(CASES) == 129


@pytest.mark.parametrize(("name", "rnd"), CASES, ids=[f"{n}-r{r}" for n, r in CASES])
def test_round_is_paired_as_bbppairings_did(name: str, rnd: int):
    lines = (SET / f"{name}.trf").read_text().splitlines()
    tournament = parse_trf(truncated(lines, rnd), source=f"{name}.trf")
    pairing = pair_round(tournament, rnd)
    got = set(pairing.pairs) | ({(pairing.bye, 0)} if pairing.bye is not None else set())
    assert got == expected_pairs(lines, rnd)
