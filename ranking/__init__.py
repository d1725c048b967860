"""The ranking core of Tiebreak: text in, values out.

The tournament model (players, teams, rounds, games, byes, forfeits, withdrawals, fouls), the
scoring systems and rule presets, every tie-break of FIDE C.07 and of the CXA, ZS and VN rules
in one registry, standings and play-offs, pairing, and the TRF and tournament TOML texts.
Nothing here opens a file, prints, or touches a database or a network: the application
(``tiebreak``) does that.

The public API is importable from here::

    from ranking import final_standings, parse_trf
    final = final_standings(parse_trf(text))

Names are resolved when first used (PEP 562), so ``import ranking`` costs nothing and a
command that reads a TRF never loads the TOML reader, the team code or the play-offs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    # errors
    "InputError": "ranking.errors",
    # the model
    "Tournament": "ranking.model", "Player": "ranking.model", "Game": "ranking.model", "Bye": "ranking.model",
    "ByeKind": "ranking.model", "Withdrawal": "ranking.model", "Result": "ranking.model",
    "GameKind": "ranking.model", "System": "ranking.model",
    "Team": "ranking.teams", "TeamMatch": "ranking.teams", "TeamBye": "ranking.teams",
    "TeamByeKind": "ranking.teams",
    # rules and presets
    "Rules": "ranking.rules", "Scoring": "ranking.rules", "Options": "ranking.rules", "Edition": "ranking.rules",
    "ByeValue": "ranking.rules", "DirectEncounterMode": "ranking.rules", "PreviousMode": "ranking.rules",
    "RoundRobinWithdrawal": "ranking.rules", "SCORING_SYSTEMS": "ranking.rules",
    "PlayoffRule": "ranking.playoffs", "TeamRules": "ranking.teams", "TeamScoring": "ranking.teams",
    "PRESETS": "ranking.presets", "get_preset": "ranking.presets",
    "TEAM_PRESETS": "ranking.teams", "get_team_preset": "ranking.teams",
    # tie-break codes and the registry
    "TiebreakSpec": "ranking.codes", "parse_code": "ranking.codes", "split_codes": "ranking.codes",
    "REGISTRY": "ranking.tiebreaks", "TEAM_REGISTRY": "ranking.team_tiebreaks",
    "parse_team_code": "ranking.team_tiebreaks",
    # standings
    "Standings": "ranking.standings", "StandingRow": "ranking.standings", "compute_standings": "ranking.standings",
    "default_rules": "ranking.standings", "parse_chain": "ranking.standings",
    "FinalStandings": "ranking.final", "final_standings": "ranking.final",
    "TeamStandings": "ranking.teams", "team_standings": "ranking.teams", "team_event_of": "ranking.teams",
    "board_points": "ranking.teams",
    # play-offs
    "PlayoffStandings": "ranking.playoffs", "PlayoffGroup": "ranking.playoffs", "PlayoffStage": "ranking.playoffs",
    "PlayoffFormat": "ranking.playoffs", "apply_playoffs": "ranking.playoffs",
    # the event log
    "Event": "ranking.events", "EventKind": "ranking.events", "LoggedEvent": "ranking.events",
    "TournamentState": "ranking.events",
    # files as text
    "parse_trf": "ranking.trf", "write_trf": "ranking.trf",
    "parse_tournament_toml": "ranking.tomlfile", "write_tournament_toml": "ranking.tomlfile",
    # pairing
    "berger_table": "ranking.pairing", "round_robin_schedule": "ranking.pairing",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` the first time it is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ranking' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:  # what type checkers and editors see; nothing of it runs
    from ranking.codes import TiebreakSpec, parse_code, split_codes
    from ranking.errors import InputError
    from ranking.events import Event, EventKind, LoggedEvent, TournamentState
    from ranking.final import FinalStandings, final_standings
    from ranking.model import Bye, ByeKind, Game, GameKind, Player, Result, System, Tournament, Withdrawal
    from ranking.pairing import berger_table, round_robin_schedule
    from ranking.playoffs import (
        PlayoffFormat,
        PlayoffGroup,
        PlayoffRule,
        PlayoffStage,
        PlayoffStandings,
        apply_playoffs,
    )
    from ranking.presets import PRESETS, get_preset
    from ranking.rules import (
        SCORING_SYSTEMS,
        ByeValue,
        DirectEncounterMode,
        Edition,
        Options,
        PreviousMode,
        RoundRobinWithdrawal,
        Rules,
        Scoring,
    )
    from ranking.standings import StandingRow, Standings, compute_standings, default_rules, parse_chain
    from ranking.team_tiebreaks import TEAM_REGISTRY, parse_team_code
    from ranking.teams import (
        TEAM_PRESETS,
        Team,
        TeamBye,
        TeamByeKind,
        TeamMatch,
        TeamRules,
        TeamScoring,
        TeamStandings,
        board_points,
        get_team_preset,
        team_event_of,
        team_standings,
    )
    from ranking.tiebreaks import REGISTRY
    from ranking.tomlfile import parse_tournament_toml, write_tournament_toml
    from ranking.trf import parse_trf, write_trf
