"""The checks on a tournament TOML file's entries taken together (docs/architecture.md#files): each
game and board once, one opponent or bye per player and round, nothing after a withdrawal but
what it allows, tie-break codes the registry knows.  Each refusal names the entries and lines."""

from __future__ import annotations

from ranking.errors import InputError
from ranking.event.model import Bye, ByeKind, Game, Result, Withdrawal, numbered_boards
from ranking.tiebreaks.individual import REGISTRY

TYPE_CHECKING = False
if TYPE_CHECKING:  # the reader's type only
    from ranking.formats.toml_values import _Reader


def _check_games_listed_once(r: _Reader, games: tuple[Game, ...], matches: bool) -> None:
    """Each game once, each board once.  Two games of one pair in one round are one game
    listed twice, unless the event scores matches (``scoring.match``: the games of a pair in a
    round form its match, CXA 14.2, VN 21.2); two games on one board of a round would be one
    game in the store, which keeps a round's games by board (``numbered_boards``: a game
    without a board takes the board after the highest of its round so far).  The refusal
    names both entries and their lines."""
    pairs: dict[tuple[int, int, int], int] = {}
    boards: dict[tuple[int, int], int] = {}
    for k, game in enumerate(numbered_boards(games)):
        white, black = game.white, game.black
        first = k if matches else pairs.setdefault(
            (game.round, white, black) if white < black else (game.round, black, white), k)
        if first != k:
            raise r.fail(f"{_both_entries(r, first, k)} both pair players {game.white} and {game.black} in round "
                         f"{game.round}: expected one game of a pair per round (the games of a pair in one round form "
                         'a match only when the event scores matches, e.g. rules = "vn-match")',
                         r.lines.entry("games", k))
        first = boards.setdefault((game.round, game.board), k)
        if first != k:
            numbered = "" if games[k].board and games[first].board else (
                " (a game without a board is put on the board after the highest of its round so far)")
            raise r.fail(f"{_both_entries(r, first, k)} are both on board {game.board} of round {game.round}: "
                         f"expected one game per board{numbered}", r.lines.entry("games", k))


def _both_entries(r: _Reader, first: int, second: int) -> str:
    """``[[games]] entries 3 (line 102) and 46 (line 403)``."""
    return (f"[[games]] entries {first + 1} (line {r.lines.entry('games', first)}) and {second + 1} "
            f"(line {r.lines.entry('games', second)})")


def _check_schedule(
    r: _Reader, games: tuple[Game, ...], byes: tuple[Bye, ...], withdrawals: tuple[Withdrawal, ...]
) -> None:
    """One opponent (or one bye) per player per round; after withdrawing nothing but zero byes,
    and games (paired before the withdrawal, or in a round robin's schedule) without a result
    or lost by forfeit (docs/rules.md#withdrawals).

    Several games between the same two players in one round are allowed: they form a match
    (CXA 14.2, VN 21.2).
    """
    where_in_round: dict[tuple[int, int], tuple[str, int | None]] = {}  # (player, round) -> opponent/bye
    withdrawn = {w.player: w.after_round for w in withdrawals}
    for k, g in enumerate(games):
        for player, opponent in ((g.white, g.black), (g.black, g.white)):
            if player in withdrawn and g.round > withdrawn[player] and not (
                    g.result is None or g.result is Result.DOUBLE_FORFEIT or g.result is (
                        Result.BLACK_WINS_FORFEIT if player == g.white else Result.WHITE_WINS_FORFEIT)):
                raise r.fail(
                    f"[[games]] entry {k + 1}: player {player} plays in round {g.round} after "
                    f"withdrawing after round {withdrawn[player]} (expected no result, or a forfeit they lose)",
                    r.lines.entry("games", k),
                )
            game = ("game", opponent)
            previous = where_in_round.setdefault((player, g.round), game)
            if previous != game:
                raise r.fail(
                    f"[[games]] entry {k + 1}: player {player} already has "
                    f"{_describe(previous)} in round {g.round}: expected one opponent per round",
                    r.lines.entry("games", k),
                )
    for k, b in enumerate(byes):
        if b.round > withdrawn.get(b.player, b.round) and b.kind is not ByeKind.ZERO:
            raise r.fail(
                f"[[byes]] entry {k + 1}: player {b.player} withdrew after round "
                f"{withdrawn[b.player]}: expected only zero-point byes later",
                r.lines.entry("byes", k),
            )
        previous = where_in_round.get((b.player, b.round))
        if previous is not None:
            raise r.fail(
                f"[[byes]] entry {k + 1}: player {b.player} already has {_describe(previous)} in "
                f"round {b.round}: expected one game or one bye per round",
                r.lines.entry("byes", k),
            )
        where_in_round[(b.player, b.round)] = ("bye", None)


def _describe(entry: tuple[str, int | None]) -> str:
    return "a bye" if entry[0] == "bye" else f"a game against {entry[1]}"


def _check_code(r: _Reader, code: str, line: int | None) -> None:
    """A tie-break code the registry knows (``REGISTRY.parse``)."""
    try:
        REGISTRY.parse(code)
    except InputError as error:
        raise r.fail(f"[tournament]: tiebreaks: {error.message}", line) from None
