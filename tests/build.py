"""A compact way to write small tournaments in tests: one string per round.

``make(["1-2 1-0; 3-4 =", "1-3 0-1; 2 U; 4 H"])`` is two rounds: in round 1 player 1
(white) beat 2 and 3 drew 4; in round 2 player 3 beat 1, 2 had a pairing-allocated bye and
4 a half-point bye.  Results are any ``Result.parse`` spelling; byes are U, F, H, Z.
Players are numbered 1..n (n = the highest number used unless ``players`` says more).
"""

from __future__ import annotations

from ranking.event.model import Bye, ByeKind, Game, Player, Result, System, Tournament
from ranking.scoring.rules import Rules

#: Points each side scores under 1/0.5/0, written out independently of the core (a test oracle).
CHESS_POINTS = {
    Result.WHITE_WINS: (1.0, 0.0),
    Result.BLACK_WINS: (0.0, 1.0),
    Result.DRAW: (0.5, 0.5),
    Result.WHITE_WINS_FORFEIT: (1.0, 0.0),
    Result.BLACK_WINS_FORFEIT: (0.0, 1.0),
    Result.DOUBLE_FORFEIT: (0.0, 0.0),
    Result.BOTH_LOSE: (0.0, 0.0),
    Result.WHITE_HALF: (0.5, 0.0),
    Result.BLACK_HALF: (0.0, 0.5),
}
BYE_POINTS = {ByeKind.PAIRING: 1.0, ByeKind.FULL: 1.0, ByeKind.HALF: 0.5, ByeKind.ZERO: 0.0}


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
        fillers, next_id = games_reaching(opponent, needed, [r for r in range(1, rounds + 1) if r != number],
                                          next_id)
        games.extend(fillers)
    players = tuple(Player(i, f"Player {i}") for i in range(1, next_id))
    return Tournament("Test", players, rounds, tuple(games), tuple(bye_records), rules=rules)


def games_reaching(player: int, points: float, rounds: list[int], next_id: int) -> tuple[list[Game], int]:
    """Games of ``player`` against fresh fillers (numbered from ``next_id``), one in each of
    ``rounds``, that score exactly ``points`` (1/0.5/0); returns them and the next free id."""
    games = []
    for number in rounds:
        if points >= 1:
            result, points = Result.WHITE_WINS, points - 1
        elif points >= 0.5:
            result, points = Result.DRAW, points - 0.5
        else:
            result = Result.BLACK_WINS
        games.append(Game(number, player, next_id, result))
        next_id += 1
    assert points == 0, "not enough rounds to reach the score"
    return games, next_id
