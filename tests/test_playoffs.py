"""Play-offs for named places (docs/rules.md#play-offs, FIDE C.07 art. 3, seed 001)."""

from __future__ import annotations

import hashlib

import pytest
from build import make

from ranking.event.model import Game, Result, System
from ranking.scoring.rules import DrawnMatch, Options, PlayoffFormat, PlayoffRule, PlayoffWhen, Rules
from ranking.standings.individual import compute_standings
from ranking.standings.playoffs import apply_playoffs, playoff_status

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def round_robin(n: int, results: dict[tuple[int, int], str] | None = None, **kwargs):
    """A single round robin of ``n`` players by the circle method; every game is a draw
    unless ``results`` gives it (keyed by the unordered pair, written from the lower id's side)."""
    results = results or {}
    ids = list(range(1, n + 1)) + ([0] if n % 2 else [])
    rounds = []
    for _ in range(len(ids) - 1):
        games = []
        for i in range(len(ids) // 2):
            a, b = ids[i], ids[-1 - i]
            if 0 in (a, b):
                continue
            low, high = min(a, b), max(a, b)
            text = results.get((low, high), "=")
            flipped = {"1-0": "0-1", "0-1": "1-0", "=": "="}[text]
            games.append(f"{a}-{b} {text if a == low else flipped}")
        rounds.append("; ".join(games))
        ids = [ids[0], ids[-1], *ids[1:-1]]
    return make(rounds, system=System.ROUND_ROBIN, **kwargs)


def standings(tournament, *codes: str, lots_seed: str = ""):
    return compute_standings(tournament, Rules(tiebreaks=codes or ("RTNG",), options=Options(lots_seed=lots_seed)))


def ranks(result) -> list[tuple[int, int]]:
    return [(row.rank, row.player.id) for row in result.rows]


def play(group, *results: Result) -> list[Game]:
    """Results for the group's pending games, in schedule order."""
    pending = group.pending
    return [Game(game.round, game.white, game.black, result) for game, result in zip(pending, results, strict=False)]


# Four players: 1 and 2 share first on 2.5 (they drew), 3 and 4 share third on 0.5.
TWO_TIED = {(1, 2): "=", (1, 3): "1-0", (1, 4): "1-0", (2, 3): "1-0", (2, 4): "1-0", (3, 4): "="}
RATINGS = {1: 2000, 2: 2100, 3: 1900, 4: 1800, 5: 1700, 6: 1600}


def test_two_tied_play_a_two_game_match_each_white_once() -> None:
    table = standings(round_robin(4, TWO_TIED, ratings=RATINGS))
    assert ranks(table)[:2] == [(1, 2), (2, 1)]  # RTNG separates them without a play-off
    [group] = playoff_status(table, PlayoffRule())
    assert group.format is PlayoffFormat.MATCH
    assert group.places == (1,) and group.first_place == 1 and set(group.players) == {1, 2}
    first, second = group.schedule
    assert (first.round, second.round) == (1, 2)
    assert (first.white, first.black) == (second.black, second.white)
    assert not group.decided and group.required == (2, 1)

    undecided = apply_playoffs(table, PlayoffRule())
    assert ranks(undecided) == [(1, 2), (1, 1), (3, 3), (4, 4)]  # both "play-off required"
    assert undecided.playoff_required(1) and undecided.playoff_required(2)
    assert not undecided.playoff_required(3)

    # Player 1 (lower on tie-breaks) wins the match 1.5-0.5 and takes first place.
    games = [Game(1, first.white, first.black, W if first.white == 1 else B),
             Game(2, second.white, second.black, D)]
    decided = apply_playoffs(table, PlayoffRule(), games)
    assert decided.groups[0].decided and decided.groups[0].order == (1, 2)
    assert ranks(decided) == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert decided.required == frozenset()
    assert [row.points for row in decided.rows[:2]] == [2.5, 2.5]  # rows keep their values


def test_a_drawn_match_goes_to_an_armageddon_game_where_a_draw_favours_black() -> None:
    table = standings(round_robin(4, TWO_TIED, ratings=RATINGS))
    [group] = playoff_status(table, PlayoffRule())
    drawn = play(group, D, D)
    [group] = playoff_status(table, PlayoffRule(), drawn)
    assert not group.decided
    [armageddon] = group.pending
    assert armageddon.round == 3 and group.stages[-1].name == "match armageddon"
    [group] = playoff_status(table, PlayoffRule(), [*drawn, Game(3, armageddon.white, armageddon.black, D)])
    assert group.order == (armageddon.black, armageddon.white)


def test_a_drawn_match_can_be_left_to_the_tiebreaks() -> None:
    table = standings(round_robin(4, TWO_TIED, ratings=RATINGS))
    rule = PlayoffRule(drawn_match=DrawnMatch.TIEBREAKS)
    [group] = playoff_status(table, rule)
    [group] = playoff_status(table, rule, play(group, D, D))
    assert group.order == (2, 1)  # RTNG: player 2 is rated higher


def test_colours_as_entered_are_kept() -> None:
    table = standings(round_robin(4, TWO_TIED, ratings=RATINGS))
    [group] = playoff_status(table, PlayoffRule())
    first, second = group.schedule
    swapped = [Game(1, first.black, first.white, W), Game(2, second.white, second.black, D)]
    [group] = playoff_status(table, PlayoffRule(), swapped)
    assert group.order == (first.black, first.white)
    assert group.schedule[0].white == first.black


def test_three_tied_play_a_single_round_robin() -> None:
    # 1, 2, 3 drew each other and beat 4: 2.5 each.
    three = {(1, 4): "1-0", (2, 4): "1-0", (3, 4): "1-0"}
    table = standings(round_robin(4, three, ratings=RATINGS))
    [group] = playoff_status(table, PlayoffRule())
    assert group.format is PlayoffFormat.ROUND_ROBIN and set(group.players) == {1, 2, 3}
    rr = group.schedule
    assert [game.round for game in rr] == [1, 2, 3]
    for player in (1, 2, 3):
        assert sum(game.white == player for game in rr) == 1
        assert sum(game.black == player for game in rr) == 1
    assert ranks(apply_playoffs(table, PlayoffRule()))[:3] == [(1, 2), (1, 1), (1, 3)]

    # Player 3 wins both games; 1 and 2 draw: 3 first, then 1 and 2 equal on 0.5 -- only
    # first place is a play-off place, so the tie-breaks place them (2 before 1 by rating).
    def result(game: Game) -> Result:
        if game.white == 3:
            return W
        return B if game.black == 3 else D
    games = [Game(game.round, game.white, game.black, result(game)) for game in rr]
    decided = apply_playoffs(table, PlayoffRule(), games)
    assert decided.groups[0].order == (3, 2, 1)
    assert ranks(decided) == [(1, 3), (2, 2), (3, 1), (4, 4)]

    # With places 1 and 2 both decided by play-off, 1 and 2 play a match for second place.
    rule = PlayoffRule(places=(1, 2))
    [group] = playoff_status(table, rule, games)
    assert group.places == (1, 2) and not group.decided
    assert group.tiers[0] == (3,) and set(group.tiers[1]) == {1, 2}
    assert [game.round for game in group.pending] == [4, 5]
    match = play(group, W, W)  # 1-1 after two games: white won both
    [group] = playoff_status(table, rule, [*games, *match])
    assert not group.decided and group.pending[0].round == 6


def test_three_tied_again_the_next_tiebreak_eliminates_the_lowest_and_two_play_a_match() -> None:
    three = {(1, 4): "1-0", (2, 4): "1-0", (3, 4): "1-0"}
    table = standings(round_robin(4, three, ratings=RATINGS))
    [group] = playoff_status(table, PlayoffRule())
    [group] = playoff_status(table, PlayoffRule(), play(group, D, D, D))
    assert group.tiers[-1] == (3,)  # lowest rated of the three (seed 2.b)
    assert [stage.name for stage in group.stages] == ["round robin", "match"]
    assert set(group.stages[1].players) == {1, 2}
    assert [game.round for game in group.pending] == [4, 5]
    rr = list(group.schedule[:3])
    first, _ = group.pending
    games = [*rr, Game(4, first.white, first.black, W), Game(5, first.black, first.white, D)]
    [group] = playoff_status(table, PlayoffRule(), games)
    assert group.order == (first.white, first.black, 3)


def test_four_tied_play_a_knockout_drawn_by_lot() -> None:
    table = standings(round_robin(4, ratings=RATINGS), lots_seed="Open 2025")
    [group] = playoff_status(table, PlayoffRule())
    assert group.format is PlayoffFormat.KNOCKOUT and group.entrants == (2, 1, 3, 4)
    assert group.eliminated == ()
    semi_1, semi_2 = group.stages
    assert (semi_1.name, semi_2.name) == ("semi-final 1", "semi-final 2")

    def lot(player: int) -> str:  # the draw, computed independently
        return hashlib.sha256(f"Open 2025|play-off 1|knock-out draw|{player}".encode()).hexdigest()
    drawn = sorted((1, 2, 3, 4), key=lot)
    assert {frozenset(semi_1.players), frozenset(semi_2.players)} == {frozenset(drawn[:2]), frozenset(drawn[2:])}
    assert playoff_status(table, PlayoffRule()) == [group]  # reproducible

    # Semi-finals: the first mover of game 1 wins 2-0 in each.
    semis = [Game(game.round, game.white, game.black, W if game.round == 1 else B) for game in group.pending]
    [group] = playoff_status(table, PlayoffRule(), semis)
    assert not group.decided
    finalists = {semi_1.games[0].white, semi_2.games[0].white}
    assert set(group.tiers[0]) == finalists and len(group.tiers) == 3  # losers placed by tie-breaks
    final = group.pending
    assert [game.round for game in final] == [3, 4] and {final[0].white, final[0].black} == finalists
    games = [*semis, Game(3, final[0].white, final[0].black, B), Game(4, final[1].white, final[1].black, D)]
    decided = apply_playoffs(table, PlayoffRule(), games)
    group = decided.groups[0]
    losers = sorted({1, 2, 3, 4} - finalists, key=lambda player: -RATINGS[player])
    assert group.order == (final[0].black, final[0].white, *losers)
    assert [rank for rank, _ in ranks(decided)] == [1, 2, 3, 4]


def test_another_lots_seed_gives_a_reproducible_draw_of_its_own() -> None:
    draws = set()
    for seed in ("a", "b", "c", "d", "e"):
        table = standings(round_robin(4, ratings=RATINGS), lots_seed=seed)
        [group] = playoff_status(table, PlayoffRule())
        [again] = playoff_status(table, PlayoffRule())
        assert group == again
        draws.add(frozenset(frozenset(stage.players) for stage in group.stages))
    assert len(draws) > 1


def test_a_knockout_plays_for_third_place_only_when_it_is_a_playoff_place() -> None:
    table = standings(round_robin(4, ratings=RATINGS))
    rule = PlayoffRule(places=(1, 3))
    [group] = playoff_status(table, rule)
    semis = [Game(game.round, game.white, game.black, W if game.round == 1 else B) for game in group.pending]
    [group] = playoff_status(table, rule, semis)
    assert [stage.name for stage in group.stages] == ["semi-final 1", "semi-final 2", "final", "third place"]
    assert sum(len(tier) > 1 for tier in group.tiers) == 2  # final and third-place match pending


def test_five_or_more_keep_the_top_four_by_tiebreaks_for_a_knockout() -> None:
    table = standings(round_robin(6, ratings=RATINGS))
    [group] = playoff_status(table, PlayoffRule())
    assert group.format is PlayoffFormat.KNOCKOUT
    assert group.players == (2, 1, 3, 4, 5, 6)
    assert group.entrants == (2, 1, 3, 4) and group.eliminated == (5, 6)
    assert group.tiers == ((2, 1, 3, 4), (5,), (6,))
    undecided = apply_playoffs(table, PlayoffRule())
    assert ranks(undecided) == [(1, 2), (1, 1), (1, 3), (1, 4), (5, 5), (6, 6)]
    assert undecided.required == {1, 2, 3, 4}
    assert all(5 not in game_players and 6 not in game_players
               for game_players in ({game.white, game.black} for game in group.schedule))


def test_five_tied_after_every_tiebreak_are_cut_to_four_by_lot() -> None:
    table = standings(round_robin(5), "WON", lots_seed="x")
    [group] = playoff_status(table, PlayoffRule(when=PlayoffWhen.AFTER_TIEBREAKS))
    assert len(group.entrants) == 4 and len(group.eliminated) == 1
    [again] = playoff_status(table, PlayoffRule(when=PlayoffWhen.AFTER_TIEBREAKS))
    assert again.eliminated == group.eliminated


def test_only_the_tiebreaks_decide_places_among_the_eliminated() -> None:
    table = standings(round_robin(6, ratings=RATINGS))
    [group] = playoff_status(table, PlayoffRule(places=(5,)))
    assert group.decided and group.stages == () and group.order == (2, 1, 3, 4, 5, 6)


def test_before_tiebreaks_equal_points_suffice_after_tiebreaks_needs_a_full_tie() -> None:
    rated = standings(round_robin(4, TWO_TIED, ratings=RATINGS))
    assert playoff_status(rated, PlayoffRule(when=PlayoffWhen.BEFORE_TIEBREAKS))
    assert playoff_status(rated, PlayoffRule(when=PlayoffWhen.AFTER_TIEBREAKS)) == []
    after = apply_playoffs(rated, PlayoffRule(when="after-tiebreaks"))
    assert after.rows == rated.rows and after.required == frozenset()

    equal = standings(round_robin(4, TWO_TIED), "SB")  # SB cannot separate 1 and 2
    assert ranks(equal)[:2] == [(1, 1), (1, 2)]
    [group] = playoff_status(equal, PlayoffRule(when=PlayoffWhen.AFTER_TIEBREAKS))
    assert set(group.players) == {1, 2}


def test_ties_for_places_not_named_are_left_alone() -> None:
    table = standings(round_robin(4, TWO_TIED), "SB")  # 1-2 tied for 1st, 3-4 tied for 3rd
    result = apply_playoffs(table, PlayoffRule(places=(1,)))
    assert [group.places for group in result.groups] == [(1,)]
    assert result.rows[2:] == table.rows[2:]
    both = apply_playoffs(table, PlayoffRule(places=(1, 3)))
    assert [group.first_place for group in both.groups] == [1, 3]


def test_a_place_without_a_tie_needs_no_playoff() -> None:
    table = standings(round_robin(4, {**TWO_TIED, (1, 2): "1-0"}, ratings=RATINGS))
    assert playoff_status(table, PlayoffRule(places=(1, 2))) == []
    assert playoff_status(table, PlayoffRule(places=(9,))) == []


def test_no_playoff_before_the_last_round() -> None:
    tournament = round_robin(4, TWO_TIED, ratings=RATINGS)
    early = compute_standings(tournament, Rules(tiebreaks=("RTNG",)), after_round=1)
    assert apply_playoffs(early, PlayoffRule()).groups == ()
    assert playoff_status(early, PlayoffRule(), only_when_complete=False) != []


def test_games_no_playoff_scheduled_are_reported() -> None:
    table = standings(round_robin(4, TWO_TIED, ratings=RATINGS))
    stray = Game(1, 3, 4, W)
    result = apply_playoffs(table, PlayoffRule(), [stray])
    assert result.unexpected == (stray,)


def test_json_marks_playoff_rows_and_lists_the_groups() -> None:
    table = standings(round_robin(4, TWO_TIED, ratings=RATINGS))
    data = apply_playoffs(table, PlayoffRule()).as_json()
    assert [row.get("playoff") for row in data["standings"]] == ["required", "required", None, None]
    assert data["playoff_rule"] == {"places": [1], "when": "before-tiebreaks", "drawn_match": "armageddon"}
    [group] = data["playoffs"]
    assert group["format"] == "match" and group["decided"] is False
    assert [game["result"] for game in group["stages"][0]["games"]] == [None, None]


def test_rule_from_mapping() -> None:
    rule = PlayoffRule.from_mapping({"places": [2, 1, 1], "when": "after-tiebreaks", "drawn_match": "tiebreaks"})
    assert rule == PlayoffRule((1, 2), PlayoffWhen.AFTER_TIEBREAKS, DrawnMatch.TIEBREAKS)
    assert PlayoffRule.from_mapping({"places": 3}).places == (3,)
    with pytest.raises(ValueError, match="unknown play-off option 'place'"):
        PlayoffRule.from_mapping({"place": 1})
    with pytest.raises(ValueError, match="expected before-tiebreaks, after-tiebreaks"):
        PlayoffRule.from_mapping({"when": "during"})
    with pytest.raises(ValueError, match="expected place numbers"):
        PlayoffRule(places=(0,))
    with pytest.raises(ValueError, match="expected a list of place numbers"):
        PlayoffRule.from_mapping({"places": ["first"]})


# Six players, two rounds; round 2's board 5-2 still waits.  1 and 3 lead on 1½, and 5 (on 1)
# can finish first outright by winning it: the event is not over, so no play-off is due yet.
LAST_BOARD_OPEN = ["1-2 1-0; 3-4 1-0; 5-6 1-0", "1-3 =; 4-6 1-0; 5-2 ?"]


def test_no_playoff_while_a_board_of_the_last_round_waits() -> None:
    tournament = make(LAST_BOARD_OPEN)
    table = compute_standings(tournament, Rules(tiebreaks=("RTNG",)))
    assert table.after_round == tournament.rounds  # results in the last round, but not all of them
    result = apply_playoffs(table, PlayoffRule())
    assert (result.groups, result.required, result.due) == ((), frozenset(), False)
    assert playoff_status(table, PlayoffRule()) == []
    done = make([LAST_BOARD_OPEN[0], LAST_BOARD_OPEN[1].replace("5-2 ?", "5-2 0-1")])
    finished = apply_playoffs(compute_standings(done, Rules(tiebreaks=("RTNG",))), PlayoffRule())
    assert finished.due and [group.players for group in finished.groups] == [(1, 3)]
