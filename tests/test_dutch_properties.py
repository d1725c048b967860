"""Properties of the Dutch engine on generated Swiss events (hypothesis).

Each example plays a small Swiss event round by round: the engine pairs the round, results
are drawn, some players ask for byes, forfeit or withdraw.  Every round's pairing must keep
the absolute rules (C1 no rematch, C2 one PAB, C3 / C.04.1 Art. 6-7 absolute colours), pair
every present player, be the same when asked twice and when the players are renumbered in
the same order (the rules only use the order of TPNs, C.04.3 1.2, GHR 2).  In the final
round a topscorer may meet an opponent with the same absolute preference (C3, 1.8), and
then one of the two does not get it (Art. 5.2.2): ``_colours_hold`` states exactly when.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranking.errors import InputError
from ranking.event.model import Bye, ByeKind, Game, Player, Result, Tournament, Withdrawal
from ranking.pairing.dutch import Pairing, PairingOptions, check_round, pair_round
from ranking.pairing.dutch.colours import Strength, preference
from ranking.pairing.dutch.state import PlayerState, round_state
from ranking.scoring.rules import Rules, Scoring

SCORINGS = (Scoring(), Scoring(win=2.0, draw=1.0, loss=0.0), Scoring(win=3.0, draw=1.0, loss=0.0))


def _play(rng: random.Random, pairing: Pairing, forfeits: bool) -> list[Game]:
    games = []
    for board in pairing.boards:
        u = rng.random()
        if forfeits and u < 0.08:
            result = rng.choice((Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT))
        else:
            result = rng.choice((Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW))
        games.append(Game(pairing.round, board.white, board.black, result, board.number))
    return games


@st.composite
def events(draw: st.DrawFn) -> tuple[Tournament, random.Random, bool]:
    size = draw(st.integers(2, 13))
    rounds = draw(st.integers(1, 6))
    scoring = draw(st.sampled_from(SCORINGS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    forfeits = draw(st.booleans())
    colour = draw(st.sampled_from(("152", "XXC", "")))
    records: tuple[tuple[str, str], ...] = ()
    if colour == "152":
        records = (("152", rng.choice(("W", "B"))),)
    elif colour == "XXC":
        records = (("XXC", rng.choice(("white1", "black1"))),)
    players = tuple(Player(i, f"Player {i}", rating=3000 - 10 * i) for i in range(1, size + 1))
    t = Tournament("Generated", players, rounds, rules=Rules(scoring=scoring), records=records)
    return t, rng, forfeits


def _absolute_rules_hold(t: Tournament, pairing: Pairing, options: PairingOptions) -> None:
    rs = round_state(t, pairing.round, options)
    present = rs.by_id
    seen = [pid for board in pairing.boards for pid in (board.white, board.black)]
    if pairing.bye is not None:
        seen.append(pairing.bye)
    assert sorted(seen) == sorted(present), "every present player is paired exactly once"
    assert (pairing.bye is not None) == (len(present) % 2 == 1), "a bye only when the players are odd"
    if pairing.bye is not None:
        assert not present[pairing.bye].had_pab_or_win_bye, "C2: no second PAB, none after a win without playing"
    for board in pairing.boards:
        white, black = present[board.white], present[board.black]
        assert board.black not in white.opponents, "C1: no rematch"
        _colours_hold(white, black, final=pairing.round == t.rounds)


def _colours_hold(white: PlayerState, black: PlayerState, final: bool) -> None:
    """C3 with Art. 5 and C.04.1 Art. 6-7, exactly.

    Two players with the same absolute preference meet only if one of them is a topscorer
    (C3; topscorers exist in the final round only, 1.8), and then one of them cannot get
    his colour: 5.2.2 gives it to the wider colour difference (5.2.3-5.2.4 break a tie), so
    the other, topscorer or not, may end at CD ±3 or with a third colour running (the
    final-round exception C.04.1 Art. 6-7 allow, kept small by C10-C11).  On every other
    board each absolute preference is granted (5.2.1-5.2.2) and nobody leaves CD -2..+2 or
    gets a colour three times running.
    """
    qw, qb = preference(white.colours), preference(black.colours)
    if qw.strength is Strength.ABSOLUTE and qb.strength is Strength.ABSOLUTE and qw.colour == qb.colour:
        assert final and (white.topscorer or black.topscorer), "C3: same absolute preference, no topscorer"
        granted, refused = (qw, qb) if qw.colour == "W" else (qb, qw)
        assert abs(granted.difference) >= abs(refused.difference), "5.2.2: the wider colour difference"
        return
    for p, q, colour in ((white, qw, "W"), (black, qb, "B")):
        if q.strength is Strength.ABSOLUTE:
            assert q.colour == colour, "C.04.1 Art. 6-7, Art. 5: absolute colour preferences are met"
        history = (*p.colours, colour)
        assert abs(history.count("W") - history.count("B")) <= 2, "C.04.1 Art. 6: CD within -2..+2"
        assert history[-3:] != (colour,) * 3, "C.04.1 Art. 7: no colour three times running"


def _renumbered(t: Tournament, new: dict[int, int]) -> Tournament:
    return replace(
        t,
        players=tuple(replace(p, id=new[p.id]) for p in t.players),
        games=tuple(replace(g, white=new[g.white], black=new[g.black]) for g in t.games),
        byes=tuple(replace(b, player=new[b.player]) for b in t.byes),
        withdrawals=tuple(replace(w, player=new[w.player]) for w in t.withdrawals),
    )


def _simulate(t: Tournament, rng: random.Random, forfeits: bool, options: PairingOptions) -> Tournament:
    """Play the event, checking every round; return it as played."""
    for rnd in range(1, t.rounds + 1):
        # requested byes and withdrawals known before the round is paired
        byes = list(t.byes)
        withdrawals = list(t.withdrawals)
        gone = {w.player for w in withdrawals}
        for p in t.players:
            if p.id in gone:
                continue
            u = rng.random()
            if u < 0.05 and rnd < t.rounds:
                byes.append(Bye(rnd, p.id, rng.choice((ByeKind.HALF, ByeKind.ZERO))))
            elif u < 0.08 and rnd > 1:
                withdrawals.append(Withdrawal(p.id, rnd - 1))
        t = replace(t, byes=tuple(byes), withdrawals=tuple(withdrawals))
        try:
            pairing = pair_round(t, rnd, options)
        except InputError as error:
            assert "cannot be paired" in str(error) and "\n" not in str(error)
            break
        _absolute_rules_hold(t, pairing, options)
        check = check_round(t, rnd, list(pairing.pairs), pairing.bye, options)
        assert check.violations == (), "the checker finds no fault in the engine's own pairing"
        assert check.differences == ()
        assert pair_round(t, rnd, options) == pairing, "the same input gives the same pairing"
        ids = sorted(p.id for p in t.players)
        new = {pid: 7 + 3 * k for k, pid in enumerate(ids)}
        back = {v: k for k, v in new.items()}
        moved = pair_round(_renumbered(t, new), rnd, options)
        assert [(back[b.white], back[b.black]) for b in moved.boards] == list(pairing.pairs)
        assert (back[moved.bye] if moved.bye is not None else None) == pairing.bye
        games = _play(rng, pairing, forfeits)
        new_byes = [Bye(rnd, pairing.bye, ByeKind.PAIRING)] if pairing.bye is not None else []
        t = replace(t, games=t.games + tuple(games), byes=t.byes + tuple(new_byes))
    return t


def _meetings(t: Tournament, forfeits_count: bool) -> list[frozenset[int]]:
    return [frozenset((g.white, g.black)) for g in t.games if forfeits_count or not g.result.is_forfeit]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_every_round_keeps_the_absolute_rules_and_pairs_everyone_present(event):
    t, rng, forfeits = event
    played = _simulate(t, rng, forfeits, PairingOptions())
    meetings = _meetings(played, forfeits_count=False)
    assert len(meetings) == len(set(meetings)), "played games never repeat (forfeits are no meeting, GHR 3.5)"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_with_forfeits_as_meetings_no_two_players_meet_again_even_after_a_forfeit(event):
    t, rng, _ = event
    played = _simulate(t, rng, True, PairingOptions(forfeit_is_meeting=True))
    meetings = _meetings(played, forfeits_count=True)
    assert len(meetings) == len(set(meetings))
