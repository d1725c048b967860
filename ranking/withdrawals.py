"""What a withdrawal does to the results (docs/rules.md#withdrawals), applied before standings.

- Swiss (FIDE C.07 16.1, VN 21.5.2): results stand; every later round is a zero-point bye;
  a game already paired against the withdrawn player and not played is won by forfeit.
- Round robin, ``rr_withdrawal`` option: ``keep`` (FIDE): results stand and the unplayed
  games are forfeit wins for the opponents (C.07 15.2); ``annul-at-most-half`` (VN 21.5.1):
  a player who withdrew having played half of their games or fewer has all their games
  annulled (removed from everyone's score, shown X), otherwise as ``keep``;
  ``annul-below-half`` (CXA, older edition): the same, but only below half.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ranking.model import Game, Result, Tournament
from ranking.rules import RoundRobinWithdrawal, Rules


@dataclass(frozen=True)
class WithdrawalEffects:
    """The tournament with withdrawals applied, and the games that were annulled."""

    tournament: Tournament
    annulled: tuple[Game, ...] = ()
    forfeited: tuple[Game, ...] = ()


def apply_withdrawals(tournament: Tournament, rules: Rules) -> WithdrawalEffects:
    """Apply every withdrawal of ``tournament`` under ``rules.options.rr_withdrawal``."""
    if not tournament.withdrawals:
        return WithdrawalEffects(tournament)
    mode = rules.options.rr_withdrawal
    annulled_players: set[int] = set()
    if tournament.system.is_round_robin and mode is not RoundRobinWithdrawal.KEEP:
        scheduled = _games_per_player(tournament)
        for withdrawal in tournament.withdrawals:
            played = sum(1 for game in tournament.games
                         if withdrawal.player in (game.white, game.black)
                         and game.result is not None and not game.result.is_forfeit)
            half = scheduled / 2
            if played < half or (mode is RoundRobinWithdrawal.ANNUL_AT_MOST_HALF and played <= half):
                annulled_players.add(withdrawal.player)
    left_after = {withdrawal.player: withdrawal.after_round for withdrawal in tournament.withdrawals}
    games: list[Game] = []
    annulled: list[Game] = []
    forfeited: list[Game] = []
    for game in tournament.games:
        if game.white in annulled_players or game.black in annulled_players:
            annulled.append(game)
            continue
        if game.result is None:
            white_gone = game.round > left_after.get(game.white, game.round)
            black_gone = game.round > left_after.get(game.black, game.round)
            if white_gone or black_gone:
                result = (Result.DOUBLE_FORFEIT if white_gone and black_gone
                          else Result.BLACK_WINS_FORFEIT if white_gone else Result.WHITE_WINS_FORFEIT)
                game = replace(game, result=result)
                forfeited.append(game)
        games.append(game)
    byes = tuple(bye for bye in tournament.byes if bye.player not in annulled_players)
    return WithdrawalEffects(replace(tournament, games=tuple(games), byes=byes), tuple(annulled), tuple(forfeited))


def _games_per_player(tournament: Tournament) -> int:
    """Games each player has in a complete (double) round robin of this field."""
    cycles = 2 if tournament.system.value == "double-round-robin" else 1
    return cycles * (len(tournament.players) - 1)
