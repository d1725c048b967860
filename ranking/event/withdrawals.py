"""What a withdrawal does to the results (docs/rules.md#withdrawals), applied before standings.

- Swiss (FIDE C.07 16.1, VN 21.5.2): results stand; every later round is a zero-point bye;
  a game already paired against the withdrawn player and not played is won by forfeit.
- Round robin, ``rr_withdrawal`` option: ``keep`` (FIDE): results stand and the unplayed
  games the file lists are forfeit wins for the opponents (C.07 15.2); ``annul-at-most-half``
  (VN 21.5.1): a player who withdrew having played half of their games or fewer has all their
  games annulled (removed from everyone's score, shown X); with more than half played the
  results stand and every game the player did not play is a forfeit win for the opponent,
  whether or not the file lists it ("các trận chưa đấu thì tính cho đối phương thắng cuộc");
  ``annul-below-half`` (CXA, older edition): the same, but annulled only below half.

A game the file does not list is put in the round the Berger tables (FIDE C.05 Annex 1,
starting numbers as pairing numbers) give it when the file's games follow them, with their
colours; otherwise in the first round after the withdrawal in which neither player has a game,
colours unknown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ranking.event.model import Game, Result, Tournament
from ranking.pairing.berger import round_robin_schedule
from ranking.scoring.rules import RoundRobinWithdrawal, Rules


@dataclass(frozen=True)
class WithdrawalEffects:
    """The tournament with withdrawals applied, the games that were annulled and the games that
    became forfeits (listed without a result, or never listed: VN 21.5.1); ``annulled_players``
    withdrew with half of their games or fewer played (VN 21.5.1), so every game against them
    counts nothing, played or not."""

    tournament: Tournament
    annulled: tuple[Game, ...] = ()
    forfeited: tuple[Game, ...] = ()
    annulled_players: frozenset[int] = frozenset()


def withdrawal_mark(game: Game, player: int, withdrawn: Mapping[int, int], vn: bool,
                    annulled: bool = False) -> str | None:
    """How ``player``'s side of ``game`` is marked where a withdrawal changed it (``withdrawn``:
    player -> the round after which they withdrew), the same on every page and in every reply:
    ``X`` for an annulled game (VN 21.5.1: it counts nothing); under VN rules (``vn``) a forfeit
    against a player who had withdrawn is ``X`` for the winner and ``0`` for the withdrawn player
    (VN 21.5); None for any other game (its points, or + and − for a forfeit).

    >>> from ranking.event.model import Result
    >>> game = Game(4, 1, 6, Result.WHITE_WINS_FORFEIT)
    >>> withdrawal_mark(game, 1, {6: 3}, vn=True), withdrawal_mark(game, 6, {6: 3}, vn=True)
    ('X', '0')
    >>> withdrawal_mark(game, 1, {6: 3}, vn=False) is None
    True
    """
    if annulled:
        return "X"
    if not vn or game.result is None or not game.result.is_forfeit:
        return None
    white = game.white == player
    other = game.black if white else game.white
    if withdrawn.get(other, game.round) < game.round:
        return "X" if game.result.value == ("+-" if white else "-+") else "0"
    if withdrawn.get(player, game.round) < game.round:
        return "0"
    return None


def left_before_the_start(tournament: Tournament) -> frozenset[int]:
    """The players who withdrew before round 1 (after round 0) and have no game: they left the
    event, which is not a withdrawal (CXA 14.4): no results, and not in the field whose lowest
    score an unplayed round counts (``bye_value_in_bh = "lowest-score"``).  The store takes such
    a player out altogether (``tiebreak player SLUG remove ID``); a file may still list them.

    >>> from ranking.event.model import Player, Withdrawal
    >>> t = Tournament("Open", (Player(1, "A"), Player(2, "B")), 3, withdrawals=(Withdrawal(2, 0),))
    >>> sorted(left_before_the_start(t))
    [2]
    """
    early = {withdrawal.player for withdrawal in tournament.withdrawals if withdrawal.after_round == 0}
    if not early:
        return frozenset()
    played = {side for game in tournament.games for side in (game.white, game.black)}
    return frozenset(early - played)


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
    unlisted: tuple[Game, ...] = ()
    if tournament.system.is_round_robin and mode is not RoundRobinWithdrawal.KEEP:
        unlisted = _unlisted_games(tournament, left_after, annulled_players)
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
    games += unlisted
    forfeited += unlisted
    byes = tuple(bye for bye in tournament.byes if bye.player not in annulled_players)
    return WithdrawalEffects(replace(tournament, games=tuple(games), byes=byes), tuple(annulled), tuple(forfeited),
                             frozenset(annulled_players))


def _unlisted_games(tournament: Tournament, left_after: dict[int, int], annulled: set[int]) -> tuple[Game, ...]:
    """VN 21.5.1 with more than half played: the forfeits of the games a withdrawn player never
    played and the file does not list (each pair meets once a cycle), won by the opponent (a
    double forfeit when both withdrew before it)."""
    cycles = 2 if tournament.system.value == "double-round-robin" else 1
    met: dict[frozenset[int], int] = {}
    busy: set[tuple[int, int]] = set()  # (round, player) with a game listed
    for game in tournament.games:
        pair = frozenset((game.white, game.black))
        met[pair] = met.get(pair, 0) + 1
        busy.update(((game.round, game.white), (game.round, game.black)))
    ids = sorted(player.id for player in tournament.players)
    schedule = _berger_rounds(tournament, ids)
    added: list[Game] = []
    for gone in sorted(left_after):
        if gone in annulled:
            continue
        for other in ids:
            pair = frozenset((gone, other))
            if other == gone or other in annulled or (other in left_after and other < gone):
                continue  # two withdrawn players' pair is completed once, from the lower number
            for _ in range(cycles - met.get(pair, 0)):
                game = _placed(pair, gone, other, schedule, busy, left_after, tournament.rounds)
                if game is not None:
                    busy.update(((game.round, game.white), (game.round, game.black)))
                    added.append(game)
    return tuple(added)


def _berger_rounds(tournament: Tournament, ids: list[int]) -> dict[frozenset[int], list[tuple[int, int, int]]] | None:
    """Each pair's (round, white, black) in the Berger tables, when every listed game is where
    the tables put it; None otherwise."""
    if len(ids) < 2:
        return None
    schedule = round_robin_schedule(ids, double=tournament.system.value == "double-round-robin")
    rounds: dict[frozenset[int], list[tuple[int, int, int]]] = {}
    for number, pairs in enumerate(schedule, start=1):
        for white, black in pairs:
            if black is not None:
                rounds.setdefault(frozenset((white, black)), []).append((number, white, black))
    for game in tournament.games:
        if game.round not in [number for number, _, _ in rounds.get(frozenset((game.white, game.black)), [])]:
            return None
    return rounds


def _placed(pair: frozenset[int], gone: int, other: int, schedule: dict | None, busy: set[tuple[int, int]],
            left_after: dict[int, int], rounds: int) -> Game | None:
    """The forfeit of one unlisted game of ``gone`` against ``other``: in its Berger round with
    its colours, else in the first free round after the withdrawal (colours unknown)."""
    never = rounds + 1

    def result(number: int, white: int, black: int) -> Result:
        """Whoever had left by the round loses; if neither had, the one who withdrew (first)."""
        white_left, black_left = left_after.get(white, never), left_after.get(black, never)
        if (number > white_left and number > black_left) or white_left == black_left:
            return Result.DOUBLE_FORFEIT
        return Result.BLACK_WINS_FORFEIT if white_left < black_left else Result.WHITE_WINS_FORFEIT

    if schedule is not None:
        for number, white, black in schedule.get(pair, []):
            if number <= rounds and (number, white) not in busy and (number, black) not in busy:
                return Game(number, white, black, result(number, white, black))
    start = left_after[gone] + 1
    for number in [*range(start, rounds + 1), *range(1, start)]:
        if (number, gone) not in busy and (number, other) not in busy:
            return Game(number, other, gone, result(number, other, gone), colours_known=False)
    return None  # no round left in which both are free: the file's rounds are full


def _games_per_player(tournament: Tournament) -> int:
    """Games each player has in a complete (double) round robin of this field."""
    cycles = 2 if tournament.system.value == "double-round-robin" else 1
    return cycles * (len(tournament.players) - 1)
