"""A 40-player rated open entered in random order (tests/data/open/open-40.toml), run from the
command line as ``tests/open_scenario.py`` scripts it: every round Tiebreak pairs is the pairing
bbpPairings v6.0.0 gave for the same round of the same event (recorded in tests/data/open), with
its colours and board order, through late entries, corrections before and after round 4, a
withdrawal and a return, and a round un-paired and brought back."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from generators import generate_swiss
from open_scenario import DATA, SLUG, in_process, ok, pairs_in_tpn, run

from ranking.event.model import ByeKind, Seeding
from ranking.pairing.dutch import pair_round
from ranking.pairing.swiss import pair_swiss


def test_every_round_is_paired_as_bbppairings_pairs_it(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[storage]\npath = "store.sqlite3"\n', encoding="utf-8")
    command = in_process(config)
    compared: list[int] = []

    def paired(number: int) -> None:
        expected = (DATA / f"open-40.round-{number}.pairs").read_text(encoding="utf-8")
        assert pairs_in_tpn(command, number) == expected, f"round {number}"
        compared.append(number)

    run(command, paired)
    assert compared == [1, 2, 3, 4, 5, 6]


def test_round_1_pairs_the_top_half_against_the_bottom_half_by_rating(tmp_path: Path) -> None:
    """Entered in random order, paired by the initial ranking list (GHR 2): TPN 1 v TPN 21, TPN
    22 v TPN 2, ... (C.04.3: round 1 pairs the first half against the second)."""
    config = tmp_path / "config.toml"
    config.write_text('[storage]\npath = "store.sqlite3"\n', encoding="utf-8")
    command = in_process(config)
    ok(command, "import", str(DATA / "open-40.toml"), "--slug", SLUG)
    players = json.loads(ok(command, "players", SLUG, "--json"))
    assert [row["tpn"] for row in players] == list(range(1, 41))
    assert [row["id"] for row in players] != list(range(1, 41))  # not the order they were entered in
    ratings = [row["rating"] for row in players]
    assert ratings == sorted(ratings, reverse=True)
    tied = [row for row in players if row["rating"] == players[5]["rating"]]
    assert [row["title"] for row in tied] == ["IM", "FM", ""]  # equal ratings: by title (GHR 2.2)
    ok(command, "pair", SLUG)
    tpn = {row["id"]: row["tpn"] for row in players}
    boards = json.loads(ok(command, "round", SLUG, "--json"))["boards"]
    pairs = [sorted((tpn[board["white"]], tpn[board["black"]])) for board in boards]
    assert pairs == [[k, k + 20] for k in range(1, 21)]
    assert (tpn[boards[0]["white"]], tpn[boards[1]["white"]]) == (1, 22)  # colours alternate (XXC white1)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_same_field_entered_in_any_order_is_paired_the_same(seed: int) -> None:
    """A generated Swiss (byes, forfeits, withdrawals) before its last round, its players given
    other starting numbers in random order and ratings that rank them as before: the Dutch
    engine pairs the renumbered event (``ranking.pairing.swiss.pair_swiss``) exactly as the original."""
    event = generate_swiss(60, 7, seed=seed)
    event = replace(event, games=tuple(g for g in event.games if g.round < 7),
                    byes=tuple(b for b in event.byes if b.round < 7 or b.kind is not ByeKind.PAIRING))
    ids = [player.id for player in event.players]
    shuffled = random.Random(seed).sample(ids, len(ids))
    new = dict(zip(ids, shuffled, strict=True))
    entered = replace(
        event, seeding=Seeding.RATING,
        players=tuple(replace(p, id=new[p.id], rating=3000 - p.id, title="") for p in event.players),
        games=tuple(replace(g, white=new[g.white], black=new[g.black]) for g in event.games),
        byes=tuple(replace(b, player=new[b.player]) for b in event.byes),
        withdrawals=tuple(replace(w, player=new[w.player]) for w in event.withdrawals))
    original, renumbered = pair_round(event, 7), pair_swiss(entered, 7)
    assert [(new[b.white], new[b.black]) for b in original.boards] == [(b.white, b.black) for b in renumbered.boards]
    assert (new[original.bye] if original.bye else None) == renumbered.bye
