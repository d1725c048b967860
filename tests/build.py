"""A compact way to write small tournaments in tests: one string per round.

``make(["1-2 1-0; 3-4 =", "1-3 0-1; 2 U; 4 H"])`` is two rounds: in round 1 player 1
(white) beat 2 and 3 drew 4; in round 2 player 3 beat 1, 2 had a pairing-allocated bye and
4 a half-point bye.  Results are any ``Result.parse`` spelling; byes are U, F, H, Z.
Players are numbered 1..n (n = the highest number used unless ``players`` says more).
"""

from __future__ import annotations

from ranking.model import Bye, ByeKind, Game, Player, Result, System, Tournament
from ranking.rules import Rules


def make(rounds: list[str], players: int = 0, *, system: System = System.SWISS, name: str = "Test",
         ratings: dict[int, int] | None = None, rules: Rules | None = None,
         fouls: dict[tuple[int, int], int] | None = None) -> Tournament:
    """Build a tournament; ``fouls`` maps (round, player) to fouls in that round's game."""
    games: list[Game] = []
    byes: list[Bye] = []
    highest = players
    fouls = fouls or {}
    for number, text in enumerate(rounds, start=1):
        board = 0
        for entry in filter(None, (part.strip() for part in text.split(";"))):
            who, what = entry.split()
            if "-" in who:
                white, black = (int(part) for part in who.split("-"))
                board += 1
                result = None if what == "?" else Result.parse(what)
                games.append(Game(number, white, black, result, board=board,
                                  fouls_white=fouls.get((number, white), 0),
                                  fouls_black=fouls.get((number, black), 0)))
                highest = max(highest, white, black)
            else:
                byes.append(Bye(number, int(who), ByeKind(what)))
                highest = max(highest, int(who))
    ratings = ratings or {}
    people = tuple(Player(i, f"Player {i}", ratings.get(i, 0)) for i in range(1, highest + 1))
    return Tournament(name, people, len(rounds), tuple(games), tuple(byes), system=system, rules=rules)


def against(final_scores: list[float], results: list[str], *, rules: Rules | None = None,
            byes: dict[int, str] | None = None) -> Tournament:
    """Player 1 meets, in round r, an opponent whose final score is ``final_scores[r-1]``,
    with result ``results[r-1]`` from player 1's side (``1-0``, ``=``, ``0-1``); rounds in
    ``byes`` are byes of player 1 instead.  Opponents' other games are against fillers."""
    byes = byes or {}
    rounds = len(final_scores) + len(byes)
    games: list[Game] = []
    bye_records = [Bye(r, 1, ByeKind(kind)) for r, kind in byes.items()]
    next_id = 2
    scored = iter(zip(final_scores, results, strict=True))
    for number in range(1, rounds + 1):
        if number in byes:
            continue
        final, text = next(scored)
        result = Result.parse(text)
        opponent, next_id = next_id, next_id + 1
        games.append(Game(number, 1, opponent, result))
        needed = final - {Result.WHITE_WINS: 0, Result.DRAW: 0.5, Result.BLACK_WINS: 1}[result]
        for other in range(1, rounds + 1):
            if other == number:
                continue
            filler, next_id = next_id, next_id + 1
            if needed >= 1:
                outcome, needed = Result.WHITE_WINS, needed - 1
            elif needed >= 0.5:
                outcome, needed = Result.DRAW, needed - 0.5
            else:
                outcome = Result.BLACK_WINS
            games.append(Game(other, opponent, filler, outcome))
        assert needed == 0
    players = tuple(Player(i, f"Player {i}") for i in range(1, next_id))
    return Tournament("Test", players, rounds, tuple(games), tuple(bye_records), rules=rules)
