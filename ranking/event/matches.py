"""Two-game matches (VN 21.2): an event whose scoring has match points plays every pairing as a
match of two games, the colours reversed in the second.

The store keeps one game per board, so a match is two boards of its round: the pairing of
match k is played on boards 2k-1 (the first game) and 2k (the second, colours reversed).  A
pairing program pairs matches, not games: ``one_game_a_match`` gives it the event with each
match as one game scored by its match points (1/½/0), and ``as_matches`` turns the pairing it
makes back into the games the store records.  ``match_boards`` finds the games of the match a
board belongs to, so one message (or one command) can enter both results.

>>> from ranking.event.model import Game, Player, Result, Tournament
>>> [(g.board, g.white, g.black) for g in as_matches([Game(1, 3, 1, None, 1), Game(1, 2, 4, None, 2)])]
[(1, 3, 1), (2, 1, 3), (3, 2, 4), (4, 4, 2)]
>>> from ranking.tiebreaks.presets import VN_MATCH
>>> t = Tournament("Match", (Player(1, "A"), Player(2, "B")), 1,
...                (Game(1, 1, 2, Result.WHITE_WINS, 1), Game(1, 2, 1, Result.DRAW, 2)), rules=VN_MATCH)
>>> match_boards(t, 1, 2)
(1, 2)
>>> [(g.board, g.white, g.black, g.result.value) for g in one_game_a_match(t).games]  # 2-0, 1-1: 3-1
[(1, 1, 2, '1-0')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ranking.event.model import Game, Result, Tournament, numbered_boards
from ranking.scoring.rules import Rules, Scoring

__all__ = ["GAMES_PER_MATCH", "as_matches", "match_boards", "match_result", "matches_of", "one_game_a_match",
           "plays_matches"]

#: VN 21.2: a match is two games, each player red (the first mover) in one of them.
GAMES_PER_MATCH = 2


def plays_matches(tournament: Tournament) -> bool:
    """Whether the event's scoring counts match points (VN 21.2, preset ``vn-match``): its
    pairings are matches of ``GAMES_PER_MATCH`` games."""
    rules = tournament.rules
    return rules is not None and rules.scoring.match is not None and not tournament.teams


def as_matches(pairing: Iterable[Game]) -> list[Game]:
    """Each paired game as the two games of its match: the first as paired, the second with the
    colours reversed (VN 21.2), on boards 2k-1 and 2k for the k-th pairing."""
    games: list[Game] = []
    for number, game in enumerate(pairing, start=1):
        games.append(replace(game, board=2 * number - 1))
        games.append(replace(game, white=game.black, black=game.white, board=2 * number))
    return games


def matches_of(games: Iterable[Game]) -> dict[tuple[int, frozenset[int]], list[Game]]:
    """The games of each pairing, by (round, the pair's two ids), in board order: both games of
    a two-game match (VN 21.2) under one key, a single game alone."""
    matches: dict[tuple[int, frozenset[int]], list[Game]] = {}
    for game in sorted(numbered_boards(games), key=lambda g: (g.round, g.board)):
        matches.setdefault((game.round, frozenset((game.white, game.black))), []).append(game)
    return matches


def match_boards(tournament: Tournament, round_number: int, board: int) -> tuple[int, ...]:
    """The boards of the match that board ``board`` of round ``round_number`` belongs to, in the
    order its games are played (the first game first); ``(board,)`` for a game that is no
    match's, and () when the round has no such board."""
    for (number, _pair), games in matches_of(tournament.games).items():
        boards = tuple(game.board for game in games)
        if number == round_number and board in boards:
            return boards
    return ()


def match_result(games: Sequence[Game]) -> Result | None:
    """The match's result for its first game's red (first mover) side, as one game's result:
    the player with more game points wins the match (VN 21.2); a match lost by forfeit in every
    game is a forfeit; None while a game has no result.

    >>> match_result([Game(1, 1, 2, Result.BLACK_WINS), Game(1, 2, 1, Result.BLACK_WINS)])
    <Result.DRAW: '1/2-1/2'>
    >>> match_result([Game(1, 1, 2, Result.WHITE_WINS_FORFEIT), Game(1, 2, 1, Result.BLACK_WINS_FORFEIT)])
    <Result.WHITE_WINS_FORFEIT: '+-'>
    """
    if not games or any(game.result is None for game in games):
        return None
    first = games[0].white
    own = other = 0
    for game in games:
        white, black = game.result.outcomes  # type: ignore[union-attr]
        own, other = (own + white, other + black) if game.white == first else (own + black, other + white)
    if all(game.result is Result.DOUBLE_FORFEIT for game in games):
        return Result.DOUBLE_FORFEIT
    if all(game.result.is_forfeit for game in games):  # type: ignore[union-attr]
        return Result.WHITE_WINS_FORFEIT if own > other else Result.BLACK_WINS_FORFEIT
    if own == other:
        return Result.DRAW
    return Result.WHITE_WINS if own > other else Result.BLACK_WINS


def one_game_a_match(tournament: Tournament) -> Tournament:
    """The event as a pairing program sees it (VN 21.2): each match one game, the first game's
    colours, its result the match's, scored by the match points (1/½/0; a pairing-allocated
    bye a won match), boards numbered by match.  An event that plays no matches is returned
    as it is."""
    if not plays_matches(tournament):
        return tournament
    rules: Rules = tournament.rules  # type: ignore[assignment]
    won, drawn, lost = rules.scoring.match  # type: ignore[misc]
    games: list[Game] = []
    boards: dict[int, int] = {}
    for (number, _pair), played in matches_of(tournament.games).items():
        boards[number] = boards.get(number, 0) + 1
        games.append(replace(played[0], result=match_result(played), board=boards[number],
                             fouls_white=0, fouls_black=0))
    scoring = Scoring(win=won, draw=drawn, loss=lost)
    return replace(tournament, games=tuple(games), rules=replace(rules, scoring=scoring))
