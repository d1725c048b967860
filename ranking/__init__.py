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
    "Tournament": "ranking.event.model", "Player": "ranking.event.model", "Game": "ranking.event.model",
    "Bye": "ranking.event.model", "ByeKind": "ranking.event.model", "Withdrawal": "ranking.event.model",
    "Result": "ranking.event.model", "GameKind": "ranking.event.model", "System": "ranking.event.model",
    "Team": "ranking.event.model", "TeamMatch": "ranking.event.model", "TeamBye": "ranking.event.model",
    "TeamByeKind": "ranking.event.model", "TeamEvent": "ranking.event.model",
    # rules and presets
    "Rules": "ranking.scoring.rules", "Scoring": "ranking.scoring.rules", "Outcome": "ranking.scoring.rules",
    "Options": "ranking.scoring.rules", "Edition": "ranking.scoring.rules", "ByeValue": "ranking.scoring.rules",
    "DirectEncounterMode": "ranking.scoring.rules", "PreviousMode": "ranking.scoring.rules",
    "RoundRobinWithdrawal": "ranking.scoring.rules", "SCORING_SYSTEMS": "ranking.scoring.rules",
    "PlayoffRule": "ranking.scoring.rules", "PlayoffFormat": "ranking.scoring.rules",
    "TeamRules": "ranking.scoring.rules", "TeamScoring": "ranking.scoring.rules",
    "PRESETS": "ranking.tiebreaks.presets", "get_preset": "ranking.tiebreaks.presets",
    "TEAM_PRESETS": "ranking.tiebreaks.presets", "get_team_preset": "ranking.tiebreaks.presets",
    "rules_source": "ranking.tiebreaks.presets",
    # tie-break codes and the registry
    "TiebreakSpec": "ranking.tiebreaks.codes", "TeamSpec": "ranking.tiebreaks.codes",
    "split_codes": "ranking.tiebreaks.codes", "Tiebreak": "ranking.tiebreaks.registry",
    "REGISTRY": "ranking.tiebreaks.individual", "TEAM_REGISTRY": "ranking.tiebreaks.team",
    # standings
    "Standings": "ranking.standings.individual", "StandingRow": "ranking.standings.individual",
    "compute_standings": "ranking.standings.individual", "default_rules": "ranking.standings.individual",
    "parse_chain": "ranking.standings.individual", "FinalStandings": "ranking.standings.final",
    "final_standings": "ranking.standings.final", "collection_paused": "ranking.standings.individual",
    "TeamStandings": "ranking.standings.team", "team_standings": "ranking.standings.team",
    "team_event_of": "ranking.standings.team",
    # points: what a game or a bye is worth
    "board_points": "ranking.scoring.points", "bye_points": "ranking.scoring.points",
    "game_points": "ranking.scoring.points",
    # scorecards and legends
    "Scorecard": "ranking.standings.scorecards", "CardRound": "ranking.standings.scorecards",
    "player_scorecards": "ranking.standings.scorecards", "TeamScorecard": "ranking.standings.scorecards",
    "TeamCardRound": "ranking.standings.scorecards", "team_scorecards": "ranking.standings.scorecards",
    "LegendEntry": "ranking.standings.scorecards", "legend": "ranking.standings.scorecards",
    "team_legend": "ranking.standings.scorecards",
    # play-offs
    "PlayoffStandings": "ranking.standings.playoffs", "PlayoffGroup": "ranking.standings.playoffs",
    "PlayoffStage": "ranking.standings.playoffs", "apply_playoffs": "ranking.standings.playoffs",
    # the event log
    "Event": "ranking.event.log", "EventKind": "ranking.event.log", "LoggedEvent": "ranking.event.log",
    "TournamentState": "ranking.event.log", "needs_correction": "ranking.event.log",
    "result_event": "ranking.event.log", "annulment_event": "ranking.event.log", "foul_event": "ranking.event.log",
    "bye_event": "ranking.event.log", "withdrawal_event": "ranking.event.log", "pairing_event": "ranking.event.log",
    "playoff_result_event": "ranking.event.log", "player_added_event": "ranking.event.log",
    "setting_event": "ranking.event.log", "settings_events": "ranking.event.log", "unpair_event": "ranking.event.log",
    "return_event": "ranking.event.log", "player_edited_event": "ranking.event.log",
    "player_removed_event": "ranking.event.log", "Undo": "ranking.event.undo", "undo_change": "ranking.event.undo",
    # the event's clock, the players list, refusals
    "Clock": "ranking.event.clock", "clock_of": "ranking.event.clock", "board_results": "ranking.event.clock",
    "Seeding": "ranking.event.model", "TITLES": "ranking.event.players", "initial_ranking": "ranking.event.players",
    "pairing_numbers": "ranking.event.players", "players_json": "ranking.event.players",
    "find_players": "ranking.event.players", "by_pairing_number": "ranking.event.players",
    "Refusal": "ranking.event.refusals", "Code": "ranking.event.refusals",
    # settings and result spellings
    "parse_setting": "ranking.event.settings", "SETTINGS": "ranking.event.settings",
    "parse_result": "ranking.scoring.spelling", "written_result": "ranking.scoring.spelling",
    "written_points": "ranking.scoring.spelling",
    # files as text
    "parse_trf": "ranking.formats.trf_read", "write_trf": "ranking.formats.trf_write",
    "trf_refusal": "ranking.formats.trf_write",
    # withdrawals (VN 21.5, FIDE C.07 16.1)
    "apply_withdrawals": "ranking.event.withdrawals", "WithdrawalEffects": "ranking.event.withdrawals",
    "withdrawal_mark": "ranking.event.withdrawals",
    "parse_tournament_toml": "ranking.formats.tomlfile", "write_tournament_toml": "ranking.formats.toml_export",
    # two-game matches (VN 21.2)
    "plays_matches": "ranking.event.matches", "match_boards": "ranking.event.matches",
    "as_matches": "ranking.event.matches", "one_game_a_match": "ranking.event.matches",
    "match_result_events": "ranking.event.log", "matches_of": "ranking.event.matches",
    # pairing
    "berger_table": "ranking.pairing.pairings", "round_robin_schedule": "ranking.pairing.pairings",
    "pair_swiss": "ranking.pairing.swiss", "check_swiss": "ranking.pairing.swiss",
    # the tournament's header and progress
    "Details": "ranking.event.overview", "tournament_details": "ranking.event.overview",
    "Progress": "ranking.event.overview", "Stage": "ranking.event.overview",
    "tournament_progress": "ranking.event.overview", "coming_rounds": "ranking.event.overview",
    "HEADER_RECORDS": "ranking.event.overview", "parse_date": "ranking.event.overview",
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

    from ranking.errors import InputError
    from ranking.event.clock import Clock, board_results, clock_of
    from ranking.event.log import (
        Event,
        EventKind,
        LoggedEvent,
        TournamentState,
        annulment_event,
        bye_event,
        foul_event,
        match_result_events,
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
    from ranking.event.matches import as_matches, match_boards, matches_of, one_game_a_match, plays_matches
    from ranking.event.model import (
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
    from ranking.event.overview import (
        HEADER_RECORDS,
        Details,
        Progress,
        Stage,
        coming_rounds,
        parse_date,
        tournament_details,
        tournament_progress,
    )
    from ranking.event.players import (
        TITLES,
        by_pairing_number,
        find_players,
        initial_ranking,
        pairing_numbers,
        players_json,
    )
    from ranking.event.refusals import Code, Refusal
    from ranking.event.settings import SETTINGS, parse_setting
    from ranking.event.undo import Undo, undo_change
    from ranking.event.withdrawals import WithdrawalEffects, apply_withdrawals, withdrawal_mark
    from ranking.formats.toml_export import write_tournament_toml
    from ranking.formats.tomlfile import parse_tournament_toml
    from ranking.formats.trf_read import parse_trf
    from ranking.formats.trf_write import trf_refusal, write_trf
    from ranking.pairing.pairings import berger_table, round_robin_schedule
    from ranking.pairing.swiss import check_swiss, pair_swiss
    from ranking.scoring.points import board_points, bye_points, game_points
    from ranking.scoring.rules import (
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
    from ranking.scoring.spelling import parse_result, written_points, written_result
    from ranking.standings.final import FinalStandings, final_standings
    from ranking.standings.individual import (
        StandingRow,
        Standings,
        collection_paused,
        compute_standings,
        default_rules,
        parse_chain,
    )
    from ranking.standings.playoffs import PlayoffGroup, PlayoffStage, PlayoffStandings, apply_playoffs
    from ranking.standings.scorecards import (
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
    from ranking.standings.team import TeamStandings, team_event_of, team_standings
    from ranking.tiebreaks.codes import TeamSpec, TiebreakSpec, split_codes
    from ranking.tiebreaks.individual import REGISTRY
    from ranking.tiebreaks.presets import PRESETS, TEAM_PRESETS, get_preset, get_team_preset, rules_source
    from ranking.tiebreaks.registry import Tiebreak
    from ranking.tiebreaks.team import TEAM_REGISTRY
