"""What a results service says about a tournament before its standings: where and when it is
played, who directs it, how far it has gone, and which rounds of a round robin are still to
come.

``tournament_details`` reads the tournament header records of a TRF (C.04 Annex 2: ``022`` city, ``032``
federation, ``042``/``052`` start and end dates, ``102`` chief arbiter, ``112`` deputies,
``122`` time control), which a tournament TOML file gives as ``place``, ``start_date``,
``end_date``, ``chief_arbiter``, ``deputy_arbiters`` and ``time_control``; ``tournament_progress`` says
whether it has started, which round is being played and how many games are unfinished;
``coming_rounds`` gives a round robin's rounds not paired yet, from the Berger tables.

>>> from ranking.event.model import Game, Player, Result, System, Tournament
>>> players = tuple(Player(n, f"P{n}") for n in range(1, 5))
>>> t = Tournament("RR", players, 3, (Game(1, 4, 1, Result.DRAW, 1), Game(1, 3, 2, None, 2)),
...                system=System.ROUND_ROBIN, records=(("022", "Hanoi"), ("042", "2026/03/14")))
>>> tournament_details(t).place, tournament_details(t).start
('Hanoi', datetime.date(2026, 3, 14))
>>> p = tournament_progress(t)
>>> p.stage.value, p.round, p.unfinished
('in-progress', 1, 1)
>>> [[(g.white, g.black) for g in games] for number, games, byes in coming_rounds(t)]
[[(4, 3), (1, 2)], [(2, 4), (3, 1)]]
"""

from __future__ import annotations

import datetime
import enum
import re
from dataclasses import dataclass

from ranking.errors import InputError
from ranking.event.clock import Clock, clock_of, paired_rounds, round_limit
from ranking.event.model import Bye, Game, System, Tournament
from ranking.formats.trf_records import HEADER_RECORDS
from ranking.pairing.pairings import berger_round, berger_schedule
from ranking.tiebreaks.presets import PRESETS, TEAM_PRESETS, team_preset_name

__all__ = ["HEADER_RECORDS", "Details", "Progress", "Stage", "coming_rounds", "parse_date", "tournament_details",
           "tournament_progress"]

_DATE_FORMATS = (
    (re.compile(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})"), (1, 2, 3)),  # 2026/03/14 (TRF), 2026-03-14
    (re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})"), (3, 2, 1)),  # 14.03.2026, 14/03/2026
    (re.compile(r"(\d{2})[/.-](\d{1,2})[/.-](\d{1,2})"), (1, 2, 3)),  # 26/03/14 (two-digit year)
)


def parse_date(text: str) -> datetime.date | None:
    """A date as TRF files write it (``2026/03/14``; also ``2026-03-14``, ``14.03.2026``), or None.

    >>> parse_date("2026/05/02"), parse_date("02.05.2026"), parse_date("May 2026")
    (datetime.date(2026, 5, 2), datetime.date(2026, 5, 2), None)
    """
    text = text.strip()
    for pattern, (year, month, day) in _DATE_FORMATS:
        match = pattern.fullmatch(text)
        if match:
            values = [int(part) for part in match.groups()]
            full_year = values[year - 1] + (2000 if values[year - 1] < 100 else 0)
            try:
                return datetime.date(full_year, values[month - 1], values[day - 1])
            except ValueError:
                return None
    return None


@dataclass(frozen=True)
class Details:
    """The tournament header: each field "" (or None) when the file does not say.  ``start_text``
    and ``end_text`` keep the dates as written when they are not dates ``parse_date`` reads;
    ``preset`` is the name of the rules preset the tournament's rules are (``cxa-rr``), and
    ``rules`` its description; a team event's ``team_preset`` (``cxa-team-rr``) and
    ``team_rules`` likewise name the rules its teams are ranked by."""

    place: str = ""
    federation: str = ""
    start: datetime.date | None = None
    end: datetime.date | None = None
    start_text: str = ""
    end_text: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: str = ""
    time_control: str = ""
    preset: str = ""
    rules: str = ""
    team_preset: str = ""
    team_rules: str = ""


def tournament_details(tournament: Tournament) -> Details:
    """The header of ``tournament``, from its TRF records (the first of each tag)."""
    found: dict[str, str] = {}
    for tag, text in tournament.records:
        found.setdefault(tag, text.strip())

    def get(key: str) -> str:
        return found.get(HEADER_RECORDS[key], "")

    start, end = get("start_date"), get("end_date")
    preset, description = "", ""
    rules = tournament.rules
    if rules is not None and rules.description:
        description = rules.description
        preset = next((name for name, known in PRESETS.items() if known.description == description), "")
    team_preset = team_preset_name(tournament) if tournament.teams else ""
    return Details(place=get("place"), federation=get("federation"), start=parse_date(start), end=parse_date(end),
                   start_text=start, end_text=end, chief_arbiter=get("chief_arbiter"),
                   deputy_arbiters=get("deputy_arbiters"), time_control=get("time_control"),
                   preset=preset, rules=description, team_preset=team_preset,
                   team_rules=TEAM_PRESETS[team_preset].description if team_preset else "")


class Stage(enum.StrEnum):
    NOT_STARTED = "not-started"  # no round paired, or none with a result or bye yet
    IN_PROGRESS = "in-progress"  # the round being played has games without a result
    BETWEEN_ROUNDS = "between-rounds"  # every paired game has a result, rounds are still to come
    FINAL = "final"  # every round of the tournament is paired and finished


@dataclass(frozen=True)
class Progress:
    """How far a tournament has gone: its ``stage``; ``round``, the round being played
    (IN_PROGRESS: the first with a game still without a result) or the last one paired;
    ``rounds``, the rounds it has (0: not known); ``finished``, the rounds whose every game has
    a result; ``unfinished``, the games of ``round`` still without one; ``results``, the games
    with a result or decided by a withdrawal."""

    stage: Stage
    round: int
    rounds: int
    finished: int
    unfinished: int
    results: int


def tournament_progress(tournament: Tournament, now: Clock | None = None) -> Progress:
    """Where ``tournament`` stands (``Stage``), by its clock (``ranking.event.clock``; ``now``, when
    the caller has it already: ``clock_of(tournament)``): the round being played is the current
    round; a board the withdrawal rule decides (a forfeit, or annulled:
    ``ranking.event.withdrawals``) is not being played, and counts among the results."""
    now = now if now is not None else clock_of(tournament)
    results = now.decided
    rounds = tournament.rounds
    if not now.paired or (results == 0 and not now.open_boards):
        return Progress(Stage.NOT_STARTED, 0, rounds, 0, 0, 0)
    current = now.current or 0
    if now.open_boards:
        return Progress(Stage.IN_PROGRESS, current, rounds, len(now.complete), len(now.open_in(current)), results)
    stage = Stage.FINAL if now.finished else Stage.BETWEEN_ROUNDS
    return Progress(stage, current, rounds, len(now.complete), 0, results)


def coming_rounds(tournament: Tournament) -> list[tuple[int, list[Game], list[Bye]]]:
    """The rounds of an individual round robin not paired yet (``ranking.event.clock``), each as
    the pairing will make it (``ranking.pairing.pairings.berger_round``, FIDE C.05 Annex 1,
    starting numbers as pairing numbers): (round, games without a result, the player who sits
    the round out in an odd field).  [] for a Swiss, a team event, or a round robin whose
    recorded games are not the table's (paired by other numbers)."""
    if tournament.system is System.SWISS or tournament.teams or len(tournament.players) < 2:
        return []
    try:
        schedule = berger_schedule(tournament)
    except InputError:
        return []
    paired = paired_rounds(tournament)
    return [(number, *berger_round(tournament, schedule, number))
            for number in range(1, (round_limit(tournament) or 0) + 1) if number not in paired]
