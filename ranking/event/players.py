"""The players list of an event: the initial ranking list that gives the pairing numbers (TPN,
C.04.2 General Handling Rules 2), and finding a player by starting number or by name.

- **The initial ranking list** (GHR 2.1-2.2): rating, highest first; then FIDE title, in the
  order GM, IM, WGM, FM, WIM, CM, WFM, WCM, none (``TITLES``); then name, alphabetically,
  ignoring case and diacritics; the starting number last, for two entries alike in all that.
- **A player's ``id``** (the starting number they were entered with) never changes: every
  command, message and page names players by it.  The TPN, their place in the list, is derived;
  only the pairing of a Swiss round and the TRF export use it (``by_pairing_number``).
- **The numbers as given** are the pairing numbers under ``Seeding.AS_NUMBERED`` (every TRF, a
  tournament TOML file that says ``seeding = "as-numbered"``), in round robins (their Berger
  numbers are the starting numbers, drawn by lot: C.05) and in team events.
- **Corrections** (a rating, a title, a name) re-rank the list until round 4 is paired (GHR 2.3,
  ``RE_RANK_UNTIL``); from then on the list is kept as it was (``Tournament.ranking_list``,
  ``kept_ranking``), and a late entry (GHR 2.4) goes where its rating puts it among the players
  kept.  Our reading: the rules do not say how a late entry after round 4 is ranked.

>>> from ranking.event.model import Player, Seeding, Tournament
>>> t = Tournament("Open", (Player(1, "Zhou", 2100), Player(2, "An", 2300, title="FM"),
...                         Player(3, "Bo", 2300, title="IM")), 9, seeding=Seeding.RATING)
>>> initial_ranking(t), pairing_numbers(t)
((3, 2, 1), {3: 1, 2: 2, 1: 3})
>>> [p.name for p in find_players(Tournament("Open", (Player(1, "Lại Lý Huynh"), Player(2, "Nguyễn Văn An")), 9),
...                               "lai ly")]
['Lại Lý Huynh']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ranking.event.model import Game, Player, Seeding, System, Tournament
from ranking.scoring.spelling import fold

__all__ = ["RE_RANK_UNTIL", "TITLES", "Renumbered", "by_pairing_number", "find_players", "initial_ranking",
           "kept_ranking", "pairing_numbers", "players_json", "ranking_key", "ranks_by_rating", "title_of"]

#: FIDE titles in the order that ranks equal ratings (GHR 2.2); a player without one comes after.
TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
#: Corrections re-rank the initial ranking list until this round is paired (GHR 2.3).
RE_RANK_UNTIL = 4
#: Records that name players by their number: pairs that must not meet, virtual points.
_NUMBERED_RECORDS = ("XXP", "260", "pairing.forbidden")


def title_of(text: str) -> str | None:
    """A FIDE title as written (``im``, ``WGM``), in capitals; "" for none; None when it is not
    one of ``TITLES``.

    >>> title_of(" im "), title_of(""), title_of("GrandMaster")
    ('IM', '', None)
    """
    title = text.strip().upper()
    return title if title in TITLES or not title else None


def ranking_key(player: Player) -> tuple[int, int, str, str, int]:
    """Where ``player`` stands in the initial ranking list: rating (highest first), title
    (``TITLES`` order, none last), name ignoring case and diacritics, starting number."""
    title = player.title.strip().upper()
    order = TITLES.index(title) if title in TITLES else len(TITLES)
    return -player.rating, order, _name_key(player.name), player.name, player.id


def _name_key(name: str) -> str:
    return " ".join(fold(unicodedata.normalize("NFC", name)).replace(",", " ").split())


def ranks_by_rating(tournament: Tournament) -> bool:
    """Whether the pairing numbers follow the initial ranking list (a Swiss event of individuals
    seeded by rating) rather than the starting numbers as given."""
    return tournament.seeding is Seeding.RATING and tournament.system is System.SWISS and not tournament.teams


def initial_ranking(tournament: Tournament) -> tuple[int, ...]:
    """The players' ids in TPN order: the initial ranking list (GHR 2), or the starting numbers
    in order where they are the pairing numbers (``ranks_by_rating``).  A list kept since round
    4 (``Tournament.ranking_list``) stays as it is; a player entered later goes before the
    first kept player they outrank (GHR 2.4)."""
    players = tournament.players
    if not ranks_by_rating(tournament):
        return tuple(sorted(player.id for player in players))
    ordered = sorted(players, key=ranking_key)
    if not tournament.ranking_list:
        return tuple(player.id for player in ordered)
    by_id = {player.id: player for player in players}
    kept = [by_id[pid] for pid in tournament.ranking_list if pid in by_id]
    known = {player.id for player in kept}
    for newcomer in (player for player in ordered if player.id not in known):
        key = ranking_key(newcomer)
        place = next((k for k, player in enumerate(kept) if key < ranking_key(player)), len(kept))
        kept.insert(place, newcomer)
    return tuple(player.id for player in kept)


def kept_ranking(tournament: Tournament) -> tuple[int, ...]:
    """The list to keep once round ``RE_RANK_UNTIL`` is paired (GHR 2.3): the initial ranking
    list as it stands, or () where the pairing numbers are the starting numbers anyway."""
    return initial_ranking(tournament) if ranks_by_rating(tournament) else ()


def pairing_numbers(tournament: Tournament) -> dict[int, int]:
    """Each player's TPN, by id."""
    return {pid: tpn for tpn, pid in enumerate(initial_ranking(tournament), start=1)}


@dataclass(frozen=True)
class Renumbered:
    """An event with its players numbered by TPN (``by_pairing_number``): the tournament as a
    pairing program sees it, and the two ways between ids and TPNs."""

    tournament: Tournament
    tpn: Mapping[int, int]  # id -> TPN
    id: Mapping[int, int]  # TPN -> id

    @property
    def same(self) -> bool:
        """The TPNs are the ids (nothing was renumbered)."""
        return all(pid == tpn for pid, tpn in self.tpn.items())

    def ids_in(self, text: str) -> str:
        """A line the pairing engine wrote about TPNs, with the players' ids instead: every
        number but a round's (``round 5``, ``rounds 1-3``) names a player.

        >>> Renumbered(None, {7: 1, 3: 2}, {1: 7, 2: 3}).ids_in("round 2 cannot be paired: players 1, 2 (C3)")
        'round 2 cannot be paired: players 7, 3 (C3)'
        """
        if self.same:
            return text
        return _NUMBER.sub(lambda match: match.group(0) if match.group(1) else
                           str(self.id.get(int(match.group(2)), match.group(2))), text)


_NUMBER = re.compile(r"(\brounds? (?:\d+\b[-, ]*)+)|\b(\d+)\b")


def by_pairing_number(tournament: Tournament) -> Renumbered:
    """``tournament`` with every player numbered by TPN (games, byes, withdrawals, play-off
    games, the teams' rosters and their matches' boards, and the records that name players:
    forbidden pairs), as the TRF export writes it (TRF-2026's team records name the members by
    the numbers of the player lines) and the Dutch engine pairs it; the same tournament when
    the TPNs are the ids."""
    tpn = pairing_numbers(tournament)
    back = {number: pid for pid, number in tpn.items()}
    if all(pid == number for pid, number in tpn.items()):
        return Renumbered(tournament, tpn, back)
    t = tournament

    def game(g: Game) -> Game:
        return replace(g, white=tpn[g.white], black=tpn[g.black])

    records = tuple((tag, _renumbered_record(tag, rest, tpn)) for tag, rest in t.records)
    renumbered = replace(
        t, players=tuple(sorted((replace(p, id=tpn[p.id]) for p in t.players), key=lambda p: p.id)),
        games=tuple(game(g) for g in t.games), byes=tuple(replace(b, player=tpn[b.player]) for b in t.byes),
        withdrawals=tuple(replace(w, player=tpn[w.player]) for w in t.withdrawals),
        playoff_games=tuple(game(g) for g in t.playoff_games), records=records,
        teams=tuple(replace(team, roster=tuple(tpn[pid] for pid in team.roster)) for team in t.teams),
        team_matches=tuple(replace(match, boards=tuple(game(g) for g in match.boards)) for match in t.team_matches),
        seeding=Seeding.AS_NUMBERED, ranking_list=())
    return Renumbered(renumbered, tpn, back)


def _renumbered_record(tag: str, rest: str, tpn: Mapping[int, int]) -> str:
    """A record that names players by number, with their TPNs (``XXA``: its first number)."""
    if tag in _NUMBERED_RECORDS:
        return re.sub(r"\d+", lambda m: str(tpn.get(int(m.group()), m.group())), rest)
    if tag == "XXA":
        return re.sub(r"^(\s*)(\d+)", lambda m: m.group(1) + str(tpn.get(int(m.group(2)), m.group(2))), rest)
    return rest


def players_json(tournament: Tournament) -> list[dict[str, Any]]:
    """The initial ranking list as plain values (``tiebreak players SLUG --json``, the site's
    players page): ``{"tpn", "id", "name", "rating", "title", "federation", "club", "withdrawn"}``
    per player in TPN order; ``rating`` None for an unrated player, ``title`` "" for none."""
    by_id = {player.id: player for player in tournament.players}
    withdrawn = {withdrawal.player for withdrawal in tournament.withdrawals}
    return [{"tpn": tpn, "id": pid, "name": by_id[pid].name, "rating": by_id[pid].rating or None,
             "title": by_id[pid].title, "federation": by_id[pid].federation, "club": by_id[pid].club,
             "withdrawn": pid in withdrawn}
            for tpn, pid in enumerate(initial_ranking(tournament), start=1)]


def find_players(tournament: Tournament, query: str) -> list[Player]:
    """The players ``query`` names: a starting number, or words of a name, ignoring case,
    diacritics and word order ("Lai Ly Huynh" finds "Lại Lý Huynh", "nguyen an" finds
    "Nguyễn Văn An").  A name matched exactly wins over the names that only contain it."""
    text = query.strip().lstrip("#")
    if text.isascii() and text.isdigit():
        return [player for player in tournament.players if player.id == int(text)]
    wanted = _name_key(text)
    if not wanted:
        return []
    exact = [player for player in tournament.players if _name_key(player.name) == wanted]
    if exact:
        return exact
    words = wanted.split()
    return [player for player in tournament.players if all(word in _name_key(player.name) for word in words)]
