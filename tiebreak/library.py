"""The use cases the command line, the bot and the site share, each decided in this one place:
naming an imported tournament, importing config.toml's tournaments, and importing (or making)
the pairing of the next round.  Exporting a tournament is ``tiebreak.exports``'s (the import
check writes the export too).

Everything here works on a ``Store`` and the core's values; nothing prints or talks to Telegram.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ranking.errors import InputError
from ranking.event.clock import clock_of
from ranking.event.matches import as_matches, one_game_a_match, plays_matches
from ranking.event.model import Bye, Game, Tournament
from ranking.event.players import by_pairing_number
from ranking.event.refusals import Code, Refusal
from ranking.event.slugs import is_slug
from ranking.formats.tomlfile import SLUG
from ranking.pairing.pairings import (
    next_round_pairing,
    next_team_round_pairing,
    order_boards,
    pairings_from_list,
    pairings_from_trf,
)
from ranking.standings.final import final_standings
from tiebreak.checks import check_admissible
from tiebreak.config import Config
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore, Store


def child_environment(environment: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a program the bot or the site starts (a site build, a publisher's
    git, rsync or command): this process's without ``TELEGRAM_*`` and ``ZALO_*`` (the chat
    channels' tokens and secrets above all), which none of them needs."""
    environment = os.environ if environment is None else environment
    return {name: value for name, value in environment.items()
            if not name.upper().startswith(("TELEGRAM_", "ZALO_"))}


def open_store(config: Config, *, create: bool = True, readonly: bool = False) -> Store:
    """The store config.toml names (``[storage].path``); the one place that picks its adapter.
    ``create``: make it when missing (else "no store exists there"); ``readonly``: for reading."""
    return SQLiteStore(config.storage, create=create, readonly=readonly)


def slug_for(tournament: Tournament, file: str, given: str | None) -> str:
    """The short name a tournament is stored under: ``given`` (``--slug``, the bot's
    ``/import SLUG``), else the file's own ``slug``, else one made from the file name."""
    if given is not None:
        if not is_slug(given):
            raise Refusal(Code.SLUG_INVALID, slug=given)
        return given
    own = next((value for tag, value in tournament.records if tag == SLUG), None)
    if own:
        return own
    made = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(file).stem).strip("-._").lower()
    return made or "tournament"


def import_tournament(store: Store, tournament: Tournament, file: str, given: str | None, source: Source) -> str:
    """Store ``tournament``, read from ``file``, under its slug (``slug_for``) once it passes the
    store's checks (``tiebreak.checks``); returns the slug."""
    slug = slug_for(tournament, file, given)
    check_admissible(tournament, slug, file)
    store.create(slug, tournament, source)
    return slug


@dataclass(frozen=True)
class ConfiguredImport:
    """One ``[[tournaments]]`` file of config.toml: its slug and whether it was imported now
    (False: the store already had it)."""

    slug: str
    tournament: Tournament
    imported: bool


def import_configured(store: Store, config: Config, source: Source | None = None) -> list[ConfiguredImport]:
    """Import the ``[[tournaments]]`` files of config.toml that the store does not have yet
    (``tiebreak import --from-config``, and the bot and the site before they start)."""
    known = set(store.slugs(archived=True))  # an archived tournament is still in the store
    done = []
    for path in config.tournament_files:
        tournament = load_tournament(path)
        slug = slug_for(tournament, str(path), None)
        fresh = slug not in known
        if fresh:
            import_tournament(store, tournament, str(path), slug, source or Source("config"))
            known.add(slug)
        done.append(ConfiguredImport(slug, tournament, fresh))
    return done


def pairing_from_file(tournament: Tournament, text: str, source: str,
                      kind: str | None = None) -> tuple[int, list[Game], list[Bye]]:
    """The next round as another program paired it: a TRF holding the round (``kind`` "trf"),
    or the pairs list of JaVaFo / bbpPairings (``"pairs"``: ``-p``, a count, then ``WHITE BLACK``
    lines); told by content when ``kind`` is None.  Both number the players as the TRF export
    does, by pairing number; the games come back in starting numbers.  The file is checked
    against the tournament and its boards are put in FIDE order (C.04.2 C)."""
    number = clock_of(tournament).next_round
    if kind is None:
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        kind = "pairs" if first.isdigit() else "trf"
    read = pairings_from_list if kind == "pairs" else pairings_from_trf
    numbered = by_pairing_number(one_game_a_match(tournament))  # a two-game match: one pair (VN 21.2)
    games, byes = read(numbered.tournament, text, number, source=source)
    ids = numbered.id
    games = [replace(game, white=ids[game.white], black=ids[game.black]) for game in games]
    byes = [replace(bye, player=ids[bye.player]) for bye in byes]
    scores = final_standings(tournament).points()
    order = sorted(scores, key=lambda pid: (-scores[pid], numbered.tpn[pid]))  # score, then TPN (C.04.3 1.2)
    games = order_boards(games, scores, {pid: place for place, pid in enumerate(order, start=1)})
    return number, as_matches(games) if plays_matches(tournament) else games, byes


def scheduled_pairing(tournament: Tournament, number: int | None = None) -> tuple[int, list[Game], list[Bye]]:
    """Round ``number`` of a round robin (individuals or teams) from the Berger tables, by
    default the clock's next round (``ranking.event.clock``); a Swiss event is refused with
    what to do instead."""
    if not tournament.system.is_round_robin:
        raise InputError("a Swiss round is paired by your pairing program: export the tournament as TRF, "
                         "pair it there and import the round")
    games, byes = (next_team_round_pairing if tournament.teams else next_round_pairing)(tournament, number)
    number = games[0].round if games else byes[0].round
    return number, games, byes
