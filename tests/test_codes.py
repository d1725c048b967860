"""Tie-break codes: older spellings (AROC, AROC-1) and the plain-English words for every code."""

from __future__ import annotations

import itertools

import cli
import pytest
from build import make

from ranking.errors import InputError
from ranking.event.model import Player
from ranking.scoring.rules import Rules
from ranking.standings.individual import compute_standings
from ranking.tiebreaks.individual import REGISTRY
from ranking.tiebreaks.team import TEAM_REGISTRY


@pytest.mark.parametrize("spelling", ["AROC", "AROC-1", "aroc", "Aroc-1"])
def test_aroc_and_aroc_1_are_spellings_of_aro_c1(spelling: str) -> None:
    spec = REGISTRY.parse(spelling)
    assert (spec.name, spec.cut, spec.canonical) == ("ARO", 1, "ARO/C1")
    assert spec.code == spelling  # JSON keys keep the code as given
    assert REGISTRY.parse(f"{spelling}/P").forfeits_played


def test_aroc_gives_the_values_of_aro_c1() -> None:
    tournament = make(["1-2 1-0; 3-4 =", "1-3 =; 2-4 0-1", "1-4 1-0; 2-3 ="])
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700}
    tournament = type(tournament)(tournament.name, tuple(Player(p.id, p.name, ratings[p.id])
                                                         for p in tournament.players),
                                  tournament.rounds, tournament.games)
    standings = compute_standings(tournament, Rules(tiebreaks=("AROC", "ARO")))
    cut = compute_standings(tournament, Rules(tiebreaks=("ARO-C1",)))
    assert {row.player.id: row.values["AROC"] for row in standings.rows} == \
        {row.player.id: row.values["ARO-C1"] for row in cut.rows} == {1: 1850, 2: 1900, 3: 1950, 4: 1950}


@pytest.mark.parametrize("chain", [("AROC", "ARO-C1"), ("AROC-1", "ARO/C1"), ("AROC", "AROC-1")])
def test_aroc_and_aro_c1_in_one_chain_are_the_same_code_twice(chain: tuple[str, str]) -> None:
    with pytest.raises(InputError, match="appears twice"):
        compute_standings(make(["1-2 1-0"]), Rules(tiebreaks=chain))


def test_aroc_with_a_second_cut_is_refused() -> None:
    with pytest.raises(InputError, match="modifier cut given twice"):
        REGISTRY.parse("AROC/C1")


def test_the_tiebreaks_command_lists_aroc_as_aliases_of_aro() -> None:
    result = cli.tiebreak("tiebreaks")
    assert result.returncode == 0
    aro = next(line for line in result.stdout.splitlines() if line.startswith("ARO "))
    assert "(also AROC, AROC-1)" in aro
    assert not any(line.startswith(("AROC ", "AROC-1 ")) for line in result.stdout.splitlines())
    rep = next(line for line in result.stdout.splitlines() if line.startswith("REP "))
    assert "(also GE)" in rep


# -- describe ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("code", "words"), [
    ("BH", "Buchholz"),
    ("BH-C1", "Buchholz without the lowest opponent's score"),
    ("BH/C2", "Buchholz without the two lowest opponents' scores"),
    ("BH-M1", "Median Buchholz: without the highest and the lowest"),
    ("BH/M2", "Median Buchholz: without the two highest and the two lowest"),
    ("FB/C1", "Fore Buchholz without the lowest opponent's score"),
    ("SB-C1", "Sonneborn-Berger without the lowest-scoring opponent"),
    ("KS", "Koya"),
    ("KS/L+1", "Koya with the limit moved up by one half-point"),
    ("KS/L-3", "Koya with the limit moved down by three half-points"),
    ("ARO-C1", "Average rating of opponents without the lowest-rated opponent"),
    ("AROC", "Average rating of opponents without the lowest-rated opponent"),
    ("PS-C1", "Progressive score without the first round"),
    ("BH/C1/P", "Buchholz without the lowest opponent's score, forfeits counted as games"),
    ("DE/P", "Direct encounter, forfeits counted as games"),
    ("GE", "Rounds one elected to play"),
])
def test_describe_names_the_base_and_every_modifier(code: str, words: str) -> None:
    assert REGISTRY.describe(REGISTRY.parse(code)) == words


@pytest.mark.parametrize(("code", "words"), [
    ("BH:MP", "Buchholz on match points"),
    ("BH-C1:MP", "Buchholz on match points without the lowest opponent's score"),
    ("BH:GP/M1", "Median Buchholz on game points: without the highest and the lowest"),
    ("EMGSB/C1", "Extended Sonneborn-Berger (opponents' match points x own game points) without the "
                 "lowest-scoring opponent"),
    ("ESB:GG", "Extended Sonneborn-Berger (opponents' game points x own game points)"),
    ("EDE/P", "Extended direct encounter, forfeits counted as games"),
])
def test_describe_names_team_codes(code: str, words: str) -> None:
    assert TEAM_REGISTRY.describe(TEAM_REGISTRY.parse(code)) == words


def _individual_codes() -> list[str]:
    """Every code the registry accepts, with every combination of its modifiers (C0-C3, M0-M2,
    L-2..L+2, P); aliases (GE, AROC) left out, they name a code listed already."""
    codes = []
    for code, entry in REGISTRY.items():
        if entry.code != code:
            continue
        cuts = range(4) if "C" in entry.modifiers else [0]
        medians = range(3) if "M" in entry.modifiers else [0]
        limits = range(-2, 3) if "L" in entry.modifiers else [0]
        played = (False, True) if "P" in entry.modifiers else (False,)
        for cut, median, limit, forfeits in itertools.product(cuts, medians, limits, played):
            parts = [code] + [f"C{cut}"] * bool(cut) + [f"M{median}"] * bool(median)
            parts += [f"L{limit:+d}"] * bool(limit) + ["P"] * forfeits
            codes.append("/".join(parts))
    return codes


def _team_codes() -> list[str]:
    codes = []
    for entry, _ in TEAM_REGISTRY.listing():  # each entry once: FOUL is FOUL:T
        code = entry.code
        scores = ("", ":MP", ":GP") if code in ("BH",) else (":MM", ":MG", ":GM", ":GG", "") \
            if code == "ESB" else ("",)
        cuts = range(3) if "C" in entry.modifiers else [0]
        medians = range(2) if "M" in entry.modifiers else [0]
        played = (False, True) if "P" in entry.modifiers else (False,)
        for score, cut, median, forfeits in itertools.product(scores, cuts, medians, played):
            parts = [code + score] + [f"C{cut}"] * bool(cut) + [f"M{median}"] * bool(median) + ["P"] * forfeits
            codes.append("/".join(parts))
    return codes


def test_describe_gives_different_codes_different_words() -> None:
    words: dict[str, str] = {}
    for code in _individual_codes():
        text = REGISTRY.describe(REGISTRY.parse(code))
        assert text not in words, (code, words.get(text), text)
        words[text] = code
    assert len(words) > 100
    team_words: dict[str, str] = {}
    for code in _team_codes():
        text = TEAM_REGISTRY.describe(TEAM_REGISTRY.parse(code))
        assert text not in team_words, (code, team_words.get(text), text)
        team_words[text] = code


def test_describe_does_not_change_the_registry_texts() -> None:
    """`tiebreak tiebreaks` and the README tables read the registry, which describe leaves alone."""
    REGISTRY.describe(REGISTRY.parse("BH/C1"))
    assert REGISTRY["BH"].name == "Buchholz"
    assert REGISTRY["BH"].definition == "sum of the opponents' scores (unplayed rounds per art. 16)"

