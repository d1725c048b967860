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

TYPE_CHECKING = False  # typing itself costs start-up time; type checkers read the block at the end

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    # errors
    "InputError": "ranking.errors",
    # the model
    "Tournament": "ranking.model", "Player": "ranking.model", "Game": "ranking.model", "Bye": "ranking.model",
    "ByeKind": "ranking.model", "Withdrawal": "ranking.model", "Result": "ranking.model",
    "GameKind": "ranking.model", "System": "ranking.model",
    "Team": "ranking.model", "TeamMatch": "ranking.model", "TeamBye": "ranking.model",
    "TeamByeKind": "ranking.model", "TeamEvent": "ranking.model",
    # rules and presets
    "Rules": "ranking.rules", "Scoring": "ranking.rules", "Outcome": "ranking.rules", "Options": "ranking.rules",
    "Edition": "ranking.rules",
    "ByeValue": "ranking.rules", "DirectEncounterMode": "ranking.rules", "PreviousMode": "ranking.rules",
    "RoundRobinWithdrawal": "ranking.rules", "SCORING_SYSTEMS": "ranking.rules",
    "PlayoffRule": "ranking.rules", "PlayoffFormat": "ranking.rules", "TeamRules": "ranking.rules",
    "TeamScoring": "ranking.rules",
    "PRESETS": "ranking.presets", "get_preset": "ranking.presets",
    "TEAM_PRESETS": "ranking.presets", "get_team_preset": "ranking.presets", "rules_source": "ranking.presets",
    # tie-break codes and the registry
    "TiebreakSpec": "ranking.codes", "TeamSpec": "ranking.codes", "split_codes": "ranking.codes",
    "Tiebreak": "ranking.registry",
    "REGISTRY": "ranking.tiebreaks", "TEAM_REGISTRY": "ranking.team_tiebreaks",
    # standings
    "Standings": "ranking.standings", "StandingRow": "ranking.standings", "compute_standings": "ranking.standings",
    "default_rules": "ranking.standings", "parse_chain": "ranking.standings",
    "FinalStandings": "ranking.final", "final_standings": "ranking.final",
    "collection_paused": "ranking.standings",
    "TeamStandings": "ranking.teams", "team_standings": "ranking.teams",
    "team_event_of": "ranking.teams",
    # points: what a game or a bye is worth
    "board_points": "ranking.points", "bye_points": "ranking.points", "game_points": "ranking.points",
    # scorecards and legends
    "Scorecard": "ranking.scorecards", "CardRound": "ranking.scorecards", "player_scorecards": "ranking.scorecards",
    "TeamScorecard": "ranking.scorecards", "TeamCardRound": "ranking.scorecards",
    "team_scorecards": "ranking.scorecards", "LegendEntry": "ranking.scorecards", "legend": "ranking.scorecards",
    "team_legend": "ranking.scorecards",
    # play-offs
    "PlayoffStandings": "ranking.playoffs", "PlayoffGroup": "ranking.playoffs", "PlayoffStage": "ranking.playoffs",
    "apply_playoffs": "ranking.playoffs",
    # the event log
    "Event": "ranking.events", "EventKind": "ranking.events", "LoggedEvent": "ranking.events",
    "TournamentState": "ranking.events",
    "needs_correction": "ranking.events",
    "result_event": "ranking.events", "annulment_event": "ranking.events", "foul_event": "ranking.events",
    "bye_event": "ranking.events", "withdrawal_event": "ranking.events", "pairing_event": "ranking.events",
    "playoff_result_event": "ranking.events", "player_added_event": "ranking.events",
    "setting_event": "ranking.events", "settings_events": "ranking.events", "unpair_event": "ranking.events",
    "return_event": "ranking.events", "player_edited_event": "ranking.events",
    "player_removed_event": "ranking.events",
    "Undo": "ranking.undo", "undo_change": "ranking.undo",
    # the event's clock, the players list, refusals
    "Clock": "ranking.clock", "clock_of": "ranking.clock", "board_results": "ranking.clock",
    "Seeding": "ranking.model", "TITLES": "ranking.players", "initial_ranking": "ranking.players",
    "pairing_numbers": "ranking.players", "players_json": "ranking.players", "find_players": "ranking.players",
    "by_pairing_number": "ranking.players",
    "Refusal": "ranking.refusals", "Code": "ranking.refusals",
    # settings and result spellings
    "parse_setting": "ranking.settings", "SETTINGS": "ranking.settings",
    "parse_result": "ranking.spelling", "written_result": "ranking.spelling", "written_points": "ranking.spelling",
    # files as text
    "parse_trf": "ranking.trf", "write_trf": "ranking.trf", "trf_refusal": "ranking.trf",
    # withdrawals (VN 21.5, FIDE C.07 16.1)
    "apply_withdrawals": "ranking.withdrawals", "WithdrawalEffects": "ranking.withdrawals",
    "parse_tournament_toml": "ranking.tomlfile", "write_tournament_toml": "ranking.tomlfile",
    # pairing
    "berger_table": "ranking.pairing", "round_robin_schedule": "ranking.pairing",
    "pair_swiss": "ranking.swiss", "check_swiss": "ranking.swiss",
    # the tournament's header and progress
    "Details": "ranking.overview", "tournament_details": "ranking.overview", "Progress": "ranking.overview",
    "Stage": "ranking.overview", "tournament_progress": "ranking.overview", "coming_rounds": "ranking.overview",
    "HEADER_RECORDS": "ranking.overview", "parse_date": "ranking.overview",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` the first time it is asked for."""
    import importlib  # only when a name is first asked for: `import ranking` loads nothing

    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ranking' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:  # what type checkers and editors see; nothing of it runs
    from typing import Any

    from ranking.clock import Clock, board_results, clock_of
    from ranking.codes import TeamSpec, TiebreakSpec, split_codes
    from ranking.errors import InputError
    from ranking.events import (
        Event,
        EventKind,
        LoggedEvent,
        TournamentState,
        annulment_event,
        bye_event,
        foul_event,
        needs_correction,
        pairing_event,
        player_added_event,
        player_edited_event,
        player_removed_event,
        playoff_result_event,
        result_event,
        return_event,
        setting_event,
        settings_events,
        unpair_event,
        withdrawal_event,
    )
    from ranking.final import FinalStandings, final_standings
    from ranking.model import (
        Bye,
        ByeKind,
        Game,
        GameKind,
        Player,
        Result,
        Seeding,
        System,
        Team,
        TeamBye,
        TeamByeKind,
        TeamEvent,
        TeamMatch,
        Tournament,
        Withdrawal,
    )
    from ranking.overview import (
        HEADER_RECORDS,
        Details,
        Progress,
        Stage,
        coming_rounds,
        parse_date,
        tournament_details,
        tournament_progress,
    )
    from ranking.pairing import berger_table, round_robin_schedule
    from ranking.players import (
        TITLES,
        by_pairing_number,
        find_players,
        initial_ranking,
        pairing_numbers,
        players_json,
    )
    from ranking.playoffs import PlayoffGroup, PlayoffStage, PlayoffStandings, apply_playoffs
    from ranking.points import board_points, bye_points, game_points
    from ranking.presets import PRESETS, TEAM_PRESETS, get_preset, get_team_preset, rules_source
    from ranking.refusals import Code, Refusal
    from ranking.registry import Tiebreak
    from ranking.rules import (
        SCORING_SYSTEMS,
        ByeValue,
        DirectEncounterMode,
        Edition,
        Options,
        Outcome,
        PlayoffFormat,
        PlayoffRule,
        PreviousMode,
        RoundRobinWithdrawal,
        Rules,
        Scoring,
        TeamRules,
        TeamScoring,
    )
    from ranking.scorecards import (
        CardRound,
        LegendEntry,
        Scorecard,
        TeamCardRound,
        TeamScorecard,
        legend,
        player_scorecards,
        team_legend,
        team_scorecards,
    )
    from ranking.settings import SETTINGS, parse_setting
    from ranking.spelling import parse_result, written_points, written_result
    from ranking.standings import (
        StandingRow,
        Standings,
        collection_paused,
        compute_standings,
        default_rules,
        parse_chain,
    )
    from ranking.swiss import check_swiss, pair_swiss
    from ranking.team_tiebreaks import TEAM_REGISTRY
    from ranking.teams import TeamStandings, team_event_of, team_standings
    from ranking.tiebreaks import REGISTRY
    from ranking.tomlfile import parse_tournament_toml, write_tournament_toml
    from ranking.trf import parse_trf, trf_refusal, write_trf
    from ranking.undo import Undo, undo_change
    from ranking.withdrawals import WithdrawalEffects, apply_withdrawals
