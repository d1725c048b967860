"""Hand-made rounds that pin two readings of the Dutch rules (C.04.3, 2026) where engines can
differ: the rank number of 5.2.5 and the scope of C9.  Each expected pairing is what
bbpPairings v6.0.0 (FIDE-endorsed) gave for the same file (``-p``), recorded here.

Players are numbered in rating order, so the start number is the TPN.  Round entries are
written as in a TRF: ``OPP C R`` for a game (``5 w 1``), ``0000 - H`` for a half-point bye,
``0000 - Z`` for an absence, ``0000 - U`` for a pairing-allocated bye.
"""

from __future__ import annotations

import pytest

from ranking.formats.trf_read import parse_trf
from ranking.pairing.dutch import pair_round


def _trf(rows: dict[int, list[str]], rounds: int = 5) -> str:
    """A TRF-2026 file (initial colour white) with the given round entries per player."""
    lines = ["012 Pinned case", f"XXR {rounds}", "XXC white1"]
    for pid, entries in sorted(rows.items()):
        cells = "".join(f"  {o:>4} {c} {r}" for o, c, r in (e.split() for e in entries))
        lines.append(f"001 {pid:>4}      {f'Player {pid}':<33} {2500 - 10 * pid:>4}{'':>33}{pid:>4}{cells}")
    return "\n".join(lines) + "\n"


def _pairs(text: str, rnd: int) -> set[tuple[int, int]]:
    pairing = pair_round(parse_trf(text), rnd)
    return set(pairing.pairs) | ({(pairing.bye, 0)} if pairing.bye is not None else set())


# Round 1: 1-5, 2-6 and 3-7 won by white; 4 and 8 take half-point byes.  Round 2 pairs 4 and 8
# (or 4 and 5), neither of whom has played: 5.2.5 gives the higher-ranked one (4) the initial
# colour (white) when his rank number is odd.  The rank number counts the players in the event
# so far, in the initial order: everyone to be paired now, and everyone paired in an earlier
# round (a game, a forfeit or a PAB), even when absent now; a player absent now who was never
# paired has not entered yet (a late entry not yet arrived, C.04.2 2.4) and is not counted.
ROUND_ONE = {1: ["5 w 1"], 2: ["6 w 1"], 3: ["7 w 1"], 4: ["0000 - H"], 5: ["1 b 0"], 6: ["2 b 0"],
             7: ["3 b 0"], 8: ["0000 - H"]}
RANK_NUMBER_CASES = {
    # 1 played round 1 and takes a half-point bye now: counted, 4 is number 4 (black)
    "bye-holder above": ({**ROUND_ONE, 1: ["5 w 1", "0000 - H"]},
                         {(3, 2), (8, 4), (5, 6), (7, 0)}),
    # 1 was absent in rounds 1 and 2: never paired, not counted, 4 is number 3 (white)
    "absentee never paired above": ({**ROUND_ONE, 1: ["0000 - Z", "0000 - Z"], 5: ["0000 - H"]},
                                    {(3, 2), (4, 5), (6, 8), (7, 0)}),
    # both: 1 counted, 2 not: 4 is number 3 (white)
    "both": ({1: ["5 w 1", "0000 - H"], 2: ["0000 - Z", "0000 - Z"], 3: ["6 w 1"], 4: ["0000 - H"],
              5: ["1 b 0"], 6: ["3 b 0"], 7: ["0000 - H"], 8: ["9 w 1"], 9: ["8 b 0"]},
             {(8, 3), (4, 7), (5, 6), (9, 0)}),
    # a PAB is a pairing: 1 is counted although absent now
    "PAB then absent above": ({**ROUND_ONE, 1: ["0000 - U", "0000 - Z"], 5: ["0000 - H"]},
                              {(3, 2), (5, 4), (6, 8), (7, 0)}),
    # a forfeited game is a pairing too (GHR 3.5 makes it no game, not no pairing)
    "double forfeit then absent above": ({**ROUND_ONE, 1: ["5 w -", "0000 - Z"], 5: ["1 b -"]},
                                         {(3, 2), (8, 4), (6, 5), (7, 0)}),
    # half-point byes in rounds 1 and 2: never paired, not counted
    "two byes above": ({**ROUND_ONE, 1: ["0000 - H", "0000 - H"], 5: ["0000 - H"]},
                       {(3, 2), (4, 5), (6, 8), (7, 0)}),
    # absent in round 1, present now: counted (and paired)
    "late entry above": ({**ROUND_ONE, 1: ["0000 - Z"], 5: ["0000 - H"]},
                         {(3, 2), (5, 4), (6, 8), (7, 1)}),
}


@pytest.mark.parametrize("case", RANK_NUMBER_CASES)
def test_rank_number_of_5_2_5(case: str):
    rows, expected = RANK_NUMBER_CASES[case]
    assert _pairs(_trf(rows), 2) == expected


# C9 (the PAB assignee with the fewest unplayed games) applies to the bracket whose only
# downfloater gets the PAB, even when lower brackets follow (nobody below may get it, C2).
C9_ABOVE_THE_LAST_BRACKET = {
    1: ["4 w -", "3 w 1", "6 b 1"], 2: ["5 b -", "0000 - Z", "0000 - U", "0000 - H"],
    3: ["6 w 1", "1 b 0", "5 w 1"], 4: ["1 b +", "5 b +", "0000 - H"],
    5: ["2 w +", "4 w -", "3 b 0"], 6: ["3 b 0", "0000 - U", "1 w 0"],
}


def test_c9_chooses_the_pab_in_the_bracket_whose_only_downfloater_gets_it():
    # round 4: 4 (2.5) floats into the 2.0 bracket {1, 3}, 5 and 6 (1.0) may not get the PAB;
    # of 1 (one unplayed round) and 3 (none), 3 gets the PAB
    assert _pairs(_trf(C9_ABOVE_THE_LAST_BRACKET, rounds=4), 4) == {(1, 4), (3, 0), (5, 6)}


# A bracket that downfloats two players does not apply C9, although one of them ends with the PAB.
C9_NOT_FOR_TWO_DOWNFLOATERS = {
    1: ["4 b 1", "7 w 1", "2 b +", "3 b 1", "2 w ="], 2: ["5 w 1", "3 b =", "1 w -", "7 w 1", "1 b ="],
    3: ["6 b 1", "2 w =", "7 b 1", "1 w 0", "5 b ="], 4: ["1 w 0", "0000 - H", "6 b 1", "5 w 1", "0000 - U"],
    5: ["2 b 0", "6 w =", "0000 - U", "4 b 0", "3 w ="], 6: ["3 w 0", "5 b =", "4 w 0", "0000 - U", "7 b ="],
    7: ["0000 - U", "1 b 0", "3 w 0", "2 b 0", "6 w ="],
}


def test_c9_does_not_apply_to_a_bracket_with_two_downfloaters():
    # round 6: the 3.0 bracket {MDPs 1, 4; 2, 3} pairs 4 with 2 or 3 and downfloats 1 and the
    # other; C9 would float 3 (no unplayed round), but 3 had a downfloat in round 5 (C14), so 2
    # floats and gets the PAB in the end
    assert _pairs(_trf(C9_NOT_FOR_TWO_DOWNFLOATERS, rounds=6), 6) == {(2, 0), (3, 4), (6, 1), (7, 5)}
