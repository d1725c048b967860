"""Each player's place after every round, as the core ranks them, and the round whose places the
players' pages show while a round is in progress: the standings after a round are computed at
most once per build, and the places kept between builds (``.ranks.json``) by a digest of what
they depend on."""

from __future__ import annotations

import hashlib
import operator
import pickle
from functools import cached_property

from ranking import Rules, Standings, Tournament, final_standings
from ranking.event.clock import Clock


class PlacesByRound:
    """The places by round of :class:`site_builder.pages.TournamentPages` (a mix-in: it uses the
    tournament, its rules, clock and live standings, and the cache of places by round)."""

    tournament: Tournament
    rules: Rules
    clock: Clock
    standings: Standings
    ranks_cache: dict[str, dict]  # digest of rounds 1..n -> places (or the settled rows)
    rank_keys: set[str]  # the cache entries this build used

    @cached_property
    def round_in_progress(self) -> int | None:
        """The current round while a board of it is not decided yet (``ranking.event.clock``), else None."""
        current = self.clock.current
        return current if current is not None and current not in self.clock.complete else None

    @cached_property
    def settled_round(self) -> int:
        """The round whose places the players' pages show: while a round is in progress, the
        last complete round before it (0 before round 1 is complete), else the standings' own
        round.  A result then changes the pages of the players of its game, not those of
        everyone whose live place it moves (the standings page stays the live view)."""
        if self.round_in_progress is not None:
            return self.round_in_progress - 1
        return self.standings.after_round

    def standings_after(self, number: int) -> Standings:
        """The standings after round ``number`` (``ranking.final_standings``), each computed once
        per build: the live ones when ``number`` is their round."""
        if number == self.standings.after_round:
            return self.standings
        known = self._standings_after.get(number)
        if known is None:
            known = self._standings_after[number] = final_standings(self.tournament, self.rules, number).standings
        return known

    @cached_property
    def _standings_after(self) -> dict[int, Standings]:
        return {}

    @cached_property
    def settled(self) -> dict[int, tuple[int, tuple]]:
        """Each player's place and tie-break values after :attr:`settled_round` (none before
        round 1 is complete), kept in the cache of places by round between builds: while a round
        is in progress, its results do not change them."""
        number = self.settled_round
        if number == 0:
            return {}
        codes = self.standings.tiebreaks
        if number == self.standings.after_round:
            return {row.player.id: (row.rank, tuple(row.values[code] for code in codes)) for row in self.standings.rows}
        key = "settled:" + self._rounds_digest(number)
        self.rank_keys.add(key)
        rows = self.ranks_cache.get(key)
        if rows is None:
            rows = self.ranks_cache[key] = {str(row.player.id): [row.rank, *(row.values[code] for code in codes)]
                                            for row in self.standings_after(number).rows}
        return {int(player): (entry[0], tuple(entry[1:])) for player, entry in rows.items()}

    @cached_property
    def rank_history(self) -> dict[int, list[int]]:
        """Each player's place after rounds 1, 2, ... up to :attr:`settled_round` (the chart on
        the player's page)."""
        history: dict[int, list[int]] = {player.id: [] for player in self.tournament.players}
        for number in range(1, self.settled_round + 1):
            key = self._rounds_digest(number)
            self.rank_keys.add(key)
            places = self.ranks_cache.get(key)
            if places is None:
                places = self.ranks_cache[key] = {str(row.player.id): row.rank
                                                  for row in self.standings_after(number).rows}
            for player, place in places.items():
                history[int(player)].append(place)
        return history

    def _rounds_digest(self, number: int) -> str:
        """A digest of everything the standings after round ``number`` depend on (the ratings
        too: a chain may rank by the opponents' ratings, C.07 10.1; the fouls: CXA 14.1)."""
        return self._rounds_digests[number]

    @cached_property
    def _rounds_digests(self) -> dict[int, str]:
        """Digests for rounds 1, 2, ...: each extends the previous one with its round's data."""
        by_round: dict[int, list] = {}
        for g in self.tournament.games:
            by_round.setdefault(g.round, []).append((g.board, g.white, g.black, g.result.value if g.result else "",
                                                     g.rated, g.fouls_white, g.fouls_black))
        for b in self.tournament.byes:
            by_round.setdefault(b.round, []).append((0, b.player, b.kind.value))
        digest = hashlib.sha256(repr(([(p.id, p.rating) for p in self.tournament.players], self.tournament.rounds,
                                      sorted((w.player, w.after_round) for w in self.tournament.withdrawals),
                                      repr(self.rules), self.tournament.system.value)).encode())
        if self.rules.playoff is not None:  # the last round's places depend on the play-off games
            digest.update(repr([(g.round, g.white, g.black, g.result.value if g.result else "")
                                for g in self.tournament.playoff_games]).encode())
        digests = {}
        for number in range(1, max(by_round, default=0) + 1):  # pickled: a fifth of the time of repr
            # in board order (a bye is board 0), then by player: the same round the same way
            digest.update(pickle.dumps((number, sorted(by_round.get(number, []), key=_BOARD_AND_PLAYER)), 5))
            digests[number] = digest.copy().hexdigest()
        return digests


_BOARD_AND_PLAYER = operator.itemgetter(0, 1)  # of a game's or a bye's entry in ``_rounds_digests``
