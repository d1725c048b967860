"""What each page of the site shows, as plain data computed by the ranking core.

Nothing here formats HTML: the theme's templates do.  Every value comes from the core's public
API (``ranking``: the final standings, the players' and teams' scorecards, the legends of the
chains) or from the tournament itself.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from ranking import (
    Details,
    FinalStandings,
    Game,
    GameKind,
    Progress,
    Result,
    Rules,
    Scorecard,
    Scoring,
    Standings,
    System,
    Tournament,
    WithdrawalEffects,
    apply_withdrawals,
    board_points,
    coming_rounds,
    default_rules,
    final_standings,
    legend,
    matches_of,
    player_scorecards,
    plays_matches,
    rules_source,
    team_legend,
    team_scorecards,
    tournament_details,
    tournament_progress,
    trf_refusal,
    withdrawal_mark,
)
from ranking.event.clock import Clock, board_results, clock_of
from ranking.event.players import players_json
from ranking.scoring.scoresheet import Scoresheet
from ranking.standings.individual import played_sheet
from site_builder.chart import rank_chart
from site_builder.downloads import download_files
from site_builder.marks import BYE_MARKS, NO_CELL, board_text, half_text, marks_legend, side_text
from site_builder.places import PlacesByRound

TYPE_CHECKING = False  # the play-offs' and teams' modules load only for such an event (start-up time)
if TYPE_CHECKING:
    from ranking import PlayoffStandings, TeamScorecard


@dataclass
class TournamentPages(PlacesByRound):
    """The data behind one tournament's pages (shared by every language)."""

    slug: str
    tournament: Tournament
    ranks_cache: dict[str, dict[str, int]] = field(default_factory=dict)  # digest of rounds 1..n -> places
    rules: Rules = field(init=False)
    rank_keys: set[str] = field(init=False, default_factory=set)  # the cache entries this build used

    def __post_init__(self) -> None:
        self.rules = default_rules(self.tournament)

    @cached_property
    def final(self) -> FinalStandings:
        """The final standings: with a play-off rule, the places its play-offs decided
        (docs/rules.md#play-offs), as the command line, the bot and the exported files show them."""
        sheet = self._played_sheet  # the cards' one, when it is the standings' too (their round has a result)
        return final_standings(self.tournament, self.rules,
                               sheet=sheet if sheet.rounds == sheet.tournament.rounds_with_results else None)

    @cached_property
    def _played_sheet(self) -> Scoresheet:
        """The scoresheet of the players' cards, up to the last round paired (withdrawals
        applied: ``ranking.standings.individual.played_sheet``), built once for the cards and
        the standings that read the same rounds."""
        return played_sheet(self.tournament, self.rules, self.last_round or None)

    @property
    def standings(self) -> Standings:
        return self.final.standings

    @property
    def playoffs(self) -> PlayoffStandings | None:
        """The play-offs when the rules name play-off places, else None."""
        return self.final.playoffs

    @cached_property
    def clock(self) -> Clock:
        """Which rounds are paired and complete, and the current round (``ranking.event.clock``),
        from the boards' results the pages show."""
        return clock_of(self.tournament, self.decided)

    @cached_property
    def rounds_paired(self) -> list[int]:
        """The paired rounds (``ranking.event.clock``): byes entered ahead do not make a round paired."""
        return list(self.clock.paired)

    @cached_property
    def decided(self) -> dict:
        """Every board's result, with what the withdrawal rule makes of the unplayed ones
        (``ranking.event.clock.board_results``)."""
        return board_results(self.tournament)

    @cached_property
    def players_page(self) -> dict:
        """The players list: the initial ranking list (``ranking.event.players``, GHR 2) by pairing number."""
        return {"players": players_json(self.tournament), "seeding": self.tournament.seeding.value,
                "round_robin": self.is_round_robin}

    @cached_property
    def players_fingerprint(self) -> tuple:
        """What the players list depends on, cheaply (its data is then built only when it
        changed): the players, who withdrew, and how the initial ranking list is made (GHR 2)."""
        return ("players", self._field_digest, tuple(sorted(self.withdrawn)), self.tournament.seeding.value,
                self.tournament.system.value, bool(self.tournament.teams), self.tournament.ranking_list)

    @cached_property
    def coming(self) -> dict[int, tuple[list[Game], list]]:
        """A round robin's rounds not paired yet (Berger tables), by number: their pages say
        "not played yet"."""
        return {number: (games, byes) for number, games, byes in coming_rounds(self.tournament)}

    @cached_property
    def round_numbers(self) -> list[int]:
        """Every round with a page: the paired ones and a round robin's coming ones."""
        return sorted(set(self.rounds_paired) | set(self.coming))

    @cached_property
    def details(self) -> Details:
        return tournament_details(self.tournament)

    @cached_property
    def progress(self) -> Progress:
        return tournament_progress(self.tournament, self.clock)  # the clock computed once per build

    @property
    def scoring(self) -> Scoring:
        return self.rules.scoring

    @cached_property
    def withdrawn(self) -> dict[int, int]:
        """Who withdrew, and after which round."""
        return {withdrawal.player: withdrawal.after_round for withdrawal in self.tournament.withdrawals}

    @cached_property
    def last_round(self) -> int:
        return max((game.round for game in self.tournament.games), default=0)

    @cached_property
    def _players(self) -> dict[int, object]:
        return {player.id: player for player in self.tournament.players}

    @cached_property
    def _ratings(self) -> dict[int, int]:
        return {player.id: player.rating for player in self.tournament.players}

    @cached_property
    def names(self) -> dict[int, str]:
        return {player.id: player.name for player in self.tournament.players}

    @cached_property
    def rank_of(self) -> dict[int, int]:
        return {row.player.id: row.rank for row in self.standings.rows}

    @property
    def is_round_robin(self) -> bool:
        return self.tournament.system is not System.SWISS

    @property
    def xiangqi(self) -> bool:
        return self.tournament.game is GameKind.XIANGQI

    def summary(self) -> dict:
        """What the root index says of the tournament: its game, system, size, dates, place and
        how far it has gone (the leader once it has results)."""
        progress = self.progress
        started = progress.results > 0
        return {"slug": self.slug, "name": self.tournament.name, "players": len(self.tournament.players),
                "rounds": self.tournament.rounds, "after_round": self.standings.after_round,
                "system": self.tournament.system.value, "game": self.tournament.game.value,
                "progress": _progress_data(progress), "header": self.header,
                "leader": self.standings.rows[0].player.name if started and self.standings.rows else ""}

    @cached_property
    def header(self) -> dict:
        """The tournament header: place, dates, chief arbiter, time control, rules."""
        return dataclasses.asdict(self.details)

    @cached_property
    def standings_page(self) -> dict:
        return self.standings_data()

    @cached_property
    def crosstable_page(self) -> dict:
        return self.crosstable_data()

    def standings_data(self) -> dict:
        codes = list(self.standings.tiebreaks)
        entries = [{"code": entry.code, "name": entry.name, "description": entry.description,
                    "definition": entry.definition, "article": entry.article,
                    "lower_is_better": entry.lower_is_better, "orders": entry.orders}
                   for entry in legend(codes)]
        rows = [{"rank": row.rank, "id": row.player.id, "name": row.player.name, "title": row.player.title,
                 "federation": row.player.federation, "rating": row.player.rating or None,
                 "club": row.player.club, "points": row.points, "withdrawn": self.withdrawn.get(row.player.id),
                 "values": [row.values[code] for code in codes]} for row in self.standings.rows]
        source = rules_source(self.rules)
        data = {"codes": codes, "legend": entries, "rows": rows, "after_round": self.standings.after_round,
                "scoring": self._scoring_words(), "source": source,
                "edition": str(self.rules.options.fide_edition) if source.startswith("FIDE") else None,
                "progress": _progress_data(self.progress), "header": self.header,
                "titles": any(row["title"] for row in rows), "withdrawals": bool(self.withdrawn)}
        if self.playoffs is not None:  # only then: other standings pages keep their data as it was
            required = self.playoffs.required
            in_groups = {player for group in self.playoffs.groups for player in group.players}
            for row in rows:
                row["playoff"] = ("required" if row["id"] in required else
                                  "decided" if row["id"] in in_groups else None)
            data["playoffs"] = [self._playoff_group(group) for group in self.playoffs.groups]
        return data

    def _scoring_words(self) -> dict:
        """What the legend says of the scoring: a win, a draw and a loss; the draw of each colour
        where they differ (CXA 13.3); the match points where they are the score and the game
        points of each game (VN 21.2, CXA 14.2)."""
        scoring = self.rules.scoring
        words: dict = scoring.as_json()
        if scoring.draw_first is not None or scoring.draw_second is not None:
            words["draws"] = board_points(scoring, Result.DRAW)
        if scoring.match is not None:
            words["match"] = dict(zip(("win", "draw", "loss"), scoring.match, strict=True))
        return words

    def _playoff_group(self, group) -> dict:
        """One play-off group: who, for which places, its format, its games (pending ones
        without a result) and, once decided, the order it gave."""
        def person(player: int) -> dict:
            return {"id": player, "name": self.names[player]}

        stages = []
        for stage in group.stages:
            name, armageddon = stage.name, stage.name.endswith(" armageddon")
            if armageddon:
                name = name[: -len(" armageddon")]
            number = name.partition("semi-final ")[2]
            stages.append({"kind": "semi-final" if number else name, "number": number, "armageddon": armageddon,
                           "decided": stage.decided,
                           "games": [{"round": game.round, "white": game.white, "black": game.black,
                                      "white_name": self.names[game.white], "black_name": self.names[game.black],
                                      "result": game.result.value if game.result else None}
                                     for game in stage.games]})
        return {"first_place": group.first_place, "last_place": group.first_place + len(group.players) - 1,
                "places": list(group.places), "format": str(group.format), "decided": group.decided,
                "players": [person(player) for player in group.players],
                "eliminated": [person(player) for player in group.eliminated],
                "order": [person(player) for player in group.order],
                "pending": len(group.pending), "stages": stages}

    def round_fingerprint(self, number: int) -> tuple | None:
        """What round ``number``'s page depends on, cheaply (its data is then built only when the
        page is rendered again): the digest of rounds 1 to ``number`` (its boards, and the points
        before it) and the players' names, titles and ratings; None where the data itself is the
        cheaper key (a round robin's coming round, a team event's round)."""
        if self.has_teams or number not in self._rounds_digests or number not in self.rounds_paired:
            return None
        return ("round", self._rounds_digest(number), self._field_digest)

    def round_data(self, number: int) -> dict:
        """A round's page (the same data in every language)."""
        if number not in self._round_cache:
            self._round_cache[number] = self._round_data(number)
        return self._round_cache[number]

    @cached_property
    def _round_cache(self) -> dict[int, dict]:
        return {}

    def _round_data(self, number: int) -> dict:
        """The boards of round ``number``: each side's starting number, title, name, rating and
        points before the round (as chess-results shows them), and the result in the event's own
        terms (``2-0``, ``1-1`` under 2/1/0 scoring); a round robin's coming round is the Berger
        table's pairing, "not played yet"."""
        coming = number in self.coming and number not in self.rounds_paired
        if coming:
            games, round_byes = self.coming[number]
        else:
            games = sorted((game for game in self.tournament.games if game.round == number), key=lambda g: g.board)
            round_byes = sorted((bye for bye in self.tournament.byes if bye.round == number), key=lambda b: b.player)
        before = self._points_before(number)
        boards = [{"board": game.board, "white": game.white, "black": game.black,
                   "white_name": self.names[game.white], "black_name": self.names[game.black],
                   "white_player": self._side(game.white, before), "black_player": self._side(game.black, before),
                   "result": game.result.value if game.result else None,
                   "score": board_text(game.result, self.scoring)} for game in games]
        for board in boards if not coming else ():  # what the withdrawal rule makes of an unplayed board
            decided = self.decided.get((number, board["board"]))
            if decided == "annulled":
                board["annulled"] = True
            elif board["result"] is None and isinstance(decided, Result):
                board.update(result=decided.value, score=board_text(decided, self.scoring))
        byes = [{"player": bye.player, "name": self.names[bye.player], "kind": bye.kind.value,
                 "side": self._side(bye.player, before)} for bye in round_byes]
        unfinished = sum(1 for board in boards if board["result"] is None and not board.get("annulled"))
        data = {"round": number, "boards": boards, "byes": byes, "coming": coming,
                "unfinished": 0 if coming else unfinished, "finished": not coming and unfinished == 0}
        if self.has_teams:  # the boards grouped by team match; others (if any) stay in "boards"
            data.update(self._team_round(number, games, boards))
        return data

    def _side(self, player_id: int, before: dict[int, float]) -> dict:
        player = self._players[player_id]
        return {"id": player_id, "title": player.title, "rating": player.rating or None,
                "points": before.get(player_id, 0.0), "withdrawn": self.withdrawn.get(player_id)}

    def _points_before(self, number: int) -> dict[int, float]:
        """Each player's points from the rounds before round ``number`` (finished games only)."""
        return {player: totals[min(number, len(totals)) - 1] for player, totals in self._running_points.items()}

    @cached_property
    def _running_points(self) -> dict[int, list[float]]:
        """Each player's points before rounds 1, 2, ..., and after the last (one pass over the cards)."""
        running = {}
        for player, card in self._cards.items():
            totals, total = [0.0], 0.0
            for entry in card.rounds:
                total += entry.points or 0.0
                totals.append(total)
            running[player] = totals
        return running

    # -- teams --------------------------------------------------------------------------------

    @property
    def has_teams(self) -> bool:
        return bool(self.tournament.teams)

    @cached_property
    def team_event(self):
        from ranking.standings.team import team_event_of  # a team event's pages only (start-up time)

        return team_event_of(self.tournament)

    @cached_property
    def team_table(self):
        from ranking.standings.team import team_standings  # a team event's pages only (start-up time)

        return team_standings(self.team_event)

    @cached_property
    def _team_cards(self) -> dict[int, TeamScorecard]:
        return team_scorecards(self.team_event, self.team_table.after_round)

    @cached_property
    def _team_names(self) -> dict[int, str]:
        return {team.id: team.name for team in self.tournament.teams}

    @cached_property
    def teams_page(self) -> dict:
        """The team standings (``ranking.team_standings``) with each team's roster: match and game
        points in their own columns, the one that ranks first first (``TeamStandings.scores``; a
        chain's MP or GP is not shown twice), none in an individual event's team classification
        (CXA 14.8)."""
        table = self.team_table
        classification = self.team_event.is_classification
        codes = [code for code in table.tiebreaks if classification or code.upper() not in ("MP", "GP")]
        entries = [{"code": entry.code, "name": entry.name, "definition": entry.definition,
                    "article": entry.article, "orders": entry.orders} for entry in team_legend(codes)]
        rows = []
        for row in table.rows:
            roster = [{"id": player, "name": self.names[player], "rank": self.rank_of.get(player),
                       "points": self._rows_by_id[player].points if player in self._rows_by_id else None}
                      for player in row.team.roster if player in self.names]
            rows.append({"rank": row.rank, "id": row.team.id, "name": row.team.name,
                         "match_points": row.match_points, "game_points": row.game_points,
                         "MP": row.match_points, "GP": row.game_points,
                         "values": [row.values[code] for code in codes], "roster": roster})
        scoring = self.team_event.scoring
        return {"after_round": table.after_round, "primary": table.primary, "scores": list(table.scores),
                "codes": codes, "legend": entries,
                "rows": rows, "boards": scoring.boards, "classification": classification,
                "scoring": {"win": scoring.match_win, "draw": scoring.match_draw, "loss": scoring.match_loss}}

    def _team_round(self, number: int, games: list, boards: list[dict]) -> dict:
        """A round's team matches, each with its score (game points) and its boards."""
        cards = self._team_cards
        by_game = {(game.white, game.black): board for game, board in zip(games, boards, strict=True)}
        grouped: set[tuple[int, int]] = set()
        matches = []
        for match in sorted((m for m in self.team_event.matches if m.round == number),
                            key=lambda m: (min((g.board for g in m.boards), default=0), m.first)):
            keys = [(game.white, game.black) for game in match.boards]
            grouped.update(keys)
            first = second = None
            if number <= self.team_table.after_round:  # the cards' rounds
                first, second = (cards[match.first].rounds[number - 1].game_points,
                                 cards[match.second].rounds[number - 1].game_points)
            matches.append({"first": match.first, "second": match.second,
                            "first_name": self._team_names.get(match.first, str(match.first)),
                            "second_name": self._team_names.get(match.second, str(match.second)),
                            "first_points": first, "second_points": second,
                            "first_text": half_text(first), "second_text": half_text(second),
                            "forfeit": match.forfeit,
                            "boards": [by_game[key] for key in keys if key in by_game]})
        team_byes = [{"team": bye.team, "name": self._team_names.get(bye.team, str(bye.team)),
                      "kind": str(bye.kind)}
                     for bye in sorted(self.team_event.byes, key=lambda b: b.team) if bye.round == number]
        others = [board for board in boards if (board["white"], board["black"]) not in grouped]
        return {"matches": matches, "boards": others, "team_byes": team_byes}

    def crosstable_data(self) -> dict:
        """Round robin: a result matrix in standings order.  Swiss: a wall chart, each round's
        opponent (by place), colour and result (both games of a two-game match, VN 21.2).

        The cells add up to the totals: they show the games as the standings count them, after
        the withdrawals (``ranking.apply_withdrawals``): an annulled game (VN 21.5.1) is an X
        counting nothing; under VN rules a forfeit against a player who had withdrawn is an X
        for the winner and a 0 for the withdrawn player (VN 21.5), elsewhere + and −."""
        order = [row.player.id for row in self.standings.rows]
        place = {player: index for index, player in enumerate(order, start=1)}
        cells: dict[int, dict[int, list[tuple[str, str]]]] = {player: {} for player in order}
        # each player's rounds: (opponent's place, None for a bye; colour; score; note) by number
        rounds: dict[int, dict[int, tuple]] = {player: {} for player in order}
        effects = self.withdrawal_effects
        vn = rules_source(self.rules).startswith("VN")
        after = self.standings.after_round
        games = [(game, False) for game in effects.tournament.games if game.result is not None or game.round <= after]
        games += [(game, True) for game in effects.annulled if game.result is not None or game.round <= after]
        games.sort(key=lambda item: (item[0].round, item[0].board))
        plain: dict[tuple[Result | None, bool], tuple[str, str]] = {}  # a side no withdrawal marks: by result
        round_robin = self.is_round_robin
        for game, annulled in games:
            marked = annulled or (vn and game.result is not None and game.result.is_forfeit)  # withdrawal_mark's
            number = game.round
            for me, other, white in ((game.white, game.black, True), (game.black, game.white, False)):
                if marked:
                    score, note = self._cell(game, white, annulled, vn)
                else:
                    known = plain.get((game.result, white))
                    if known is None:
                        known = plain[game.result, white] = self._cell(game, white, annulled, vn)
                    score, note = known
                if round_robin:  # the result matrix's cell (a wall chart has none)
                    cells[me].setdefault(other, []).append((score, note))
                mine = rounds[me]
                earlier = mine.get(number)
                if earlier is not None and earlier[0] == place[other]:  # a match: both games
                    mine[number] = (earlier[0], earlier[1], f"{earlier[2]} {score}", earlier[3])
                else:
                    mine[number] = (place[other], "w" if white else "b", score, note)
        for bye in self.tournament.byes:
            if bye.player in rounds and bye.round <= self.last_round:
                rounds[bye.player][bye.round] = (None, "", BYE_MARKS[bye.kind.value], "")
        numbers = range(1, self.last_round + 1)
        rows = []
        for player in order:
            row = self._rows_by_id[player]
            entry = {"place": place[player], "rank": row.rank, "id": player, "name": self.names[player],
                     "points": row.points, "withdrawn": self.withdrawn.get(player)}
            if self.is_round_robin:  # a result matrix; every game against an annulled player is an X
                for other in order:
                    if other != player and not cells[player].get(other) and (
                            {player, other} & effects.annulled_players):
                        cells[player][other] = [("X", "annulled")]
                # (text, note) against each column's player: (None, "") on the diagonal
                entry["cells"] = [(" ".join(score for score, _ in cells[player].get(other, [])),
                                   next((note for _, note in cells[player].get(other, []) if note), ""))
                                  if other != player else (None, "") for other in order]
            else:  # a wall chart: ("16", "w", "1", "") = against the player in place 16, with white, won
                # each row's cells made here, row after row as the page reads them (made in the
                # games' order, a row's cells lay apart in memory: its rendering a sixth slower)
                entry["rounds"] = [NO_CELL if cell is None else (str(cell[0]) if cell[0] else "", *cell[1:])
                                   for cell in map(rounds[player].get, numbers)]
            rows.append(entry)
        texts = {cell[2] for row in rows for cell in row.get("rounds", ())}  # each cell's text once
        texts |= {cell for row in rows for cell, _ in row.get("cells", ()) if cell}
        used = {mark for text in texts for mark in text.split()}
        notes = {cell[-1] for row in rows for cell in row.get("rounds", row.get("cells", ())) if cell[-1]}
        return {"round_robin": self.is_round_robin, "rows": rows, "rounds": list(range(1, self.last_round + 1)),
                "marks": marks_legend(self.scoring, used - {"X"}, notes)}

    @cached_property
    def withdrawal_effects(self) -> WithdrawalEffects:
        """The games as the standings count them: forfeits after withdrawals, annulled games apart."""
        return apply_withdrawals(self.tournament, self.rules)

    def _cell(self, game: Game, white: bool, annulled: bool, vn: bool) -> tuple[str, str]:
        """One side of a game in the crosstable: its mark and, for games a withdrawal changed,
        its note (``annulled``: counts nothing; ``withdrawal``: a VN forfeit against a player who
        had withdrawn, X for the winner and 0 for the withdrawn player)."""
        mark = withdrawal_mark(game, game.white if white else game.black, self.withdrawn, vn, annulled)
        if mark is not None:
            return mark, "annulled" if annulled else "withdrawal"
        return side_text(game.result, white, self.scoring), ""

    def player_fingerprint(self, player_id: int) -> tuple:
        """Everything a player's page shows, cheaply (the page is rendered again only when this
        changes): place and tie-breaks after the settled round, the round in progress, points,
        places by round, the scorecard (rounds and performance), and the names and ratings of
        everyone (opponents' names appear on the page)."""
        cached = self._fingerprints.get(player_id)
        if cached is None:
            card = self._cards[player_id]
            cached = self._fingerprints[player_id] = (
                self.settled_round, self.settled.get(player_id), self.round_in_progress,
                self._rows_by_id[player_id].points, tuple(self.rank_history[player_id]),
                card.tpr, card.aro, tuple(map(tuple, card.rounds)),  # plain tuples: quicker to digest (pickle)
                self._field_digest, self.last_round, self.withdrawn.get(player_id))
        return cached

    @cached_property
    def _fingerprints(self) -> dict[int, tuple]:
        return {}

    @cached_property
    def _field_digest(self) -> str:
        return hashlib.sha256(repr([(p.id, p.name, p.rating, p.federation, p.club, p.title)
                                    for p in self.tournament.players]).encode()).hexdigest()

    def player_data(self, player_id: int) -> dict:
        """A player's page (the same data in every language)."""
        cached = self._player_cache.get(player_id)
        if cached is None:
            cached = self._player_cache[player_id] = self._player_data(player_id)
        return cached

    @cached_property
    def _player_cache(self) -> dict[int, dict]:
        return {}

    def _player_data(self, player_id: int) -> dict:
        player = self._players[player_id]
        row = self._rows_by_id[player_id]
        card = self._cards[player_id]
        games = []
        vn = rules_source(self.rules).startswith("VN")
        for entry in card.rounds[:self.last_round]:
            if entry.opponent is not None:
                opponent = self._players[entry.opponent]
                white, black = (player_id, entry.opponent) if entry.white else (entry.opponent, player_id)
                played = self._matches.get((entry.round, frozenset((player_id, entry.opponent))), [])
                if len(played) < 2 or entry.annulled:  # one game: as the card has it
                    played = [Game(entry.round, white, black, entry.result, entry.board or 0)]
                for number, game in enumerate(played, start=1):  # both games of a match (VN 21.2)
                    mine = game.white == player_id
                    result, _ = self._cell(game, mine, entry.annulled, vn)
                    last = number == len(played)  # the round's points and score after its last game
                    games.append({"round": entry.round, "board": game.board or entry.board,
                                  "colour": "w" if mine else "b",
                                  "opponent": entry.opponent, "opponent_name": opponent.name,
                                  "opponent_title": opponent.title, "opponent_rating": opponent.rating or None,
                                  "result": result, "points": entry.points if last else None,
                                  "running": entry.score if last else None, "bye": None})
            elif entry.bye is not None:
                games.append({"round": entry.round, "board": None, "colour": "", "opponent": None,
                              "opponent_name": None, "opponent_title": "", "opponent_rating": None,
                              "result": "–" if self.is_round_robin else BYE_MARKS[entry.bye.value],  # a free round
                              "points": entry.points, "running": entry.score,
                              "bye": entry.bye.value})
        history = self.rank_history[player_id]
        chart = rank_chart(history, len(self.tournament.players))
        rank, values = self.settled.get(player_id, (None, ()))
        return {"chart": chart, "id": player_id, "name": player.name, "federation": player.federation,
                "club": player.club, "withdrawn": self.withdrawn.get(player_id),
                "rating": player.rating or None, "title": player.title, "points": row.points,
                "rank": rank, "rank_round": self.settled_round, "in_progress": self.round_in_progress,
                "games": games, "tpr": card.tpr, "aro": card.aro,
                "history": history, "field": len(self.tournament.players),
                "values": [{"code": code, "value": value} for code, value in zip(self.standings.tiebreaks, values,
                                                                                 strict=True)] if rank else []}

    @cached_property
    def _matches(self) -> dict[tuple[int, frozenset[int]], list]:
        """The games of each pairing as the standings count them, in board order: both games of
        a two-game match (VN 21.2) under one key (``ranking.matches_of``)."""
        return matches_of(self.withdrawal_effects.tournament.games) if plays_matches(self.tournament) else {}

    @cached_property
    def _cards(self) -> dict[int, Scorecard]:
        """Each player's scorecard up to the last round paired (its games may be unfinished)."""
        return player_scorecards(self.tournament, self.rules, self.last_round or None, sheet=self._played_sheet)

    @cached_property
    def _rows_by_id(self):
        return {row.player.id: row for row in self.standings.rows}

    def downloads(self) -> dict[str, Callable[[], bytes]]:
        """The tournament's downloads (file name -> its bytes when asked: ``site_builder.downloads``)."""
        return download_files(self.slug, self.tournament, lambda: self.final, self._trf_refusal is not None)

    @cached_property
    def _trf_refusal(self) -> str | None:
        """Why TRF cannot hold the event (``ranking.trf_refusal``), asked once per build: every
        language's standings page lists the downloads."""
        return trf_refusal(self.tournament)


def _progress_data(progress: Progress) -> dict:
    return {"stage": progress.stage.value, "round": progress.round, "rounds": progress.rounds,
            "unfinished": progress.unfinished}
